/*
 * RC RDMA: registrations (mem_reg: the pin-down cache's entry and its
 * rd_rc_key_t, rkey and range), get/put by RDMA Read and Write, put_imm by
 * RDMA Write with Immediate, 8-byte atomics through a registered bounce
 * buffer, and flush. An operation is posted at once when nothing waits
 * before it; else it waits in its peer's queue for the connection, room in
 * the send queue, for a Read or atomic one of the rd_atom read slots, for
 * an atomic a bounce slot and for a put_imm a receive credit; queued
 * operations are posted as one send list. Puts up to the inline limit go
 * inline. Each peer counts the operations issued and completed: flush
 * waits until the completed count reaches what was issued when it was
 * called; operations without done ask for no completion of their own
 * (but one posted on an idle QP does), so a flush may post a zero-byte
 * signalled Write behind them.
 */
#include "transport/verbs/rc/rc_rdma.h"

#include <stdlib.h>
#include <string.h>

#include "transport/verbs/rc/rc_cm.h"

/* The bounce slots for atomics' results, with the data path. */
int rd_rc_rdma_setup(void)
{
    if (posix_memalign((void **)&rd_rc.abuf, 64, RC_ABUF_SLOTS * sizeof(uint64_t)) != 0)
        return RD_ENOMEM;
    rd_rc.amr = ibv_reg_mr(rd_rc.dev->pd, rd_rc.abuf, RC_ABUF_SLOTS * sizeof(uint64_t),
                           IBV_ACCESS_LOCAL_WRITE);
    if (!rd_rc.amr)
        return RD_ESYS;
    for (int i = 0; i < RC_ABUF_SLOTS; i++)
        rd_rc.afree[i] = RC_ABUF_SLOTS - 1 - i;
    rd_rc.nafree = RC_ABUF_SLOTS;
    return RD_OK;
}

/* Whether op may be posted now behind n WRs of this pass, with reads read
 * slots and credits receive credits of p taken by then. */
static int op_fits(const rc_peer_t *p, const rc_op_t *op, int n, int reads, int credits)
{
    if (p->sq.used + (uint32_t)n + 2 > (uint32_t)rd_rc.sq_depth)
        return 0;   /* one WR stays free for CREDIT/FLUSH/BYE */
    switch ((enum rc_op_kind)op->kind) {
    case RC_OP_WRITE:
        return 1;
    case RC_OP_WRITE_IMM:
        return credits > 0;   /* the immediate takes a receive buffer there */
    case RC_OP_READ:
        return reads < rd_rc.rd_atom;
    case RC_OP_FADD:
    case RC_OP_CSWAP:
        return reads < rd_rc.rd_atom && rd_rc.nafree > 0;
    }
    return 0;
}

/* The WR of op. Only operations with a done of their own ask for a
 * completion (post_chain adds one in RDMPI_RC_SIGNAL_EVERY); the others are
 * over when a later WR's completion arrives (a QP completes in order), and
 * flush makes sure one does. A Read or atomic that takes the last read slot
 * is signalled, so that the slots come back without a flush, and so is an
 * atomic (its bounce slot is shared by every peer). */
static void fill_wr(rc_peer_t *p, const rc_op_t *op, int reads, struct ibv_send_wr *wr,
                    struct ibv_sge *sge, rc_pend_t *pe)
{
    int read = op->kind != RC_OP_WRITE && op->kind != RC_OP_WRITE_IMM;
    int atomic = op->kind == RC_OP_FADD || op->kind == RC_OP_CSWAP;
    int aslot = atomic ? rd_rc.afree[--rd_rc.nafree] : -1;
    int sig = op->done || atomic || (read && reads + 1 >= rd_rc.rd_atom);
    *wr = (struct ibv_send_wr){
        .sg_list = sge,
        .num_sge = 1,
        .send_flags = sig ? IBV_SEND_SIGNALED : 0,
    };
    if (atomic) {
        *sge = (struct ibv_sge){ (uintptr_t)&rd_rc.abuf[aslot], 8, rd_rc.amr->lkey };
        wr->opcode = op->kind == RC_OP_FADD ? IBV_WR_ATOMIC_FETCH_AND_ADD
                                            : IBV_WR_ATOMIC_CMP_AND_SWP;
        wr->wr.atomic.remote_addr = op->raddr;
        wr->wr.atomic.compare_add = op->add;
        wr->wr.atomic.swap = op->swap;
        wr->wr.atomic.rkey = op->rkey;
    } else {
        *sge = (struct ibv_sge){ (uintptr_t)op->local, op->len, op->inl ? 0 : op->lkey };
        wr->opcode = op->kind == RC_OP_READ ? IBV_WR_RDMA_READ
                   : op->kind == RC_OP_WRITE ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_WRITE_WITH_IMM;
        wr->wr.rdma.remote_addr = op->raddr;
        wr->wr.rdma.rkey = op->rkey;
        if (op->kind == RC_OP_WRITE_IMM)
            wr->imm_data = htonl(op->imm);
        if (op->inl)
            wr->send_flags |= IBV_SEND_INLINE;
        if (op->len == 0)
            wr->num_sge = 0;   /* a put_imm of no bytes: the immediate alone */
    }
    *pe = (rc_pend_t){ .slot = -1, .read = (uint8_t)read, .rdma = 1, .aslot = aslot,
                       .mr = op->mr, .done = op->done, .ctx = op->ctx, .result = op->result };
    p->sq.mark_raddr = op->raddr;
    p->sq.mark_rkey = op->rkey;
    p->sq.mark_ok = 1;
}

/* A flush waits on p and every operation is posted, but the last ones ask
 * for no completion: a zero-byte signalled RDMA Write behind them (at an
 * address and key the last operation used) completes after all of them.
 * Without room now, it is posted when a completion brings some. */
static void flush_mark(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (rd_list_empty(&p->sq.flushes) || !rd_list_empty(&p->sq.ops) ||
        p->sq.sig_end == p->sq.post_seq || !p->sq.mark_ok || p->cm.state != RC_READY ||
        p->sq.used + 2 > (uint32_t)rd_rc.sq_depth)
        return;
    struct ibv_send_wr wr = {
        .opcode = IBV_WR_RDMA_WRITE,
        .num_sge = 0,
        .send_flags = IBV_SEND_SIGNALED,
        .wr.rdma = { .remote_addr = p->sq.mark_raddr, .rkey = p->sq.mark_rkey },
    };
    rc_pend_t pe = { .slot = -1, .aslot = -1 };
    if (post_chain(peer, &wr, &pe, 1) != RD_OK)
        rd_rc_fail_peer(peer, RD_EPEER);
}

/* Posts queued get/put/atomic operations of peer that fit, as one send
 * list (one doorbell), in their order: the first that does not fit stops
 * the list. When a flush waits and the queue empties, the last WR is
 * signalled, so that the flush needs no WR of its own. */
void rd_rc_post_ops(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    struct ibv_send_wr wr[16];
    struct ibv_sge sge[16];
    rc_pend_t pe[16];
    rc_op_t *taken[16];
    int n = 0, all = 1, reads = p->sq.reads, credits = p->credit.tx;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &p->sq.ops) {
        rc_op_t *op = rd_list_entry(pos, rc_op_t, link);
        all = 0;
        if (n == 16)
            break;
        if (!op_fits(p, op, n, reads, credits)) {
            if ((op->kind == RC_OP_FADD || op->kind == RC_OP_CSWAP) &&
                reads < rd_rc.rd_atom && rd_rc.nafree == 0)
                rd_rc.abuf_wait = 1;   /* every bounce slot in use: retried when one frees */
            break;
        }
        fill_wr(p, op, reads, &wr[n], &sge[n], &pe[n]);
        reads += pe[n].read;
        credits -= op->kind == RC_OP_WRITE_IMM;
        if (n)
            wr[n - 1].next = &wr[n];
        taken[n++] = op;
        all = 1;
    }
    if (n == 0) {
        flush_mark(peer);
        return;
    }
    if (all && !rd_list_empty(&p->sq.flushes))
        wr[n - 1].send_flags |= IBV_SEND_SIGNALED;
    if (post_chain(peer, wr, pe, n) != RD_OK) {
        for (int i = 0; i < n; i++)
            if (pe[i].aslot >= 0)
                rd_rc.afree[rd_rc.nafree++] = pe[i].aslot;
        rd_rc_fail_peer(peer, RD_EPEER);
        return;
    }
    p->sq.reads = reads;
    p->credit.tx = credits;
    for (int i = 0; i < n; i++) {
        rd_list_remove(&taken[i]->link);
        free(taken[i]);
    }
}

/* Ends flushes of p whose operations have all completed. */
static void flush_check(rc_peer_t *p)
{
    while (!rd_list_empty(&p->sq.flushes)) {
        rc_fwait_t *w = rd_list_entry(p->sq.flushes.next, rc_fwait_t, link);
        if ((int32_t)(p->sq.rdma_done - w->target) < 0)
            return;
        rd_list_remove(&w->link);
        rc_flush_t *f = w->f;
        free(w);
        if (p->sq.rdma_error != RD_OK && f->status == RD_OK)
            f->status = p->sq.rdma_error;
        p->sq.rdma_error = RD_OK;
        if (--f->n == 0) {
            rd_tp_done_fn done = f->done;
            void *ctx = f->ctx;
            int status = f->status;
            free(f);
            done(ctx, status);
        }
    }
}

/* A get, put or atomic of p is over (completed, flushed in error, or
 * dropped with its failed peer). */
void rd_rc_rdma_retire(rc_peer_t *p, int status, rd_tp_done_fn done, void *ctx,
                        uint64_t *result, int aslot)
{
    if (aslot >= 0) {
        if (status == RD_OK)
            *result = rd_rc.abuf[aslot];
        rd_rc.afree[rd_rc.nafree++] = aslot;
        if (rd_rc.abuf_wait) {
            /* Another peer's atomic may have waited for this slot. */
            rd_rc.abuf_wait = 0;
            for (int i = 0; i < rd_rc.size; i++)
                rd_rc_issue_ops(i);
        }
    }
    p->sq.rdma_done++;
    if (done)
        done(ctx, status);
    else if (status != RD_OK && p->sq.rdma_error == RD_OK)
        p->sq.rdma_error = status;
    flush_check(p);
}

/* Checks the arguments of an operation on [raddr, raddr+len) of peer's
 * memory that key describes; returns RD_OK and the rkey, or the error. */
static int check_remote(int peer, uint64_t raddr, const void *key, size_t keylen, size_t len,
                        uint32_t *rkey)
{
    rd_rc_key_t k;
    /* This process itself only through its loopback (rd_rc_loopback). */
    int self = peer == rd_rc.rank;
    if ((unsigned)peer >= (unsigned)rd_rc.size || !rd_rc.dev || keylen != sizeof(k) ||
        (self ? rd_rc.peers[peer].cm.state == RC_IDLE
              : rd_rc.peers[peer].cm.state != RC_READY && !rd_rc_reachable(peer)))
        return RD_EINVAL;
    memcpy(&k, key, sizeof(k));
    if (raddr < k.addr || len > k.len || raddr - k.addr > k.len - len ||
        len > rd_rc.dev->port_attr.max_msg_sz || len > UINT32_MAX)
        return RD_EINVAL;
    if (rd_rc.peers[peer].cm.state == RC_FAILED)
        return RD_EPEER;
    *rkey = k.rkey;
    return RD_OK;
}

/* Issues op (built by the caller, on its stack) to peer: posted at once
 * when the connection is up, nothing waits before it and it fits; else
 * copied to the heap (with an inline put's bytes) and queued, connecting
 * first if needed. RD_OK (done will be called) or RD_ENOMEM (nothing done). */
static int submit(int peer, const rc_op_t *op)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->cm.state == RC_READY && rd_list_empty(&p->sq.ops) &&
        op_fits(p, op, 0, p->sq.reads, p->credit.tx)) {
        struct ibv_send_wr wr;
        struct ibv_sge sge;
        rc_pend_t pe;
        fill_wr(p, op, p->sq.reads, &wr, &sge, &pe);
        /* Alone on the QP, it asks for its completion: a flush that
         * follows (a put or get then Win_flush) waits for it instead of
         * posting a zero-byte Write, one request more, behind it; a burst
         * pays one completion more, for its first operation. */
        if (p->sq.used == 0)
            wr.send_flags |= IBV_SEND_SIGNALED;
        p->sq.rdma_issued++;
        if (RC_UNLIKELY(post_chain(peer, &wr, &pe, 1) != RD_OK)) {
            if (pe.aslot >= 0)
                rd_rc.afree[rd_rc.nafree++] = pe.aslot;
            if (pe.mr)
                rd_vb_mr_release(rd_rc.dev, pe.mr);
            rd_rc_fail_peer(peer, RD_EPEER);
            rd_rc_rdma_retire(p, RD_EPEER, op->done, op->ctx, NULL, -1);
            return RD_OK;
        }
        p->sq.reads += pe.read;
        p->credit.tx -= op->kind == RC_OP_WRITE_IMM;
        return RD_OK;
    }
    size_t copy = op->inl ? op->len : 0;
    rc_op_t *q = malloc(sizeof(*q) + copy);
    if (!q)
        return RD_ENOMEM;
    *q = *op;
    if (copy) {
        memcpy(q->data, op->local, copy);
        q->local = q->data;
    }
    p->sq.rdma_issued++;
    rd_list_push_back(&p->sq.ops, &q->link);
    if (p->cm.state == RC_IDLE)
        rd_rc_start_connect(peer);
    else
        rd_rc_issue_ops(peer);
    return RD_OK;
}

/* A get, put or put with immediate. A put of at most the QP's inline limit
 * is posted inline (the bytes go into the WR: no registration, and the
 * caller may reuse its buffer at once); the others read or write local
 * through lmem or the registration cache. */
static int rc_rdma(int peer, int kind, void *local, rd_tp_mem_t *lmem, uint64_t raddr,
                   const void *key, size_t keylen, size_t len, uint32_t imm,
                   rd_tp_done_fn done, void *ctx)
{
    uint32_t rkey;
    int err = check_remote(peer, raddr, key, keylen, len, &rkey);
    if (err != RD_OK)
        return err;
    if (lmem && ((uintptr_t)local < (uintptr_t)lmem->buf ||
                 (uintptr_t)local - (uintptr_t)lmem->buf > lmem->len ||
                 len > lmem->len - ((uintptr_t)local - (uintptr_t)lmem->buf)))
        return RD_EINVAL;
    if (len == 0 && kind != RC_OP_WRITE_IMM) {
        if (done)
            done(ctx, RD_OK);
        return RD_OK;
    }
    rc_op_t op = { .kind = (uint8_t)kind, .local = local, .raddr = raddr, .rkey = rkey,
                   .len = (uint32_t)len, .imm = imm, .done = done, .ctx = ctx };
    if (kind != RC_OP_READ && len <= rd_rc.max_inline) {
        op.inl = 1;
    } else if (lmem) {
        op.lkey = rd_vb_mr(((rc_mem_t *)lmem)->mr)->lkey;
    } else {
        if ((err = rd_vb_mr_acquire(rd_rc.dev, local, len, &op.mr)) != RD_OK)
            return err;
        op.lkey = rd_vb_mr(op.mr)->lkey;
    }
    err = submit(peer, &op);
    if (err != RD_OK && op.mr)
        rd_vb_mr_release(rd_rc.dev, op.mr);
    return err;
}

int rd_rc_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
              const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, RC_OP_READ, local, lmem, remote_addr, key, keylen, len, 0, done, ctx);
}

int rd_rc_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
              const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, RC_OP_WRITE, (void *)local, lmem, remote_addr, key, keylen, len, 0,
                   done, ctx);
}

/* RDMA Write with Immediate: the immediate arrives after the bytes, as a
 * receive completion at the peer that takes one of our receive credits
 * there (rc.h, "put with immediate"). */
int rd_rc_put_imm(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                  const void *key, size_t keylen, size_t len, uint32_t imm,
                  rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, RC_OP_WRITE_IMM, (void *)local, lmem, remote_addr, key, keylen, len,
                   imm, done, ctx);
}

static int rc_atomic(int peer, int kind, uint64_t raddr, const void *key, size_t keylen,
                     uint64_t add, uint64_t swap, uint64_t *result, rd_tp_done_fn done, void *ctx)
{
    uint32_t rkey;
    int err = check_remote(peer, raddr, key, keylen, 8, &rkey);
    if (err != RD_OK)
        return err;
    if ((raddr & 7) || !result)
        return RD_EINVAL;
    rc_op_t op = { .kind = (uint8_t)kind, .raddr = raddr, .rkey = rkey, .len = 8,
                   .add = add, .swap = swap, .result = result, .done = done, .ctx = ctx };
    return submit(peer, &op);
}

int rd_rc_fetch_add(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                        uint64_t add, uint64_t *result, rd_tp_done_fn done, void *ctx)
{
    return rc_atomic(peer, RC_OP_FADD, remote_addr, key, keylen, add, 0, result, done, ctx);
}

int rd_rc_cswap(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                    uint64_t compare, uint64_t swap, uint64_t *result, rd_tp_done_fn done,
                    void *ctx)
{
    return rc_atomic(peer, RC_OP_CSWAP, remote_addr, key, keylen, compare, swap, result, done,
                     ctx);
}

/* Waits for the completions of what was issued to each peer so far (RC
 * completes an RDMA operation once the target's device acknowledged it). */
int rd_rc_flush(int peer, rd_tp_done_fn done, void *ctx)
{
    if (!rd_rc.dev || peer < -1 || peer >= rd_rc.size || !done)
        return RD_EINVAL;
    if (peer >= 0 && rd_rc.peers[peer].sq.rdma_done == rd_rc.peers[peer].sq.rdma_issued) {
        /* Everything completed already (a Get and its flush, whose Read
         * completed in the progress before): no record to allocate. */
        rc_peer_t *p = &rd_rc.peers[peer];
        int status = p->sq.rdma_error;
        p->sq.rdma_error = RD_OK;
        done(ctx, status);
        return RD_OK;
    }
    rc_flush_t *f = malloc(sizeof(*f));
    if (!f)
        return RD_ENOMEM;
    *f = (rc_flush_t){ .n = 1, .status = RD_OK, .done = done, .ctx = ctx };
    int first = peer < 0 ? 0 : peer, last = peer < 0 ? rd_rc.size - 1 : peer;
    for (int i = first; i <= last; i++) {
        rc_peer_t *p = &rd_rc.peers[i];
        if (p->sq.rdma_done == p->sq.rdma_issued) {
            if (p->sq.rdma_error != RD_OK && f->status == RD_OK)
                f->status = p->sq.rdma_error;
            p->sq.rdma_error = RD_OK;
            continue;
        }
        rc_fwait_t *w = malloc(sizeof(*w));
        if (!w) {
            f->status = RD_ENOMEM;
            continue;
        }
        w->target = p->sq.rdma_issued;
        w->f = f;
        f->n++;
        rd_list_push_back(&p->sq.flushes, &w->link);
        rd_rc_issue_ops(i);   /* the operations' last WR may ask for no completion */
    }
    if (--f->n == 0) {
        int status = f->status;
        free(f);
        done(ctx, status);
    }
    return RD_OK;
}

int rd_rc_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem)
{
    rd_rc_key_t k;
    _Static_assert(sizeof(k) <= RD_TP_KEY_MAX, "an rc key fits a transport key");
    if (!rd_rc.dev || len == 0)
        return RD_EINVAL;
    rc_mem_t *x = malloc(sizeof(*x));
    if (!x)
        return RD_ENOMEM;
    int err = rd_vb_mr_acquire(rd_rc.dev, buf, len, &x->mr);
    if (err != RD_OK) {
        free(x);
        return err;
    }
    rd_list_push_front(&rd_rc.expos, &x->link);
    k.rkey = rd_vb_mr(x->mr)->rkey;
    k.reserved = 0;
    k.addr = (uint64_t)(uintptr_t)buf;
    k.len = len;
    x->pub.buf = buf;
    x->pub.len = len;
    x->pub.keylen = sizeof(k);
    memcpy(x->pub.key, &k, sizeof(k));
    *mem = &x->pub;
    return RD_OK;
}

/* No peer uses the key any more: the registration may be evicted again. */
void rd_rc_mem_dereg(rd_tp_mem_t *mem)
{
    rc_mem_t *x = (rc_mem_t *)mem;
    rd_list_remove(&x->link);
    rd_vb_mr_release(rd_rc.dev, x->mr);
    free(x);
}
