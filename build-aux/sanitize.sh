#!/bin/sh
# Builds Drive Duel with AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer in a build directory of its own and runs the whole
# test suite there with the normal runner (build-aux/run-tests.sh): the same
# tests, any invalid access, leak or undefined behaviour fails the test that
# caused it. The 'fuzz' suite (built with clang by its own script) and the
# 'valgrind' suite (valgrind cannot run sanitized binaries) are left out, and
# so are 'realtime' (the simulated SSD served in real time through FUSE),
# 'long' (the whole quick review: its parts are tested on their own) and
# 'calibration' (the time left's table made again from 1 600 fills, 92 s
# here sanitized: the estimator and the model it replays are the code of
# eta-virtual, eta-shapes and ssd-virtual, which run sanitized); the
# 'sanitize-fast' suite runs last, without the leak check (see below).
#
# Usage: build-aux/sanitize.sh [BUILDDIR] [extra meson test arguments]
#   BUILDDIR defaults to build-asan in the source tree.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:-"$top/build-asan"}
[ $# -gt 0 ] && shift

if [ ! -f "$builddir/build.ninja" ]; then
    # b_lundef=false: the sanitizer runtimes resolve symbols at load time.
    meson setup "$builddir" "$top" \
        -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined \
        -Db_lundef=false \
        "-Dc_args=-fno-omit-frame-pointer -fno-sanitize-recover=undefined" || exit 1
fi

# GSlice hands every block to malloc so ASan sees it; known leaks of system
# libraries (never of ours) are suppressed in build-aux/lsan.supp. Debian's
# GLib has no frame pointers, so allocation stacks are unwound the slow,
# exact way (fast_unwind_on_malloc=0): without it a stack ends at g_malloc and
# no suppression can tell GLib's own caches from our leaks. It makes
# malloc-heavy tests several times slower.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:allocator_may_return_null=0}
LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/build-aux/lsan.supp:print_suppressions=0}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
G_SLICE=always-malloc
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS G_SLICE

# Sanitized code with exact unwinding runs several times slower: the tests'
# timeouts are stretched to match.
# Fewer generated curves (the same seeds, the first 10 of each family): the
# sanitizers look for memory errors, which the first curves of every kind
# reach; the normal pass holds the analysis to all of them. The simulated
# SSD served in real time is left out for the same reason.
DUEL_FALLS_SHAPES=${DUEL_FALLS_SHAPES:-10}
export DUEL_FALLS_SHAPES

status=0
sh "$top/build-aux/run-tests.sh" "$builddir" --no-suite fuzz --no-suite valgrind --no-suite realtime \
    --no-suite long --no-suite calibration --no-suite sanitize-fast --timeout-multiplier 4 "$@" || status=1

# The window's longest journeys (suite 'sanitize-fast': app, the pages,
# charts and exports, app-run, app-journey and the a11y walk) with the stack
# unwound the fast way and no leak check: exact unwinding made them three to
# five times slower (app 288 s against 56 s, app-run 186 s against 56 s, of
# the CI's budget), and without it LeakSanitizer cannot tell GLib's and GTK's
# caches from a leak. Invalid accesses and undefined behaviour still fail
# them; app-state, whose journeys open and close the same pages and windows
# again and again, keeps the leak check for the app.
echo "== the window's longest journeys under ASan + UBSan, no leak check =="
ASAN_OPTIONS=$(echo "$ASAN_OPTIONS" | sed 's/detect_leaks=1/detect_leaks=0/; s/fast_unwind_on_malloc=0/fast_unwind_on_malloc=1/') \
    sh "$top/build-aux/run-tests.sh" "$builddir" --suite sanitize-fast \
    --timeout-multiplier 4 "$@" || status=1
exit $status
