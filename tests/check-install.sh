#!/bin/sh
# `meson install` works, and the installed programs run from there (TAP).
#
# Installs the build into a temporary DESTDIR, checks that every file a
# desktop needs is in place, runs the installed driveduel-cli (--version, a
# short run on a file, analyze, a chart report, Traditional Chinese from the
# installed catalogue) and the installed driveduel (--version, --help, and
# with Xvfb a window that opens two reference results in zh_TW and saves a
# screenshot to tests/screenshots/comparison-zh_TW.png in the build tree).
#
# It also reads the Flatpak manifest (build-aux/flatpak/), which is not built
# here: it must parse and name the same app, runtime and device access.
#
# Usage: check-install.sh BUILD_ROOT VERSION GUI_WRAPPER SOURCE_ROOT
set -u

build=${1:?usage: check-install.sh BUILD_ROOT VERSION GUI_WRAPPER SOURCE_ROOT}
version=${2:?}
wrapper=${3:?}
src=${4:?}
app_id=io.github.driveduel.DriveDuel

meson=$(command -v meson 2>/dev/null)
if [ -z "$meson" ]; then
    echo "1..0 # SKIP meson is not in PATH"
    exit 0    # with "1..0 # SKIP", a skip to meson (77 would be an error)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/driveduel-install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/dest"

n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
    n=$((n + 1)); failed=$((failed + 1))
    echo "not ok $n - $1"
    if [ -s "$tmp/log" ]; then sed 's/^/# /' "$tmp/log" | tail -n 25; fi
}
# run NAME COMMAND...: passes when the command exits 0; output in $tmp/log.
run() {
    name=$1; shift
    if "$@" >"$tmp/log" 2>&1; then pass "$name"; else fail "$name (exit $?)"; fi
}

# --- install ---------------------------------------------------------------------
if DESTDIR="$dest" "$meson" install -C "$build" --no-rebuild --quiet >"$tmp/log" 2>&1; then
    pass "meson install into a DESTDIR"
else
    fail "meson install into a DESTDIR"
    echo "1..$n"
    exit 1
fi

cli=$(find "$dest" -path '*/bin/driveduel-cli' -type f | head -n 1)
if [ -z "$cli" ]; then
    : >"$tmp/log"; find "$dest" -type f >"$tmp/log"
    fail "driveduel-cli is installed"
    echo "1..$n"
    exit 1
fi
prefix=$(dirname "$(dirname "$cli")")
share="$prefix/share"
app="$prefix/bin/driveduel"

: >"$tmp/log"
for f in \
    "$app" "$cli" \
    "$share/locale/zh_TW/LC_MESSAGES/driveduel.mo" \
    "$share/applications/$app_id.desktop" \
    "$share/metainfo/$app_id.metainfo.xml" \
    "$share/glib-2.0/schemas/$app_id.gschema.xml" \
    "$share/icons/hicolor/scalable/apps/$app_id.svg" \
    "$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg" \
    "$share/man/man1/driveduel.1" "$share/man/man1/driveduel-cli.1" \
    "$share/bash-completion/completions/driveduel-cli" \
    "$share/driveduel/reference/intel-ssd-750-400gb.json" \
    "$share/driveduel/reference/plextor-m8peg-512gb.json"; do
    [ -s "$f" ] || echo "missing: ${f#"$dest"}" >>"$tmp/log"
done
if [ -s "$tmp/log" ]; then fail "every file is installed"; else pass "every file is installed under ${prefix#"$dest"}"; fi

# The installed icon names match the desktop file and metainfo.
: >"$tmp/log"
grep -q "^Icon=$app_id\$" "$share/applications/$app_id.desktop" || echo "desktop file: Icon is not $app_id" >>"$tmp/log"
grep -q "<id>$app_id</id>" "$share/metainfo/$app_id.metainfo.xml" || echo "metainfo: id is not $app_id" >>"$tmp/log"
grep -q '^Name\[zh_TW\]=' "$share/applications/$app_id.desktop" || echo "desktop file: no zh_TW name" >>"$tmp/log"
if [ -s "$tmp/log" ]; then fail "installed desktop file and metainfo"; else pass "installed desktop file and metainfo"; fi

if command -v xmllint >/dev/null 2>&1; then
    run "installed icons are well-formed SVG" xmllint --noout \
        "$share/icons/hicolor/scalable/apps/$app_id.svg" \
        "$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
fi
if command -v desktop-file-validate >/dev/null 2>&1; then
    run "installed desktop file validates" desktop-file-validate "$share/applications/$app_id.desktop"
fi
if command -v appstreamcli >/dev/null 2>&1; then
    run "installed metainfo validates" appstreamcli validate --no-net "$share/metainfo/$app_id.metainfo.xml"
fi

# --- the installed CLI -----------------------------------------------------------
# Its scratch files and history stay in the temporary folder.
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
export HOME="$tmp/home"
mkdir -p "$HOME"

if out=$("$cli" --version 2>&1) && [ "$out" = "driveduel-cli $version" ]; then
    pass "installed driveduel-cli --version says $version"
else
    echo "$out" >"$tmp/log"; fail "installed driveduel-cli --version says $version"
fi
run "installed driveduel-cli runs 1 s of 4K random writes on a file" \
    "$cli" run --rw randwrite --bs 4k --iodepth 8 --runtime 1 --span 16m --output "$tmp/run.json" "$tmp/target.img"
run "installed driveduel-cli analyzes the result" "$cli" analyze "$tmp/run.json"
run "installed driveduel-cli draws a chart report (PNG, PDF)" \
    "$cli" report --output-dir "$tmp/report" --format png,pdf "$tmp/run.json"
if ls "$tmp/report"/*.png >/dev/null 2>&1 && ls "$tmp/report"/*.pdf >/dev/null 2>&1; then
    pass "the report holds PNG and PDF files"
else
    ls -la "$tmp/report" >"$tmp/log" 2>&1; fail "the report holds PNG and PDF files"
fi

# Traditional Chinese from the installed catalogue.
# glibc 2.39 (Debian's from 2.37-8) ignores LANGUAGE under C.UTF-8 as under
# C: there a zh_TW locale is needed, used when one is installed.
zh_lc_all=C.UTF-8
if locale -a 2>/dev/null | grep -qix 'zh_TW\.utf-*8'; then zh_lc_all=zh_TW.UTF-8; fi
zh=$(LANGUAGE=zh_TW LC_ALL=$zh_lc_all TEXTDOMAINDIR="$share/locale" gettext -d driveduel "Commands:" 2>/dev/null)
LANGUAGE=zh_TW LC_ALL=$zh_lc_all DRIVEDUEL_LOCALEDIR="$share/locale" "$cli" --help >"$tmp/log" 2>&1
if [ -n "$zh" ] && [ "$zh" != "Commands:" ] && grep -qF "$zh" "$tmp/log"; then
    pass "installed driveduel-cli --help in zh_TW ($zh)"
else
    fail "installed driveduel-cli --help in zh_TW"
fi

# --- the installed app -----------------------------------------------------------
if out=$("$app" --version 2>&1) && echo "$out" | grep -qF "$version"; then
    pass "installed driveduel --version"
else
    echo "$out" >"$tmp/log"; fail "installed driveduel --version"
fi
run "installed driveduel --help" "$app" --help

# A window from the installed files: the schema compiled where it was
# installed (meson skips that under DESTDIR), the reference results from the
# installed data folder, two result files on the command line.
schemas="$share/glib-2.0/schemas"
shots="$build/tests/screenshots"
mkdir -p "$shots"
shot="$shots/comparison-zh_TW.png"
rm -f "$shot"
if ! command -v glib-compile-schemas >/dev/null 2>&1; then
    n=$((n + 1)); echo "ok $n # SKIP glib-compile-schemas is not installed"
elif ! glib-compile-schemas --strict "$schemas" >"$tmp/log" 2>&1; then
    fail "the installed schema compiles"
else
    GSETTINGS_SCHEMA_DIR="$schemas" GSETTINGS_BACKEND=memory GTK_A11Y=none NO_AT_BRIDGE=1 \
        GSK_RENDERER=cairo GDK_DEBUG=gl-disable LANGUAGE=zh_TW LC_ALL=$zh_lc_all FC_LANG=zh-tw \
        DRIVEDUEL_LOCALEDIR="$share/locale" DRIVEDUEL_DATADIR="$share/driveduel" \
        "$wrapper" "$app" --screenshot="$shot" \
        "$share/driveduel/reference/intel-ssd-750-400gb.json" \
        "$share/driveduel/reference/plextor-m8peg-512gb.json" >"$tmp/log" 2>&1
    status=$?
    n=$((n + 1))
    if [ "$status" -eq 77 ]; then
        echo "ok $n # SKIP no display and no Xvfb for the installed app"
    elif [ "$status" -eq 0 ] && [ "$(wc -c <"$shot" 2>/dev/null || echo 0)" -gt 20000 ]; then
        echo "ok $n - installed driveduel opens two results in zh_TW and saves $shot"
    else
        n=$((n - 1)); fail "installed driveduel opens two results in zh_TW (exit $status)"
    fi
fi

# A bad --tab: one sentence and exit 2, before any window (with a display;
# without one the app runs its headless review instead).
if [ -n "${wrapper:-}" ]; then
    GSETTINGS_SCHEMA_DIR="$schemas" GSETTINGS_BACKEND=memory GTK_A11Y=none NO_AT_BRIDGE=1 \
        GSK_RENDERER=cairo GDK_DEBUG=gl-disable DRIVEDUEL_DATADIR="$share/driveduel" \
        "$wrapper" "$app" --tab=charts >"$tmp/log" 2>&1
    status=$?
    if [ "$status" -eq 77 ]; then
        n=$((n + 1)); echo "ok $n # SKIP no display and no Xvfb for the installed app"
    elif [ "$status" -eq 2 ] && grep -q "unknown tab “charts”" "$tmp/log"; then
        pass "installed driveduel --tab=charts says the tab is unknown and exits 2"
    else
        fail "installed driveduel --tab=charts (exit $status)"
    fi
fi

# --- the result files' MIME type (check-appstream.sh checks the manifest) ---
if [ -f "$share/mime/packages/$app_id.xml" ]; then
    pass "the MIME type for result files is installed (share/mime/packages/$app_id.xml)"
else
    fail "no share/mime/packages/$app_id.xml"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
