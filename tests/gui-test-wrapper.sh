#!/bin/sh
# Runs a GUI test (or any command) on a display of its own.
#
# With a display already there, the command runs on it. Otherwise a private
# Xvfb is started with -displayfd, which picks a free display number without
# races (parallel tests each get their own) and needs no xauth. Without Xvfb
# the test is skipped (exit 77).
#
# Usage: gui-test-wrapper.sh PROGRAM [ARGS...]
set -u

if [ -n "${DISPLAY:-}" ] && [ -z "${DRIVEDUEL_FORCE_XVFB:-}" ]; then
    exec "$@"
fi

if ! command -v Xvfb >/dev/null 2>&1; then
    echo "1..0 # SKIP Xvfb is not installed"
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/driveduel-xvfb.XXXXXX") || exit 99
xvfb_pid=""

cleanup() {
    if [ -n "$xvfb_pid" ]; then
        kill "$xvfb_pid" 2>/dev/null
        wait "$xvfb_pid" 2>/dev/null
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Xvfb writes the display number it chose to fd 3 once it accepts clients.
Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp -noreset \
    3>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb_pid=$!

i=0
while [ ! -s "$tmp/display" ]; do
    if ! kill -0 "$xvfb_pid" 2>/dev/null; then
        echo "1..0 # SKIP Xvfb failed to start: $(tail -n 3 "$tmp/xvfb.log" | tr '\n' ' ')"
        exit 77
    fi
    # A cap for an Xvfb that hangs: a loaded host may take many seconds to
    # start it, and that must not turn the test into a skip.
    i=$((i + 1))
    if [ "$i" -gt 2400 ]; then
        echo "1..0 # SKIP Xvfb did not report a display within 120 s"
        exit 77
    fi
    sleep 0.05
done

DISPLAY=":$(head -n 1 "$tmp/display")"
export DISPLAY
unset WAYLAND_DISPLAY
GDK_BACKEND=x11
export GDK_BACKEND

"$@"
status=$?
exit $status
