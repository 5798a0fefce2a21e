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

if [ $failures -ne 0 ]; then
    echo "FAIL: $failures command(s) with memcheck errors"
    exit 1
fi
echo "PASS"
