#!/bin/sh
# driveduel-cli and driveduel speak Traditional Chinese (TAP).
#
# Runs the built programs with LANGUAGE=zh_TW LC_ALL=C.UTF-8 (zh_TW.UTF-8
# where glibc needs it) and
# DRIVEDUEL_LOCALEDIR pointing at the build's catalogue. The expected text is
# looked up in that same catalogue with gettext(1), so the test follows the
# translation as it changes, and fails when a message is missing (the lookup
# then returns the English msgid, which is refused) or when the program does
# not print it.
#
# Usage: check-l10n.sh DRIVEDUEL_CLI DRIVEDUEL LOCALEDIR
set -u

cli=${1:?usage: check-l10n.sh DRIVEDUEL_CLI DRIVEDUEL LOCALEDIR}
app=${2:?}
localedir=${3:?}

if ! command -v gettext >/dev/null 2>&1; then
    echo "1..0 # SKIP gettext(1) is not installed (package gettext-base)"
    exit 0    # with "1..0 # SKIP", a skip to meson (77 would be an error)
fi
if [ ! -f "$localedir/zh_TW/LC_MESSAGES/driveduel.mo" ]; then
    echo "not ok 1 - $localedir/zh_TW/LC_MESSAGES/driveduel.mo was built"
    echo "1..1"
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/driveduel-l10n.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# glibc 2.39 (Debian's from 2.37-8) ignores LANGUAGE under C.UTF-8 as under
# C: there a zh_TW locale is needed, used when one is installed.
zh_lc_all=C.UTF-8
if locale -a 2>/dev/null | grep -qix 'zh_TW\.utf-*8'; then zh_lc_all=zh_TW.UTF-8; fi
LANGUAGE=zh_TW
LC_ALL=$zh_lc_all
DRIVEDUEL_LOCALEDIR=$localedir
TEXTDOMAINDIR=$localedir
export LANGUAGE LC_ALL DRIVEDUEL_LOCALEDIR TEXTDOMAINDIR
unset LANG LC_MESSAGES
# The run below writes its scratch files here, not into the user's cache.
XDG_CACHE_HOME="$tmp/cache"
export XDG_CACHE_HOME

# PRIu64 as the C library spells it, for the messages that use it.
if [ "$(getconf LONG_BIT)" = 64 ]; then u64=lu; else u64=llu; fi

n=0
failed=0

# tr MSGID: the zh_TW translation, or fail when there is none.
tr_zh() {
    t=$(gettext -d driveduel -- "$1")
    if [ "$t" = "$1" ]; then
        echo "# no zh_TW translation of: $1" >&2
        return 1
    fi
    printf '%s' "$t"
}

# expect NAME FILE MSGID: FILE holds the translation of MSGID. For a format
# string, each literal piece between the conversions must be there.
expect() {
    name=$1 file=$2 msgid=$3
    n=$((n + 1))
    if ! t=$(tr_zh "$msgid"); then
        failed=$((failed + 1)); echo "not ok $n - $name"; return
    fi
    missing=""
    printf '%s\n' "$t" | sed 's/%[-+ #0-9.$]*\(l\|ll\|z\|h\)\{0,1\}[a-zA-Z]/\n/g; s/%%/%/g' | while IFS= read -r piece; do
        [ -z "$(printf '%s' "$piece" | tr -d ' ')" ] && continue
        if ! grep -qF -- "$piece" "$file"; then
            echo "# missing: $piece"
        fi
    done >"$tmp/missing"
    if [ -s "$tmp/missing" ]; then
        failed=$((failed + 1))
        echo "not ok $n - $name"
        cat "$tmp/missing"
        sed 's/^/#   | /' "$file" | head -n 20
    else
        echo "ok $n - $name"
    fi
}

# check NAME COMMAND...: the command itself succeeds.
check() {
    name=$1; shift
    n=$((n + 1))
    if "$@" >"$tmp/out" 2>&1; then
        echo "ok $n - $name"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name (exit $?)"
        sed 's/^/# /' "$tmp/out" | head -n 20
    fi
}

# The command list.
"$cli" --help >"$tmp/help" 2>&1
expect "driveduel-cli --help: usage line" "$tmp/help" "Usage: driveduel-cli COMMAND [OPTIONS…]"
expect "driveduel-cli --help: commands heading" "$tmp/help" "Commands:"
expect "driveduel-cli --help: the run command" "$tmp/help" \
    "Run a workload or a review preset on a file or a block device"
expect "driveduel-cli --help: the compare command" "$tmp/help" \
    "Compare two to four result files: charts, a PDF report, CSV and Markdown"
n=$((n + 1))
if grep -q 'Commands:' "$tmp/help"; then
    failed=$((failed + 1)); echo "not ok $n - no English left in driveduel-cli --help"
else
    echo "ok $n - no English left in driveduel-cli --help"
fi

# A command's options (GOption, translated through the package's domain).
"$cli" run --help >"$tmp/run-help" 2>&1
expect "driveduel-cli run --help: queue depth" "$tmp/run-help" "Queue depth (default 32)"
expect "driveduel-cli run --help: the note" "$tmp/run-help" \
    "Without TARGET, a 1 GiB scratch file in your cache directory is used.
Sizes take k, m, g and t suffixes (powers of 1024). Writing to a block device
needs --destructive and is refused when the device is mounted or in use."
"$cli" analyze --help >"$tmp/analyze-help" 2>&1
expect "driveduel-cli analyze --help" "$tmp/analyze-help" "Print the figures as JSON"

# Errors.
"$cli" frobnicate >"$tmp/unknown" 2>&1
expect "unknown command" "$tmp/unknown" \
    "driveduel-cli: unknown command “%s”; run “driveduel-cli --help” for the list."
"$cli" run --iodepth 0 "$tmp/never.img" >"$tmp/iodepth" 2>&1
expect "a bad --iodepth" "$tmp/iodepth" "The %s must be between %s and %s, not %s."
expect "the queue depth, named" "$tmp/iodepth" "queue depth"

# A short real run on a file: the progress summary, with 64-bit counters.
check "a one-second run on a file" "$cli" run --rw randrw --bs 4k --iodepth 4 --runtime 1 --span 8m \
    --output "$tmp/run.json" "$tmp/target.img"
cp "$tmp/out" "$tmp/run.out"
expect "run summary: read line" "$tmp/run.out" \
    "  %s: %.0f IOPS, %.1f MB/s (%$u64 I/Os, %$u64 bytes)
"
expect "run summary: direction name" "$tmp/run.out" "read"
# The test's line in the window's words, not fio's ("randrw, block 4096 B").
expect "run summary: the access in words" "$tmp/run.out" "%s (%s, queue depth %u%s): %.1f s, %s
"
expect "run summary: the mix in words" "$tmp/run.out" "random %u/%u read/write"
check "analyze the result" "$cli" analyze "$tmp/run.json"
# A published reference: its figures are the review's, and analyze says so.
reference="$(cd "$(dirname "$0")/.." && pwd)/data/reference/plextor-m8peg-512gb.json"
"$cli" analyze "$reference" >"$tmp/analyze-reference" 2>&1
expect "analyze a published reference" "$tmp/analyze-reference" \
    "Published figures from the review, not measured by Drive Duel."

# The GUI's own options need no display.
"$app" --help >"$tmp/app-help" 2>&1
expect "driveduel --help: --dark" "$tmp/app-help" "Use the dark style"
expect "driveduel --help: --screenshot" "$tmp/app-help" \
    "Save a screenshot of the window as a PNG file once it is drawn, then quit"

echo "1..$n"
[ "$failed" -eq 0 ]
