#!/bin/bash
# --timeout (and MPICH's MPIEXEC_TIMEOUT), and signals sent to mpirun:
# SIGTERM / SIGINT / SIGHUP are passed on to the ranks, the job ends,
# mpirun exits with 128+signal; SIGUSR1 / SIGUSR2 / SIGALRM are passed on
# and the job goes on; any other signal that would kill mpirun stops the
# job. finish checks that no rank and no file is left behind.
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

# signal_mpirun SIG [ACTIONS...]: starts a job of 3 ranks doing ACTIONS
# (default: echo sleep=60; ACTIONS must print the "out" line of echo),
# sends SIG to mpirun once every rank has printed it, and waits for the
# end. Scripts run background jobs with SIGINT and SIGQUIT ignored, and the
# suite itself may run with SIGHUP ignored (nohup); mpirun rightly keeps a
# signal it was started with ignored, so env --default-signal gives them
# back.
signal_mpirun() {
    local sig=$1 i
    shift
    # Emptied here, not by the background job's redirection: the wait below
    # could otherwise count the previous job's lines and signal the job
    # before env has exec'd mpirun, while the shell still ignores SIGINT
    # for its background job (the signal is then lost).
    : >"$T/out"
    [ $# -gt 0 ] || set -- echo sleep=60
    env --default-signal "$MPIRUN" -n 3 --tag-output "$CLIENT" mark=$MARK fence "$@" \
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

# SIGUSR1, SIGUSR2 and SIGALRM (sbatch --signal, timeout -s) reach the
# ranks and the job goes on: ranks that catch them finish normally.
for sig in USR1 USR2 ALRM; do
    signal_mpirun $sig catch echo waitsig
    expect_rc "SIG$sig to mpirun, caught by the ranks" 0
    num=$(kill -l $sig)
    expect_out_sorted "SIG$sig reached every rank" "[0] out 0" "[1] out 1" "[2] out 2" \
        "[0] signal 0 $num" "[1] signal 1 $num" "[2] signal 2 $num"
done
# Ranks that do not catch it die of it, which ends the job as any crash.
signal_mpirun USR1
expect_rc "SIGUSR1 to mpirun, not caught" 138
expect_grep "SIGUSR1 killed a rank" "$T/err" '^mpirun: rank [0-2] \(pid [0-9]+\) was killed by signal 10 '

# Any other signal that would end mpirun stops the job instead.
signal_mpirun QUIT
expect_rc "SIGQUIT to mpirun" 131
expect_grep "SIGQUIT message" "$T/err" '^mpirun: received signal 3 \(Quit\); stopping the job$'
signal_mpirun "$(kill -l $(($(kill -l RTMIN) + 2)))"
expect_rc "a real-time signal to mpirun" $((128 + $(kill -l RTMIN) + 2))

finish
