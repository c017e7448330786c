/*
 * RC transport: messages over one reliable-connection QP per peer, made on
 * first use through a UD connection manager; receive buffers from one shared
 * receive queue; per-peer credits carried in the immediate; rendezvous by
 * RDMA Read (get) and RDMA Write (put); for frequent peers, RDMA-Write eager
 * into per-peer rings of slots polled by the receiver (RDMPI_RDMA_EAGER).
 * Protocol and wire formats: rc.h; design notes: doc/verbs.md.
 *
 * Files, one concern each (libfabric's prov/verbs split):
 *   rc.c        this file: tunables, init, finalize and the progress pass
 *   rc_int.h    the state they share and the hot-path helpers they inline
 *   rc_cm.c     connection manager: QPN table, REQ/REP/RTU, timers, peer failure
 *   rc_msg.c    messages: credits, post lists, SRQ receives, send completions
 *   rc_ring.c   RDMA-Write eager rings (writing side inline in rc_ring.h)
 *   rc_rdma.c   memory keys, get, put (and with immediate), atomics, flush
 *   rc_bye.c    the goodbye in finalize
 *   rc_fault.c  test-only fault injection (RDMPI_RC_FAULT; only with
 *               --enable-fault-injection)
 *
 * Kalia et al.'s guidelines as applied here: sends and puts that fit the
 * QP's inline limit (probed at init, rdma.inline_max) are posted inline
 * straight from the caller's buffers (no copy into registered memory, no
 * DMA read by the NIC, no registration); one send WR in
 * RDMPI_RC_SIGNAL_EVERY is signalled, and gets and puts without a done of
 * their own only when flush needs it; receive buffers go back to the SRQ in
 * one post list per progress pass, and queued RDMA operations in one send
 * list; credits ride in the 4-byte immediate; RDMA atomics only where p2p's
 * caller asks for them.
 *
 * Threading: one thread at a time calls in (p2p serializes); progress is not
 * re-entered from its upcalls, send/get/put may be called from them.
 */
#include "transport/verbs/rc/rc_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transport/verbs/rc/rc_bye.h"
#include "transport/verbs/rc/rc_cm.h"
#include "transport/verbs/rc/rc_fault.h"
#include "transport/verbs/rc/rc_msg.h"
#include "transport/verbs/rc/rc_rdma.h"
#include "transport/verbs/rc/rc_ring.h"
#include "transport/verbs/rc/rc_tunables.h"
#include "util/errdetail.h"

rd_rc_state_t rd_rc;

static int rc_init(const rd_tp_env_t *env);
static void rc_finalize(void);
static int rc_progress(void);
static int rc_refusal(int peer, char *buf, size_t len);
static void rdma_off(void);

rd_transport_t rd_rc_transport = {
    .name = "rc",
    .msg = { .hdr_max = RD_TP_HDR_MAX, .eager_max = RD_RC_EAGER_MAX_DEFAULT },
    .rdma = { .ops = 0, .split_min = RD_RC_SPLIT_MIN },
    .fence_after_init = 1,
    .init = rc_init,
    .finalize = rc_finalize,
    .reachable = rd_rc_reachable,
    .refusal = rc_refusal,
    .send = rd_rc_send,
    .progress = rc_progress,
};

/* The table bounds each value; what depends on the device or on another
 * value is settled here. */
static int read_tunables(void)
{
    const rd_tunable_t *t = rd_rc_tunables;
    long long eager, credits, nsend, signal_every, sq_depth, max_inline, connect_timeout;
    long long ring_on, th, ns, rsz, mp;
    int rc;
    if ((rc = rd_tunable_int(&t[RD_RC_T_EAGER_MAX], &eager)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_CREDITS], &credits)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_SEND_BUFS], &nsend)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_SIGNAL_EVERY], &signal_every)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_SQ_DEPTH], &sq_depth)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_INLINE], &max_inline)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_CONNECT_TIMEOUT], &connect_timeout)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_RDMA_EAGER], &ring_on)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_RDMA_EAGER_THRESHOLD], &th)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_RDMA_EAGER_SLOTS], &ns)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_RDMA_EAGER_SIZE], &rsz)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_RC_T_RDMA_EAGER_PEERS], &mp)) != RD_OK)
        return rc;
    eager &= ~63LL;              /* the CM message carries it in 64-byte units */
    rd_rc_transport.msg.eager_max = (size_t)eager;
    rd_rc.buf_bytes = (sizeof(rd_rc_prefix_t) + RD_TP_HDR_MAX + (size_t)eager + 63) & ~(size_t)63;
    rd_rc.credits = (int)credits;
    rd_rc.nsend = (int)nsend;
    rd_rc.signal_every = (int)signal_every;
    rd_rc.sq_depth = (int)sq_depth;
    /* Room for a full unsignalled run, plus one WR kept for CREDIT/FLUSH/BYE. */
    if (rd_rc.sq_depth < 2 * rd_rc.signal_every + 4)
        rd_rc.sq_depth = 2 * rd_rc.signal_every + 4;
    if (rd_rc.sq_depth > rd_rc.dev->attr.max_qp_wr)
        rd_rc.sq_depth = rd_rc.dev->attr.max_qp_wr;
    if (rd_rc.signal_every > (rd_rc.sq_depth - 4) / 2)
        rd_rc.signal_every = (rd_rc.sq_depth - 4) / 2 > 0 ? (rd_rc.sq_depth - 4) / 2 : 1;
    rd_rc.pend_mask = 1;
    while (rd_rc.pend_mask < (uint32_t)rd_rc.sq_depth)
        rd_rc.pend_mask <<= 1;
    rd_rc.pend_mask--;
    rd_rc.max_inline = (uint32_t)max_inline;
    rd_rc.connect_timeout = (double)connect_timeout;
    rd_rc.ring_on = (int)ring_on;
    rd_rc.ring_threshold = (int)th;
    rd_rc.ring_nslots = (int)ns;
    if (rsz > eager)
        rsz = eager;
    rd_rc.ring_slot_bytes = (uint32_t)((sizeof(rd_rc_slot_t) + RD_TP_HDR_MAX + (size_t)rsz + 1 +
                                        63) & ~(size_t)63);
    rd_rc.ring_max_peers = mp > rd_rc.size ? rd_rc.size : (int)mp;
    int atom = rd_rc.dev->attr.max_qp_rd_atom < rd_rc.dev->attr.max_qp_init_rd_atom
             ? rd_rc.dev->attr.max_qp_rd_atom : rd_rc.dev->attr.max_qp_init_rd_atom;
    rd_rc.rd_atom = (uint8_t)(atom > 16 ? 16 : atom < 1 ? 1 : atom);
#ifdef RD_FAULT_INJECTION
    return rd_rc_fault_knob(&rd_rc.fault_after);
#else
    long after;
    return rd_rc_fault_knob(&after);
#endif
}

#ifndef RD_FAULT_INJECTION
/* Without --enable-fault-injection the knob does not exist: say so rather
 * than ignore it (rc_fault.c has the real one). */
int rd_rc_fault_knob(long *after)
{
    *after = -1;
    if (!rd_tunable_getenv(&rd_rc_tunables[RD_RC_T_FAULT]))
        return RD_OK;
    rd_err_detail("RDMPI_RC_FAULT needs a library configured with --enable-fault-injection");
    return RD_EINVAL;
}
#endif

static int rc_refusal(int peer, char *buf, size_t len)
{
    return rd_vb_refusal(rd_rc.dev, peer, RC_CM_KEY, "rc", buf, len);
}

/* Collective: every rank publishes its CM address (or "no device"). */
static int rc_init(const rd_tp_env_t *env)
{
    memset(&rd_rc, 0, sizeof(rd_rc));
    rd_rc.recv = env->recv;
    rd_rc.peer_failed = env->peer_failed;
    rd_rc.notified = env->notified;
    rd_rc.rank = env->boot->rank;
    rd_rc.size = env->boot->size;
    rd_list_init(&rd_rc.connecting);
    rd_list_init(&rd_rc.expos);
    rdma_off();

    int rc_ = rd_vb_dev_get(&rd_rc.dev);
    if (rc_ == RD_ENOTSUP) {
        rd_rc.dev = NULL;
        return rd_vb_addr_publish(NULL, RC_CM_KEY, 0);
    }
    if (rc_ != RD_OK) {
        rd_rc.dev = NULL;
        return rc_;
    }
    if ((rc_ = read_tunables()) != RD_OK)
        return rc_;
    rd_rc.peers = calloc((size_t)rd_rc.size, sizeof(*rd_rc.peers));
    rd_rc.due = malloc((size_t)rd_rc.size * sizeof(*rd_rc.due));
    uint32_t q = 16;
    while (q < 2u * (uint32_t)rd_rc.size)
        q <<= 1;
    rd_rc.qtab_mask = q - 1;
    rd_rc.qtab_qpn = malloc(q * sizeof(*rd_rc.qtab_qpn));
    rd_rc.qtab_peer = malloc(q * sizeof(*rd_rc.qtab_peer));
    rd_rc.rings = malloc((size_t)(rd_rc.ring_max_peers + 1) * sizeof(*rd_rc.rings));
    int err = RD_ENOMEM;
    if (!rd_rc.peers || !rd_rc.due || !rd_rc.qtab_qpn || !rd_rc.qtab_peer || !rd_rc.rings)
        goto fail;
    for (uint32_t i = 0; i < q; i++)
        rd_rc.qtab_peer[i] = -1;
    for (int i = 0; i < rd_rc.size; i++) {
        rd_list_init(&rd_rc.peers[i].sq.ops);
        rd_list_init(&rd_rc.peers[i].sq.flushes);
        rd_list_init(&rd_rc.peers[i].cm.link);
    }
    srand48((long)getpid() ^ (long)rd_rc.rank * 7919);
    if ((err = rd_rc_cm_setup()) != RD_OK || (err = rd_rc_inline_probe()) != RD_OK)
        goto fail;
    if ((err = rd_vb_addr_publish(rd_rc.dev, RC_CM_KEY, rd_rc.cm_qp->qp_num)) != RD_OK)
        goto fail;
    rd_rc_transport.rdma.ops = RD_TP_RDMA_GET | RD_TP_RDMA_PUT;
    rd_rc_transport.rdma.len_max = rd_rc.dev->port_attr.max_msg_sz;
    rd_rc_transport.fail.reports = 1;
    rd_rc_transport.mem_reg = rd_rc_mem_reg;
    rd_rc_transport.mem_dereg = rd_rc_mem_dereg;
    rd_rc_transport.get = rd_rc_get;
    rd_rc_transport.put = rd_rc_put;
    rd_rc_transport.put_imm = rd_rc_put_imm;
    rd_rc_transport.flush = rd_rc_flush;
    rd_rc_transport.rdma.inline_max = rd_rc.max_inline;
    if (rd_rc.dev->attr.atomic_cap != IBV_ATOMIC_NONE) {
        rd_rc_transport.rdma.ops |= RD_TP_RDMA_ATOMIC;
        rd_rc_transport.fetch_add = rd_rc_fetch_add;
        rd_rc_transport.cswap = rd_rc_cswap;
        rd_rc_transport.loopback = rd_rc_loopback;
    }
    return RD_OK;
fail:
    rc_finalize();
    /* Publish "no device" so that peers waiting on our key see one. */
    return rd_vb_addr_publish(NULL, RC_CM_KEY, 0) == RD_OK ? RD_OK : err;
}

static void rc_finalize(void)
{
    if (!rd_rc.dev) {
        memset(&rd_rc, 0, sizeof(rd_rc));
        return;
    }
    rd_rc.finalizing = 1;
    rd_rc_goodbye();
    rd_rc_check_lost();
    for (int i = 0; rd_rc.peers && i < rd_rc.size; i++) {
        rc_peer_t *p = &rd_rc.peers[i];
        if (p->sq.qp)
            ibv_destroy_qp(p->sq.qp);
        if (p->cm.ah)
            ibv_destroy_ah(p->cm.ah);
        while (!rd_list_empty(&p->sq.ops)) {
            rc_op_t *op = rd_list_entry(p->sq.ops.next, rc_op_t, link);
            rd_list_remove(&op->link);
            if (op->mr)
                rd_vb_mr_release(rd_rc.dev, op->mr);
            free(op);
        }
        while (!rd_list_empty(&p->sq.flushes)) {
            rc_fwait_t *w = rd_list_entry(p->sq.flushes.next, rc_fwait_t, link);
            rd_list_remove(&w->link);
            if (--w->f->n == 0)
                free(w->f);
            free(w);
        }
        if (p->sq.pend) {
            for (uint32_t s = p->sq.done_seq; s != p->sq.post_seq; s++)
                if (p->sq.pend[s & rd_rc.pend_mask].mr)
                    rd_vb_mr_release(rd_rc.dev, p->sq.pend[s & rd_rc.pend_mask].mr);
            free(p->sq.pend);
        }
        if (p->ring_rx.mr)
            ibv_dereg_mr(p->ring_rx.mr);
        free(p->ring_rx.mem);
    }
    if (rd_rc.loop_qp)
        ibv_destroy_qp(rd_rc.loop_qp);
    while (!rd_list_empty(&rd_rc.expos)) {
        rc_mem_t *x = rd_list_entry(rd_rc.expos.next, rc_mem_t, link);
        rd_list_remove(&x->link);
        rd_vb_mr_release(rd_rc.dev, x->mr);
        free(x);
    }
    if (rd_rc.amr)
        ibv_dereg_mr(rd_rc.amr);
    free(rd_rc.abuf);
    if (rd_rc.srq)
        ibv_destroy_srq(rd_rc.srq);
    for (rc_chunk_t *c = rd_rc.chunks, *n; c; c = n) {
        n = c->next;
        ibv_dereg_mr(c->mr);
        free(c->mem);
        free(c);
    }
    if (rd_rc.smr)
        ibv_dereg_mr(rd_rc.smr);
    if (rd_rc.ctl_mr)
        ibv_dereg_mr(rd_rc.ctl_mr);
    free(rd_rc.ctl);
    free(rd_rc.rings);
    free(rd_rc.smem);
    free(rd_rc.sfree);
    if (rd_rc.scq)
        ibv_destroy_cq(rd_rc.scq);
    if (rd_rc.rcq)
        ibv_destroy_cq(rd_rc.rcq);
    if (rd_rc.cm_qp)
        ibv_destroy_qp(rd_rc.cm_qp);
    if (rd_rc.cm_cq)
        ibv_destroy_cq(rd_rc.cm_cq);
    if (rd_rc.cm_mr)
        ibv_dereg_mr(rd_rc.cm_mr);
    free(rd_rc.cm_mem);
    free(rd_rc.peers);
    free(rd_rc.due);
    free(rd_rc.qtab_qpn);
    free(rd_rc.qtab_peer);
    rd_vb_dev_put(rd_rc.dev);
    memset(&rd_rc, 0, sizeof(rd_rc));
    rdma_off();
}

/* Nothing but messages until init has a device. */
static void rdma_off(void)
{
    rd_rc_transport.rdma.ops = 0;
    rd_rc_transport.rdma.len_max = 0;
    rd_rc_transport.rdma.inline_max = 0;
    rd_rc_transport.fail.reports = 0;
    rd_rc_transport.mem_reg = NULL;
    rd_rc_transport.mem_dereg = NULL;
    rd_rc_transport.get = NULL;
    rd_rc_transport.put = NULL;
    rd_rc_transport.put_imm = NULL;
    rd_rc_transport.flush = NULL;
    rd_rc_transport.fetch_add = NULL;
    rd_rc_transport.cswap = NULL;
    rd_rc_transport.loopback = NULL;
}

static int rc_progress(void)
{
    if (RC_UNLIKELY(!rd_rc.dev))
        return 0;
    if (RC_UNLIKELY(rd_rc.in_progress))
        return RD_EINTERN;
    rd_rc.in_progress = 1;
    int events = 0, status = RD_OK;
    /* Connection messages are rare once connections are up: while none is
     * being made, every RC_CM_POLL_EVERY-th pass polls for them (a peer's
     * first connection waits that many passes more, well under a
     * microsecond each), which keeps a completion queue poll out of the
     * loops that wait for one operation. */
    if (!rd_list_empty(&rd_rc.connecting)) {
        events = rd_rc_poll_cm();
        rd_rc_cm_timers();
    } else if (!rd_rc.data_ready || ++rd_rc.cm_skip % RC_CM_POLL_EVERY == 0) {
        events = rd_rc_poll_cm();
    }
    if (rd_rc.data_ready) {
        int k = rd_rc_poll_recv();
        if (k < 0)
            status = k;
        else
            events += k;
        if (rd_rc.nrings) {
            k = rd_rc_poll_rings();
            if (k < 0)
                status = k;
            else
                events += k;
        }
        k = rd_rc_poll_send();
        if (k < 0)
            status = k;
        else
            events += k;
        if (rd_rc.ndue)
            rd_rc_send_due_credits();
    }
    rd_rc.in_progress = 0;
    if (RC_UNLIKELY(rd_rc.nfail_report))
        rd_rc_report_failures();
    return status != RD_OK ? status : events;
}
