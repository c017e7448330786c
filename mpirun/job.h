/*
 * One job from start to end: starts the ranks, runs the event loop (rank
 * exits, PMIx events, mpirun's signals, output, the timeout) and decides
 * when and how the job ends and with which exit status.
 */
#ifndef RD_MPIRUN_JOB_H
#define RD_MPIRUN_JOB_H

#include "options.h"

/* Grace between SIGTERM (or a forwarded signal) and SIGKILL, in ms. */
#define RD_MPIRUN_KILL_GRACE_MS 500
/* How long output may still arrive after the last rank exited, in ms. */
#define RD_MPIRUN_DRAIN_MS 2000
/* How long a rank that exited with 0 may take to be reported as finalized
 * (the report comes from PMIx's thread) before it counts as a failure. */
#define RD_MPIRUN_FINALIZE_GRACE_MS 300
/* Exit status when --timeout ends the job (as timeout(1)). */
#define RD_MPIRUN_EXIT_TIMEOUT 124

/* Signals mpirun handles in its loop; blocked before any thread starts. */
int rd_mpirun_job_block_signals(void);

/* Runs program path as o->np ranks of the job whose PMIx server is up.
 * Returns mpirun's exit status. Every rank process is gone on return. */
int rd_mpirun_job_run(const rd_mpirun_opts_t *o, const char *path);

#endif
