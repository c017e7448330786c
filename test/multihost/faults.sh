#!/bin/bash
# Failures across hosts: kill -9 of a rank on another host, kill -9 of a
# host daemon, a host's network interface taken down, a host daemon that
# stops answering, a rank killed while its peers wait for it over TCP.
# Each must end the whole job with a non-zero status and one message
# naming what failed, within a bound, leaving nothing behind on any host.
# The bounds are generous (loaded CI machines); the interface and stopped
# daemon tests shorten the heartbeat timeout (RDMPI_HEARTBEAT_TIMEOUT,
# default 20 s) to 3 s.
. "${srcdir:-.}/test/multihost/lib.sh"

MARK=mark=$TEST_NAME-$$

# start_job ARGS...: mpirun in the background; sets PID (the head mpirun).
start_job() {
    START=$(now_ms)
    # Emptied here, not by the background job's redirections: waiting_up
    # could otherwise read the previous job's lines (its victim's pid).
    : >"$T/out"
    : >"$T/err"
    "$MPIRUN_MH" "$@" </dev/null >"$T/out" 2>"$T/err" &
    PID=$!
}

# wait_job WHAT BOUND_MS: waits for the head; sets RC; checks the bound.
wait_job() {
    local i
    for i in $(seq 1 $(( $2 / 100 + 100 ))); do
        kill -0 $PID 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 $PID 2>/dev/null; then
        fail "$1: mpirun still running after $(( $(now_ms) - START )) ms"
        kill -9 $PID
    fi
    wait $PID
    RC=$?
    local took=$(( $(now_ms) - T0 ))
    echo "measured: $1: $took ms from the fault to mpirun's end"
    if [ $took -le "$2" ]; then pass "$1: ended within $2 ms"; else fail "$1: took $took ms"; fi
}

# Job id and the pids of the test's ranks on a host.
job_id() {
    sed -n 's/.* job_id \([^ ]*\) .*/\1/p' "$T/out" | head -1
}
ranks_on() {
    local ns=$1 p
    for p in $(ip netns pids "$ns"); do
        grep -qa -- "$MARK" /proc/$p/cmdline 2>/dev/null && echo $p
    done
}

# Waits until every rank printed its info line (the job is up everywhere).
wait_up() {
    local i
    for i in $(seq 1 100); do
        [ "$(grep -c '^rank ' "$T/out" 2>/dev/null)" -ge "$1" ] && return 0
        sleep 0.1
    done
    fail "the job did not start"; cat "$T/err"
    return 1
}

expect_nonzero_and_msg() {
    if [ "$RC" -ne 0 ]; then pass "$1: exit status $RC"; else fail "$1: exit status 0"; fi
    if grep -Eq -- "$2" "$T/err"; then
        pass "$1: message"
    else
        fail "$1: no line matching '$2' on stderr:"; sed 's/^/    | /' "$T/err"
    fi
}

# 1. kill -9 of a rank on another host.
start_job -n 6 "$CLIENT" $MARK info fence sleep=60
wait_up 6
id=$(job_id)
victim=$(ranks_on "$H1" | head -1)
T0=$(now_ms)
kill -9 $victim
wait_job "rank killed" 5000
expect_nonzero_and_msg "rank killed" "^mpirun: rank [0-9]+ \\(pid $victim\\) on host $H1 was killed by signal 9 \\(Killed\\); stopping the job\$"
check_leftovers "rank killed" "$id"

# 2. kill -9 of the daemon on host 2: its guard kills its ranks and removes
# its files; the head stops the others.
start_job -n 6 "$CLIENT" $MARK info fence sleep=60
wait_up 6
id=$(job_id)
daemon=""
for p in $(ip netns pids "$H2"); do
    if grep -qa -- rd-daemon /proc/$p/cmdline 2>/dev/null && [ "$(ps -o ppid= -p $p | tr -d ' ')" = "$PID" ]; then
        daemon=$p
    fi
done
T0=$(now_ms)
kill -9 $daemon
wait_job "daemon killed" 5000
expect_nonzero_and_msg "daemon killed" "^mpirun: .*daemon on host $H2.*; stopping the job\$"
check_leftovers "daemon killed" "$id"

# 3. Host 1's interface goes down: nothing arrives from it any more. The
# head notices after the heartbeat timeout (the daemon waits longer, so
# the head is the one that explains).
RDMPI_HEARTBEAT_TIMEOUT=3 start_job -n 6 "$CLIENT" $MARK info fence sleep=60
wait_up 6
id=$(job_id)
T0=$(now_ms)
ip -n "$H1" link set eth0 down
wait_job "interface down" 12000
expect_nonzero_and_msg "interface down" "^mpirun: lost the connection to the daemon on host $H1 \\(no message for 3 s\\); stopping the job\$"
check_leftovers "interface down" "$id"
ip -n "$H1" link set eth0 up

# 3b. The daemon on host 1 stops answering (SIGSTOP): the head loses it
# through the heartbeat and kills it (SIGKILL, as it cannot take the
# SIGTERM); its guard, which outlives it, kills its ranks and removes its
# files.
RDMPI_HEARTBEAT_TIMEOUT=3 start_job -n 6 "$CLIENT" $MARK info fence sleep=60
wait_up 6
id=$(job_id)
daemon=""
for p in $(ip netns pids "$H1"); do
    if grep -qa -- rd-daemon /proc/$p/cmdline 2>/dev/null && [ "$(ps -o ppid= -p $p | tr -d ' ')" = "$PID" ]; then
        daemon=$p
    fi
done
T0=$(now_ms)
kill -STOP $daemon
wait_job "daemon stopped" 15000
expect_nonzero_and_msg "daemon stopped" "^mpirun: lost the connection to the daemon on host $H1 \\(no message for 3 s\\); stopping the job\$"
check_leftovers "daemon stopped" "$id"

# 4. A remote rank that calls MPI_Abort, and one that exits without
# finalizing: the same messages as on one host, with the host.
start_job -n 4 "$CLIENT" $MARK fence abort@2=42 sleep=60
T0=$(now_ms)
wait_job "abort" 10000
expect_nonzero_and_msg "abort" "^mpirun: rank 2 \\(pid [0-9]+\\) on host $H2 called MPI_Abort with code 42: "
[ "$RC" -eq 42 ] && pass "abort: status 42" || fail "abort: status $RC"
start_job -n 4 "$CLIENT" $MARK fence nofin@1=0 sleep=60
T0=$(now_ms)
wait_job "no finalize" 10000
expect_nonzero_and_msg "no finalize" "^mpirun: rank 1 \\(pid [0-9]+\\) on host $H1 exited with status 0 without calling MPI_Finalize"

# 5. SIGTERM to mpirun reaches the ranks on every host.
start_job -n 6 "$CLIENT" $MARK info fence sleep=60
wait_up 6
id=$(job_id)
T0=$(now_ms)
kill -TERM $PID
wait_job "SIGTERM" 5000
[ "$RC" -eq 143 ] && pass "SIGTERM: status 143" || fail "SIGTERM: status $RC"
check_leftovers "SIGTERM" "$id"

# 6. A host that cannot be reached: the launch agent fails.
MH_HOSTS="$H0,${MH_PREFIX}-nonexistent" start_job -n 2 "$CLIENT" $MARK
T0=$(now_ms)
wait_job "bad host" 10000
expect_nonzero_and_msg "bad host" "daemon on host ${MH_PREFIX}-nonexistent"
check_leftovers "bad host"

# 7. A rank dies while the others wait in MPI_Recv for it (TCP between the
# hosts). Either its daemon reports the signal, or a peer's TCP transport
# sees the connection end without a BYE and aborts the job naming both
# ranks; both messages name the dead rank.
DEATH=$builddir/test/mpi/tcp_death
waiting_up() {
    local i n
    for i in $(seq 1 150); do
        n=$(grep -c '^waiting ' "$T/out" 2>/dev/null)
        [ "${n:-0}" -ge 2 ] && grep -q '^victim ' "$T/out" && return 0
        sleep 0.1
    done
    fail "$1: the job did not start"; cat "$T/err"
    return 1
}
# The peers' TCP transports see the connection end without BYE: the receive
# from rank 1 fails (MPI_ERR_OTHER naming both ranks) and the default error
# handler aborts the job with that message.
tcp_lost="rank [02] \\(pid [0-9]+\\) on host [^ ]+ called MPI_Abort with code 1: MPI_ERRORS_ARE_FATAL: MPI_Recv: rank [02] cannot receive from rank 1: rank 1 \\(job rank 1\\) failed or disconnected[^;]*"
start_job -n 3 "$DEATH" victim $MARK
if waiting_up "peer died"; then
    victim=$(sed -n 's/^victim //p' "$T/out")
    T0=$(now_ms)
    kill -9 $victim
    wait_job "peer died" 5000
    expect_nonzero_and_msg "peer died" "^mpirun: (rank 1 \\(pid $victim\\) on host $H1 was killed by signal 9 \\(Killed\\)|$tcp_lost); stopping the job\$"
else
    kill -TERM $PID 2>/dev/null
    wait $PID
fi
check_leftovers "peer died"

# 8. The same with rank 1's daemon paused, so that only the peers' TCP
# transports can tell: the job ends through their abort.
start_job -n 3 "$DEATH" victim $MARK
if waiting_up "peer died, TCP path"; then
    victim=$(sed -n 's/^victim //p' "$T/out")
    daemon=$(ps -o ppid= -p "$victim" | tr -d ' ')
    kill -STOP "$daemon"
    T0=$(now_ms)
    kill -9 $victim
    for i in $(seq 1 100); do
        grep -q "cannot receive from rank 1" "$T/err" && break
        sleep 0.1
    done
    kill -CONT "$daemon"
    wait_job "peer died, TCP path" 8000
    expect_nonzero_and_msg "peer died, TCP path" "^mpirun: $tcp_lost; stopping the job\$"
else
    kill -TERM $PID 2>/dev/null
    wait $PID
fi
check_leftovers "peer died, TCP path"

finish
