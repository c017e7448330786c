/*
 * Notified puts (foMPI-NA's design): the target learns that a put's data
 * is in its window, with the origin's rank and a tag, without a message
 * of its own per put where the transport can say so:
 *  - RDMA (rc): one RDMA Write with Immediate, the 32-bit immediate
 *    holding the window id (the context id of its communicator) in the
 *    high 16 bits and the tag in the low 16; the transport delivers it
 *    after the data. Windows or tags that do not fit, non-contiguous data
 *    and transports without put_imm take the last way.
 *  - shared memory (targets whose window memory is mapped here, and this
 *    rank itself): the data copied in, then (source, tag) published in
 *    the notification ring of the target's control block (rma_ring.h).
 *    A full ring is not passed by: the origin asks the target to drain
 *    it (a NOTIFY message flagged DRAIN, handled by the target's
 *    progress) and waits with progress for a slot, so that nothing is
 *    lost and one origin's notifications stay in order.
 *  - otherwise: the put as usual (RDMA flushed before going on, or active
 *    messages), then a NOTIFY message, which the target handles after
 *    every earlier message from this origin.
 * Each (window, target) pair always takes the same way. The target queues
 * notifications that arrive by message, and drained ring entries, per
 * window; rd_rma_notify_test takes the queue first, then the ring (ring
 * entries still there are newer than any drained one).
 */
#include "rma/rma_notify.h"

#include <stdlib.h>
#include <string.h>

#include "rma/rma_ops.h"
#include "rma/rma_origin.h"
#include "rma/rma_ring.h"
#include "rma/rma_wire.h"
#include "util/errdetail.h"
#include "util/status.h"

#define IMM_FIELD_MAX 0xffffu

static struct {
    unsigned long ring, imm, msg, full;
} sent;

void rd_rma_notify_counts(unsigned long *ring, unsigned long *imm, unsigned long *msg,
                          unsigned long *full)
{
    *ring = sent.ring;
    *imm = sent.imm;
    *msg = sent.msg;
    *full = sent.full;
}

/* Makes room for one more notification in w's queue: 0 when no memory
 * is left (the queue only grows, so that is at most once per doubling). */
static int room(struct rd_rma_opstate *os)
{
    if (os->ntail - os->nhead < os->ncap)
        return 1;
    size_t cap = os->ncap ? os->ncap * 2 : 64;
    rd_rma_note_t *n = malloc(cap * sizeof(*n));
    if (!n)
        return 0;
    for (size_t i = 0; i < os->ncap; i++)
        n[i] = os->notes[(os->nhead + i) & (os->ncap - 1)];
    free(os->notes);
    os->notes = n;
    os->ntail -= os->nhead;
    os->nhead = 0;
    os->ncap = cap;
    return 1;
}

/* Queues a notification on w; one that finds no memory is dropped, which
 * the caller cannot report. */
static void push(rd_win_t *w, int source, int tag)
{
    struct rd_rma_opstate *os = w->rma->ops;
    if (os && room(os))
        os->notes[os->ntail++ & (os->ncap - 1)] = (rd_rma_note_t){ source, tag };
}

/* Moves the notifications of this rank's ring into its queue, as far as
 * memory allows (what stays in the ring is still taken, later). */
static void drain(rd_win_t *w)
{
    struct rd_rma_opstate *os = w->rma->ops;
    rd_rma_ring_t *ring = rd_rma_notify_ring(w, w->comm->rank);
    int source, tag;
    while (ring && os && room(os) && rd_rma_ring_pop(ring, &source, &tag))
        if (source >= 0 && source < w->rma->nranks)
            push(w, source, tag);
}

static void on_notify(int peer, const void *hdr, size_t hdrlen, const void *payload,
                      size_t len)
{
    (void)payload;
    (void)len;
    rd_rma_notify_msg_t m;
    if (hdrlen < sizeof(m))
        return;
    memcpy(&m, hdr, sizeof(m));
    rd_win_t *w = rd_rma_win_lookup(m.h.win);
    if (!w || m.src >= (uint32_t)w->rma->nranks || w->rma->peers[m.src].world != peer)
        return;
    if (m.h.flags & RD_RMA_NOTIFY_DRAIN)
        drain(w);
    else
        push(w, (int)m.src, m.tag);
}

static void on_imm(int peer, uint32_t imm)
{
    rd_win_t *w = rd_rma_win_lookup(imm >> 16);
    if (!w)
        return;
    for (int i = 0; i < w->rma->nranks; i++)
        if (w->rma->peers[i].world == peer) {
            push(w, i, (int)(imm & IMM_FIELD_MAX));
            return;
        }
}

int rd_rma_notify_init(void)
{
    rd_p2p_notify_register(on_imm);
    return rd_p2p_am_register(RD_RMA_AM_NOTIFY, on_notify);
}

/* The put as one RDMA Write with Immediate: RD_ENOTSUP when it does not
 * fit that (nothing done). */
static int put_imm(rd_win_t *w, const rd_rma_op_t *op, int tag, rd_request_t *r)
{
    rd_rma_peer_t *pe = &w->rma->peers[op->target];
    if (w->rma->id > IMM_FIELD_MAX || (unsigned)tag > IMM_FIELD_MAX ||
        w->flavor == RD_WIN_DYNAMIC || pe->path != RD_RMA_PATH_RDMA || !pe->keylen ||
        !rd_dt_is_contig(op->odt, op->ocount) || !rd_dt_is_contig(op->tdt, op->tcount))
        return RD_ENOTSUP;
    uint64_t tdata;
    size_t bytes;
    int rc = rd_rma_check(w, op, &tdata, &bytes);
    if (rc != RD_OK)
        return rc;
    size_t max = rd_p2p_rdma_len_max(pe->world);
    if (bytes != op->ocount * op->odt->size || (max && bytes > max))
        return RD_ENOTSUP;
    rc = rd_p2p_rdma_put_imm(pe->world, rd_dt_contig_ptr(op->obuf, op->odt), NULL,
                             pe->base + tdata, pe->key, pe->keylen, bytes,
                             w->rma->id << 16 | (uint32_t)tag, NULL, NULL);
    if (rc != RD_OK)
        return rc;
    pe->rdma_unflushed++;
    if (r) {
        rc = rd_p2p_rdma_flush(pe->world, rd_rma_req_done, r);
        if (rc < 0)
            rd_req_complete(r, rc);
    }
    return RD_OK;
}

/* A NOTIFY message (flags: 0 or RD_RMA_NOTIFY_DRAIN) to target. */
static int send_notify(rd_win_t *w, int target, int flags, int tag)
{
    rd_rma_notify_msg_t m = {
        .h = { .type = RD_RMA_AM_NOTIFY, .flags = (uint8_t)flags, .win = w->rma->id },
        .src = (uint32_t)w->comm->rank, .tag = tag,
    };
    return rd_rma_send_plain(w->rma->peers[target].world, &m, sizeof(m), NULL, 0, NULL);
}

/* Asks target to move its ring's notifications to its queue. */
static int ask_drain(rd_win_t *w, int target)
{
    if (target != w->comm->rank)
        return send_notify(w, target, RD_RMA_NOTIFY_DRAIN, 0);
    drain(w);
    return RD_OK;
}

/* Publishes (this rank, tag) in ring, target's. While the ring is full
 * it asks the target to drain it, again each time the target has taken
 * notifications and the ring still has no slot for this one (other
 * origins took them), and progresses in between. */
static int ring_notify(rd_win_t *w, int target, rd_rma_ring_t *ring, int tag)
{
    int me = w->comm->rank, rc = RD_OK;
    if (!rd_rma_ring_push(ring, me, tag)) {
        sent.full++;
        unsigned idle = 0;
        uint64_t asked = rd_rma_ring_taken(ring);
        rc = ask_drain(w, target);
        while (rc == RD_OK && !rd_rma_ring_push(ring, me, tag)) {
            rd_rma_poll(&idle);
            uint64_t taken = rd_rma_ring_taken(ring);
            if (taken != asked) {
                asked = taken;
                rc = ask_drain(w, target);
            }
        }
    }
    if (rc == RD_OK)
        sent.ring++;
    return rc;
}

int rd_rma_put_notify(rd_win_t *w, const rd_rma_op_t *op, int tag, rd_request_t *r)
{
    int rc = put_imm(w, op, tag, r);
    if (rc != RD_ENOTSUP) {
        if (rc == RD_OK)
            sent.imm++;
        return rc;
    }
    int via;
    if ((rc = rd_rma_put_via(w, op, r, &via)) != RD_OK)
        return rc;
    rd_rma_ring_t *ring = rd_rma_notify_ring(w, op->target);
    if (ring) {
        /* Stored into mapped memory (or nothing to move): the ring's
         * release store publishes the data with the notification. */
        if (via != RD_RMA_VIA_LOCAL && via != RD_RMA_VIA_NONE) {
            rd_err_detail("notified put to rank %d: the data of a target with a notification "
                          "ring did not go by stores", op->target);
            return RD_EINTERN;
        }
        return ring_notify(w, op->target, ring, tag);
    }
    /* The data is in the window before the notification can be seen. */
    if (via == RD_RMA_VIA_RDMA)
        rd_rma_flush_peer(w, op->target);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    sent.msg++;
    return send_notify(w, op->target, 0, tag);
}

/* The oldest notification of w: the queue's first, else the ring's. */
static int take(rd_win_t *w, int *source, int *tag)
{
    struct rd_rma_opstate *os = w->rma->ops;
    if (os->nhead != os->ntail) {
        rd_rma_note_t n = os->notes[os->nhead++ & (os->ncap - 1)];
        *source = n.source;
        *tag = n.tag;
        return 1;
    }
    rd_rma_ring_t *ring = rd_rma_notify_ring(w, w->comm->rank);
    while (ring && rd_rma_ring_pop(ring, source, tag))
        if (*source >= 0 && *source < w->rma->nranks)
            return 1;
    return 0;
}

int rd_rma_notify_test(rd_win_t *w, int *flag, int *source, int *tag)
{
    *flag = take(w, source, tag);
    if (!*flag) {
        rd_progress();
        *flag = take(w, source, tag);
    }
    return RD_OK;
}
