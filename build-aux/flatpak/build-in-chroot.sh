#!/bin/bash
# A stand-in for flatpak-builder where Flathub and its runtimes cannot be
# reached: builds the manifest's modules the way flatpak-builder would
# (prefix /app, each module's buildsystem, config-opts and build-commands,
# the pinned sources, the manifest's cleanup) inside a Debian unstable
# chroot, whose GTK and libadwaita are those of the GNOME runtime the
# manifest names, then runs the installed app's smoke checks. See
# docs/flatpak.md for what this can and cannot tell.
#
# Usage: build-aux/flatpak/build-in-chroot.sh
# Runs as root. Environment:
#   DRIVEDUEL_CHROOT_CACHE   where build-aux/check-distro.sh keeps its chroot
#                            tarballs (default /var/cache/driveduel-chroots);
#                            the newest sid-deps-*.tar.zst is unpacked, never
#                            written or removed: run check-distro.sh sid once
#                            first if there is none
#   DRIVEDUEL_CHROOT_TMPDIR  where the chroot is unpacked (default /var/tmp),
#                            as driveduel-flatpak-standin.XXXXXX, removed at
#                            the end
#   DRIVEDUEL_FLATPAK_GIT_MIRRORS
#                            "URL=GITDIR ..." local copies of git sources that
#                            cannot be cloned from here; a GitHub URL is also
#                            looked for in /work/.mirror/OWNER+NAME/repo. The
#                            pinned commit (and tag) is checked in the copy.
#   DRIVEDUEL_FLATPAK_DOWNLOADS
#                            a folder holding archive sources by file name;
#                            their sha256 is checked
# It takes check-distro.sh's lock (/var/tmp/driveduel-check-distro.lock), so
# the two never use the machine's 2 cores at once, and builds with nice.
#
# Exit status: 0 built and every smoke check passed, 1 a build or check
# failed, 3 the chroot or a source could not be had.
set -u -o pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
manifest=$top/build-aux/flatpak/io.github.driveduel.DriveDuel.json
cache=${DRIVEDUEL_CHROOT_CACHE:-/var/cache/driveduel-chroots}
tmpbase=${DRIVEDUEL_CHROOT_TMPDIR:-/var/tmp}
mirrors=${DRIVEDUEL_FLATPAK_GIT_MIRRORS:-}
downloads=${DRIVEDUEL_FLATPAK_DOWNLOADS:-}
jobs=2

[ "$(id -u)" -eq 0 ] || { echo "build-in-chroot: needs root (chroot, mount)" >&2; exit 3; }

start=$(date +%s)
say () { printf '== flatpak stand-in [%4ss]: %s\n' "$(( $(date +%s) - start ))" "$*"; }

root=""
cleanup () {
    local rc=$? p link m
    set +e
    trap - EXIT INT TERM HUP
    if [ -n "$root" ] && [ -d "$root" ]; then
        # Processes left in the chroot, each by its id.
        for p in /proc/[0-9]*; do
            link=$(readlink "$p/root" 2>/dev/null) || continue
            case $link in "$root"|"$root"/*) kill -KILL "${p#/proc/}" 2>/dev/null ;; esac
        done
        for m in $(awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
            umount "$m" 2>/dev/null || umount -l "$m"
        done
        if awk -v r="$root" 'index($5, r) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
            echo "build-in-chroot: could not unmount, $root kept" >&2
        else
            rm -rf --one-file-system "$root"
        fi
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

exec 9>"$tmpbase/driveduel-check-distro.lock"
if ! flock -n 9; then
    say "waiting for a check-distro run to finish (its lock)"
    flock 9
fi

tarball=$(ls -t "$cache"/sid-deps-*.tar.zst 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "build-in-chroot: no $cache/sid-deps-*.tar.zst; run build-aux/check-distro.sh sid once" >&2; exit 3; }
root=$(mktemp -d "$tmpbase/driveduel-flatpak-standin.XXXXXX") || exit 3
chmod 755 "$root"
say "unpacking $(basename "$tarball") ($(date -r "$tarball" +%F)) into $root"
zstd -dc "$tarball" | tar --numeric-owner --xattrs --xattrs-include='*' -xpf - -C "$root" || exit 3
mount -t proc proc "$root/proc" || exit 3

work=/home/builder/flatpak-standin
mkdir -p "$root$work" "$root/app"

in_chroot () {
    chroot "$root" 9>&- /usr/bin/env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 "$@"
}
# As flatpak-builder runs a module's build: /app first in the paths.
as_builder () {
    chroot "$root" 9>&- /usr/bin/setpriv --reuid=builder --regid=builder --init-groups \
        /usr/bin/env -i PATH=/app/bin:/usr/bin:/bin HOME=/home/builder LANG=C.UTF-8 TERM=dumb \
        PKG_CONFIG_PATH=/app/lib/pkgconfig:/app/share/pkgconfig LD_LIBRARY_PATH=/app/lib \
        CFLAGS="-O2 -g" CXXFLAGS="-O2 -g" LDFLAGS="-L/app/lib" \
        FLATPAK_BUILDER_N_JOBS=$jobs FLATPAK_ID=io.github.driveduel.DriveDuel FLATPAK_DEST=/app \
        nice -n 10 "$@"
}

say "the runtime's stand-in: $(in_chroot sh -c 'printf "GTK %s, libadwaita %s, GLib %s, appstreamcli %s" \
    "$(pkg-config --modversion gtk4)" "$(pkg-config --modversion libadwaita-1)" \
    "$(pkg-config --modversion glib-2.0)" "$(appstreamcli --version | sed -n "s/.*version: //p")"')"

# ---- The manifest's modules, one shell-quoted line each -----------------------------
plan=$(python3 - "$manifest" <<'PY'
import json, shlex, sys
m = json.load(open(sys.argv[1]))
q = shlex.quote
print("CLEANUP " + " ".join(q(c) for c in m.get("cleanup", [])))
for i, mod in enumerate(m["modules"]):
    if isinstance(mod, str):
        sys.exit("module %d is a file reference; not supported" % i)
    name = mod["name"]
    print("MODULE %s %s %s" % (q(name), q(mod.get("buildsystem", "autotools")), "1" if mod.get("builddir") else "0"))
    print("OPTS " + " ".join(q(o) for o in mod.get("config-opts", [])))
    for c in mod.get("build-commands", []):
        print("CMD " + q(c))
    for s in mod.get("sources", []):
        t = s["type"]
        if t == "git":
            print("GIT %s %s %s" % (q(s["url"]), q(s.get("commit", "")), q(s.get("tag", ""))))
        elif t == "archive":
            print("ARCHIVE %s %s" % (q(s["url"]), q(s.get("sha256", ""))))
        elif t == "dir":
            print("DIR " + q(s["path"]))
        else:
            sys.exit("%s: source type %s not supported" % (name, t))
    print("END")
PY
) || exit 3

# A local copy of a git URL: from DRIVEDUEL_FLATPAK_GIT_MIRRORS, the mirror
# folder, or a clone.
git_dir_for () {
    local url=$1 entry path
    for entry in $mirrors; do
        [ "${entry%%=*}" = "$url" ] && { echo "${entry#*=}"; return 0; }
    done
    path=${url#https://github.com/}
    path=${path%.git}
    if [ "$path" != "$url" ] && [ -d "/work/.mirror/${path/\//+}/repo" ]; then
        echo "/work/.mirror/${path/\//+}/repo"
        return 0
    fi
    git clone --quiet --bare "$url" "$root/tmp/clone.$$" >/dev/null 2>&1 && { echo "$root/tmp/clone.$$"; return 0; }
    return 1
}

fetch_git () {  # URL COMMIT TAG DEST
    local url=$1 commit=$2 tag=$3 dest=$4 gitdir got
    [ -n "$commit" ] || { echo "build-in-chroot: $url is not pinned to a commit" >&2; return 1; }
    gitdir=$(git_dir_for "$url") || { echo "build-in-chroot: cannot clone $url and no local copy of it" >&2; return 1; }
    got=$(git -C "$gitdir" rev-parse --verify --quiet "$commit^{commit}") || {
        echo "build-in-chroot: $commit is not in $gitdir" >&2; return 1; }
    [ "$got" = "$commit" ] || { echo "build-in-chroot: $commit resolves to $got" >&2; return 1; }
    if [ -n "$tag" ]; then
        got=$(git -C "$gitdir" rev-parse --verify --quiet "refs/tags/$tag^{commit}")
        [ "$got" = "$commit" ] || { echo "build-in-chroot: tag $tag is ${got:-missing}, not $commit" >&2; return 1; }
    fi
    say "  git $url: $commit${tag:+ (tag $tag)} verified in $gitdir"
    git -C "$gitdir" archive --format=tar "$commit" | tar -xf - -C "$dest"
}

fetch_archive () {  # URL SHA256 DEST
    local url=$1 sha=$2 dest=$3 file got
    [ -n "$sha" ] || { echo "build-in-chroot: $url has no sha256" >&2; return 1; }
    file="$root/tmp/$(basename "$url")"
    if [ -n "$downloads" ] && [ -f "$downloads/$(basename "$url")" ]; then
        cp "$downloads/$(basename "$url")" "$file"
    else
        curl -fsSL -o "$file" "$url" || { echo "build-in-chroot: cannot download $url" >&2; return 1; }
    fi
    got=$(sha256sum "$file" | cut -d' ' -f1)
    [ "$got" = "$sha" ] || { echo "build-in-chroot: $url has sha256 $got, not $sha" >&2; return 1; }
    say "  archive $url: sha256 verified"
    tar -xf "$file" -C "$dest" --strip-components=1
}

fetch_dir () {  # PATH DEST (relative to the manifest, as flatpak-builder reads it)
    local from dest=$2
    from=$(cd "$(dirname "$manifest")/$1" && pwd) || return 1
    say "  dir $from (the files git lists, with uncommitted edits)"
    if git -C "$from" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        ( cd "$from" && git ls-files -z --cached --others --exclude-standard |
          while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
          tar --null --no-recursion -T - -cf - ) | tar -xf - -C "$dest"
    else
        tar -C "$from" --exclude='./build*' -cf - . | tar -xf - -C "$dest"
    fi
}

build_module () {  # NAME BUILDSYSTEM BUILDDIR, with $opts and $cmds set
    local name=$1 bs=$2 builddir=$3 dir=$work/$1 b
    say "module $name ($bs)"
    case $bs in
        simple)
            local c
            for c in "${cmds[@]}"; do
                as_builder sh -c "cd $dir && $c" || return 1
            done ;;
        meson)
            b=.; [ "$builddir" = 1 ] && b=_flatpak_build
            as_builder sh -c 'cd "$0" && b=$1 && shift && meson setup "$b" --prefix=/app --libdir=lib --wrap-mode=nodownload "$@"' \
                "$dir" "$b" "${opts[@]}" || return 1
            as_builder ninja -C "$dir/$b" -j $jobs || return 1
            as_builder meson install -C "$dir/$b" --no-rebuild --quiet || return 1 ;;
        cmake-ninja)
            as_builder sh -c 'cd "$0" && cmake -S . -B _flatpak_build -G Ninja -DCMAKE_INSTALL_PREFIX=/app -DCMAKE_INSTALL_LIBDIR=lib "$@"' \
                "$dir" "${opts[@]}" || return 1
            as_builder ninja -C "$dir/_flatpak_build" -j $jobs install || return 1 ;;
        autotools)
            as_builder sh -c 'cd "$0" && ./configure --prefix=/app "$@" && make -j'$jobs' && make install' \
                "$dir" "${opts[@]}" || return 1 ;;
        *) echo "build-in-chroot: buildsystem $bs not supported" >&2; return 1 ;;
    esac
}

in_chroot chown builder:builder "$work" /app || exit 3
cleanup_patterns=()
name="" bs="" builddir=0 opts=() cmds=()
while IFS= read -r line; do
    eval "set -- $line"
    kind=$1; shift
    case $kind in
        CLEANUP) cleanup_patterns=("$@") ;;
        MODULE) name=$1 bs=$2 builddir=$3 opts=() cmds=()
                mkdir -p "$root$work/$name" ;;
        OPTS) opts=("$@") ;;
        CMD) cmds+=("$1") ;;
        GIT) fetch_git "$1" "$2" "$3" "$root$work/$name" || exit 3 ;;
        ARCHIVE) fetch_archive "$1" "$2" "$root$work/$name" || exit 3 ;;
        DIR) fetch_dir "$1" "$root$work/$name" || exit 3 ;;
        END) in_chroot chown -R builder:builder "$work/$name" || exit 3
             build_module "$name" "$bs" "$builddir" > "$root/tmp/build-$name.log" 2>&1 ||
                 { tail -n 40 "$root/tmp/build-$name.log"; say "FAILED: module $name"; exit 1; }
             say "  $name installed into /app" ;;
    esac
done <<< "$plan"

# The manifest's cleanup, as flatpak-builder applies it to /app.
for p in "${cleanup_patterns[@]}"; do
    case $p in
        /*) rm -rf "$root/app$p" ;;
        *) find "$root/app" -name "$p" -exec rm -rf {} + ;;
    esac
done
say "cleanup done; /app holds $(find "$root/app" -type f | wc -l) files, $(du -sh "$root/app" | cut -f1)"

# ---- Smoke checks on what is installed in /app -----------------------------------------
fails=0
check () {
    local what=$1; shift
    if out=$("$@" 2>&1); then
        echo "   ok: $what"
        [ -n "$out" ] && echo "$out" | sed 's/^/      /' | head -n 12
    else
        echo "   FAILED: $what"
        echo "$out" | sed 's/^/      /' | tail -n 20
        fails=$((fails + 1))
    fi
}
say "smoke checks"
run () { as_builder sh -c "cd /tmp && $1"; }
check "driveduel-cli --version" run '/app/bin/driveduel-cli --version'
check "driveduel --version" run '/app/bin/driveduel --version'
check "driveduel-cli compare --help says up to four" \
    run '/app/bin/driveduel-cli compare --help | head -n 3 && /app/bin/driveduel-cli compare --help | grep -q "four"'
check "liburing from /app, no libnvme or json-c linked" \
    run 'ldd /app/bin/driveduel-cli | grep -E "uring|nvme|json-c" ; ldd /app/bin/driveduel-cli | grep -q "/app/lib/liburing" && ! ldd /app/bin/driveduel-cli | grep -qE "libnvme|libjson-c"'
check "a 1 s run of 4K random writes on a file, analyzed" \
    run 'd=$(mktemp -d) && /app/bin/driveduel-cli run --rw randwrite --bs 4k --iodepth 8 --runtime 1 --span 16m --output $d/r.json $d/target.img >/dev/null && /app/bin/driveduel-cli analyze $d/r.json | head -n 4; rc=$?; rm -rf $d; exit $rc'
check "installed files a desktop needs" run 'ls /app/share/applications /app/share/metainfo /app/share/mime/packages /app/share/icons/hicolor/scalable/apps'
check "appstreamcli validate --pedantic --no-net (installed metainfo)" \
    run 'appstreamcli validate --pedantic --no-net /app/share/metainfo/io.github.driveduel.DriveDuel.metainfo.xml; true'
cp "$top/tests/check-appstream.sh" "$root/tmp/check-appstream.sh"
chmod 755 "$root/tmp/check-appstream.sh"
check "tests/check-appstream.sh on the installed files" \
    run "/tmp/check-appstream.sh $work/driveduel /app/share/metainfo/io.github.driveduel.DriveDuel.metainfo.xml /app/share/applications/io.github.driveduel.DriveDuel.desktop /app/share/mime/packages/io.github.driveduel.DriveDuel.xml /app/bin/driveduel-cli"

echo
if [ $fails -eq 0 ]; then
    say "PASS: every module built into /app and every smoke check passed"
    exit 0
fi
say "FAIL: $fails smoke checks failed"
exit 1
