#!/bin/sh
# One command on a fresh Debian 12: install what Drive Duel needs, build it,
# and run the main job. With --no-run it stops after the build (CI uses that).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
builddir="$top/build"

sh "$top/build-aux/install-deps.sh"

if [ -f "$builddir/build.ninja" ]; then
    meson setup --reconfigure "$builddir" "$top"
else
    meson setup "$builddir" "$top"
fi
ninja -C "$builddir"

if [ "${1:-}" = "--no-run" ]; then
    exit 0
fi

# The main job: the app, showing the reference comparison until there is a
# history; without a display it runs the headless quick review on a scratch
# file in the user's cache directory instead.
exec meson devenv -C "$builddir" driveduel
