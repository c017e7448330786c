/*
 * mpirun's event loop: one poll over the signalfd, the PMIx server, the
 * head-daemon connections and the ranks' stdio, with the job's deadlines
 * as its timeout. It runs until the job is over: every rank of this host
 * reaped and its output drained, and (on the head) every daemon done or
 * gone and its launch agent reaped.
 */
#ifndef RD_MPIRUN_LOOP_H
#define RD_MPIRUN_LOOP_H

#include <poll.h>

#include "job_state.h"

/* The loop's poll set, sized for the job at its start. */
typedef struct rd_mpirun_loop {
    struct pollfd *pfd;
    struct rd_mpirun_net_slot *slot;    /* what each connection's entry is */
    int maxfds;
} rd_mpirun_loop_t;

/* Allocates l for job j. Returns 0, or -1 (errno set); fini in any case. */
int rd_mpirun_loop_init(rd_mpirun_loop_t *l, const rd_mpirun_job_t *j);
void rd_mpirun_loop_fini(rd_mpirun_loop_t *l);

/* Runs the loop until the job is over, or poll fails (said on stderr). */
void rd_mpirun_loop_run(rd_mpirun_job_t *j, rd_mpirun_loop_t *l);

#endif
