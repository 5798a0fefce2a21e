#!/bin/sh
# ssd-model.sh — start and stop the simulated SSD (duel-ssd-model) on a mount point
#
#   ssd-model.sh start MOUNTDIR [duel-ssd-model options…]
#       Mounts the model on MOUNTDIR (created if needed) in the background and
#       returns once MOUNTDIR/ssd.img is served. Its output goes to
#       MOUNTDIR.out, its process id to MOUNTDIR.pid. Exit 1 if it did not come up
#       (and then nothing is left mounted).
#   ssd-model.sh stop MOUNTDIR
#       Unmounts (fusermount3 -u, the model then writes its final --log and
#       exits), waits for the process; if it hangs it is killed and the mount
#       lazily detached. Always leaves MOUNTDIR unmounted; safe to call twice
#       or when start failed, so tests can call it from a trap.
#   ssd-model.sh abandon MOUNTDIR
#       For a mount a live process keeps open on purpose (a run that gave up
#       on a device that did not answer keeps its descriptor): detaches the
#       mount lazily and stops the model at once (TERM, then KILL), as the
#       unmount stop waits for could only come with that process's exit.
#   ssd-model.sh have-fuse
#       Exit 0 when FUSE can be used here (/dev/fuse, fusermount3), else 1.
#
# The program: $DUEL_SSD_MODEL, else duel-ssd-model next to this script, else
# on the PATH.
set -u

die() { echo "ssd-model.sh: $*" >&2; exit 1; }

model_program() {
    if [ -n "${DUEL_SSD_MODEL:-}" ]; then
        echo "$DUEL_SSD_MODEL"
    elif [ -x "$(dirname "$0")/duel-ssd-model" ]; then
        echo "$(dirname "$0")/duel-ssd-model"
    else
        command -v duel-ssd-model
    fi
}

have_fuse() {
    [ -c /dev/fuse ] && [ -r /dev/fuse ] && [ -w /dev/fuse ] && command -v fusermount3 >/dev/null 2>&1
}

is_mounted() {
    # /proc/self/mountinfo, field 5 is the mount point (spaces escaped as \040).
    _m=$(cd "$1" 2>/dev/null && pwd -P) || _m=$1
    awk -v m="$_m" '$5 == m { found = 1 } END { exit !found }' /proc/self/mountinfo 2>/dev/null
}

pid_alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

# The model's process id for MOUNTDIR: its pid file, else the launch's.
model_pid() {
    _pid=""
    [ -s "$1.pid" ] && _pid=$(cat "$1.pid")
    [ -s "$1.launch" ] && [ -z "$_pid" ] && _pid=$(cat "$1.launch")
    echo "$_pid"
}

do_stop() {
    mnt=${1%/}
    pid=$(model_pid "$mnt")
    if is_mounted "$mnt"; then
        fusermount3 -u "$mnt" 2>/dev/null || umount "$mnt" 2>/dev/null
    fi
    # Caps for a model that hangs (it writes its log as it exits), not times
    # it must keep: a loaded host may take many seconds. The unmount is tried
    # again while it is refused: a process that used the mount may still hold
    # it for a while after its exit (io_uring's exit work closes its files
    # once the requests in flight are done), and the model only exits once
    # unmounted.
    i=0
    while pid_alive "$pid" && [ $i -lt 1200 ]; do
        sleep 0.1; i=$((i + 1))
        if [ $((i % 5)) -eq 0 ] && is_mounted "$mnt"; then
            fusermount3 -u "$mnt" 2>/dev/null || umount "$mnt" 2>/dev/null
        fi
    done
    if pid_alive "$pid"; then
        kill -TERM "$pid" 2>/dev/null
        i=0
        while pid_alive "$pid" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        pid_alive "$pid" && kill -KILL "$pid" 2>/dev/null
    fi
    if is_mounted "$mnt"; then
        fusermount3 -u -z "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
    fi
    rm -f "$mnt.pid" "$mnt.launch"
    ! is_mounted "$mnt"
}

do_abandon() {
    mnt=${1%/}
    pid=$(model_pid "$mnt")
    if is_mounted "$mnt"; then
        fusermount3 -u -z "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
    fi
    if pid_alive "$pid"; then
        kill -CONT "$pid" 2>/dev/null
        kill -TERM "$pid" 2>/dev/null
        i=0
        while pid_alive "$pid" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        pid_alive "$pid" && kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$mnt.pid" "$mnt.launch"
    ! is_mounted "$mnt"
}

do_start() {
    mnt=${1%/}; shift
    have_fuse || die "FUSE is not available here (/dev/fuse, fusermount3)"
    prog=$(model_program) || die "duel-ssd-model not found (set DUEL_SSD_MODEL)"
    [ -x "$prog" ] || die "$prog is not executable"
    mkdir -p "$mnt" || die "cannot create $mnt"
    is_mounted "$mnt" && die "$mnt is already a mount point"
    rm -f "$mnt.pid"
    # No exec in a subshell: $! is the model itself.
    "$prog" --pid-file "$mnt.pid" "$@" "$mnt" </dev/null >"$mnt.out" 2>&1 &
    launched=$!
    echo "$launched" >"$mnt.launch"
    i=0
    while [ $i -lt 2400 ]; do
        if [ -s "$mnt.pid" ] && is_mounted "$mnt" && [ -f "$mnt/ssd.img" ]; then
            size=$(stat -c %s "$mnt/ssd.img" 2>/dev/null || echo 0)
            if [ "$size" -gt 0 ]; then
                echo "ssd-model.sh: serving $mnt/ssd.img ($size bytes), pid $launched"
                return 0
            fi
        fi
        if ! pid_alive "$launched"; then
            sed 's/^/ssd-model.sh: model: /' "$mnt.out" >&2
            do_stop "$mnt"
            die "the model exited before serving $mnt/ssd.img"
        fi
        sleep 0.05; i=$((i + 1))
    done
    sed 's/^/ssd-model.sh: model: /' "$mnt.out" >&2
    do_stop "$mnt"
    die "the model did not serve $mnt/ssd.img within 120 s"
}

[ $# -ge 1 ] || die "usage: ssd-model.sh start MOUNTDIR [options] | stop MOUNTDIR | abandon MOUNTDIR | have-fuse"
cmd=$1; shift
case $cmd in
    start) [ $# -ge 1 ] || die "start needs MOUNTDIR"; do_start "$@" ;;
    stop) [ $# -ge 1 ] || die "stop needs MOUNTDIR"; do_stop "$1" ;;
    abandon) [ $# -ge 1 ] || die "abandon needs MOUNTDIR"; do_abandon "$1" ;;
    have-fuse) have_fuse ;;
    *) die "unknown command $cmd" ;;
esac
