#!/bin/sh
# The pseudo-SLC cache through FUSE (TAP): a 256 MiB model of the slc-tlc
# shape, its times ten times longer (330 MB/s in the cache, 130 after it,
# 80 while folding: below what FUSE serves here, docs/ssd-model.md), written
# from start to end by the real CLI with 1 MiB sequential writes at QD8:
#   driveduel-cli run --rw write --bs 1m --iodepth 8 --size 1x
# then the model's log holds the cache running out, folding, every byte.
# The verdicts do not hang on this machine's speed: a slow host gives the
# model idle time to fold in, which only moves the cache's end later, never
# before the size the empty drive has (static + dynamic parts).
#
# Usage: test-ssd-seq-fuse.sh MODEL SSD-MODEL.SH CHECK-RESULT CLI
# MODEL is empty when libfuse3 was not found at build time: skipped,
# as when /dev/fuse or fusermount3 is missing. Unmounts even on failure.
set -u
model=${1:-}; script=${2:-}; check_result=${3:-}; cli=${4:-${DRIVEDUEL_CLI:-}}

skip() { echo "1..0 # SKIP $*"; exit 0; }
[ -n "$model" ] && [ -x "$model" ] || skip "duel-ssd-model was not built (libfuse3 missing)"
"$script" have-fuse || skip "FUSE is not usable here (/dev/fuse, fusermount3)"
[ -x "$cli" ] || { echo "Bail out! driveduel-cli not found"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/var/tmp}/duel-ssd-seq.XXXXXX") || exit 1
mnt=$work/mnt
cleanup() {
    DUEL_SSD_MODEL=$model "$script" stop "$mnt" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

failures=0
tests=0
ok() { echo "ok - $*"; tests=$((tests + 1)); }
notok() { echo "not ok - $*"; tests=$((tests + 1)); failures=$((failures + 1)); }
# A number from the model's log (one key a line, as duel-ssd-model writes it).
num() { sed -n "s/^ *\"$1\": \([0-9.]*\),\{0,1\}\$/\1/p" "$work/truth.json" | head -n 1; }

if DUEL_SSD_MODEL=$model "$script" start "$mnt" --shape slc-tlc --capacity 256m \
       --t-prog-cache-us 100 --t-prog-us 250 --t-read-us 80 --t-erase-us 10000 \
       --log "$work/truth.json" >"$work/start.out" 2>&1; then
    ok "the model serves $mnt/ssd.img with a pseudo-SLC cache"
else
    notok "the model did not start"
    sed 's/^/# /' "$work/start.out"
    echo "1..$tests"
    exit 1
fi

"$cli" run --destructive --rw write --bs 1m --iodepth 8 --size 1x --interval-ms 100 \
    --output "$work/result.json" "$mnt/ssd.img" >"$work/cli.out" 2>"$work/cli.err"
rc=$?
sed 's/^/# cli: /' "$work/cli.out" "$work/cli.err"
if [ $rc -eq 0 ]; then ok "driveduel-cli wrote the model from start to end"; else notok "driveduel-cli exited with $rc"; fi
if "$check_result" "$work/result.json" --status complete >"$work/check.out" 2>&1; then
    ok "the project's loader accepts the result"
else
    notok "the project's loader rejects the result: $(cat "$work/check.out")"
fi

if DUEL_SSD_MODEL=$model "$script" stop "$mnt"; then ok "unmounted"; else notok "still mounted"; fi
[ -s "$mnt.out" ] && sed 's/^/# model: /' "$mnt.out"
if [ -s "$work/truth.json" ]; then ok "the model wrote its log"; else notok "no log from the model"; echo "1..$tests"; exit 1; fi

written=$(num write_bytes); capacity=$(num capacity_bytes)
full=$(num slc_full_host_bytes); fold=$(num slc_fold_first_host_bytes)
static=$(num slc_static_bytes); dynamic=$(num slc_dynamic_bytes)
bg=$(num slc_fold_bg_pages)
echo "# written $written of $capacity; cache full at ${full:-none}, folding from ${fold:-none}; static $static, dynamic $dynamic; folded in idle time $bg pages"
if [ -n "$written" ] && [ "$written" = "$capacity" ]; then ok "the model took every byte"; else notok "the model took $written bytes of $capacity"; fi
if [ -n "$full" ] && [ "$full" -ge $((static + dynamic - 4096)) ] && [ "$full" -lt "$capacity" ]; then
    ok "the cache ran out after $full bytes (the empty drive's cache: $((static + dynamic)))"
else
    notok "the cache's end: ${full:-none} (the empty drive's cache: $((static + dynamic)))"
fi
if [ -n "$fold" ] && [ "$fold" -ge "$full" ]; then
    ok "writes waited on folding from $fold bytes"
else
    notok "no folding stretch after the cache (${fold:-none})"
fi

echo "1..$tests"
[ $failures -eq 0 ] || { echo "# $failures check(s) failed"; exit 1; }
exit 0
