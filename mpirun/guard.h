/*
 * A host daemon's guard: a small process forked by the daemon before
 * anything else, which outlives it for one purpose. When the daemon dies
 * without saying it is done (kill -9, a crash), the guard kills the
 * process groups of the daemon's ranks and removes the job's files on
 * this host, so a dead daemon leaves nothing behind.
 */
#ifndef RD_MPIRUN_GUARD_H
#define RD_MPIRUN_GUARD_H

#include <sys/types.h>

/* Forks the guard. Returns 0 in the daemon, or -1 with a message printed. */
int rd_mpirun_guard_start(void);

/* Tells the guard what to clean up: a rank's process group, the job's
 * namespace (its /dev/shm segments) and the daemon's private directory. */
void rd_mpirun_guard_pgroup(pid_t pgid);
void rd_mpirun_guard_session(const char *nspace, const char *tmpdir);

/* The daemon cleaned up itself: the guard exits without doing anything. */
void rd_mpirun_guard_release(void);

#endif
