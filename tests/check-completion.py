#!/usr/bin/env python3
# The bash completion offers what the CLI takes (TAP), read from the CLI's
# own help, so that a new command, option, preset or value cannot be
# forgotten there:
#
# - every command of `driveduel-cli --help`;
# - every long option of `driveduel-cli COMMAND --help`, and for run, of
#   `run --preset NAME --help` for every preset too;
# - every preset name, every access pattern, unit, format and chart style;
# - every option that takes a value ("--bs=SIZE") is one the completion
#   knows takes one, so that it does not offer options in its place.
#
# Usage: check-completion.py DRIVEDUEL-CLI COMPLETION-FILE
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import subprocess
import sys

cli, completion_path = sys.argv[1], sys.argv[2]
env = dict(os.environ, LC_ALL="C.UTF-8")
env.pop("LANGUAGE", None)
completion = open(completion_path, encoding="utf-8").read()
checks = []


def help_text(*args):
    return subprocess.run([cli, *args, "--help"], capture_output=True, text=True, env=env, check=True).stdout


def options(text):
    """Long options of a help text: name -> takes a value."""
    found = {}
    for match in re.finditer(r"^\s+(?:-\w, )?(--[a-z0-9-]+)(=\S+)?", text, re.M):
        found[match.group(1)] = match.group(2) is not None
    return found


def listed(text, after):
    """Names listed after @after up to the end of the sentence: "a, b or c"."""
    match = re.search(re.escape(after) + r"\s*([a-z0-9, -]+?)(?:\s*\(|\.|\n|$)", text)
    assert match, f"no list after {after!r}"
    return set(re.split(r",\s*|\s+or\s+", match.group(1).strip()))


def words_of(case_label):
    """The words a case of the completion offers ("--rw)": compgen -W "…")."""
    match = re.search(re.escape(case_label) + r'\)\s*\n\s*COMPREPLY=\(\$\(compgen -W "([^"]*)"', completion)
    assert match, f"no case {case_label!r} in the completion"
    return set(match.group(1).split())


def command_options(command):
    """The options the completion offers after COMMAND (its case of $command)."""
    match = re.search(r"^\s+(?:[a-z|]*\|)?" + command + r'(?:\|[a-z|]*)?\)\s*\n?\s*options="([^"]*)"', completion, re.M)
    assert match, f"no options for {command} in the completion"
    return set(match.group(1).split())


def check(ok, what, missing=()):
    checks.append((ok, what + (": missing " + ", ".join(sorted(missing)) if missing else "")))


top = help_text()
commands = set(re.findall(r"^  ([a-z]+)\s{2,}", top.split("Commands:")[1], re.M))
offered = set(re.search(r'local commands="([^"]*)"', completion).group(1).split())
check(commands <= offered and len(commands) > 0, f"the {len(commands)} commands are offered", commands - offered)

value_options = set()
value_case = re.search(r"\n\s+(--bs\|[^)]*)\)\s*\n\s*return ;;", completion)
assert value_case, "no case of options that take a value"
no_completion = set(re.sub(r"[\s\\]+", "", value_case.group(1)).split("|"))
cased = set(no_completion)
for label in re.findall(r"^\s+((?:--|-)[a-z0-9|-]+)\)", completion, re.M):
    cased |= set(label.split("|"))

run_help = help_text("run")
presets = set(re.findall(r"[a-z0-9-]+", run_help.split("NAME is one of:")[1].split("\n\n")[0].split("A preset run")[0]))
preset_options = {}
for preset in sorted(presets):
    preset_options.update(options(help_text("run", "--preset", preset)))
value_options |= {name for name, takes in preset_options.items() if takes}
check(set(preset_options) <= command_options("run"), f"the options of the {len(presets)} presets are offered after run",
      set(preset_options) - command_options("run"))
check(presets <= words_of("--preset") and len(presets) > 0, f"the {len(presets)} presets are offered",
      presets - words_of("--preset"))
patterns = listed(run_help, "Access pattern:")
check(patterns <= words_of("--rw"), "the access patterns are offered", patterns - words_of("--rw"))

for command in sorted(commands):
    text = help_text(command)
    mine = options(text)
    value_options |= {name for name, takes in mine.items() if takes}
    check(set(mine) <= command_options(command), f"{command}: its options are offered",
          set(mine) - command_options(command))
    if "--units=" in text:
        units = listed(text, "Rates in")
        units = {re.sub(r"\s.*", "", u) for u in units}
        check(units <= words_of("--units"), f"{command}: the units are offered", units - words_of("--units"))
    if "--format=" in text:
        formats = listed(text, "What to write:") - {"comma-separated"}
        check(formats <= words_of("--format|-f") and formats, f"{command}: the formats are offered",
              formats - words_of("--format|-f"))
    if "--style=" in text:
        styles = {"light", "dark"} & set(re.findall(r"[a-z]+", text.split("--style=")[1].split("\n")[0]))
        check(styles <= words_of("--style") and styles, f"{command}: the chart styles are offered",
              styles - words_of("--style"))

check(value_options <= cased, "every option that takes a value has its case (values, files, or none)",
      value_options - cased)

print(f"1..{len(checks)}")
for number, (ok, what) in enumerate(checks, 1):
    print(f"{'ok' if ok else 'not ok'} {number} - {what}")
sys.exit(0 if all(ok for ok, _ in checks) else 1)
