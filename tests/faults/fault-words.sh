#!/bin/sh
# What a failed run says is true, and one sentence.
#  1. the FUSE server under a file target is killed mid-run: reads then fail
#     (ECONNABORTED, ENOTCONN) and the target's size cannot be read; the
#     message names the failed I/O and the filesystem that stopped
#     answering, and says nothing of a target that shrank "to 0 bytes";
#  2. a file truncated under a random-read run (no root needed): the
#     message says the target shrank, with both sizes, in one sentence, not
#     the system's words glued to another sentence ("No data available The
#     target shrank…").
# Both: exit code 1 and a loadable partial result.
#
# Usage: fault-words.sh DRIVEDUEL-CLI CHECK-RESULT MODEL SSD-MODEL.SH
# MODEL is empty when libfuse3 was not found: case 1 is then skipped.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$1" "$2"
model=${3:-}; model_script=${4:-}
fault_init words

# A sentence glued to the one before: a lower-case letter, a space, a capital.
glued="[a-z)] [A-Z][a-z]+ "

# 1. A FUSE server that dies.
if [ -n "$model" ] && [ -x "$model" ] && "$model_script" have-fuse; then
    mnt=$fault_work/mnt
    stop_model() { DUEL_SSD_MODEL=$model "$model_script" stop "$mnt" >/dev/null 2>&1; }
    trap 'stop_model; fault_cleanup' EXIT
    DUEL_SSD_MODEL=$model "$model_script" start "$mnt" --capacity 64m >/dev/null ||
        fault_fail "the simulated SSD did not start"
    out=$fault_work/fuse.json
    fault_cli_bg fuse --rw randread --runtime 60 --interval-ms 100 --output "$out" "$mnt/ssd.img"
    fault_wait_running "$out"
    kill -KILL "$(cat "$mnt.pid")"
    fault_wait_cli
    fault_show fuse
    fault_check "FUSE server gone: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
    fault_grep "FUSE server gone: the message names the failed I/O" "$fault_work/fuse.err" \
        "Reading .* at offset [0-9]+ of .*ssd.img. failed"
    fault_grep_words "FUSE server gone: the message says the filesystem stopped answering" \
        "$fault_work/fuse.err" "stopped answering"
    fault_check "FUSE server gone: no target that shrank to 0 bytes" \
        sh -c "! grep -Eq 'shrank|0 bytes' '$fault_work/fuse.err'"
    fault_check "FUSE server gone: one sentence" \
        sh -c "! sed 's/“[^”]*”/“…”/g' '$fault_work/fuse.err' | grep -Eq '$glued'"
    fault_loads "FUSE server gone: the partial result loads" "$out" --status failed --min-rows 10
    stop_model
else
    fault_note "case 1 skipped: no simulated SSD or no FUSE here"
fi

# 2. A file truncated under reads.
file=$fault_work/file.img
"$fault_cli" run --rw write --bs 1m --size 1x --span 32m "$file" >/dev/null 2>&1 ||
    fault_fail "filling $file failed"
out=$fault_work/cut.json
fault_cli_bg cut --rw randread --runtime 60 --interval-ms 100 --output "$out" "$file"
fault_wait_running "$out"
truncate -s 1m "$file"
fault_wait_cli
fault_show cut
fault_check "file truncated: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "file truncated: the message names the failed I/O" "$fault_work/cut.err" \
    "Reading .* at offset [0-9]+ of .$file. failed"
fault_grep_words "file truncated: the message says the target shrank, with both sizes" \
    "$fault_work/cut.err" "shrank during the run, from 32[.]0.MiB to 1[.]0.MiB"
fault_check "file truncated: one sentence" \
    sh -c "! sed 's/“[^”]*”/“…”/g' '$fault_work/cut.err' | grep -Eq '$glued'"
fault_loads "file truncated: the partial result loads" "$out" --status failed --min-rows 10

fault_done
