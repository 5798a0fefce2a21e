#!/bin/sh
# A file target on a filesystem that fills up during the run (ENOSPC): a small
# ext4 on a loop device (tmpfs has no O_DIRECT), holding a sparse file larger
# than its free space, so random writes into the holes run out of blocks.
# Expected: a clear message, exit code 1, the partial result saved and loadable.
# Second case: the result file itself is on the filesystem the run fills, so
# it cannot be saved; the message must still say why the run stopped, and why
# saving failed. Third: that filesystem is full before the run, so the run
# is refused before it writes anything.
# The runs that fill the filesystem are given ten minutes, a cap for a host
# that hardly writes rather than a length: they end at ENOSPC, after 50 MiB
# of new blocks however long that takes (with 60 s, a host too busy to write
# that much in a minute made the run complete instead).
#
# Usage: fault-enospc.sh DRIVEDUEL-CLI CHECK-RESULT   (root; else skipped)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$@"
fault_need_root
fault_init enospc

fault_ext4 small 64m
target=$fault_mnt/big.img
truncate -s 256m "$target"

out=$fault_work/enospc.json
fault_cli_bg enospc --rw randwrite --runtime 600 --interval-ms 100 --output "$out" "$target"
fault_wait_cli
fault_show enospc
fault_check "the run stops with exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "the message names the write, the file and ENOSPC" "$fault_work/enospc.err" \
    "Writing .* at offset [0-9]+ of .$target. failed: No space left on device"
fault_loads "the partial result loads: failed, with rows" "$out" \
    --status failed --min-rows 1 --error-contains "No space left on device"

# The same run with its result file on the filesystem it fills: the target
# made again, so that the result has room when the run starts.
rm -f "$target" && truncate -s 256m "$target"
out=$fault_mnt/enospc.json
fault_cli_bg both --rw randwrite --runtime 600 --interval-ms 100 --output "$out" "$target"
fault_wait_cli
fault_show both
fault_check "result on the full filesystem: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "result on the full filesystem: the run's own error is reported" "$fault_work/both.err" \
    "Writing .* of .$target. failed: No space left on device"
fault_grep "result on the full filesystem: the failed save is reported" "$fault_work/both.err" \
    "enospc\.json"
fault_check "result on the full filesystem: no half-written result is left" \
    sh -c "! ls '$fault_mnt'/enospc.json* >/dev/null 2>&1 || '$fault_checker' '$out' >/dev/null"

# Now full: the result could not be kept, so the run is refused before it
# writes anything (the preflight), and the target is left as it was.
before=$(stat -c '%s %Y %b' "$target")
fault_cli_bg full --rw randwrite --runtime 60 --interval-ms 100 --output "$fault_mnt/full.json" "$target"
fault_wait_cli
fault_show full
fault_check "result folder already full: exit code 1 before any I/O (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "result folder already full: the message says the result cannot be saved" "$fault_work/full.err" \
    "The result cannot be saved in .*No space left on device"
fault_check "result folder already full: the target is untouched" [ "$(stat -c '%s %Y %b' "$target")" = "$before" ]

fault_done
