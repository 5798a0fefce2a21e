#!/bin/sh
# The simulated SSD under the real CLI (TAP). A 64 MiB model of the "falls"
# shape is mounted through FUSE and filled twice over by
#   driveduel-cli run --rw randwrite --bs 4k --iodepth 32 --size 2x
# then ssd-model-check compares the model's ground truth with the result:
# the cache ran out and GC began where the model's sizes say, the model
# completed exactly the writes the result counts, and the curve falls. The
# "rises" shape is checked in virtual time (--simulate: no FUSE, exact).
# The verdicts do not depend on how fast this machine is: the margins are
# ratios between phases the model's own times make several times apart.
#
# Usage: test-ssd-model.sh MODEL SSD-MODEL.SH CHECKER CHECK-RESULT [CLI]
# MODEL is empty when libfuse3 was not found at build time: skipped,
# as when /dev/fuse or fusermount3 is missing. Unmounts even on failure.
set -u
model=${1:-}; script=${2:-}; checker=${3:-}; check_result=${4:-}
cli=${5:-${DRIVEDUEL_CLI:-}}

# A TAP plan of none with SKIP is a skip to meson when the exit status is 0
# (77 would make it an error).
skip() { echo "1..0 # SKIP $*"; exit 0; }
[ -n "$model" ] && [ -x "$model" ] || skip "duel-ssd-model was not built (libfuse3 missing)"
"$script" have-fuse || skip "FUSE is not usable here (/dev/fuse, fusermount3)"
[ -x "$cli" ] || { echo "Bail out! driveduel-cli not found"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/var/tmp}/duel-ssd-model.XXXXXX") || exit 1
mnt=$work/mnt
cleanup() {
    DUEL_SSD_MODEL=$model "$script" stop "$mnt" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failures=0
tests=0
ok() { echo "ok - $*"; tests=$((tests + 1)); }
notok() { echo "not ok - $*"; tests=$((tests + 1)); failures=$((failures + 1)); }



# 1. Mounted, served, the model's own virtual-time checks.
if DUEL_SSD_MODEL=$model "$script" start "$mnt" --shape falls --capacity 64m \
       --log "$work/truth.json" >"$work/start.out" 2>&1; then
    ok "the model serves $mnt/ssd.img"
else
    notok "the model did not start"
    sed 's/^/# /' "$work/start.out"
    echo "1..$tests"
    exit 1
fi

# 2. The fill, with the real CLI (about 20 s at the model's speed).
"$cli" run --destructive --rw randwrite --bs 4k --iodepth 32 --size 2x --interval-ms 1000 \
    --output "$work/result.json" "$mnt/ssd.img" >"$work/cli.out" 2>"$work/cli.err"
rc=$?
sed 's/^/# cli: /' "$work/cli.out" "$work/cli.err"
if [ $rc -eq 0 ]; then ok "driveduel-cli filled the model twice over"; else notok "driveduel-cli exited with $rc"; fi
if [ -s "$work/result.json" ]; then ok "the result file exists"; else notok "no result file"; fi
if [ -x "$check_result" ] && out=$("$check_result" "$work/result.json" --status complete 2>&1); then
    ok "the project's loader accepts the result"
else
    notok "the project's loader rejects the result: $out"
fi

# 3. Unmounted: the final log is written.
if DUEL_SSD_MODEL=$model "$script" stop "$mnt"; then ok "unmounted"; else notok "still mounted"; fi
if [ -s "$work/truth.json" ]; then ok "the model wrote its log"; else notok "no log from the model"; fi
[ -s "$mnt.out" ] && sed 's/^/# model: /' "$mnt.out"

# 4. Truth against result (12 checks).
"$checker" check "$work/truth.json" "$work/result.json" --shape falls >"$work/check.out" 2>&1
cat "$work/check.out"
tests=$((tests + $(grep -c '^\(not \)\{0,1\}ok' "$work/check.out")))
failures=$((failures + $(grep -c '^not ok' "$work/check.out")))

# 5. The rising shape, in virtual time: slower while the erase backlog lasts
# (the first 20 %), faster once it is gone (40-60 %), then GC (the last 10 %).
sim=$("$model" --simulate 32 --shape rises)
echo "$sim" | sed 's/^/# rises: /'
start=$(echo "$sim" | awk '$1 == 10 { print $2 }')
mid=$(echo "$sim" | awk '$1 == 50 { print $2 }')
end=$(echo "$sim" | awk '$1 == 200 { print $2 }')
if [ -n "$start" ] && [ -n "$mid" ] && awk "BEGIN { exit !($mid > 1.2 * $start) }"; then
    ok "rises: faster at 50 % ($mid IOPS) than at the start ($start IOPS)"
else
    notok "rises: not faster at 50 % ($mid) than at the start ($start)"
fi
if [ -n "$end" ] && awk "BEGIN { exit !($end < 0.6 * $mid) }"; then
    ok "rises: then falls, to $end IOPS at 200 %"
else
    notok "rises: does not fall at the end ($end against $mid)"
fi

echo "1..$tests"
[ $failures -eq 0 ] || { echo "# $failures check(s) failed"; exit 1; }
exit 0
