#!/bin/sh
# A stop on a device that does not answer: the simulated SSD served through
# FUSE, its server holding every request unanswered (SIGUSR1) mid-run, so the I/O in flight hangs.
#  1. a file on it: the first SIGINT says the run stops; once the device has
#     not answered for 2 s, one line says how many I/Os it waits for and that
#     a second Ctrl-C stops without waiting. The second SIGINT ends the wait
#     at once: the result is saved (cancelled, with every row measured before
#     the stop), the run says it was cancelled, and, true on Linux, that this
#     process ends only once the FUSE server answers (its exit closes the
#     file, and FUSE's close waits for the server). Once the server answers
#     again, exit code 1.
#  2. the same with 4 jobs (a ring each: every job gives up).
#  3. a loop device over that file (root): after the second SIGINT the
#     process ends, exit code 1, while the server still holds its requests: the
#     kernel keeps the I/O in flight (io_uring's exit work) until the device
#     answers.
#  4. a preset's probe, which ends itself by a stop of its own: the same two
#     lines, exit code 1.
# The old stop waited for ever and ignored further signals. Each wait here
# is for an event (a line on stderr, a row count, the process's end), capped
# at 120 s only to stop a hung test.
#
# Usage: fault-hung-stop.sh DRIVEDUEL-CLI CHECK-RESULT MODEL SSD-MODEL.SH
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$1" "$2"
model=${3:-}; model_script=${4:-}
[ -n "$model" ] && [ -x "$model" ] || fault_skip "the simulated SSD was not built (no libfuse3)"
"$model_script" have-fuse || fault_skip "no FUSE here (/dev/fuse, fusermount3)"
fault_init hung-stop

mnt=$fault_work/mnt
model_pid=""
loop=""
stop_model() {
    [ -n "$model_pid" ] && kill -USR2 "$model_pid" 2>/dev/null
    [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
    loop=""
    DUEL_SSD_MODEL=$model "$model_script" stop "$mnt" >/dev/null 2>&1
    model_pid=""
}
trap 'stop_model; fault_cleanup' EXIT
start_model() {
    DUEL_SSD_MODEL=$model "$model_script" start "$mnt" --shape flat --capacity 64m --hold-file "$mnt.held" >/dev/null ||
        fault_fail "the simulated SSD did not start"
    model_pid=$(cat "$mnt.pid")
}

# wait_held: until the model holds at least one request (its --hold-file).
wait_held() {
    _wh_i=0
    while [ "$(cat "$mnt.held" 2>/dev/null || echo 0)" -lt 1 ] && [ $_wh_i -lt 1200 ]; do
        sleep 0.1; _wh_i=$((_wh_i + 1))
    done
    [ "$(cat "$mnt.held" 2>/dev/null || echo 0)" -ge 1 ]
}

# wait_line NAME REGEX: until the CLI's stderr has a line matching REGEX.
wait_line() {
    _wl_i=0
    while ! grep -Eq -- "$2" "$fault_work/$1.err" && [ $_wl_i -lt 1200 ]; do
        sleep 0.1; _wl_i=$((_wl_i + 1))
    done
    grep -Eq -- "$2" "$fault_work/$1.err"
}

# show_stacks PID: where each thread of the process waits, as TAP comments
# (the kernel's stacks: root only), to tell a failure's cause.
show_stacks() {
    for _ss_task in /proc/$1/task/*; do
        fault_note "thread $(cat "$_ss_task/comm" 2>/dev/null): $(tr '\n' ' ' <"$_ss_task/stack" 2>/dev/null)"
    done
}

# wait_gone PID: until the process has ended (zombie or reaped).
wait_gone() {
    _wg_i=0
    while [ $_wg_i -lt 1200 ]; do
        _wg_state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 0
        [ "$_wg_state" = Z ] && return 0
        sleep 0.1; _wg_i=$((_wg_i + 1))
    done
    return 1
}

# hung_stop NAME TARGET [run options]: a run on TARGET; once it has rows,
# the server holds its requests, then the run is stopped twice.
hung_stop() {
    _hs_name=$1; _hs_target=$2; shift 2
    out=$fault_work/$_hs_name.json
    fault_cli_bg "$_hs_name" --rw randwrite --destructive --runtime 600 --interval-ms 100 "$@" \
        --output "$out" "$_hs_target"
    fault_wait_running "$out"
    # The server takes every request from now on and answers none: a stopped
    # process would leave requests the kernel had not handed over yet for the
    # stop to cancel, so what the test saw would depend on the host's load.
    kill -USR1 "$model_pid"
    fault_check "$_hs_name: the device holds the run's I/O" wait_held
    # Rows on disk now: all of them are kept, whatever comes.
    rows=$("$fault_checker" "$out" | sed -n 's/.* \([0-9]*\) rows.*/\1/p' | tail -n 1)
    kill -INT "$fault_pid"
    if wait_line "$_hs_name" 'has not answered [0-9]+ I/Os? for [0-9]+ s; press Ctrl-C again'; then
        fault_check "$_hs_name: the stop says what it waits for" true
    else
        fault_check "$_hs_name: the stop says what it waits for" false
        show_stacks "$fault_pid"
    fi
    kill -INT "$fault_pid"
    fault_check "$_hs_name: the second Ctrl-C ends the wait: the run says it was cancelled" \
        wait_line "$_hs_name" 'the run was cancelled; the partial result is kept'
    fault_grep "$_hs_name: the second Ctrl-C is answered" "$fault_work/$_hs_name.err" \
        'stopping without waiting for the device; what was measured is kept'
}

# ---- 1. a file ----------------------------------------------------------------
start_model
hung_stop file "$mnt/ssd.img"
fault_grep "file: it says the process ends once the FUSE server answers" "$fault_work/file.err" \
    'served through FUSE by a server that does not answer: this process ends only once it answers'
fault_loads "file: saved with the server still holding them: cancelled, the rows before the stop" \
    "$fault_work/file.json" --status cancelled --min-rows "$rows"
kill -USR2 "$model_pid"
fault_wait_cli
fault_show file
fault_check "file: exit code 1 once the server answers (got $fault_rc)" [ "$fault_rc" -eq 1 ]
stop_model

# ---- 2. four jobs ---------------------------------------------------------------
start_model
hung_stop jobs "$mnt/ssd.img" --numjobs 4 --iodepth 8
fault_loads "4 jobs: saved, cancelled, the rows before the stop" \
    "$fault_work/jobs.json" --status cancelled --min-rows "$rows"
kill -USR2 "$model_pid"
fault_wait_cli
fault_show jobs
fault_check "4 jobs: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
stop_model

# ---- 3. a loop device over it ---------------------------------------------------
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null 2>&1; then
    start_model
    loop=$(losetup --find --show --direct-io=on "$mnt/ssd.img") || fault_fail "losetup failed"
    hung_stop loop "$loop"
    fault_check "loop device: the process ends with the server still holding its requests" wait_gone "$fault_pid"
    fault_wait_cli
    fault_show loop
    fault_check "loop device: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
    fault_check "loop device: no FUSE note (the process did end)" \
        sh -c "! grep -q 'served through FUSE' '$fault_work/loop.err'"
    fault_loads "loop device: saved, cancelled, the rows before the stop" \
        "$fault_work/loop.json" --status cancelled --min-rows "$rows"
    stop_model
else
    fault_note "case 3 skipped: needs root and loop devices"
fi

# ---- 4. a preset's probe ----------------------------------------------------
# The probe ends itself (a stop of its own, duel_engine_own_stop_new()), as
# a write until its rate falls does: the person's stop of a device that does
# not answer is said and given up on there too. Before, nothing was said
# and the second Ctrl-C did nothing: the run waited for the device.
start_model
fault_cli_bg probe --preset write-saturation --probe 10 --destructive --interval-ms 100 \
    --output "$fault_work/probe.json" "$mnt/ssd.img"
_wp_i=0
while ! grep -q 'Probing the write speed' "$fault_work/probe.out" && [ $_wp_i -lt 1200 ]; do
    sleep 0.1; _wp_i=$((_wp_i + 1))
done
kill -USR1 "$model_pid"
fault_check "probe: the device holds the probe's I/O" wait_held
kill -INT "$fault_pid"
if wait_line probe 'has not answered [0-9]+ I/Os? for [0-9]+ s; press Ctrl-C again'; then
    fault_check "probe: the stop says what it waits for" true
else
    fault_check "probe: the stop says what it waits for" false
    show_stacks "$fault_pid"
fi
kill -INT "$fault_pid"
fault_check "probe: the second Ctrl-C is answered" \
    wait_line probe 'stopping without waiting for the device; what was measured is kept'
fault_check "probe: the second Ctrl-C ends the wait: the run says it was cancelled" \
    wait_line probe 'the run was cancelled; the partial result is kept'
kill -USR2 "$model_pid"
fault_wait_cli
fault_show probe
fault_check "probe: exit code 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
stop_model

fault_done
