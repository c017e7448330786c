/*
 * Completion of one-sided operations, origin side: what each target still
 * owes this rank (active-message operations not yet answered, RDMA
 * operations not yet flushed), the records of operations waiting for data
 * or a request to complete, and sending an operation message so that
 * completion waits for its answer. Every completion call of the
 * synchronization half (flush, unlock, fence, complete) ends in
 * rd_rma_ops_complete.
 */
#include "rma/rma_ops.h"

#include <stdlib.h>
#include <string.h>

#include "rma/rma_am.h"
#include "rma/rma_dev.h"
#include "rma/rma_notify.h"
#include "rma/rma_origin.h"
#include "rma/rma_wire.h"
#include "util/status.h"

/* ---- records of operations waiting for replies ----
 * One table for the process: an id is (generation << 20 | slot + 1), so a
 * reply for a record that ended (or a forged one) finds no live record. */
#define PEND_SLOT_BITS 20
#define PEND_SLOT_MASK ((1u << PEND_SLOT_BITS) - 1)

static struct {
    rd_rma_pend_t **slot;
    uint32_t n, cap;
    rd_rma_pend_t *free;         /* ended records, for reuse */
    uint32_t gen;
} pend;

rd_rma_pend_t *rd_rma_pend_new(rd_win_t *w, int target, rd_request_t *req)
{
    rd_rma_pend_t *p = pend.free;
    if (p) {
        pend.free = p->next_free;
    } else {
        if (pend.n == pend.cap) {
            uint32_t cap = pend.cap ? pend.cap * 2 : 64;
            if (cap > PEND_SLOT_MASK)
                return NULL;
            rd_rma_pend_t **s = realloc(pend.slot, cap * sizeof(*s));
            if (!s)
                return NULL;
            pend.slot = s;
            pend.cap = cap;
        }
        p = calloc(1, sizeof(*p));
        if (!p)
            return NULL;
        pend.slot[pend.n] = p;
        p->id = ++pend.n;
    }
    uint32_t slot = p->id & PEND_SLOT_MASK;
    pend.gen = (pend.gen + 1) & ((1u << (32 - PEND_SLOT_BITS)) - 1);
    *p = (rd_rma_pend_t){ .id = (pend.gen << PEND_SLOT_BITS) | slot, .w = w, .target = target,
                          .sending = 1, .req = req };
    return p;
}

/* The live record id names, or NULL. */
rd_rma_pend_t *rd_rma_pend_find(uint32_t id)
{
    uint32_t slot = id & PEND_SLOT_MASK;
    if (slot == 0 || slot > pend.n)
        return NULL;
    rd_rma_pend_t *p = pend.slot[slot - 1];
    return p->id == id && p->w ? p : NULL;
}

void rd_rma_pend_result(rd_rma_pend_t *p, void *buf, size_t count, rd_datatype_t *dt)
{
    p->rbuf = buf;
    p->rcount = count;
    p->rdt = dt;
    rd_dt_ref(dt);
    p->result = 1;
    p->w->rma->peers[p->target].results++;
}

static void pend_end(rd_rma_pend_t *p)
{
    if (p->result)
        p->w->rma->peers[p->target].results--;
    if (p->req)
        rd_req_complete(p->req, p->error);
    if (p->rdt)
        rd_dt_release(p->rdt);
    free(p->tmp);
    p->w = NULL;
    p->rdt = NULL;
    p->tmp = NULL;
    p->req = NULL;
    p->next_free = pend.free;
    pend.free = p;
}

void rd_rma_pend_sent(rd_rma_pend_t *p)
{
    p->sending = 0;
    if (p->msgs == 0)
        pend_end(p);
}

/* One message of p was answered with status. */
void rd_rma_pend_answered(rd_rma_pend_t *p, int status)
{
    if (status != RD_OK && p->error == RD_OK)
        p->error = status;
    if (--p->msgs == 0 && !p->sending)
        pend_end(p);
}

/* ---- sending ---- */

void rd_rma_peer_fail(rd_win_t *w, int target, int status)
{
    rd_rma_peer_t *pe = &w->rma->peers[target];
    if (pe->error == RD_OK)
        pe->error = status;
}

/* A queued message left (or never will): its payload is free, and a
 * message that will never be answered counts as answered. */
typedef struct sent_ctx {
    rd_win_t *w;                 /* NULL: no answer expected */
    int target;
    uint32_t opid;
    void *own;
    struct sent_ctx *next_free;
} sent_ctx_t;

/* Contexts are reused: most messages leave at once, and a malloc and a
 * free per message would cost more than the send. */
static sent_ctx_t *sent_free;

static void sent_put(sent_ctx_t *s)
{
    s->next_free = sent_free;
    sent_free = s;
}

static void answered_lost(rd_win_t *w, int target, uint32_t opid, int status);

static void sent_done(void *ctx, int status)
{
    sent_ctx_t *s = ctx;
    if (s->w)
        s->w->rma->peers[s->target].am_queued--;
    free(s->own);
    if (status != RD_OK && s->w)
        answered_lost(s->w, s->target, s->opid, status);
    sent_put(s);
}

static int post(int world, rd_win_t *w, int target, uint32_t opid, void *hdr, size_t hdrlen,
                const void *payload, size_t len, void *own)
{
    sent_ctx_t *s = sent_free;
    if (s) {
        sent_free = s->next_free;
    } else if (!(s = malloc(sizeof(*s)))) {
        free(own);
        return RD_ENOMEM;
    }
    *s = (sent_ctx_t){ .w = w, .target = target, .opid = opid, .own = own };
    int rc = rd_p2p_am_send(world, hdr, hdrlen, payload, len, sent_done, s);
    if (rc == RD_EAGAIN) {
        if (w)
            w->rma->peers[target].am_queued++;
        return RD_OK; /* sent_done frees */
    }
    sent_put(s);
    free(own);
    return rc;
}

int rd_rma_send(rd_win_t *w, int target, rd_rma_pend_t *p, void *hdr, size_t hdrlen,
                const void *payload, size_t len, void *own)
{
    rd_rma_peer_t *pe = &w->rma->peers[target];
    rd_rma_hdr_t *h = hdr;
    h->win = w->rma->id;
    /* Counted first: a message to this rank itself is answered inside the send. */
    pe->am_sent++;
    if (p)
        p->msgs++;
    int rc = post(pe->world, w, target, p ? p->id : 0, hdr, hdrlen, payload, len, own);
    if (rc < 0) {
        pe->am_sent--;
        if (p)
            p->msgs--;
    }
    return rc;
}

int rd_rma_send_now(rd_win_t *w, int target, void *hdr, size_t hdrlen, const void *payload,
                    size_t len)
{
    rd_rma_peer_t *pe = &w->rma->peers[target];
    rd_rma_hdr_t *h = hdr;
    h->win = w->rma->id;
    pe->am_sent++;
    int rc = rd_p2p_am_send_now(pe->world, hdr, hdrlen, payload, len);
    if (rc != RD_OK)
        pe->am_sent--;
    return rc;
}

int rd_rma_send_plain(int world, void *hdr, size_t hdrlen, const void *payload, size_t len,
                      void *own)
{
    return post(world, NULL, -1, 0, hdr, hdrlen, payload, len, own);
}

/* A message to target that will never be answered (its peer failed). */
static void answered_lost(rd_win_t *w, int target, uint32_t opid, int status)
{
    w->rma->peers[target].am_acked++;
    rd_rma_peer_fail(w, target, status);
    rd_rma_pend_t *p = opid ? rd_rma_pend_find(opid) : NULL;
    if (p)
        rd_rma_pend_answered(p, status);
}

/* ---- answers (ACK, RESP) ---- */

static void on_answer(int peer, const void *hdr, size_t hdrlen, const void *payload,
                      size_t len)
{
    rd_rma_ack_msg_t a;
    if (hdrlen < sizeof(a))
        return;
    memcpy(&a, hdr, sizeof(a));
    rd_win_t *w = rd_rma_win_lookup(a.h.win);
    if (!w || a.from >= (uint32_t)w->rma->nranks)
        return;
    rd_rma_peer_t *pe = &w->rma->peers[a.from];
    if (pe->world != peer || a.count > pe->am_sent - pe->am_acked)
        return;
    pe->am_acked += a.count;
    int status = a.status;
    if (status != RD_OK)
        rd_rma_peer_fail(w, (int)a.from, status);
    rd_rma_pend_t *p = a.opid ? rd_rma_pend_find(a.opid) : NULL;
    if (!p || p->w != w || p->target != (int)a.from)
        return;
    if (a.h.type == RD_RMA_AM_RESP && status == RD_OK && len) {
        size_t total = p->rdt ? p->rcount * p->rdt->size : 0;
        if (a.roff > total || len > total - a.roff)
            status = RD_EINTERN; /* more than was asked for: keep it out */
        else
            rd_dt_unpack(p->rbuf, p->rcount, p->rdt, a.roff, payload, len);
    }
    rd_rma_pend_answered(p, status);
}

/* ---- completion ---- */

void rd_rma_req_done(void *ctx, int status)
{
    rd_req_complete(ctx, status);
}

void rd_rma_progress_until(volatile int *flag)
{
    if (*flag)
        return;
    unsigned idle = 0;
    rd_p2p_wait_begin();
    while (!*flag)
        if (rd_progress() == 0 && !*flag)
            rd_p2p_idle(&idle);
    rd_p2p_wait_end();
}

typedef struct flush_ctx {
    volatile int done;
    int status;
} flush_ctx_t;

static void flush_done(void *ctx, int status)
{
    flush_ctx_t *f = ctx;
    f->status = status;
    f->done = 1;
}

void rd_rma_flush_peer(rd_win_t *w, int target)
{
    rd_rma_peer_t *pe = &w->rma->peers[target];
    if (!pe->rdma_unflushed)
        return;
    flush_ctx_t f = { 0, RD_OK };
    int rc = rd_p2p_rdma_flush(pe->world, flush_done, &f);
    if (rc == RD_OK || rc == RD_EAGAIN) {
        rd_rma_progress_until(&f.done);
        rc = f.status;
    }
    pe->rdma_unflushed = 0;
    if (rc != RD_OK)
        rd_rma_peer_fail(w, target, rc);
}

static int answered(const rd_rma_peer_t *pe)
{
    return pe->am_acked == pe->am_sent;
}

/* Local completion: the origin's buffers are free and its results are
 * here. An active message's payload is free once the transport took it
 * (copied into a ring, a registered buffer or a socket's send queue);
 * results come with the answers. */
static int done_locally(const rd_rma_peer_t *pe)
{
    return pe->am_queued == 0 && pe->results == 0;
}

/* RDMA operations complete locally when they complete remotely: rc's
 * work completion of an RDMA Write comes with the target device's
 * acknowledgement, and CMA is over when the call returns. */
int rd_rma_ops_complete(rd_win_t *w, int target, int local)
{
    struct rd_rma_win *rw = w->rma;
    int lo = target < 0 ? 0 : target, hi = target < 0 ? rw->nranks : target + 1;
    /* Stores into mapped windows (SHM path) are visible before whatever
     * synchronization follows. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* One poll even when nothing is owed: a rank that spins on its own
     * window (a lock word it polls with Compare_and_swap and a flush)
     * still serves the operations other ranks sent to it. */
    rd_progress();
    for (int t = lo; t < hi; t++)
        rd_rma_flush_peer(w, t);
    unsigned idle = 0;
    int waiting = 0;   /* the wait mark is stored only by a wait that loops */
    for (int t = lo; t < hi; t++)
        while (local ? !done_locally(&rw->peers[t]) : !answered(&rw->peers[t])) {
            if (!waiting) {
                rd_p2p_wait_begin();
                waiting = 1;
            }
            if (rd_progress() == 0)
                rd_p2p_idle(&idle);
        }
    if (waiting)
        rd_p2p_wait_end();
    int err = RD_OK;
    for (int t = lo; t < hi; t++) {
        if (rw->peers[t].error != RD_OK && err == RD_OK)
            err = rw->peers[t].error;
        rw->peers[t].error = RD_OK;
    }
    return err;
}

int rd_rma_ops_pending(rd_win_t *w, int target)
{
    struct rd_rma_win *rw = w->rma;
    int lo = target < 0 ? 0 : target, hi = target < 0 ? rw->nranks : target + 1;
    for (int t = lo; t < hi; t++)
        if (!answered(&rw->peers[t]) || rw->peers[t].rdma_unflushed)
            return 1;
    return 0;
}

int rd_rma_ops_win_new(rd_win_t *w)
{
    struct rd_rma_opstate *os = calloc(1, sizeof(*os));
    if (!os)
        return RD_ENOMEM;
    w->rma->ops = os;
    return RD_OK;
}

void rd_rma_ops_win_free(rd_win_t *w)
{
    struct rd_rma_opstate *os = w->rma->ops;
    if (!os)
        return;
    free(os->notes);
    free(os);
    w->rma->ops = NULL;
}

int rd_rma_ops_init(void)
{
    int rc = rd_rma_origin_init();
    if (rc == RD_OK)
        rc = rd_rma_dev_init();
    if (rc == RD_OK)
        rc = rd_p2p_am_register(RD_RMA_AM_ACK, on_answer);
    if (rc == RD_OK)
        rc = rd_p2p_am_register(RD_RMA_AM_RESP, on_answer);
    if (rc == RD_OK)
        rc = rd_rma_am_init();
    if (rc == RD_OK)
        rc = rd_rma_notify_init();
    return rc;
}

void rd_rma_ops_finalize(void)
{
    rd_rma_am_finalize();
    while (sent_free) {
        sent_ctx_t *s = sent_free;
        sent_free = s->next_free;
        free(s);
    }
    for (uint32_t i = 0; i < pend.n; i++)
        free(pend.slot[i]);
    free(pend.slot);
    memset(&pend, 0, sizeof(pend));
}
