/*
 * The job's fences: this host's contribution, the head's concatenation of
 * every host's, and the result handed back to the PMIx server (see
 * fence.c for the exchange).
 */
#ifndef RD_MPIRUN_FENCE_H
#define RD_MPIRUN_FENCE_H

#include <stddef.h>
#include <stdint.h>

#include "job_state.h"
#include "server.h"

/* Allocates the head's per-host parts. Returns 0, or -1 (errno set). */
int rd_mpirun_fence_init(rd_mpirun_job_t *j);

/* Completes a fence still in flight and frees what init allocated. */
void rd_mpirun_fence_fini(rd_mpirun_job_t *j);

/* Our PMIx server's fence event ev: the head adds it as its own host's
 * part, a daemon sends it to the head. The event is completed once the
 * result is known; a second fence in flight is a failure. */
void rd_mpirun_fence_local(rd_mpirun_job_t *j, rd_mpirun_event_t *ev);

/* Head: host's part of fence number seq, as its daemon sent it. Returns
 * 0, or -1 if the message is wrong (another fence, or out of memory). */
int rd_mpirun_fence_from_host(rd_mpirun_job_t *j, int host, uint32_t seq, const char *payload,
                              size_t len);

/* Daemon: the head's result of the fence in flight. Returns 0, or -1 if
 * no fence is in flight (or out of memory). */
int rd_mpirun_fence_result(rd_mpirun_job_t *j, const char *payload, size_t len);

#endif
