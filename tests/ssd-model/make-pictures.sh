#!/bin/sh
# make-pictures.sh — the full review on two simulated drives, compared
#
# Runs `driveduel-cli run --preset review` on two 256 MiB models shaped like
# the review's drives (docs/ssd-model.md): "falls" (Intel SSD 750-like: the
# write cache, then the cliff, then the GC plateau) and "rises" (Plextor
# M8PeG-like: a used drive after a trim, faster once the erase backlog is
# gone, then GC), and a third, "falls" with 28 % spare area, then exports
# the comparison of the first two and of all three with `driveduel-cli
# compare`. The drive names say "simulated"; the write-curve chart is the
# README's data/screenshots/simulated-write-curve.png; then screenshots of
# the window on the same results (OUTDIR/screenshots/, the README's other
# pictures). Not a test: about 6 minutes.
#
# Usage: make-pictures.sh BUILDDIR [OUTDIR]
#   OUTDIR (default: a new folder in /var/tmp) gets the three results, the
#   models' logs, compare/ (A and B) and compare3/ (A, B and C) with every
#   chart and table.
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
review more-op "Simulated drive C (falls, 28 % spare area)" --shape falls --op 28
"$cli" compare "$out/falls.json" "$out/rises.json" --output-dir "$out/compare" || exit 1
"$cli" compare "$out/falls.json" "$out/rises.json" "$out/more-op.json" --output-dir "$out/compare3" || exit 1
echo "(files in $out; the write curve: $out/compare/write-curve.png)"

# The window on the same results, as the README shows it: the Compare page's
# write curve and table in English, the write curve in Traditional Chinese,
# and the three drives (under Xvfb when there is no display).
shots=$out/screenshots
mkdir -p "$shots" "$out/home"
shot() {   # NAME LANGUAGE TAB FILES...
    name=$1; lang=$2; tab=$3; shift 3
    XDG_DATA_HOME="$out/home" XDG_CONFIG_HOME="$out/home" XDG_CACHE_HOME="$out/home" \
        GSETTINGS_SCHEMA_DIR="$build/data" GSETTINGS_BACKEND=memory GTK_A11Y=none NO_AT_BRIDGE=1 \
        GSK_RENDERER=cairo GDK_DEBUG=gl-disable LANGUAGE=$lang LC_ALL=C.UTF-8 FC_LANG=$(echo "$lang" | tr "_A-Z" "-a-z") \
        DRIVEDUEL_LOCALEDIR="$build/po" \
        "$here/../gui-test-wrapper.sh" "$build/src/app/driveduel" --screenshot="$shots/$name.png" \
        --tab="$tab" "$@" || echo "(no screenshot $name: exit $?)"
}
shot comparison en write-curve "$out/falls.json" "$out/rises.json"
shot comparison-table en table "$out/falls.json" "$out/rises.json"
shot comparison-zh_TW zh_TW write-curve "$out/falls.json" "$out/rises.json"
shot comparison-three en write-curve "$out/falls.json" "$out/rises.json" "$out/more-op.json"
echo "(window screenshots in $shots)"
