#!/bin/sh
# driveduel-cli in a sandbox that sees the system as a Flatpak app does, on a
# loop device, through a real udisksd (TAP). Root makes a loop device with a
# GPT partition table and a throwaway user, and runs driveduel-cli as that
# user inside bubblewrap: a /dev of its own without the host's disks, a mount
# namespace with none of the host's mounts but the few bound in, /sys and
# /proc/swaps as the host's, the system bus, and a /.flatpak-info file.
# First it checks that the sandbox is one: the loop device's node is not in
# its /dev while /sys names it, /proc/swaps is the host's, and it runs as the
# user. Then:
#   a. info on the device works in the sandbox and names its size as it
#      does outside;
#   b. with no polkit rule, a write run without --destructive is refused for
#      that first, in one sentence, and the device is untouched;
#   c. with --destructive, still without a rule, it is refused in one
#      sentence that names the polkit action, and the device is untouched;
#   d. with a rule allowing UDisks' open-device actions, the write run works
#      (exit 0), its result loads, the device was written, and the kernel
#      counted at least the bytes the result says were written;
#   e. with an ext4 on its partition mounted on the host at a folder the
#      sandbox does not have (so not in the sandbox's mountinfo), the write
#      run is refused with the mount point UDisks knows, the device is
#      untouched, and info shows it in use there;
#   f. a read run works and leaves the device as it was;
#   g. in a sandbox without the system bus, a write run is refused because
#      the mounts cannot be told, a read run because UDisks cannot be
#      reached, each in one sentence, and the device is untouched;
#   h. the host's system disk (where / is mounted, which the sandbox's
#      mountinfo does not show) is refused as the running system's.
#
# The system bus, polkitd, udevd and udisksd are used when they run, and
# started otherwise (README.md, "Devices without root"), as
# test-udisks-cli.sh does. Only what this script started is stopped, by the
# process ids it remembered; only the socket, rule, user, mount and loop
# device it made are removed, by the exit trap, whether the test passes or
# not.
#
# Usage: test-udisks-sandbox.sh DRIVEDUEL_CLI
# The messages quote with “ ”; sh -c scripts get their arguments as $1.
# shellcheck disable=SC1111,SC2016
set -u

cli=${1:?usage: test-udisks-sandbox.sh DRIVEDUEL_CLI}
export LC_ALL=C.UTF-8
export LANGUAGE=
# The sandbox is given the system bus at its usual place, and so is this script.
unset DBUS_SYSTEM_BUS_ADDRESS

# The services and the TAP helpers both UDisks tests use.
# shellcheck source=udisks-services.sh
. "$(dirname "$0")/udisks-services.sh"

# A TAP plan of none with SKIP is a skip to meson when the exit status is 0
# (77 would make it an error).
skip() { echo "1..0 # SKIP $*"; exit 0; }

[ "$(id -u)" = 0 ] || skip "needs root (a loop device, a test user, a polkit rule, a mount)"
[ -e /dev/loop-control ] || skip "no loop device support"
for tool in bwrap setpriv dbus-daemon dbus-send udevadm udisksctl pkcheck losetup sfdisk partx mkfs.ext4 \
    mount umount mountpoint findmnt lsblk useradd userdel runuser sha256sum ldd python3; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed"
done
for program in "$udevd_bin" "$polkitd_bin" "$udisksd_bin"; do
    [ -x "$program" ] || skip "$program is not installed (packages udisks2, polkitd, udev)"
done
[ -d /etc/polkit-1/rules.d ] || skip "polkit has no /etc/polkit-1/rules.d"
# The sandbox's / is made of /usr, with the merged-/usr links to it.
for dir in /bin /sbin /lib; do
    [ -L "$dir" ] || skip "$dir is not a link into /usr (a merged /usr is needed)"
done
bwrap --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin \
    --proc /proc --dev /dev -- /bin/true 2>/dev/null || skip "bwrap cannot make a sandbox here"

# --- what this script made, undone on exit ------------------------------------
work=""
started_bus=""
started_polkitd=""
started_udevd=""
started_udisksd=""
made_socket=""
made_rule=""
made_user=""
made_loop=""
made_mount=""

cleanup() {
    set +e
    [ -n "$made_mount" ] && mountpoint -q "$made_mount" && umount "$made_mount"
    [ -n "$made_rule" ] && rm -f "$made_rule"
    [ -n "$made_loop" ] && losetup -d "$made_loop"
    [ -n "$made_user" ] && userdel -r "$made_user" 2>/dev/null
    stop_services
    # Not through a mount still there (one that would not go away).
    [ -n "$work" ] && rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The loop device's backing file is on a real filesystem, not tmpfs.
work=$(mktemp -d /var/tmp/driveduel-sandbox.XXXXXX) || exit 99
chmod 755 "$work"

# --- the services ----------------------------------------------------------------
start_services

# --- the device: GPT, one partition --------------------------------------------------
head -c 67108864 /dev/urandom >"$work/backing.img" || exit 99
made_loop=$(losetup --find --show --partscan "$work/backing.img") ||
    { made_loop=""; skip "losetup failed (no free loop device?)"; }
loop=$made_loop
name=${loop#/dev/}
part=${loop}p1
part_name=${part#/dev/}

knows() { udisksctl info --block-device "$1" >/dev/null 2>&1; }
# partition_device: a fresh GPT with one partition over the whole device.
partition_device() {
    printf 'label: gpt\n,\n' | sfdisk --quiet --wipe always "$loop" >"$work/sfdisk.log" 2>&1 ||
        { echo "Bail out! sfdisk failed on $loop"; cat "$work/sfdisk.log"; exit 1; }
    # Some kernels take sfdisk's BLKRRPART on a loop device without adding
    # the partitions: partx adds them one by one (BLKPG).
    [ -e "/sys/class/block/$part_name" ] || partx --update "$loop" >>"$work/sfdisk.log" 2>&1
    [ -e "/sys/class/block/$part_name" ] ||
        { echo "Bail out! the kernel did not add $part_name"; cat "$work/sfdisk.log"; exit 1; }
    udevadm settle --timeout=30
    wait_for 60 knows "$part" || { echo "Bail out! udisksd does not know $part"; exit 1; }
}
partition_device
wait_for 60 knows "$loop" || { echo "Bail out! udisksd does not know $loop"; exit 1; }

# --- the user and the sandbox ---------------------------------------------------------
user=ddsandbox$$
useradd --no-user-group --create-home --home-dir "$work/home" --shell /bin/sh "$user" || exit 99
made_user=$user
home=$work/home
uid=$(id -u "$user")
gid=$(id -g "$user")

printf '[Application]\nname=io.github.driveduel.DriveDuel\nruntime=runtime/org.gnome.Platform/x86_64/51\n' \
    >"$work/flatpak-info"
# A folder of the host the sandbox is not given: a mount on it is not in the
# sandbox's mountinfo.
mkdir "$work/hidden"

# expose ro|rw PATH: PATH of the host in the sandbox, at the same place.
# bwrap 0.8 makes the folders above a bind's target mode 0700 (root's), out
# of the user's reach: they are made first, 0755, in $sandbox_dirs.
sandbox_dirs=""
sandbox_binds=""
expose() {
    case $2 in /usr/* | /lib/* | /lib64/* | /bin/* | /sbin/* | /etc/* | /sys/* | /proc/*) return 0 ;; esac
    case " $sandbox_binds " in *" $2 $2 "*) return 0 ;; esac
    _ex_dirs=""
    _ex_dir=$2
    while _ex_dir=$(dirname "$_ex_dir") && [ "$_ex_dir" != / ]; do
        case " $sandbox_dirs " in *" --dir $_ex_dir "*) ;; *) _ex_dirs="--dir $_ex_dir $_ex_dirs" ;; esac
    done
    sandbox_dirs="$sandbox_dirs $_ex_dirs"
    if [ "$1" = rw ]; then
        sandbox_binds="$sandbox_binds --bind $2 $2"
    else
        sandbox_binds="$sandbox_binds --ro-bind $2 $2"
    fi
}
expose rw "$home"
# The sandbox runs a copy at a place of its own, as a Flatpak's /app; the
# libraries it needs from outside /usr (a build tree's, by rpath) are bound
# read-only where they are.
install -m 755 "$cli" "$work/driveduel-cli" || exit 99
for lib in $(ldd "$work/driveduel-cli" 2>/dev/null | sed -n 's/^.*=> \(\/[^ ]*\) .*$/\1/p'); do
    expose ro "$(dirname "$lib")"
done
# Under build-aux/sanitize.sh, the sanitizers' suppression files.
for option in $(echo "${ASAN_OPTIONS:-}:${LSAN_OPTIONS:-}:${UBSAN_OPTIONS:-}" | tr ':' ' '); do
    case $option in suppressions=/*) [ -f "${option#*=}" ] && expose ro "${option#*=}" ;; esac
done

# in_sandbox bus|nobus COMMAND...: COMMAND as the user in the sandbox, with or
# without the system bus. bwrap starts as root (no user namespace), setpriv
# then drops to the user: the bus sees the user's credentials.
in_sandbox() {
    _is_bus=$1; shift
    set -- -- setpriv --reuid="$uid" --regid="$gid" --clear-groups --inh-caps=-all --bounding-set=-all \
        env HOME="$home" USER="$user" LOGNAME="$user" XDG_CACHE_HOME="$home/.cache" "$@"
    if [ "$_is_bus" = bus ]; then
        set -- --bind /run/dbus /run/dbus "$@"
    else
        set -- --tmpfs /run/dbus "$@"
    fi
    # shellcheck disable=SC2086
    bwrap --ro-bind /usr /usr \
        --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin --symlink usr/sbin /sbin \
        --ro-bind /etc /etc \
        --proc /proc --dev /dev --ro-bind /sys /sys --tmpfs /tmp \
        --dir /app --dir /app/bin --ro-bind "$work/driveduel-cli" /app/bin/driveduel-cli \
        --dir /run --dir /var --symlink ../run /var/run \
        $sandbox_dirs $sandbox_binds --chdir "$home" \
        --ro-bind-data 3 /.flatpak-info \
        --unshare-pid --die-with-parent \
        "$@" 3<"$work/flatpak-info"
}

if authorized org.freedesktop.udisks2.open-device-system; then
    skip "polkit already lets $user open system devices"
fi

# run_sandbox bus|nobus ARGS...: driveduel-cli as the user in the sandbox;
# $code, $work/out, $work/err.
run_sandbox() {
    _rs_bus=$1; shift
    in_sandbox "$_rs_bus" /app/bin/driveduel-cli "$@" >"$work/out" 2>"$work/err"
    code=$?
    echo "# $user in the sandbox ($_rs_bus): driveduel-cli $* -> exit $code"
    sed 's/^/#   /' "$work/err"
}
one_line() { [ "$(wc -l <"$work/err")" -eq 1 ]; }
says() { grep -qF -- "$1" "$work/err"; }
device_sum() { sha256sum "$loop" | cut -d' ' -f1; }
# Sectors written to the device as the kernel counts them (field 7).
sectors_written() { awk '{ print $7 }' "/sys/block/$name/stat"; }
# The bytes a result file says its first test wrote.
result_written() {
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tests"][0]["totals"]["write"]["bytes"])' "$1"
}
# The "Capacity" line of driveduel-cli info: the size.
size_line() { grep -m1 "^ *Capacity:" "$1"; }

# --- the sandbox is one -----------------------------------------------------------------
in_sandbox bus sh -c 'id -u; [ -e "$1" ] && echo "$1 is there"; cat "/sys/class/block/$2/dev"' \
    sh "$loop" "$name" >"$work/sandbox" 2>&1
sed 's/^/# sandbox: /' "$work/sandbox"
check "sandbox: runs as $user (uid $uid)" [ "$(sed -n 1p "$work/sandbox")" = "$uid" ]
check "sandbox: $loop is not in its /dev" [ "$(grep -c ' is there$' "$work/sandbox")" -eq 0 ]
check "sandbox: /sys/class/block/$name/dev reads as outside" \
    [ "$(sed -n 2p "$work/sandbox")" = "$(cat "/sys/class/block/$name/dev")" ]
in_sandbox bus cat /proc/swaps >"$work/swaps" 2>&1
sed 's/^/# sandbox swaps: /' "$work/swaps"
# Not cmp: it takes the size of /proc/swaps (0) for its length.
swaps_same() { [ "$(cat "$work/swaps")" = "$(cat /proc/swaps)" ]; }
check "sandbox: /proc/swaps reads as outside" swaps_same
in_sandbox bus cat /proc/self/mountinfo >"$work/mountinfo" 2>&1
echo "# the sandbox's /proc/self/mountinfo:"
sed 's/^/#   /' "$work/mountinfo"

# --- a. info in the sandbox ----------------------------------------------------------------
"$cli" info "$loop" >"$work/info-host" 2>&1
run_sandbox bus info "$loop"
check "a: info works in the sandbox (exit $code)" [ "$code" -eq 0 ]
sed 's/^/# sandbox info: /' "$work/out"
host_size=$(size_line "$work/info-host")
check "a: the size line is there outside (“$host_size”)" [ -n "$host_size" ]
check "a: the same size line in the sandbox" [ "$(size_line "$work/out")" = "$host_size" ]
check "a: says a write run needs consent and goes through UDisks" \
    grep -q "^ *Write runs: *need --destructive; in this sandbox the device is opened through UDisks, if polkit allows$" "$work/out"

# --- b. no rule, no consent: asks for it first -------------------------------------------------
before=$(device_sum)
run_sandbox bus run --rw randwrite --runtime 1 "$loop"
check "b: without --destructive: refused (exit $code)" [ "$code" -eq 1 ]
check "b: one line" one_line
check "b: asks for --destructive first" \
    says "driveduel-cli: Writing to “$loop” destroys everything on it; in this sandbox it can be opened only through UDisks, once that is allowed. Give --destructive to allow it."
check "b: the device is unchanged" [ "$(device_sum)" = "$before" ]

# --- c. no rule: polkit says no -------------------------------------------------------------
run_sandbox bus run --rw randwrite --runtime 1 --destructive "$loop"
check "c: refused without a polkit rule (exit $code)" [ "$code" -eq 1 ]
check "c: one line" one_line
check "c: says polkit did not allow it, and what to allow" \
    says "driveduel-cli: “$loop” can be opened in this sandbox only through UDisks, and polkit did not allow it: allow org.freedesktop.udisks2.open-device-system in polkit."
check "c: the device is unchanged" [ "$(device_sum)" = "$before" ]

# --- d. a rule for this user: the run works ----------------------------------------------------
allow_open_device

sectors_before=$(sectors_written)
run_sandbox bus run --rw randwrite --runtime 1 --destructive --wipe-signatures --output "$home/write.json" "$loop"
check "d: the write run works through UDisks (exit $code)" [ "$code" -eq 0 ]
sectors_after=$(sectors_written)
run_sandbox bus analyze "$home/write.json"
check "d: its result loads (analyze exit $code)" [ "$code" -eq 0 ]
check "d: the device was written" [ "$(device_sum)" != "$before" ]
written=$(result_written "$home/write.json" 2>/dev/null)
kernel=$(( (sectors_after - sectors_before) * 512 ))
echo "# the result says ${written:-?} bytes written; the kernel counted $kernel"
kernel_counted() { [ -n "$written" ] && [ "$written" -gt 0 ] && [ "$kernel" -ge "$written" ]; }
check "d: the kernel counted at least the bytes the result says were written" kernel_counted

# --- e. a partition mounted on the host, out of the sandbox's sight -------------------------------
# The run wrote over the partition table: a new one, an ext4 on its partition.
partition_device
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$part" || exit 99
udevadm settle --timeout=30
mount "$part" "$work/hidden" || exit 99
made_mount=$work/hidden
udevadm settle --timeout=30
in_sandbox bus cat /proc/self/mountinfo >"$work/mountinfo" 2>&1
check "e: the mount is not in the sandbox's mountinfo" \
    [ "$(grep -cF " $work/hidden " "$work/mountinfo")" -eq 0 ]
before=$(device_sum)
run_sandbox bus run --rw randwrite --runtime 1 --destructive --wipe-signatures "$loop"
check "e: refused, the partition is mounted (exit $code)" [ "$code" -eq 1 ]
check "e: one line" one_line
check "e: names the partition and where it is mounted on the host" \
    says "driveduel-cli: Partition $part_name of “$loop” is mounted at $work/hidden."
check "e: the device is unchanged" [ "$(device_sum)" = "$before" ]
run_sandbox bus info "$loop"
sed 's/^/# sandbox info: /' "$work/out"
check "e: info shows the host's mount point as in use" grep -q "^ *In use: .*$work/hidden" "$work/out"
umount "$work/hidden" && made_mount=""
udevadm settle --timeout=30

# --- f. a read run in the sandbox --------------------------------------------------------------
before=$(device_sum)
run_sandbox bus run --rw randread --runtime 1 --output "$home/read.json" "$loop"
check "f: the read run works through UDisks (exit $code)" [ "$code" -eq 0 ]
run_sandbox bus analyze "$home/read.json"
check "f: its result loads (analyze exit $code)" [ "$code" -eq 0 ]
check "f: the device is unchanged" [ "$(device_sum)" = "$before" ]

# --- g. a sandbox without the system bus ---------------------------------------------------------
run_sandbox nobus run --rw randwrite --runtime 1 --destructive "$loop"
check "g: no bus: the write run is refused (exit $code)" [ "$code" -eq 1 ]
check "g: no bus: one line" one_line
check "g: no bus: says the mounts cannot be told" \
    says "driveduel-cli: Cannot tell whether “$loop” is mounted: this sandbox does not see the host's mounts, and UDisks did not answer"
run_sandbox nobus run --rw randread --runtime 1 "$loop"
check "g: no bus: the read run is refused (exit $code)" [ "$code" -eq 1 ]
check "g: no bus: one line" one_line
check "g: no bus: says UDisks cannot be reached" \
    says "driveduel-cli: “$loop” can be opened in this sandbox only through UDisks, which is not running or cannot be reached"
check "g: no bus: the device is unchanged" [ "$(device_sum)" = "$before" ]

# --- h. the disk the host runs from ----------------------------------------------------------------
# The sandbox's own / is a tmpfs; the host's, from UDisks, is the running system.
root_source=$(findmnt -no SOURCE / 2>/dev/null)
root_disk=""
if [ -b "$root_source" ]; then
    root_disk=$(lsblk -no PKNAME "$root_source" 2>/dev/null | head -n1)
    [ -n "$root_disk" ] || root_disk=$(basename "$root_source")
fi
# A udevd this script started has no database entry for the disks it did
# not see appear, and UDisks ignores a device udev has not initialised: a
# change event (the read-only probing a boot does) gives them one.
if [ -n "$root_disk" ] && ! knows "/dev/$root_disk"; then
    udevadm trigger --action=change "/dev/$root_disk" "$root_source" >/dev/null 2>&1
    udevadm settle --timeout=30
    wait_for 60 knows "/dev/$root_disk"
fi
if [ -n "$root_disk" ] && knows "/dev/$root_disk"; then
    run_sandbox bus info "/dev/$root_disk"
    check "h: info on the host's system disk /dev/$root_disk works (exit $code)" [ "$code" -eq 0 ]
    check "h: writes to it are refused as the running system's" \
        grep -qF "Write runs:       refused: “/dev/$root_disk” is on the disk that holds the running system (/)." "$work/out"
else
    n=$((n + 1)); echo "ok $n # SKIP h: / is not on a block device UDisks knows (${root_source:-none})"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
