#!/bin/sh
# Out of threads or memory: every command ends with one sentence and exit
# code 1 (or does its work, exit 0), never a hang, a GLib-ERROR or a crash.
# Real limits on real commands:
#  1. run under a per-user process limit of 1 to 8 (RLIMIT_NPROC, as a user
#     of its own: root ignores the limit): GLib's shared pool queued the
#     run's worker for ever at 2 and 3, and g_thread_new() aborted at 1 and 4;
#  2. a run whose limit drops mid-run (CrystalDiskMark's set, stopped in its
#     first step while the limit is set to the threads it has): its 16-job
#     step cannot start; one sentence says what is kept, and the result
#     loads with the rows measured before;
#  3. analyze of a 28 MB result (864,000 rows) under an address-space limit
#     (ulimit -v) of 40 to 400 MB: a refusal in one sentence where the load
#     would not fit, where g_malloc() aborted;
#  4. import of fio's output and report of a result under the same limits.
# Each command is given 300 s, a cap that only stops a hung one. (The app:
# fault-threads-app.sh.)
#
# Usage: fault-threads.sh DRIVEDUEL-CLI CHECK-RESULT
# Needs root for 1 and 2 (a user of its own), python3 for 3; a sanitized
# build (no address-space limit possible) skips 3 and 4.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fault_args "$@"
command -v python3 >/dev/null 2>&1 || fault_skip "python3 is not installed"
fault_init threads
# Under a process limit LeakSanitizer cannot start the thread it stops the
# world with, and says so at exit: its check is left out here (ASan's stay).
[ -n "${ASAN_OPTIONS:-}" ] && ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" && export ASAN_OPTIONS
cap=300

# The checks of one command's outcome: NAME's exit code in $fault_rc, its
# stderr in $fault_work/NAME.err. Exit 0, or exit 1 with exactly one line,
# ours; never a GLib-ERROR, a critical or a signal; 137 is the cap's kill.
# Drawing (report) also lets fontconfig and Pango say, before that line,
# what they could not allocate: with ALLOW_LIBS=yes their lines are set aside.
check_outcome() {
    _co_name=$1; _co_what=$2
    _co_err=$fault_work/$_co_name.err
    if [ "${ALLOW_LIBS:-no}" = yes ]; then
        grep -v -e '^Fontconfig ' -e 'Pango-WARNING' -e '^$' "$_co_err" >"$_co_err.ours"
    else
        cp "$_co_err" "$_co_err.ours"
    fi
    _co_lines=$(wc -l <"$_co_err.ours")
    if [ "$fault_rc" -eq 137 ]; then
        fault_check "$_co_what: ends within ${cap} s (it hung)" false
    elif [ "$fault_rc" -eq 0 ]; then
        fault_check "$_co_what: exit 0, nothing on stderr" [ "$_co_lines" -eq 0 ]
    else
        fault_check "$_co_what: exit 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
        fault_check "$_co_what: one line on stderr (got $_co_lines)" [ "$_co_lines" -eq 1 ]
        fault_grep "$_co_what: the line is the command's sentence" "$_co_err.ours" '^driveduel-cli: [^ ]'
    fi
    if grep -Eq 'GLib-ERROR|CRITICAL|Trace|Aborted' "$_co_err" ||
       grep -Eq 'WARNING' "$_co_err.ours"; then
        fault_check "$_co_what: no GLib error, critical or warning" false
    fi
    sed "s/^/#   $_co_what: /" "$_co_err"
}

# A user id that no account and no process has: RLIMIT_NPROC counts the
# processes of the real user, so another's would change the limit's effect.
free_uid() {
    _fu=$((61000 + $$ % 900))
    while [ $_fu -lt 62000 ]; do
        if ! getent passwd $_fu >/dev/null 2>&1 && ! ps -e -o uid= | grep -qx " *$_fu"; then
            uid=$_fu
            return 0
        fi
        _fu=$((_fu + 1))
    done
    return 1
}

# as_user CMD...: CMD as $uid, with no groups.
as_user() {
    setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"
}

# ---- 1 and 2: a per-user process limit -------------------------------------

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1 || ! command -v prlimit >/dev/null 2>&1; then
    fault_note "SKIP 1 and 2: they need root, setpriv and prlimit"
elif ! free_uid; then
    fault_note "SKIP 1 and 2: no free user id in 61000..61999"
else
    user_dir=$fault_work/user
    chmod 755 "$fault_work"
    install -d -o "$uid" -g "$uid" "$user_dir"
    if ! as_user "$fault_cli" --version >/dev/null 2>&1; then
        fault_note "SKIP 1 and 2: user $uid cannot run $fault_cli (a build folder only root may read?)"
    else
        fault_note "user $uid"
        # 1. From the start: 1 allows the main thread alone.
        as_user truncate -s 64m "$user_dir/target.img" "$user_dir/mid.img"
        for n in 1 2 3 4 5 6 8; do
            timeout -s KILL $cap setpriv --reuid="$uid" --regid="$uid" --clear-groups \
                prlimit --nproc=$n "$fault_cli" run --rw randwrite --runtime 2 \
                --interval-ms 100 --span 16m -o "$user_dir/nproc$n.json" "$user_dir/target.img" \
                >"$fault_work/nproc$n.out" 2>"$fault_work/nproc$n.err"
            fault_rc=$?
            check_outcome "nproc$n" "run, process limit $n"
            if [ "$fault_rc" -eq 0 ]; then
                fault_loads "run, process limit $n: the result loads, complete" "$user_dir/nproc$n.json" --status complete
            fi
            [ $n -eq 1 ] && fault_check "run, process limit 1: it fails (got $fault_rc)" [ "$fault_rc" -eq 1 ]
        done

        # 2. Mid-run. Stopped once the first step has rows; should the run
        # have reached its 16-job step by then (a very slow start), it is
        # tried again.
        mid_ok=false
        for attempt in 1 2 3; do
            rm -f "$user_dir"/mid.json*
            # Not through as_user: $! must be the CLI's own process.
            setpriv --reuid="$uid" --regid="$uid" --clear-groups "$fault_cli" run --preset crystaldiskmark --runtime 5 --passes 1 \
                --interval-ms 100 --span 64m -o "$user_dir/mid.json" "$user_dir/mid.img" \
                >"$fault_work/mid.out" 2>"$fault_work/mid.err" &
            fault_pid=$!
            fault_pids="$fault_pid $fault_pids"
            i=0
            while ! "$fault_checker" "$user_dir/mid.json" --min-rows 3 >/dev/null 2>&1 && [ $i -lt 1200 ]; do
                sleep 0.1; i=$((i + 1))
            done
            kill -STOP "$fault_pid"
            "$fault_checker" "$user_dir/mid.json" >"$fault_work/mid.before" 2>&1
            if grep -q 'rnd4k' "$fault_work/mid.before" || ! grep -q 'rows' "$fault_work/mid.before"; then
                fault_note "attempt $attempt: stopped too late: $(tr '\n' ' ' <"$fault_work/mid.before")"
                kill -KILL "$fault_pid"; kill -CONT "$fault_pid"
                fault_wait_cli
                continue
            fi
            rows_before=$(sed -n 's/.*running, \([0-9]*\) rows.*/\1/p' "$fault_work/mid.before" | tail -n 1)
            # As many as it has: the next thread of this user cannot start.
            threads=$(ps -L -u "$uid" --no-headers | wc -l)
            as_user prlimit --pid "$fault_pid" --nproc="$threads:$threads"
            kill -CONT "$fault_pid"
            fault_wait_cli
            mid_ok=true
            break
        done
        if $mid_ok; then
            check_outcome mid "run, process limit cut mid-run"
            fault_check "run, process limit cut mid-run: exit 1 (got $fault_rc)" [ "$fault_rc" -eq 1 ]
            fault_grep "run, process limit cut mid-run: the sentence says what is kept" "$fault_work/mid.err" \
                'kept in “.*mid\.json”'
            # The first test's rows, at least those seen before the cut.
            fault_loads "run, process limit cut mid-run: the result loads with what was measured" \
                "$user_dir/mid.json" --status failed
            fault_check "run, process limit cut mid-run: the first step kept its $rows_before rows or more" \
                sh -c "\"$fault_checker\" \"$user_dir/mid.json\" | head -n 1 | grep -q 'complete'"
        else
            fault_check "run, process limit cut mid-run: the run was stopped in its first steps" false
        fi
    fi
fi

# ---- 3 and 4: an address-space limit ---------------------------------------

if ! (ulimit -v 400000 && "$fault_cli" --version >/dev/null 2>&1); then
    fault_note "SKIP 3 and 4: the CLI does not start under a 400 MB address-space limit (a sanitized build?)"
    fault_done
fi

# A real result to grow from: 2 s of 4K random reads.
truncate -s 16m "$fault_work/seed.img"
"$fault_cli" run --rw randread --runtime 2 --interval-ms 100 --span 16m -o "$fault_work/seed.json" \
    "$fault_work/seed.img" >/dev/null 2>&1 || fault_fail "the seed run failed"
# 864,000 rows of 100 ms (a day), the same totals spread over them.
python3 - "$fault_work/seed.json" "$fault_work/big.json" <<'EOF' || fault_fail "making the large result failed"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
s = t["series"]
n = 864000
ops = t["totals"]["read"]["ops"]
bs = t["totals"]["read"]["bytes"] // ops
base, extra = divmod(ops, n)
s["rows"] = n
s["t_ms"] = [100 * (i + 1) for i in range(n)]
s["read_ops"] = [base + (1 if i < extra else 0) for i in range(n)]
s["read_bytes"] = [o * bs for o in s["read_ops"]]
s["write_ops"] = [0] * n
s["write_bytes"] = [0] * n
top = t["totals"]["read"]["lat_ns"]["max"]
s["read_lat_max_ns"] = [top if i == 0 else 20000 + (i * 7919) % 100000 for i in range(n)]
s["write_lat_max_ns"] = [0] * n
t["runtime_ns"] = n * 100 * 1000000
t["totals"]["read"]["runtime_ns"] = t["runtime_ns"]
# Recomputed by analyze; stored, it would differ (a warning on stderr).
t.pop("summary", None)
json.dump(d, open(sys.argv[2], "w"))
EOF
fault_note "large result: $(wc -c <"$fault_work/big.json") bytes"

fio=$here/../data/fio
limits="40000 60000 80000 100000 120000 160000 200000 400000"
refused=0
for v in $limits; do
    # 3. analyze
    (ulimit -v $v; exec timeout -s KILL $cap "$fault_cli" analyze "$fault_work/big.json") \
        >"$fault_work/analyze$v.out" 2>"$fault_work/analyze$v.err"
    fault_rc=$?
    check_outcome "analyze$v" "analyze of 864,000 rows under ${v} KiB"
    [ "$fault_rc" -ne 0 ] && refused=$((refused + 1))
    # 4. import and report
    rm -f "$fault_work/import$v.json"
    (ulimit -v $v; exec timeout -s KILL $cap "$fault_cli" import --iops-log "$fio/randwrite-2x_iops.1.log" \
        -o "$fault_work/import$v.json" "$fio/randwrite-2x.json") \
        >"$fault_work/import$v.out" 2>"$fault_work/import$v.err"
    fault_rc=$?
    check_outcome "import$v" "import under ${v} KiB"
    if [ "$fault_rc" -eq 0 ]; then
        fault_loads "import under ${v} KiB: the result loads" "$fault_work/import$v.json"
    fi
    mkdir -p "$fault_work/report$v"
    (ulimit -v $v; exec timeout -s KILL $cap "$fault_cli" report --output-dir "$fault_work/report$v" \
        "$fault_work/seed.json") >"$fault_work/report$v.out" 2>"$fault_work/report$v.err"
    fault_rc=$?
    ALLOW_LIBS=yes check_outcome "report$v" "report under ${v} KiB"
done
# The sweep spans both: refused at the bottom, done at the top.
fault_check "analyze: refused under the lowest limits, done under the highest ($refused of 8 refused)" \
    [ $refused -ge 1 -a $refused -le 7 ]

fault_done
