#!/bin/bash
# Builds Drive Duel and runs its unit and integration suites inside a chroot
# of a newer Debian release (13 "trixie" or unstable "sid"), to see that it
# builds without a compiler warning and passes against that release's GTK,
# libadwaita, GLib, cairo, Pango, liburing and libnvme. See docs/building.md.
#
# Usage: build-aux/check-distro.sh trixie|sid [meson test arguments]
#   With no meson test arguments it runs --suite unit --suite integration
#   --suite gui --suite a11y --no-suite long.
# Runs as root (debootstrap, chroot, mount); through sudo when not root.
#
# The chroot is made with debootstrap from Debian's archive and cached as
# tarballs in $DRIVEDUEL_CHROOT_CACHE (default /var/cache/driveduel-chroots):
#   RELEASE-base.tar.zst          debootstrap --variant=minbase, nothing more
#   RELEASE-deps-HASH.tar.zst     the same with the build dependencies
#                                 installed; HASH is of the package list
# A second run unpacks the second and installs nothing. Tarballs older than
# $DRIVEDUEL_CHROOT_MAX_AGE_DAYS (default 7) are made again; if that fails
# (the archive unreachable, sid uninstallable for a day) the old one is used.
# DRIVEDUEL_CHROOT_REFRESH=1 makes them again now.
#
# The chroot itself is a temporary directory (under $DRIVEDUEL_CHROOT_TMPDIR,
# default /var/tmp), removed at the end. Only /proc is mounted into it; the
# exit trap stops every process left in it and unmounts everything under it,
# whether the run passed, failed or was interrupted.
#
# The source copied in is the working tree's files as git lists them (tracked
# files as they are on disk, with uncommitted edits, and untracked files that
# are not ignored). It builds as an unprivileged user with -Dwerror=true
# (the tree builds without a warning on Debian 12): any compiler warning the
# newer compiler or headers bring fails the check. Tests that need root, a
# loop device, FUSE, a system bus or a display skip themselves as they do
# for any user; the gui suite runs under Xvfb (tests/gui-test-wrapper.sh);
# the nvme, fuzz and valgrind suites are not run.
#
# Exit status: 0 pass, 1 the build or a test failed, 2 bad usage, 3 the
# chroot could not be made (not a Drive Duel failure).
set -u -o pipefail

usage () {
    echo "usage: $0 trixie|sid [meson test arguments]" >&2
    exit 2
}

[ $# -ge 1 ] || usage
release=$1
shift
case $release in
    trixie|sid) ;;
    *) usage ;;
esac

if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        exec sudo --preserve-env=DRIVEDUEL_CHROOT_CACHE,DRIVEDUEL_CHROOT_TMPDIR,DRIVEDUEL_CHROOT_MAX_AGE_DAYS,DRIVEDUEL_CHROOT_REFRESH,DRIVEDUEL_DEBIAN_MIRROR \
            bash "$0" "$release" "$@"
    fi
    echo "check-distro: needs root (debootstrap, chroot, mount) and there is no sudo" >&2
    exit 3
fi

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DRIVEDUEL_CHROOT_CACHE:-/var/cache/driveduel-chroots}
tmpbase=${DRIVEDUEL_CHROOT_TMPDIR:-/var/tmp}
max_age=${DRIVEDUEL_CHROOT_MAX_AGE_DAYS:-7}
refresh=${DRIVEDUEL_CHROOT_REFRESH:-0}
mirror=${DRIVEDUEL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ $# -gt 0 ]; then
    test_args=("$@")
else
    # gui: the window on the release's GTK and libadwaita, where the newer
    # dialogs and the breakpoint replace the deprecated ones (duel-adw-compat.h).
    # Not 'long' (the whole quick review, whose parts are tested on their own).
    # a11y: the window through AT-SPI, whose tree GTK 4.24 builds otherwise
    # (only the page shown; a button named by its label).
    test_args=(--suite unit --suite integration --suite gui --suite a11y --no-suite long)
fi

# What is installed in the chroot: build-aux/install-deps.sh's list (the
# Debian 12 one), less what serves only suites that are not run here.
not_here="
  qemu-system-x86 busybox-static
  clang libclang-rt-14-dev
  valgrind
  udisks2 polkitd dbus udev bubblewrap sdparm
"
# The nvme suite boots a QEMU guest; the fuzz suite is built with clang by
# its own script; the valgrind suite is not run; udisks-cli and
# udisks-sandbox (integration) need root and a system bus, and skip without
# them.
#
# Names that differ in a release: "RELEASE:DEBIAN12NAME=NAME" (none yet;
# NAME may be empty to drop a package the release no longer has).
renames="
"
# Changing how the chroot is set up below? Bump this, so cached tarballs
# made the old way are not used.
recipe=3

start=$(date +%s)
say () {
    printf '== check-distro %s [%4ss]: %s\n' "$release" "$(( $(date +%s) - start ))" "$*"
}

root=""
child=""
cleanup () {
    local rc=$? left
    set +e
    trap - EXIT INT TERM HUP
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
    if [ -n "$root" ] && [ -d "$root" ]; then
        stop_chroot_processes
        unmount_under "$root"
        left=$(mounts_under "$root")
        if [ -n "$left" ]; then
            echo "check-distro: could not unmount, $root kept:" >&2
            echo "$left" >&2
            [ $rc -eq 0 ] && rc=1
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

# Runs "$@" in the background and waits for it, so that a signal reaches
# the trap at once (bash runs a trap only when the foreground command ends).
run_child () {
    "$@" < /dev/null 9>&- &
    child=$!
    wait "$child"
    local rc=$?
    child=""
    return "$rc"
}

# Mount points at or below $1, deepest first (mountinfo's 5th field).
mounts_under () {
    awk -v r="$1" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

unmount_under () {
    local m
    for m in $(mounts_under "$1"); do
        umount "$m" 2>/dev/null || umount -l "$m"
    done
}

# Processes whose root is the chroot (left by a test or a maintainer
# script): each by its id, TERM then KILL.
chroot_pids () {
    local p link
    for p in /proc/[0-9]*; do
        link=$(readlink "$p/root" 2>/dev/null) || continue
        if [ "$link" = "$root" ] || [ "${link#"$root"/}" != "$link" ]; then
            echo "${p#/proc/}"
        fi
    done
}

stop_chroot_processes () {
    local pids
    pids=$(chroot_pids)
    [ -n "$pids" ] || return 0
    echo "check-distro: stopping processes left in the chroot: $pids" >&2
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null
    sleep 2
    pids=$(chroot_pids)
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
    sleep 0.5
}

mount_proc () {
    mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
}

# 9>&-: nothing in the chroot holds the run's lock (fd 9), not even what a
# run killed outright leaves behind; the next run stops it.
in_chroot () {
    chroot "$root" /usr/bin/env -i 9>&- \
        PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# The tests as an unprivileged user (root's tests skip themselves); sbin in
# PATH as root has it on the host, where test-run finds mkfs.ext4.
as_builder () {
    chroot "$root" 9>&- /usr/bin/setpriv --reuid=builder --regid=builder --init-groups \
        /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin HOME=/home/builder \
        LANG=C.UTF-8 TERM=dumb ${CI:+CI=$CI} "$@"
}

fresh () {
    [ "$refresh" != 1 ] && [ -f "$1" ] && [ -n "$(find "$1" -mmin -$(( max_age * 1440 )) 2>/dev/null)" ]
}

save_tarball () {
    local out=$1 tmp="$1.tmp.$$"
    # --format=posix keeps mtimes to the nanosecond: fontconfig takes its
    # caches in /var/cache/fontconfig as stale when a font directory's mtime
    # lost its nanoseconds, and then a user who cannot rewrite them gets
    # "Fontconfig error: No writable cache directories" on stderr.
    if tar --format=posix --numeric-owner --xattrs --one-file-system -C "$root" -cf - . |
        zstd -q -T2 -3 -o "$tmp"; then
        mv -f "$tmp" "$out"
    else
        rm -f "$tmp"
        return 1
    fi
}

unpack_tarball () {
    zstd -dc "$1" | tar --numeric-owner --xattrs --xattrs-include='*' -xpf - -C "$root"
}

new_root () {
    if [ -n "$root" ]; then
        stop_chroot_processes
        unmount_under "$root"
        [ -z "$(mounts_under "$root")" ] || { echo "check-distro: $root still has mounts" >&2; exit 3; }
        rm -rf --one-file-system "$root"
    fi
    root=$(mktemp -d "$tmpbase/driveduel-$release.XXXXXX") || exit 3
    chmod 755 "$root"
}

# ---- Host tools --------------------------------------------------------------

missing=""
command -v debootstrap >/dev/null 2>&1 || missing="$missing debootstrap"
command -v zstd >/dev/null 2>&1 || missing="$missing zstd"
if [ -n "$missing" ]; then
    say "installing on the host:$missing"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >/dev/null \
        || { echo "check-distro: could not install$missing on the host" >&2; exit 3; }
fi

# One run at a time on the machine (per temporary directory).
mkdir -p "$cache" "$tmpbase" || exit 3
exec 9>"$tmpbase/driveduel-check-distro.lock"
if ! flock -n 9; then
    say "waiting for another check-distro run to finish"
    flock 9
fi

# A chroot left by a run that was killed outright (SIGKILL): its processes,
# mounts and files go now. None is in use: this run holds the lock.
for stale in "$tmpbase"/driveduel-trixie.?????? "$tmpbase"/driveduel-sid.??????; do
    [ -d "$stale" ] || continue
    say "removing $stale, left by a run that was killed"
    root=$stale
    stop_chroot_processes
    unmount_under "$root"
    [ -z "$(mounts_under "$root")" ] || { echo "check-distro: $root still has mounts" >&2; exit 3; }
    rm -rf --one-file-system "$root" "$root.debootstrap.log"
    root=""
done

# ---- The package list and the cache key -----------------------------------------

deps=$(awk '/^PACKAGES="/ { on = 1; next } on && /^"/ { exit } on' "$top/build-aux/install-deps.sh")
[ -n "$deps" ] || { echo "check-distro: no PACKAGES list in build-aux/install-deps.sh" >&2; exit 3; }
packages=""
for p in $deps; do
    case " $(echo $not_here) " in *" $p "*) continue ;; esac
    for r in $renames; do
        case $r in "$release:$p="*) p=${r#*=}; break ;; esac
    done
    [ -n "$p" ] && packages="$packages $p"
done
packages=$(echo $packages | tr ' ' '\n' | sort -u | tr '\n' ' ')
key=$(printf '%s\n' "$recipe" "$mirror" "$packages" | sha256sum | cut -c1-12)
base_tar="$cache/$release-base.tar.zst"
deps_tar="$cache/$release-deps-$key.tar.zst"

# ---- The chroot --------------------------------------------------------------

make_base () {
    say "debootstrap --variant=minbase $release from $mirror"
    new_root
    if ! run_child debootstrap --variant=minbase "$release" "$root" "$mirror" > "$root.debootstrap.log" 2>&1; then
        tail -n 20 "$root.debootstrap.log" >&2
        rm -f "$root.debootstrap.log"
        return 1
    fi
    rm -f "$root.debootstrap.log"
    unmount_under "$root"   # debootstrap unmounts its own; be sure
    save_tarball "$base_tar"
}

install_deps () {
    say "installing the build dependencies:$packages"
    cat > "$root/etc/apt/apt.conf.d/90driveduel" <<'EOF'
// The archive here serves sid and trixie with a Release file past its
// Valid-Until: without this apt refuses it ("Release file ... is expired").
Acquire::Check-Valid-Until "false";
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Dpkg::Use-Pty "false";
EOF
    # No service starts in the chroot while packages are installed.
    printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
    mount_proc
    # shellcheck disable=SC2086
    run_child in_chroot apt-get update -q > "$root/tmp/apt.log" 2>&1 &&
        run_child in_chroot apt-get install -y -q $packages >> "$root/tmp/apt.log" 2>&1 &&
        in_chroot apt-get clean >> "$root/tmp/apt.log" 2>&1 ||
        { tail -n 30 "$root/tmp/apt.log" >&2; return 1; }
    rm -rf "$root/var/lib/apt/lists/"* "$root/tmp/apt.log"
    in_chroot useradd --create-home --shell /bin/bash builder || return 1
    # A zh_TW locale: its glibc ignores LANGUAGE=zh_TW under C.UTF-8, so the
    # zh_TW tests run under this one (tests/meson.build).
    in_chroot localedef -i zh_TW -f UTF-8 zh_TW.UTF-8 || return 1
    # Fontconfig's system caches made again: a package installed after
    # fontconfig's trigger ran (into /usr/share/fonts/X11/Type1) leaves one
    # stale, and then a user who cannot rewrite it gets "Fontconfig error:
    # No writable cache directories" on stderr (test-chart-cli fails on it).
    in_chroot fc-cache -s || return 1
    stop_chroot_processes
    unmount_under "$root"
    say "caching $(basename "$deps_tar")"
    save_tarball "$deps_tar" || return 1
    for old in "$cache/$release-deps-"*.tar.zst; do
        [ "$old" = "$deps_tar" ] || rm -f "$old"
    done
}

use_stale () {
    local f
    for f in "$deps_tar" "$cache/$release-deps-"*.tar.zst; do
        if [ -f "$f" ]; then
            say "WARNING: could not make a fresh chroot; using $(basename "$f") of $(date -r "$f" +%F)"
            new_root
            unpack_tarball "$f" && return 0
        fi
    done
    return 1
}

if fresh "$deps_tar"; then
    say "unpacking the cached chroot $(basename "$deps_tar")"
    new_root
    unpack_tarball "$deps_tar" || exit 3
else
    ok=0
    if fresh "$base_tar"; then
        say "unpacking the cached base $(basename "$base_tar")"
        new_root
        unpack_tarball "$base_tar" && ok=1
    else
        make_base && ok=1
    fi
    if [ $ok = 1 ]; then
        install_deps || ok=0
    fi
    if [ $ok = 0 ]; then
        use_stale || { say "FAILED: could not make the $release chroot (not a Drive Duel failure)"; exit 3; }
    fi
fi
mount_proc

# ---- What is inside ---------------------------------------------------------------

say "versions inside"
versions=$(in_chroot sh -c '
    for m in gtk4 libadwaita-1 glib-2.0 liburing libnvme cairo pangocairo json-glib-1.0 fuse3; do
        printf "%-14s %s\n" "$m" "$(pkg-config --modversion $m 2>/dev/null || echo missing)"
    done
    printf "%-14s %s\n" gcc "$(gcc -dumpfullversion)"
    printf "%-14s %s\n" glibc "$(dpkg-query -W -f="\${Version}" libc6)"
    printf "%-14s %s\n" meson "$(meson --version)"
    printf "%-14s %s\n" ghostscript "$(gs --version 2>/dev/null || echo missing)"
')
echo "$versions" | sed 's/^/   /'

# ---- The source ------------------------------------------------------------------

src=/home/builder/driveduel
mkdir -p "$root$src"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # GIT_OPTIONAL_LOCKS=0: status does not refresh the index (another
    # git command may hold its lock).
    head=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo none)
    dirty=$(GIT_OPTIONAL_LOCKS=0 git -C "$top" status --porcelain --untracked-files=no 2>/dev/null | wc -l)
    say "copying the source (HEAD $head, $dirty files changed since)"
    ( cd "$top" &&
      git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do
          # A tracked file deleted in the work tree is left out.
          if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
      done |
      tar --null --no-recursion -T - -cf - ) | tar -xf - -C "$root$src" || exit 3
else
    say "copying the source (not a git work tree: every file but build directories)"
    tar -C "$top" --exclude='./build*' --exclude='./_build' -cf - . | tar -xf - -C "$root$src" || exit 3
fi
in_chroot chown -R builder:builder "$src" || exit 3

# ---- Build -----------------------------------------------------------------------

say "meson setup -Dwerror=true, ninja"
build_ok=1
as_builder sh -c "cd $src && meson setup build -Dwerror=true" > "$root/tmp/setup.log" 2>&1 || build_ok=0
if [ $build_ok = 0 ]; then
    cat "$root/tmp/setup.log"
else
    grep -E '^(WARNING|DEPRECATION)' "$root/tmp/setup.log" | sed 's/^/   meson: /'
    # -k 0: every warning at once, not only the first file's.
    build () { as_builder sh -c "cd $src && ninja -C build -k 0 -j 2" 2>&1 | tee "$root/tmp/build.log"; }
    run_child build || build_ok=0
fi
n_warnings=$(grep -c -E 'warning:|error: .*\[-Werror' "$root/tmp/build.log" 2>/dev/null || true)

# ---- Tests -----------------------------------------------------------------------

tests_ok=0
summary=""
if [ $build_ok = 1 ]; then
    say "meson test ${test_args[*]}"
    run_child as_builder sh -c 'cd "$0" && exec meson test -C build --no-rebuild --print-errorlogs --num-processes 2 "$@"' \
        "$src" "${test_args[@]}"
    # The verdict is read from meson's log rather than its exit status: a
    # TAP test that skips whole the project's way ("1..0 # SKIP why", exit
    # 77; tests/meson.build) is an ERROR to meson, and counts as skipped here.
    log="$root$src/build/meson-logs/testlog.json"
    if [ -f "$log" ]; then
        summary=$(python3 - "$log" <<'PY'
import json, sys
passed = failed = skipped = 0
bad, skips = [], []
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        if not line.strip():
            continue
        t = json.loads(line)
        r, name = t.get("result"), t["name"].split(":")[-1].split(" / ")[-1]
        out = t.get("stdout") or ""
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP" or (t.get("returncode") == 77 and "1..0 # SKIP" in out):
            skipped += 1
            why = out.split("1..0 # SKIP", 1)[1].splitlines()[0].strip() if "1..0 # SKIP" in out else ""
            skips.append(f"{name} ({why})" if why else name)
        else:
            failed += 1
            bad.append(f"{name} ({r})")
if skips:
    print("   skipped whole: " + "; ".join(skips))
if bad:
    print("   failed: " + ", ".join(bad))
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
PY
) && tests_ok=1
    fi
fi

# ---- Verdict ---------------------------------------------------------------------

echo
say "done"
echo "$versions" | tr -s ' ' | tr '\n' ';' | sed 's/;$//; s/;/, /g; s/^/   versions: /'
echo
if [ $build_ok = 0 ]; then
    echo "   build: FAILED ($n_warnings warning lines; -Dwerror=true: a warning is a failure)"
    grep -E 'warning:|error:' "$root/tmp/build.log" 2>/dev/null | sort -u | head -n 40 | sed 's/^/     /'
else
    echo "   build: ok, no compiler warning"
fi
[ -n "$summary" ] && echo "$summary" | sed "\$!b; s/^/   tests: /; s/\$/ in the $release chroot/"
if [ $build_ok = 1 ] && [ $tests_ok = 1 ]; then
    echo "check-distro $release: PASS"
    exit 0
fi
echo "check-distro $release: FAIL"
exit 1
