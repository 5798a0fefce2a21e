#!/bin/sh
# Drive Duel's analysis against the simulated SSD's own truth (TAP).
#
# For each model configuration (write cache, over-provisioning, parallelism,
# and the rising shape), a 256 MiB model is mounted through FUSE and the real
#   driveduel-cli run --preset write-saturation
# discards it, fills it twice over and scores reads; then ssd-model-check
# compares what the analysis reports with what the model logged: the cliff
# within 3 points of capacity written of the event that causes it, the
# plateau within 5 % of the IOPS the model delivered over the same bytes, the
# first steady-state window after the model's GC began. The probe that
# estimates a fill: its fall against the model's cache. Then the consistency
# preset on a preconditioned model: the slowest interval and the latency
# percentiles against the model's per-second counts and logged waits.
#
# The checks compare the engine's figures with the model's account of the
# same requests (not with the model's nominal speeds), so they hold however
# fast this machine is; the margins are the ones the issue set (3 points,
# 5 %) and the histograms' bucket widths. About 3 minutes.
#
# Usage: test-ssd-analysis.sh MODEL SSD-MODEL.SH CHECKER [CLI]
# MODEL is empty when libfuse3 was not found at build time: skipped (77), as
# when /dev/fuse or fusermount3 is missing. Unmounts even on failure.
set -u
model=${1:-}; script=${2:-}; checker=${3:-}
cli=${4:-${DRIVEDUEL_CLI:-}}

skip() { echo "1..0 # SKIP $*"; exit 77; }
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

# run NAME CHECK-MODE "MODEL OPTIONS" CLI-ARGS...: one mount, one CLI run,
# the checker's TAP lines prefixed with NAME.
run() {
    name=$1; mode=$2; opts=$3; shift 3
    # shellcheck disable=SC2086
    if ! "$script" start "$mnt" $opts --log "$work/$name.truth.json" >"$work/$name.start" 2>&1; then
        echo "not ok - $name: the model did not start"; sed 's/^/# /' "$work/$name.start"
        tests=$((tests + 1)); failures=$((failures + 1)); return
    fi
    "$cli" "$@" --destructive --name "$name" --output "$work/$name.json" "$mnt/ssd.img" >"$work/$name.cli" 2>&1
    rc=$?
    "$script" stop "$mnt" >/dev/null 2>&1
    tests=$((tests + 1))
    if [ $rc -ne 0 ]; then
        echo "not ok - $name: driveduel-cli exited with $rc"; sed 's/^/# cli: /' "$work/$name.cli"
        failures=$((failures + 1)); return
    fi
    echo "ok - $name: driveduel-cli $1 --preset ran on duel-ssd-model $opts"
    "$checker" "$mode" "$work/$name.truth.json" "$work/$name.json" >"$work/$name.check" 2>&1
    sed -n 's/^\(not \)\{0,1\}ok - /&'"$name"': /p' "$work/$name.check"
    grep -v '^\(not \)\{0,1\}ok - ' "$work/$name.check" | sed 's/^/# /'
    tests=$((tests + $(grep -c '^\(not \)\{0,1\}ok - ' "$work/$name.check")))
    failures=$((failures + $(grep -c '^not ok - ' "$work/$name.check")))
    if [ "$mode" = analysis ]; then
        "$checker" report "$work/$name.truth.json" "$work/$name.json" 2>&1 | sed -n '1,5s/^/# /p'
    fi
}

fill="run --preset write-saturation --runtime 1 --round 1 --interval-ms 100 --probe 0"
# name | model options: the shapes of docs/ssd-model.md and one change each
while IFS='|' read -r name opts; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    run "$name" analysis "$opts" $fill
done <<EOF
falls|--shape falls
small-cache|--shape falls --cache 10%
more-op|--shape falls --op 28
two-units|--shape falls --units 2 --t-prog-cache-us 125 --t-prog-us 350
rises|--shape rises
EOF

# The fill's probe (before the discard): where its rate fell against where
# the model's cache ran out; on a model without a cache, no fall. A short
# fill: only the probe is checked.
probe="run --preset write-saturation --capacity-multiple 0.5 --runtime 1 --round 1 --interval-ms 100 --probe 2"
# shellcheck disable=SC2086
run probe-falls probe "--shape falls" $probe
# shellcheck disable=SC2086
run probe-flat probe "--shape flat" $probe

# Consistency (and its latency percentiles) in the GC steady state.
run consistency consistency "--shape falls --cache 0 --precondition 2" \
    run --preset consistency --runtime 15 --probe 0

echo "1..$tests"
[ $failures -eq 0 ] || { echo "# $failures check(s) failed"; exit 1; }
exit 0
