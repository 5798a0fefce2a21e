#!/bin/sh
# The CLI killed mid-run. The result is saved before the first I/O and
# checkpointed every few seconds, so after kill -9:
#  1. once a checkpoint holds 5 s of rows, the file loads and holds at least
#     those (status "running");
#  2. the same at 10 s of rows;
#  3. killed at many points in the first seconds, the file is always either
#     absent (killed before the first save) or loadable, never torn;
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

# kill_at_rows NAME N: a run killed with SIGKILL once its checkpoint loads
# with N rows, however slowly it started.
kill_at_rows() {
    fault_cli_bg "$1" $run_args --output "$fault_work/$1.json" "$target"
    fault_wait_running "$fault_work/$1.json" "$2"
    kill -KILL "$fault_pid"
    fault_wait_cli
}

# 1 and 2: 100 ms rows.
kill_at_rows kill1 50
fault_check "kill -9 with 5 s checkpointed: the process died by SIGKILL (status $fault_rc)" [ "$fault_rc" -eq 137 ]
fault_loads "kill -9 with 5 s checkpointed: it loads, running, with those rows" \
    "$fault_work/kill1.json" --status running --min-rows 50
kill_at_rows kill2 100
fault_loads "kill -9 with 10 s checkpointed: it loads, with those rows" \
    "$fault_work/kill2.json" --status running --min-rows 100

# 3. Around the first saves and checkpoints.
torn=0
for delay in 0.05 0.1 0.2 1.95 2.0 2.05 2.1 4.0; do
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
fault_check "killed in its first seconds: the file is never torn ($torn torn)" [ $torn -eq 0 ]

# 4. SIGTERM cancels.
fault_cli_bg term $run_args --output "$fault_work/term.json" "$target"
fault_wait_running "$fault_work/term.json" 45
kill -TERM "$fault_pid"
fault_wait_cli
fault_show term
fault_check "SIGTERM: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
fault_grep "SIGTERM: the message says the run was cancelled and kept" "$fault_work/term.err" "cancelled"
fault_loads "SIGTERM: the result loads, cancelled, with the rows measured" \
    "$fault_work/term.json" --status cancelled --min-rows 45

fault_done
