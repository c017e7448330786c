/*
 * mpirun's descriptor limit. mpirun holds a few descriptors for each of
 * its ranks (their stdio pipes, their PMIx connection) and each host
 * daemon; a soft limit below that makes a late rank hang in MPI_Init.
 * mpirun raises its own soft limit to what the job needs (as far as the
 * hard limit allows), and its ranks start with the limit it was given.
 */
#ifndef RD_MPIRUN_FDLIMIT_H
#define RD_MPIRUN_FDLIMIT_H

/* Raises the soft RLIMIT_NOFILE for nranks local ranks and ndaemons host
 * daemons; warns when the hard limit is lower. Never fails. */
void rd_mpirun_fdlimit_raise(int nranks, int ndaemons);

/* In a forked child before exec: the limit mpirun was started with.
 * Async-signal-safe. */
void rd_mpirun_fdlimit_restore(void);

#endif
