#!/bin/sh
# What a software centre, a desktop and Flathub read of Drive Duel (TAP):
# the metainfo, the desktop file, the result files' MIME type and the Flatpak
# manifest (docs/flatpak.md).
#
# - the metainfo passes `appstreamcli validate --pedantic --no-net` with no
#   issue but the app id's capitals (pedantic; the id is fixed) and, with an
#   appstreamcli older than 1.0 (Debian 12's 0.16), `unknown-tag developer`
#   (0.16 does not know <developer>, which Flathub requires);
# - it has <developer id>, no <developer_name>, <releases>, an OARS 1.1
#   rating, a launchable naming the desktop file, screenshots that are in
#   data/screenshots at the sizes given, and provides the MIME type;
# - the desktop file passes desktop-file-validate and lists the result type,
#   not application/json;
# - the MIME package is well-formed and, in a MIME database made from it and
#   shared-mime-info's own package alone (no other package on the machine
#   counts), GIO types result files (pretty, compact, without an extension,
#   one driveduel-cli imports) as the new type, and fio's JSON and other
#   JSON as application/json;
# - the Flatpak manifest: a current GNOME runtime, no --device=all or
#   --filesystem=host, every source pinned (git by commit, archives by
#   sha256), built without libnvme.
#
# Usage: check-appstream.sh SOURCE_ROOT METAINFO DESKTOP MIME_XML [DRIVEDUEL_CLI]
#   METAINFO, DESKTOP: the merged files (build tree or installed);
#   MIME_XML: the MIME package (source or installed).
# build-aux/flatpak/build-in-chroot.sh runs it on the files installed in /app.
set -u

src=${1:?usage: check-appstream.sh SOURCE_ROOT METAINFO DESKTOP MIME_XML [DRIVEDUEL_CLI]}
metainfo=${2:?}
desktop=${3:?}
mimexml=${4:?}
cli=${5:-}
app_id=io.github.driveduel.DriveDuel
result_type=application/x-driveduel-result+json
# What Flathub builds against today (docs/flatpak.md says how it was chosen).
runtime_version=51

if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is not installed"
    exit 0    # with "1..0 # SKIP", a skip to meson (77 would be an error)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/driveduel-appstream.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C.UTF-8

n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
    n=$((n + 1)); failed=$((failed + 1))
    echo "not ok $n - $1"
    if [ -s "$tmp/log" ]; then sed 's/^/# /' "$tmp/log" | tail -n 30; fi
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

# --- metainfo ----------------------------------------------------------------------
if command -v appstreamcli >/dev/null 2>&1; then
    as_version=$(appstreamcli --version 2>/dev/null | sed -n 's/^AppStream version: *//p' | head -n 1)
    allowed="cid-contains-uppercase-letter"
    case $as_version in
        0.*) allowed="$allowed unknown-tag:developer" ;;
    esac
    appstreamcli validate --pedantic --no-net "$metainfo" >"$tmp/validate" 2>&1
    status=$?
    # Issue lines: "P: ID:LINE: TAG ARGUMENT"
    awk -v allowed=" $allowed " '
        /^[EWIP]: / {
            tag = $3; arg = $4
            if (index(allowed, " " tag " ") || index(allowed, " " tag ":" arg " ")) next
            print "unexpected: " $0; bad = 1
        }' "$tmp/validate" >"$tmp/log"
    if [ "$status" -eq 0 ] && [ ! -s "$tmp/log" ]; then
        pass "appstreamcli $as_version validate --pedantic --no-net: nothing but$(echo " $allowed" | sed 's/ /, /g; s/^,//')"
    else
        cat "$tmp/validate" >>"$tmp/log"
        fail "appstreamcli $as_version validate --pedantic --no-net (exit $status)"
    fi
else
    skip "appstreamcli is not installed (package appstream)"
fi

python3 - "$metainfo" "$src" "$app_id" "$result_type" >"$tmp/log" 2>&1 <<'PY'
import struct, sys, xml.etree.ElementTree as ET
path, src, app_id, result_type = sys.argv[1:5]
root = ET.parse(path).getroot()
problems = []
def want(cond, what):
    if not cond: problems.append(what)
want(root.findtext("id") == app_id, "id is not " + app_id)
want(root.find("developer_name") is None, "<developer_name> is deprecated (Flathub refuses it)")
dev = root.find("developer")
want(dev is not None and dev.get("id") and dev.findtext("name"), "no <developer id=…><name>")
rel = root.findall("releases/release")
want(rel and all(r.get("version") and r.get("date") for r in rel), "no <releases> with version and date")
cr = root.find("content_rating")
want(cr is not None and cr.get("type") == "oars-1.1", "no <content_rating type=\"oars-1.1\"/>")
la = root.find("launchable")
want(la is not None and la.get("type") == "desktop-id" and la.text == app_id + ".desktop", "launchable is not " + app_id + ".desktop")
summary = root.findtext("summary") or ""
want("four" in summary and "two drives" not in summary, "summary does not say up to four drives: " + summary)
# Flathub's quality guidelines: a summary of at most 35 characters.
want(len(summary) <= 35, f"summary is {len(summary)} characters, over Flathub's 35: " + summary)
want(result_type in [m.text for m in root.findall("provides/mediatype")], "does not provide " + result_type)
shots = root.findall("screenshots/screenshot")
want(shots and sum(1 for s in shots if s.get("type") == "default") == 1, "not one default screenshot")
for s in shots:
    for img in s.findall("image"):
        name = img.text.rsplit("/", 1)[-1]
        try:
            with open(f"{src}/data/screenshots/{name}", "rb") as f:
                head = f.read(24)
            w, h = struct.unpack(">II", head[16:24])
            if (str(w), str(h)) != (img.get("width"), img.get("height")):
                problems.append(f"{name} is {w}x{h}, the metainfo says {img.get('width')}x{img.get('height')}")
        except OSError:
            problems.append(f"screenshot {name} is not in data/screenshots")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
if [ $? -eq 0 ]; then
    pass "metainfo: <developer id>, releases, OARS 1.1, launchable, screenshots in data/screenshots, provides $result_type"
else
    fail "metainfo contents"
fi

# --- desktop file ------------------------------------------------------------------
if command -v desktop-file-validate >/dev/null 2>&1; then
    if desktop-file-validate "$desktop" >"$tmp/log" 2>&1 && [ ! -s "$tmp/log" ]; then
        pass "desktop-file-validate"
    else
        fail "desktop-file-validate"
    fi
else
    skip "desktop-file-validate is not installed (package desktop-file-utils)"
fi
: >"$tmp/log"
mimetypes=$(sed -n 's/^MimeType=//p' "$desktop")
[ "$mimetypes" = "$result_type;" ] || echo "MimeType=$mimetypes, not $result_type; alone" >>"$tmp/log"
grep -q '^Comment=.*four' "$desktop" || echo "Comment does not say up to four drives" >>"$tmp/log"
if [ -s "$tmp/log" ]; then fail "desktop file: MimeType and Comment"; else pass "desktop file lists $result_type alone"; fi

# --- MIME type ---------------------------------------------------------------------
system_mime=/usr/share/mime/packages/freedesktop.org.xml
if ! command -v update-mime-database >/dev/null 2>&1 || [ ! -f "$system_mime" ]; then
    skip "update-mime-database or $system_mime missing (package shared-mime-info)"
elif ! command -v gio >/dev/null 2>&1; then
    skip "gio is not installed (package libglib2.0-bin)"
else
    if command -v xmllint >/dev/null 2>&1 && ! xmllint --noout "$mimexml" >"$tmp/log" 2>&1; then
        fail "MIME package is well-formed XML"
    fi
    db="$tmp/share/mime"
    mkdir -p "$db/packages" "$tmp/home" "$tmp/none"
    cp "$system_mime" "$db/packages/"
    cp "$mimexml" "$db/packages/$app_id.xml"
    # update-mime-database warns and goes on about a bad package: any output fails.
    # (XDG_DATA_DIRS: without it, it adds a note that $db is not searched.)
    if XDG_DATA_DIRS="$tmp/share" update-mime-database "$db" >"$tmp/log" 2>&1 && [ ! -s "$tmp/log" ] &&
        [ -f "$db/application/x-driveduel-result+json.xml" ] &&
        grep -qx "$result_type application/json" "$db/subclasses"; then
        pass "update-mime-database: $result_type, a sub-class of application/json"
    else
        cat "$db/subclasses" >>"$tmp/log" 2>/dev/null
        fail "update-mime-database with the MIME package"
    fi

    typeof () {
        env -i PATH="$PATH" HOME="$tmp/home" XDG_DATA_HOME="$tmp/none" XDG_DATA_DIRS="$tmp/share" \
            GIO_USE_VFS=local GIO_USE_VOLUME_MONITOR=unix \
            gio info -a standard::content-type "$1" 2>/dev/null |
            sed -n 's/^ *standard::content-type: //p'
    }
    samples="$tmp/samples"
    mkdir -p "$samples"
    cp "$src/data/reference/intel-ssd-750-400gb.json" "$samples/reference.json"
    cp "$src/data/reference/intel-ssd-750-400gb.json" "$samples/reference-no-extension"
    cp "$src/tests/data/eta/zram.json" "$samples/compact.json"
    cp "$src/tests/data/fio/randrw-qd16.json" "$samples/fio.json"
    printf '{\n  "format": "something-else",\n  "version": 1\n}\n' >"$samples/other.json"
    if [ -n "$cli" ]; then
        if env HOME="$tmp/home" XDG_DATA_HOME="$tmp/none" "$cli" import "$samples/fio.json" \
                --output "$samples/imported.json" >"$tmp/log" 2>&1; then
            pass "driveduel-cli import writes a result file"
        else
            fail "driveduel-cli import writes a result file"
        fi
    fi
    : >"$tmp/log"
    for f in reference.json reference-no-extension compact.json imported.json; do
        [ -f "$samples/$f" ] || continue
        t=$(typeof "$samples/$f")
        [ "$t" = "$result_type" ] || echo "$f: $t, not $result_type" >>"$tmp/log"
    done
    for f in fio.json other.json; do
        t=$(typeof "$samples/$f")
        [ "$t" = application/json ] || echo "$f: $t, not application/json" >>"$tmp/log"
    done
    if [ -s "$tmp/log" ]; then
        fail "GIO's content types of result files and of other JSON"
    else
        pass "GIO: results (pretty, compact, no extension${cli:+, imported}) are $result_type; fio's JSON and other JSON application/json"
    fi
fi

# --- the Flatpak manifest ------------------------------------------------------------
python3 - "$src/build-aux/flatpak/$app_id.json" "$app_id" "$runtime_version" >"$tmp/log" 2>&1 <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
app_id, version = sys.argv[2], sys.argv[3]
problems = []
if m.get("id", m.get("app-id")) != app_id: problems.append("id is not " + app_id)
if m.get("command") != "driveduel": problems.append("command is not driveduel")
if (m.get("runtime"), m.get("runtime-version"), m.get("sdk")) != ("org.gnome.Platform", version, "org.gnome.Sdk"):
    problems.append("not org.gnome.Platform//%s with org.gnome.Sdk" % version)
args = m.get("finish-args", [])
for wide in ("--device=all", "--filesystem=host", "--filesystem=host-os", "--socket=session-bus",
             "--socket=system-bus", "--talk-name=org.freedesktop.Flatpak"):
    if wide in args: problems.append("finish-args has " + wide)
if "--system-talk-name=org.freedesktop.UDisks2" not in args: problems.append("no --system-talk-name=org.freedesktop.UDisks2")
mods = m.get("modules", [])
names = [mod.get("name") for mod in mods]
if not names or names[-1] != "driveduel": problems.append("driveduel is not the last module")
for gone in ("libnvme", "json-c"):
    if gone in names: problems.append("module %s is built (the app is built with -Dlibnvme=disabled)" % gone)
if mods and "-Dlibnvme=disabled" not in mods[-1].get("config-opts", []): problems.append("driveduel without -Dlibnvme=disabled")
for mod in mods:
    for s in mod.get("sources", []):
        t = s.get("type")
        if t == "git" and not re.fullmatch(r"[0-9a-f]{40}", s.get("commit", "")):
            problems.append("%s: git source without a pinned commit" % mod.get("name"))
        if t in ("archive", "file") and not re.fullmatch(r"[0-9a-f]{64}", s.get("sha256", "")):
            problems.append("%s: %s source without a sha256" % (mod.get("name"), t))
        if t not in ("git", "archive", "file", "dir", "patch"):
            problems.append("%s: source type %s" % (mod.get("name"), t))
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
if [ $? -eq 0 ]; then
    pass "Flatpak manifest: GNOME $runtime_version, no --device=all or --filesystem=host, sources pinned, no libnvme"
else
    fail "Flatpak manifest"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
