#!/usr/bin/env python3
# check-import.py — `driveduel-cli import` never writes a file that the
# loader refuses: every kept fio input (the import fixtures, the fuzz corpus
# and every regression input) either imports into a file that
# `driveduel-cli analyze` opens, or fails with exit 1 and one sentence.
# The inputs of tests/fuzz are fio's JSON, optionally followed by a NUL byte
# and an IOPS log (what --iops-log reads). TAP output.
#
# Usage: check-import.py DRIVEDUEL_CLI SOURCE_ROOT
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import subprocess
import sys
import tempfile

cli, top = sys.argv[1], sys.argv[2]
inputs = []
for sub in ("tests/fuzz/regressions/fio-import", "tests/fuzz/corpus/fio-import"):
    d = os.path.join(top, sub)
    inputs += [os.path.join(d, n) for n in sorted(os.listdir(d))]
fixtures = os.path.join(top, "tests/data/fio")
for n in sorted(os.listdir(fixtures)):
    if n.endswith(".json"):
        log = os.path.join(fixtures, n[:-5] + "_iops.1.log")
        inputs.append((os.path.join(fixtures, n), log if os.path.exists(log) else None))

env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="C")
failures = 0
print("1..%d" % len(inputs))
with tempfile.TemporaryDirectory(prefix="duel-check-import-") as tmp:
    for number, item in enumerate(inputs, 1):
        if isinstance(item, tuple):
            json_path, log_path = item
            name = os.path.relpath(json_path, top)
        else:
            name = os.path.relpath(item, top)
            data = open(item, "rb").read()
            cut = data.find(b"\0")
            json_path = os.path.join(tmp, "fio.json")
            with open(json_path, "wb") as f:
                f.write(data if cut < 0 else data[:cut])
            log_path = None
            if cut >= 0:
                log_path = os.path.join(tmp, "job_iops.1.log")
                with open(log_path, "wb") as f:
                    f.write(data[cut + 1:])
        out = os.path.join(tmp, "imported.json")
        if os.path.exists(out):
            os.unlink(out)
        args = [cli, "import", json_path, "--output", out]
        if log_path:
            args += ["--iops-log", log_path]
        imp = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        problem = None
        if imp.returncode == 0:
            ana = subprocess.run([cli, "analyze", out], env=env, capture_output=True, text=True, timeout=120)
            if ana.returncode != 0:
                problem = "imported, but analyze refuses the file: " + ana.stderr.strip()
            verdict = "imports and loads"
        elif imp.returncode == 1:
            lines = imp.stderr.strip().splitlines()
            if os.path.exists(out):
                problem = "failed, but left %s behind" % out
            elif len(lines) != 1 or not lines[0].startswith("driveduel-cli: ") or lines[0][-1] not in ".?":
                problem = "failed without one sentence: %r" % imp.stderr
            verdict = "refused: " + (lines[0] if lines else "")
        else:
            problem = "exit %d: %s" % (imp.returncode, imp.stderr.strip())
        if problem:
            failures += 1
            print("not ok %d - %s: %s" % (number, name, problem))
        else:
            print("ok %d - %s: %s" % (number, name, verdict))
sys.exit(1 if failures else 0)
