/*
 * What the operation files of src/rma (rma_ops.c, rma_am.c, rma_acc.c,
 * rma_dtype.c, rma_notify.c) share: the per-window operation state, the
 * records of operations waiting for a reply, and sending an operation
 * message with its completion accounted. rma_ops.c implements it.
 */
#ifndef RD_RMA_RMA_OPS_H
#define RD_RMA_RMA_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "rma/rma_impl.h"

/* One arrived notification (rma_notify.c). */
typedef struct rd_rma_note {
    int source, tag;
} rd_rma_note_t;

/* rma_ops.c's part of a window (rd_rma_win.ops). */
struct rd_rma_opstate {
    rd_rma_note_t *notes;        /* ring of arrived notifications */
    size_t nhead, ntail, ncap;   /* taken, stored, capacity (a power of two) */
};

/* An operation waiting for replies: a result to fill, a request to
 * complete, memory to release when every message of it was answered. */
typedef struct rd_rma_pend {
    uint32_t id;                 /* what the wire carries (opid) */
    rd_win_t *w;
    int target;                  /* rank of w->comm */
    unsigned msgs;               /* messages sent and not yet answered */
    int sending;                 /* the origin is still sending its messages */
    int error;                   /* first error of a reply */
    void *rbuf;                  /* result (buf, count, dt), packed offsets from roff */
    size_t rcount;
    rd_datatype_t *rdt;          /* referenced */
    int result;                  /* replies write rbuf: counted in its peer's results */
    rd_request_t *req;           /* completed at the end, or NULL */
    void *tmp;                   /* freed at the end */
    struct rd_rma_pend *next_free;
} rd_rma_pend_t;

/* A record for an operation on (w, target), completing req (or NULL) at
 * the end. NULL when out of memory. The caller sets the result fields,
 * sends its messages (rd_rma_send with p->id), then calls
 * rd_rma_pend_sent: the record ends when every message was answered. */
rd_rma_pend_t *rd_rma_pend_new(rd_win_t *w, int target, rd_request_t *req);
void rd_rma_pend_sent(rd_rma_pend_t *p);
/* Makes (buf, count, dt) the result that p's replies fill, so that local
 * completion (flush_local) waits for them too. */
void rd_rma_pend_result(rd_rma_pend_t *p, void *buf, size_t count, rd_datatype_t *dt);
/* The live record id (from the wire) names, or NULL. */
rd_rma_pend_t *rd_rma_pend_find(uint32_t id);
/* One message of p was answered with status (RD_OK or the target's refusal). */
void rd_rma_pend_answered(rd_rma_pend_t *p, int status);

/* Sends one operation message (hdr[0] its type, the header's window id
 * filled) to w's rank target, counted in peers[target].am_sent (and in
 * p->msgs when p is not NULL) so that completion waits for its answer.
 * When the transport queues it, payload stays referenced until it left:
 * own (NULL or payload's malloc'd block) is freed then. Returns RD_OK or
 * the transport's error (then nothing was counted and own freed). */
int rd_rma_send(rd_win_t *w, int target, rd_rma_pend_t *p, void *hdr, size_t hdrlen,
                const void *payload, size_t len, void *own);
/* rd_rma_send without a record that sends at once or not at all:
 * RD_EAGAIN (nothing counted or queued) when the transport cannot take it
 * now (rd_p2p_am_send_now). */
int rd_rma_send_now(rd_win_t *w, int target, void *hdr, size_t hdrlen, const void *payload,
                    size_t len);
/* Sends a message that no answer follows (ACK, RESP, NOTIFY) to job rank
 * world; payload as rd_rma_send. */
int rd_rma_send_plain(int world, void *hdr, size_t hdrlen, const void *payload, size_t len,
                      void *own);

/* Records the first error of an operation to target (reported by the next
 * completion call). */
void rd_rma_peer_fail(rd_win_t *w, int target, int status);

/* Waits for the RDMA operations issued to target since its last flush
 * (an error is recorded for the next completion call). */
void rd_rma_flush_peer(rd_win_t *w, int target);

/* A transport completion (rd_p2p_done_fn) that completes request ctx. */
void rd_rma_req_done(void *ctx, int status);

/* Progresses until *flag is nonzero. */
void rd_rma_progress_until(volatile int *flag);

#endif
