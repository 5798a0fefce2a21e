#!/bin/sh
# A disk that fails in the middle of a run: every I/O starts failing with EIO.
# Without device-mapper (some kernels lack it) the failing disk is a loop
# device over a file on an ext4 that is shut down mid-run (EXT4_IOC_SHUTDOWN):
# the loop driver then fails every request with an I/O error, as a dying
# disk does. With device-mapper, also a linear target switched to `error`.
# Expected: a clear message naming the I/O, exit code 1, and the result file
# holding what was measured, status "failed", loadable.
#
# Usage: fault-disk-error.sh DRIVEDUEL-CLI CHECK-RESULT   (root; else skipped)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$@"
fault_need_root
fault_init disk-error

# --- the backing filesystem dies under a loop device ---
fault_ext4 backing 160m
fallocate -l 128m "$fault_mnt/disk.img" || fault_fail "fallocate failed"
fault_loop "$fault_mnt/disk.img"
dev=$fault_dev
out=$fault_work/shutdown.json
fault_cli_bg shutdown --rw randrw --destructive --runtime 60 --interval-ms 100 --output "$out" "$dev"
fault_wait_running "$out"
python3 "$here/fs-shutdown.py" "$fault_mnt" || fault_fail "EXT4_IOC_SHUTDOWN failed"
fault_wait_cli
fault_show shutdown
fault_check "the run stops with exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "the message names the failed I/O, the device and the error" "$fault_work/shutdown.err" \
    "(Reading|Writing) .* at offset [0-9]+ of .$dev. failed: Input/output error"
fault_loads "the partial result loads: failed, with the rows before the failure" "$out" \
    --status failed --min-rows 10 --error-contains "Input/output error"

# --- a device-mapper target switched to `error` mid-run ---
if fault_have_dm; then
    truncate -s 128m "$fault_work/dm.img"
    fault_loop "$fault_work/dm.img"
    name=driveduel-fault-$$
    fault_dm "$name" "0 262144 linear $fault_dev 0"
    out=$fault_work/dm.json
    fault_cli_bg dm --rw randrw --destructive --runtime 60 --interval-ms 100 --output "$out" "/dev/mapper/$name"
    fault_wait_running "$out"
    dmsetup suspend --noflush "$name" && dmsetup load "$name" --table "0 262144 error" &&
        dmsetup resume "$name" || fault_fail "switching $name to the error target failed"
    fault_wait_cli
    fault_show dm
    fault_check "dm error: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
    fault_grep "dm error: the message names the failed I/O" "$fault_work/dm.err" \
        "(Reading|Writing) .* at offset [0-9]+ of .*$name. failed: Input/output error"
    fault_loads "dm error: the partial result loads" "$out" --status failed --min-rows 10
else
    fault_note "device-mapper is not available in this kernel: the dm error-target case is skipped"
fi

fault_done
