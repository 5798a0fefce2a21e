#!/bin/sh
# Builds Drive Duel and runs the whole test suite, then prints
# "N passed, N failed, N skipped" as the last line.
# Usage: build-aux/run-tests.sh [BUILDDIR] [extra meson test arguments]
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:-"$top/build"}
[ $# -gt 0 ] && shift

if [ ! -f "$builddir/build.ninja" ]; then
    meson setup "$builddir" "$top" || exit 1
fi
ninja -C "$builddir" || exit 1

meson test -C "$builddir" --print-errorlogs --num-processes 2 "$@"
status=$?

log="$builddir/meson-logs/testlog.json"
if [ -f "$log" ]; then
    python3 - "$log" <<'PY' || true
import json, sys
passed = failed = skipped = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        line = line.strip()
        if not line:
            continue
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
fi
exit $status
