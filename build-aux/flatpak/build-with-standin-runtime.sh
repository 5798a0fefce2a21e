#!/bin/bash
# The real Flatpak tools on a stand-in runtime: where Flathub (and with it
# org.gnome.Platform//51 and org.gnome.Sdk//51) cannot be reached, this makes
# a runtime of that name from Debian unstable's packages (GTK 4.24 and
# libadwaita 1.10, GNOME 51's versions), builds the manifest with
# flatpak-builder, installs the app and runs driveduel-cli with `flatpak run`
# as an ordinary user in Flatpak's own sandbox: bubblewrap as Flatpak sets it
# up, the finish-args, and xdg-dbus-proxy filtering the system bus down to
# org.freedesktop.UDisks2, against a real udisksd and polkitd and a loop
# device. See docs/flatpak.md, "A real Flatpak on a stand-in runtime".
#
# Run by hand, as root; not part of the test suites or CI, and its host
# packages are on no dependency list. It needs, besides what
# tests/udisks/test-udisks-sandbox.sh needs (udisks2, polkitd, udev, dbus):
#   apt-get install flatpak flatpak-builder   (brings bubblewrap, xdg-dbus-proxy)
# and the chroot tarball of `build-aux/check-distro.sh sid`.
#
# Usage: build-aux/flatpak/build-with-standin-runtime.sh [--keep] [--from-checkout] [--rebuild-runtime]
#   --keep             keep the work folder (/var/tmp/driveduel-flatpak-real.XXXXXX)
#   --from-checkout    the driveduel "dir" source is the checkout itself, as the
#                      manifest says (flatpak-builder then copies everything in
#                      it, build folders included); by default it is a copy of
#                      the files git lists, with uncommitted edits, as
#                      build-in-chroot.sh takes them
#   --rebuild-runtime  make the runtime again even if it is cached
#
# The runtime: the newest $DRIVEDUEL_CHROOT_CACHE/sid-deps-*.tar.zst (read
# only) is unpacked; AppStream's compose add-on is installed into that copy
# from Debian's archive (for the appstream-compose stand-in below); its /usr
# becomes the runtime's files/ and its /etc files/etc (Flatpak links /etc/X
# to /usr/etc/X); /app/lib is added to ld.so.conf as freedesktop-sdk does.
# The same tree is exported twice with `flatpak build-export --runtime`, as
# org.gnome.Sdk and org.gnome.Platform, branch 51. The ostree repository is
# cached as $DRIVEDUEL_CHROOT_CACHE/flatpak-runtime-<tarball>-<recipe>.repo
# (about 650 MB; an older one is replaced).
#
# Nothing is installed into the host's Flatpak installations: flatpak runs
# with FLATPAK_SYSTEM_DIR, FLATPAK_USER_DIR and FLATPAK_CONFIG_DIR in the work
# folder, and as root with HOME and XDG_RUNTIME_DIR there too. The throwaway
# user runs the app from that "system" installation.
#
# The system bus, udevd, polkitd and udisksd are used when they run and
# started otherwise; only what was started here is stopped, by process id.
# The exit trap removes the loop device, mount, polkit rule, user,
# /run/user/UID and (without --keep) the work folder, pass or fail. It takes
# check-distro.sh's lock, as build-in-chroot.sh does.
#
# Exit status: 0 every step passed (or was skipped with its reason), 1 a step
# failed, 3 the tools or the chroot tarball could not be had.
# The messages quote with “ ”.
# shellcheck disable=SC1111
set -u -o pipefail

keep=0 from_checkout=0 rebuild_runtime=0
for arg; do
    case $arg in
        --keep) keep=1 ;;
        --from-checkout) from_checkout=1 ;;
        --rebuild-runtime) rebuild_runtime=1 ;;
        *) echo "usage: $0 [--keep] [--from-checkout] [--rebuild-runtime]" >&2; exit 3 ;;
    esac
done

top=$(cd "$(dirname "$0")/../.." && pwd)
manifest=$top/build-aux/flatpak/io.github.driveduel.DriveDuel.json
app_id=io.github.driveduel.DriveDuel
cache=${DRIVEDUEL_CHROOT_CACHE:-/var/cache/driveduel-chroots}
tmpbase=${DRIVEDUEL_CHROOT_TMPDIR:-/var/tmp}
liburing_url=https://github.com/axboe/liburing.git
liburing_mirror=/work/.mirror/axboe+liburing/repo

export LC_ALL=C.UTF-8
export LANGUAGE=
unset DBUS_SYSTEM_BUS_ADDRESS

[ "$(id -u)" -eq 0 ] || { echo "build-with-standin-runtime: needs root" >&2; exit 3; }
missing=""
for tool in flatpak flatpak-builder xdg-dbus-proxy bwrap ostree zstd git python3 dbus-daemon dbus-send \
    udevadm udisksctl pkcheck losetup sfdisk partx mkfs.ext4 useradd userdel runuser sha256sum flock; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
[ -z "$missing" ] || {
    echo "build-with-standin-runtime: missing:$missing (apt-get install flatpak flatpak-builder udisks2 polkitd udev)" >&2
    exit 3
}
udevd_bin=/lib/systemd/systemd-udevd
polkitd_bin=/usr/lib/polkit-1/polkitd
udisksd_bin=/usr/libexec/udisks2/udisksd
bus_socket=/run/dbus/system_bus_socket

start=$(date +%s)
say () { printf '== flatpak real [%4ss]: %s\n' "$(( $(date +%s) - start ))" "$*"; }

# --- what this script made, undone on exit -----------------------------------------
work="" chroot_dir=""
started_bus="" started_udevd="" started_polkitd="" started_udisksd="" made_socket=""
made_user="" made_rundir="" made_runuser="" made_rule="" made_loop="" made_mount=""
declare -a results=()
failures=0

running () { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
stop_pid () {
    [ -n "$1" ] || return 0
    kill -TERM "$1" 2>/dev/null
    local i=0
    while running "$1" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    running "$1" && kill -KILL "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}

cleanup () {
    local rc=$? p link m
    set +e
    trap - EXIT INT TERM HUP
    [ -n "$made_mount" ] && mountpoint -q "$made_mount" && umount "$made_mount"
    [ -n "$made_rule" ] && rm -f "$made_rule"
    [ -n "$made_loop" ] && losetup -d "$made_loop"
    if [ -n "$made_user" ]; then
        # The user's processes (a proxy left behind), each by its id.
        for p in $(pgrep -u "$made_user" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
        userdel -r "$made_user" 2>/dev/null
    fi
    [ -n "$made_rundir" ] && rm -rf --one-file-system "$made_rundir"
    [ -n "$made_runuser" ] && rmdir "$made_runuser"
    stop_pid "$started_udisksd"
    stop_pid "$started_polkitd"
    stop_pid "$started_udevd"
    stop_pid "$started_bus"
    [ -n "$made_socket" ] && rm -f "$made_socket"
    if [ -n "$chroot_dir" ] && [ -d "$chroot_dir" ]; then
        for p in /proc/[0-9]*; do
            link=$(readlink "$p/root" 2>/dev/null) || continue
            case $link in "$chroot_dir"|"$chroot_dir"/*) kill -KILL "${p#/proc/}" 2>/dev/null ;; esac
        done
    fi
    if [ -n "$work" ] && [ -d "$work" ]; then
        for m in $(awk -v r="$work" 'index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
            umount "$m" 2>/dev/null || umount -l "$m"
        done
        if [ "$keep" = 1 ]; then
            echo "build-with-standin-runtime: kept $work"
        elif awk -v r="$work" 'index($5, r "/") == 1 { f = 1 } END { exit !f }' /proc/self/mountinfo; then
            echo "build-with-standin-runtime: could not unmount, $work kept" >&2
        else
            rm -rf --one-file-system "$work"
        fi
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# result STEP PASS|FAIL|SKIPPED TEXT
result () {
    results+=("$(printf '%-8s %-34s %s' "$2" "$1" "$3")")
    [ "$2" = FAIL ] && failures=$((failures + 1))
    say "$2: $1${3:+ — $3}"
}

summary_and_exit () {
    echo
    echo "== summary ($(( $(date +%s) - start )) s)"
    printf '   %s\n' "${results[@]}"
    [ "$failures" -eq 0 ] && exit 0
    exit 1
}

exec 9>"$tmpbase/driveduel-check-distro.lock"
if ! flock -n 9; then
    say "waiting for a check-distro run to finish (its lock)"
    flock 9
fi

tarball=$(ls -t "$cache"/sid-deps-*.tar.zst 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "build-with-standin-runtime: no $cache/sid-deps-*.tar.zst; run build-aux/check-distro.sh sid once" >&2; exit 3; }

work=$(mktemp -d "$tmpbase/driveduel-flatpak-real.XXXXXX") || exit 3
chmod 755 "$work"
mkdir -p "$work/flatpak-system" "$work/flatpak-user" "$work/flatpak-config" "$work/root-home" "$work/root-run"
chmod 700 "$work/root-run"
export FLATPAK_SYSTEM_DIR=$work/flatpak-system
export FLATPAK_USER_DIR=$work/flatpak-user
export FLATPAK_CONFIG_DIR=$work/flatpak-config
# flatpak as root: its caches, ~/.var and runtime folder in the work folder.
as_root () {
    HOME=$work/root-home XDG_RUNTIME_DIR=$work/root-run XDG_CACHE_HOME=$work/root-home/.cache \
        XDG_DATA_HOME=$work/root-home/.local/share XDG_CONFIG_HOME=$work/root-home/.config "$@"
}

# ==== 1. the stand-in runtime ======================================================
# The appstream-compose flatpak-builder 1.2 runs (appstream-glib's), which
# Debian no longer ships: AppStream's compose on the same files.
read -r -d '' compose_shim <<'EOF'
#!/bin/sh
# appstream-compose of the Drive Duel stand-in runtime
# (build-aux/flatpak/build-with-standin-runtime.sh). flatpak-builder 1.2 runs
#   appstream-compose --prefix=/app --origin=flatpak --basename=ID ID
# from appstream-glib, which Debian no longer ships; this runs AppStream's
# compose on the same files instead, as flatpak-builder 1.3 and later do,
# and writes where appstream-compose wrote: share/app-info/xmls/ID.xml.gz and
# the icons under share/app-info/icons/flatpak.
set -u
prefix=/app basename="" id=""
for arg; do
    case $arg in
        --prefix=*) prefix=${arg#--prefix=} ;;
        --basename=*) basename=${arg#--basename=} ;;
        --*) ;;
        *) id=$arg ;;
    esac
done
[ -n "$id" ] || { echo "appstream-compose: no component id" >&2; exit 1; }
basename=${basename:-$id}
# flatpak-builder 1.2 has moved the metainfo to share/appdata/ID.appdata.xml;
# AppStream 1.x composes from share/metainfo only.
copied=""
if [ ! -e "$prefix/share/metainfo/$id.metainfo.xml" ] && [ -e "$prefix/share/appdata/$id.appdata.xml" ]; then
    mkdir -p "$prefix/share/metainfo"
    cp "$prefix/share/appdata/$id.appdata.xml" "$prefix/share/metainfo/$id.metainfo.xml"
    copied="$prefix/share/metainfo/$id.metainfo.xml"
fi
appstreamcli compose --prefix=/ --origin="$basename" --result-root="$prefix" \
    --data-dir="$prefix/share/app-info/xmls" --icons-dir="$prefix/share/app-info/icons/flatpak" "$prefix"
rc=$?
if [ -n "$copied" ]; then
    rm -f "$copied"
    rmdir "$prefix/share/metainfo" 2>/dev/null
fi
exit $rc
EOF
ld_conf='# Flatpak apps: /app/lib first, as in freedesktop-sdk
/app/lib'
extra_packages="appstream-compose"
recipe=$(printf '%s\n%s\n%s\n' "$compose_shim" "$ld_conf" "$extra_packages" | sha256sum | cut -c1-10)
tarball_name=$(basename "$tarball" .tar.zst)
runtime_cache=$cache/flatpak-runtime-$tarball_name-$recipe.repo
runtime_repo=$runtime_cache
has_runtime_refs () {
    [ -d "$1" ] && ostree --repo="$1" refs 2>/dev/null | grep -qx 'runtime/org.gnome.Platform/x86_64/51' &&
        ostree --repo="$1" refs 2>/dev/null | grep -qx 'runtime/org.gnome.Sdk/x86_64/51'
}

make_runtime () {
    local rt=$work/runtime
    chroot_dir=$work/chroot
    mkdir -p "$chroot_dir" && chmod 755 "$chroot_dir"
    say "unpacking $(basename "$tarball") ($(date -r "$tarball" +%F))"
    zstd -dc "$tarball" | tar --numeric-owner --xattrs --xattrs-include='*' -xpf - -C "$chroot_dir" || return 1
    # AppStream's compose add-on, from Debian's archive, into this copy only.
    mount -t proc proc "$chroot_dir/proc" || return 1
    say "installing $extra_packages into the copy (apt-get, deb.debian.org)"
    chroot "$chroot_dir" 9>&- /usr/bin/env -i PATH=/usr/bin:/usr/sbin HOME=/root DEBIAN_FRONTEND=noninteractive \
        sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $extra_packages && apt-get clean && rm -rf /var/lib/apt/lists/*" \
        >"$work/apt.log" 2>&1
    local apt_rc=$?
    umount "$chroot_dir/proc"
    [ $apt_rc -eq 0 ] || { tail -n 15 "$work/apt.log"; echo "build-with-standin-runtime: apt-get in the chroot failed" >&2; return 1; }
    mkdir -p "$rt"
    mv "$chroot_dir/usr" "$rt/files" || return 1
    cp -a "$chroot_dir/etc" "$rt/files/etc" || return 1
    rm -rf --one-file-system "$chroot_dir"
    chroot_dir=""
    printf '%s\n' "$ld_conf" >"$rt/files/etc/ld.so.conf.d/00-flatpak-app.conf"
    printf '%s\n' "$compose_shim" >"$rt/files/bin/appstream-compose"
    chmod 755 "$rt/files/bin/appstream-compose"
    say "runtime tree: $(du -sh "$rt/files" | cut -f1), GTK $(sed -n 's/^Version: //p' "$rt/files/lib/x86_64-linux-gnu/pkgconfig/gtk4.pc"), libadwaita $(sed -n 's/^Version: //p' "$rt/files/lib/x86_64-linux-gnu/pkgconfig/libadwaita-1.pc")"
    local name
    for name in org.gnome.Sdk org.gnome.Platform; do
        printf '[Runtime]\nname=%s\nruntime=org.gnome.Platform/x86_64/51\nsdk=org.gnome.Sdk/x86_64/51\n' "$name" >"$rt/metadata"
        say "flatpak build-export --runtime $name//51"
        nice -n 10 flatpak build-export --runtime --files=files --arch=x86_64 --disable-fsync \
            --subject="stand-in: Debian unstable ($tarball_name) as $name 51" \
            "$work/runtime-repo" "$rt" 51 >"$work/export-$name.log" 2>&1 ||
            { tail -n 15 "$work/export-$name.log"; return 1; }
    done
    rm -rf --one-file-system "$rt"
    runtime_repo=$work/runtime-repo
    # Cached for the next run; an older recipe's or tarball's is replaced.
    local old
    for old in "$cache"/flatpak-runtime-*.repo; do
        [ -d "$old" ] && [ "$old" != "$runtime_cache" ] && rm -rf --one-file-system "$old"
    done
    rm -rf --one-file-system "$runtime_cache.tmp"
    if cp -a "$work/runtime-repo" "$runtime_cache.tmp" && mv -T "$runtime_cache.tmp" "$runtime_cache"; then
        runtime_repo=$runtime_cache
        say "cached the runtime repository as $runtime_cache"
    else
        rm -rf --one-file-system "$runtime_cache.tmp"
    fi
}

step1_start=$(date +%s)
if [ "$rebuild_runtime" = 0 ] && has_runtime_refs "$runtime_cache"; then
    say "runtime repository cached: $runtime_cache"
    runtime_note="cached"
else
    make_runtime || { result "1 stand-in runtime" FAIL "could not be made (above)"; summary_and_exit; }
    runtime_note="made"
fi
as_root flatpak remote-add --system --no-gpg-verify standin-runtime "file://$runtime_repo" &&
    as_root flatpak install --system -y --noninteractive standin-runtime org.gnome.Platform//51 org.gnome.Sdk//51 \
        >"$work/install-runtime.log" 2>&1 ||
    { tail -n 15 "$work/install-runtime.log"; result "1 stand-in runtime" FAIL "flatpak install failed"; summary_and_exit; }
as_root flatpak list --system --runtime --columns=ref,size | sed 's/^/   /'
result "1 stand-in runtime" PASS "$runtime_note and installed in $(( $(date +%s) - step1_start )) s"

# ==== 2. flatpak-builder on the manifest ===========================================
step2_start=$(date +%s)
# The liburing source comes from the local mirror: its pinned commit and tag
# are checked there first, as build-in-chroot.sh does.
read -r l_commit l_tag < <(python3 -c '
import json, sys
for mod in json.load(open(sys.argv[1]))["modules"]:
    for s in mod.get("sources", []):
        if s.get("url") == sys.argv[2]:
            print(s["commit"], s.get("tag", ""))' "$manifest" "$liburing_url")
got=$(git -C "$liburing_mirror" rev-parse --verify --quiet "${l_commit:-none}^{commit}")
got_tag=$(git -C "$liburing_mirror" rev-parse --verify --quiet "refs/tags/${l_tag:-none}^{commit}")
if [ -z "${l_commit:-}" ] || [ "$got" != "$l_commit" ] || [ "$got_tag" != "$l_commit" ]; then
    result "2 flatpak-builder" FAIL "liburing $l_commit (tag $l_tag) is not in $liburing_mirror"
    summary_and_exit
fi
say "liburing $l_commit (tag $l_tag) is in $liburing_mirror"

if [ "$from_checkout" = 1 ]; then
    src=$top
else
    src=$work/driveduel-src
    mkdir -p "$src"
    ( cd "$top" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
      tar --null --no-recursion -T - -cf - ) | tar -xf - -C "$src" || { result "2 flatpak-builder" FAIL "could not copy the checkout"; summary_and_exit; }
fi
work_manifest=$work/$app_id.json
python3 - "$manifest" "$work_manifest" "$liburing_url" "file://$liburing_mirror" "$src" <<'PY' ||
import json, sys
src, dst, url, mirror, path = sys.argv[1:6]
m = json.load(open(src))
for mod in m["modules"]:
    for s in mod.get("sources", []):
        if s["type"] == "git" and s["url"] == url:
            s["url"] = mirror
        elif s["type"] == "dir":
            s["path"] = path
with open(dst, "w") as f:
    json.dump(m, f, indent=2, ensure_ascii=False)
    f.write("\n")
PY
    { result "2 flatpak-builder" FAIL "could not write the manifest's copy"; summary_and_exit; }
say "the manifest's copy, against the checked-in one:"
diff -u "$manifest" "$work_manifest" | sed 's/^/   /'

say "flatpak-builder $(flatpak-builder --version | cut -d' ' -f2) (log: $work/flatpak-builder.log)"
( cd "$work" && as_root nice -n 10 flatpak-builder --force-clean --disable-rofiles-fuse --jobs=2 \
    --state-dir="$work/flatpak-builder-state" --repo="$work/app-repo" "$work/build-dir" "$work_manifest" ) \
    >"$work/flatpak-builder.log" 2>&1
fb_rc=$?
grep -E '^(Running appstream-compose|Processing directory|Composing|Success|Exporting|Not exporting|Renaming|Committing stage|Commit:|Error|error:|ERROR|W:|E:|I:)' \
    "$work/flatpak-builder.log" | sed 's/^/   /'
build_secs=$(( $(date +%s) - step2_start ))
if [ $fb_rc -ne 0 ]; then
    tail -n 30 "$work/flatpak-builder.log" | sed 's/^/   /'
    result "2 flatpak-builder" FAIL "exit $fb_rc after $build_secs s (log above)"
    summary_and_exit
fi
if [ -s "$work/build-dir/files/share/app-info/xmls/$app_id.xml.gz" ]; then
    compose_note="appstream-compose wrote $(zcat "$work/build-dir/files/share/app-info/xmls/$app_id.xml.gz" | grep -c '<icon type="cached"') cached icons"
else
    compose_note="appstream-compose wrote nothing"
fi
as_root flatpak build-bundle "$work/app-repo" "$work/$app_id.flatpak" "$app_id" master \
    >"$work/bundle.log" 2>&1 || { tail -n 10 "$work/bundle.log"; result "2 flatpak build-bundle" FAIL "see above"; }
as_root flatpak remote-add --system --no-gpg-verify standin-app "file://$work/app-repo" &&
    as_root flatpak install --system -y --noninteractive standin-app "$app_id" >"$work/install-app.log" 2>&1 ||
    { tail -n 15 "$work/install-app.log"; result "2 flatpak-builder" FAIL "built, but flatpak install failed"; summary_and_exit; }
result "2 flatpak-builder" PASS "built, exported, bundled ($(du -h "$work/$app_id.flatpak" 2>/dev/null | cut -f1)) and installed in $build_secs s; $compose_note"

# ==== 3. flatpak run, as an ordinary user ================================================
bus_answers () { dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1; }
has_owner () {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
        "string:$1" 2>/dev/null | grep -q 'boolean true'
}
wait_for () {
    local n=$(($1 * 10)); shift
    while [ $n -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
    return 1
}
udevd_answers () { udevadm control --ping >/dev/null 2>&1; }
services () {
    if bus_answers; then say "using the system bus already running"; else
        mkdir -p /run/dbus
        dbus-daemon --system --nofork --nopidfile >"$work/dbus.log" 2>&1 &
        started_bus=$!; made_socket=$bus_socket
        wait_for 10 bus_answers || { cat "$work/dbus.log"; return 1; }
        say "started a system bus, pid $started_bus"
    fi
    if ! udevd_answers; then
        "$udevd_bin" >"$work/udevd.log" 2>&1 &
        started_udevd=$!
        wait_for 10 udevd_answers || { cat "$work/udevd.log"; return 1; }
        say "started udevd, pid $started_udevd"
    fi
    if ! has_owner org.freedesktop.PolicyKit1; then
        "$polkitd_bin" --no-debug >"$work/polkitd.log" 2>&1 &
        started_polkitd=$!
        wait_for 10 has_owner org.freedesktop.PolicyKit1 || { cat "$work/polkitd.log"; return 1; }
        say "started polkitd, pid $started_polkitd"
    fi
    if ! has_owner org.freedesktop.UDisks2; then
        "$udisksd_bin" >"$work/udisksd.log" 2>&1 &
        started_udisksd=$!
        wait_for 30 has_owner org.freedesktop.UDisks2 || { cat "$work/udisksd.log"; return 1; }
        say "started udisksd, pid $started_udisksd"
    fi
}
services || { result "3 services" FAIL "the system bus, udevd, polkitd or udisksd did not start"; summary_and_exit; }

user=ddflatpak$$
home=$work/home
useradd --no-user-group --create-home --home-dir "$home" --shell /bin/sh "$user" ||
    { result "3 user" FAIL "useradd failed"; summary_and_exit; }
made_user=$user
uid=$(id -u "$user")
rundir=/run/user/$uid
if [ -e "$rundir" ]; then
    result "3 user" FAIL "$rundir exists already"; summary_and_exit
fi
[ -d /run/user ] || { mkdir -m 755 /run/user && made_runuser=/run/user; }
mkdir -m 700 "$rundir" && chown "$user" "$rundir" && made_rundir=$rundir
say "user $user (uid $uid), home $home, XDG_RUNTIME_DIR $rundir"

# fp ARGS...: flatpak as the user, from the work folder's "system" installation;
# $code, $work/out, $work/err.
fp () {
    runuser -u "$user" -- env -i PATH=/usr/bin:/bin HOME="$home" USER="$user" LOGNAME="$user" LANG=C.UTF-8 \
        XDG_RUNTIME_DIR="$rundir" FLATPAK_SYSTEM_DIR="$FLATPAK_SYSTEM_DIR" FLATPAK_CONFIG_DIR="$FLATPAK_CONFIG_DIR" \
        sh -c 'cd "$HOME" && exec flatpak "$@"' sh "$@" >"$work/out" 2>"$work/err"
    code=$?
}
cli () {
    fp run --system --command=driveduel-cli "$app_id" "$@"
    echo "   \$ flatpak run --command=driveduel-cli $app_id $* -> exit $code"
    sed 's/^/   | /' "$work/err"
}
says () { grep -qF -- "$1" "$work/err"; }
one_line () { [ "$(wc -l <"$work/err")" -eq 1 ]; }

# 3a: the programs run
cli --version
head -n 3 "$work/out" | sed 's/^/   > /'
if [ $code -eq 0 ] && grep -q '^driveduel-cli ' "$work/out"; then
    result "3a driveduel-cli --version" PASS "$(head -n 1 "$work/out")"
else result "3a driveduel-cli --version" FAIL "exit $code"; fi
cli --help
head -n 6 "$work/out" | sed 's/^/   > /'
if [ $code -eq 0 ] && [ -s "$work/out" ]; then
    result "3a driveduel-cli --help" PASS "$(wc -l <"$work/out") lines"
else result "3a driveduel-cli --help" FAIL "exit $code"; fi
fp run --system "$app_id" --version
echo "   \$ flatpak run $app_id --version -> exit $code"
sed 's/^/   > /' "$work/out"; sed 's/^/   | /' "$work/err"
if [ $code -eq 0 ] && grep -q '^driveduel ' "$work/out"; then
    result "3a driveduel --version (GUI)" PASS "$(head -n 1 "$work/out")"
else result "3a driveduel --version (GUI)" FAIL "exit $code"; fi

# 3b: a 1-second run on a file in the home folder, and its analysis
cli run --rw randwrite --bs 4k --iodepth 8 --runtime 1 --span 16m --output "$home/file.json" "$home/target.img"
file_rc=$code
cli analyze "$home/file.json"
head -n 6 "$work/out" | sed 's/^/   > /'
if [ $file_rc -eq 0 ] && [ $code -eq 0 ]; then
    result "3b 1 s run on ~/target.img" PASS "run and analyze exit 0"
else result "3b 1 s run on ~/target.img" FAIL "run exit $file_rc, analyze exit $code"; fi

# 3c: the permissions as flatpak sees them
fp info --system --show-permissions "$app_id"
sed 's/^/   > /' "$work/out"
if [ $code -eq 0 ] && grep -qx 'org.freedesktop.UDisks2=talk' "$work/out" && grep -q '^filesystems=.*home' "$work/out"; then
    result "3c flatpak info --show-permissions" PASS "UDisks2=talk, $(grep '^filesystems=' "$work/out")"
else result "3c flatpak info --show-permissions" FAIL "exit $code"; fi

# 3d..: the loop device
if [ ! -e /dev/loop-control ] || [ ! -d /etc/polkit-1/rules.d ]; then
    result "3d block device" SKIPPED "no loop devices or no /etc/polkit-1/rules.d"
    summary_and_exit
fi
head -c 67108864 /dev/urandom >"$work/backing.img"
made_loop=$(losetup --find --show --partscan "$work/backing.img") ||
    { made_loop=""; result "3d block device" SKIPPED "losetup failed"; summary_and_exit; }
loop=$made_loop name=${loop#/dev/} part=${made_loop}p1 part_name=${made_loop#/dev/}p1
knows () { udisksctl info --block-device "$1" >/dev/null 2>&1; }
partition_device () {
    printf 'label: gpt\n,\n' | sfdisk --quiet --wipe always "$loop" >"$work/sfdisk.log" 2>&1 || return 1
    [ -e "/sys/class/block/$part_name" ] || partx --update "$loop" >>"$work/sfdisk.log" 2>&1
    [ -e "/sys/class/block/$part_name" ] || return 1
    udevadm settle --timeout=30
    wait_for 30 knows "$part"
}
partition_device && wait_for 30 knows "$loop" ||
    { cat "$work/sfdisk.log"; result "3d block device" FAIL "could not partition $loop or udisksd does not know it"; summary_and_exit; }
device_sum () { sha256sum "$loop" | cut -d' ' -f1; }
authorized () { runuser -u "$user" -- sh -c 'exec pkcheck --action-id "$1" --process $$' sh "$1" >/dev/null 2>&1; }
say "$loop with a GPT and $part_name; the user's sandbox has no $loop node"
fp run --system --command=sh "$app_id" -c 'ls "$1" 2>&1; cat "/sys/class/block/$2/dev"; grep -c . /proc/self/mountinfo' sh "$loop" "$name"
sed 's/^/   sandbox> /' "$work/out"

if authorized org.freedesktop.udisks2.open-device-system; then
    result "3d block device" SKIPPED "polkit already lets $user open system devices"
    summary_and_exit
fi

cli info "$loop"
grep -E '^ *(Capacity|Write runs):' "$work/out" | sed 's/^/   > /'
if [ $code -eq 0 ] && grep -q "^ *Write runs: *need --destructive; in this sandbox the device is opened through UDisks, if polkit allows$" "$work/out"; then
    result "3d info $loop" PASS "exit 0; $(grep -m1 '^ *Write runs:' "$work/out" | sed 's/^ *//; s/   */ /')"
else result "3d info $loop" FAIL "exit $code, or no such Write runs line"; fi

# 3e: no polkit rule: refused, naming polkit
before=$(device_sum)
cli run --rw randwrite --runtime 1 --destructive --output "$home/w.json" "$loop"
if [ $code -ne 0 ] && one_line && says "polkit" && [ "$(device_sum)" = "$before" ]; then
    result "3e write, no polkit rule" PASS "refused (exit $code) in one line naming polkit; device unchanged"
else result "3e write, no polkit rule" FAIL "exit $code; $(head -n 1 "$work/err")"; fi

# 3f: a rule for this user: the write run works through UDisks and the proxy.
# The rule also notes the process polkit was given as the subject (the one on
# the other end of the bus connection) in a file of the work folder.
subject_log=$work/polkit-subject.log
: >"$subject_log"
chmod 666 "$subject_log"
made_rule=/etc/polkit-1/rules.d/00-driveduel-flatpak-$user.rules
cat >"$made_rule" <<EOF
// driveduel build-aux/flatpak/build-with-standin-runtime.sh, removed when it exits
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.udisks2.open-device" ||
         action.id == "org.freedesktop.udisks2.open-device-system") &&
        subject.user == "$user") {
        try {
            polkit.spawn(["/bin/sh", "-c",
                'echo "\$1 for \$2: subject pid \$3 (\$(cat /proc/\$3/comm 2>/dev/null || echo gone))" >>"\$4"',
                "sh", action.id, subject.user, String(subject.pid), "$subject_log"]);
        } catch (e) {}
        return polkit.Result.YES;
    }
});
EOF
chmod 644 "$made_rule"
if ! wait_for 20 authorized org.freedesktop.udisks2.open-device-system; then
    result "3f write with a polkit rule" FAIL "polkitd did not take the rule"
else
    : >"$subject_log"
    # The device holds a GPT: without --wipe-signatures the run stops, after
    # reading the signatures through the descriptor UDisks passed.
    before=$(device_sum)
    cli run --rw randwrite --runtime 1 --destructive --output "$home/w.json" "$loop"
    if [ $code -ne 0 ] && one_line && says "holds a signature of type gpt" && [ "$(device_sum)" = "$before" ]; then
        result "3f write, GPT, no --wipe-signatures" PASS "refused (exit $code): signatures read through UDisks' descriptor"
    else result "3f write, GPT, no --wipe-signatures" FAIL "exit $code; $(head -n 1 "$work/err")"; fi
    before=$(device_sum)
    cli run --rw randwrite --runtime 1 --destructive --wipe-signatures --output "$home/w.json" "$loop"
    w_rc=$code
    after=$(device_sum)
    cli analyze "$home/w.json"
    head -n 4 "$work/out" | sed 's/^/   > /'
    sed 's/^/   polkit subject: /' "$subject_log"
    subject=$(tail -n 1 "$subject_log")
    if [ $w_rc -eq 0 ] && [ "$after" != "$before" ] && [ $code -eq 0 ]; then
        result "3f write with a polkit rule" PASS "exit 0, sha256 ${before:0:12}… -> ${after:0:12}…, analyze exit 0${subject:+; polkit saw: $subject}"
    else
        result "3f write with a polkit rule" FAIL "run exit $w_rc, device $( [ "$after" != "$before" ] && echo changed || echo unchanged), analyze exit $code"
    fi
fi

# 3g: a partition mounted on the host where the sandbox does not look
mkdir "$work/hidden"
if partition_device && mkfs.ext4 -q -F "$part" && udevadm settle --timeout=30 && mount "$part" "$work/hidden"; then
    made_mount=$work/hidden
    udevadm settle --timeout=30
    fp run --system --command=grep "$app_id" -c " $work/hidden " /proc/self/mountinfo
    in_view=$(cat "$work/out")
    before=$(device_sum)
    cli run --rw randwrite --runtime 1 --destructive "$loop"
    if [ $code -ne 0 ] && one_line && says "Partition $part_name of “$loop” is mounted at $work/hidden" && [ "$(device_sum)" = "$before" ]; then
        result "3g write, partition mounted" PASS "refused (exit $code): $(sed 's/^driveduel-cli: //' "$work/err") (in the sandbox's mountinfo: ${in_view:-0} lines)"
    else result "3g write, partition mounted" FAIL "exit $code; $(head -n 1 "$work/err")"; fi
    umount "$work/hidden" && made_mount=""
else
    result "3g write, partition mounted" FAIL "could not make and mount an ext4 on $part"
fi

summary_and_exit
