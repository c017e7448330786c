/*
 * RC RDMA: registrations (mem_reg: the pin-down cache's entry and its
 * rd_rc_key_t, rkey and range), get/put by RDMA Read and Write, 8-byte
 * atomics through a registered bounce buffer, and flush. An operation waits
 * in its peer's queue for the connection, room in the send queue, for a
 * Read or atomic one of the rd_atom read slots and for an atomic a bounce
 * slot; queued operations are posted as one send list. Each peer counts
 * the operations issued and completed: flush waits until the completed
 * count reaches what was issued when it was called.
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

/* Posts queued get/put/atomic operations of peer that fit, as one send
 * list. Only the ones with a done of their own and the last of the list
 * are signalled: the completion of a later WR tells an earlier one is over
 * (a QP completes in order), so flush never waits on a silent WR. */
void rd_rc_post_ops(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    struct ibv_send_wr wr[16];
    struct ibv_sge sge[16];
    rc_pend_t pe[16];
    rc_op_t *taken[16];
    int n = 0, reads = p->sq.reads;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &p->sq.ops) {
        rc_op_t *op = rd_list_entry(pos, rc_op_t, link);
        int atomic = op->kind == RC_OP_FADD || op->kind == RC_OP_CSWAP;
        if (n == 16 || p->sq.used + (uint32_t)n + 2 > (uint32_t)rd_rc.sq_depth)
            break;
        if (op->kind != RC_OP_WRITE && reads >= rd_rc.rd_atom)
            break;   /* keep order: a read or atomic waits for a read slot */
        if (atomic && rd_rc.nafree == 0) {
            rd_rc.abuf_wait = 1;   /* every bounce slot in use: retried when one frees */
            break;
        }
        reads += op->kind != RC_OP_WRITE;
        int aslot = atomic ? rd_rc.afree[--rd_rc.nafree] : -1;
        wr[n] = (struct ibv_send_wr){
            .next = NULL,
            .sg_list = &sge[n],
            .num_sge = 1,
            .send_flags = op->done ? IBV_SEND_SIGNALED : 0,
        };
        if (atomic) {
            sge[n] = (struct ibv_sge){ (uintptr_t)&rd_rc.abuf[aslot], 8, rd_rc.amr->lkey };
            wr[n].opcode = op->kind == RC_OP_FADD ? IBV_WR_ATOMIC_FETCH_AND_ADD
                                                  : IBV_WR_ATOMIC_CMP_AND_SWP;
            wr[n].wr.atomic.remote_addr = op->raddr;
            wr[n].wr.atomic.compare_add = op->add;
            wr[n].wr.atomic.swap = op->swap;
            wr[n].wr.atomic.rkey = op->rkey;
        } else {
            sge[n] = (struct ibv_sge){ (uintptr_t)op->local, op->len, op->lkey };
            wr[n].opcode = op->kind == RC_OP_WRITE ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ;
            wr[n].wr.rdma.remote_addr = op->raddr;
            wr[n].wr.rdma.rkey = op->rkey;
        }
        if (n)
            wr[n - 1].next = &wr[n];
        pe[n] = (rc_pend_t){ .slot = -1, .read = (uint8_t)(op->kind != RC_OP_WRITE),
                             .rdma = 1, .aslot = aslot, .mr = op->mr, .done = op->done,
                             .ctx = op->ctx, .result = op->result };
        taken[n++] = op;
    }
    if (n == 0)
        return;
    wr[n - 1].send_flags |= IBV_SEND_SIGNALED;
    if (post_chain(peer, wr, pe, n) != RD_OK) {
        for (int i = 0; i < n; i++)
            if (pe[i].aslot >= 0)
                rd_rc.afree[rd_rc.nafree++] = pe[i].aslot;
        rd_rc_fail_peer(peer, RD_EPEER);
        return;
    }
    p->sq.reads = reads;
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
    if ((unsigned)peer >= (unsigned)rd_rc.size || peer == rd_rc.rank || !rd_rc.dev ||
        keylen != sizeof(k) || !rd_rc_reachable(peer))
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

/* Queues op for peer (connecting first if needed) and posts what fits. */
static void queue_op(int peer, rc_op_t *op)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    p->sq.rdma_issued++;
    rd_list_push_back(&p->sq.ops, &op->link);
    if (p->cm.state == RC_IDLE)
        rd_rc_start_connect(peer);
    else
        rd_rc_issue_ops(peer);
}

static int rc_rdma(int peer, int write, void *local, rd_tp_mem_t *lmem, uint64_t raddr,
                   const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    uint32_t rkey;
    int err = check_remote(peer, raddr, key, keylen, len, &rkey);
    if (err != RD_OK)
        return err;
    if (lmem && ((uintptr_t)local < (uintptr_t)lmem->buf ||
                 (uintptr_t)local - (uintptr_t)lmem->buf > lmem->len ||
                 len > lmem->len - ((uintptr_t)local - (uintptr_t)lmem->buf)))
        return RD_EINVAL;
    if (len == 0) {
        if (done)
            done(ctx, RD_OK);
        return RD_OK;
    }
    rc_op_t *op = malloc(sizeof(*op));
    if (!op)
        return RD_ENOMEM;
    op->mr = NULL;
    if (lmem) {
        op->lkey = rd_vb_mr(((rc_mem_t *)lmem)->mr)->lkey;
    } else {
        if ((err = rd_vb_mr_acquire(rd_rc.dev, local, len, &op->mr)) != RD_OK) {
            free(op);
            return err;
        }
        op->lkey = rd_vb_mr(op->mr)->lkey;
    }
    op->kind = write ? RC_OP_WRITE : RC_OP_READ;
    op->local = local;
    op->raddr = raddr;
    op->rkey = rkey;
    op->len = (uint32_t)len;
    op->result = NULL;
    op->done = done;
    op->ctx = ctx;
    queue_op(peer, op);
    return RD_OK;
}

int rd_rc_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                  const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, 0, local, lmem, remote_addr, key, keylen, len, done, ctx);
}

int rd_rc_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                  const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, 1, (void *)local, lmem, remote_addr, key, keylen, len, done, ctx);
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
    rc_op_t *op = malloc(sizeof(*op));
    if (!op)
        return RD_ENOMEM;
    *op = (rc_op_t){ .kind = (uint8_t)kind, .raddr = raddr, .rkey = rkey, .len = 8,
                     .add = add, .swap = swap, .result = result, .done = done, .ctx = ctx };
    queue_op(peer, op);
    return RD_OK;
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
