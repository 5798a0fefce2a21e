#!/bin/sh
# Regenerates the seed corpora from real runs: result files written by
# driveduel-cli on a file (plain runs, presets, a cancelled run, a checkpoint
# left by kill -9, a run failed by a disk error when root), and fio json+
# outputs of real fio runs, each optionally followed by a NUL byte and the
# job's IOPS log (the fuzz-fio-import input format).
#
# Usage: tests/fuzz/make-seeds.sh BUILDDIR
# Needs: fio, python3; root for the failed-run seed (skipped otherwise).
# Result files are stored compacted (python's json, no indent): the same
# content at a fifth of the size, so the fuzzer runs five times faster.
set -eu

builddir=$(cd "${1:?usage: make-seeds.sh BUILDDIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cli=$builddir/src/cli/driveduel-cli
results=$here/corpus/result-load
fios=$here/corpus/fio-import
[ -x "$cli" ] || { echo "make-seeds.sh: $cli is not built" >&2; exit 1; }
command -v fio >/dev/null || { echo "make-seeds.sh: fio is not installed" >&2; exit 1; }

. "$here/../faults/lib.sh"
fault_init seeds
work=$fault_work
mkdir -p "$results" "$fios"
t=$work/target.img

run() {   # NAME ARGS...: one seed from a plain run or a preset
    name=$1; shift
    "$cli" run "$@" --output "$results/$name.json" "$t" >/dev/null 2>&1 || true
    test -s "$results/$name.json" || { echo "make-seeds.sh: no result from $name" >&2; exit 1; }
}

run randrw-qd16 --rw randrw --rwmixread 70 --iodepth 16 --runtime 1 --interval-ms 100 --span 16m --name "Seed drive"
# Writes first: a read run does not create its file.
run write-128k-2x --rw write --bs 128k --iodepth 8 --size 2x --span 16m --interval-ms 100
run randread-qd4 --rw randread --iodepth 4 --runtime 1 --interval-ms 200 --span 16m
run randwrite-seed --rw randwrite --size 16m --span 8m --seed 42 --interval-ms 100
run rw-seq --rw rw --bs 64k --iodepth 2 --runtime 0.5 --interval-ms 100 --offset 1m --span 4m
run randread-j2 --rw randread --iodepth 8 --numjobs 2 --runtime 0.5 --interval-ms 100 --span 16m
run preset-standard --preset standard --runtime 0.5 --span 16m --interval-ms 100
run preset-qos --preset qos --runtime 0.5 --span 16m --interval-ms 100
run preset-consistency --preset consistency --runtime 2 --span 16m --interval-ms 100
run preset-wsat --preset write-saturation --span 8m --round 0.5 --runtime 1 --interval-ms 100 --probe 0

# Cancelled with SIGINT: status "cancelled", what was measured is kept.
"$cli" run --rw randrw --runtime 30 --interval-ms 100 --span 16m --output "$results/cancelled.json" "$t" >/dev/null 2>&1 &
pid=$!; sleep 1.5; kill -INT $pid; wait $pid || true

# kill -9 after the first checkpoint (5 s): status "running".
"$cli" run --rw randread --iodepth 1 --runtime 30 --interval-ms 500 --span 16m --output "$results/checkpoint.json" "$t" >/dev/null 2>&1 &
pid=$!; sleep 6; kill -KILL $pid; wait $pid 2>/dev/null || true

# A disk that fails mid-run: a loop device over a file on an ext4 that is
# shut down (EXT4_IOC_SHUTDOWN): status "failed", with the error.
if [ "$(id -u)" = 0 ]; then
    fault_ext4 fs 128m
    mnt=$fault_mnt
    fallocate -l 64m "$mnt/disk.img"
    fault_loop "$mnt/disk.img"
    loop=$fault_dev
    "$cli" run --rw randrw --destructive --runtime 20 --interval-ms 100 --output "$results/failed.json" "$loop" >/dev/null 2>&1 &
    pid=$!; sleep 1.5
    python3 "$here/../faults/fs-shutdown.py" "$mnt"
    wait $pid || true
fi

fio_seed() {   # NAME [--log] FIO-ARGS...: fio json+, with the job's IOPS log after a NUL
    name=$1; shift
    log=no
    [ "$1" = --log ] && { log=yes; shift; }
    (cd "$work" && fio --output-format=json+ --output="$work/$name.json" \
        --ioengine=io_uring --direct=1 --lat_percentiles=1 --filename="$t" --size=16m "$@" >/dev/null)
    if [ $log = yes ]; then
        { cat "$work/$name.json"; printf '\0'; cat "$work"/*_iops.1.log; } >"$fios/$name.bin"
        "$cli" import --iops-log "$(ls "$work"/*_iops.1.log | head -n 1)" --output "$results/import-$name.json" "$work/$name.json" >/dev/null 2>&1 || true
        rm -f "$work"/*_iops.*.log
    else
        cp "$work/$name.json" "$fios/$name.json"
        "$cli" import --output "$results/import-$name.json" "$work/$name.json" >/dev/null 2>&1 || true
    fi
}

fio_seed randread-qd1 --name=randread-qd1 --rw=randread --bs=4k --iodepth=1 --runtime=1 --time_based
fio_seed randrw-qd16 --log --name=randrw-qd16 --rw=randrw --rwmixread=70 --bs=4k --iodepth=16 \
    --runtime=2 --time_based --write_iops_log=randrw-qd16 --log_avg_msec=250
fio_seed seq-two-jobs --log --name=seqwrite --rw=write --bs=128k --iodepth=8 --runtime=1 --time_based \
    --write_iops_log=seqwrite --log_avg_msec=200 --name=seqread --stonewall --rw=read --bs=128k --iodepth=8 --runtime=1 --time_based
fio_seed randwrite-iosize --name=randwrite-iosize --rw=randwrite --bs=4k --iodepth=32 --io_size=32m --randseed=7
fio_seed randread-j2 --name=randread-j2 --rw=randread --bs=4k --iodepth=8 --numjobs=2 --group_reporting \
    --runtime=1 --time_based
fio_seed mixed-bs --name=mixed-bs --rw=randrw:4 --rwmixwrite=30 --bs=4k,8k --iodepth=4 --runtime=1 --time_based --offset=4m
fio_seed plain-log --log --name=plain-log --rw=randread --bs=4k --iodepth=2 --runtime=1 --time_based \
    --write_iops_log=plain-log --log_avg_msec=100

# Compact every result seed (see above).
for f in "$results"/*.json; do
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); open(sys.argv[1], "w").write(json.dumps(d, ensure_ascii=False, separators=(",", ":")))' "$f"
done

echo "result seeds: $(ls "$results" | wc -l) files, $(du -sh "$results" | cut -f1)"
echo "fio seeds: $(ls "$fios" | wc -l) files, $(du -sh "$fios" | cut -f1)"
