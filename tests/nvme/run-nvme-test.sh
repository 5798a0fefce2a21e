#!/bin/sh
# run-nvme-test.sh TEST_BINARY DRIVEDUEL_CLI CAPTURE_SCRIPT
#
# The NVMe test (meson suite "nvme"): boots a throw-away QEMU guest with an
# emulated NVMe controller behind a PCIe root port (nvme-vm.sh) and runs
# TEST_BINARY (tests/test-device-nvme.c) in it against /dev/nvme0n1. The
# guest's TAP output is this test's output. Skips when qemu, the kernel or
# busybox cannot be had. The kernel and busybox are cached in
# NVME_VM_CACHE (/var/tmp/nvme-vm-cache), outside the repository.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -u

here=$(cd "$(dirname "$0")" && pwd)
test_binary=$1
cli=$2
capture=$3
serial=NVMEVM0000

skip() {
	echo "1..0 # SKIP $*"
	exit 0
}

command -v qemu-system-x86_64 >/dev/null 2>&1 || skip "qemu-system-x86_64 is not installed (Debian: qemu-system-x86)"
command -v apt-get >/dev/null 2>&1 || skip "no apt-get to fetch the guest kernel"
[ -x "$test_binary" ] || skip "$test_binary was not built"

log=$(mktemp "${TMPDIR:-/tmp}/duel-nvme-test.XXXXXX")
trap 'rm -f "$log"' EXIT

# -L 16,4: a root port that could do 16 GT/s x4; the QEMU 7.2 endpoint trains 2.5 GT/s x1.
"$here/nvme-vm.sh" -L 16,4 -s 64M -t 240 \
	-b "$test_binary" -b "$cli" -b "$capture" \
	-e DUEL_NVME_DEVICE=/dev/nvme0n1 -e DUEL_NVME_SERIAL=$serial \
	-e DRIVEDUEL_CLI="$cli" -e DUEL_CAPTURE_SCRIPT="$capture" \
	${DUEL_CAPTURE_EXPORT:+-e DUEL_CAPTURE_EXPORT=1} \
	-- "$test_binary" --tap 2>"$log"
rc=$?
case $rc in
125)
	# VM or setup failure: no kernel package, no busybox, qemu could not start.
	sed 's/^/# /' "$log"
	skip "the QEMU guest could not be set up (see the log above)" ;;
124)
	sed 's/^/# /' "$log"
	echo "Bail out! the QEMU guest timed out"
	exit 1 ;;
esac
sed 's/^/# /' "$log" >&2
exit "$rc"
