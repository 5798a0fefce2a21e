#!/bin/sh
# A target that shrinks during the run.
#  1. a file truncated under a random-read run: reads past the new end fail;
#  2. a loop device made smaller (its size limit lowered, loop-shrink.py)
#     under a mixed run;
#  both: exit code 1, a message that says the target shrank, and the partial
#  result saved and loadable;
#  3. a file truncated under a random-write run: writes past the end extend a
#     file again, so the run completes (exit 0) with a complete result;
#  4. a file cut inside its last block under a sequential read: that read
#     comes back short, the engine asks again for the rest, which is past the
#     end: the message names the 2 KiB remainder at its offset, which only
#     the short-transfer path reports.
#
# Usage: fault-truncate.sh DRIVEDUEL-CLI CHECK-RESULT   (root; else skipped)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$@"
fault_need_root
fault_init truncate

# What makes the message clear: it says what happened to the target.
shrank="truncat|shrank|smaller|shorter|end of the (file|device|target)"

# expect_shrank NAME WHAT IO-REGEX: the run NAME (described as WHAT) ended
# with exit code 1, a message naming the failed I/O (IO-REGEX) and saying the
# target shrank, and a loadable partial result in $fault_work/NAME.json.
expect_shrank() {
    fault_wait_cli
    fault_show "$1"
    fault_check "$2: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
    fault_grep "$2: the message names the failed I/O" "$fault_work/$1.err" "$3"
    fault_grep_words "$2: the message says the target shrank" "$fault_work/$1.err" "$shrank"
    fault_loads "$2: the partial result loads" "$fault_work/$1.json" --status failed --min-rows 10
}

# 1. File, reads.
file=$fault_work/file.img
"$fault_cli" run --rw write --bs 1m --size 1x --span 128m "$file" >/dev/null 2>&1 ||
    fault_fail "filling $file failed"
out=$fault_work/file-read.json
fault_cli_bg file-read --rw randread --runtime 60 --interval-ms 100 --output "$out" "$file"
fault_wait_running "$out"
truncate -s 1m "$file"
expect_shrank file-read "file truncated under reads" "Reading .* at offset [0-9]+ of .$file. failed"

# 2. Block device, mixed.
truncate -s 128m "$fault_work/disk.img"
fault_loop "$fault_work/disk.img"
dev=$fault_dev
out=$fault_work/dev.json
fault_cli_bg dev --rw randrw --destructive --runtime 60 --interval-ms 100 --output "$out" "$dev"
fault_wait_running "$out"
python3 "$here/loop-shrink.py" "$dev" $((8 * 1048576)) || fault_fail "shrinking $dev failed"
expect_shrank dev "device shrunk" "(Reading|Writing) .* at offset [0-9]+ of .$dev. failed"

# 3. File, writes: the file grows back. Truncated by something else since
# Drive Duel wrote it, the file needs consent (its made mark no longer
# describes it).
truncate -s 128m "$file"
out=$fault_work/file-write.json
fault_cli_bg file-write --rw randwrite --destructive --runtime 8 --interval-ms 100 --output "$out" "$file"
fault_wait_running "$out"
truncate -s 1m "$file"
fault_wait_cli
fault_show file-write
fault_check "file truncated under writes: the run completes, exit code 0 (got $fault_rc)" [ "$fault_rc" -eq 0 ]
fault_loads "file truncated under writes: the result loads, complete" "$out" --status complete --min-rows 70

# 4. File, sequential reads, cut 2 KiB into its last 4 KiB block.
truncate -s 1m "$file"
out=$fault_work/file-short.json
fault_cli_bg file-short --rw read --bs 4k --iodepth 1 --runtime 60 --interval-ms 100 --output "$out" "$file"
fault_wait_running "$out"
truncate -s $((1048576 - 2048)) "$file"
# Only the rest of the short read (2 KiB, at 1 MiB - 2 KiB) is named so.
expect_shrank file-short "file cut inside a block" \
    "Reading 2[.]0.{1,2}KiB at offset $((1048576 - 2048)) of .$file. failed"

fault_done
