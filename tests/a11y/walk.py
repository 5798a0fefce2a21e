#!/usr/bin/python3
"""Walks Drive Duel's window through AT-SPI, as a screen reader would, and
prints one TAP line per check.

Usage: walk.py LABEL   (the app is already running on this session's bus)

Checks, over every object of the window, on every page and every tab of
the Compare page: each is shown in turn by clicking its tab through AT-SPI,
as a screen reader's user would (GTK 4.8 keeps every page of a GtkStack in
the tree; later GTK only the page shown):
- every control (button, toggle, check box, drop-down, page tab, entry,
  expander…) has a name, and not GTK's type name ("GtkImage", "GtkExpander"),
  which is what GTK 4.8 says for a control that shows no text;
- an image that tells something (it has a description: a tooltip) has a name;
- a list row says something (its name or a label under it);
- no two buttons of the window's lists (the history's rows) share a name;
- the charts have a text alternative of their data (a description with
  "Data:"), at least one of them;
- the dialogs a person opens from the window (the export dialog, the
  question before a run is deleted, Preferences), each opened and closed
  through AT-SPI as a screen reader's user would, meet the first check too.
"""
import gettext
import os
import re
import sys
import time

import pyatspi
from gi.repository import Gio, GLib

APP_ID = "io.github.driveduel.DriveDuel"

# at-spi2-core 2.5x calls a push button "button".
CONTROLS = {
    "push button", "button", "toggle button", "check box", "radio button", "combo box",
    "menu item", "page tab", "link", "slider", "spin button", "entry", "text",
    "password text", "switch", "toggle", "expander", "tree item",
}
TYPE_NAME = re.compile(r"^(Gtk|Adw|Duel)[A-Z][A-Za-z]*$")
label = sys.argv[1] if len(sys.argv) > 1 else ""
n = 0
# The window's words in the language it runs in, to find a control by name.
catalog = gettext.translation("driveduel", os.environ.get("DRIVEDUEL_LOCALEDIR"), fallback=True)


gtk_catalog = gettext.translation("gtk40", fallback=True)
adw_catalog = gettext.translation("libadwaita", fallback=True)


def words(msgid, domain=catalog):
    """A control's name as GTK gives it: the translation, mnemonic taken out."""
    return domain.gettext(msgid).replace("_", "")


# AtspiError's codes: the app gone (0) is a failure of its own; a call on
# an object that is no longer there fails over the bus (IPC, 1), with a
# message in the session's language.
ATSPI_ERROR_IPC = 1


def vanished(error):
    """An object GTK dropped between being listed and being asked (a
    list reloaded, a chart rebuilt): gone from the tree, not a fault."""
    return error.domain == "atspi_error" and error.code == ATSPI_ERROR_IPC


class Vanished(Exception):
    pass


def tap(ok, what):
    global n
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s%s" % (n, label, what))


def find_window(timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            try:
                app = desktop.getChildAtIndex(i)
                if app is None or "driveduel" not in (app.name or ""):
                    continue
                for j in range(app.childCount):
                    frame = app.getChildAtIndex(j)
                    if frame is not None and frame.getRoleName() == "frame":
                        return frame
            except GLib.GError as error:
                # An entry of an app gone, or registered anew: the next look.
                if error.domain != "atspi_error":
                    raise
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


def garbled(name):
    """A name as GTK 4.8 makes it for a button of an icon and a mnemonic
    label: the mark read aloud, the words twice ("_Start Run Start Run")."""
    words_of = name.split()
    half = len(words_of) // 2
    doubled = half > 0 and len(words_of) % 2 == 0 and \
        [w.replace("_", "") for w in words_of[:half]] == words_of[half:]
    return doubled or re.search(r"(^|[\s(])_\w", name) is not None


problems = []
row_buttons = {}
charts = []


def walk(obj, in_row=False):
    try:
        walk_one(obj, in_row)
    except GLib.GError as error:
        if not vanished(error):
            raise
        raise Vanished() from error


def walk_one(obj, in_row):
    role = obj.getRoleName()
    name = obj.name or ""
    description = obj.description or ""
    if role in CONTROLS and unnamed(name):
        problems.append("a %s with no name (%s)" % (role, where(obj)))
    elif role in CONTROLS and garbled(name):
        problems.append("a %s named “%s” (%s)" % (role, name, where(obj)))
    elif role == "image" and description and unnamed(name):
        problems.append("an image that tells “%s” with no name (%s)" % (description, where(obj)))
    elif role == "list item" and unnamed(name) and not has_text(obj):
        problems.append("a list row that says nothing (%s)" % where(obj))
    if role == "image" and ("Data:" in description or "資料：" in description):
        charts.append(name)
    # A menu button is two: its own, and the button in it that takes the
    # focus, under the same name; the one a keyboard reaches counts.
    if in_row and role in ("push button", "button") and not unnamed(name) and \
            obj.getState().contains(pyatspi.STATE_FOCUSABLE):
        row_buttons.setdefault(name, []).append(where(obj))
    for i in range(obj.childCount):
        child = obj.getChildAtIndex(i)
        if child is not None:
            walk(child, in_row or role == "list item")


def find_all(obj, role, found):
    """The objects of @role under @obj; one that vanished while looked
    at is not there."""
    try:
        if obj.getRoleName() == role:
            found.append(obj)
        children = [obj.getChildAtIndex(i) for i in range(obj.childCount)]
    except GLib.GError as error:
        if not vanished(error):
            raise
        return found
    for child in children:
        if child is not None:
            find_all(child, role, found)
    return found


def tabs_of(tab_list):
    return [t for t in (tab_list.getChildAtIndex(i) for i in range(tab_list.childCount))
            if t is not None and t.getRoleName() == "page tab"]


def clickable(obj):
    try:
        action = obj.queryAction()
    except NotImplementedError:
        return None
    for k in range(action.nActions):
        if action.getName(k) in ("click", "activate", "press", "toggle"):
            return lambda: action.doAction(k)
    return None


def find_clickable(obj, roles, name):
    """The control named @name a click reaches (a menu button is two
    under one name: the one with the action)."""
    try:
        if obj.getRoleName() in roles and (obj.name or "") == name and on_screen(obj) and clickable(obj):
            return obj
        children = [obj.getChildAtIndex(i) for i in range(obj.childCount)]
    except GLib.GError as error:
        if not vanished(error):
            raise
        return None
    for child in children:
        found = find_clickable(child, roles, name) if child is not None else None
        if found is not None:
            return found
    return None


def click(obj):
    clickable(obj)()


def show(tab):
    """Clicks a page tab and waits until it is the selected one (a cap,
    not a wait for time)."""
    click(tab)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if tab.getState().contains(pyatspi.STATE_SELECTED):
            return True
        time.sleep(0.2)
    return False


def walk_shown(window):
    """Walks what is on screen now; a problem, a row's button or a chart
    met on two pages (GTK 4.8 shows them all) counts once."""
    before, buttons_before = list(problems), dict(row_buttons)
    # A walk that met an object which vanished under it (the window
    # changed while read) is walked again, whole, as a reader would.
    for attempt in range(10):
        problems.clear()
        row_buttons.clear()
        charts_before = list(charts)
        try:
            walk(window)
            break
        except Vanished:
            charts[:] = charts_before
            time.sleep(0.5)
    else:
        problems.append("the window kept changing under every one of 10 walks")
    problems[:0] = [p for p in before if p not in problems]
    for name, places in buttons_before.items():
        if len(places) > len(row_buttons.get(name, [])):
            row_buttons[name] = places


def on_screen(obj):
    """GTK 4.8 reports no object as showing: visible is what it has."""
    state = obj.getState()
    if reports_showing:
        return state.contains(pyatspi.STATE_SHOWING)
    return state.contains(pyatspi.STATE_VISIBLE)


def page_of(obj):
    """The name of the window's page @obj is on (its stack page carries the
    page's name), or None."""
    obj = obj.parent
    while obj is not None and obj.getRoleName() not in ("frame", "application"):
        if obj.getRoleName() not in ("page tab", "page tab list") and obj.name in page_names:
            return obj.name
        obj = obj.parent
    return None


DIALOG_ROLES = ("dialog", "alert", "file chooser")


def open_dialog():
    """The dialog on screen: a window of the app's own other than the main
    one (GTK 4.8, libadwaita 1.2), or a dialog inside the window (1.5 on)."""
    app = window.parent
    for i in range(app.childCount):
        top = app.getChildAtIndex(i)
        if top is not None and top.getRoleName() in ("frame", "window") + DIALOG_ROLES and \
                top.name != window.name and on_screen(top):
            return top
    found = [d for role in DIALOG_ROLES for d in find_all(window, role, []) if on_screen(d)] \
        if reports_showing else []
    return found[0] if found else None


def wait_for(what):
    # Each look walks the tree over the bus: not too often for an app
    # slowed by a sanitizer.
    end = time.monotonic() + 60
    while time.monotonic() < end:
        found = what()
        if found:
            return found
        time.sleep(0.5)
    return None


def walk_dialog(what, openers, closer):
    """Opens a dialog by @openers in turn (a click on a control of that
    name, or the app's action), walks it and closes it with a button named
    one of @closer."""
    for roles, name in openers:
        if roles == "app action":
            # What a desktop's menus and jump lists do: the app's action
            # over its session bus.
            bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
            bus.call_sync(APP_ID, "/" + APP_ID.replace(".", "/"), "org.gtk.Actions", "Activate",
                          GLib.Variant("(sava{sv})", (name, [], {})), None, Gio.DBusCallFlags.NONE, -1, None)
            continue
        opener = wait_for(lambda: find_clickable(window, roles, name) or
                          (open_dialog() and find_clickable(open_dialog(), roles, name)))
        if opener is None:
            problems.append("%s: no control named “%s” to open it" % (what, name))
            return
        click(opener)
    dialog = wait_for(open_dialog)
    if dialog is None:
        problems.append("%s did not open" % what)
        return
    # Its controls, once drawn (a cap, not a wait for time).
    wait_for(lambda: find_all(dialog, "push button", []) or find_all(dialog, "button", []))
    before, buttons = len(problems), dict(row_buttons)
    for attempt in range(10):
        del problems[before:]
        try:
            walk(dialog)
            break
        except Vanished:
            time.sleep(0.5)
    else:
        problems.append("it kept changing under every one of 10 walks")
    # A dialog's rows are told apart by their titles: the check of the
    # rows' buttons is the history's.
    row_buttons.clear()
    row_buttons.update(buttons)
    for i in range(before, len(problems)):
        problems[i] = "%s: %s" % (what, problems[i])
    button = None
    for name in closer:
        button = button or find_clickable(dialog, ("push button", "button"), name)
    if button is None:
        problems.append("%s: no button named “%s” to close it" % (what, " / ".join(closer)))
        return
    click(button)
    if wait_for(lambda: open_dialog() is None) is None:
        problems.append("%s did not close" % what)


# The history's first run, whose question is asked and answered No.
def walk_window():
    """Finds the window and walks it, its pages, tabs and dialogs; the
    checks' findings go into problems, row_buttons and charts."""
    global window, reports_showing, page_tabs, page_names, shown_tabs, dialogs
    window = find_window(120)
    if window is None:
        print("1..1")
        tap(False, "the window is on the accessibility bus")
        sys.exit(1)
    # GTK 4.8 reports no object as showing (on_screen()).
    first_tab = find_all(window, "page tab", [])
    reports_showing = bool(first_tab) and first_tab[0].getState().contains(pyatspi.STATE_SHOWING)
    pages = find_all(window, "page tab list", [])
    page_tabs = tabs_of(pages[0]) if pages else []
    page_names = {t.name for t in page_tabs}
    # The history's rows and the compared results appear once loaded: the
    # History page is walked until its rows are there (a cap, not a wait for
    # time), then every page once, and every tab inside a page once.
    end = time.monotonic() + 120
    while page_tabs and time.monotonic() < end:
        show(page_tabs[-1])
        walk_shown(window)
        if row_buttons:
            break
        time.sleep(1)
    shown_tabs = set()

    for page in page_tabs:
        if not show(page):
            problems.append("the page tab “%s” is not selected once clicked" % page.name)
        walk_shown(window)
        # The tabs inside a page (Compare's charts), each shown in turn; not
        # the pages' own second switcher (the narrow window's bottom bar).
        for inner in find_all(window, "page tab list", []):
            if page_of(inner) != page.name:
                continue
            for tab in tabs_of(inner):
                if tab.name in page_names or tab.name in shown_tabs or not on_screen(tab):
                    continue
                shown_tabs.add(tab.name)
                show(tab)
                walk_shown(window)
    if not page_tabs:
        walk(window)
    charts[:] = sorted(set(charts))

    history = [t for t in tabs_of(find_all(window, "page tab list", [])[0])]
    show(history[-1])
    delete = [b for b in find_all(window, "push button", []) + find_all(window, "button", [])
              if (b.name or "").startswith(words("Delete “%s”").split("%s")[0]) and on_screen(b)]
    dialogs = [
        (words("Export Charts and Tables"), [(("push button", "button"), words("Export Charts and Tables"))],
         [words("_Cancel")]),
        # Through its action: GTK 4.24's menu items have no names on the bus
        # (their labels are not in the tree) to find them by.
        (words("_Preferences"), [("app action", "preferences")],
         # The window's close button: GTK's words (a window) or libadwaita's (a
         # dialog), in English where the C locale leaves them untranslated.
         [words("Close", gtk_catalog), words("Close", adw_catalog), "Close"]),
    ]
    if delete:
        dialogs.insert(1, (delete[0].name, [(("push button", "button"), delete[0].name)], [words("_Cancel")]))
    else:
        problems.append("no history row to delete")
    for what, openers, closer in dialogs:
        walk_dialog(what, openers, closer)


# A walk whose app entry on the accessibility bus went stale under it (the
# app alive: GTK 4.24 registers anew) starts again from the window, at most
# five times, 5 s apart (three, 2 s apart, all went stale once in the
# unstable chroot); an app that died is not found again and fails.
ATTEMPTS = 5
for attempt in range(ATTEMPTS):
    problems.clear()
    row_buttons.clear()
    charts.clear()
    try:
        walk_window()
        break
    except GLib.GError as error:
        if error.domain != "atspi_error" or error.code not in (0, ATSPI_ERROR_IPC) or attempt == ATTEMPTS - 1:
            raise
        print("# the window's entry on the accessibility bus went stale (%s): walked again" % error.message)
        time.sleep(5)

print("1..4")
for p in problems:
    print("# " + p)
tap(not problems, "every control, telling image and list row has a name, in the window and its "
    "%d dialogs (%d without)" % (len(dialogs), len(problems)))
same = {k: v for k, v in row_buttons.items() if len(v) > 1}
for k, v in same.items():
    print("# %d buttons named “%s”" % (len(v), k))
tap(bool(row_buttons) and not same, "the rows' buttons are told apart by their names (%d)" % len(row_buttons))
for c in charts:
    print("# chart “%s” has its data as text" % c)
tap(bool(charts), "the charts have a text alternative of their data (%d)" % len(charts))
tap(window.name not in ("", None), "the window is named “%s”" % window.name)
