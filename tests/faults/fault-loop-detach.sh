#!/bin/sh
# `losetup -d` of a loop device while a run uses it. The kernel detaches a busy
# loop device lazily (it sets autoclear and lets the open file finish; older
# kernels refuse with EBUSY), so the run is not disturbed: it completes with
# exit code 0 and a complete result, and the device goes away when the run
# closes it. A device that really fails mid-run is fault-disk-error.sh.
#
# Usage: fault-loop-detach.sh DRIVEDUEL-CLI CHECK-RESULT   (root; else skipped)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$@"
fault_need_root
fault_init loop-detach

truncate -s 128m "$fault_work/disk.img"
fault_loop "$fault_work/disk.img"
dev=$fault_dev
out=$fault_work/detach.json
fault_cli_bg detach --rw randrw --destructive --runtime 8 --interval-ms 100 --output "$out" "$dev"
fault_wait_running "$out"
if losetup -d "$dev" 2>"$fault_work/losetup.err"; then
    detached=yes
    fault_note "losetup -d $dev succeeded while the run had it open (lazy detach)"
else
    detached=no
    fault_note "losetup -d $dev refused: $(cat "$fault_work/losetup.err")"
fi
fault_wait_cli
fault_show detach
fault_check "the run completes with exit code 0 (got $fault_rc)" [ "$fault_rc" -eq 0 ]
fault_loads "the result loads and is complete" "$out" --status complete --min-rows 70
if [ $detached = yes ]; then
    # A cap for a device that never goes (60 s), not a time it must go in.
    i=0
    while losetup "$dev" >/dev/null 2>&1 && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
    fault_check "the device is gone once the run closed it" sh -c "! losetup '$dev' >/dev/null 2>&1"
    fault_loops=$(echo "$fault_loops" | sed "s#$dev ##")
fi

fault_done
