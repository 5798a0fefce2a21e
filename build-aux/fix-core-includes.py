#!/usr/bin/env python3
# Writes every include of a core header the way src/core/meson.build's one
# include folder (src/core itself) wants it:
#
# - inside src/core, a header of the file's own folder, or of src/core's
#   root, by its name alone: "duel-series.h", "duel-error.h";
# - a header of another folder with that folder: "engine/duel-series.h",
#   "result/duel-result.h";
# - outside src/core (the app, the CLI, the charts, the tests, the fuzz
#   targets, the benchmarks), every core header with its folder:
#   "run/duel-run.h", and a root header by its name: "duel-error.h".
#
# A header is found by its file name, wherever the include said it was, so
# the script also mends includes after a header moved to another folder.
# Only quoted includes of headers that exist under src/core are touched,
# and only the spelling of the name: the line stays where it is. It can be
# run again at any time (a second run changes nothing) and names each file
# it changed.
#
# Usage: build-aux/fix-core-includes.py [--check] [SOURCE_ROOT]
#   --check  change nothing; list what would change, exit 1 if anything would
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import sys

INCLUDE = re.compile(r'^(\s*#\s*include\s+)"([^"]+)"(.*)$')
# Where code that includes core headers lives.
SCANNED = ("src", "tests")


def core_headers(core):
    """File name -> folder under src/core ("" for its root)."""
    headers = {}
    for folder, dirs, files in os.walk(core):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".h"):
                continue
            where = os.path.relpath(folder, core)
            where = "" if where == "." else where.replace(os.sep, "/")
            if name in headers:
                sys.exit(f"fix-core-includes: two core headers are called {name}: "
                         f"src/core/{headers[name] + '/' if headers[name] else ''}{name} and "
                         f"src/core/{where + '/' if where else ''}{name}")
            headers[name] = where
    return headers


def wanted(name, header_folder, file_folder):
    """How a file in @file_folder (None: outside src/core) writes @name."""
    if header_folder == "" or header_folder == file_folder:
        return name
    return f"{header_folder}/{name}"


def fix_file(path, headers, file_folder):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    changed = 0
    for i, line in enumerate(lines):
        m = INCLUDE.match(line)
        if m is None:
            continue
        written = m.group(2)
        name = written.rsplit("/", 1)[-1]
        if name not in headers:
            continue
        # A path that is not a core folder's (../, another tree) is left alone.
        prefix = written[: -len(name)].rstrip("/")
        if prefix and prefix not in set(headers.values()):
            continue
        spelling = wanted(name, headers[name], file_folder)
        if spelling != written:
            lines[i] = f'{m.group(1)}"{spelling}"{m.group(3)}'
            changed += 1
    return lines, changed


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    top = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    core = os.path.join(top, "src", "core")
    headers = core_headers(core)

    total_files = total_lines = 0
    for root in SCANNED:
        for folder, dirs, files in os.walk(os.path.join(top, root)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, core)
                if rel.startswith(".."):
                    file_folder = None
                else:
                    file_folder = os.path.dirname(rel).replace(os.sep, "/")
                lines, changed = fix_file(path, headers, file_folder)
                if not changed:
                    continue
                total_files += 1
                total_lines += changed
                print(f"{os.path.relpath(path, top)}: {changed} include(s)")
                if not check:
                    with open(path, "w", encoding="utf-8") as f:
                        f.write("\n".join(lines))
    verb = "would change" if check else "changed"
    print(f"fix-core-includes: {verb} {total_lines} include(s) in {total_files} file(s)")
    return 1 if check and total_files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
