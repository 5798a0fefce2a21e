#!/bin/sh
# run-ata-test.sh DRIVEDUEL_CLI
#
# The SATA test (meson suite "ata"): boots the NVMe test's throw-away QEMU
# guest (tests/nvme/nvme-vm.sh, generic kernel for its AHCI driver) with one
# disk on the q35 machine's AHCI controller, QEMU's ide-hd given a 40-character
# model, an 8-character firmware and a 20-character serial, and runs
# ata-guest.sh in it: `driveduel-cli info` as root, without pass-through and
# as a user without rights, and a short read run's result file. The guest's
# TAP output is this test's. For the user's SMART data from UDisks it also
# copies in a system bus (dbus-daemon, guest-system-bus.conf), systemd-udevd
# with the rules and ata_id that give a SATA disk its ID_ATA properties,
# udisksd with the libblockdev plugins it loads with dlopen() (ldd does not
# list them), gdbus and sdparm; without them those cases are skipped. Skips
# when qemu, the kernel or busybox cannot be had; the kernel and busybox are
# cached in NVME_VM_CACHE, outside the repository, and the disk is QEMU's
# null-co (no file to remove).
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -u

here=$(cd "$(dirname "$0")" && pwd)
cli=$1
# Exactly 40, 8 and 20 characters: ATA's whole model, firmware and serial fields.
model="DriveDuel Forty Character Model Name 123"
firmware=FW8CHARS
serial=DDSERIAL0123456789AB

skip() {
	echo "1..0 # SKIP $*"
	exit 0
}

command -v qemu-system-x86_64 >/dev/null 2>&1 || skip "qemu-system-x86_64 is not installed (Debian: qemu-system-x86)"
command -v apt-get >/dev/null 2>&1 || skip "no apt-get to fetch the guest kernel"
[ -x "$cli" ] || skip "$cli was not built"
if [ ${#model} != 40 ] || [ ${#firmware} != 8 ] || [ ${#serial} != 20 ]; then
	echo "Bail out! the test strings are not 40, 8 and 20 characters long"
	exit 1
fi

# UDisks in the guest: every file at its host path, the programs' libraries
# come along (nvme-vm.sh -b). The udev helpers and rules go where this
# udevadm looks for them (Debian 12: /lib/udev). The arguments collect in "$@".
set --
udisks_skip=
udisksd='' udevd='' libbd_dir='' udev_dir=''
for f in /usr/libexec/udisks2/udisksd /usr/lib/udisks2/udisksd; do [ -x "$f" ] && { udisksd=$f; break; }; done
for f in /lib/systemd/systemd-udevd /usr/lib/systemd/systemd-udevd; do [ -x "$f" ] && { udevd=$f; break; }; done
for d in /lib/udev /usr/lib/udev; do [ -x "$d/ata_id" ] && { udev_dir=$d; break; }; done
[ -n "$udisksd" ] && libbd_dir=$(ldd "$udisksd" 2>/dev/null | awk '$1 == "libblockdev.so.2" { sub("/[^/]*$", "", $3); print $3 }')
for need in "udisksd:$udisksd" "systemd-udevd:$udevd" "ata_id:$udev_dir" "libblockdev:$libbd_dir" \
	"dbus-daemon:$(command -v dbus-daemon)" "udevadm:$(command -v udevadm)" \
	"gdbus:$(command -v gdbus)" "sdparm:$(command -v sdparm)"; do
	[ -n "${need#*:}" ] || udisks_skip="${udisks_skip:+$udisks_skip, }${need%%:*}"
done
if [ -z "$udisks_skip" ]; then
	for f in "$udisksd" "$libbd_dir"/libbd_*.so.2 "$udevd" "$(command -v udevadm)" \
		"$udev_dir/ata_id" "$udev_dir/scsi_id" "$udev_dir/rules.d/60-persistent-storage.rules" \
		"$udev_dir/rules.d/80-udisks2.rules" "$(command -v dbus-daemon)" "$here/guest-system-bus.conf" \
		"$(command -v gdbus)" "$(command -v sdparm)"; do
		[ -e "$f" ] && set -- "$@" -b "$f"
	done
	set -- "$@" -e DUEL_UDISKSD="$udisksd" -e DUEL_UDEVD="$udevd" -e DUEL_BUS_CONF="$here/guest-system-bus.conf"
else
	udisks_skip="not on this host: $udisks_skip (Debian: udisks2, udev, dbus, libglib2.0-bin, sdparm)"
	set -- "$@" -e DUEL_UDISKS_SKIP="$udisks_skip"
fi

log=$(mktemp "${TMPDIR:-/tmp}/duel-ata-test.XXXXXX")
trap 'rm -f "$log"' EXIT

# -n 0: no NVMe controller; -k generic: the cloud kernel has no AHCI driver.
"$here/../nvme/nvme-vm.sh" -k generic -n 0 -s 64M -t 240 \
	-a "model=$model,ver=$firmware,serial=$serial" \
	-b "$cli" -b "$here/ata-guest.sh" "$@" \
	-e DRIVEDUEL_CLI="$cli" -e DUEL_ATA_DEVICE=/dev/sda \
	-e DUEL_ATA_MODEL="$model" -e DUEL_ATA_FIRMWARE=$firmware -e DUEL_ATA_SERIAL=$serial \
	-- "$here/ata-guest.sh" 2>"$log"
rc=$?
case $rc in
125)
	sed 's/^/# /' "$log"
	skip "the QEMU guest could not be set up (see the log above)" ;;
124)
	sed 's/^/# /' "$log"
	echo "Bail out! the QEMU guest timed out"
	exit 1 ;;
esac
sed 's/^/# /' "$log" >&2
exit "$rc"
