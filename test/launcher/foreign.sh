#!/bin/bash
# A rank started by a launcher rdmpi cannot talk to (no PMIx server, no PMI
# connection) must not run as one of N silent singletons: MPI_Init fails
# and says which launcher it looks like and what to use instead. Alone, or
# with a job size of 1, a program still runs as a singleton.
. "${srcdir:-.}/test/launcher/lib.sh"

PROG=$builddir/test/mpi/p2p_order
need_built check "$PROG"

# run_direct VAR=VALUE...: runs $PROG alone with only these launcher
# variables; sets RC, $T/out, $T/err.
run_direct() {
    env -u PMIX_NAMESPACE -u PMI_FD -u PMI_PORT -u PMI_RANK -u PMI_SIZE \
        -u OMPI_COMM_WORLD_SIZE -u SLURM_STEP_NUM_TASKS -u SLURM_STEP_ID \
        "$@" "$PROG" $MARK </dev/null >"$T/out" 2>"$T/err"
    RC=$?
}

run_direct PMI_RANK=1 PMI_SIZE=4
expect_rc "PMI_SIZE without PMI_FD" 1
expect_grep "PMI_SIZE without PMI_FD: names the launcher" "$T/err" \
    "MPI_Init: .*looks like an MPICH-style launcher \(PMI_SIZE=4\).*neither PMI_FD nor PMI_PORT"
expect_no_grep "PMI_SIZE without PMI_FD: nothing ran" "$T/out" "No Errors"

run_direct OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0
expect_rc "Open MPI's variables without PMIx" 1
expect_grep "Open MPI's variables without PMIx: names the launcher" "$T/err" \
    "looks like Open MPI's mpirun \(OMPI_COMM_WORLD_SIZE=2\).*rdmpi's mpirun"

run_direct SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=3 SLURM_NTASKS=3
expect_rc "srun without PMIx" 1
expect_grep "srun without PMIx: names the launcher" "$T/err" \
    "looks like Slurm's srun \(one of 3 tasks\).*--mpi=pmix"

# A PMI_FD that is not open is an error of the PMI back ends, not a hang.
run_direct PMI_FD=250 PMI_RANK=0 PMI_SIZE=2
expect_rc "PMI_FD not open" 1
expect_grep "PMI_FD not open: said" "$T/err" "process manager \(PMI-2 or PMI-1\).*PMI_FD=250"

# Job size 1, or no launcher at all: a singleton.
run_direct PMI_RANK=0 PMI_SIZE=1 OMPI_COMM_WORLD_SIZE=1
expect_rc "job of one" 0
expect_grep "job of one runs" "$T/out" "^ No Errors$"
run_direct
expect_rc "singleton" 0
expect_grep "singleton runs" "$T/out" "^ No Errors$"

finish
