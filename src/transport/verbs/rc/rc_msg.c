/*
 * RC messages: send/recv over the pair's QP into the receiver's shared
 * receive queue. Sends that fit the QP's inline limit go inline straight
 * from the caller's buffers, others through registered send buffers; one
 * send WR in RDMPI_RC_SIGNAL_EVERY is signalled (FLUSH reclaims buffers
 * held by unsignalled ones); credits ride in the immediate, or in a CREDIT
 * message when nothing else goes the peer's way; receive buffers go back to
 * the SRQ in one post list per pass. Messages that fit the peer's ring go
 * by RDMA Write instead (rc_ring.c).
 */
#include "transport/verbs/rc/rc_msg.h"

#include <stdlib.h>
#include <string.h>

#include "transport/verbs/rc/rc_cm.h"
#include "transport/verbs/rc/rc_fault.h"
#include "transport/verbs/rc/rc_rdma.h"
#include "transport/verbs/rc/rc_ring.h"

/* SRQ, CQs and send buffers: on the first connection, so that a job whose
 * peers all sit on one node pins nothing for rc. */
int rd_rc_data_setup(void)
{
    const struct ibv_device_attr *da = &rd_rc.dev->attr;
    int per_peer = rd_rc.credits + RD_RC_RESERVE;
    long want = (long)(rd_rc.size - 1) * per_peer;
    rd_rc.srq_max = (int)(want < da->max_srq_wr ? want : da->max_srq_wr);
    int rcqe = rd_rc.srq_max < da->max_cqe ? rd_rc.srq_max : da->max_cqe;
    /* Room for the loopback's send queue too (rd_rc_loopback). */
    long s = (long)rd_rc.size * rd_rc.sq_depth;
    int scqe = (int)(s < da->max_cqe ? s : da->max_cqe);
    rd_rc.rcq = ibv_create_cq(rd_rc.dev->ctx, rcqe, NULL, NULL, 0);
    rd_rc.scq = ibv_create_cq(rd_rc.dev->ctx, scqe, NULL, NULL, 0);
    struct ibv_srq_init_attr sa = { .attr = { .max_wr = (uint32_t)rd_rc.srq_max, .max_sge = 1 } };
    rd_rc.srq = ibv_create_srq(rd_rc.dev->pd, &sa);
    if (!rd_rc.rcq || !rd_rc.scq || !rd_rc.srq)
        return RD_ESYS;
    size_t bytes = (size_t)rd_rc.nsend * rd_rc.buf_bytes;
    if (posix_memalign((void **)&rd_rc.smem, 4096, bytes) != 0)
        return RD_ENOMEM;
    rd_rc.smr = ibv_reg_mr(rd_rc.dev->pd, rd_rc.smem, bytes, IBV_ACCESS_LOCAL_WRITE);
    rd_rc.sfree = malloc((size_t)rd_rc.nsend * sizeof(*rd_rc.sfree));
    if (!rd_rc.smr || !rd_rc.sfree)
        return RD_ESYS;
    for (int i = 0; i < rd_rc.nsend; i++)
        rd_rc.sfree[i] = rd_rc.nsend - 1 - i;
    rd_rc.nsfree = rd_rc.nsend;
    int err = rd_rc_rdma_setup();
    if (err != RD_OK)
        return err;
    /* RDMA-Write eager counters: 8 bytes per rank, registered once. */
    size_t cbytes = ((size_t)rd_rc.size * 2 * sizeof(uint32_t) + 4095) & ~(size_t)4095;
    if (posix_memalign((void **)&rd_rc.ctl, 4096, cbytes) != 0)
        return RD_ENOMEM;
    memset(rd_rc.ctl, 0, cbytes);
    rd_rc.ctl_mr = ibv_reg_mr(rd_rc.dev->pd, rd_rc.ctl, cbytes,
                           IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!rd_rc.ctl_mr)
        return RD_ESYS;
    rd_rc.data_ready = 1;
    return RD_OK;
}

/* Posts the receive buffers one more peer may fill (credits + reserve). */
int rd_rc_add_rx_chunk(void)
{
    int n = rd_rc.credits + RD_RC_RESERVE;
    if (rd_rc.srq_posted + n > rd_rc.srq_max)
        return RD_ENOMEM;
    rc_chunk_t *c = calloc(1, sizeof(*c) + (size_t)n * sizeof(rc_rxbuf_t));
    if (!c)
        return RD_ENOMEM;
    size_t bytes = (size_t)n * rd_rc.buf_bytes;
    if (posix_memalign((void **)&c->mem, 4096, bytes) != 0) {
        free(c);
        return RD_ENOMEM;
    }
    c->mr = ibv_reg_mr(rd_rc.dev->pd, c->mem, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (!c->mr) {
        free(c->mem);
        free(c);
        return RD_ESYS;
    }
    c->n = n;
    c->next = rd_rc.chunks;
    rd_rc.chunks = c;
    struct ibv_recv_wr wr[n];
    struct ibv_sge sge[n];
    for (int i = 0; i < n; i++) {
        c->bufs[i].data = c->mem + (size_t)i * rd_rc.buf_bytes;
        c->bufs[i].lkey = c->mr->lkey;
        c->bufs[i].peer = -1;
        sge[i] = (struct ibv_sge){ (uintptr_t)c->bufs[i].data, (uint32_t)rd_rc.buf_bytes,
                                   c->mr->lkey };
        wr[i] = (struct ibv_recv_wr){ .wr_id = (uintptr_t)&c->bufs[i],
                                      .next = i + 1 < n ? &wr[i + 1] : NULL,
                                      .sg_list = &sge[i], .num_sge = 1 };
    }
    struct ibv_recv_wr *bad;
    if (ibv_post_srq_recv(rd_rc.srq, wr, &bad) != 0)
        return RD_ESYS;
    rd_rc.srq_posted += n;
    return RD_OK;
}

/* CREDIT, RTU, FLUSH or BYE: no bytes, no credit, one reserved WR. */
int rd_rc_post_hdr_only(int peer, unsigned kind, int signal)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->sq.used >= (uint32_t)rd_rc.sq_depth)
        return RD_EAGAIN;
    struct ibv_send_wr wr = {
        .opcode = IBV_WR_SEND_WITH_IMM,
        .num_sge = 0,
        .send_flags = (signal ? IBV_SEND_SIGNALED : 0) | IBV_SEND_INLINE,
        .imm_data = htonl(make_imm(p, kind)),
    };
    rc_pend_t pe = { .slot = -1 };
    return post_chain(peer, &wr, &pe, 1);
}

/* RING or RING_ACK: 24 bytes, no credit (the reserve holds it: one of each
 * per connection and direction). */
int rd_rc_post_ctrl(int peer, unsigned kind, const rd_rc_ring_msg_t *m)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->sq.used + 2 > (uint32_t)rd_rc.sq_depth)
        return RD_EAGAIN;
    struct ibv_sge sge = { (uintptr_t)m, sizeof(*m), 0 };
    struct ibv_send_wr wr = { .opcode = IBV_WR_SEND_WITH_IMM, .sg_list = &sge, .num_sge = 1 };
    rc_pend_t pe = { .slot = -1 };
    if (sizeof(*m) <= rd_rc.max_inline) {
        wr.send_flags = IBV_SEND_INLINE;
    } else {
        if (rd_rc.nsfree == 0)
            return RD_EAGAIN;
        pe.slot = rd_rc.sfree[--rd_rc.nsfree];
        char *b = rd_rc.smem + (size_t)pe.slot * rd_rc.buf_bytes;
        memcpy(b, m, sizeof(*m));
        sge = (struct ibv_sge){ (uintptr_t)b, sizeof(*m), rd_rc.smr->lkey };
    }
    wr.imm_data = htonl(make_imm(p, kind));
    int err = post_chain(peer, &wr, &pe, 1);
    if (err != RD_OK && pe.slot >= 0)
        rd_rc.sfree[rd_rc.nsfree++] = pe.slot;
    return err;
}

/* No free send buffer: ask for a completion on every QP holding buffers in
 * unsignalled WRs, so they come back. */
void rd_rc_reclaim_slots(void)
{
    for (int i = 0; i < rd_rc.size; i++) {
        rc_peer_t *p = &rd_rc.peers[i];
        if (p->sq.slots_held && !p->sq.flush_out && p->cm.state == RC_READY &&
            rd_rc_post_hdr_only(i, RD_RC_IMM_FLUSH, 1) == RD_OK)
            p->sq.flush_out = 1;
    }
}

static inline int send_msg(int peer, const void *hdr, size_t hdrlen, const void *payload,
                           size_t len)
{
    if (RC_UNLIKELY((unsigned)peer >= (unsigned)rd_rc.size || !rd_rc.dev ||
                    hdrlen > RD_TP_HDR_MAX || len > rd_rc_transport.msg.eager_max))
        return RD_EINVAL;
    rc_peer_t *p = &rd_rc.peers[peer];
    if (RC_UNLIKELY(p->cm.state != RC_READY)) {
        if (p->cm.state == RC_IDLE)
            rd_rc_start_connect(peer);
        return p->cm.state == RC_FAILED ? RD_EPEER : RD_EAGAIN;
    }
    if (p->ring_tx.on) {
        size_t rtotal = sizeof(rd_rc_slot_t) + hdrlen + len + 1;
        if (rtotal <= p->ring_tx.slot_bytes && rtotal <= rd_rc.buf_bytes) {
            int err = ring_send(peer, hdr, hdrlen, payload, len);
            if (err != RD_EAGAIN)
                return err;
            /* Ring full: send/recv may still have credits (the receiver
             * restores the order from ring_sent / srq_sent). */
        }
    }
    /* One WR stays free for CREDIT/FLUSH/BYE messages. */
    if (p->credit.tx <= 0 || p->sq.used + 2 > (uint32_t)rd_rc.sq_depth)
        return RD_EAGAIN;

    rd_rc_prefix_t pre = { .hdrlen = (uint8_t)hdrlen, .version = RD_RC_VERSION,
                           .ring_sent = (uint16_t)p->ring_tx.written };
    size_t total = sizeof(pre) + hdrlen + len;
    struct ibv_sge sge[3];
    struct ibv_send_wr wr = { .opcode = IBV_WR_SEND_WITH_IMM, .sg_list = sge };
    rc_pend_t pe = { .slot = -1, .msg = 1 };
    if (total <= rd_rc.max_inline) {
        /* Inline: the CPU copies at post time, straight from the caller. */
        sge[0] = (struct ibv_sge){ (uintptr_t)&pre, sizeof(pre), 0 };
        sge[1] = (struct ibv_sge){ (uintptr_t)hdr, (uint32_t)hdrlen, 0 };
        sge[2] = (struct ibv_sge){ (uintptr_t)payload, (uint32_t)len, 0 };
        wr.num_sge = len ? 3 : 2;
        wr.send_flags = IBV_SEND_INLINE;
    } else {
        if (RC_UNLIKELY(rd_rc.nsfree == 0)) {
            rd_rc_reclaim_slots();
            return RD_EAGAIN;
        }
        pe.slot = rd_rc.sfree[--rd_rc.nsfree];
        char *b = rd_rc.smem + (size_t)pe.slot * rd_rc.buf_bytes;
        memcpy(b, &pre, sizeof(pre));
        memcpy(b + sizeof(pre), hdr, hdrlen);
        if (len)
            memcpy(b + sizeof(pre) + hdrlen, payload, len);
        sge[0] = (struct ibv_sge){ (uintptr_t)b, (uint32_t)total, rd_rc.smr->lkey };
        wr.num_sge = 1;
    }
    wr.imm_data = htonl(make_imm(p, RD_RC_IMM_MSG));
    int err = post_chain(peer, &wr, &pe, 1);
    if (RC_UNLIKELY(err != RD_OK)) {
        if (pe.slot >= 0)
            rd_rc.sfree[rd_rc.nsfree++] = pe.slot;
        return err;
    }
    p->credit.tx--;
    p->ring_tx.srq_sent++;
    return RD_OK;
}

#ifdef RD_FAULT_INJECTION
int rd_rc_send_msg(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    return send_msg(peer, hdr, hdrlen, payload, len);
}
#endif

int rd_rc_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
#ifdef RD_FAULT_INJECTION
    if (RC_UNLIKELY(rd_rc.fault_after >= 0) && (unsigned)peer < (unsigned)rd_rc.size)
        return rd_rc_fault_send(peer, hdr, hdrlen, payload, len);
#endif
    return send_msg(peer, hdr, hdrlen, payload, len);
}

void rd_rc_flush_reposts(void)
{
    if (rd_rc.nrepost == 0)
        return;
    for (int i = 0; i < rd_rc.nrepost; i++) {
        rd_rc.rwr[i].next = i + 1 < rd_rc.nrepost ? &rd_rc.rwr[i + 1] : NULL;
        rc_rxbuf_t *b = rd_rc.rbuf[i];
        if (b->credit && b->peer >= 0) {
            rc_peer_t *p = &rd_rc.peers[b->peer];
            p->credit.unreported++;
            if (!p->credit.due && p->credit.unreported >= rd_rc.credits / 2) {
                p->credit.due = 1;
                rd_rc.due[rd_rc.ndue++] = b->peer;
            }
        }
    }
    struct ibv_recv_wr *bad;
    if (ibv_post_srq_recv(rd_rc.srq, rd_rc.rwr, &bad) != 0)
        rd_rc.srq_posted -= rd_rc.nrepost;   /* cannot happen with a sane SRQ size */
    rd_rc.nrepost = 0;
}

int rd_rc_poll_recv(void)
{
    struct ibv_wc wc[RD_RC_POLL];
    int n = ibv_poll_cq(rd_rc.rcq, RD_RC_POLL, wc), status = 0;
    for (int i = 0; i < n; i++) {
        rc_rxbuf_t *b = (rc_rxbuf_t *)(uintptr_t)wc[i].wr_id;
        if (RC_UNLIKELY(wc[i].status != IBV_WC_SUCCESS)) {
            repost(b, -1, 0);
            if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
                status = RD_EPEER;
            continue;
        }
        int peer = qtab_get(wc[i].qp_num);
        if (RC_UNLIKELY(peer < 0 || !(wc[i].wc_flags & IBV_WC_WITH_IMM))) {
            repost(b, -1, 0);
            status = RD_EINTERN;
            continue;
        }
        rc_peer_t *p = &rd_rc.peers[peer];
        uint32_t imm = ntohl(wc[i].imm_data);
        if (p->cm.state == RC_WAIT_RTU)
            rd_rc_set_ready(peer);   /* anything on the QP proves the peer is in RTS */
        if (wc[i].opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
            /* A put_imm: its bytes are in place, the immediate is the
             * caller's own (no kind, no credits: rc.h); its buffer was
             * untouched and goes back with the credit it took. */
            if (!rd_rc.finalizing) {
                if (rd_rc.notified)
                    rd_rc.notified(peer, imm);
                else
                    status = RD_EINTERN;
            }
            repost(b, peer, !rd_rc.finalizing);
            continue;
        }
        unsigned credits = rd_rc_imm_credits(imm);
        p->credit.tx += (int)credits;
        ring_freed8(p, rd_rc_imm_ring_ack(imm));
        if (credits)
            rd_rc_issue_ops(peer);   /* a put_imm may wait for them */
        unsigned kind = rd_rc_imm_kind(imm);
        if (RC_UNLIKELY(kind == RD_RC_IMM_BYE || rd_rc.finalizing)) {
            /* BYE: the peer is in finalize and sends nothing more. In our
             * finalize (goodbye), anything else is the finished job's and
             * goes nowhere (p2p is gone or going; its buffer carries no
             * credit back: we send nothing but BYE now). */
            if (kind == RD_RC_IMM_BYE)
                p->bye.in = 1;
            repost(b, peer, 0);
            continue;
        }
        if (kind == RD_RC_IMM_MSG) {
            rd_rc_prefix_t pre;
            memcpy(&pre, b->data, sizeof(pre));
            if (RC_UNLIKELY(pre.version != RD_RC_VERSION ||
                            wc[i].byte_len < sizeof(pre) + pre.hdrlen)) {
                status = RD_EINTERN;
                repost(b, peer, 1);
                continue;
            }
            b->len = wc[i].byte_len;
            if (!p->ring_rx.held && pre.ring_sent == (uint16_t)p->ring_rx.rcvd) {
                deliver_srq(peer, b);
                continue;
            }
            /* Ring messages sent before it are not all taken yet: it
             * waits in order behind them (the buffer is not reposted, so
             * its credit is not returned meanwhile). */
            b->next = NULL;
            if (p->ring_rx.held_tail)
                p->ring_rx.held_tail->next = b;
            else
                p->ring_rx.held = b;
            p->ring_rx.held_tail = b;
            int k = rd_rc_peer_advance(peer);
            if (k < 0)
                status = k;
            continue;
        }
        if (kind == RD_RC_IMM_RING || kind == RD_RC_IMM_RING_ACK) {
            int err = kind == RD_RC_IMM_RING ? rd_rc_on_ring(peer, b->data, wc[i].byte_len)
                                             : rd_rc_on_ring_ack(peer, b->data, wc[i].byte_len);
            if (err != RD_OK)
                status = err;
        }
        repost(b, peer, 0);
    }
    rd_rc_flush_reposts();
    return status ? status : n;
}

static void complete_sends(rc_peer_t *p, uint32_t upto, int status)
{
    while ((int32_t)(upto - p->sq.done_seq) >= 0 && p->sq.done_seq != p->sq.post_seq) {
        rc_pend_t *e = &p->sq.pend[p->sq.done_seq & rd_rc.pend_mask];
        if (e->slot >= 0)
            rd_rc.sfree[rd_rc.nsfree++] = e->slot;
        if (e->mr)
            rd_vb_mr_release(rd_rc.dev, e->mr);
        p->sq.reads -= e->read;
        p->sq.done_seq++;
        p->sq.used--;
        rd_tp_done_fn done = e->done;
        void *ctx = e->ctx;
        int rdma = e->rdma, aslot = e->aslot;
        uint64_t *result = e->result;
        *e = (rc_pend_t){ .slot = -1, .aslot = -1 };
        if (rdma)
            rd_rc_rdma_retire(p, status, done, ctx, result, aslot);
        else if (done)
            done(ctx, status);
    }
}

int rd_rc_poll_send(void)
{
    struct ibv_wc wc[RD_RC_POLL];
    int n = ibv_poll_cq(rd_rc.scq, RD_RC_POLL, wc), status = 0;
    for (int i = 0; i < n; i++) {
        int peer = (int)(wc[i].wr_id >> 32);
        rc_peer_t *p = &rd_rc.peers[peer];
        uint32_t seq = (uint32_t)wc[i].wr_id;
        int st = wc[i].status == IBV_WC_SUCCESS ? RD_OK : RD_EPEER;
        if (st != RD_OK) {
            status = RD_EPEER;
            /* This WR failed (the ones before it completed, the ones after
             * it flush with their own completions): was it a message? */
            if ((int32_t)(seq - p->sq.done_seq) >= 0 && (int32_t)(p->sq.post_seq - seq) > 0 &&
                p->sq.pend[seq & rd_rc.pend_mask].msg)
                p->sq.msg_lost = 1;
            if (p->cm.state != RC_FAILED)
                rd_rc_fail_peer(peer, RD_EPEER);
        }
        if (wc[i].opcode == IBV_WC_SEND && p->sq.flush_out)
            p->sq.flush_out = 0;
        complete_sends(p, seq, st);
        rd_rc_issue_ops(peer);
    }
    return status ? status : n;
}

/* End of a pass: peers still owed half their credits (nothing went their
 * way to carry them) get a CREDIT message. */
void rd_rc_send_due_credits(void)
{
    int keep = 0;
    for (int i = 0; i < rd_rc.ndue; i++) {
        int peer = rd_rc.due[i];
        rc_peer_t *p = &rd_rc.peers[peer];
        p->credit.due = 0;
        if (p->cm.state == RC_FAILED)
            continue;
        int again = 0;
        if (p->ring_tx.ack_owed) {
            rd_rc_ring_msg_t m = {
                .addr = (uint64_t)(uintptr_t)&rd_rc.ctl[2 * peer],
                .rkey = rd_rc.ctl_mr->rkey,
            };
            if (p->cm.state == RC_READY && rd_rc_post_ctrl(peer, RD_RC_IMM_RING_ACK, &m) == RD_OK)
                p->ring_tx.ack_owed = 0;
            else
                again = 1;
        }
        /* Credits may have been piggybacked meanwhile. */
        if (p->credit.unreported >= rd_rc.credits / 2 &&
            (p->cm.state != RC_READY || rd_rc_post_hdr_only(peer, RD_RC_IMM_CREDIT, 0) != RD_OK))
            again = 1;
        if (again) {
            p->credit.due = 1;
            rd_rc.due[keep++] = peer;
        }
    }
    rd_rc.ndue = keep;
}
