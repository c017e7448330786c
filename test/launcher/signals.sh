#!/bin/bash
# --timeout (and MPICH's MPIEXEC_TIMEOUT), and SIGTERM / SIGINT / SIGHUP
# sent to mpirun: the signal is passed on to the ranks, the job ends,
# mpirun exits with 128+signal.
. "${srcdir:-.}/test/launcher/lib.sh"

run_mpirun -n 2 --timeout 1 "$CLIENT" mark=$MARK fence sleep=60
expect_rc "timeout" 124
expect_grep "timeout message" "$T/err" '^mpirun: the job timed out after 1 second; stopping the job$'
if [ "$ELAPSED" -lt 10000 ]; then pass "timeout after $ELAPSED ms"; else fail "timeout took $ELAPSED ms"; fi

run_mpirun -n 2 --timeout=30 "$CLIENT" mark=$MARK fence
expect_rc "job shorter than its timeout" 0

# MPICH's MPIEXEC_TIMEOUT does what --timeout does; the option wins.
MPIEXEC_TIMEOUT=1 run_mpirun -n 2 "$CLIENT" mark=$MARK fence sleep=60
expect_rc "MPIEXEC_TIMEOUT" 124
expect_grep "MPIEXEC_TIMEOUT message" "$T/err" '^mpirun: the job timed out after 1 second; stopping the job$'
MPIEXEC_TIMEOUT=1 run_mpirun -n 2 --timeout 60 "$CLIENT" mark=$MARK fence sleep=3
expect_rc "--timeout wins over MPIEXEC_TIMEOUT" 0

# signal_mpirun SIG: starts a job, sends SIG to mpirun once every rank has
# connected (its "ready" line is out), and waits for the end. Scripts run
# background jobs with SIGINT ignored, and the suite itself may run with
# SIGHUP ignored (nohup); mpirun rightly keeps a signal it was started with
# ignored, so env --default-signal gives the three back.
signal_mpirun() {
    local sig=$1 i
    # Emptied here, not by the background job's redirection: the wait below
    # could otherwise count the previous job's lines and signal the job
    # before env has exec'd mpirun, while the shell still ignores SIGINT
    # for its background job (the signal is then lost).
    : >"$T/out"
    env --default-signal=INT,TERM,HUP "$MPIRUN" -n 3 --tag-output "$CLIENT" mark=$MARK fence echo sleep=60 \
        </dev/null >"$T/out" 2>"$T/err" &
    MPIRUN_PID=$!
    MPIRUN_PIDS="$MPIRUN_PIDS $MPIRUN_PID"
    for i in $(seq 1 100); do
        [ "$(grep -c '^\[.\] out' "$T/out")" -eq 3 ] && break
        sleep 0.1
    done
    kill -s "$sig" $MPIRUN_PID
    wait $MPIRUN_PID
    RC=$?
}

signal_mpirun TERM
expect_rc "SIGTERM to mpirun" 143
expect_grep "SIGTERM message" "$T/err" '^mpirun: received signal 15 \(Terminated\), forwarded to the ranks; stopping the job$'

signal_mpirun INT
expect_rc "SIGINT to mpirun" 130

signal_mpirun HUP
expect_rc "SIGHUP to mpirun" 129

finish
