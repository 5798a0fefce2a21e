#!/bin/sh
# Peak memory of loading hostile but well-formed files: results in another
# layout than the writer's, with unknown or free-form members holding
# millions of values, and fio outputs to import. Each file is made once
# (python3, streamed), then `driveduel-cli analyze` (results) or
# `driveduel-cli import` (fio) runs under `/usr/bin/time -v`; prints the file's
# size, the peak RSS, their ratio, the exit code and the first line the
# program printed to stderr. Measurements, not a test: the files are
# hundreds of MB (the gate's checks are in tests/test-result.c and
# tests/test-fio-import.c, on small files).
#
#   tests/bench/hostile-loads.sh BUILDDIR OUTDIR [--compare OTHER-CLI] [--scale F] [CASE…]
#
# CASE: writer escaped-keys unknown-zeros unknown-objects device-zeros
# details-zeros compact-bins zero-series fio-jobs fio-unknown fio-bins
# fio-log (default: all). --scale multiplies the sizes (default 1: about
# 100 to 200 MB a file). --compare runs another driveduel-cli on the same
# files (e.g. one built from an older commit), alternating. OUTDIR is
# removed at the end unless --keep is given.
set -eu
usage="usage: hostile-loads.sh BUILDDIR OUTDIR [--compare OTHER-CLI] [--scale F] [--keep] [CASE…]"
build=${1:?$usage}
out=${2:?$usage}
shift 2
other=""
scale=1
keep=0
cases=""
while [ $# -gt 0 ]; do
    case $1 in
        --compare) other=$2; shift 2 ;;
        --scale) scale=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        -*) echo "hostile-loads.sh: unknown option $1" >&2; exit 2 ;;
        *) cases="$cases $1"; shift ;;
    esac
done
[ -n "$cases" ] || cases="writer escaped-keys unknown-zeros unknown-objects device-zeros details-zeros compact-bins zero-series fio-jobs fio-unknown fio-bins fio-log"
cli=$build/src/cli/driveduel-cli
make=$build/tests/make-long-result
here=$(cd "$(dirname "$0")" && pwd)
fio_sample=$here/../data/fio/randrw-qd16.json
[ -x "$cli" ] && [ -x "$make" ] || { echo "hostile-loads.sh: build $build first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "hostile-loads.sh: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "hostile-loads.sh: needs python3" >&2; exit 1; }
mkdir -p "$out"
[ "$keep" = 1 ] || trap 'rm -rf "$out"' EXIT

# A small valid result, the base the result cases add to.
[ -s "$out/base.json" ] || "$make" 20 "$out/base.json"

# gen CASE FILE: writes the hostile file.
gen() {
    case $1 in
        writer)
            # The writer's own layout: 2.5 M one-second rows, ~160 MB.
            "$make" "$(python3 -c "print(int(2500000 * $scale))")" "$2" ;;
        escaped-keys)
            # The same file with every column key spelt with a JSON escape.
            [ -s "$out/writer.json" ] || gen writer "$out/writer.json"
            sed -e 's/"t_ms"/"t\\u005fms"/' -e 's/"read_ops"/"read\\u005fops"/' \
                -e 's/"write_ops"/"write\\u005fops"/' -e 's/"read_bytes"/"read\\u005fbytes"/' \
                -e 's/"write_bytes"/"write\\u005fbytes"/' -e 's/"read_lat_max_ns"/"read\\u005flat_max_ns"/' \
                -e 's/"write_lat_max_ns"/"write\\u005flat_max_ns"/' \
                -e 's/"temperature_c"/"temperature\\u005fc"/' "$out/writer.json" >"$2" ;;
        *)
            python3 - "$1" "$2" "$out/base.json" "$fio_sample" "$scale" <<'EOF'
import json, sys
case, path, base_path, fio_path, scale = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
n = lambda count: int(count * scale)
out = open(path, "w")

def chunks(item, count, sep=","):
    # count copies of item, joined by sep, written in blocks.
    block = sep.join([item] * 100000)
    full, rest = divmod(count, 100000)
    for i in range(full):
        if i:
            out.write(sep)
        out.write(block)
    if rest:
        if full:
            out.write(sep)
        out.write(sep.join([item] * rest))

def result_with(where, writer):
    # base.json with a member "hostile" added at WHERE, written by WRITER.
    base = json.load(open(base_path))
    marker = "\"@@HOSTILE@@\""
    if where == "root":
        base["hostile"] = "@@HOSTILE@@"
    elif where == "device":
        base["device"] = {"model": "Hostile", "hostile": "@@HOSTILE@@"}
    elif where == "details":
        base["tests"][0].setdefault("summary", {"figures": [], "details": {}})
        base["tests"][0]["summary"]["details"]["hostile"] = "@@HOSTILE@@"
    text = json.dumps(base)
    head, tail = text.split(marker)
    out.write(head)
    writer()
    out.write(tail)

if case == "unknown-zeros":
    # 50 M zeros in a member no reader knows.
    result_with("root", lambda: (out.write("["), chunks("0", n(50000000)), out.write("]")))
elif case == "unknown-objects":
    # 20 M empty objects in a member no reader knows.
    result_with("root", lambda: (out.write("["), chunks("{}", n(20000000)), out.write("]")))
elif case == "device-zeros":
    # 50 M zeros in the free-form device object, which is kept.
    result_with("device", lambda: (out.write("["), chunks("0", n(50000000)), out.write("]")))
elif case == "details-zeros":
    # 50 M zeros in a test's summary details, which are kept.
    result_with("details", lambda: (out.write("["), chunks("0", n(50000000)), out.write("]")))
elif case == "compact-bins":
    # Many tests, each with full latency histograms, written compactly:
    # the bins are small pairs.
    base = json.load(open(base_path))
    test = base["tests"][0]
    bins = []
    for i in range(2560):
        if i < 128:
            lower = i
        else:
            g, s = divmod(i - 128, 64)
            lower = (64 + s) << (g + 1)
        bins.append([lower, 1])
    for d in ("read", "write"):
        lat = test["totals"][d]["lat_ns"]
        lat.update({"samples": 2560, "min": 0, "max": bins[-1][0], "sum": sum(b[0] for b in bins),
                    "sum_sq": float(sum(b[0] * b[0] for b in bins)), "bins": bins, "percentiles": {}})
    test.pop("summary", None)
    n_tests = min(4096, n(4096))
    tests = json.dumps(test, separators=(",", ":"))
    base["tests"] = "@@TESTS@@"
    head, tail = json.dumps(base, separators=(",", ":")).split("\"@@TESTS@@\"")
    out.write(head + "[")
    chunks(tests, n_tests)
    out.write("]" + tail)
elif case == "zero-series":
    # A valid series of 10 M rows, every count 0: the fewest bytes a row can take.
    rows = n(10000000)
    base = json.load(open(base_path))
    test = base["tests"][0]
    test["status"] = "running"
    for d in ("read", "write"):
        test["totals"][d].update({"ops": 0, "bytes": 0, "iops": 0.0, "bw_bytes_per_sec": 0.0})
        test["totals"][d]["lat_ns"] = {"samples": 0, "min": 0, "max": 0, "mean": 0.0, "stddev": 0.0,
                                       "sum": 0, "sum_sq": 0.0, "percentiles": {}, "bins": []}
    test.pop("summary", None)
    test["series"] = "@@SERIES@@"
    head, tail = json.dumps(base).split("\"@@SERIES@@\"")
    out.write(head + "{\"t_ms\":[")
    step = 100000
    for start in range(0, rows, step):
        if start:
            out.write(",")
        out.write(",".join(str((i + 1) * 100) for i in range(start, min(rows, start + step))))
    out.write("]")
    for column in ("read_ops", "write_ops", "read_bytes", "write_bytes", "read_lat_max_ns", "write_lat_max_ns"):
        out.write(",\"%s\":[" % column)
        chunks("0", rows)
        out.write("]")
    out.write("}" + tail)
elif case.startswith("fio-"):
    fio = json.load(open(fio_path))
    job = fio["jobs"][0]
    if case == "fio-jobs":
        # As many real jobs as a result holds (fio prints each with both
        # histograms): the layout fio writes, ~110 MB.
        n_jobs = min(4096, n(2200))
        fio["jobs"] = "@@JOBS@@"
        head, tail = json.dumps(fio, indent=2).split("\"@@JOBS@@\"")
        out.write(head + "[")
        chunks(json.dumps(job, indent=2), n_jobs, ",\n")
        out.write("]" + tail)
    elif case == "fio-unknown":
        # One job and 50 M zeros in a member the importer does not read.
        fio["hostile"] = "@@HOSTILE@@"
        head, tail = json.dumps(fio, indent=2).split("\"@@HOSTILE@@\"")
        out.write(head + "[")
        chunks("0", n(50000000))
        out.write("]" + tail)
    elif case == "fio-bins":
        # One job whose lat_ns bins hold 5 M distinct latencies.
        bins = n(5000000)
        for d in ("read", "write"):
            job[d]["lat_ns"]["bins"] = "@@BINS@@"
        head, middle, tail = json.dumps(fio, indent=2).split("\"@@BINS@@\"")
        for part in (head, middle):
            out.write(part + "{")
            step = 100000
            for start in range(0, bins, step):
                if start:
                    out.write(",")
                out.write(",".join("\"%d\":1" % (1000 + i) for i in range(start, min(bins, start + step))))
            out.write("}")
        out.write(tail)
    elif case == "fio-log":
        # A job of a long run; its IOPS log (written beside, .log) has 10 M lines.
        lines = n(10000000)
        job["job_runtime"] = lines * 250 + 1000
        # Totals the log's rates add up to.
        for d in ("read", "write"):
            job[d]["total_ios"] = lines * 22000
            job[d]["io_bytes"] = lines * 22000 * 4096
            job[d]["runtime"] = lines * 250
        json.dump(fio, out, indent=2)
        log = open(path[:-len(".json")] + "_iops.1.log", "w")
        step = 100000
        for start in range(0, lines, step):
            log.write("".join("%d, %d, %d, 4096, 0\n" % (500 + (i // 2) * 500, 40000 + i % 7919, i % 2)
                              for i in range(start, min(lines, start + step))))
        log.close()
else:
    sys.exit("unknown case " + case)
out.close()
EOF
            ;;
    esac
}

# measure LABEL CLI CASE FILE: one load under /usr/bin/time.
measure() {
    _size=$(stat -c %s "$4")
    case $3 in
        fio-log)
            set -- "$1" "$2" "$3" "$4" import --iops-log "${4%.json}_iops.1.log" -o "$out/imported.json" "$4"
            _size=$((_size + $(stat -c %s "${4%.json}_iops.1.log"))) ;;
        fio-*) set -- "$1" "$2" "$3" "$4" import -o "$out/imported.json" "$4" ;;
        *) set -- "$1" "$2" "$3" "$4" analyze "$4" ;;
    esac
    _label=$1; _cli=$2; _case=$3; shift 4
    set +e
    /usr/bin/time -v -o "$out/time.tmp" "$_cli" "$@" >/dev/null 2>"$out/err.tmp"
    _rc=$?
    set -e
    rm -f "$out/imported.json"
    _kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$out/time.tmp")
    # h:mm:ss or m:ss.cc, in seconds.
    _s=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time.tmp" |
        awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    _err=$(grep -v '^Command exited' "$out/err.tmp" | head -n 1 | cut -c 1-160)
    printf '%-16s %-6s %8.1f MB  peak %8.1f MB  %6.2fx  %5.1f s  exit %d  %s\n' "$_case" "$_label" \
        "$(echo "$_size" | awk '{ print $1 / 1e6 }')" "$(echo "$_kb" | awk '{ print $1 * 1024 / 1e6 }')" \
        "$(awk -v k="$_kb" -v b="$_size" 'BEGIN { print k * 1024 / b }')" "$_s" "$_rc" "$_err"
}

for c in $cases; do
    file=$out/$c.json
    [ -s "$file" ] || gen "$c" "$file"
    measure this "$cli" "$c" "$file"
    [ -z "$other" ] || measure other "$other" "$c" "$file"
    # The big files go as soon as they are measured, except the writer's
    # (escaped-keys is made from it).
    [ "$keep" = 1 ] || [ "$c" = writer ] || rm -f "$file" "${file%.json}_iops.1.log"
done
rm -f "$out/time.tmp" "$out/err.tmp"
