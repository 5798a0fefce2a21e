#!/usr/bin/python3
"""Walks Drive Duel's window through AT-SPI, as a screen reader would, and
prints one TAP line per check.

Usage: walk.py LABEL   (the app is already running on this session's bus)

Checks, over every object of the window (every page: GtkStack keeps them
all in the tree):
- every control (button, toggle, check box, drop-down, page tab, entry,
  expander…) has a name, and not GTK's type name ("GtkImage", "GtkExpander"),
  which is what GTK 4.8 says for a control that shows no text;
- an image that tells something (it has a description: a tooltip) has a name;
- a list row says something (its name or a label under it);
- no two buttons of the window's lists (the history's rows) share a name;
- the charts have a text alternative of their data (a description with
  "Data:"), at least one of them.
"""
import re
import sys
import time

import pyatspi

CONTROLS = {
    "push button", "toggle button", "check box", "radio button", "combo box",
    "menu item", "page tab", "link", "slider", "spin button", "entry", "text",
    "password text", "switch", "toggle", "expander", "tree item",
}
TYPE_NAME = re.compile(r"^(Gtk|Adw|Duel)[A-Z][A-Za-z]*$")
label = sys.argv[1] if len(sys.argv) > 1 else ""
n = 0


def tap(ok, what):
    global n
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s%s" % (n, label, what))


def find_window(timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is None or "driveduel" not in (app.name or ""):
                continue
            for j in range(app.childCount):
                frame = app.getChildAtIndex(j)
                if frame is not None and frame.getRoleName() == "frame":
                    return frame
        time.sleep(0.5)
    return None


def where(obj):
    parts = []
    while obj is not None and obj.getRoleName() not in ("frame", "application") and len(parts) < 5:
        name = obj.name or ""
        parts.append("%s%s" % (obj.getRoleName(), (" “%s”" % name) if name else ""))
        obj = obj.parent
    return " < ".join(parts)


def has_text(obj, depth=0):
    if depth > 12:
        return False
    if obj.getRoleName() == "label" and (obj.name or "").strip():
        return True
    return any(has_text(obj.getChildAtIndex(i), depth + 1)
               for i in range(obj.childCount) if obj.getChildAtIndex(i) is not None)


def unnamed(name):
    return not name.strip() or TYPE_NAME.match(name.strip()) is not None


problems = []
row_buttons = {}
charts = []


def walk(obj, in_row=False):
    role = obj.getRoleName()
    name = obj.name or ""
    description = obj.description or ""
    if role in CONTROLS and unnamed(name):
        problems.append("a %s with no name (%s)" % (role, where(obj)))
    elif role == "image" and description and unnamed(name):
        problems.append("an image that tells “%s” with no name (%s)" % (description, where(obj)))
    elif role == "list item" and unnamed(name) and not has_text(obj):
        problems.append("a list row that says nothing (%s)" % where(obj))
    if role == "image" and ("Data:" in description or "資料：" in description):
        charts.append(name)
    # A menu button is two: its own, and the button in it that takes the
    # focus, under the same name; the one a keyboard reaches counts.
    if in_row and role == "push button" and not unnamed(name) and \
            obj.getState().contains(pyatspi.STATE_FOCUSABLE):
        row_buttons.setdefault(name, []).append(where(obj))
    for i in range(obj.childCount):
        child = obj.getChildAtIndex(i)
        if child is not None:
            walk(child, in_row or role == "list item")


window = find_window(120)
if window is None:
    print("1..1")
    tap(False, "the window is on the accessibility bus")
    sys.exit(1)
# The window is drawn and its lists filled: the history's rows and the
# compared results appear once loaded (a cap, not a wait for time).
end = time.monotonic() + 120
while time.monotonic() < end:
    charts.clear()
    problems.clear()
    row_buttons.clear()
    walk(window)
    if charts and row_buttons:
        break
    time.sleep(1)

print("1..4")
for p in problems:
    print("# " + p)
tap(not problems, "every control, telling image and list row has a name (%d without)" % len(problems))
same = {k: v for k, v in row_buttons.items() if len(v) > 1}
for k, v in same.items():
    print("# %d buttons named “%s”" % (len(v), k))
tap(bool(row_buttons) and not same, "the rows' buttons are told apart by their names (%d)" % len(row_buttons))
for c in charts:
    print("# chart “%s” has its data as text" % c)
tap(bool(charts), "the charts have a text alternative of their data (%d)" % len(charts))
tap(window.name not in ("", None), "the window is named “%s”" % window.name)
