/*
 * The job's identity and its traces on disk: the PMIx namespace name (which
 * ranks also use as their job id, e.g. in /dev/shm segment names), the
 * private directory PMIx puts its rendezvous files in, and removal of both
 * the directory and the job's /dev/shm segments on every way out.
 */
#ifndef RD_MPIRUN_SESSION_H
#define RD_MPIRUN_SESSION_H

/* Shared-memory segments of a job are /dev/shm/<this prefix><job id>-... */
#define RD_MPIRUN_SHM_PREFIX "rdmpi-"

typedef struct rd_mpirun_session {
    char nspace[64];        /* "mpirun.<pid>.<8 hex>": unique, file-name safe */
    char tmpdir[256];       /* private mkdtemp directory, "" until created */
} rd_mpirun_session_t;

/* Chooses the namespace name (or takes nspace, a host daemon's, given by
 * the head) and creates the private directory under $TMPDIR (or /tmp).
 * Returns 0, or -1 with a message printed. */
int rd_mpirun_session_open(rd_mpirun_session_t *s, const char *nspace);

/* Removes the private directory with everything in it and the job's
 * /dev/shm segments. Safe to call more than once. */
void rd_mpirun_session_clean(rd_mpirun_session_t *s);

#endif
