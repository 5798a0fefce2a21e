#!/bin/sh
# Memory over a long full-speed run: driveduel-cli runs 4 KiB randrw QD32 on a
# zram device for RUNTIME seconds (default 600) with its result checkpointed,
# while VmRSS and VmHWM are sampled from /proc/PID/status every 10 s. The
# engine keeps constant memory per I/O (histograms and per-interval counters),
# so RSS should be flat apart from the per-interval rows (~100 bytes each).
#
# Usage: tests/bench/rss-soak.sh DRIVEDUEL-CLI [RUNTIME_S [ZRAM_SIZE [INTERVAL_MS]]]
#   e.g. sudo tests/bench/rss-soak.sh build/src/cli/driveduel-cli 600 2G 1000
# Needs root and zram (/sys/class/zram-control). Writes the samples to
# rss-soak.csv in the current directory and prints a summary.
set -u

cli=${1:?usage: rss-soak.sh DRIVEDUEL-CLI [RUNTIME_S [ZRAM_SIZE [INTERVAL_MS]]]}
runtime=${2:-600}
size=${3:-2G}
interval=${4:-1000}
csv=$(pwd)/rss-soak.csv

[ "$(id -u)" = 0 ] || { echo "rss-soak.sh: needs root for zram" >&2; exit 77; }
[ -e /sys/class/zram-control/hot_add ] || { echo "rss-soak.sh: no zram-control" >&2; exit 77; }

work=$(mktemp -d /var/tmp/driveduel-soak.XXXXXX) || exit 1
zram=
pid=
cleanup() {
    [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
    if [ -n "$zram" ]; then
        echo 1 >"/sys/block/zram$zram/reset" 2>/dev/null
        echo "$zram" >/sys/class/zram-control/hot_remove 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

zram=$(cat /sys/class/zram-control/hot_add) || exit 1
echo "$size" >"/sys/block/zram$zram/disksize" || exit 1
dev=/dev/zram$zram

"$cli" run --rw randrw --bs 4k --iodepth 32 --runtime "$runtime" --interval-ms "$interval" \
    --destructive --output "$work/soak.json" "$dev" >"$work/cli.out" 2>"$work/cli.err" &
pid=$!

echo "t_s,vmrss_kb,vmhwm_kb,result_bytes" >"$csv"
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
    rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
    hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
    [ -n "$rss" ] || break
    bytes=$(stat -c %s "$work/soak.json" 2>/dev/null || echo 0)
    echo "$(($(date +%s) - start)),$rss,$hwm,$bytes" >>"$csv"
    sleep 10
done
wait "$pid"
status=$?
pid=

cat "$work/cli.out" "$work/cli.err"
python3 - "$csv" "$work/soak.json" "$status" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def at(t):
    best = min(rows, key=lambda r: abs(int(r["t_s"]) - t))
    return int(best["t_s"]), int(best["vmrss_kb"]), int(best["vmhwm_kb"])
test = json.load(open(sys.argv[2]))["tests"][0]
ios = test["totals"]["read"]["ops"] + test["totals"]["write"]["ops"]
end = int(rows[-1]["t_s"])
first = min(60, end)
t1, rss1, hwm1 = at(first)
later = [int(r["vmrss_kb"]) for r in rows if int(r["t_s"]) >= first]
t2, rss2, hwm2 = at(end)
print(f"exit status {sys.argv[3]}, status {test['status']}, {len(test['series']['t_ms'])} rows, "
      f"{ios} I/Os ({ios / (test['runtime_ns'] / 1e9):.0f} IOPS), result file {rows[-1]['result_bytes']} bytes")
print(f"VmRSS at {t1} s: {rss1} kB; at {t2} s: {rss2} kB; growth {rss2 - rss1} kB "
      f"({(rss2 - rss1) * 1024 / max(ios, 1):.4f} bytes per I/O); VmHWM {hwm2} kB; "
      f"min/max VmRSS from {t1} s on: {min(later)}/{max(later)} kB")
PY
echo "samples: $csv"
exit $status
