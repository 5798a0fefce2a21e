#!/bin/sh
# The time-left estimate on live runs (docs/eta.md): measurements, not a test.
#
#   tests/bench/eta-campaign.sh BUILDDIR OUTDIR [NAME…]
#
# Runs the write-saturation preset (--runtime 1 --round 1 --interval-ms 100
# --probe 2) on each simulated SSD configuration below and on zram devices
# of 2 and 8 GiB (the 8 GiB fill lasts about half a minute), a plain 2x
# random write (no probe, no discard) on the model, and the quick preset on
# zram; keeps every result in OUTDIR/NAME.json (with the model's truth log
# next to it), then replays them all through eta-replay: the error
# of the time left's middle at 10, 50 and 90 % progress and the worst over
# 10–90 %, and its range over the truth at the same points, with the probe
# and as if none had run. NAMEs pick runs (default: all). A
# model run takes 15–40 s (large: 2 min); zram needs root (skipped
# otherwise). About 10 minutes in all.
set -u
build=${1:?usage: eta-campaign.sh BUILDDIR OUTDIR [NAME…]}
out=${2:?usage: eta-campaign.sh BUILDDIR OUTDIR [NAME…]}
shift 2
want="$*"
src=$(cd "$(dirname "$0")/../.." && pwd)
cli=$build/src/cli/driveduel-cli
replay=$build/tests/eta-replay
script=$src/tests/ssd-model/ssd-model.sh
export DUEL_SSD_MODEL=$build/tests/ssd-model/duel-ssd-model
wsat="run --preset write-saturation --runtime 1 --round 1 --interval-ms 100 --probe 2 --destructive"
plain="run --rw randwrite --bs 4k --iodepth 32 --size 2x --interval-ms 100 --destructive"
quick="run --preset quick --destructive"

mkdir -p "$out" || exit 1
mnt=$out/mnt
zram=""
cleanup() {
    "$script" stop "$mnt" >/dev/null 2>&1
    [ -n "$zram" ] && echo "$zram" >/sys/class/zram-control/hot_remove 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

wanted() {
    [ -z "$want" ] && return 0
    for w in $want; do [ "$w" = "$1" ] && return 0; done
    return 1
}

# on_model NAME "MODEL OPTIONS" CLI-ARGS…
on_model() {
    name=$1; opts=$2; shift 2
    wanted "$name" || return 0
    # shellcheck disable=SC2086
    if ! "$script" start "$mnt" $opts --log "$out/$name.truth.json" >"$out/$name.start" 2>&1; then
        echo "$name: the model did not start" >&2; cat "$out/$name.start" >&2; return 0
    fi
    "$cli" "$@" --name "$name" -o "$out/$name.json" "$mnt/ssd.img" >"$out/$name.cli" 2>&1 ||
        echo "$name: driveduel-cli failed (see $out/$name.cli)" >&2
    "$script" stop "$mnt" >/dev/null 2>&1
}

# on_zram NAME SIZE CLI-ARGS…: a zram device of its own, removed after.
on_zram() {
    name=$1; size=$2; shift 2
    wanted "$name" || return 0
    if [ ! -w /sys/class/zram-control/hot_add ]; then
        echo "$name: skipped (needs root and the zram module)" >&2; return 0
    fi
    zram=$(cat /sys/class/zram-control/hot_add) || return 0
    if echo "$size" >"/sys/block/zram$zram/disksize"; then
        "$cli" "$@" --name "$name" -o "$out/$name.json" "/dev/zram$zram" >"$out/$name.cli" 2>&1 ||
            echo "$name: driveduel-cli failed (see $out/$name.cli)" >&2
    fi
    echo "$zram" >/sys/class/zram-control/hot_remove
    zram=""
}

# The ssd-analysis configurations, then what the method was not designed
# on: no write cache, a nearly flat drive, a 1 GiB model whose 205 MiB
# cache outlasts the 2 s probe (as a real drive's would), a plain run.
# shellcheck disable=SC2086
{
    on_model falls "--shape falls" $wsat
    on_model small-cache "--shape falls --cache 10%" $wsat
    on_model more-op "--shape falls --op 28" $wsat
    on_model two-units "--shape falls --units 2 --t-prog-cache-us 125 --t-prog-us 350" $wsat
    on_model rises "--shape rises" $wsat
    on_model no-cache "--shape falls --cache 0" $wsat
    on_model flat "--shape flat" $wsat
    on_model large "--shape falls --capacity 1g" $wsat
    on_model plain "--shape falls" $plain
    on_zram zram 2G $wsat
    on_zram zram-8g 8G $wsat
    on_zram zram-quick 1G $quick
}

set --
for f in "$out"/*.json; do
    case $f in *.truth.json) continue ;; esac
    [ -e "$f" ] && set -- "$@" "$f"
done
[ $# -gt 0 ] || { echo "no results in $out" >&2; exit 1; }
echo "# time left, (estimate - actual) / actual, with the probe"
"$replay" "$@"
echo "# the same, as if no probe had run"
"$replay" --no-probe "$@"
