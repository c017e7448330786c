/*
 * A host daemon's side of the job: the connection up to the head, what
 * the daemon tells the head and what it does with the head's messages.
 * Only a daemon's job (is_daemon, up set) calls these.
 */
#ifndef RD_MPIRUN_UPLINK_H
#define RD_MPIRUN_UPLINK_H

#include <stddef.h>
#include <stdint.h>

#include "job_state.h"
#include "wire.h"

/* The head is lost (why says how): closes the connection, says so once
 * and stops the ranks here. */
void rd_mpirun_uplink_lose(rd_mpirun_job_t *j, const char *why);

/* Sends a message to the head (p may be NULL); a failure loses the head.
 * Does nothing once the head is lost. */
void rd_mpirun_uplink_send(rd_mpirun_job_t *j, rd_mpirun_msg_t type, uint32_t arg,
                           const rd_mpirun_pack_t *p);

/* The head decides: tells it what went wrong here, and stops our ranks. */
void rd_mpirun_uplink_report(rd_mpirun_job_t *j, int status, const char *why);

/* The iof sinks of a daemon (arg is the job): a rank's output goes to the
 * head; on rank 0's host, the head may send n more bytes of stdin. */
void rd_mpirun_uplink_output(int rank, int stream, const char *data, size_t len, void *arg);
void rd_mpirun_uplink_stdin_credit(size_t n, int closed, void *arg);

/* Handles one message from the head; a malformed one loses the head. */
void rd_mpirun_uplink_message(rd_mpirun_job_t *j, const rd_mpirun_wire_hdr_t *h,
                              const char *payload);

/* At each turn of the loop: a head silent for too long is lost; ping
 * says the heartbeat is due. */
void rd_mpirun_uplink_deadlines(rd_mpirun_job_t *j, long long now, int ping);

#endif
