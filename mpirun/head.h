/*
 * The head's side of the job: launching the host daemons, their
 * connections (pending until their HELLO, then one per daemon), their
 * messages, their deadlines, and their end. With every rank on this
 * host there are no daemons and these find nothing to do.
 */
#ifndef RD_MPIRUN_HEAD_H
#define RD_MPIRUN_HEAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "job_state.h"
#include "wire.h"

/* Starts a daemon on every other host of the plan through the launch
 * agent. Returns 0, or -1 if one could not be started. */
int rd_mpirun_head_launch(rd_mpirun_job_t *j);

/* Sends a message to every connected daemon, ignoring failures (the
 * heartbeat finds a broken connection). */
void rd_mpirun_head_send_all(rd_mpirun_job_t *j, rd_mpirun_msg_t type, uint32_t arg,
                             const void *data, size_t len);

/* Tells every connected daemon to stop its ranks with sig. */
void rd_mpirun_head_stop(rd_mpirun_job_t *j, int sig);

/* Tells every connected daemon to pass sig on to its ranks, the job going
 * on (rd_mpirun_job_signal_forwarded). */
void rd_mpirun_head_signal(rd_mpirun_job_t *j, int sig);

/* The iof stdin sink of the head (arg is the job): our stdin on its way
 * to rank 0's host (within its credit). */
void rd_mpirun_head_stdin(const char *data, size_t len, void *arg);

/* The connection to daemon r is lost (what says how): a failure of the
 * job, unless r is already done or gone. */
void rd_mpirun_head_lose(rd_mpirun_job_t *j, rd_mpirun_remote_t *r, const char *what);

/* Accepts every waiting connection on the listening socket as pending. */
void rd_mpirun_head_accept(rd_mpirun_job_t *j);

/* A pending connection said HELLO: which daemon is it? A good one becomes
 * that daemon's connection and gets the job; any other is closed. */
void rd_mpirun_head_hello(rd_mpirun_job_t *j, rd_mpirun_pending_t *pc,
                          const rd_mpirun_wire_hdr_t *h, const char *payload);

/* Handles one message from daemon r; a malformed one loses r. */
void rd_mpirun_head_message(rd_mpirun_job_t *j, rd_mpirun_remote_t *r,
                            const rd_mpirun_wire_hdr_t *h, const char *payload);

/* The procs_reap callback for a child that is not a rank: a launch agent
 * (arg is the job). Its daemon's last messages are handled first. */
void rd_mpirun_head_agent_exit(pid_t pid, int st, void *arg);

/* At each turn of the loop: the launch timeout, the heartbeat (ping says
 * one is due), pending connections that never said HELLO, and the end of
 * the agents' grace. */
void rd_mpirun_head_deadlines(rd_mpirun_job_t *j, long long now, int ping);

/* Whether every daemon is done or gone and every launch agent reaped;
 * starts the agents' grace once only agents remain. */
int rd_mpirun_head_daemons_over(rd_mpirun_job_t *j);

/* Kills and waits for the agents still running, closes every connection
 * and frees the daemons' table. */
void rd_mpirun_head_fini(rd_mpirun_job_t *j);

#endif
