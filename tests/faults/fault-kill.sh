#!/bin/sh
# The CLI killed mid-run. The result file is checkpointed atomically about
# every 5 s (a temporary file, fsync, rename), so after kill -9:
#  1. once past the first checkpoint, the file loads and holds the run up to
#     it (status "running", about 5 s of rows);
#  2. after the second checkpoint it holds about 10 s of rows;
#  3. killed at many points around a checkpoint's write, the file is always
#     either absent (killed before the first save) or loadable, never torn;
#  4. SIGTERM is a cancel: what was measured is saved, status "cancelled", exit 1.
# (The GUI's part: /duel/app/run/kill-9-keeps-checkpoint in tests/test-app-run.c.)
#
# Usage: fault-kill.sh DRIVEDUEL-CLI CHECK-RESULT   (needs no root)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$@"
fault_init kill

target=$fault_work/target.img
run_args="--rw randrw --iodepth 4 --runtime 120 --interval-ms 100 --span 64m"

# kill_after NAME SECONDS: a run killed with SIGKILL after SECONDS.
kill_after() {
    fault_cli_bg "$1" $run_args --output "$fault_work/$1.json" "$target"
    sleep "$2"
    kill -KILL "$fault_pid"
    fault_wait_cli
}

# kill_at_checkpoint NAME N: a run killed with SIGKILL once it has written
# its Nth checkpoint (5 s apart), however slowly it started.
kill_at_checkpoint() {
    fault_cli_bg "$1" $run_args --output "$fault_work/$1.json" "$target"
    fault_wait_running "$fault_work/$1.json"
    n=1
    while [ $n -lt "$2" ]; do
        before=$(stat -c %Y.%i "$fault_work/$1.json")
        i=0
        while [ "$(stat -c %Y.%i "$fault_work/$1.json")" = "$before" ] && [ $i -lt 300 ]; do
            sleep 0.1; i=$((i + 1))
        done
        n=$((n + 1))
    done
    kill -KILL "$fault_pid"
    fault_wait_cli
}

# 1 and 2: 100 ms rows, checkpoints every 5 s.
kill_at_checkpoint kill1 1
fault_check "kill -9 after the first checkpoint: the process died by SIGKILL (status $fault_rc)" [ "$fault_rc" -eq 137 ]
fault_loads "kill -9 after the first checkpoint: it loads, running, with ~5 s of rows" \
    "$fault_work/kill1.json" --status running --min-rows 45
kill_at_checkpoint kill2 2
fault_loads "kill -9 after the second checkpoint: it loads, with ~10 s of rows" \
    "$fault_work/kill2.json" --status running --min-rows 95

# 3. Around the first checkpoint's write (~5.0-5.2 s in).
torn=0
for delay in 4.95 5.0 5.03 5.06 5.09 5.12 5.15 5.2; do
    rm -f "$fault_work"/around.json*
    kill_after around "$delay"
    if [ -e "$fault_work/around.json" ] &&
       ! "$fault_checker" "$fault_work/around.json" >"$fault_work/around.check" 2>&1; then
        torn=$((torn + 1))
        fault_note "killed at $delay s: $(cat "$fault_work/around.check")"
    fi
    leftover=$(ls "$fault_work"/around.json.* 2>/dev/null | wc -l)
    fault_note "killed at $delay s: result file $([ -e "$fault_work/around.json" ] && echo present || echo absent), $leftover temporary file(s) left"
done
fault_check "killed around a checkpoint's write: the file is never torn ($torn torn)" [ $torn -eq 0 ]

# 4. SIGTERM cancels.
fault_cli_bg term $run_args --output "$fault_work/term.json" "$target"
fault_wait_running "$fault_work/term.json"
kill -TERM "$fault_pid"
fault_wait_cli
fault_show term
fault_check "SIGTERM: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "SIGTERM: the message says the run was cancelled and kept" "$fault_work/term.err" "cancelled"
fault_loads "SIGTERM: the result loads, cancelled, with the rows measured" \
    "$fault_work/term.json" --status cancelled --min-rows 45

fault_done
