#!/bin/sh
# Peak memory of loading and analysing the longest results the loader
# accepts: `driveduel-cli analyze` and `analyze --json` under
# `/usr/bin/time -v` on a fill of the write-saturation preset, a
# consistency run and files of many tests (make-long-result, summarised as
# a run would, so every figure is recomputed and checked against the
# stored one). Prints the file's size, the peak RSS, their ratio (the
# bound is 3x, docs/result-format.md#memory) and whether every figure
# matched. Measurements, not a test: the gate's checks are in
# tests/test-analysis-memory.c, on files of about 7 MB.
#
#   tests/bench/analysis-memory.sh BUILDDIR OUTDIR [--compare OTHER-CLI] [CASE…]
#
# CASE: fill-1e6 fill-1e7 fill-1e7-paused consistency-1e6 consistency-1e7
# consistency-1e7-paused many-fills many-consistency (default: all); the
# paused ones were paused twice (at 30 % and 70 % of their rows, two rows
# and one), their figures leaving those rows out. The 10^7-row fill is 357 MB and takes about a minute to
# make; the 10^7-row consistency run 581 MB. --compare runs another
# driveduel-cli on the same files too (e.g. one built from an older
# commit). The files are kept in OUTDIR for the next run.
set -eu
usage="usage: analysis-memory.sh BUILDDIR OUTDIR [--compare OTHER-CLI] [CASE…]"
build=${1:?$usage}
out=${2:?$usage}
shift 2
other=""
cases=""
while [ $# -gt 0 ]; do
    case $1 in
        --compare) other=$2; shift 2 ;;
        -*) echo "analysis-memory.sh: unknown option $1" >&2; exit 2 ;;
        *) cases="$cases $1"; shift ;;
    esac
done
[ -n "$cases" ] || cases="fill-1e6 fill-1e7 fill-1e7-paused consistency-1e6 consistency-1e7 consistency-1e7-paused many-fills many-consistency"
cli=$build/src/cli/driveduel-cli
make=$build/tests/make-long-result
[ -x "$cli" ] && [ -x "$make" ] || { echo "analysis-memory.sh: build $build first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "analysis-memory.sh: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
mkdir -p "$out"

# gen CASE FILE
gen() {
    case $1 in
        fill-1e6) "$make" --kind fill 1000000 "$2" ;;
        fill-1e7) "$make" --kind fill 10000000 "$2" ;;
        fill-1e7-paused) "$make" --kind fill --pause 3000000:2 --pause 7000000:1 10000000 "$2" ;;
        consistency-1e6) "$make" --kind consistency 1000000 "$2" ;;
        consistency-1e7) "$make" --kind consistency 10000000 "$2" ;;
        consistency-1e7-paused) "$make" --kind consistency --pause 3000000:2 --pause 7000000:1 10000000 "$2" ;;
        # As many tests as a result may hold (4 096), of 200 rows each.
        many-fills) "$make" --kind fill --tests 4000 200 "$2" ;;
        many-consistency) "$make" --kind consistency --tests 4000 200 "$2" ;;
        *) echo "analysis-memory.sh: unknown case $1" >&2; exit 2 ;;
    esac
}

# run LABEL CLI FILE [--json]
run() {
    label=$1 program=$2 file=$3
    shift 3
    /usr/bin/time -v -o "$out/time.tmp" "$program" analyze "$@" "$file" >"$out/analyze.out" 2>"$out/analyze.err" ||
        { echo "analysis-memory.sh: $program analyze $* $file failed:" >&2; cat "$out/analyze.err" >&2; exit 1; }
    kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$out/time.tmp")
    wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time.tmp")
    size=$(stat -L -c %s "$file")
    check=""
    if [ "${1:-}" = --json ]; then
        same=$(grep -c '"matches_stored" : true' "$out/analyze.out" || true)
        differ=$(grep -c '"matches_stored" : false' "$out/analyze.out" || true)
        check=", $same figures match the stored ones, $differ differ"
    fi
    echo "$label${1:+ $1}: $size bytes, peak RSS $kb KB = $(awk -v k="$kb" -v b="$size" 'BEGIN { printf "%.2f", k * 1024 / b }')x the file, $wall$check"
}

for c in $cases; do
    file=$out/$c.json
    [ -s "$file" ] || gen "$c" "$file"
    for json in "" --json; do
        # shellcheck disable=SC2086
        run "$c this" "$cli" "$file" $json
        # shellcheck disable=SC2086
        [ -z "$other" ] || run "$c other" "$other" "$file" $json
    done
done
rm -f "$out/time.tmp" "$out/analyze.out" "$out/analyze.err"
