# Reporting helpers shared by the launcher and multihost test libraries
# (test/launcher/lib.sh, test/multihost/lib.sh): a check's verdict, a clock,
# and the stop when a program the test needs is not built.

# need_built TARGET FILE...: stops the test (a hard error) unless each FILE
# is built; TARGET is the make target that builds them.
need_built() {
    local target=$1 f
    shift
    for f in "$@"; do
        if [ ! -x "$f" ]; then
            echo "FAIL: $f is not built (run make $target)"
            exit 99
        fi
    done
}

fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}

pass() {
    echo "ok: $*"
}

now_ms() {
    date +%s%3N
}

# verdict: ends the test: PASS (and its directory $T removed) when no check
# failed, otherwise FAIL with the count, keeping $T to look at.
verdict() {
    if [ "$FAILS" -eq 0 ]; then
        rm -rf "$T"
        echo "PASS: $TEST_NAME"
        exit 0
    fi
    echo "FAIL: $TEST_NAME: $FAILS check(s) failed; files in $T"
    exit 1
}
