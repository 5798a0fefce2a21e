#!/bin/sh
# A user without rights on a block device runs driveduel-cli on it through a
# real udisksd (TAP). Root makes a loop device and a throwaway user, then as
# that user:
#   a. info says a write run needs consent and goes through UDisks; with no
#      polkit rule for it, a write run is refused in one sentence
#      that says what to do, exit 1, and the device is untouched; without
#      --destructive it is refused for that first, UDisks not asked;
#   b. with a rule allowing UDisks' open-device actions, the write run works
#      (exit 0), its result loads, and the device was written;
#   c. on an ext4 the write run without --wipe-signatures is refused with the
#      same sentence root gets, and the device is untouched;
#   d. a read run works and leaves the device as it was.
#
# The system bus, polkitd, udevd and udisksd are used when they run, and
# started otherwise (README.md, "Devices without root").
# Only what this script started is stopped, by the process ids it
# remembered; only the socket, rule, user and loop device it made are
# removed, by the exit trap, whether the test passes or not.
#
# Usage: test-udisks-cli.sh DRIVEDUEL_CLI
# The messages quote with “ ”; sh -c scripts get their arguments as $1.
# shellcheck disable=SC1111,SC2016
set -u

cli=${1:?usage: test-udisks-cli.sh DRIVEDUEL_CLI}
export LC_ALL=C.UTF-8
export LANGUAGE=

# The services and the TAP helpers both UDisks tests use.
# shellcheck source=udisks-services.sh
. "$(dirname "$0")/udisks-services.sh"

# A TAP plan of none with SKIP is a skip to meson when the exit status is 0
# (77 would make it an error).
skip() { echo "1..0 # SKIP $*"; exit 0; }

[ "$(id -u)" = 0 ] || skip "needs root (a loop device, a test user, a polkit rule)"
[ -e /dev/loop-control ] || skip "no loop device support"
for tool in dbus-daemon dbus-send udevadm udisksctl pkcheck losetup mkfs.ext4 useradd userdel runuser sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed"
done
for program in "$udevd_bin" "$polkitd_bin" "$udisksd_bin"; do
    [ -x "$program" ] || skip "$program is not installed (packages udisks2, polkitd, udev)"
done
[ -d /etc/polkit-1/rules.d ] || skip "polkit has no /etc/polkit-1/rules.d"

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

cleanup() {
    set +e
    [ -n "$made_rule" ] && rm -f "$made_rule"
    [ -n "$made_loop" ] && losetup -d "$made_loop"
    [ -n "$made_user" ] && userdel -r "$made_user" 2>/dev/null
    stop_services
    [ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The loop device's backing file is on a real filesystem, not tmpfs.
work=$(mktemp -d /var/tmp/driveduel-udisks.XXXXXX) || exit 99
chmod 755 "$work"

# --- the services ----------------------------------------------------------------
start_services

# --- the device and the user -----------------------------------------------------------
head -c 33554432 /dev/urandom >"$work/backing.img" || exit 99
made_loop=$(losetup --find --show "$work/backing.img") || { made_loop=""; skip "losetup failed (no free loop device?)"; }
loop=$made_loop
udevadm trigger --action=change "$loop" >/dev/null 2>&1
udevadm settle --timeout=30

knows_loop() { udisksctl info --block-device "$loop" >/dev/null 2>&1; }
wait_for 60 knows_loop || { echo "Bail out! udisksd does not know $loop"; exit 1; }

user=ddudisks$$
useradd --no-user-group --create-home --home-dir "$work/home" --shell /bin/sh "$user" || exit 99
made_user=$user
home=$work/home

as_user() {
    runuser -u "$user" -- env HOME="$home" XDG_CACHE_HOME="$home/.cache" "$@"
}
# The user runs a copy: the build tree may be out of its reach.
install -m 755 "$cli" "$work/driveduel-cli" || exit 99
cli=$work/driveduel-cli

if as_user sh -c 'exec 3<"$1"' sh "$loop" 2>/dev/null; then
    skip "$user may open $loop itself: nothing to ask UDisks for"
fi
if authorized org.freedesktop.udisks2.open-device-system; then
    skip "polkit already lets $user open system devices"
fi

# run_user ARGS...: driveduel-cli as the user; $code, $work/out, $work/err.
run_user() {
    as_user "$cli" "$@" >"$work/out" 2>"$work/err"
    code=$?
    echo "# $user: driveduel-cli $* -> exit $code"
    sed 's/^/#   /' "$work/err"
}
one_line() { [ "$(wc -l <"$work/err")" -eq 1 ]; }
says() { grep -qF -- "$1" "$work/err"; }
device_sum() { sha256sum "$loop" | cut -d' ' -f1; }

# The hint names the device's group only when joining it would do.
group=$(stat -c %G "$loop")
group_mode=$(stat -c %a "$loop" | sed 's/^.*\(.\).$/\1/')
if [ "$group" != root ] && [ "$group_mode" -ge 6 ]; then
    hint="run as root, join the group “$group” that owns it, or allow org.freedesktop.udisks2.open-device-system in polkit."
else
    hint="run as root or allow org.freedesktop.udisks2.open-device-system in polkit."
fi

# --- a. no rule: refused, one sentence, nothing written ---------------------------------------
run_user info "$loop"
check "a: info says a write run needs consent and goes through UDisks" \
    grep -q "^ *Write runs: *need --destructive; this user opens the device through UDisks, if polkit allows$" "$work/out"
before=$(device_sum)
run_user run --rw randwrite --runtime 1 --destructive "$loop"
check "a: refused without a polkit rule (exit $code)" [ "$code" -eq 1 ]
check "a: one line" one_line
check "a: says polkit did not allow UDisks, and what to do" \
    says "driveduel-cli: Permission denied opening “$loop”, and polkit did not allow UDisks to open it: $hint"
check "a: the device is unchanged" [ "$(device_sum)" = "$before" ]
# Without the consent, UDisks is not even asked: the consent comes first.
run_user run --rw randwrite --runtime 1 "$loop"
check "a: without --destructive: refused (exit $code)" [ "$code" -eq 1 ]
check "a: without --destructive: one line" one_line
check "a: without --destructive: asks for it first" \
    says "driveduel-cli: Writing to “$loop” destroys everything on it; this user may open it only through UDisks, once that is allowed. Give --destructive to allow it."
check "a: without --destructive: the device is unchanged" [ "$(device_sum)" = "$before" ]

# --- b. a rule for this user: the run works ----------------------------------------------------
allow_open_device

before=$(device_sum)
run_user run --rw randwrite --runtime 1 --destructive --output "$home/write.json" "$loop"
check "b: the write run works through UDisks (exit $code)" [ "$code" -eq 0 ]
run_user analyze "$home/write.json"
check "b: its result loads (analyze exit $code)" [ "$code" -eq 0 ]
check "b: the device was written" [ "$(device_sum)" != "$before" ]

# --- c. a filesystem on it: refused as for root, nothing written -------------------------------------
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop" || exit 99
udevadm settle --timeout=30
before=$(device_sum)
"$cli" run --rw randwrite --runtime 1 --destructive "$loop" >/dev/null 2>"$work/root-err"
run_user run --rw randwrite --runtime 1 --destructive "$loop"
check "c: refused on an ext4 without --wipe-signatures (exit $code)" [ "$code" -eq 1 ]
check "c: one line" one_line
check "c: names the signature and --wipe-signatures" \
    says "driveduel-cli: “$loop” holds a signature of type ext4 (filesystem). Give --wipe-signatures as well to overwrite it."
check "c: the same sentence as root's" cmp -s "$work/err" "$work/root-err"
check "c: the device is unchanged" [ "$(device_sum)" = "$before" ]

# --- d. a read run through UDisks ------------------------------------------------------------------
run_user run --rw randread --runtime 1 --output "$home/read.json" "$loop"
check "d: the read run works through UDisks (exit $code)" [ "$code" -eq 0 ]
run_user analyze "$home/read.json"
check "d: its result loads (analyze exit $code)" [ "$code" -eq 0 ]
check "d: the device is unchanged" [ "$(device_sum)" = "$before" ]

echo "1..$n"
[ "$failed" -eq 0 ]
