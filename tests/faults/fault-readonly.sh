#!/bin/sh
# Read-only targets given to a write run.
#  1. a loop device attached read-only (losetup -r): refused with a message
#     that says the device is read-only; exit code 1; a result, if written, loads;
#  2. a device made read-only mid-run (blockdev --setro): exit code 1, the
#     partial result saved and loadable;
#  3. a file on a read-only filesystem: refused with a clear message, exit 1.
#
# Usage: fault-readonly.sh DRIVEDUEL-CLI CHECK-RESULT   (root; else skipped)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$@"
fault_need_root
fault_init readonly

truncate -s 128m "$fault_work/disk.img"

# 1. Read-only from the start.
fault_loop "$fault_work/disk.img" -r
dev=$fault_dev
out=$fault_work/ro.json
fault_cli_bg ro --rw randwrite --destructive --runtime 10 --interval-ms 100 --output "$out" "$dev"
fault_wait_cli
fault_show ro
fault_check "read-only device: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep_words "read-only device: the message says it is read-only" "$fault_work/ro.err" "read-only"
if [ -e "$out" ]; then
    fault_loads "read-only device: the result written loads, failed" "$out" --status failed
else
    fault_note "read-only device: no result file (refused before the run)"
fi
fault_unloop "$dev"

# 2. Made read-only during the run.
fault_loop "$fault_work/disk.img"
dev=$fault_dev
out=$fault_work/setro.json
fault_cli_bg setro --rw randwrite --destructive --runtime 60 --interval-ms 100 --output "$out" "$dev"
fault_wait_running "$out"
blockdev --setro "$dev" || fault_fail "blockdev --setro $dev failed"
fault_wait_cli
fault_show setro
fault_check "made read-only mid-run: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "made read-only mid-run: the message names the failed write" "$fault_work/setro.err" \
    "Writing .* at offset [0-9]+ of .$dev. failed: .*(read-only|Operation not permitted)"
fault_loads "made read-only mid-run: the partial result loads" "$out" --status failed --min-rows 10

# 3. A file on a filesystem mounted read-only.
fault_ext4 rofs 32m
truncate -s 16m "$fault_mnt/file.img"
mount -o remount,ro "$fault_mnt" || fault_fail "remount,ro failed"
out=$fault_work/rofs.json
fault_cli_bg rofs --rw randwrite --runtime 10 --output "$out" "$fault_mnt/file.img"
fault_wait_cli
fault_show rofs
fault_check "read-only filesystem: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep_words "read-only filesystem: the message says it is read-only" "$fault_work/rofs.err" "read-only"

fault_done
