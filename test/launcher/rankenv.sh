#!/bin/bash
# What a rank learns from its environment, in MPICH's (PMI_RANK, PMI_SIZE,
# MPI_LOCALRANKID, MPI_LOCALNRANKS) and Open MPI's (OMPI_COMM_WORLD_*)
# terms, and the job key (RDMPI_JOB_KEY), on mpirun's host and on another
# one; values inherited from mpirun's own environment are replaced.
. "${srcdir:-.}/test/launcher/lib.sh"

show='echo "$PMI_RANK/$PMI_SIZE $MPI_LOCALRANKID/$MPI_LOCALNRANKS'
show="$show"' $OMPI_COMM_WORLD_RANK/$OMPI_COMM_WORLD_SIZE'
show="$show"' $OMPI_COMM_WORLD_LOCAL_RANK/$OMPI_COMM_WORLD_LOCAL_SIZE"'

PMI_RANK=7 OMPI_COMM_WORLD_SIZE=99 run_mpirun -n 3 sh -c "$show" $MARK
expect_rc "rank variables, one host" 0
expect_out_sorted "rank variables, one host" \
    "0/3 0/3 0/3 0/3" "1/3 1/3 1/3 1/3" "2/3 2/3 2/3 2/3"

# Ranks 1 and 2 on a second "host" whose daemon the agent starts here:
# local ranks and sizes are per host.
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$T/agent"
chmod +x "$T/agent"
run_mpirun -hosts localhost:1,lt-other-host:2 --launch-agent "$T/agent" -n 3 \
    sh -c "$show" $MARK
expect_rc "rank variables, two hosts" 0
expect_out_sorted "rank variables, two hosts" \
    "0/3 0/1 0/3 0/1" "1/3 0/2 1/3 0/2" "2/3 1/2 2/3 1/2"

# The job key: the same in every rank on both hosts (the daemon gets it
# in the JOB message), new for each job, replacing one inherited from
# mpirun's environment without a warning about an unknown variable.
RDMPI_JOB_KEY=inherited run_mpirun -hosts localhost:1,lt-other-host:2 --launch-agent "$T/agent" \
    -n 3 sh -c 'echo "key $RDMPI_JOB_KEY"' $MARK
expect_rc "job key, two hosts" 0
key=$(sort -u "$T/out")
if [ "$(wc -l <"$T/out")" -eq 3 ] && echo "$key" | grep -Eqx 'key [0-9a-f]{32}'; then
    pass "job key: one key of 32 hex digits in all 3 ranks"
else
    fail "job key: not one key of 32 hex digits in all 3 ranks:"
    sed 's/^/    | /' "$T/out"
fi
expect_no_grep "job key: no warning" "$T/err" RDMPI_JOB_KEY
run_mpirun -n 1 sh -c 'echo "key $RDMPI_JOB_KEY"' $MARK
if [ "$RC" -eq 0 ] && grep -Eqx 'key [0-9a-f]{32}' "$T/out" && [ "$(cat "$T/out")" != "$key" ]; then
    pass "job key: another one for the next job"
else
    fail "job key: the next job's is '$(cat "$T/out")' (rc $RC)"
fi

# The TCP transport connects ranks on both hosts with it, and MPI_Init
# takes it out of the environment (test/mpi/tcp_jobkey.c).
JOBKEY=$builddir/test/mpi/tcp_jobkey
need_built check "$JOBKEY"
run_mpirun -hosts localhost:1,lt-other-host:2 --launch-agent "$T/agent" -n 3 \
    -x RDMPI_TRANSPORTS=tcp "$JOBKEY" $MARK
expect_rc "tcp_jobkey, two hosts" 0
expect_grep "tcp_jobkey, two hosts: no errors" "$T/out" '^ No Errors$'

# A rank built on rdmpi's bootstrap still finds mpirun's PMIx server.
run_mpirun -n 2 "$CLIENT" mark=$MARK echo
expect_rc "bootstrap with PMI_RANK set" 0
expect_out_sorted "bootstrap with PMI_RANK set" "out 0" "out 1"

finish
