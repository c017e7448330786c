# Shared helpers of the mpirun tests; sourced by each test/launcher/*.sh.
#
# Each test runs mpirun in the background (to know its pid), collects its
# exit status, stdout and stderr, and at the end checks that nothing is
# left behind: no process carrying the test's mark, and none of the
# entries a job of one of its mpiruns could leave in /tmp or /dev/shm
# (mpirun.<pid>.*, rdmpi-mpirun.<pid>.*) nor any new PMIx file. Matching
# by name keeps the check exact while other tests run at the same time.

set -u

builddir=${abs_top_builddir:-$(pwd)}
MPIRUN=$builddir/mpirun/mpirun
CLIENT=$builddir/test/launcher/boot_client
. "${srcdir:-.}/test/launcher/report.sh"
need_built check "$MPIRUN" "$CLIENT"
PATH=$builddir/mpirun:$PATH
export PATH

TEST_NAME=$(basename "$0" .sh)
MARK=lt-$TEST_NAME-$$                 # on every rank's command line
T=$builddir/test/launcher/$TEST_NAME.dir.$$
rm -rf "$T"
mkdir -p "$T"
FAILS=0
MPIRUN_PIDS=""

ls -A /tmp >"$T/tmp.before" 2>/dev/null
ls -A /dev/shm >"$T/shm.before" 2>/dev/null

# run_mpirun [mpirun args...]: runs mpirun with stdin from $IN (default
# /dev/null), stdout and stderr to $T/out and $T/err; sets RC, ELAPSED (ms).
# A run that is still going after RUN_LIMIT seconds (default 120) is a
# hang: a watchdog sends mpirun SIGTERM (and SIGKILL 10 s later), says so
# as a failure, and the test goes on instead of stalling make check.
run_mpirun() {
    local start dog
    start=$(now_ms)
    "$MPIRUN" "$@" <"${IN:-/dev/null}" >"$T/out" 2>"$T/err" &
    MPIRUN_PID=$!
    MPIRUN_PIDS="$MPIRUN_PIDS $MPIRUN_PID"
    rm -f "$T/watchdog"
    (
        s=
        trap 'kill $s 2>/dev/null; exit 0' TERM
        sleep "${RUN_LIMIT:-120}" &
        s=$!
        wait $s
        echo "mpirun $* still running after ${RUN_LIMIT:-120} s" >"$T/watchdog"
        kill -TERM "$MPIRUN_PID" 2>/dev/null
        sleep 10 &
        s=$!
        wait $s
        kill -KILL "$MPIRUN_PID" 2>/dev/null
    ) &
    dog=$!
    wait $MPIRUN_PID
    RC=$?
    kill -TERM $dog 2>/dev/null
    wait $dog 2>/dev/null
    ELAPSED=$(($(now_ms) - start))
    if [ -s "$T/watchdog" ]; then
        fail "hang: $(cat "$T/watchdog")"
    fi
}

# expect_rc WHAT N: the last run exited with N.
expect_rc() {
    if [ "$RC" -eq "$2" ]; then
        pass "$1: exit status $RC"
    else
        fail "$1: exit status $RC, expected $2"
        sed 's/^/    stderr: /' "$T/err" | head -20
    fi
}

# expect_grep WHAT FILE PATTERN: an extended regexp matches a line of FILE.
expect_grep() {
    if grep -Eq -- "$3" "$2"; then
        pass "$1"
    else
        fail "$1: no line matching '$3' in $(basename "$2")"
        sed 's/^/    | /' "$2" | head -20
    fi
}

# expect_no_grep WHAT FILE PATTERN: no line of FILE matches the extended regexp.
expect_no_grep() {
    if ! grep -Eq -- "$3" "$2"; then
        pass "$1"
    else
        fail "$1: unexpected lines in $(basename "$2"):"
        grep -E -- "$3" "$2" | head -20 | sed 's/^/    | /'
    fi
}

# Lines of $T/out (sorted) must equal the arguments, one per line.
expect_out_sorted() {
    local what=$1
    shift
    printf '%s\n' "$@" | sort >"$T/expected"
    sort "$T/out" >"$T/got"
    if cmp -s "$T/expected" "$T/got"; then
        pass "$what"
    else
        fail "$what: stdout differs (expected vs got):"
        diff "$T/expected" "$T/got" | head -20 | sed 's/^/    /'
    fi
}

# The leftover check; ends the test with its status.
finish() {
    local left i
    # Everything mpirun started must be gone once mpirun has returned; a
    # process already killed may take a moment to disappear.
    for i in 1 2 3 4 5 6 7 8 9 10; do
        left=$(pgrep -f -- "$MARK" || true)
        [ -z "$left" ] && break
        sleep 0.2
    done
    if [ -n "$left" ]; then
        fail "processes left behind:"
        ps -o pid,ppid,stat,args -p "$(echo $left | tr ' ' ',')" | sed 's/^/    /'
        kill -9 $left 2>/dev/null
    else
        pass "no process left behind"
    fi

    ls -A /tmp >"$T/tmp.after" 2>/dev/null
    ls -A /dev/shm >"$T/shm.after" 2>/dev/null
    # Only what appeared during the test: an older job's leftovers may
    # carry a pid that our mpirun reused.
    comm -13 "$T/tmp.before" "$T/tmp.after" >"$T/tmp.new"
    comm -13 "$T/shm.before" "$T/shm.after" >"$T/shm.new"
    left=""
    for p in $MPIRUN_PIDS; do
        left="$left $(grep -hE "^(mpirun|rdmpi-mpirun)\.$p\." "$T/tmp.new" "$T/shm.new")"
    done
    left="$left $(comm -13 "$T/tmp.before" "$T/tmp.after" | grep -i pmix)"
    left="$left $(comm -13 "$T/shm.before" "$T/shm.after" | grep -i pmix)"
    left=$(echo $left)
    if [ -n "$left" ]; then
        fail "files left behind in /tmp or /dev/shm: $left"
    else
        pass "no file left behind in /tmp or /dev/shm"
    fi

    verdict
}
