#!/bin/sh
# The app out of threads: under a per-user process limit of 1 to 16
# (RLIMIT_NPROC, as a user of its own: root ignores the limit), driveduel
# opening a result and saving a screenshot either does it (exit 0) or ends
# with one sentence, exit 1: never a hang, a GLib-ERROR or a crash. The
# window's workers (history, result loading, drives) run in threads of
# their own; GTK's and GLib's own threads that cannot start end in the
# last-resort handler. Each start is given 300 s, a cap that only stops a
# hung one. Run under gui-test-wrapper.sh (a display of its own).
#
# Usage: fault-threads-app.sh DRIVEDUEL DRIVEDUEL-CLI CHECK-RESULT   (needs root)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
app=${1:-}
shift
fault_args "$@"
[ -x "$app" ] || fault_skip "driveduel not found (give it as the first argument)"
[ -n "${DISPLAY:-}" ] || fault_skip "no display"
[ "$(id -u)" = 0 ] || fault_skip "needs root for a user of its own"
command -v setpriv >/dev/null 2>&1 && command -v prlimit >/dev/null 2>&1 || fault_skip "setpriv or prlimit is not installed"
fault_init threads-app
# Under a process limit LeakSanitizer cannot start the thread it stops the
# world with, and says so at exit: its check is left out here (ASan's stay).
[ -n "${ASAN_OPTIONS:-}" ] && ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" && export ASAN_OPTIONS
cap=300

# A user id that no account and no process has (fault-threads.sh).
uid=""
_fu=$((61000 + $$ % 900))
while [ $_fu -lt 62000 ]; do
    if ! getent passwd $_fu >/dev/null 2>&1 && ! ps -e -o uid= | grep -qx " *$_fu"; then
        uid=$_fu
        break
    fi
    _fu=$((_fu + 1))
done
[ -n "$uid" ] || fault_skip "no free user id in 61000..61999"
chmod 755 "$fault_work"
home=$fault_work/home
install -d -o "$uid" -g "$uid" "$home"
setpriv --reuid="$uid" --regid="$uid" --clear-groups "$app" --version >/dev/null 2>&1 ||
    fault_skip "user $uid cannot run $app (a build folder only root may read?)"
# The X server lets this user in (Xvfb of gui-test-wrapper.sh has no
# access control; another display may).
xhost "+si:localuser:#$uid" >/dev/null 2>&1 || true

# A result to open: 2 s of 4K random reads.
truncate -s 16m "$fault_work/target.img"
"$fault_cli" run --rw randread --runtime 2 --interval-ms 100 -o "$fault_work/r.json" "$fault_work/target.img" \
    >/dev/null 2>&1 || fault_fail "the run that makes the result failed"
chmod 644 "$fault_work/r.json"

worked=0
for n in 1 2 3 4 5 6 8 10 12 16; do
    shot=$home/shot$n.png
    timeout -s KILL $cap env HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
        XDG_CACHE_HOME="$home/cache" XDG_RUNTIME_DIR="$home" \
        setpriv --reuid="$uid" --regid="$uid" --clear-groups prlimit --nproc=$n \
        "$app" --screenshot "$shot" "$fault_work/r.json" >"$fault_work/app$n.out" 2>"$fault_work/app$n.err"
    rc=$?
    # Without a session bus, GTK says so: the test's environment, not a fault.
    grep -v -e 'Unable to acquire session bus' -e '^$' "$fault_work/app$n.err" >"$fault_work/app$n.ours"
    lines=$(wc -l <"$fault_work/app$n.ours")
    what="driveduel, process limit $n"
    if [ $rc -eq 137 ]; then
        fault_check "$what: ends within ${cap} s (it hung)" false
    elif [ $rc -eq 0 ]; then
        worked=$((worked + 1))
        fault_check "$what: exit 0 with the screenshot saved" [ -s "$shot" ]
        fault_check "$what: exit 0, nothing on stderr (got $lines lines)" [ "$lines" -eq 0 ]
    else
        fault_check "$what: exit 1 (got $rc)" [ $rc -eq 1 ]
        fault_check "$what: one line on stderr (got $lines)" [ "$lines" -eq 1 ]
        fault_grep "$what: the line is the app's sentence" "$fault_work/app$n.ours" '^driveduel: [^ ]'
    fi
    if grep -Eq 'GLib-ERROR|CRITICAL|Trace|Aborted' "$fault_work/app$n.err"; then
        fault_check "$what: no GLib error or critical" false
    fi
    sed "s/^/#   $what: /" "$fault_work/app$n.err"
    [ $n -eq 1 ] && fault_check "$what: it fails (got $rc)" [ $rc -eq 1 ]
done
fault_check "driveduel: some limit lets it work ($worked of 10)" [ $worked -ge 1 ]

fault_done
