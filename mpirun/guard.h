/*
 * The guard of mpirun (the head or a host daemon): a small process forked
 * before anything else, which outlives it for one purpose. When mpirun
 * dies without saying it is done (kill -9, a crash), the guard kills the
 * process groups of its ranks and removes the job's files on this host,
 * so a dead mpirun leaves nothing behind.
 */
#ifndef RD_MPIRUN_GUARD_H
#define RD_MPIRUN_GUARD_H

#include <sys/types.h>

/* Forks the guard. Returns 0 in mpirun, or -1 with a message printed. */
int rd_mpirun_guard_start(void);

/* Tells the guard what to clean up: a rank's process group, the job's
 * namespace (its /dev/shm segments) and mpirun's private directory. */
void rd_mpirun_guard_pgroup(pid_t pgid);
void rd_mpirun_guard_session(const char *nspace, const char *tmpdir);

/* mpirun cleaned up itself: the guard exits without doing anything, and
 * is waited for, so that nothing of the job outlives mpirun. */
void rd_mpirun_guard_release(void);

#endif
