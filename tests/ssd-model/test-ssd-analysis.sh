#!/bin/sh
# Drive Duel's analysis against the simulated SSD's own truth (TAP).
#
# For each model configuration (write cache, over-provisioning, parallelism,
# and the rising shape), a 256 MiB model is mounted through FUSE and the real
#   driveduel-cli run --preset write-saturation
# discards it, fills it twice over and scores reads; then ssd-model-check
# compares what the analysis reports with what the model logged: every fall
# within 3 points of capacity written of an event that causes one (the
# cache running out, GC beginning), the cliff the last of them, the
# plateau within 5 % of the IOPS the model delivered over the same bytes, the
# first steady-state window after the model's GC began. The probe that
# estimates a fill: its fall against the model's cache. Then the consistency
# preset on a preconditioned model: the slowest interval and the latency
# percentiles against the model's per-second counts and logged waits.
#
# The checks compare the engine's figures with the model's account of the
# same requests (not with the model's nominal speeds), so they hold however
# fast this machine is; the margins are the ones the issue set (3 points,
# 5 %) and the histograms' bucket widths. They hold only while the host
# keeps up with the model, which serves in real time: a run during which the
# host was busy is done again (see run below), and when it was busy every
# time, the checks of rates, times and knees are reported as TODO instead of
# failing; test-ssd-virtual checks the analysis on the same cases in the
# model's own time, where the host cannot matter. About 2 minutes on a
# quiet host.
#
# Usage: test-ssd-analysis.sh MODEL SSD-MODEL.SH CHECKER [CLI]
# MODEL is empty when libfuse3 was not found at build time: skipped, as
# when /dev/fuse or fusermount3 is missing. Unmounts even on failure.
set -u
model=${1:-}; script=${2:-}; checker=${3:-}
cli=${4:-${DRIVEDUEL_CLI:-}}

# A TAP plan of none with SKIP is a skip to meson when the exit status is 0
# (77 would make it an error).
skip() { echo "1..0 # SKIP $*"; exit 0; }
[ -n "$model" ] && [ -x "$model" ] || skip "duel-ssd-model was not built (libfuse3 missing)"
"$script" have-fuse || skip "FUSE is not usable here (/dev/fuse, fusermount3)"
[ -x "$cli" ] || { echo "Bail out! driveduel-cli not found"; exit 1; }
export DUEL_SSD_MODEL="$model"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/duel-ssd-analysis.XXXXXX") || exit 1
mnt=$work/mnt
cleanup() {
    "$script" stop "$mnt" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

tests=0
failures=0

# How busy the host was while the CLI ran: the share of the time some task
# waited for a CPU (/proc/pressure/cpu, "some") and the share the hypervisor
# took (steal, /proc/stat), in %. The model serves in real time, so a busy
# host (another job, a sanitizer's slower code) reshapes the curve the engine
# measures: with CPU pressure at 60 % the fill's cliff moved up to 37 points
# on the `rises` shape while the model's GC began where it always does.
# Quiet here: 12 % (the CLI and the model's own threads).
pressure_us() { sed -n '1s/.*total=//p' /proc/pressure/cpu 2>/dev/null; }
steal_ticks() { awk '/^cpu /{print $9; exit}' /proc/stat 2>/dev/null; }
now_us() { echo $(( $(date +%s%N) / 1000 )); }
load_begin() { p0=$(pressure_us); s0=$(steal_ticks); t0=$(now_us); }
load_end() {
    p1=$(pressure_us); s1=$(steal_ticks); t1=$(now_us)
    dt=$((t1 - t0)); [ $dt -gt 0 ] || dt=1
    pressure=0; steal=0
    [ -n "$p0" ] && [ -n "$p1" ] && pressure=$(( (p1 - p0) * 100 / dt ))
    # steal is in USER_HZ (100/s) summed over the CPUs
    [ -n "$s0" ] && [ -n "$s1" ] && steal=$(( (s1 - s0) * 1000000 / (dt * $(nproc)) ))
}
max_pressure=25
max_steal=5
# Steal on this VM comes in bursts of a minute or more (11-27 % seen for
# three runs in a row): more attempts, a pause between them. But the whole
# test has a budget of extra attempts: on a host busy throughout (a CPU
# pressure of 70-99 % from other jobs), five attempts for each of nine runs
# took longer than the test's timeout, and the verdict was the host's. With
# the budget spent, a busy run's timed checks are TODO at once.
attempts=5
retries_left=4

# run NAME CHECK-MODE "MODEL OPTIONS" CLI-ARGS...: one mount, one CLI run,
# the checker's TAP lines prefixed with NAME. When the host was busy during
# the run (see above), or the model logged that it did not set the pace
# around the cliff, the run is done again, up to $attempts times; the checks
# read the last run. A failure on a quiet host is never retried.
checks_analysis() { case " $1 " in *" analysis "*) return 0;; esac; return 1; }

run() {
    name=$1; mode=$2; opts=$3; shift 3
    attempt=1
    while :; do
        # shellcheck disable=SC2086
        if ! "$script" start "$mnt" $opts --log "$work/$name.truth.json" >"$work/$name.start" 2>&1; then
            echo "not ok - $name: the model did not start"; sed 's/^/# /' "$work/$name.start"
            tests=$((tests + 1)); failures=$((failures + 1)); return
        fi
        load_begin
        "$cli" "$@" --destructive --name "$name" --output "$work/$name.json" "$mnt/ssd.img" >"$work/$name.cli" 2>&1
        rc=$?
        load_end
        "$script" stop "$mnt" >/dev/null 2>&1
        busy=""
        [ $pressure -le $max_pressure ] || busy="CPU pressure $pressure % (quiet: at most $max_pressure %)"
        [ $steal -le $max_steal ] || busy="${busy:+$busy, }steal $steal % (at most $max_steal %)"
        if [ $rc -eq 0 ] && checks_analysis "$mode" &&
           ! "$checker" paced "$work/$name.truth.json" "$work/$name.json" >"$work/$name.paced" 2>&1; then
            busy="${busy:+$busy, }$(sed -n 's/^not ok - //p' "$work/$name.paced")"
        fi
        echo "# $name: attempt $attempt, CPU pressure $pressure %, steal $steal %"
        [ $rc -eq 0 ] && [ -n "$busy" ] && [ $attempt -lt $attempts ] && [ $retries_left -gt 0 ] || break
        echo "# $name: the host was busy ($busy): once more"
        sleep 10
        attempt=$((attempt + 1))
        retries_left=$((retries_left - 1))
    done
    # Busy throughout: the checks of rates, times and knees on the last run
    # are TODO (test-ssd-virtual holds the analysis to them on the model's
    # own clock); the rest still count.
    [ -z "$busy" ] || echo "# $name: the host was busy in all $attempt attempt(s) ($busy; extra attempts left for the test: $retries_left); checking the last, its timed checks as TODO"
    tests=$((tests + 1))
    if [ $rc -ne 0 ]; then
        echo "not ok - $name: driveduel-cli exited with $rc"; sed 's/^/# cli: /' "$work/$name.cli"
        failures=$((failures + 1)); return
    fi
    echo "ok - $name: driveduel-cli $1 --preset ran on duel-ssd-model $opts"
    for check in $mode; do
        "$checker" "$check" "$work/$name.truth.json" "$work/$name.json" ${busy:+--host-busy "$busy"} \
            >"$work/$name.check" 2>&1
        sed -n 's/^\(not \)\{0,1\}ok - /&'"$name"': /p' "$work/$name.check"
        grep -v '^\(not \)\{0,1\}ok - ' "$work/$name.check" | sed 's/^/# /'
        tests=$((tests + $(grep -c '^\(not \)\{0,1\}ok - ' "$work/$name.check")))
        failures=$((failures + $(grep '^not ok - ' "$work/$name.check" | grep -vc ' # TODO ')))
    done
    if checks_analysis "$mode"; then
        sed 's/^/# /' "$work/$name.paced"
        "$checker" report "$work/$name.truth.json" "$work/$name.json" 2>&1 | sed -n '1,5s/^/# /p'
    fi
}

# The gate runs the cases marked "gate"; DUEL_SSD_ANALYSIS=all
# runs every case (about 4 minutes). test-ssd-virtual holds the analysis to all of
# them, and to hundreds of random drives, in the model's own time; here the
# real CLI meets the model through FUSE in real time.
cases=${DUEL_SSD_ANALYSIS:-gate}
fill="run --preset write-saturation --runtime 1 --round 1 --interval-ms 100 --probe 0"
probed="run --preset write-saturation --runtime 1 --round 1 --interval-ms 100 --probe 2"
# A short fill checks only its probe (before the discard): where its rate
# fell against where the model's cache ran out; no fall without a cache.
probe="run --preset write-saturation --capacity-multiple 0.5 --runtime 1 --round 1 --interval-ms 100 --probe 2"
# when | name | checks | model options | CLI arguments: the shapes of
# docs/ssd-model.md and one change each. falls-probed fills after the
# preset's own 2 s probe, which writes into the model's cache before the
# discard: the checker counts the fill from the discard on, and holds the
# probe's fall to the cache.
while IFS='|' read -r when name checks opts args; do
    [ -n "$name" ] || continue
    [ "$when" = gate ] || [ "$cases" = all ] || continue
    eval "cli_args=\$$args"
    # shellcheck disable=SC2086
    run "$name" "$checks" "$opts" $cli_args </dev/null
done <<EOF
all|falls|analysis|--shape falls|fill
gate|small-cache|analysis|--shape falls --cache 10%|fill
all|more-op|analysis|--shape falls --op 28|fill
all|two-units|analysis|--shape falls --units 2 --t-prog-cache-us 125 --t-prog-us 350|fill
gate|rises|analysis|--shape rises|fill
gate|falls-probed|analysis probe|--shape falls|probed
all|probe-falls|probe|--shape falls|probe
gate|probe-flat|probe|--shape flat|probe
EOF

# Consistency (and its latency percentiles) in the GC steady state.
run consistency consistency "--shape falls --cache 0 --precondition 2" \
    run --preset consistency --runtime 15 --probe 0

echo "1..$tests"
[ $failures -eq 0 ] || { echo "# $failures check(s) failed"; exit 1; }
exit 0
