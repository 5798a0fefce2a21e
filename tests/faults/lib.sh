# lib.sh — shared by the fault tests and tests/fuzz/make-seeds.sh (sourced)
#
# Every device and mount made here is recorded and undone by fault_cleanup,
# which runs on exit, on failure and on signals: loop devices detached,
# mounts unmounted (retried while a just-detached loop lets go of its file),
# the work directory removed. Only what this shell made is touched.

fault_loops=""
fault_dms=""
fault_mounts=""
fault_pids=""
fault_work=""

fault_skip() { echo "SKIP: $*"; exit 77; }
fault_fail() { echo "FAIL: $*"; exit 1; }
fault_note() { echo "# $*"; }

fault_cleanup() {
    set +e
    for pid in $fault_pids; do
        kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    done
    for dm in $fault_dms; do
        dmsetup remove --retry "$dm" 2>/dev/null
    done
    for dev in $fault_loops; do
        blockdev --setrw "$dev" 2>/dev/null
        losetup -d "$dev" 2>/dev/null
    done
    for mnt in $fault_mounts; do
        i=0
        while mountpoint -q "$mnt" && ! umount "$mnt" 2>/dev/null && [ $i -lt 100 ]; do
            sleep 0.1; i=$((i + 1))
        done
        mountpoint -q "$mnt" && umount -l "$mnt"
    done
    [ -n "$fault_work" ] && rm -rf "$fault_work"
}

# fault_init NAME: a work directory on a real filesystem (O_DIRECT: not tmpfs).
fault_init() {
    fault_work=$(mktemp -d "/var/tmp/driveduel-$1.XXXXXX") || exit 1
    trap 'fault_cleanup' EXIT
    trap 'exit 1' INT TERM HUP
}

fault_need_root() {
    [ "$(id -u)" = 0 ] || fault_skip "needs root for loop devices and mounts"
    [ -e /dev/loop-control ] || fault_skip "no loop device support"
    for tool in losetup blockdev mkfs.ext4 mount umount mountpoint python3; do
        command -v $tool >/dev/null 2>&1 || fault_skip "$tool is not installed"
    done
}

# The functions below set a variable rather than print: a command
# substitution would run them in a subshell that forgets what to clean up.
# sh has no local variables: each function's own are prefixed (_fg_file…)
# so that they never overwrite a test's $file or $out.

# fault_loop FILE [losetup options]: sets $fault_dev to the new loop device.
fault_loop() {
    _fl_file=$1; shift
    fault_dev=$(losetup --find --show "$@" "$_fl_file") || fault_fail "losetup $_fl_file failed"
    fault_loops="$fault_dev $fault_loops"
}

# fault_unloop DEV: detach now (it is then forgotten by fault_cleanup).
fault_unloop() {
    losetup -d "$1"
    fault_loops=$(echo "$fault_loops" | sed "s#$1 ##")
}

# fault_have_dm: device-mapper works here (the kernel may lack it).
fault_have_dm() {
    command -v dmsetup >/dev/null 2>&1 && dmsetup targets 2>/dev/null | grep -q '^error'
}

# fault_dm NAME TABLE: a device-mapper device, removed by fault_cleanup.
fault_dm() {
    dmsetup create "$1" --table "$2" || fault_fail "dmsetup create $1 failed"
    fault_dms="$1 $fault_dms"
}

# fault_ext4 NAME SIZE: an ext4 on a loop device over a file, mounted at
# $fault_work/NAME, which $fault_mnt is set to.
fault_ext4() {
    truncate -s "$2" "$fault_work/$1.img"
    fault_loop "$fault_work/$1.img"
    mkfs.ext4 -q -F "$fault_dev" >/dev/null 2>&1 || fault_fail "mkfs.ext4 on $fault_dev failed"
    mkdir -p "$fault_work/$1"
    mount "$fault_dev" "$fault_work/$1" || fault_fail "mounting $fault_dev failed"
    fault_mounts="$fault_work/$1 $fault_mounts"
    fault_mnt=$fault_work/$1
}

# fault_bg CMD...: runs CMD in the background, recorded so a failing test
# still kills it; sets $fault_pid.
fault_bg() {
    "$@" &
    fault_pid=$!
    fault_pids="$fault_pid $fault_pids"
}

# fault_wait_for_file FILE TIMEOUT_S: waits until FILE exists and is not
# empty (e.g. the run has saved its first checkpoint).
fault_wait_for_file() {
    _fw_i=0
    while [ ! -s "$1" ] && [ $_fw_i -lt $(($2 * 10)) ]; do sleep 0.1; _fw_i=$((_fw_i + 1)); done
    [ -s "$1" ]
}

# fault_wait_running RESULT [ROWS]: waits (up to 60 s) until the run's
# checkpoint loads with ROWS series rows (default 10, a second of the
# tests' 100 ms intervals, the least the checks expect), so the sabotage that
# follows hits a run that has opened its target and done I/O. A fixed sleep
# raced a slow start on a busy machine: the target shrank before it was
# opened and the run then simply used the smaller size. (The first save,
# before any I/O, holds no rows, so the file alone proves nothing.)
fault_wait_running() {
    _fr_i=0
    while ! "$fault_checker" "$1" --min-rows "${2:-10}" >/dev/null 2>&1 && [ $_fr_i -lt 600 ]; do
        sleep 0.1; _fr_i=$((_fr_i + 1))
    done
    "$fault_checker" "$1" --min-rows "${2:-10}" >/dev/null 2>&1 ||
        fault_fail "the run's checkpoint $1 held no ${2:-10} rows within 60 s"
}

# ---- checks: each prints "ok"/"not ok"; fault_done fails if any failed ----

fault_failures=0

# fault_check DESCRIPTION COMMAND...
fault_check() {
    _fc_desc=$1; shift
    if "$@"; then
        echo "ok - $_fc_desc"
    else
        echo "not ok - $_fc_desc"
        fault_failures=$((fault_failures + 1))
    fi
}

# fault_grep DESCRIPTION FILE EXTENDED-REGEX: the file (e.g. the CLI's stderr) matches.
fault_grep() {
    _fg_desc=$1; _fg_file=$2; _fg_regex=$3
    if grep -Eq -- "$_fg_regex" "$_fg_file"; then
        echo "ok - $_fg_desc"
    else
        echo "not ok - $_fg_desc (no /$_fg_regex/ in: $(tr '\n' ' ' <"$_fg_file"))"
        fault_failures=$((fault_failures + 1))
    fi
}

# fault_loads DESCRIPTION FILE [check-result options]: the real loader opens it.
fault_loads() {
    _fl_desc=$1; shift
    if _fl_out=$("$fault_checker" "$@" 2>&1); then
        echo "ok - $_fl_desc"
        echo "$_fl_out" | sed 's/^/#   /'
    else
        echo "not ok - $_fl_desc"
        echo "$_fl_out" | sed 's/^/#   /'
        fault_failures=$((fault_failures + 1))
    fi
}

fault_done() {
    if [ $fault_failures -ne 0 ]; then
        echo "FAIL: $fault_failures check(s) failed"
        exit 1
    fi
    echo "PASS"
    exit 0
}

# fault_args CLI CHECKER: the programs under test, from meson.
fault_args() {
    fault_cli=${1:-${DRIVEDUEL_CLI:-}}
    fault_checker=${2:-}
    [ -x "$fault_cli" ] || fault_skip "driveduel-cli not found (give it as the first argument)"
    [ -x "$fault_checker" ] || fault_skip "check-result not found (give it as the second argument)"
}

# fault_cli_bg NAME ARGS...: `driveduel-cli run ARGS` in the background,
# stdout and stderr to $fault_work/NAME.out and NAME.err.
fault_cli_bg() {
    _fb_name=$1; shift
    fault_bg "$fault_cli" run "$@" >"$fault_work/$_fb_name.out" 2>"$fault_work/$_fb_name.err"
}

# fault_wait_cli: waits for $fault_pid; sets $fault_rc and prints the stderr.
fault_wait_cli() {
    wait "$fault_pid"
    fault_rc=$?
    fault_pids=$(echo "$fault_pids" | sed "s#$fault_pid ##")
}

# fault_show NAME: the CLI's stderr, as TAP comments.
fault_show() {
    sed 's/^/#   stderr: /' "$fault_work/$1.err"
}

# fault_grep_words DESCRIPTION FILE EXTENDED-REGEX: like fault_grep, but the
# quoted paths (“…”) are left out first, so a word in a path cannot match.
fault_grep_words() {
    _fg_desc=$1; _fg_file=$2; _fg_regex=$3
    if sed 's/“[^”]*”/“…”/g' "$_fg_file" | grep -Eq -- "$_fg_regex"; then
        echo "ok - $_fg_desc"
    else
        echo "not ok - $_fg_desc (no /$_fg_regex/ in: $(tr '\n' ' ' <"$_fg_file"))"
        fault_failures=$((fault_failures + 1))
    fi
}
