#!/bin/sh
# Fuzzing campaigns: random and time-bounded, so they are NOT part of the
# test gate (which replays the kept inputs only; see docs/hardening.md).
# Run one before changing a loader or an importer.
#
# Usage: build-aux/fuzz.sh [-t SECONDS] [--merge] [TARGET...]
#   TARGET   result-load, fio-import (default: both, one after the other)
#   -t N     fuzz each target for N seconds (default 1800)
#   --merge  afterwards, add the inputs that reached new code to the kept
#            corpus tests/fuzz/corpus/TARGET (libFuzzer -merge=1), so the
#            gate replays them from then on
# A crash, leak or broken invariant leaves its reproducer in
# BUILDDIR/fuzz-artifacts/TARGET/ (BUILDDIR: $DRIVEDUEL_FUZZ_BUILDDIR, else
# build-fuzz in the source tree); once fixed, minimise it
# (FUZZER -minimize_crash=1 -runs=10000 FILE) and keep it in
# tests/fuzz/regressions/TARGET/. Exit 1 when any campaign failed.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
seconds=1800
merge=0
targets=""
while [ $# -gt 0 ]; do
    case $1 in
        -t) seconds=${2:?-t needs a number of seconds}; shift ;;
        --merge) merge=1 ;;
        result-load|fio-import) targets="$targets $1" ;;
        *) echo "fuzz.sh: unknown argument $1 (see the comment at the top)" >&2; exit 2 ;;
    esac
    shift
done
case $seconds in
    ''|*[!0-9]*) echo "fuzz.sh: -t takes a whole number of seconds, not $seconds" >&2; exit 2 ;;
esac
[ -n "$targets" ] || targets="result-load fio-import"
fuzzdir=${DRIVEDUEL_FUZZ_BUILDDIR:-$top/build-fuzz}
export DRIVEDUEL_FUZZ_BUILDDIR="$fuzzdir"

status=0
for target in $targets; do
    echo "== fuzz-$target for $seconds s"
    sh "$top/tests/fuzz/run-fuzz.sh" "$target" -max_total_time="$seconds" || status=1
    if [ $merge -eq 1 ] && [ -d "$fuzzdir/fuzz-corpus/$target" ]; then
        before=$(ls "$top/tests/fuzz/corpus/$target" | wc -l)
        "$fuzzdir/tests/fuzz/fuzz-$target" -merge=1 -max_len=131072 \
            "$top/tests/fuzz/corpus/$target" "$fuzzdir/fuzz-corpus/$target" \
            >"$fuzzdir/merge-$target.log" 2>&1 || status=1
        echo "fuzz-$target: kept corpus $before -> $(ls "$top/tests/fuzz/corpus/$target" | wc -l) inputs"
    fi
done
exit $status
