#!/usr/bin/env python3
# The core's floors hold (TAP): every include in src/core names the floor
# it reaches, and none reaches up or across.
#
# - includes are spelled as build-aux/fix-core-includes.py writes them: a
#   header of another core folder with its folder ("engine/duel-series.h"),
#   one of the file's own folder or of the root by its name;
# - a file of src/core includes only headers of its own folder or of a
#   lower floor (docs/architecture.md, "Floors"), never one of a folder on
#   its own floor or above. The build's one include folder (src/core) and
#   -Werror=implicit-function-declaration make every call to another file
#   go through such an include, so this is every arrow between floors.
#
# Usage: check-floors.py SOURCE_ROOT
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import subprocess
import sys

# Lowest first; folders on one floor do not use each other.
FLOORS = [
    [""],                  # the root: errors, JSON, numbers, text, files
    ["engine"],
    ["result"],
    ["device", "review"],
    ["analysis"],
    ["fio", "run"],
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main(top):
    core = os.path.join(top, "src", "core")
    floor_of = {folder: i for i, floors in enumerate(FLOORS) for folder in floors}
    results = []

    fixer = os.path.join(top, "build-aux", "fix-core-includes.py")
    run = subprocess.run([sys.executable, fixer, "--check", top], capture_output=True, text=True)
    results.append(("includes of core headers name their folder (build-aux/fix-core-includes.py --check)",
                    run.returncode == 0, run.stdout.splitlines()[:-1] + run.stderr.splitlines()))

    headers = {}
    folder_by_name = {}
    folders = set()
    for folder, dirs, files in os.walk(core):
        dirs.sort()
        where = os.path.relpath(folder, core)
        where = "" if where == "." else where.replace(os.sep, "/")
        folders.add(where)
        for name in files:
            if name.endswith(".h"):
                headers[(where, name)] = True
                folder_by_name[name] = where

    unknown = sorted(f"src/core/{f}/ has no floor in tests/check-floors.py" for f in folders if f not in floor_of)
    results.append(("every core folder has its floor", not unknown, unknown))

    wrong = []
    for folder, dirs, files in os.walk(core):
        dirs.sort()
        here = os.path.relpath(folder, core)
        here = "" if here == "." else here.replace(os.sep, "/")
        if here not in floor_of:
            continue
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m is None:
                        continue
                    written = m.group(1)
                    there, _, base = written.rpartition("/")
                    if not there:
                        # Its own folder's, the root's, or (misspelt: check 1
                        # says so) wherever a header of that name is.
                        if (here, base) in headers:
                            there = here
                        elif ("", base) not in headers:
                            there = folder_by_name.get(base, "")
                    if (there, base) not in headers or there == here:
                        continue
                    if there not in floor_of or floor_of[there] >= floor_of[here]:
                        at = f"src/core/{here + '/' if here else ''}{name}:{number}"
                        way = "across" if floor_of.get(there) == floor_of[here] else "up"
                        wrong.append(f"{at}: includes \"{written}\", {way} from {here or 'the root'}/ "
                                     f"to {there}/")
    results.append(("no include in src/core runs up a floor or across one", not wrong, wrong))

    for i, (what, ok, why) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
        for line in why:
            print(f"# {line}")
    print(f"1..{len(results)}")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check-floors.py SOURCE_ROOT")
    sys.exit(main(os.path.abspath(sys.argv[1])))
