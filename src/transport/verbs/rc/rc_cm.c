/*
 * RC connection manager: one UD QP per process (its QPN published as
 * RC_CM_KEY) carries the REQ/REP handshake of rc.h that brings up the RC QP
 * of a pair on first use; the QPN table maps a receive completion to its
 * peer; timers retransmit REQ and give up after RDMPI_RC_CONNECT_TIMEOUT;
 * a peer whose connection fails is reported to p2p once.
 */
#include "transport/verbs/rc/rc_cm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "transport/verbs/rc/rc_msg.h"
#include "transport/verbs/rc/rc_rdma.h"
#include "util/clock.h"
#include "util/errdetail.h"

static void qtab_put(uint32_t qpn, int peer)
{
    uint32_t i = (qpn * 2654435761u) & rd_rc.qtab_mask;
    while (rd_rc.qtab_peer[i] >= 0)
        i = (i + 1) & rd_rc.qtab_mask;
    rd_rc.qtab_qpn[i] = qpn;
    rd_rc.qtab_peer[i] = peer;
}

static int cm_post_recv(unsigned i)
{
    struct ibv_sge sge = {
        .addr = (uintptr_t)(rd_rc.cm_mem + (size_t)i * 128),
        .length = 128,
        .lkey = rd_rc.cm_mr->lkey,
    };
    struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;
    return ibv_post_recv(rd_rc.cm_qp, &wr, &bad) ? RD_ESYS : RD_OK;
}

int rd_rc_cm_setup(void)
{
    size_t bytes = (size_t)(RD_RC_CM_RECVS + RD_RC_CM_SLOTS) * 128;
    rd_rc.cm_mem = calloc(1, bytes);
    if (!rd_rc.cm_mem)
        return RD_ENOMEM;
    rd_rc.cm_mr = ibv_reg_mr(rd_rc.dev->pd, rd_rc.cm_mem, bytes, IBV_ACCESS_LOCAL_WRITE);
    rd_rc.cm_cq = ibv_create_cq(rd_rc.dev->ctx, RD_RC_CM_RECVS + RD_RC_CM_SLOTS, NULL, NULL, 0);
    if (!rd_rc.cm_mr || !rd_rc.cm_cq)
        return RD_ESYS;
    struct ibv_qp_init_attr a = {
        .send_cq = rd_rc.cm_cq,
        .recv_cq = rd_rc.cm_cq,
        .cap = { .max_send_wr = RD_RC_CM_SLOTS, .max_recv_wr = RD_RC_CM_RECVS,
                 .max_send_sge = 1, .max_recv_sge = 1 },
        .qp_type = IBV_QPT_UD,
    };
    rd_rc.cm_qp = rd_vb_qp_create(rd_rc.dev, &a, 0);
    if (!rd_rc.cm_qp || rd_vb_ud_ready(rd_rc.dev, rd_rc.cm_qp, RD_RC_QKEY) != RD_OK)
        return RD_ESYS;
    for (unsigned i = 0; i < RD_RC_CM_RECVS; i++)
        if (cm_post_recv(i) != RD_OK)
            return RD_ESYS;
    return RD_OK;
}

static int lookup_addr(rc_peer_t *p, int peer)
{
    if (p->cm.addr_state == RC_ADDR_UNKNOWN) {
        int ok = rd_vb_addr_lookup(peer, RC_CM_KEY, &p->cm.addr) == RD_OK &&
                 rd_vb_addr_compatible(rd_rc.dev, &p->cm.addr);
        p->cm.addr_state = ok ? RC_ADDR_OK : RC_ADDR_NONE;
    }
    return p->cm.addr_state == RC_ADDR_OK;
}

int rd_rc_reachable(int peer)
{
    if (!rd_rc.dev || peer < 0 || peer >= rd_rc.size || peer == rd_rc.rank)
        return 0;
    return lookup_addr(&rd_rc.peers[peer], peer);
}

static void cm_send(int peer, int type)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (rd_rc.cm_busy >= RD_RC_CM_SLOTS)
        return;   /* all CM buffers in flight: the REQ timer or the peer's retry covers it */
    if (!p->cm.ah && !(p->cm.ah = rd_vb_ah_create(rd_rc.dev, &p->cm.addr)))
        return;
    unsigned slot = rd_rc.cm_next++ % RD_RC_CM_SLOTS;
    char *buf = rd_rc.cm_mem + (size_t)(RD_RC_CM_RECVS + slot) * 128;
    rd_rc_cm_msg_t m = {
        .type = (uint8_t)type,
        .version = RD_RC_VERSION,
        .src = rd_rc.rank,
        .dst = peer,
        .qpn = p->sq.qp->qp_num,
        .psn = p->cm.my_psn,
        .credits = (uint16_t)rd_rc.credits,
        .msg_max64 = (uint16_t)(rd_rc_transport.msg.eager_max / 64),
    };
    memcpy(buf, &m, sizeof(m));
    struct ibv_sge sge = { (uintptr_t)buf, sizeof(m), rd_rc.cm_mr->lkey };
    struct ibv_send_wr wr = {
        .wr_id = RD_RC_CM_RECVS + slot,
        .sg_list = &sge,
        .num_sge = 1,
        .opcode = IBV_WR_SEND,
        .send_flags = IBV_SEND_SIGNALED,
        .wr.ud = { .ah = p->cm.ah, .remote_qpn = p->cm.addr.qpn, .remote_qkey = RD_RC_QKEY },
    }, *bad;
    if (ibv_post_send(rd_rc.cm_qp, &wr, &bad) == 0)
        rd_rc.cm_busy++;
}

/* Creates the RC QP of a pair and posts the peer's receive buffers (rx
 * 0: none, for the loopback, which carries no messages). */
static int create_qp(int peer, int rx)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    int err;
    if (!rd_rc.data_ready && (err = rd_rc_data_setup()) != RD_OK)
        return err;
    p->sq.pend = calloc((size_t)rd_rc.pend_mask + 1, sizeof(*p->sq.pend));
    if (!p->sq.pend)
        return RD_ENOMEM;
    struct ibv_qp_init_attr a = {
        .send_cq = rd_rc.scq,
        .recv_cq = rd_rc.rcq,
        .srq = rd_rc.srq,
        .cap = { .max_send_wr = (uint32_t)rd_rc.sq_depth, .max_send_sge = 4, .max_recv_sge = 1 },
        .qp_type = IBV_QPT_RC,
    };
    p->sq.qp = rd_vb_qp_create(rd_rc.dev, &a, rd_rc.max_inline);
    if (!p->sq.qp)
        return RD_ESYS;
    if (a.cap.max_inline_data < rd_rc.max_inline) {
        /* rdma.inline_max promised what the probe QP got: never less. */
        rd_err_detail("ibv_create_qp: RC QP to rank %d got %u bytes of inline data, the "
                      "probe at init %u", peer, a.cap.max_inline_data, rd_rc.max_inline);
        return RD_ESYS;
    }
    if (rx && (err = rd_rc_add_rx_chunk()) != RD_OK)
        return err;
    qtab_put(p->sq.qp->qp_num, peer);
    p->cm.my_psn = (uint32_t)lrand48() & 0xffffff;
    return RD_OK;
}

/* The inline limit of our RC QPs, settled at init (rdma.inline_max is
 * final then, QPs come on first use): a QP like create_qp's, minus the
 * SRQ that does not exist yet, asking RDMPI_RC_INLINE; rd_rc.max_inline
 * becomes what the device granted. */
int rd_rc_inline_probe(void)
{
    struct ibv_qp_init_attr a = {
        .send_cq = rd_rc.cm_cq,
        .recv_cq = rd_rc.cm_cq,
        .cap = { .max_send_wr = (uint32_t)rd_rc.sq_depth, .max_send_sge = 4,
                 .max_recv_wr = 1, .max_recv_sge = 1 },
        .qp_type = IBV_QPT_RC,
    };
    struct ibv_qp *qp = rd_vb_qp_create(rd_rc.dev, &a, rd_rc.max_inline);
    if (!qp) {
        rd_err_detail("ibv_create_qp (RC, probing the inline limit): %s", strerror(errno));
        return RD_ESYS;
    }
    rd_rc.max_inline = a.cap.max_inline_data;
    ibv_destroy_qp(qp);
    return RD_OK;
}

void rd_rc_start_connect(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (!lookup_addr(p, peer) || create_qp(peer, 1) != RD_OK) {
        rd_rc_fail_peer(peer, RD_EPEER);
        return;
    }
    p->cm.state = RC_CONNECTING;
    double t = rd_clock_s();
    p->cm.deadline = t + rd_rc.connect_timeout;
    p->cm.backoff_ms = RD_RC_CM_RETRY_MS;
    p->cm.next_retry = t + p->cm.backoff_ms * 1e-3;
    rd_list_push_back(&rd_rc.connecting, &p->cm.link);
    cm_send(peer, RD_RC_CM_REQ);
}

/* Connects our QP to the one the peer's REQ or REP names (INIT -> RTR -> RTS). */
static int connect_qp(int peer, const rd_rc_cm_msg_t *m)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (m->msg_max64 != rd_rc_transport.msg.eager_max / 64)
        return RD_EINVAL;   /* RDMPI_RC_EAGER_MAX differs between the ranks */
    int err = rd_vb_rc_connect(rd_rc.dev, p->sq.qp, &p->cm.addr, m->qpn, m->psn & 0xffffff,
                               p->cm.my_psn, rd_rc.rd_atom);
    if (err != RD_OK)
        return err;
    p->cm.remote_qpn = m->qpn;
    p->credit.tx = m->credits;
    return RD_OK;
}

/* A responder QP that only receives RDMA atomics, reads and writes (no
 * sends, so no receive buffer is ever taken), connected to peers[rank]'s
 * QP. The loopback peer is READY from then on and never takes part in the
 * connection handshake or the goodbye. */
int rd_rc_loopback(void)
{
    int me = rd_rc.rank;
    rc_peer_t *p = &rd_rc.peers[me];
    if (p->cm.state == RC_READY)
        return RD_OK;
    if (p->cm.state != RC_IDLE)
        return RD_EPEER;
    int err = create_qp(me, 0);
    if (err != RD_OK) {
        p->cm.state = RC_FAILED;
        return err;
    }
    struct ibv_qp_init_attr a = {
        .send_cq = rd_rc.scq,
        .recv_cq = rd_rc.rcq,
        .srq = rd_rc.srq,
        .cap = { .max_send_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
        .qp_type = IBV_QPT_RC,
    };
    rd_rc.loop_qp = rd_vb_qp_create(rd_rc.dev, &a, 0);
    rd_vb_addr_fill(rd_rc.dev, 0, &p->cm.addr);
    uint32_t psn = (uint32_t)lrand48() & 0xffffff;
    if (!rd_rc.loop_qp ||
        rd_vb_rc_connect(rd_rc.dev, rd_rc.loop_qp, &p->cm.addr, p->sq.qp->qp_num,
                         p->cm.my_psn, psn, rd_rc.rd_atom) != RD_OK ||
        rd_vb_rc_connect(rd_rc.dev, p->sq.qp, &p->cm.addr, rd_rc.loop_qp->qp_num, psn,
                         p->cm.my_psn, rd_rc.rd_atom) != RD_OK) {
        if (!rd_err_detail_peek() || !*rd_err_detail_peek())
            rd_err_detail("rc: cannot connect a QP of this device to itself: %s",
                          strerror(errno));
        p->cm.state = RC_FAILED;
        return RD_ESYS;
    }
    p->cm.addr_state = RC_ADDR_OK;
    p->cm.remote_qpn = rd_rc.loop_qp->qp_num;
    p->cm.state = RC_READY;
    return RD_OK;
}

void rd_rc_set_ready(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->cm.state == RC_CONNECTING || p->cm.state == RC_CROSSED)
        rd_list_remove(&p->cm.link);
    p->cm.state = RC_READY;
    rd_rc_issue_ops(peer);
}

/* The peer's REQ: connect (on first sight, or when both sides asked at
 * once) and answer REP; a repeated REQ (our REP was lost) gets the same
 * REP again. */
static void on_req(int peer, const rd_rc_cm_msg_t *m)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    switch ((enum rc_conn)p->cm.state) {
    case RC_IDLE:
        if (rd_rc.finalizing)
            return;   /* no new connections in finalize (goodbye would wait for it) */
        if (!lookup_addr(p, peer) || create_qp(peer, 1) != RD_OK || connect_qp(peer, m) != RD_OK) {
            rd_rc_fail_peer(peer, RD_EPEER);
            return;
        }
        p->cm.state = RC_WAIT_RTU;
        break;
    case RC_CONNECTING:
        if (connect_qp(peer, m) != RD_OK) {
            rd_rc_fail_peer(peer, RD_EPEER);
            return;
        }
        p->cm.state = RC_CROSSED;   /* the REP to our REQ makes us READY */
        break;
    case RC_CROSSED:
    case RC_WAIT_RTU:
    case RC_READY:
        if (m->qpn != p->cm.remote_qpn) {
            rd_rc_fail_peer(peer, RD_EPEER);   /* not the QP we connected to */
            return;
        }
        break;
    case RC_FAILED:
        return;
    }
    cm_send(peer, RD_RC_CM_REP);
}

/* The peer's REP to our REQ: connect unless its crossing REQ did, then
 * READY, and RTU tells the peer that we are in RTS. A repeated REP is
 * ignored. */
static void on_rep(int peer, const rd_rc_cm_msg_t *m)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    switch ((enum rc_conn)p->cm.state) {
    case RC_CONNECTING:
        if (connect_qp(peer, m) != RD_OK) {
            rd_rc_fail_peer(peer, RD_EPEER);
            return;
        }
        break;
    case RC_CROSSED:
        if (m->qpn != p->cm.remote_qpn) {
            rd_rc_fail_peer(peer, RD_EPEER);
            return;
        }
        break;
    case RC_IDLE:
    case RC_WAIT_RTU:
    case RC_READY:
    case RC_FAILED:
        return;
    }
    rd_rc_set_ready(peer);
    rd_rc_post_hdr_only(peer, RD_RC_IMM_RTU, 0);
}

static void on_cm(const rd_rc_cm_msg_t *m)
{
    if (m->version != RD_RC_VERSION || m->dst != rd_rc.rank || m->src < 0 ||
        m->src >= rd_rc.size || m->src == rd_rc.rank)
        return;
    if (m->type == RD_RC_CM_REQ)
        on_req(m->src, m);
    else if (m->type == RD_RC_CM_REP)
        on_rep(m->src, m);
}

int rd_rc_poll_cm(void)
{
    struct ibv_wc wc[8];
    int n = ibv_poll_cq(rd_rc.cm_cq, 8, wc), events = 0;
    for (int i = 0; i < n; i++) {
        if (wc[i].wr_id >= RD_RC_CM_RECVS) {
            rd_rc.cm_busy--;
            continue;
        }
        if (wc[i].status == IBV_WC_SUCCESS &&
            wc[i].byte_len >= RD_RC_UD_GRH + sizeof(rd_rc_cm_msg_t)) {
            rd_rc_cm_msg_t m;
            memcpy(&m, rd_rc.cm_mem + wc[i].wr_id * 128 + RD_RC_UD_GRH, sizeof(m));
            on_cm(&m);
            events++;
        }
        cm_post_recv((unsigned)wc[i].wr_id);
    }
    return events;
}

void rd_rc_cm_timers(void)
{
    double t = rd_clock_s();
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &rd_rc.connecting) {
        rc_peer_t *p = rd_list_entry(pos, rc_peer_t, cm.link);
        int peer = (int)(p - rd_rc.peers);
        if (t >= p->cm.deadline) {
            rd_rc_fail_peer(peer, RD_EPEER);
        } else if (t >= p->cm.next_retry) {
            cm_send(peer, RD_RC_CM_REQ);
            if (p->cm.backoff_ms < 1000)
                p->cm.backoff_ms *= 2;
            p->cm.next_retry = t + p->cm.backoff_ms * 1e-3;
        }
    }
}

/* The peer cannot be reached (its connection timed out or its QP went to
 * the error state): queued operations end with status, and p2p hears of it
 * at the end of this progress pass (report_failures), so that receives
 * from it and the operations that need it fail instead of waiting. */
void rd_rc_fail_peer(int peer, int status)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->cm.state == RC_FAILED)
        return;
    if (p->cm.state == RC_CONNECTING || p->cm.state == RC_CROSSED)
        rd_list_remove(&p->cm.link);
    p->cm.state = RC_FAILED;
    /* The loopback's failure reaches its operations through their status;
     * p2p must not take this process for a failed peer. */
    if (!rd_rc.finalizing && peer != rd_rc.rank) {
        p->cm.fail_report = 1;
        rd_rc.nfail_report++;
    }
    while (!rd_list_empty(&p->sq.ops)) {
        rc_op_t *op = rd_list_entry(p->sq.ops.next, rc_op_t, link);
        rd_list_remove(&op->link);
        if (op->mr)
            rd_vb_mr_release(rd_rc.dev, op->mr);
        rd_tp_done_fn done = op->done;
        void *ctx = op->ctx;
        free(op);
        rd_rc_rdma_retire(p, status, done, ctx, NULL, -1);
    }
}

/* Tells p2p about the peers that failed since the last pass (outside the
 * pass, so the upcall may post). Without the upcall the job ends here. */
void rd_rc_report_failures(void)
{
    for (int i = 0; i < rd_rc.size && rd_rc.nfail_report; i++) {
        if (!rd_rc.peers[i].cm.fail_report)
            continue;
        rd_rc.peers[i].cm.fail_report = 0;
        rd_rc.nfail_report--;
        if (!rd_rc.peer_failed) {
            char msg[256];
            snprintf(msg, sizeof(msg), "rdmpi: rank %d: the RC connection to rank %d failed "
                     "(retries exhausted or the peer is gone)", rd_rc.rank, i);
            rd_boot_abort(1, msg);
        }
        rd_rc.peer_failed(i, RD_EPEER);
    }
}
