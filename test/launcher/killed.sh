#!/bin/bash
# kill -9 of mpirun: it can neither stop its ranks nor remove the job's
# files, so its ranks must notice the death by themselves (the kernel
# sends each a SIGKILL when mpirun dies, and a rank that is not mpirun's
# child sees its PMIx connection end) and mpirun's guard process must
# kill whatever they started and remove the job's directory in /tmp and
# its /dev/shm files. The ranks spin at full speed, as ranks polling for
# a peer do; some run under a shell that does not exec them, so only the
# guard's kill of their process group reaches them.
. "${srcdir:-.}/test/launcher/lib.sh"

# How long the ranks and the job's files may outlive mpirun, in ms: the
# ranks should be gone at once; the rest is slack for a loaded machine.
BOUND_MS=3000

# kill9 WHAT NRANKS PROGRAM ARGS...: starts the job, waits until each rank
# printed its "out" line, kills mpirun with SIGKILL and checks that within
# BOUND_MS no process of the job and no file of it is left. With
# WITH_GUARD=1 the guard is killed too (the child of mpirun that is a copy
# of it): the ranks must still end, and nobody is left to remove the
# files.
kill9() {
    local what=$1 nranks=$2 i left files start took victims guard
    shift 2
    : >"$T/out"
    "$MPIRUN" -n "$nranks" "$@" </dev/null >"$T/out" 2>"$T/err" &
    MPIRUN_PID=$!
    MPIRUN_PIDS="$MPIRUN_PIDS $MPIRUN_PID"
    for i in $(seq 1 200); do
        [ "$(grep -c '^out ' "$T/out")" -ge "$nranks" ] && break
        sleep 0.1
    done
    if [ "$(grep -c '^out ' "$T/out")" -lt "$nranks" ]; then
        fail "$what: the job did not start"
        sed 's/^/    | /' "$T/err" | head -20
    fi
    victims=$MPIRUN_PID
    if [ "${WITH_GUARD:-0}" = 1 ]; then
        for guard in $(pgrep -P $MPIRUN_PID); do
            [ "$(ps -o comm= -p $guard)" = mpirun ] && victims="$victims $guard"
        done
        [ "$victims" != "$MPIRUN_PID" ] || fail "$what: mpirun has no guard"
    fi
    kill -KILL $victims
    wait $MPIRUN_PID 2>/dev/null
    start=$(now_ms)
    while :; do
        left=$(pgrep -f -- "$MARK" || true)
        files=$(ls /tmp /dev/shm | grep -E "^(rdmpi-)?mpirun\.$MPIRUN_PID\." || true)
        [ "${WITH_GUARD:-0}" = 1 ] && files=""
        took=$(( $(now_ms) - start ))
        [ -z "$left$files" ] || [ $took -gt $BOUND_MS ] && break
        sleep 0.1
    done
    echo "measured: $what: $took ms from mpirun's death to the end of its ranks and files"
    if [ -n "$left" ]; then
        fail "$what: processes still running $BOUND_MS ms after mpirun was killed:"
        ps -o pid,ppid,stat,pcpu,args -p "$(echo $left | tr ' ' ',')" | sed 's/^/    /'
        kill -9 $left 2>/dev/null
    else
        pass "$what: no rank outlives mpirun"
    fi
    if [ "${WITH_GUARD:-0}" = 1 ]; then
        rm -rf /tmp/mpirun.$MPIRUN_PID.* /dev/shm/rdmpi-mpirun.$MPIRUN_PID.*
    elif [ -n "$files" ]; then
        fail "$what: files left behind: "$files
        for f in $files; do rm -rf "/tmp/$f" "/dev/shm/$f"; done
    else
        pass "$what: the job's files are removed"
    fi
}

kill9 "spinning ranks" 3 "$CLIENT" mark=$MARK shmfile echo spin=60

# SIGTERM ignored: only SIGKILL ends these.
kill9 "ranks that ignore SIGTERM" 2 "$CLIENT" mark=$MARK ignoreterm echo spin=60

# The shell is the rank mpirun forked; the program below it is not.
kill9 "ranks under a shell" 2 sh -c "\"$CLIENT\" mark=$MARK echo spin=60; exit 0"

# The ranks end by themselves: no guard needed. Under a shell, the
# program is no child of mpirun: it notices that its PMIx server is gone.
WITH_GUARD=1 kill9 "spinning ranks, mpirun and its guard killed" 3 "$CLIENT" mark=$MARK echo spin=60
WITH_GUARD=1 kill9 "ranks under a shell, mpirun and its guard killed" 2 \
    sh -c "\"$CLIENT\" mark=$MARK echo spin=60; exit 0"

# A job that ends by itself is as before: its status, its output, and
# nothing left behind (checked by finish).
run_mpirun -n 2 "$CLIENT" mark=$MARK echo
expect_rc "a job that ends normally" 0
expect_out_sorted "a job that ends normally: its output" "out 0" "out 1"

finish
