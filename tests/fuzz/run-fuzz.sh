#!/bin/sh
# Builds one libFuzzer target with clang (ASan + UBSan + coverage) in a build
# directory of its own, then either replays the kept inputs (the test gate)
# or fuzzes from them (a campaign, by hand).
#
# Usage: tests/fuzz/run-fuzz.sh TARGET replay
#        tests/fuzz/run-fuzz.sh TARGET [libFuzzer options...] [extra seed dirs...]
#   TARGET: result-load or fio-import
#   replay: every regression input, then every file of the kept corpus
#           (tests/fuzz/corpus/TARGET), each run once: no mutation, no seed,
#           no clock, so the same inputs give the same verdict every time.
#           This is what `meson test --suite fuzz` runs.
#   e.g.   tests/fuzz/run-fuzz.sh result-load -max_total_time=3600 -jobs=2
#          (build-aux/fuzz.sh runs such campaigns for both targets)
# Environment:
#   DRIVEDUEL_FUZZ_BUILDDIR  the clang build directory (default: fuzz-clang in
#                            DRIVEDUEL_BUILDDIR when meson test runs it, else
#                            build-fuzz in the source tree)
# Each input in tests/fuzz/regressions/TARGET/ (inputs that once failed) is
# run first. The corpus that the run grows is kept in
# BUILDDIR/fuzz-corpus/TARGET, crash and leak reproducers in
# BUILDDIR/fuzz-artifacts/TARGET/. Exit code 77 when
# clang or its libFuzzer runtime is missing, 1 when the fuzzer found a crash,
# a leak, a timeout or a broken invariant.
set -u

target=${1:?usage: run-fuzz.sh result-load|fio-import [libFuzzer options]}
shift
here=$(cd "$(dirname "$0")" && pwd)
top=${DRIVEDUEL_SRCDIR:-$(cd "$here/../.." && pwd)}
if [ -n "${DRIVEDUEL_FUZZ_BUILDDIR:-}" ]; then
    fuzzdir=$DRIVEDUEL_FUZZ_BUILDDIR
elif [ -n "${DRIVEDUEL_BUILDDIR:-}" ]; then
    fuzzdir=$DRIVEDUEL_BUILDDIR/fuzz-clang
else
    fuzzdir=$top/build-fuzz
fi

case $target in
    result-load|fio-import) ;;
    *) echo "run-fuzz.sh: unknown target $target" >&2; exit 2 ;;
esac

skip() { echo "SKIP: $*"; exit 77; }

command -v clang >/dev/null 2>&1 || skip "clang is not installed"
command -v meson >/dev/null 2>&1 || skip "meson is not installed"
command -v ninja >/dev/null 2>&1 || skip "ninja is not installed"

# Can this clang link a fuzzer with both sanitizers (libclang-rt-*-dev)?
probe=$(mktemp -d) || exit 1
trap 'rm -rf "$probe"' EXIT
cat >"$probe/p.c" <<'C'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput (const uint8_t *d, size_t n) { return n > 0 && d[0] == 1; }
C
clang -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >"$probe/log" 2>&1 ||
    skip "clang cannot link -fsanitize=fuzzer,address,undefined (install libclang-rt-dev): $(head -n 3 "$probe/log")"

# One configure and build at a time: both suite tests share the directory.
mkdir -p "$(dirname "$fuzzdir")"
exec 9>"$fuzzdir.lock"
flock 9
if [ ! -f "$fuzzdir/build.ninja" ]; then
    rm -rf "$fuzzdir"
    CC=clang meson setup "$fuzzdir" "$top" \
        -Dfuzzing=true \
        -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined \
        -Db_lundef=false \
        "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
        >"$probe/setup.log" 2>&1 || { cat "$probe/setup.log"; echo "run-fuzz.sh: meson setup of $fuzzdir failed" >&2; exit 1; }
fi
# Retried once: a source edited while clang reads it can crash clang.
ninja -C "$fuzzdir" "tests/fuzz/fuzz-$target" >"$probe/build.log" 2>&1 ||
    ninja -C "$fuzzdir" "tests/fuzz/fuzz-$target" >"$probe/build.log" 2>&1 ||
    { grep -v '^#[0-9]' "$probe/build.log" | tail -n 40; echo "run-fuzz.sh: building fuzz-$target failed" >&2; exit 1; }
flock -u 9

exe=$fuzzdir/tests/fuzz/fuzz-$target
corpus=$fuzzdir/fuzz-corpus/$target
artifacts=$fuzzdir/fuzz-artifacts/$target
mkdir -p "$corpus" "$artifacts"

# Leaks are checked (LeakSanitizer); undefined behaviour stops the run;
# GSlice hands everything to malloc so ASan sees every block.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
G_SLICE=always-malloc
G_DEBUG=gc-friendly
export ASAN_OPTIONS UBSAN_OPTIONS G_SLICE G_DEBUG

# First the inputs that once broke something, each on its own, so every
# one still failing is listed.
regressions_failed=0
for input in "$here/regressions/$target"/*; do
    [ -f "$input" ] || continue
    if "$exe" -error_exitcode=1 "$input" >"$probe/regression.log" 2>&1; then
        echo "regression $(basename "$input"): ok"
    else
        echo "regression $(basename "$input"): FAILED"
        grep -E 'fuzz invariant broken|ERROR: (AddressSanitizer|LeakSanitizer)|runtime error|SUMMARY' "$probe/regression.log" | head -n 5
        regressions_failed=$((regressions_failed + 1))
    fi
done

if [ "${1:-}" = replay ]; then
    # The kept corpus, all in one process: given files rather than a
    # directory, libFuzzer runs each once and mutates nothing.
    n=$(ls "$here/corpus/$target" | wc -l)
    if "$exe" -error_exitcode=1 -timeout=30 -rss_limit_mb=2048 \
            "$here/corpus/$target"/* >"$probe/replay.log" 2>&1; then
        echo "fuzz-$target: OK, $n corpus inputs and every regression input replayed"
        exit 0
    fi
    grep -E 'fuzz invariant broken|ERROR: (AddressSanitizer|LeakSanitizer)|runtime error|SUMMARY|Running' "$probe/replay.log" | tail -n 20
    echo "fuzz-$target: FAILED replaying $here/corpus/$target (reproduce one input with: $exe FILE)"
    exit 1
fi

if [ $regressions_failed -ne 0 ]; then
    # Fuzzing would only find the same failures again.
    echo "fuzz-$target: FAILED: $regressions_failed regression input(s) in $here/regressions/$target fail; not fuzzing"
    exit 1
fi

echo "fuzz-$target: $exe"
echo "corpus: $corpus (seeds: $here/corpus/$target), artifacts: $artifacts/"
log=$fuzzdir/fuzz-$target.log
"$exe" \
    -dict="$here/$target.dict" \
    -max_len=131072 \
    -timeout=30 \
    -rss_limit_mb=2048 \
    -print_final_stats=1 \
    -error_exitcode=1 \
    -timeout_exitcode=1 \
    -artifact_prefix="$artifacts/" \
    "$corpus" "$@" "$here/corpus/$target" >"$log" 2>&1
status=$?

# The progress lines are many; keep the start, the end and any report.
grep -v '^#[0-9]*[[:space:]]*\(NEW\|REDUCE\|pulse\|RELOAD\)' "$log" | tail -n 200
if [ $status -ne 0 ]; then
    echo "fuzz-$target: FAILED (exit $status); the reproducer is in $artifacts/ (full log: $log)"
    echo "reproduce with: $exe $artifacts/<crash-file>"
    exit 1
fi
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
echo "fuzz-$target: OK, $execs executions, $speed/s, peak RSS $rss MB, corpus $(ls "$corpus" | wc -l) files"
exit 0
