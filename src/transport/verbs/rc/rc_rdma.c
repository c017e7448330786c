/*
 * RC RDMA: rendezvous keys (rd_rc_key_t: rkey and range, from the
 * registration cache) and get/put by RDMA Read and Write. An operation
 * waits in its peer's queue for the connection, room in the send queue or,
 * for a Read, one of the rd_atom read slots; queued operations are posted
 * as one send list. No flush() yet: every get/put completes through its
 * own signalled WR.
 */
#include "transport/verbs/rc/rc_rdma.h"

#include <stdlib.h>
#include <string.h>

#include "transport/verbs/rc/rc_cm.h"

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
        if (n == 16 || p->sq.used + (uint32_t)n + 2 > (uint32_t)rd_rc.sq_depth)
            break;
        if (!op->write && reads >= rd_rc.rd_atom)
            break;   /* keep order: a read waits for a read slot */
        reads += !op->write;
        sge[n] = (struct ibv_sge){ (uintptr_t)op->local, op->len, rd_vb_mr(op->mr)->lkey };
        wr[n] = (struct ibv_send_wr){
            .next = NULL,
            .sg_list = &sge[n],
            .num_sge = 1,
            .opcode = op->write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
            .send_flags = IBV_SEND_SIGNALED,
            .wr.rdma = { .remote_addr = op->raddr, .rkey = op->rkey },
        };
        if (n)
            wr[n - 1].next = &wr[n];
        pe[n] = (rc_pend_t){ .slot = -1, .read = (uint8_t)!op->write, .mr = op->mr,
                             .done = op->done, .ctx = op->ctx };
        taken[n++] = op;
    }
    if (n == 0)
        return;
    if (post_chain(peer, wr, pe, n) != RD_OK) {
        rd_rc_fail_peer(peer, RD_EPEER);
        return;
    }
    p->sq.reads = reads;
    for (int i = 0; i < n; i++) {
        rd_list_remove(&taken[i]->link);
        free(taken[i]);
    }
}

static int rc_rdma(int peer, int write, void *local, uint64_t raddr, const void *key,
                   size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    rd_rc_key_t k;
    if ((unsigned)peer >= (unsigned)rd_rc.size || peer == rd_rc.rank || !rd_rc.dev ||
        keylen != sizeof(k) || !rd_rc_reachable(peer))
        return RD_EINVAL;
    memcpy(&k, key, sizeof(k));
    if (raddr < k.addr || len > k.len || raddr - k.addr > k.len - len ||
        len > rd_rc.dev->port_attr.max_msg_sz || len > UINT32_MAX)
        return RD_EINVAL;
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->cm.state == RC_FAILED)
        return RD_EPEER;
    if (len == 0) {
        done(ctx, RD_OK);
        return RD_OK;
    }
    rc_op_t *op = malloc(sizeof(*op));
    if (!op)
        return RD_ENOMEM;
    int err = rd_vb_mr_acquire(rd_rc.dev, local, len, &op->mr);
    if (err != RD_OK) {
        free(op);
        return err;
    }
    op->write = write;
    op->local = local;
    op->raddr = raddr;
    op->rkey = k.rkey;
    op->len = (uint32_t)len;
    op->done = done;
    op->ctx = ctx;
    rd_list_push_back(&p->sq.ops, &op->link);
    if (p->cm.state == RC_IDLE)
        rd_rc_start_connect(peer);
    else
        rd_rc_issue_ops(peer);
    return RD_OK;
}

int rd_rc_get(int peer, void *local, uint64_t remote_addr, const void *key,
                  size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, 0, local, remote_addr, key, keylen, len, done, ctx);
}

int rd_rc_put(int peer, const void *local, uint64_t remote_addr, const void *key,
                  size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, 1, (void *)local, remote_addr, key, keylen, len, done, ctx);
}

int rd_rc_mem_key(const void *buf, size_t len, void *key, size_t *keylen)
{
    rd_rc_key_t k;
    if (!rd_rc.dev || *keylen < sizeof(k) || len == 0)
        return RD_EINVAL;
    rc_expo_t *x = malloc(sizeof(*x));
    if (!x)
        return RD_ENOMEM;
    int err = rd_vb_mr_acquire(rd_rc.dev, buf, len, &x->mr);
    if (err != RD_OK) {
        free(x);
        return err;
    }
    x->buf = buf;
    x->len = len;
    rd_list_push_front(&rd_rc.expos, &x->link);
    k.rkey = rd_vb_mr(x->mr)->rkey;
    k.reserved = 0;
    k.addr = (uint64_t)(uintptr_t)buf;
    k.len = len;
    memcpy(key, &k, sizeof(k));
    *keylen = sizeof(k);
    return RD_OK;
}

/* The peer is done with a key: the registration may be evicted again. The
 * list is short (one entry per rendezvous in flight). */
void rd_rc_mem_release(const void *buf, size_t len)
{
    rd_list_t *pos;
    rd_list_for_each(pos, &rd_rc.expos) {
        rc_expo_t *x = rd_list_entry(pos, rc_expo_t, link);
        if (x->buf == buf && x->len == len) {
            rd_list_remove(&x->link);
            rd_vb_mr_release(rd_rc.dev, x->mr);
            free(x);
            return;
        }
    }
}
