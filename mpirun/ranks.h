/*
 * The ranks of this host within the job: starting them, handling their
 * PMIx server's events and their exits, and killing what is left at the
 * end. procs.h does the process work (fork/exec, signals, waitpid).
 */
#ifndef RD_MPIRUN_RANKS_H
#define RD_MPIRUN_RANKS_H

#include "job_state.h"
#include "procs.h"

/* Starts the ranks of host plan->self while the job runs; a rank that
 * cannot be started is a failure (reported to the head by a daemon). */
void rd_mpirun_ranks_start(rd_mpirun_job_t *j);

/* Handles every event queued by the PMIx server: a rank connected,
 * finalized or called MPI_Abort, or this host's part of a fence. */
void rd_mpirun_ranks_events(rd_mpirun_job_t *j);

/* The procs_reap callback for a rank of ours that exited (arg is the
 * job): the head judges it, a daemon reports it to the head. */
void rd_mpirun_ranks_exited(rd_mpirun_proc_t *p, void *arg);

/* Kills and waits for every rank still alive (after the loop ended early). */
void rd_mpirun_ranks_end(rd_mpirun_job_t *j);

#endif
