#!/bin/sh
# Loading a long run's result: time and peak memory of `driveduel-cli
# analyze` (load, analyse, print) on results of 10^5, 10^6 and 10^7 rows
# (make-long-result), as whole-process figures from /usr/bin/time.
# Measurements, not a test.
#
#   tests/bench/load-bench.sh BUILDDIR OUTDIR [--repeats N] [--rows "N…"] [--compare OTHER-CLI]
#
# Each row count: the file is made once, then analysed N times (default 5;
# with --compare, alternating with the other driveduel-cli, e.g. one built
# from an older commit). Prints each run, then per row count and program
# the median seconds and peak RSS, and the RSS over the file's size. The
# 10^7-row file is 0.6 GB; the loader of before (--compare) took ~13 times
# that in memory.
set -eu
build=${1:?usage: load-bench.sh BUILDDIR OUTDIR [--repeats N] [--rows "N…"] [--compare OTHER-CLI]}
out=${2:?usage: load-bench.sh BUILDDIR OUTDIR [--repeats N] [--rows "N…"] [--compare OTHER-CLI]}
shift 2
repeats=5
rows="100000 1000000 10000000"
other=""
while [ $# -gt 0 ]; do
    case $1 in
        --repeats) repeats=$2; shift 2 ;;
        --rows) rows=$2; shift 2 ;;
        --compare) other=$2; shift 2 ;;
        *) echo "load-bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
cli=$build/src/cli/driveduel-cli
make=$build/tests/make-long-result
[ -x "$cli" ] && [ -x "$make" ] || { echo "load-bench.sh: build $build first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "load-bench.sh: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
mkdir -p "$out"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run LABEL CLI FILE: one analyze, "LABEL SECONDS KB" appended to the log.
run() {
    /usr/bin/time -f "%e %M" -o "$out/time.tmp" "$2" analyze "$3" >/dev/null 2>"$out/analyze.err" ||
        { echo "load-bench.sh: $2 analyze $3 failed:" >&2; cat "$out/analyze.err" >&2; exit 1; }
    echo "$1 $(cat "$out/time.tmp")" | tee -a "$log"
}

for n in $rows; do
    file=$out/rows-$n.json
    [ -s "$file" ] || "$make" "$n" "$file"
    size=$(stat -c %s "$file")
    log=$out/rows-$n.log
    : >"$log"
    echo "# $n rows, $size bytes"
    i=0
    while [ $i -lt "$repeats" ]; do
        if [ -n "$other" ] && [ $((i % 2)) -eq 1 ]; then
            run other "$other" "$file"; run this "$cli" "$file"
        else
            run this "$cli" "$file"; [ -z "$other" ] || run other "$other" "$file"
        fi
        i=$((i + 1))
    done
    for who in this other; do
        grep -q "^$who " "$log" || continue
        s=$(grep "^$who " "$log" | awk '{ print $2 }' | median)
        kb=$(grep "^$who " "$log" | awk '{ print $3 }' | median)
        echo "$n rows ($size bytes), $who: median $s s, peak RSS $kb KB = $(awk -v k="$kb" -v b="$size" 'BEGIN { printf "%.2f", k * 1024 / b }')x the file"
    done
done
rm -f "$out/time.tmp" "$out/analyze.err"
