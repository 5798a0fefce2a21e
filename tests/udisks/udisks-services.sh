# udisks-services.sh — what the UDisks tests share (sourced, POSIX sh)
#
# The system bus, udevd, polkitd and udisksd, each used when it runs and
# started otherwise; start_services records the pids of those it started
# in started_bus, started_udevd, started_polkitd, started_udisksd (and the
# socket it made in made_socket), and stop_services stops only those. The
# daemons' logs go to "$work". authorized and allow_open_device ask and
# tell polkit about $user. Then the TAP helpers: ok, not_ok (which
# shows "$work/err" and "$work/out"), check.
#
# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=sh disable=SC2154,SC2016  # work, user and the started_/made_ variables are the sourcing script's; sh -c gets $1 in single quotes

bus_socket=/run/dbus/system_bus_socket
udevd_bin=/lib/systemd/systemd-udevd
polkitd_bin=/usr/lib/polkit-1/polkitd
udisksd_bin=/usr/libexec/udisks2/udisksd

# A child of this shell, not yet reaped: its pid cannot have been reused.
running() { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
stop_pid() {
    [ -n "$1" ] || return 0
    kill -TERM "$1" 2>/dev/null
    _sp_i=0
    while running "$1" && [ $_sp_i -lt 50 ]; do sleep 0.1; _sp_i=$((_sp_i + 1)); done
    running "$1" && kill -KILL "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}

bus_answers() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1
}
has_owner() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
        "string:$1" 2>/dev/null | grep -q 'boolean true'
}
# wait_for SECONDS COMMAND...: until COMMAND succeeds. SECONDS is a cap for a
# daemon that hangs, not a time it must answer in: a loaded host may take
# tens of seconds to start one, so the callers give a minute.
wait_for() {
    _wf_n=$(($1 * 10)); shift
    while [ $_wf_n -gt 0 ]; do
        "$@" && return 0
        sleep 0.1; _wf_n=$((_wf_n - 1))
    done
    return 1
}
udevd_answers() { udevadm control --ping >/dev/null 2>&1; }

start_services() {
    if bus_answers; then
        echo "# using the system bus already running"
    else
        mkdir -p /run/dbus
        dbus-daemon --system --nofork --nopidfile >"$work/dbus.log" 2>&1 &
        started_bus=$!
        made_socket=$bus_socket
        wait_for 60 bus_answers || { echo "Bail out! the system bus did not start"; cat "$work/dbus.log"; exit 1; }
        echo "# started a system bus, pid $started_bus"
    fi

    if ! udevd_answers; then
        "$udevd_bin" >"$work/udevd.log" 2>&1 &
        started_udevd=$!
        wait_for 60 udevd_answers || { echo "Bail out! udevd did not start"; cat "$work/udevd.log"; exit 1; }
        echo "# started udevd, pid $started_udevd"
    fi

    # Started here rather than by bus activation: then this script knows its pid.
    if ! has_owner org.freedesktop.PolicyKit1; then
        "$polkitd_bin" --no-debug >"$work/polkitd.log" 2>&1 &
        started_polkitd=$!
        wait_for 60 has_owner org.freedesktop.PolicyKit1 ||
            { echo "Bail out! polkitd did not start"; cat "$work/polkitd.log"; exit 1; }
        echo "# started polkitd, pid $started_polkitd"
    fi

    if ! has_owner org.freedesktop.UDisks2; then
        "$udisksd_bin" >"$work/udisksd.log" 2>&1 &
        started_udisksd=$!
        wait_for 60 has_owner org.freedesktop.UDisks2 ||
            { echo "Bail out! udisksd did not start"; cat "$work/udisksd.log"; exit 1; }
        echo "# started udisksd, pid $started_udisksd"
    fi
}

# authorized ACTION: polkit lets $user do ACTION. UDisks checks
# open-device-system for a loop device, open-device for a removable one.
authorized() {
    runuser -u "$user" -- sh -c 'exec pkcheck --action-id "$1" --process $$' sh "$1" >/dev/null 2>&1
}

# allow_open_device: a polkit rule (made_rule, removed by the exit trap) that
# lets $user have UDisks open devices; back once polkitd has taken it.
allow_open_device() {
    made_rule=/etc/polkit-1/rules.d/00-driveduel-test-$user.rules
    cat >"$made_rule" <<EOF
// driveduel tests/udisks (user $user), removed when the test exits
polkit.addRule(function(action, subject) {
    if ((action.id == "org.freedesktop.udisks2.open-device" ||
         action.id == "org.freedesktop.udisks2.open-device-system") &&
        subject.user == "$user")
        return polkit.Result.YES;
});
EOF
    chmod 644 "$made_rule"
    # polkitd reloads its rules when the folder changes.
    wait_for 60 authorized org.freedesktop.udisks2.open-device-system ||
        { echo "Bail out! polkitd did not take the rule $made_rule"; exit 1; }
}

# In the exit trap: the daemons this script started, newest first.
stop_services() {
    stop_pid "$started_udisksd"
    stop_pid "$started_polkitd"
    stop_pid "$started_udevd"
    stop_pid "$started_bus"
    [ -n "$made_socket" ] && rm -f "$made_socket"
}

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
    n=$((n + 1)); failed=$((failed + 1))
    echo "not ok $n - $1"
    [ -s "$work/err" ] && sed 's/^/# stderr: /' "$work/err"
    [ -s "$work/out" ] && sed 's/^/# stdout: /' "$work/out"
}
# check DESCRIPTION COMMAND...: one TAP line.
check() {
    _c_what=$1; shift
    if "$@"; then ok "$_c_what"; else not_ok "$_c_what"; fi
}
