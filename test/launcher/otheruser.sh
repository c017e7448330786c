#!/bin/bash
# Another local user against a job's PMIx server. The test makes an
# unprivileged user (removed at the end), reads the server's address from
# a rank (another user finds it in ls /tmp and ss -ltn), and has that user
# connect as rank 0 with boot_client: as itself, and claiming to be root
# through an LD_PRELOAD (fakeuid.so), which OpenPMIx's own check believes.
# Each must be refused, the job must go on, and mpirun must exit promptly
# afterwards (a refused connection used to leave it hanging in PMIx's
# finalize). A process of the job's user that mpirun did not start is
# refused too. The same user claiming another uid is refused by PMIx
# itself: mpirun must still exit. Hundreds of idle connections from the other user
# must not keep a late rank from joining. Last, mpirun raises its own
# descriptor limit to what its ranks need. Needs root (skipped otherwise).
. "${srcdir:-.}/test/launcher/lib.sh"

FAKEUID=$builddir/test/launcher/.libs/fakeuid.so
[ -f "$FAKEUID" ] || { echo "FAIL: $FAKEUID is not built (run make check)"; exit 99; }
if [ "$(id -u)" -ne 0 ] || ! command -v useradd >/dev/null || ! command -v runuser >/dev/null; then
    echo "SKIP: needs root, useradd and runuser"
    rm -rf "$T"
    exit 77
fi
INTRUDER=rdmpi-lt$$
useradd -M -s /bin/sh "$INTRUDER" || { echo "SKIP: useradd failed"; rm -rf "$T"; exit 77; }
# The intruder's programs, where it can run them.
X=$(mktemp -d /tmp/rdmpi-intruder.XXXXXX)
cleanup() {
    userdel "$INTRUDER" 2>/dev/null
    rm -rf "$X"
}
trap cleanup EXIT
cp "$CLIENT" "$FAKEUID" "$X/"
chmod 755 "$X" "$X"/*

# start_job [mpirun args...]: mpirun in the background (MPIRUN_PID), its
# output in $T/out and $T/err; waits for rank 0 and sets XENV to the PMIx
# variables an intruder needs (nspace, server address) and PORT.
start_job() {
    local i r=
    "$MPIRUN" "$@" >"$T/out" 2>"$T/err" &
    MPIRUN_PID=$!
    MPIRUN_PIDS="$MPIRUN_PIDS $MPIRUN_PID"
    for i in $(seq 100); do
        r=$(pgrep -f -- "^$CLIENT mark=$MARK" | head -1)
        [ -n "$r" ] && grep -qa PMIX_SERVER_URI41 "/proc/$r/environ" 2>/dev/null && break
        r=
        sleep 0.1
    done
    XENV=
    PORT=
    [ -n "$r" ] || return 1
    XENV=$(tr '\0' '\n' <"/proc/$r/environ" | grep -E '^PMIX_' | grep -v '^PMIX_RANK=' | tr '\n' ' ')
    PORT=$(echo "$XENV" | sed -n 's/.*PMIX_SERVER_URI41=[^ ]*:\([0-9]*\) .*/\1/p')
    [ -n "$PORT" ]
}

# end_job WHAT BOUND_S: mpirun must end within BOUND_S seconds; sets RC.
end_job() {
    local i
    for i in $(seq $(($2 * 10))); do
        kill -0 "$MPIRUN_PID" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$MPIRUN_PID" 2>/dev/null; then
        fail "$1: mpirun still running ${2} s later"
        kill -9 "$MPIRUN_PID"
    else
        pass "$1: mpirun ended within ${2} s"
    fi
    wait "$MPIRUN_PID"
    RC=$?
}

# intrude WHAT USER [VAR=VALUE...]: USER runs boot_client as rank 0 of the
# job, with the extra variables; it must be refused.
intrude() {
    local what=$1 user=$2
    shift 2
    # shellcheck disable=SC2086
    timeout 30 runuser -u "$user" -- env $XENV PMIX_RANK=0 "$@" "$X/boot_client" info \
        >"$T/xout" 2>"$T/xerr"
    local rc=$?
    if [ $rc -ne 0 ] && ! grep -q '^rank 0 size' "$T/xout"; then
        pass "$what: refused (exit status $rc)"
    else
        fail "$what: joined the job (exit status $rc):"
        sed 's/^/    | /' "$T/xout" | head -5
    fi
}

# Another user claiming to be root, then as itself; the ranks go on.
if start_job -n 2 "$CLIENT" mark=$MARK sleep=2 exchange sleep=3; then
    intrude "another user claiming uid 0" "$INTRUDER" LD_PRELOAD="$X/fakeuid.so"
    intrude "another user" "$INTRUDER"
    intrude "a process of this user that mpirun did not start" root
    end_job "after another user was refused" 20
    expect_rc "job with intruders" 0
    expect_out_sorted "ranks unaffected" "exchange ok rank 0" "exchange ok rank 1"
else
    fail "no rank of the job found"
    end_job "job" 20
fi

# The same user claiming another uid: OpenPMIx refuses it in the middle of
# its handshake and then never returns from its finalize.
if start_job -n 2 "$CLIENT" mark=$MARK exchange sleep=4; then
    sleep 1
    intrude "this user claiming uid 4242" root LD_PRELOAD="$X/fakeuid.so" FAKE_UID=4242
    end_job "after PMIx refused a client" 20
    expect_rc "job after PMIx refused a client" 0
else
    fail "no rank of the job found"
    end_job "job" 20
fi

# 300 idle connections from another user while a late rank starts.
if start_job -n 2 sh -c "[ \$PMIX_RANK = 0 ] || sleep 4; exec $CLIENT mark=$MARK exchange"; then
    runuser -u "$INTRUDER" -- python3 -c '
import socket, sys, time
held = []
for _ in range(300):
    try:
        held.append(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2))
    except OSError:
        pass
time.sleep(40)' "$PORT" 2>/dev/null &
    flood=$!
    sleep 3
    nfd=$(ls "/proc/$MPIRUN_PID/fd" 2>/dev/null | wc -l)
    if [ "$nfd" -lt 100 ]; then
        pass "mpirun holds $nfd descriptors during the flood"
    else
        fail "mpirun holds $nfd descriptors during the flood"
    fi
    end_job "late rank during a flood of idle connections" 20
    expect_rc "late rank during a flood" 0
    expect_out_sorted "late rank joined" "exchange ok rank 0" "exchange ok rank 1"
    kill "$flood" 2>/dev/null
    wait "$flood" 2>/dev/null
else
    fail "no rank of the job found"
    end_job "job" 30
fi

# A soft descriptor limit below what mpirun needs for its ranks: mpirun
# raises its own, the ranks keep the one they were given.
(ulimit -Sn 24 && exec timeout 60 "$MPIRUN" -n 8 sh -c "ulimit -Sn # mark=$MARK") \
    >"$T/out" 2>"$T/err"
RC=$?
expect_rc "8 ranks with a soft limit of 24 descriptors" 0
expect_out_sorted "ranks keep the limit" 24 24 24 24 24 24 24 24

finish
