#!/bin/sh
# The window as a screen reader meets it, in English and in zh_TW: the app
# runs on a session bus of its own with the accessibility bus, and
# tests/a11y/walk.py walks its tree through AT-SPI (every page, the history's
# rows, the compared charts) and fails on any control without a usable name,
# rows whose buttons cannot be told apart, or charts without their data as
# text. Two real runs (the CLI on a file) fill the history first.
#
# Usage: test-a11y.sh DRIVEDUEL DRIVEDUEL-CLI LOCALEDIR WORKDIR
# Runs under gui-test-wrapper.sh (a display of its own).
set -u
app=$1
cli=$2
localedir=$3
workroot=$4
here=$(cd "$(dirname "$0")" && pwd)

skip() {
    echo "1..0 # SKIP $*"
    exit 77
}
[ -n "${DISPLAY:-}" ] || skip "no display"
command -v dbus-run-session >/dev/null 2>&1 || skip "dbus-run-session is not installed"
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null || skip "python3-pyatspi is not installed"
[ -x /usr/libexec/at-spi-bus-launcher ] || skip "at-spi2-core is not installed"

mkdir -p "$workroot"
work=$(mktemp -d "$workroot/a11y.XXXXXX") || exit 99
bus_pid=""
cleanup() {
    # The session's whole group (its bus, the accessibility bus, the app,
    # the walk), also when the test is stopped by its timeout.
    [ -n "$bus_pid" ] && kill -TERM "-$bus_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

export HOME="$work/home" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
export XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
mkdir -p "$HOME" "$XDG_DATA_HOME/driveduel/history" "$XDG_STATE_HOME"
unset GTK_A11Y NO_AT_BRIDGE

# Two runs of their own names, so that their rows differ.
for name in "Drive One" "Drive Two"; do
    file="$work/$(echo "$name" | tr ' ' '-').img"
    out="$XDG_DATA_HOME/driveduel/history/$(echo "$name" | tr ' ' '-').json"
    if ! "$cli" run --rw randrw --runtime 1 --span 8m --interval-ms 100 --name "$name" -o "$out" "$file" \
            > "$work/cli.log" 2>&1; then
        echo "1..1"
        echo "not ok 1 - the runs for the history: $(tail -n 2 "$work/cli.log" | tr '\n' ' ')"
        exit 1
    fi
done

status=0
for lang in en zh_TW; do
    if [ "$lang" = zh_TW ]; then
        export LANGUAGE=zh_TW DRIVEDUEL_LOCALEDIR="$localedir"
        lc=C.UTF-8
        locale -a 2>/dev/null | grep -qix 'zh_TW.utf8' && lc=zh_TW.UTF-8
        export LC_ALL="$lc"
    else
        export LANGUAGE=C LC_ALL=C.UTF-8
    fi
    # One session bus per language: the app, its accessibility bus, the walk.
    setsid dbus-run-session -- sh -c '
        "$1" > "$2/app-$3.log" 2>&1 &
        pid=$!
        /usr/bin/python3 "$4/walk.py" "$3: " > "$2/walk-$3.tap"
        rc=$?
        # The app gone before the walk ended is a failure of its own: its
        # status, for the report.
        if kill -0 $pid 2>/dev/null; then
            kill $pid 2>/dev/null
            wait $pid 2>/dev/null
        else
            wait $pid
            echo "the app had already exited with status $?" >> "$2/app-$3.log"
        fi
        exit $rc' sh "$app" "$work" "$lang" "$here" > "$work/dbus-$lang.out" 2> "$work/dbus-$lang.log" &
    bus_pid=$!
    wait "$bus_pid"
    rc=$?
    bus_pid=""
    [ $rc -eq 0 ] || status=1
    # One plan for both languages: the walks' lines, numbered on.
    grep -v '^1\.\.' "$work/walk-$lang.tap" | while IFS= read -r line; do
        case $line in
            "ok "*|"not ok "*)
                echo "$line" | sed -E "s/^(not ok|ok) [0-9]+/\\1 X/"
                ;;
            *) echo "$line" ;;
        esac
    done
    if [ $rc -ne 0 ] && ! grep -q '^not ok' "$work/walk-$lang.tap"; then
        # The app's own last words on the same line: a runner may show
        # only a failing test's "not ok" lines.
        echo "not ok X - $lang: the walk ended with status $rc: $(tail -n 3 "$work/dbus-$lang.log" | tr '\n' ' ') — the app: $(grep -v -e '-DEBUG:' "$work/app-$lang.log" | tail -n 6 | tr '\n' ' ')"
    fi
    # What the app said, when anything failed (it is removed with $work).
    if [ $rc -ne 0 ]; then
        grep -v -e '-DEBUG:' "$work/app-$lang.log" | tail -n 15 | sed 's/^/# app: /'
    fi
done > "$work/all.tap"
# Numbered in order, and the plan at the end.
awk 'BEGIN { n = 0 } /^(not ok|ok) X/ { n++; sub(/ X/, " " n) } { print } END { print "1.." n }' "$work/all.tap"
grep -q '^not ok' "$work/all.tap" && status=1
exit $status
