/*
 * UD transport (RDMPI_TRANSPORTS=ud): MPI messages over unreliable datagram
 * QPs, made reliable and ordered by the rel engine (rel.h); see ud.h for
 * the QP layout and doc/verbs-ud.md for the design.
 *
 * Send path: rd_udr_send cuts the message into packets and calls ud_post
 * for each; a packet up to the inline size the device granted is posted
 * inline, a larger one is copied into the send slot its work request
 * occupies (each QP's send queue is a ring of registered slots, slot =
 * work request number % depth), so the engine may rebuild its own copy for
 * a retransmission at any time. One work request in signal_every asks for
 * a completion (selective signalling); that completion frees every slot
 * before it.
 *
 * Receive path: progress polls the receive CQ, hands each packet (after the
 * 40-byte GRH) to rd_udr_input and posts the buffers again in one list.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "transport/transport.h"
#include "transport/verbs/common/verbs.h"
#include "transport/verbs/ud/rel.h"
#include "transport/verbs/ud/ud.h"
#include "util/clock.h"
#include "transport/verbs/ud/ud_tunables.h"
#include "util/errdetail.h"
#include "util/status.h"

#define UD_KEY "rd.ud"

typedef struct ud_peer {
    rd_vb_addr_t addr;
    struct ibv_ah *ah;
    int addr_known;              /* 0 not looked up, 1 usable, 2 not reachable */
} ud_peer_t;

typedef struct ud_qp {
    struct ibv_qp *qp;
    uint8_t *slots;              /* depth send slots of pkt_max bytes */
    struct ibv_mr *mr;
    uint64_t posted;             /* work requests posted */
    uint64_t done;               /* ... of which completed (slots free) */
} ud_qp_t;

static struct ud {
    rd_vb_dev_t *dev;
    rd_tp_recv_fn recv;
    int rank, size;
    ud_peer_t *peers;
    rd_udr_t *rel;
    size_t pkt_max;              /* the port's MTU: a packet, rel header included */
    /* send side */
    ud_qp_t qps[RD_UD_QPS_MAX];
    int nqp, next_qp;
    struct ibv_cq *scq;
    uint32_t depth, signal_every, max_inline;
    /* receive side: QP 0's receive queue */
    struct ibv_cq *rcq;
    uint8_t *rbufs;              /* nrecv buffers of RD_UD_GRH + pkt_max */
    struct ibv_mr *rmr;
    uint32_t nrecv;
} ud;

static int ud_init(const rd_tp_env_t *env);
static void ud_finalize(void);
static int ud_reachable(int peer);
static int ud_refusal(int peer, char *buf, size_t len);
static int ud_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
static int ud_progress(void);

rd_transport_t rd_ud_transport = {
    .name = "ud",
    .msg = { .hdr_max = RD_TP_HDR_MAX, .eager_max = RD_UD_EAGER_MAX_DEFAULT },
    .fence_after_init = 1,
    .init = ud_init,
    .finalize = ud_finalize,
    .reachable = ud_reachable,
    .refusal = ud_refusal,
    .send = ud_send,
    .progress = ud_progress,
};

static uint64_t now_us(void *ctx)
{
    (void)ctx;
    return (uint64_t)rd_clock_us();
}

/* ---- tunables ---- */

/* Values of the table (ud_tunables.h), read before anything is set up. */
typedef struct ud_tun {
    long long eager, window, nqp, depth, signal_every, max_inline, rto, ack_delay, timeout;
    double drop;
} ud_tun_t;

static int read_tunables(ud_tun_t *v)
{
    const rd_tunable_t *t = rd_ud_tunables;
    int rc;
    if ((rc = rd_tunable_int(&t[RD_UD_T_EAGER_MAX], &v->eager)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_WINDOW], &v->window)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_QPS], &v->nqp)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_SQ_DEPTH], &v->depth)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_SIGNAL_EVERY], &v->signal_every)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_INLINE], &v->max_inline)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_RTO], &v->rto)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_ACK_DELAY], &v->ack_delay)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_UD_T_TIMEOUT], &v->timeout)) != RD_OK)
        return rc;
    return rd_tunable_real(&t[RD_UD_T_DROP_RATE], &v->drop);
}

static long clamp(long v, long lo, long hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static uint32_t pow2_floor(uint32_t v)
{
    uint32_t p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}

/* ---- setup ---- */

static int post_recvs(const uint32_t *idx, int n)
{
    struct ibv_recv_wr wr[RD_UD_POLL];
    struct ibv_sge sge[RD_UD_POLL];
    size_t bsz = RD_UD_GRH + ud.pkt_max;
    for (int i = 0; i < n; i++) {
        sge[i] = (struct ibv_sge){ (uintptr_t)(ud.rbufs + idx[i] * bsz), (uint32_t)bsz,
                                   ud.rmr->lkey };
        wr[i] = (struct ibv_recv_wr){ .wr_id = idx[i], .sg_list = &sge[i], .num_sge = 1,
                                      .next = i + 1 < n ? &wr[i + 1] : NULL };
    }
    struct ibv_recv_wr *bad;
    int ret = n ? ibv_post_recv(ud.qps[0].qp, wr, &bad) : 0;
    if (ret != 0) {
        rd_err_detail_sys(ret, "ud: ibv_post_recv of %d buffers on %s", n, ud.dev->name);
        return RD_ESYS;
    }
    return RD_OK;
}

static int qp_setup(int k, uint32_t nrecv)
{
    ud_qp_t *q = &ud.qps[k];
    struct ibv_qp_init_attr a = {
        .send_cq = ud.scq,
        .recv_cq = ud.rcq,
        .cap = { .max_send_wr = ud.depth, .max_recv_wr = nrecv ? nrecv : 1,
                 .max_send_sge = 1, .max_recv_sge = 1 },
        .qp_type = IBV_QPT_UD,
        .sq_sig_all = 0,
    };
    q->qp = rd_vb_qp_create(ud.dev, &a, ud.max_inline);
    if (!q->qp) {
        rd_err_detail_sys(errno, "ud: ibv_create_qp on %s (%u send, %u receive entries)",
                          ud.dev->name, ud.depth, a.cap.max_recv_wr);
        return RD_ESYS;
    }
    if (rd_vb_ud_ready(ud.dev, q->qp, RD_UD_QKEY) != RD_OK)
        return RD_ESYS;
    if (a.cap.max_inline_data < ud.max_inline)
        ud.max_inline = a.cap.max_inline_data;
    size_t bytes = (size_t)ud.depth * ud.pkt_max;
    q->slots = malloc(bytes);
    if (!q->slots)
        return RD_ENOMEM;
    q->mr = ibv_reg_mr(ud.dev->pd, q->slots, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (!q->mr) {
        rd_err_detail_sys(errno, "ud: ibv_reg_mr of %zu bytes of send slots on %s (check "
                          "ulimit -l)", bytes, ud.dev->name);
        return RD_ESYS;
    }
    return RD_OK;
}

static int ud_post(void *ctx, int peer, const void *pkt, size_t len);
static void ud_deliver(void *ctx, int peer, const void *hdr, size_t hdrlen,
                       const void *payload, size_t len)
{
    (void)ctx;
    ud.recv(peer, hdr, hdrlen, payload, len);
}

static int setup(void)
{
    const rd_vb_dev_t *dev = ud.dev;
    ud_tun_t v;
    int rc = read_tunables(&v);
    if (rc != RD_OK)
        return rc;
    ud.pkt_max = (size_t)128 << dev->mtu;           /* IBV_MTU_256 = 1 */
    rd_ud_transport.msg.eager_max = (size_t)v.eager;
    uint32_t window = pow2_floor((uint32_t)v.window);
    ud.nqp = (int)v.nqp;
    /* The table bounds the values; the device may bound them further. */
    ud.depth = (uint32_t)clamp((long)v.depth, 8, dev->attr.max_qp_wr);
    ud.signal_every = (uint32_t)clamp((long)v.signal_every, 1, ud.depth / 2);
    ud.max_inline = (uint32_t)v.max_inline;
    long rto = (long)v.rto, ack_delay = (long)v.ack_delay, timeout = (long)v.timeout;
#ifdef RD_FAULT_INJECTION
    double drop = v.drop;
#else
    /* The drop knob exists only in builds for fault tests: say so rather
     * than ignore it. */
    if (v.drop != 0) {
        rd_err_detail("RDMPI_UD_DROP_RATE needs a library configured with "
                      "--enable-fault-injection");
        return RD_EINVAL;
    }
    double drop = 0;
#endif

    /* the receive queue holds data and acks from every peer's full window */
    uint32_t peers = ud.size > 1 ? (uint32_t)ud.size - 1 : 1;
    uint32_t max_wr = (uint32_t)dev->attr.max_qp_wr;
    while (window > RD_UDR_WINDOW_MIN && (uint64_t)2 * window * peers + RD_UD_RQ_MARGIN > max_wr)
        window /= 2;
    uint64_t nrecv = (uint64_t)2 * window * peers + RD_UD_RQ_MARGIN;
    ud.nrecv = (uint32_t)(nrecv < max_wr ? nrecv : max_wr);
    if ((uint32_t)dev->attr.max_cqe < ud.nrecv)
        ud.nrecv = (uint32_t)dev->attr.max_cqe;

    ud.rcq = ibv_create_cq(dev->ctx, (int)ud.nrecv, NULL, NULL, 0);
    ud.scq = ibv_create_cq(dev->ctx, (int)(ud.depth * (uint32_t)ud.nqp), NULL, NULL, 0);
    if (!ud.rcq || !ud.scq) {
        rd_err_detail_sys(errno, "ud: ibv_create_cq on %s (%u receive entries)", dev->name,
                          ud.nrecv);
        return RD_ESYS;
    }
    for (int k = 0; k < ud.nqp; k++) {
        rc = qp_setup(k, k == 0 ? ud.nrecv : 0);
        if (rc != RD_OK)
            return rc;
    }
    size_t rbytes = (size_t)ud.nrecv * (RD_UD_GRH + ud.pkt_max);
    ud.rbufs = malloc(rbytes);
    if (!ud.rbufs)
        return RD_ENOMEM;
    ud.rmr = ibv_reg_mr(dev->pd, ud.rbufs, rbytes, IBV_ACCESS_LOCAL_WRITE);
    if (!ud.rmr) {
        rd_err_detail_sys(errno, "ud: ibv_reg_mr of %zu bytes of receive buffers on %s "
                          "(check ulimit -l)", rbytes, dev->name);
        return RD_ESYS;
    }
    for (uint32_t i = 0; i < ud.nrecv; i += RD_UD_POLL) {
        uint32_t idx[RD_UD_POLL];
        int n = 0;
        for (uint32_t j = i; j < ud.nrecv && n < RD_UD_POLL; j++)
            idx[n++] = j;
        if (post_recvs(idx, n) != RD_OK)
            return RD_ESYS;
    }

    rd_udr_cfg_t cfg = {
        .self = ud.rank,
        .npeers = ud.size,
        .mtu = ud.pkt_max,
        .msg_max = RD_TP_HDR_MAX + rd_ud_transport.msg.eager_max,
        .window = window,
        .init_credits = window < RD_UD_CREDITS_INIT ? window : RD_UD_CREDITS_INIT,
        .ack_every = window / 4 ? window / 4 : 1,
        .ack_delay_us = (uint64_t)ack_delay,
        .rto_us = (uint64_t)rto,
        .rto_min_us = RD_UD_RTO_MIN < rto ? RD_UD_RTO_MIN : (uint64_t)rto,
        .rto_max_us = RD_UD_RTO_MAX > rto ? RD_UD_RTO_MAX : (uint64_t)rto,
        .timeout_us = (uint64_t)timeout * 1000000u,
        .drop_rate = drop,
        .seed = (uint64_t)now_us(NULL) ^ ((uint64_t)ud.rank << 20),
        .first_psn = 0,
    };
    rd_udr_ops_t ops = { .ctx = NULL, .post = ud_post, .deliver = ud_deliver, .now = now_us };
    int status;
    ud.rel = rd_udr_create(&cfg, &ops, &status);
    return ud.rel ? RD_OK : status;
}

/* Collective: every rank publishes its receive QP's address (or "no
 * device"), and p2p fences once after all inits. */
static int ud_init(const rd_tp_env_t *env)
{
    memset(&ud, 0, sizeof(ud));
    ud.recv = env->recv;
    ud.rank = env->boot->rank;
    ud.size = env->boot->size;
    int rc = rd_vb_dev_get(&ud.dev);
    if (rc != RD_OK) {
        ud.dev = NULL;
        if (rc != RD_ENOTSUP)
            return rc;
        return rd_vb_addr_publish(NULL, UD_KEY, 0);
    }
    ud.peers = calloc((size_t)ud.size, sizeof(*ud.peers));
    rc = ud.peers ? setup() : RD_ENOMEM;
    if (rc == RD_OK)
        return rd_vb_addr_publish(ud.dev, UD_KEY, ud.qps[0].qp->qp_num);
    ud_finalize();
    /* peers must still find our key; without it they treat us as unreachable */
    int prc = rd_vb_addr_publish(NULL, UD_KEY, 0);
    return prc != RD_OK ? prc : rc;
}

static void teardown(void)
{
    for (int i = 0; ud.peers && i < ud.size; i++)
        if (ud.peers[i].ah)
            ibv_destroy_ah(ud.peers[i].ah);
    for (int k = 0; k < ud.nqp; k++) {
        ud_qp_t *q = &ud.qps[k];
        if (q->qp)
            ibv_destroy_qp(q->qp);
        if (q->mr)
            ibv_dereg_mr(q->mr);
        free(q->slots);
    }
    if (ud.rmr)
        ibv_dereg_mr(ud.rmr);
    free(ud.rbufs);
    if (ud.rcq)
        ibv_destroy_cq(ud.rcq);
    if (ud.scq)
        ibv_destroy_cq(ud.scq);
    rd_udr_destroy(ud.rel);
    free(ud.peers);
    rd_vb_dev_put(ud.dev);
    memset(&ud, 0, sizeof(ud));
}

static void ud_finalize(void)
{
    /* Our last packets (or a peer's, which we must acknowledge) may still be
     * lost on the wire: keep answering for a while until all is acked. */
    if (ud.rel) {
        uint64_t end = now_us(NULL) + RD_UD_LINGER_US;
        while (!rd_udr_quiet(ud.rel) && now_us(NULL) < end)
            if (ud_progress() < 0)
                break;
    }
    teardown();
}

/* ---- peers ---- */

static int lookup(int peer)
{
    ud_peer_t *p = &ud.peers[peer];
    if (!p->addr_known) {
        int ok = rd_vb_addr_lookup(peer, UD_KEY, &p->addr) == RD_OK &&
                 rd_vb_addr_compatible(ud.dev, &p->addr) &&
                 p->addr.mtu == (uint8_t)ud.dev->mtu;
        p->addr_known = ok ? 1 : 2;
    }
    return p->addr_known == 1;
}

static int ud_reachable(int peer)
{
    if (!ud.rel || peer < 0 || peer >= ud.size || peer == ud.rank)
        return 0;
    return lookup(peer);
}

static int ud_refusal(int peer, char *buf, size_t len)
{
    int why = rd_vb_refusal(ud.rel ? ud.dev : NULL, peer, UD_KEY, "ud", buf, len);
    /* Datagrams are not split by the port: both ends need one MTU. */
    if (ud.rel && peer >= 0 && peer < ud.size && ud.peers[peer].addr_known == 2 &&
        rd_vb_addr_compatible(ud.dev, &ud.peers[peer].addr) &&
        ud.peers[peer].addr.mtu != (uint8_t)ud.dev->mtu)
        snprintf(buf, len, "rank %d's port MTU differs from this rank's (%d and %d bytes)",
                 peer, 128 << ud.peers[peer].addr.mtu, 128 << ud.dev->mtu);
    return why;
}

/* ---- send ---- */

/* Takes send completions; each signalled one frees its slot and those
 * before it on the same QP. */
static int reap_sends(void)
{
    struct ibv_wc wc[RD_UD_POLL];
    int n = ibv_poll_cq(ud.scq, RD_UD_POLL, wc);
    if (n < 0) {
        rd_err_detail("ud: ibv_poll_cq of the send CQ on %s failed", ud.dev->name);
        return RD_ESYS;
    }
    for (int i = 0; i < n; i++) {
        if (wc[i].status != IBV_WC_SUCCESS)
            return RD_EPEER;
        int k = (int)(wc[i].wr_id >> 56);
        uint64_t seq = wc[i].wr_id & ((1ULL << 56) - 1);
        if (seq + 1 > ud.qps[k].done)
            ud.qps[k].done = seq + 1;
    }
    return n;
}

static int ud_post(void *ctx, int peer, const void *pkt, size_t len)
{
    (void)ctx;
    ud_peer_t *p = &ud.peers[peer];
    if (!p->ah) {
        if (!lookup(peer) || !(p->ah = rd_vb_ah_create(ud.dev, &p->addr)))
            return RD_EPEER;
    }
    ud_qp_t *q = &ud.qps[ud.next_qp];
    if (++ud.next_qp == ud.nqp)
        ud.next_qp = 0;
    /* A full send queue drains by itself (UD sends complete locally, and
     * among the last depth requests one is signalled). */
    while (q->posted - q->done >= ud.depth) {
        int rc = reap_sends();
        if (rc < 0)
            return rc;
    }
    uint64_t seq = q->posted;
    struct ibv_sge sge;
    struct ibv_send_wr wr = {
        .wr_id = ((uint64_t)(q - ud.qps) << 56) | seq,
        .sg_list = &sge,
        .num_sge = 1,
        .opcode = IBV_WR_SEND,
        .wr.ud = { .ah = p->ah, .remote_qpn = p->addr.qpn, .remote_qkey = RD_UD_QKEY },
    };
    if (seq % ud.signal_every == ud.signal_every - 1 || q->posted + 1 - q->done >= ud.depth)
        wr.send_flags |= IBV_SEND_SIGNALED;
    if (len <= ud.max_inline) {
        wr.send_flags |= IBV_SEND_INLINE;
        sge = (struct ibv_sge){ (uintptr_t)pkt, (uint32_t)len, 0 };
    } else {
        uint8_t *slot = q->slots + (seq % ud.depth) * ud.pkt_max;
        memcpy(slot, pkt, len);
        sge = (struct ibv_sge){ (uintptr_t)slot, (uint32_t)len, q->mr->lkey };
    }
    struct ibv_send_wr *bad;
    int ret = ibv_post_send(q->qp, &wr, &bad);
    if (ret != 0) {
        rd_err_detail_sys(ret, "ud: ibv_post_send of %zu bytes to rank %d on %s", len, peer,
                          ud.dev->name);
        return RD_ESYS;
    }
    q->posted++;
    return RD_OK;
}

static int ud_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    if (!ud.rel || hdrlen > rd_ud_transport.msg.hdr_max || len > rd_ud_transport.msg.eager_max)
        return RD_EINVAL;
    return rd_udr_send(ud.rel, peer, hdr, hdrlen, payload, len);
}

/* ---- progress ---- */

static int ud_progress(void)
{
    if (!ud.rel)
        return 0;
    struct ibv_wc wc[RD_UD_POLL];
    int n = ibv_poll_cq(ud.rcq, RD_UD_POLL, wc), events = 0;
    if (n < 0) {
        rd_err_detail("ud: ibv_poll_cq of the receive CQ on %s failed", ud.dev->name);
        return RD_ESYS;
    }
    if (n > 0) {
        uint32_t idx[RD_UD_POLL];
        size_t bsz = RD_UD_GRH + ud.pkt_max;
        int err = RD_OK;
        for (int i = 0; i < n; i++) {
            idx[i] = (uint32_t)wc[i].wr_id;
            if (wc[i].status != IBV_WC_SUCCESS || wc[i].byte_len < RD_UD_GRH || err != RD_OK)
                continue;
            int rc = rd_udr_input(ud.rel, ud.rbufs + idx[i] * bsz + RD_UD_GRH,
                                  wc[i].byte_len - RD_UD_GRH);
            if (rc < 0)
                err = rc;
            else
                events += rc;
        }
        /* posted again before the header-only acks that cover them leave
         * (rd_udr_poll); acks piggybacked by upcalls may leave a batch
         * earlier, which RD_UD_RQ_MARGIN (>= RD_UD_POLL) absorbs */
        if (post_recvs(idx, n) != RD_OK)
            return RD_ESYS;
        if (err != RD_OK)
            return err;
    }
    int rc = reap_sends();
    if (rc < 0)
        return rc;
    rc = rd_udr_poll(ud.rel);
    if (rc < 0)
        return rc;
    return events + (n > 0 ? n : 0);
}
