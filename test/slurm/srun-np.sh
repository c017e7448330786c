#!/bin/bash
# srun-np.sh -np N PROGRAM [ARGS...]: the "mpirun" that test/mpi/runtests.sh
# calls when test/slurm/run.sh runs the MPI test lists under Slurm. It starts
# the job with srun --mpi=pmix on the test cluster:
#   RD_SLURM_NS     network namespace to run srun in (the controller's)
#   SLURM_CONF      the cluster's slurm.conf
#   RD_SLURM_NODES  nodes to spread the ranks over (fewer if N is smaller)
#   RD_SLURM_DIST   block (default: ranks 0..k-1 on the first node) or cyclic
#   RD_SLURM_JOBID  an allocation to run in as a job step (else a job per run)
set -u
if [ $# -lt 3 ] || [ "$1" != -np ]; then
    echo "usage: $0 -np N PROGRAM [ARGS...]" >&2
    exit 2
fi
np=$2
shift 2
nodes=${RD_SLURM_NODES:-1}
[ "$np" -lt "$nodes" ] && nodes=$np
per_node=$(( (np + nodes - 1) / nodes ))
# --kill-on-bad-exit: one rank failing ends the job, as with rdmpi's mpirun.
exec nsenter --net="/run/netns/$RD_SLURM_NS" \
    srun --quiet --mpi=pmix --kill-on-bad-exit=1 ${RD_SLURM_JOBID:+--jobid="$RD_SLURM_JOBID"} \
    -N "$nodes" -n "$np" \
    --ntasks-per-node="$per_node" --distribution="${RD_SLURM_DIST:-block}" "$@"
