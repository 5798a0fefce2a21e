#!/bin/sh
# run-shapes.sh — measures the model's shapes with the real CLI (not a test)
#
# For each configuration: mount the model, 2x random-write fill at QD32 with
# driveduel-cli, unmount, then print the run time, the model's truth (cache
# out, GC start, WA, plateau over the last 10 % written) and the result's
# curve. About 3 minutes in all.
#
# Usage: run-shapes.sh BUILDDIR [OUTDIR]    (BUILDDIR: the meson build directory)
set -u
build=${1:?usage: run-shapes.sh BUILDDIR [OUTDIR]}
out=${2:-$(mktemp -d "${TMPDIR:-/var/tmp}/duel-shapes.XXXXXX")}
here=$(cd "$(dirname "$0")" && pwd)
export DUEL_SSD_MODEL=$build/tests/ssd-model/duel-ssd-model
cli=$build/src/cli/driveduel-cli
checker=$build/tests/ssd-model/ssd-model-check
mnt=$out/mnt
mkdir -p "$out"
trap '"$here/ssd-model.sh" stop "$mnt" >/dev/null 2>&1' EXIT
trap 'exit 1' INT TERM HUP

# name | model options
configs="
falls|--shape falls
rises|--shape rises
small-cache|--shape falls --cache 5%
more-op|--shape falls --op 28
two-units|--shape falls --units 2 --t-prog-cache-us 125 --t-prog-us 350
"

echo "$configs" | while IFS='|' read -r name opts; do
    [ -n "$name" ] || continue
    echo "== $name: duel-ssd-model $opts (256 MiB)"
    # shellcheck disable=SC2086
    "$here/ssd-model.sh" start "$mnt" $opts --log "$out/$name.truth.json" >/dev/null || exit 1
    t0=$(date +%s.%N)
    "$cli" run --destructive --rw randwrite --bs 4k --iodepth 32 --size 2x --interval-ms 1000 \
        --output "$out/$name.result.json" "$mnt/ssd.img" >"$out/$name.cli.out" 2>&1 || {
        cat "$out/$name.cli.out"; exit 1; }
    t1=$(date +%s.%N)
    "$here/ssd-model.sh" stop "$mnt" || exit 1
    echo "  wall time of the CLI run: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
    "$checker" report "$out/$name.truth.json" "$out/$name.result.json"
done
echo "(files in $out)"
