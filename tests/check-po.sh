#!/bin/sh
# The translations are complete and in step with the sources (TAP).
#
# - po/POTFILES.in is sorted, names files that exist, and names every file
#   with user-visible strings (_(), N_(), C_(), g_dngettext(), translatable="yes",
#   the desktop file, the metainfo and the schema);
# - xgettext extracts every message whole: a format macro such as
#   G_GUINT64_FORMAT inside _() cuts the msgid short (use PRIu64 and friends,
#   which gettext understands);
# - every language in LINGUAS passes `msgfmt --check` with no fuzzy and no
#   untranslated message;
# - each catalogue holds exactly the messages of a fresh template: none
#   missing, none left over;
# - with a build tree, the merged desktop file and metainfo carry the
#   translations.
#
# Usage: check-po.sh SOURCE_ROOT [BUILD_ROOT]
set -u

src=${1:?usage: check-po.sh SOURCE_ROOT [BUILD_ROOT]}
build=${2:-}
podir="$src/po"
package=driveduel

for tool in xgettext msgfmt msgmerge msgattrib; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "1..0 # SKIP $tool is not installed (package gettext)"
        exit 0    # with "1..0 # SKIP", a skip to meson (77 would be an error)
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/driveduel-po.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
    n=$((n + 1)); failed=$((failed + 1))
    echo "not ok $n - $1"
    if [ -s "$tmp/why" ]; then sed 's/^/# /' "$tmp/why"; fi
}
: >"$tmp/why"

# The msgids of a catalogue on stdin, one a line, continuation lines joined,
# the header left out (obsolete "#~" entries included).
msgids() {
    awk '
        function flush() { if (inid && id != "") print "msgid \"" id "\""; inid = 0; id = "" }
        { sub(/^#~ /, "") }
        /^msgid / { flush(); inid = 1; s = $0; sub(/^msgid "/, "", s); sub(/"$/, "", s); id = s; next }
        inid && /^"/ { s = $0; sub(/^"/, "", s); sub(/"$/, "", s); id = id s; next }
        { flush() }
        END { flush() }'
}

# --- POTFILES.in ---------------------------------------------------------------
grep -v '^[[:space:]]*#' "$podir/POTFILES.in" | sed '/^[[:space:]]*$/d' >"$tmp/potfiles"
if sort -c "$tmp/potfiles" 2>"$tmp/why"; then
    ok "POTFILES.in is sorted"
else
    not_ok "POTFILES.in is sorted"
fi

: >"$tmp/why"
while IFS= read -r f; do
    [ -f "$src/$f" ] || echo "listed but missing: $f" >>"$tmp/why"
done <"$tmp/potfiles"
if [ -s "$tmp/why" ]; then not_ok "every file in POTFILES.in exists"; else ok "every file in POTFILES.in exists"; fi

# Files that hold user-visible strings.
(
    cd "$src" || exit 1
    find src -name '*.[ch]' -print | while IFS= read -r f; do
        if grep -Eq '(^|[^A-Za-z0-9_])(_|N_|C_|NC_|Q_|g_dgettext|g_dngettext|g_dpgettext2|g_dcgettext)[[:space:]]*\(' "$f"; then
            echo "$f"
        fi
    done
    find ui -name '*.ui' -exec grep -l 'translatable="yes"' {} +
    ls data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml 2>/dev/null
) | sort -u >"$tmp/wanted"
comm -23 "$tmp/wanted" "$tmp/potfiles" | sed 's/^/not in POTFILES.in: /' >"$tmp/why"
if [ -s "$tmp/why" ]; then
    not_ok "POTFILES.in names every file with translatable strings"
else
    ok "POTFILES.in names every file with translatable strings"
fi

# --- a fresh template, with meson's glib preset ---------------------------------
: >"$tmp/why"
if (cd "$src" && xgettext --package-name="$package" -f po/POTFILES.in -D "$src" -o "$tmp/$package.pot" \
        --from-code=UTF-8 --add-comments \
        --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
        --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
        --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
        --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
        --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
        --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
        --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
        --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
        --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
        ) 2>"$tmp/xgettext.log"; then
    ok "xgettext extracts the template"
else
    cp "$tmp/xgettext.log" "$tmp/why"
    not_ok "xgettext extracts the template"
    echo "1..$n"
    exit 1
fi

grep 'ends in the middle of a directive' "$tmp/xgettext.log" |
    sed 's/: warning:.*//; s/$/: a format macro cuts this msgid short; use PRIu64, PRId64 or PRIx64 (<inttypes.h>)/' >"$tmp/why"
if [ -s "$tmp/why" ]; then
    not_ok "every msgid is extracted whole (no G_G*INT64_FORMAT inside _())"
else
    ok "every msgid is extracted whole (no G_G*INT64_FORMAT inside _())"
fi

# --- each language -----------------------------------------------------------------
languages=$(sed 's/#.*//' "$podir/LINGUAS" | tr -s ' \n' '  ')
: >"$tmp/why"
case " $languages " in
    *" zh_TW "*) ok "LINGUAS lists zh_TW" ;;
    *) not_ok "LINGUAS lists zh_TW" ;;
esac

for lang in $languages; do
    po="$podir/$lang.po"

    # msgfmt prints e.g. "827 translated messages, 3 fuzzy translations, 1 untranslated message."
    if msgfmt --check --statistics -o /dev/null "$po" 2>"$tmp/msgfmt.log"; then
        stats=$(grep 'translated message' "$tmp/msgfmt.log")
        case "$stats" in
            *fuzzy*|*untranslated*|"")
                { echo "$stats"; msgattrib --only-fuzzy --no-obsolete "$po"; msgattrib --untranslated --no-obsolete "$po"; } |
                    grep '^msgid\|^msgctxt\|translated' >"$tmp/why"
                not_ok "$lang.po: msgfmt --check, no fuzzy or untranslated message ($stats)" ;;
            *)
                : >"$tmp/why"
                ok "$lang.po: msgfmt --check, no fuzzy or untranslated message ($stats)" ;;
        esac
    else
        grep -v 'header field' "$tmp/msgfmt.log" >"$tmp/why"
        not_ok "$lang.po: msgfmt --check"
    fi

    # Against the fresh template: nothing missing, nothing obsolete.
    if msgmerge --quiet --no-fuzzy-matching --no-wrap -o "$tmp/$lang.merged.po" "$po" "$tmp/$package.pot" 2>"$tmp/why"; then
        msgattrib --untranslated --no-obsolete "$tmp/$lang.merged.po" | msgids | sed 's/^/missing: /' >"$tmp/why"
        msgattrib --only-obsolete "$tmp/$lang.merged.po" | msgids | sed 's/^/stale (not in the sources): /' >>"$tmp/why"
        if [ -s "$tmp/why" ]; then
            echo "(run: ninja -C BUILD $package-update-po, then translate)" >>"$tmp/why"
            not_ok "$lang.po holds exactly the messages of the sources"
        else
            ok "$lang.po holds exactly the messages of the sources"
        fi
    else
        not_ok "$lang.po merges with the template"
    fi
done

# --- the merged data files -----------------------------------------------------------
if [ -n "$build" ]; then
    : >"$tmp/why"
    desktop=$(ls "$build"/data/*.desktop 2>/dev/null | head -n 1)
    metainfo=$(ls "$build"/data/*.metainfo.xml 2>/dev/null | head -n 1)
    for lang in $languages; do
        if [ -z "$desktop" ] || ! grep -q "^Comment\[$lang\]=" "$desktop"; then
            echo "no Comment[$lang] in ${desktop:-the built desktop file}" >>"$tmp/why"
        fi
        if [ -z "$metainfo" ] || ! grep -q "<summary xml:lang=\"$lang\">" "$metainfo"; then
            echo "no <summary xml:lang=\"$lang\"> in ${metainfo:-the built metainfo}" >>"$tmp/why"
        fi
    done
    if [ -s "$tmp/why" ]; then
        not_ok "the built desktop file and metainfo are translated"
    else
        ok "the built desktop file and metainfo are translated"
    fi
fi

echo "1..$n"
[ "$failed" -eq 0 ]
