/*
 * Notified puts (foMPI-NA's design): the target learns that a put's data
 * is in its window, with the origin's rank and a tag, without a message
 * of its own per put where the transport can say so:
 *  - RDMA (rc): one RDMA Write with Immediate, the 32-bit immediate
 *    holding the window id (the context id of its communicator) in the
 *    high 16 bits and the tag in the low 16; the transport delivers it
 *    after the data. Windows or tags that do not fit, non-contiguous data
 *    and transports without put_imm take the next way.
 *  - otherwise: the put as usual (memcpy on a mapped window, RDMA flushed
 *    before going on, or active messages), then a NOTIFY message, which
 *    the target handles after every earlier message from this origin.
 * The target queues notifications per window; rd_rma_notify_test takes
 * them in arrival order.
 */
#include "rma/rma_notify.h"

#include <stdlib.h>
#include <string.h>

#include "rma/rma_ops.h"
#include "rma/rma_origin.h"
#include "rma/rma_wire.h"
#include "util/errdetail.h"
#include "util/status.h"

#define IMM_FIELD_MAX 0xffffu

/* Queues a notification on w; one that finds no memory is dropped, which
 * the caller cannot report: the ring only grows, so that is at most once
 * per doubling. */
static void push(rd_win_t *w, int source, int tag)
{
    struct rd_rma_opstate *os = w->rma->ops;
    if (!os)
        return;
    if (os->ntail - os->nhead == os->ncap) {
        size_t cap = os->ncap ? os->ncap * 2 : 64;
        rd_rma_note_t *n = malloc(cap * sizeof(*n));
        if (!n)
            return;
        for (size_t i = 0; i < os->ncap; i++)
            n[i] = os->notes[(os->nhead + i) & (os->ncap - 1)];
        free(os->notes);
        os->notes = n;
        os->ntail -= os->nhead;
        os->nhead = 0;
        os->ncap = cap;
    }
    os->notes[os->ntail++ & (os->ncap - 1)] = (rd_rma_note_t){ source, tag };
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

int rd_rma_put_notify(rd_win_t *w, const rd_rma_op_t *op, int tag, rd_request_t *r)
{
    int rc = put_imm(w, op, tag, r);
    if (rc != RD_ENOTSUP)
        return rc;
    int via;
    if ((rc = rd_rma_put_via(w, op, r, &via)) != RD_OK)
        return rc;
    /* The data is in the window before the notification can be seen. */
    if (via == RD_RMA_VIA_RDMA)
        rd_rma_flush_peer(w, op->target);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    rd_rma_notify_msg_t m = {
        .h = { .type = RD_RMA_AM_NOTIFY, .win = w->rma->id }, .src = (uint32_t)w->comm->rank,
        .tag = tag,
    };
    return rd_rma_send_plain(w->rma->peers[op->target].world, &m, sizeof(m), NULL, 0, NULL);
}

int rd_rma_notify_test(rd_win_t *w, int *flag, int *source, int *tag)
{
    struct rd_rma_opstate *os = w->rma->ops;
    if (os->nhead == os->ntail)
        rd_progress();
    *flag = os->nhead != os->ntail;
    if (!*flag)
        return RD_OK;
    rd_rma_note_t n = os->notes[os->nhead++ & (os->ncap - 1)];
    *source = n.source;
    *tag = n.tag;
    return RD_OK;
}
