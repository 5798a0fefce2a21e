#!/bin/sh
# A device that stops answering is not a pause of the process (issue 34, TAP).
# The simulated SSD's FUSE server is stopped under a real run, where a stall
# can land: in io_uring's first submit to the file, which waits in the
# kernel for the server to answer a poll (the model stops itself there,
# --stop-at-poll), so the engine's thread is held for the whole stall; and
# later, when the engine waits for completions that do not come (SIGSTOP
# once the run has rows). Either way no pause is recorded and the stall's
# rows stay, empty, as the drive gave them; with two jobs too. Last, the
# run's own process is stopped inside such a stall: only that stop is a
# pause, and the rest of the stall still shows as empty rows. And a loop
# device over the stopped server's file does not hold a run on a file
# elsewhere (the safety check never stat()s a file there).
# The test controls the stops and measures them itself; it asserts only
# lower bounds from what it caused (empty rows at least the stall's whole
# intervals less a margin, a pause at least as long as the stop), never a
# bound on elapsed time.
#
# Usage: test-ssd-stall.sh MODEL SSD-MODEL.SH CHECK-RESULT DRIVEDUEL-CLI
# MODEL is empty when libfuse3 was not found at build time: skipped, as
# when /dev/fuse or fusermount3 is missing. Everything started is stopped
# and unmounted even on failure.
set -u
model=${1:-}; script=${2:-}; check_result=${3:-}; cli=${4:-${DRIVEDUEL_CLI:-}}
export LC_ALL=C.UTF-8
unset LANGUAGE

skip() { echo "1..0 # SKIP $*"; exit 0; }
[ -n "$model" ] && [ -x "$model" ] || skip "duel-ssd-model was not built (libfuse3 missing)"
"$script" have-fuse || skip "FUSE is not usable here (/dev/fuse, fusermount3)"
[ -x "$cli" ] || { echo "Bail out! driveduel-cli not found"; exit 1; }
[ -x "$check_result" ] || { echo "Bail out! check-result not found"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/var/tmp}/duel-ssd-stall.XXXXXX") || exit 1
mnt=
server=
run_pid=
loop=
cleanup() {
    set +e
    [ -n "$run_pid" ] && { kill -CONT "$run_pid"; kill -KILL "$run_pid"; wait "$run_pid"; } 2>/dev/null
    [ -n "$server" ] && kill -CONT "$server" 2>/dev/null
    [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
    [ -n "$mnt" ] && DUEL_SSD_MODEL=$model "$script" stop "$mnt" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failures=0
tests=0
ok() { echo "ok - $*"; tests=$((tests + 1)); }
notok() { echo "not ok - $*"; tests=$((tests + 1)); failures=$((failures + 1)); }
check() { _c_desc=$1; shift; if "$@"; then ok "$_c_desc"; else notok "$_c_desc"; fi; }
# What the engine said of its loop's gaps, as a note: which gap it saw held
# or paused depends on where the host's scheduler let the loop run (under
# ASan on a loaded host the loop once ran within the stall), so the verdict
# is the result's rows and pauses (results), never these words.
engine_said() {
    echo "# $1:"
    grep -E "Engine: the (loop|process)" "$log" | sed 's/^/#   /'
}
bail() { echo "Bail out! $*"; exit 1; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# all_stopped PID [held]: whether every thread of PID is stopped (T in
# /proc/PID/task/N/stat). With "held", a thread held in the kernel (D) by
# the stopped server counts too: it cannot stop before the server answers,
# and stops as it returns; the run's watchdog thread must be stopped.
# Shell builtins only: it runs in a polling loop.
all_stopped() {
    _as_n=0
    for _as_task in /proc/"$1"/task/*; do
        read -r _as_stat <"$_as_task/stat" 2>/dev/null || return 1
        _as_stat=${_as_stat##*) }
        case $_as_stat in
            T*|t*) ;;
            D*) [ "${2:-}" = held ] || return 1
                read -r _as_comm <"$_as_task/comm" 2>/dev/null || return 1
                [ "$_as_comm" != duel-watchdog ] || return 1 ;;
            *) return 1 ;;
        esac
        _as_n=$((_as_n + 1))
    done
    [ $_as_n -gt 0 ]
}

# threads PID WHAT: each thread's name, state and kernel wait, as comments.
threads() {
    for _th_task in /proc/"$1"/task/*; do
        read -r _th_stat <"$_th_task/stat" 2>/dev/null || continue
        read -r _th_comm <"$_th_task/comm" 2>/dev/null
        read -r _th_wchan <"$_th_task/wchan" 2>/dev/null
        _th_state=${_th_stat##*) }
        echo "# $2: thread $_th_comm, state ${_th_state%% *}, waiting in ${_th_wchan:-?}"
    done
}

# wait_stopped PID WHAT [held]: until all_stopped. A cap of a minute, for
# a stuck machine only: then it says where each thread is and bails out, as
# when the run ended first.
wait_stopped() {
    _ws_until=$(($(now_ms) + 60000))
    until all_stopped "$1" "${3:-}"; do
        if [ "$(now_ms)" -ge $_ws_until ] || ! kill -0 "$run_pid" 2>/dev/null; then
            threads "$1" "$2"
            [ "$1" = "$run_pid" ] || threads "$run_pid" "the run"
            [ -n "$mnt" ] && sed 's/^/# model: /' "$mnt.out"
            sed 's/^/# run: /' "$log"
            bail "$2 did not stop (or the run ended first)"
        fi
        sleep 0.01
    done
}

# start_model NAME [model options]: the simulated SSD on $work/NAME.
start_model() {
    mnt=$work/$1; shift
    DUEL_SSD_MODEL=$model "$script" start "$mnt" --capacity 64m "$@" >"$mnt.start" 2>&1 ||
        { sed 's/^/# /' "$mnt.start"; bail "the simulated SSD did not start"; }
    server=$(cat "$mnt.pid")
}

stop_model() {
    kill -CONT "$server" 2>/dev/null
    DUEL_SSD_MODEL=$model "$script" stop "$mnt" >/dev/null 2>&1
    server=
    mnt=
}

# start_run NAME NUMJOBS: a 6 s random-write run on the model, with the
# engine's debug messages; its result is $work/NAME.json.
start_run() {
    out=$work/$1.json
    log=$work/$1.log
    G_MESSAGES_DEBUG=all "$cli" run --destructive --rw randwrite --iodepth 16 --numjobs "$2" \
        --runtime 6 --interval-ms 100 -o "$out" "$mnt/ssd.img" >"$log" 2>&1 &
    run_pid=$!
}

# end_run NAME: waits for the run; checks its exit code.
end_run() {
    wait "$run_pid"
    _er_rc=$?
    run_pid=
    grep -E "Engine: the|paused" "$log" | sed 's/^/#   /'
    check "$1: the run completes (exit $_er_rc)" [ "$_er_rc" -eq 0 ]
}

# results NAME ARGS...: check-result on the run's result, its report as comments.
results() {
    _r_desc=$1; shift
    if _r_out=$("$check_result" "$out" --status complete "$@" 2>&1); then
        ok "$_r_desc"
    else
        notok "$_r_desc"
    fi
    echo "$_r_out" | sed 's/^/#   /'
}

# 1, 2. The stall lands in the first submit: the engine's thread is held in
# the kernel for all of it, the process runs on. One job, then two.
for jobs in 1 2; do
    name="held in submit, numjobs $jobs"
    start_model "submit$jobs" --stop-at-poll
    start_run "submit$jobs" "$jobs"
    wait_stopped "$server" "the server"
    grep -q "stopped at the first poll" "$mnt.out" || bail "the server stopped, but not at the first poll"
    t0=$(now_ms); sleep 3; t1=$(now_ms)
    kill -CONT "$server"
    end_run "$name"
    stall_ms=$((t1 - t0))
    echo "# the server was stopped for at least $stall_ms ms"
    engine_said "$name: the engine's words on its loop"
    results "$name: no pause recorded, the stall's empty rows kept" \
        --pauses 0 --min-empty-rows $((stall_ms / 100 - 2))
    stop_model
done

# 3. The stall lands later: the engine waits for completions that do not
# come, its timers wake it meanwhile.
name="waiting for completions"
start_model wait
start_run wait 1
until=$(($(now_ms) + 60000))
until "$check_result" "$out" --min-rows 5 >/dev/null 2>&1; do
    [ "$(now_ms)" -lt $until ] || { threads "$run_pid" "the run"; bail "the run had no rows within a minute"; }
    kill -0 "$run_pid" 2>/dev/null || bail "the run ended before it had rows"
    sleep 0.05
done
kill -STOP "$server"
wait_stopped "$server" "the server"
t0=$(now_ms); sleep 3; t1=$(now_ms)
kill -CONT "$server"
end_run "$name"
stall_ms=$((t1 - t0))
echo "# the server was stopped for at least $stall_ms ms"
results "$name: no pause recorded, the stall's empty rows kept" \
    --pauses 0 --min-empty-rows $((stall_ms / 100 - 2))
stop_model

# 4. The run's own process is stopped inside a stall that holds the engine:
# that stop alone is a pause; the stall before and after it stays, empty.
name="paused inside a stall"
start_model both --stop-at-poll
start_run both 1
wait_stopped "$server" "the server"
a0=$(now_ms); sleep 1; a1=$(now_ms)
kill -STOP "$run_pid"
wait_stopped "$run_pid" "the run" held
p0=$(now_ms); sleep 3; p1=$(now_ms)
kill -CONT "$run_pid"
b0=$(now_ms); sleep 1; b1=$(now_ms)
kill -CONT "$server"
end_run "$name"
echo "# stall before the stop $((a1 - a0)) ms, stop $((p1 - p0)) ms, stall after it $((b1 - b0)) ms (at least)"
engine_said "$name: the engine's words on its loop"
# The watchdog's last tick before the stop may come up to a tick (and a
# scheduling delay) before it: a margin of 4 rows.
results "$name: one pause, at least as long as the stop; the stall's empty rows kept" \
    --pauses 1 --min-pause-ms $((p1 - p0)) --min-empty-rows $(((a1 - a0 + b1 - b0) / 100 - 4))
stop_model

# 5. A loop device over a file of the model whose server stopped answering:
# a run on a file elsewhere does not look at that file (which would hang
# for as long as the server does), and goes ahead. Root, for losetup.
name="a loop device over a stalled server"
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
    # Every stat() of its file goes to the server, as once the kernel's
    # cached attributes have run out.
    start_model loop --attr-timeout 0
    loop=$(losetup --find --show "$mnt/ssd.img" 2>/dev/null) || loop=
    if [ -n "$loop" ]; then
        # The target exists (what is checked against loop devices' files).
        "$cli" run --rw randwrite --runtime 1 --span 4m "$work/elsewhere.img" >/dev/null 2>&1 ||
            bail "the first run on $work/elsewhere.img failed"
        kill -STOP "$server"
        wait_stopped "$server" "the server"
        log=$work/loop.log
        # A cap for a hang only: the run itself takes about a second.
        timeout 120 "$cli" run --rw randwrite --runtime 1 --span 4m "$work/elsewhere.img" >"$log" 2>&1
        rc=$?
        sed 's/^/#   /' "$log"
        check "$name: the run goes ahead (exit $rc)" [ "$rc" -eq 0 ]
        kill -CONT "$server"
        losetup -d "$loop"
        loop=
    else
        ok "$name # SKIP no loop device over the model's file"
    fi
    stop_model
else
    ok "$name # SKIP needs root and losetup"
fi

echo "1..$tests"
[ $failures -eq 0 ]
