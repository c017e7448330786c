#!/bin/bash
# Links with latency between the hosts: each daemon's connection to mpirun
# goes through delay_relay.py (50 ms each way; the kernel may lack
# sch_netem), started in the daemon's host by the launch agent
# delay_agent.sh. A daemon's last messages (its ranks' output, their
# exits, DONE) then arrive after its launch agent has exited: a job that
# succeeds must still end with status 0 and all of its output, and one
# that fails with its ranks' status and message.
. "${srcdir:-.}/test/multihost/lib.sh"

MARK=mark=$TEST_NAME-$$
AGENT=$srcdir/test/multihost/delay_agent.sh
export MH_DELAY_MS=${MH_DELAY_MS:-50}

# run ARGS...: mpirun in host 0, ranks on the three hosts, daemons behind
# the relay; sets RC.
run() {
    ip netns exec "$H0" "$MPIRUN_BIN" -hosts "$HOSTS" --launch-agent "$AGENT" --bind-to none \
        --timeout 120 "$@" </dev/null >"$T/out" 2>"$T/err"
    RC=$?
}

# expect_lines WHAT N ERE: N lines of stdout match ERE.
expect_lines() {
    local got
    got=$(grep -cE -- "$3" "$T/out")
    if [ "$got" -eq "$2" ]; then
        pass "$1: $2 lines"
    else
        fail "$1: $got of $2 lines"
        sed 's/^/    out| /' "$T/out" | head -20
        sed 's/^/    err| /' "$T/err" | head -20
    fi
}

# Several rounds: where the daemon's end races its agent's, one round
# may be lucky.
for round in 1 2 3; do
    run -n 6 "$CLIENT" $MARK info fence echo
    if [ "$RC" -eq 0 ]; then
        pass "round $round: exit status 0"
    else
        fail "round $round: exit status $RC"
        sed 's/^/    err| /' "$T/err" | head -20
    fi
    expect_lines "round $round: every rank's info" 6 '^rank [0-5] '
    expect_lines "round $round: every rank's output" 6 '^out [0-5]$'
    if grep -q '^mpirun:' "$T/err"; then
        fail "round $round: mpirun complained:"; grep '^mpirun:' "$T/err" | sed 's/^/    | /'
    else
        pass "round $round: no message from mpirun"
    fi
done

# A rank on another host that exits with 3 after MPI_Finalize: the job's
# status is 3, known only from its daemon's last messages.
run -n 6 "$CLIENT" $MARK fence echo exit@4=3
if [ "$RC" -eq 3 ]; then pass "a rank's exit status 3 arrives late: status 3"; else
    fail "a rank's exit status 3 arrives late: status $RC"; sed 's/^/    err| /' "$T/err" | head -20
fi
expect_lines "a rank's exit status 3 arrives late: output" 6 '^out [0-5]$'

# A failure on another host is still reported as itself, not as the
# daemon's exit.
run -n 6 "$CLIENT" $MARK fence echo nofin@4=0
if [ "$RC" -ne 0 ] && grep -Eq "^mpirun: rank 4 \(pid [0-9]+\) on host $H1 exited with status 0 without calling MPI_Finalize" "$T/err" &&
    ! grep -q 'daemon on host' "$T/err"; then
    pass "a rank that does not finalize: status $RC, its message"
else
    fail "a rank that does not finalize: status $RC"; sed 's/^/    err| /' "$T/err" | head -20
fi

# The link dies as the daemons end (a second of delay, and what they sent
# in their last second is lost, without an end of stream): their agents
# exit with status 0 but DONE never comes. The head waits no longer than
# the heartbeat timeout and blames the daemon's exit.
START=$(now_ms)
RDMPI_HEARTBEAT_TIMEOUT=3 MH_DELAY_MS=1000 MH_RELAY_OPTS=--swallow-end run -n 6 "$CLIENT" $MARK fence echo
took=$(( $(now_ms) - START ))
echo "measured: link lost at the end: the job took $took ms"
if [ "$RC" -eq 1 ] && grep -Eq "^mpirun: the daemon on host ($H1|$H2) \(launch agent pid [0-9]+\) exited with status 0; stopping the job\$" "$T/err"; then
    pass "link lost at the end: status 1, the daemon's exit named"
else
    fail "link lost at the end: status $RC"; sed 's/^/    err| /' "$T/err" | head -20
fi

check_leftovers "latency"
finish
