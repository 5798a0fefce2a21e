#!/bin/sh
# make-pictures.sh — the full review on two simulated drives, compared
#
# Runs `driveduel-cli run --preset review` on two 256 MiB models shaped like
# the review's drives (docs/ssd-model.md): "falls" (Intel SSD 750-like: the
# write cache, then the cliff, then the GC plateau) and "rises" (Plextor
# M8PeG-like: a used drive after a trim, faster once the erase backlog is
# gone, then GC), then exports the comparison with `driveduel-cli compare`.
# The drive names say "simulated"; the write-curve chart is the README's
# data/screenshots/simulated-write-curve.png. Not a test: about 4 minutes.
#
# Usage: make-pictures.sh BUILDDIR [OUTDIR]
#   OUTDIR (default: a new folder in /var/tmp) gets the two results, the
#   models' logs and compare/ with every chart and table.
set -u
build=${1:?usage: make-pictures.sh BUILDDIR [OUTDIR]}
out=${2:-$(mktemp -d "${TMPDIR:-/var/tmp}/duel-pictures.XXXXXX")}
here=$(cd "$(dirname "$0")" && pwd)
export DUEL_SSD_MODEL="$build/tests/ssd-model/duel-ssd-model"
cli=$build/src/cli/driveduel-cli
mnt=$out/mnt
mkdir -p "$out"
trap '"$here/ssd-model.sh" stop "$mnt" >/dev/null 2>&1' EXIT
trap 'exit 1' INT TERM HUP

review() {   # FILE NAME MODEL-OPTIONS...
    file=$1; name=$2; shift 2
    "$here/ssd-model.sh" start "$mnt" "$@" --log "$out/$file.truth.json" >/dev/null || exit 1
    echo "== $name"
    # 1 s rounds and 5 s timed tests: the model's 2x fill takes 15-35 s.
    "$cli" run --destructive --preset review --runtime 5 --round 1 --interval-ms 200 --probe 0 \
        --name "$name" --output "$out/$file.json" "$mnt/ssd.img" || exit 1
    "$here/ssd-model.sh" stop "$mnt" || exit 1
}

review falls "Simulated drive A (falls: cache, cliff, GC)" --shape falls
review rises "Simulated drive B (rises: trimmed, then GC)" --shape rises
"$cli" compare "$out/falls.json" "$out/rises.json" --output-dir "$out/compare" || exit 1
echo "(files in $out; the write curve: $out/compare/write-curve.png)"
