#!/bin/bash
# vs-fio.sh — driveduel-cli against fio on the same devices, same workloads
#
# Not a test: a benchmark to run by hand, as root, on an otherwise quiet
# machine. It makes its own devices and removes them on exit:
#   loop  a loop device with direct I/O over a /dev/shm file (the closest
#         stand-in for an NVMe drive here: I/O issued inline, completed by the
#         loop worker)
#   zram  a zram device (every io_uring I/O goes through io-wq there)
# both filled with random data first. For each target and workload it runs
# both tools alternately (A B, then B A, …) and prints the medians of IOPS and
# of CPU time (user + system of the process, from /usr/bin/time) per million
# I/Os, and the ratios ours/fio.
#
# fio gets the options the engine has built in: io_uring, direct=1,
# fixedbufs=1, registerfiles=1; and norandommap=1, because the engine draws
# offsets uniformly with replacement, as fio does with it. The -j2 workloads
# run two jobs in both tools (--numjobs 2; fio's numjobs=2 with
# group_reporting, so its JSON has one job with the sums).
#
# The machine may be shared. Each run records what else it saw: "others",
# the user + nice CPU time of the whole machine less the tool's own, in % of
# one CPU (/proc/stat); "steal", the host running something else on our
# vCPUs; and "psi", CPU pressure stall time (/proc/pressure/cpu; the tools'
# own hand-offs between threads count there too). With --quiet PCT (default
# 10) each pair of runs first waits, up to 5 minutes, for a second in which
# the machine is idle to within PCT % of one CPU, and is run again (up to 3
# times) when others or steal passed PCT % in one of its runs; --quiet 0
# turns both off. The table gives the medians and the spread of the kept
# runs, and the most load any of them saw.
#
# Usage: sudo tests/bench/vs-fio.sh [--cli PATH] [--repeats N] [--runtime S]
#                                   [--span SIZE] [--targets "loop zram"]
#                                   [--only "randread-qd1 randread-qd32-j2"]
#                                   [--quiet PCT]
#        (DRIVEDUEL_CLI=PATH works too; needs fio, python3, /usr/bin/time.)
#
# SPDX-License-Identifier: GPL-3.0-or-later

set -euo pipefail

CLI=${DRIVEDUEL_CLI:-}
REPEATS=5
RUNTIME=10
SPAN=1g
TARGETS="loop zram"
QD1_CPU=1
ONLY=""
QUIET=10

while [ $# -gt 0 ]; do
  case "$1" in
    --cli) CLI=$2; shift 2 ;;
    --repeats) REPEATS=$2; shift 2 ;;
    --runtime) RUNTIME=$2; shift 2 ;;
    --span) SPAN=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --quiet) QUIET=$2; shift 2 ;;
    -h|--help) sed -n '2,43p' "$0"; exit 0 ;;
    *) echo "vs-fio.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

die () { echo "vs-fio.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (it creates loop and zram devices)"
if [ -z "$CLI" ]; then
  for c in "$(dirname "$0")/../../build/src/cli/driveduel-cli" "$(command -v driveduel-cli || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then CLI=$c; break; fi
  done
fi
[ -n "$CLI" ] && [ -x "$CLI" ] || die "driveduel-cli not found: pass --cli PATH or set DRIVEDUEL_CLI"
for tool in fio python3 losetup taskset; do
  command -v "$tool" >/dev/null || die "$tool is needed"
done
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (Debian package time)"

SPAN_BYTES=$(python3 -c "import sys; s=sys.argv[1].lower(); m={'k':1<<10,'m':1<<20,'g':1<<30,'t':1<<40}; print(int(float(s[:-1])*m[s[-1]]) if s[-1] in m else int(s))" "$SPAN")
SPAN_MIB=$((SPAN_BYTES / 1048576))

WORK=$(mktemp -d /tmp/duel-vs-fio.XXXXXX)
SHM_FILE=""
LOOP_DEV=""
ZRAM_ID=""

cleanup () {
  set +e
  if [ -n "$LOOP_DEV" ]; then losetup -d "$LOOP_DEV"; fi
  if [ -n "$SHM_FILE" ]; then rm -f "$SHM_FILE"; fi
  if [ -n "$ZRAM_ID" ]; then
    # udev may still be probing the device: retry for a while.
    for _ in $(seq 50); do
      echo "$ZRAM_ID" > /sys/class/zram-control/hot_remove 2>/dev/null && break
      sleep 0.2
    done
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

declare -A DEVICE
for target in $TARGETS; do
  case "$target" in
    loop)
      SHM_FILE=$(mktemp /dev/shm/duel-vs-fio.XXXXXX)
      echo "Filling $SPAN of $SHM_FILE with random data…" >&2
      dd if=/dev/urandom of="$SHM_FILE" bs=1M count="$SPAN_MIB" status=none
      LOOP_DEV=$(losetup --find --show --direct-io=on "$SHM_FILE")
      DEVICE[loop]=$LOOP_DEV
      ;;
    zram)
      [ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null || true
      [ -e /sys/class/zram-control/hot_add ] || die "no zram (modprobe zram)"
      ZRAM_ID=$(cat /sys/class/zram-control/hot_add)
      echo "$SPAN_BYTES" > "/sys/block/zram$ZRAM_ID/disksize"
      echo "Filling $SPAN of /dev/zram$ZRAM_ID with random data…" >&2
      dd if=/dev/urandom of="/dev/zram$ZRAM_ID" bs=1M count="$SPAN_MIB" oflag=direct status=none
      DEVICE[zram]=/dev/zram$ZRAM_ID
      ;;
    *) die "unknown target $target (loop, zram)" ;;
  esac
done

# name rw iodepth rwmixread pinned jobs
WORKLOADS="randread-qd1:randread:1:-:yes:1
randwrite-qd1:randwrite:1:-:yes:1
randread-qd32:randread:32:-:no:1
randwrite-qd32:randwrite:32:-:no:1
randrw50-qd32:randrw:32:50:no:1
randread-qd32-j2:randread:32:-:no:2
randwrite-qd32-j2:randwrite:32:-:no:2"

# Each kept run appends "tool target workload iops cpu_seconds ios others%
# steal% psi%" to RESULTS; a run writes its line to RUN first.
RESULTS=$WORK/results
RUN=$WORK/run
: > "$RESULTS"
HZ=$(getconf CLK_TCK)

# The machine's counters: user + nice, steal and busy jiffies (/proc/stat),
# CPU pressure stall µs, and the time in ns.
load_mark () {
  echo "$(awk '/^cpu /{print $2 + $3, $9, $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat)" \
       "$(awk -F'total=' '/^some/{print $2}' /proc/pressure/cpu)" "$(date +%s%N)"
}

# "others% steal% psi%" between two marks, given the tool's user seconds.
load_between () {
  python3 - "$1" "$2" "$3" "$HZ" <<'EOF'
import sys
a, b = (list(map(float, m.split())) for m in sys.argv[1:3])
user, hz = float(sys.argv[3]), float(sys.argv[4])
wall = (b[4] - a[4]) / 1e9
others = max(0.0, (b[0] - a[0]) / hz - user) / wall * 100
steal = (b[1] - a[1]) / hz / wall * 100
psi = (b[3] - a[3]) / 1e6 / wall * 100
print(f"{others:.1f} {steal:.1f} {psi:.1f}")
EOF
}

# Up to 5 minutes for one second in which the machine is idle to within
# QUIET % of one CPU (nothing of ours runs then).
wait_quiet () {
  [ "$QUIET" = 0 ] && return 0
  local m0 m1
  for _ in $(seq 300); do
    m0=$(load_mark); sleep 1; m1=$(load_mark)
    python3 - "$m0" "$m1" "$HZ" "$QUIET" <<'EOF' && return 0
import sys
a, b = (list(map(float, m.split())) for m in sys.argv[1:3])
busy = (b[2] - a[2]) / float(sys.argv[3]) / ((b[4] - a[4]) / 1e9) * 100
sys.exit(0 if busy <= float(sys.argv[4]) else 1)
EOF
  done
  echo "vs-fio.sh: the machine stayed busy; running anyway" >&2
}

# Runs a command under /usr/bin/time; LOAD gets the load around it.
timed () {  # name log command...
  local tool=$1 log=$2 m0 m1
  shift 2
  m0=$(load_mark)
  /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" > "$log" 2>&1 ||
    { cat "$log" >&2; die "$tool failed"; }
  m1=$(load_mark)
  LOAD=$(load_between "$m0" "$m1" "$(tail -1 "$WORK/time" | cut -d' ' -f1)")
}

run_ours () {  # target device rw qd mix pin jobs
  local target=$1 dev=$2 rw=$3 qd=$4 mix=$5 pin=$6 jobs=$7 json=$WORK/ours.json
  local args=(run --rw "$rw" --bs 4k --iodepth "$qd" --runtime "$RUNTIME" --span "$SPAN" --output "$json")
  [ "$mix" != - ] && args+=(--rwmixread "$mix")
  [ "$jobs" != 1 ] && args+=(--numjobs "$jobs")
  [ "$rw" != randread ] && args+=(--destructive)
  local pre=()
  [ "$pin" = yes ] && pre=(taskset -c "$QD1_CPU")
  rm -f "$json"
  timed driveduel-cli "$WORK/ours.log" "${pre[@]}" "$CLI" "${args[@]}" "$dev"
  python3 - "$json" "$WORK/time" "$LOAD" <<'EOF' >> "$RUN"
import json, sys
test = json.load(open(sys.argv[1]))["tests"][0]
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
t = test["totals"]
iops = sum((t[d]["iops"] or 0) for d in ("read", "write"))
ios = sum(t[d]["ops"] for d in ("read", "write"))
print(iops, u + s, ios, sys.argv[3])
EOF
}

run_fio () {  # target device rw qd mix pin jobs
  local target=$1 dev=$2 rw=$3 qd=$4 mix=$5 pin=$6 jobs=$7 json=$WORK/fio.json
  local args=(--name=vs-fio --filename="$dev" --ioengine=io_uring --direct=1 --fixedbufs=1
              --registerfiles=1 --norandommap=1 --rw="$rw" --bs=4k --iodepth="$qd"
              --size="$SPAN_BYTES" --runtime="$RUNTIME" --time_based=1
              --output-format=json --output="$json")
  [ "$mix" != - ] && args+=(--rwmixread="$mix")
  [ "$jobs" != 1 ] && args+=(--numjobs="$jobs" --group_reporting=1)
  local pre=()
  [ "$pin" = yes ] && pre=(taskset -c "$QD1_CPU")
  rm -f "$json"
  timed fio "$WORK/fio.log" "${pre[@]}" fio "${args[@]}"
  python3 - "$json" "$WORK/time" "$LOAD" <<'EOF' >> "$RUN"
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
iops = job["read"]["iops"] + job["write"]["iops"]
ios = job["read"]["total_ios"] + job["write"]["total_ios"]
print(iops, u + s, ios, sys.argv[3])
EOF
}

for target in $TARGETS; do
  dev=${DEVICE[$target]}
  while IFS=: read -r name rw qd mix pin jobs; do
    if [ -n "$ONLY" ] && ! [[ " $ONLY " == *" $name "* ]]; then continue; fi
    for r in $(seq "$REPEATS"); do
      # A B, then B A: neither tool always runs on a warmer device.
      if [ $((r % 2)) = 1 ]; then order="ours fio"; else order="fio ours"; fi
      for attempt in 1 2 3 4; do
        wait_quiet
        : > "$WORK/pair"
        for tool in $order; do
          echo "$target $name run $r/$REPEATS: $tool" >&2
          echo -n "$tool $target $name " > "$RUN"
          "run_$tool" "$target" "$dev" "$rw" "$qd" "$mix" "$pin" "$jobs"
          cat "$RUN" >> "$WORK/pair"
        done
        # Fields 7 and 8: others% and steal%.
        if [ "$QUIET" != 0 ] && [ "$attempt" != 4 ] &&
           awk -v q="$QUIET" '$7 > q || $8 > q { busy = 1 } END { exit !busy }' "$WORK/pair"; then
          echo "  busy (others % and steal % of the two runs: $(awk '{ printf "%s %s  ", $7, $8 }' "$WORK/pair")); again" >&2
          continue
        fi
        cat "$WORK/pair" >> "$RESULTS"
        break
      done
    done
  done <<< "$WORKLOADS"
done

echo
echo "driveduel-cli vs fio $(fio --version): 4 KiB, first $SPAN, ${RUNTIME} s runs, $REPEATS repeats each, medians"
echo "kernel $(uname -r), $(nproc) CPUs, load average at the end: $(cut -d' ' -f1-3 /proc/loadavg), --quiet $QUIET"
python3 - "$RESULTS" <<'EOF'
import statistics, sys
from collections import defaultdict

runs = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    tool, target, name, iops, cpu, ios, others, steal, psi = line.split()
    key = (target, name)
    if key not in order:
        order.append(key)
    runs[key + (tool,)].append((float(iops), float(cpu) / float(ios) * 1e6,
                                float(others), float(steal), float(psi)))

def spread(values):
    m = statistics.median(values)
    return (max(values) - min(values)) / m * 100 if m else 0

print()
print("| target | workload | IOPS ours | IOPS fio | IOPS ours/fio | IOPS ours/fio by pair | CPU s per M I/O ours | CPU s per M I/O fio | CPU ours/fio | IOPS spread ours / fio | CPU spread ours / fio | most load: others / steal / psi % |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for target, name in order:
    ours = runs[(target, name, "ours")]
    fio = runs[(target, name, "fio")]
    oi = statistics.median(r[0] for r in ours)
    fi = statistics.median(r[0] for r in fio)
    oc = statistics.median(r[1] for r in ours)
    fc = statistics.median(r[1] for r in fio)
    both = ours + fio
    # The two runs of a pair are next to each other in time: their ratio is
    # free of the drift the machine shows over minutes.
    pairs = sorted(o[0] / f[0] for o, f in zip(ours, fio))
    print(f"| {target} | {name} | {oi:,.0f} | {fi:,.0f} | {oi / fi:.3f} | "
          f"{statistics.median(pairs):.3f} ({pairs[0]:.2f}–{pairs[-1]:.2f}) | {oc:.2f} | {fc:.2f} | {oc / fc:.3f} | "
          f"{spread([r[0] for r in ours]):.0f} % / {spread([r[0] for r in fio]):.0f} % | "
          f"{spread([r[1] for r in ours]):.0f} % / {spread([r[1] for r in fio]):.0f} % | "
          f"{max(r[2] for r in both):.1f} / {max(r[3] for r in both):.1f} / {max(r[4] for r in both):.1f} |")
print()
print("CPU: user + system seconds of the whole process per million I/Os (lower is better).")
print("By pair: the median (min-max) of the ratios of the two runs of each pair.")
print("Spread: (max - min) / median over the repeats.")
print("Load during a run, in % of one CPU: others (user + nice time of other processes),")
print("steal (the host), psi (CPU pressure stall time, the tools' own hand-offs included).")
print()
print("Every run, in order (IOPS / CPU s per M I/O / others % / steal % / psi %):")
for target, name in order:
    for tool in ("ours", "fio"):
        cells = "  ".join(f"{i:,.0f}/{c:.2f}/{o:.0f}/{st:.0f}/{p:.0f}" for i, c, o, st, p in runs[(target, name, tool)])
        print(f"  {target:5} {name:15} {tool:4}  {cells}")
EOF
