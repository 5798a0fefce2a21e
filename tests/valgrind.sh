#!/bin/sh
# valgrind memcheck on driveduel-cli's run, analyze, compare, report and
# import paths: any invalid read or write, use of uninitialised memory or
# definite/indirect leak fails (--error-exitcode=1, --leak-check=full).
# Suppressed: only what system libraries keep for themselves
# (tests/valgrind.supp, each entry commented).
#
# io_uring under valgrind 3.19: the io_uring_setup/enter/register calls are
# emulated, so the run works and everything the process does itself is
# checked, but memcheck cannot see the kernel's asynchronous accesses to the
# buffers, iovecs and timespecs that SQEs point at (it does not decode SQEs),
# so those accesses are not checked. ASan builds (build-aux/sanitize.sh) are
# skipped: valgrind cannot run them.
#
# Usage: tests/valgrind.sh DRIVEDUEL-CLI [SOURCE-DIR]
set -u

cli=${1:-${DRIVEDUEL_CLI:-}}
here=$(cd "$(dirname "$0")" && pwd)
top=${2:-$(cd "$here/.." && pwd)}

skip() { echo "SKIP: $*"; exit 77; }
[ -x "$cli" ] || skip "driveduel-cli not found"
command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"
grep -q __asan_init "$cli" && skip "$cli is built with AddressSanitizer"

work=$(mktemp -d /var/tmp/driveduel-valgrind.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

failures=0
vg() {   # NAME ARGS...: driveduel-cli ARGS under memcheck
    name=$1; shift
    start=$(date +%s)
    if G_SLICE=always-malloc valgrind -q --error-exitcode=1 --leak-check=full \
            --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
            --track-origins=yes --num-callers=30 \
            --suppressions="$here/valgrind.supp" \
            "$cli" "$@" >"$work/$name.out" 2>"$work/$name.err"; then
        echo "ok - $name ($(($(date +%s) - start)) s)"
    else
        echo "not ok - $name: exit $?"
        sed 's/^/#   /' "$work/$name.err" | head -n 80
        failures=$((failures + 1))
    fi
}

# A plain run through io_uring, reads and writes, with checkpoints.
vg run run --rw randrw --iodepth 8 --runtime 2 --interval-ms 100 --span 16m \
    --output "$work/a.json" "$work/target.img"
# A preset: several workloads, the analysis, the summary in the file.
vg preset run --preset standard --runtime 0.3 --span 16m --interval-ms 100 \
    --output "$work/b.json" "$work/target.img"
vg analyze analyze "$work/b.json"
vg analyze-json analyze --json "$work/b.json"
vg import import --iops-log "$top/tests/data/fio/randrw-qd16_iops.1.log" \
    --output "$work/fio.json" "$top/tests/data/fio/randrw-qd16.json"
vg compare compare --format png,pdf --output-dir "$work/compare" "$work/a.json" "$work/b.json"
vg report report --format svg,csv,md,fio --output-dir "$work/report" "$work/b.json"

# Hostile input: every kept fuzz regression input that is one file. The
# command may refuse it (exit 1) but must not leak or misbehave doing so;
# libFuzzer's replay cannot tell a leak on one input (its leak check is
# conservative and the fuzzing loop found these only by chance).
vg_input() {   # NAME ARGS...: like vg, but exit 1 (refused) is fine
    name=$1; shift
    G_SLICE=always-malloc valgrind -q --error-exitcode=99 --leak-check=full \
        --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
        --num-callers=30 --suppressions="$here/valgrind.supp" \
        "$cli" "$@" >"$work/$name.out" 2>"$work/$name.err"
    status=$?
    if [ $status -le 1 ]; then
        echo "ok - $name (exit $status)"
    else
        echo "not ok - $name: exit $status"
        sed 's/^/#   /' "$work/$name.err" | head -n 80
        failures=$((failures + 1))
    fi
}
for input in "$top"/tests/fuzz/regressions/result-load/*; do
    vg_input "analyze-$(basename "$input")" analyze "$input"
done
for input in "$top"/tests/fuzz/regressions/fio-import/*.json; do
    vg_input "import-$(basename "$input")" import --output "$work/imported.json" "$input"
done

if [ $failures -ne 0 ]; then
    echo "FAIL: $failures command(s) with memcheck errors"
    exit 1
fi
echo "PASS"
