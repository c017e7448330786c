/*
 * RC transport: messages over one reliable-connection QP per peer, made on
 * first use through a UD connection manager; receive buffers from one shared
 * receive queue; per-peer credits carried in the immediate; rendezvous by
 * RDMA Read (get) and RDMA Write (put); for frequent peers, RDMA-Write eager
 * into per-peer rings of slots polled by the receiver (RDMPI_RDMA_EAGER).
 * Protocol and wire formats: rc.h; design notes: doc/verbs.md.
 *
 * Kalia et al.'s guidelines as applied here: sends that fit the QP's inline
 * limit are posted inline straight from the caller's buffers (no copy into
 * registered memory, no DMA read by the NIC); one send WR in
 * RDMPI_RC_SIGNAL_EVERY is signalled; receive buffers go back to the SRQ in
 * one post list per progress pass, and queued RDMA operations in one send
 * list; credits ride in the 4-byte immediate; no atomics.
 *
 * Threading: one thread at a time calls in (p2p serializes); progress is not
 * re-entered from its upcalls, send/get/put may be called from them.
 */
#include "transport/verbs/rc/rc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "transport/transport.h"
#include "transport/verbs/common/verbs.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/list.h"
#include "util/status.h"

#define RC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RC_CM_KEY "rd.rc.cm"

enum rc_state {
    RC_IDLE,                     /* no QP yet */
    RC_CONNECTING,               /* REQ sent, waiting for REP */
    RC_WAIT_RTU,                 /* QP in RTS, the peer's may not be in RTR yet */
    RC_READY,
    RC_FAILED,
};

/* Our ring for a peer (the receiving side of RDMA-Write eager). */
enum rc_ring {
    RING_NONE,                   /* not (yet) offered */
    RING_ON,                     /* offered; the peer may write into it */
    RING_OFF,                    /* never: disabled, limit reached or no memory */
};

/* Send-queue bookkeeping of one posted WR, by sequence number. */
typedef struct rc_pend {
    int slot;                    /* send buffer to free, or -1 */
    uint8_t read;                /* an RDMA Read (counts against rd_atom) */
    uint8_t msg;                 /* carries a message of p2p (send/recv or ring) */
    uint8_t rdma;                /* a get, put or atomic: counts towards flush */
    int aslot;                   /* an atomic's bounce slot, or -1 */
    rd_rcache_ent_t *mr;         /* local registration to release, or NULL */
    rd_tp_done_fn done;          /* get/put/atomic completion, or NULL */
    void *ctx;
    uint64_t *result;            /* an atomic's result */
} rc_pend_t;

enum rc_op_kind { RC_OP_READ, RC_OP_WRITE, RC_OP_FADD, RC_OP_CSWAP };

/* A get or put waiting for the connection, send-queue room or a read slot. */
typedef struct rc_op {
    rd_list_t link;
    uint8_t kind;                /* enum rc_op_kind */
    rd_rcache_ent_t *mr;         /* taken from the cache for this op, or NULL (caller's handle) */
    uint32_t lkey;
    void *local;
    uint64_t raddr;
    uint32_t rkey;
    uint32_t len;
    uint64_t add, swap;          /* atomics: fetch-add's add, or cswap's compare and swap */
    uint64_t *result;
    rd_tp_done_fn done;
    void *ctx;
} rc_op_t;

/* A flush in progress: done runs when n reaches 0 (one per peer waited on,
 * plus one while flush() itself runs). */
typedef struct rc_flush {
    int n, status;
    rd_tp_done_fn done;
    void *ctx;
} rc_flush_t;

/* One peer's part of a flush: over once rdma_done reaches target. */
typedef struct rc_fwait {
    rd_list_t link;
    uint32_t target;
    rc_flush_t *f;
} rc_fwait_t;

typedef struct rc_peer {
    uint8_t state;               /* enum rc_state */
    uint8_t addr_known;          /* 1: addr looked up, 2: lookup failed */
    uint8_t qp_ready;            /* QP connected (in RTS) */
    uint8_t credit_due;          /* in rc.due */
    uint8_t flush_out;           /* a FLUSH is in flight */
    rd_vb_addr_t addr;           /* the peer's CM address */
    struct ibv_ah *ah;
    struct ibv_qp *qp;
    uint32_t my_psn, remote_qpn;
    int tx_credits;              /* messages we may send */
    int rx_unreported;           /* buffers reposted for this peer, not yet returned */
    int reads;                   /* RDMA Reads outstanding */
    uint32_t sq_used;            /* WRs posted, completion not yet seen */
    uint32_t unsignaled;         /* WRs since the last signalled one */
    uint32_t slots_held;         /* send buffers held by unsignalled WRs */
    uint32_t post_seq, done_seq; /* next WR number; first not known complete */
    rc_pend_t *pend;             /* sq_depth entries, by seq % sq_depth */
    rd_list_t ops;               /* rc_op_t waiting */
    uint32_t rdma_issued;        /* gets, puts and atomics accepted */
    uint32_t rdma_done;          /* of those, completed */
    int rdma_error;              /* first error of one without done, for flush */
    rd_list_t flushes;           /* rc_fwait_t, by target */
    rd_list_t conn_link;         /* in rc.connecting */
    double next_retry, deadline;
    unsigned backoff_ms;
    /* RDMA-Write eager, writing side: the peer's ring for us */
    uint8_t ring_tx;             /* the peer offered a ring */
    uint8_t ring_ack_owed;       /* RING_ACK still to send */
    uint16_t srq_sent;           /* messages sent over send/recv (mod 2^16) */
    uint16_t tx_nslots;
    uint32_t tx_slot_bytes;
    uint32_t tx_rkey;
    uint64_t tx_raddr;
    uint32_t ring_written;       /* messages written into the peer's ring */
    uint32_t ring_freed;         /* of those, known consumed by the peer */
    /* receiving side: our ring for the peer */
    uint8_t ring_rx;             /* enum rc_ring */
    uint8_t ack_known;           /* the peer's counter (RING_ACK) is known */
    uint16_t srq_rcvd;           /* send/recv messages delivered (mod 2^16) */
    uint32_t rx_msgs;            /* send/recv messages received, towards the threshold */
    uint32_t ring_rcvd;          /* messages consumed from our ring */
    uint32_t ring_reported;      /* ring_rcvd as last told to the peer */
    uint32_t ack_rkey;
    uint64_t ack_raddr;
    char *ring;
    struct ibv_mr *ring_mr;
    struct rc_rxbuf *held, *held_tail; /* send/recv messages waiting for earlier ring ones */
    uint8_t fail_report;         /* failed; p2p not told yet */
    uint32_t fault_msgs;         /* messages sent (RDMPI_RC_FAULT's count) */
    uint8_t msg_lost;            /* a message to it completed in error */
    uint8_t bye_out;             /* finalize: our BYE is posted (its WR: bye_seq) */
    uint8_t bye_in;              /* the peer's BYE has arrived: it sends nothing more */
    uint32_t bye_seq;
} rc_peer_t;

/* One receive buffer of the SRQ. */
typedef struct rc_rxbuf {
    char *data;
    uint32_t lkey;
    int peer;                    /* who filled it last (credits on repost) */
    uint8_t credit;              /* the last message used a credit */
    uint32_t len;                /* bytes received, while held */
    struct rc_rxbuf *next;       /* in the peer's held list */
} rc_rxbuf_t;

typedef struct rc_chunk {
    struct rc_chunk *next;
    struct ibv_mr *mr;
    char *mem;
    int n;
    rc_rxbuf_t bufs[];
} rc_chunk_t;

/* A registration handed out by mem_reg (its public part first), ended by
 * mem_dereg; listed so that finalize drops what p2p still holds. */
typedef struct rc_mem {
    rd_tp_mem_t pub;
    rd_list_t link;
    rd_rcache_ent_t *mr;
} rc_mem_t;

/* Bounce slots for atomics' results: the device writes the old value into
 * registered memory, copied out to the caller's result at completion. */
#define RC_ABUF_SLOTS 64

static struct rc {
    rd_vb_dev_t *dev;
    rd_tp_recv_fn recv;
    rd_tp_failed_fn peer_failed; /* p2p's upcall (NULL: abort the job) */
    int nfail_report;            /* peers with fail_report set */
    int finalizing;              /* errors now are the peers' own shutdown */
    long fault_after;            /* RDMPI_RC_FAULT on this rank: n, else -1 */
    int rank, size;
    rc_peer_t *peers;
    /* tunables, settled at init */
    int credits, sq_depth, signal_every, nsend;
    uint32_t max_inline;
    uint8_t rd_atom;
    size_t buf_bytes;            /* one receive/send buffer: prefix + hdr + eager */
    double connect_timeout;
    /* connection manager */
    struct ibv_cq *cm_cq;
    struct ibv_qp *cm_qp;
    char *cm_mem;                /* CM_RECVS receive + CM_SLOTS send buffers */
    struct ibv_mr *cm_mr;
    unsigned cm_next, cm_busy;
    rd_list_t connecting;
    /* data path, created on the first connection */
    int data_ready;
    struct ibv_cq *scq, *rcq;
    struct ibv_srq *srq;
    int srq_max, srq_posted;
    rc_chunk_t *chunks;
    char *smem;
    struct ibv_mr *smr;
    int *sfree, nsfree;
    /* QPN -> peer, open addressing */
    uint32_t *qtab_qpn;
    int *qtab_peer;
    uint32_t qtab_mask;
    /* receive buffers to post again at the end of the pass */
    struct ibv_recv_wr rwr[RD_RC_POLL];
    struct ibv_sge rsge[RD_RC_POLL];
    rc_rxbuf_t *rbuf[RD_RC_POLL];
    int nrepost;
    /* peers owed an explicit credit message */
    int *due, ndue;
    /* RDMA-Write eager */
    int ring_on, ring_threshold, ring_nslots, ring_max_peers;
    uint32_t ring_slot_bytes;
    int *rings, nrings;          /* peers we hold a ring for */
    uint32_t *ctl;               /* per peer: [2p] counter the peer writes, [2p+1] source */
    struct ibv_mr *ctl_mr;
    rd_list_t expos;
    uint64_t *abuf;              /* RC_ABUF_SLOTS atomic results */
    struct ibv_mr *amr;
    int afree[RC_ABUF_SLOTS], nafree;
    int in_progress;
} rc;

static int rc_init(const rd_tp_env_t *env);
static void rc_finalize(void);
static int rc_reachable(int peer);
static int rc_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
static int rc_progress(void);
static int rc_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem);
static void rc_mem_dereg(rd_tp_mem_t *mem);
static int rc_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                  const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
static int rc_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                  const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
static int rc_flush(int peer, rd_tp_done_fn done, void *ctx);
static int rc_fetch_add(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                        uint64_t add, uint64_t *result, rd_tp_done_fn done, void *ctx);
static int rc_cswap(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                    uint64_t compare, uint64_t swap, uint64_t *result, rd_tp_done_fn done,
                    void *ctx);
static void rdma_off(void);

rd_transport_t rd_rc_transport = {
    .name = "rc",
    .msg = { .hdr_max = RD_TP_HDR_MAX, .eager_max = RD_RC_EAGER_MAX_DEFAULT },
    .rdma = { .ops = 0, .split_min = RD_RC_SPLIT_MIN },
    .fence_after_init = 1,
    .init = rc_init,
    .finalize = rc_finalize,
    .reachable = rc_reachable,
    .send = rc_send,
    .progress = rc_progress,
};

/* ---- QPN table ---- */

static void qtab_put(uint32_t qpn, int peer)
{
    uint32_t i = (qpn * 2654435761u) & rc.qtab_mask;
    while (rc.qtab_peer[i] >= 0)
        i = (i + 1) & rc.qtab_mask;
    rc.qtab_qpn[i] = qpn;
    rc.qtab_peer[i] = peer;
}

static int qtab_get(uint32_t qpn)
{
    uint32_t i = (qpn * 2654435761u) & rc.qtab_mask;
    while (rc.qtab_peer[i] >= 0) {
        if (rc.qtab_qpn[i] == qpn)
            return rc.qtab_peer[i];
        i = (i + 1) & rc.qtab_mask;
    }
    return -1;
}

/* ---- init ---- */

static int cm_post_recv(unsigned i)
{
    struct ibv_sge sge = {
        .addr = (uintptr_t)(rc.cm_mem + (size_t)i * 128),
        .length = 128,
        .lkey = rc.cm_mr->lkey,
    };
    struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;
    return ibv_post_recv(rc.cm_qp, &wr, &bad) ? RD_ESYS : RD_OK;
}

static int cm_setup(void)
{
    size_t bytes = (size_t)(RD_RC_CM_RECVS + RD_RC_CM_SLOTS) * 128;
    rc.cm_mem = calloc(1, bytes);
    if (!rc.cm_mem)
        return RD_ENOMEM;
    rc.cm_mr = ibv_reg_mr(rc.dev->pd, rc.cm_mem, bytes, IBV_ACCESS_LOCAL_WRITE);
    rc.cm_cq = ibv_create_cq(rc.dev->ctx, RD_RC_CM_RECVS + RD_RC_CM_SLOTS, NULL, NULL, 0);
    if (!rc.cm_mr || !rc.cm_cq)
        return RD_ESYS;
    struct ibv_qp_init_attr a = {
        .send_cq = rc.cm_cq,
        .recv_cq = rc.cm_cq,
        .cap = { .max_send_wr = RD_RC_CM_SLOTS, .max_recv_wr = RD_RC_CM_RECVS,
                 .max_send_sge = 1, .max_recv_sge = 1 },
        .qp_type = IBV_QPT_UD,
    };
    rc.cm_qp = rd_vb_qp_create(rc.dev, &a, 0);
    if (!rc.cm_qp || rd_vb_ud_ready(rc.dev, rc.cm_qp, RD_RC_QKEY) != RD_OK)
        return RD_ESYS;
    for (unsigned i = 0; i < RD_RC_CM_RECVS; i++)
        if (cm_post_recv(i) != RD_OK)
            return RD_ESYS;
    return RD_OK;
}

/* RDMPI_RC_FAULT=RANK:N (testing only): on rank RANK, the QP to a peer is
 * moved to the error state when message N + 1 to that peer is sent, the way
 * a broken link would leave it (this side's work requests flush, the
 * peer's retries run out). Returns N for this rank, else -1. */
static long fault_knob(void)
{
    const char *s = rd_env_str("RDMPI_RC_FAULT", NULL);
    if (!s)
        return -1;
    char *end;
    errno = 0;
    long r = strtol(s, &end, 10), n = -1;
    if (!errno && end != s && *end == ':' && r >= 0) {
        char *e2;
        n = strtol(end + 1, &e2, 10);
        if (errno || e2 == end + 1 || *e2 || n < 0)
            n = -1, r = -1;
    } else {
        r = -1;
    }
    if (r < 0) {
        fprintf(stderr, "rdmpi: ignoring RDMPI_RC_FAULT=\"%s\": not RANK:N (two whole numbers)\n",
                s);
        return -1;
    }
    return r == rc.rank ? n : -1;
}

static void read_tunables(void)
{
    long long eager = rd_env_size("RDMPI_RC_EAGER_MAX", RD_RC_EAGER_MAX_DEFAULT);
    if (eager < 64)
        eager = 64;
    if (eager > RD_RC_EAGER_MAX_LIMIT)
        eager = RD_RC_EAGER_MAX_LIMIT;
    eager &= ~63LL;              /* the CM message carries it in 64-byte units */
    rd_rc_transport.msg.eager_max = (size_t)eager;
    rc.buf_bytes = (sizeof(rd_rc_prefix_t) + RD_TP_HDR_MAX + (size_t)eager + 63) & ~(size_t)63;
    rc.credits = (int)rd_env_long("RDMPI_RC_CREDITS", RD_RC_CREDITS_DEFAULT);
    if (rc.credits < 2)
        rc.credits = 2;
    if (rc.credits > 4096)
        rc.credits = 4096;
    rc.nsend = (int)rd_env_long("RDMPI_RC_SEND_BUFS", RD_RC_SEND_BUFS_DEFAULT);
    if (rc.nsend < 4)
        rc.nsend = 4;
    rc.signal_every = (int)rd_env_long("RDMPI_RC_SIGNAL_EVERY", RD_RC_SIGNAL_DEFAULT);
    if (rc.signal_every < 1)
        rc.signal_every = 1;
    rc.sq_depth = (int)rd_env_long("RDMPI_RC_SQ_DEPTH", RD_RC_SQ_DEPTH_DEFAULT);
    /* Room for a full unsignalled run, plus one WR kept for CREDIT/FLUSH/BYE. */
    if (rc.sq_depth < 2 * rc.signal_every + 4)
        rc.sq_depth = 2 * rc.signal_every + 4;
    if (rc.sq_depth > rc.dev->attr.max_qp_wr)
        rc.sq_depth = rc.dev->attr.max_qp_wr;
    if (rc.signal_every > (rc.sq_depth - 4) / 2)
        rc.signal_every = (rc.sq_depth - 4) / 2 > 0 ? (rc.sq_depth - 4) / 2 : 1;
    rc.max_inline = (uint32_t)rd_env_long("RDMPI_RC_INLINE", RD_RC_INLINE_DEFAULT);
    rc.connect_timeout = (double)rd_env_long("RDMPI_RC_CONNECT_TIMEOUT",
                                             RD_RC_CONNECT_TIMEOUT_DEFAULT);
    rc.ring_on = rd_env_bool("RDMPI_RDMA_EAGER", RD_RING_ENABLE_DEFAULT);
    long th = rd_env_long("RDMPI_RDMA_EAGER_THRESHOLD", RD_RING_THRESHOLD_DEFAULT);
    rc.ring_threshold = th < 1 ? 1 : th > 1L << 30 ? 1 << 30 : (int)th;
    long ns = rd_env_long("RDMPI_RDMA_EAGER_SLOTS", RD_RING_SLOTS_DEFAULT);
    rc.ring_nslots = ns < 2 ? 2 : ns > RD_RING_SLOTS_MAX ? RD_RING_SLOTS_MAX : (int)ns;
    long long rsz = rd_env_size("RDMPI_RDMA_EAGER_SIZE", RD_RING_SIZE_DEFAULT);
    if (rsz < 0)
        rsz = 0;
    if (rsz > eager)
        rsz = eager;
    rc.ring_slot_bytes = (uint32_t)((sizeof(rd_rc_slot_t) + RD_TP_HDR_MAX + (size_t)rsz + 1 + 63) &
                                    ~(size_t)63);
    long mp = rd_env_long("RDMPI_RDMA_EAGER_PEERS", RD_RING_PEERS_DEFAULT);
    rc.ring_max_peers = mp < 0 ? 0 : mp > rc.size ? rc.size : (int)mp;
    int atom = rc.dev->attr.max_qp_rd_atom < rc.dev->attr.max_qp_init_rd_atom
             ? rc.dev->attr.max_qp_rd_atom : rc.dev->attr.max_qp_init_rd_atom;
    rc.rd_atom = (uint8_t)(atom > 16 ? 16 : atom < 1 ? 1 : atom);
    rc.fault_after = fault_knob();
}

/* Collective: every rank publishes its CM address (or "no device"). */
static int rc_init(const rd_tp_env_t *env)
{
    memset(&rc, 0, sizeof(rc));
    rc.recv = env->recv;
    rc.peer_failed = env->peer_failed;
    rc.rank = env->boot->rank;
    rc.size = env->boot->size;
    rd_list_init(&rc.connecting);
    rd_list_init(&rc.expos);
    rdma_off();

    int rc_ = rd_vb_dev_get(&rc.dev);
    if (rc_ == RD_ENOTSUP) {
        rc.dev = NULL;
        return rd_vb_addr_publish(NULL, RC_CM_KEY, 0);
    }
    if (rc_ != RD_OK) {
        rc.dev = NULL;
        return rc_;
    }
    read_tunables();
    rc.peers = calloc((size_t)rc.size, sizeof(*rc.peers));
    rc.due = malloc((size_t)rc.size * sizeof(*rc.due));
    uint32_t q = 16;
    while (q < 2u * (uint32_t)rc.size)
        q <<= 1;
    rc.qtab_mask = q - 1;
    rc.qtab_qpn = malloc(q * sizeof(*rc.qtab_qpn));
    rc.qtab_peer = malloc(q * sizeof(*rc.qtab_peer));
    rc.rings = malloc((size_t)(rc.ring_max_peers + 1) * sizeof(*rc.rings));
    int err = RD_ENOMEM;
    if (!rc.peers || !rc.due || !rc.qtab_qpn || !rc.qtab_peer || !rc.rings)
        goto fail;
    for (uint32_t i = 0; i < q; i++)
        rc.qtab_peer[i] = -1;
    for (int i = 0; i < rc.size; i++) {
        rd_list_init(&rc.peers[i].ops);
        rd_list_init(&rc.peers[i].flushes);
        rd_list_init(&rc.peers[i].conn_link);
    }
    srand48((long)getpid() ^ (long)rc.rank * 7919);
    if ((err = cm_setup()) != RD_OK)
        goto fail;
    if ((err = rd_vb_addr_publish(rc.dev, RC_CM_KEY, rc.cm_qp->qp_num)) != RD_OK)
        goto fail;
    rd_rc_transport.rdma.ops = RD_TP_RDMA_GET | RD_TP_RDMA_PUT;
    rd_rc_transport.rdma.len_max = rc.dev->port_attr.max_msg_sz;
    rd_rc_transport.fail.reports = 1;
    rd_rc_transport.mem_reg = rc_mem_reg;
    rd_rc_transport.mem_dereg = rc_mem_dereg;
    rd_rc_transport.get = rc_get;
    rd_rc_transport.put = rc_put;
    rd_rc_transport.flush = rc_flush;
    if (rc.dev->attr.atomic_cap != IBV_ATOMIC_NONE) {
        rd_rc_transport.rdma.ops |= RD_TP_RDMA_ATOMIC;
        rd_rc_transport.fetch_add = rc_fetch_add;
        rd_rc_transport.cswap = rc_cswap;
    }
    return RD_OK;
fail:
    rc_finalize();
    /* Publish "no device" so that peers waiting on our key see one. */
    return rd_vb_addr_publish(NULL, RC_CM_KEY, 0) == RD_OK ? RD_OK : err;
}

/* SRQ, CQs and send buffers: on the first connection, so that a job whose
 * peers all sit on one node pins nothing for rc. */
static int data_setup(void)
{
    const struct ibv_device_attr *da = &rc.dev->attr;
    int per_peer = rc.credits + RD_RC_RESERVE;
    long want = (long)(rc.size - 1) * per_peer;
    rc.srq_max = (int)(want < da->max_srq_wr ? want : da->max_srq_wr);
    int rcqe = rc.srq_max < da->max_cqe ? rc.srq_max : da->max_cqe;
    long s = (long)(rc.size - 1) * rc.sq_depth;
    int scqe = (int)(s < da->max_cqe ? s : da->max_cqe);
    rc.rcq = ibv_create_cq(rc.dev->ctx, rcqe, NULL, NULL, 0);
    rc.scq = ibv_create_cq(rc.dev->ctx, scqe, NULL, NULL, 0);
    struct ibv_srq_init_attr sa = { .attr = { .max_wr = (uint32_t)rc.srq_max, .max_sge = 1 } };
    rc.srq = ibv_create_srq(rc.dev->pd, &sa);
    if (!rc.rcq || !rc.scq || !rc.srq)
        return RD_ESYS;
    size_t bytes = (size_t)rc.nsend * rc.buf_bytes;
    if (posix_memalign((void **)&rc.smem, 4096, bytes) != 0)
        return RD_ENOMEM;
    rc.smr = ibv_reg_mr(rc.dev->pd, rc.smem, bytes, IBV_ACCESS_LOCAL_WRITE);
    rc.sfree = malloc((size_t)rc.nsend * sizeof(*rc.sfree));
    if (!rc.smr || !rc.sfree)
        return RD_ESYS;
    for (int i = 0; i < rc.nsend; i++)
        rc.sfree[i] = rc.nsend - 1 - i;
    rc.nsfree = rc.nsend;
    if (posix_memalign((void **)&rc.abuf, 64, RC_ABUF_SLOTS * sizeof(uint64_t)) != 0)
        return RD_ENOMEM;
    rc.amr = ibv_reg_mr(rc.dev->pd, rc.abuf, RC_ABUF_SLOTS * sizeof(uint64_t),
                        IBV_ACCESS_LOCAL_WRITE);
    if (!rc.amr)
        return RD_ESYS;
    for (int i = 0; i < RC_ABUF_SLOTS; i++)
        rc.afree[i] = RC_ABUF_SLOTS - 1 - i;
    rc.nafree = RC_ABUF_SLOTS;
    /* RDMA-Write eager counters: 8 bytes per rank, registered once. */
    size_t cbytes = ((size_t)rc.size * 2 * sizeof(uint32_t) + 4095) & ~(size_t)4095;
    if (posix_memalign((void **)&rc.ctl, 4096, cbytes) != 0)
        return RD_ENOMEM;
    memset(rc.ctl, 0, cbytes);
    rc.ctl_mr = ibv_reg_mr(rc.dev->pd, rc.ctl, cbytes,
                           IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!rc.ctl_mr)
        return RD_ESYS;
    rc.data_ready = 1;
    return RD_OK;
}

/* Posts the receive buffers one more peer may fill (credits + reserve). */
static int add_rx_chunk(void)
{
    int n = rc.credits + RD_RC_RESERVE;
    if (rc.srq_posted + n > rc.srq_max)
        return RD_ENOMEM;
    rc_chunk_t *c = calloc(1, sizeof(*c) + (size_t)n * sizeof(rc_rxbuf_t));
    if (!c)
        return RD_ENOMEM;
    size_t bytes = (size_t)n * rc.buf_bytes;
    if (posix_memalign((void **)&c->mem, 4096, bytes) != 0) {
        free(c);
        return RD_ENOMEM;
    }
    c->mr = ibv_reg_mr(rc.dev->pd, c->mem, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (!c->mr) {
        free(c->mem);
        free(c);
        return RD_ESYS;
    }
    c->n = n;
    c->next = rc.chunks;
    rc.chunks = c;
    struct ibv_recv_wr wr[n];
    struct ibv_sge sge[n];
    for (int i = 0; i < n; i++) {
        c->bufs[i].data = c->mem + (size_t)i * rc.buf_bytes;
        c->bufs[i].lkey = c->mr->lkey;
        c->bufs[i].peer = -1;
        sge[i] = (struct ibv_sge){ (uintptr_t)c->bufs[i].data, (uint32_t)rc.buf_bytes,
                                   c->mr->lkey };
        wr[i] = (struct ibv_recv_wr){ .wr_id = (uintptr_t)&c->bufs[i],
                                      .next = i + 1 < n ? &wr[i + 1] : NULL,
                                      .sg_list = &sge[i], .num_sge = 1 };
    }
    struct ibv_recv_wr *bad;
    if (ibv_post_srq_recv(rc.srq, wr, &bad) != 0)
        return RD_ESYS;
    rc.srq_posted += n;
    return RD_OK;
}

static int poll_send(void);
static int post_hdr_only(int peer, unsigned kind, int signal);

static int poll_cm(void);
static int poll_recv(void);

/* A peer finalize still waits for: one whose QP is connected (or about to
 * be: WAIT_RTU turns READY when the peer's RTU arrives, which it sent
 * before anything else) until our BYE has completed and its BYE has
 * arrived. IDLE and FAILED peers get no BYE; neither do CONNECTING ones (we
 * asked for a connection that no operation finished with, so the peer may
 * never have heard of it; if its REP comes during the wait, the peer is
 * READY and counts). */
static int bye_pending(const rc_peer_t *p)
{
    if (p->state == RC_WAIT_RTU)
        return 1;
    if (p->state != RC_READY)
        return 0;
    return !p->bye_out || (int32_t)(p->done_seq - p->bye_seq) <= 0 || !p->bye_in;
}

/* Before the QPs go (the goodbye of rc.h): posts a signalled BYE to every
 * connected peer and waits, bounded, until each BYE has completed and each
 * such peer's BYE has arrived. A send returns as soon as its data is copied
 * or inlined, so the last messages before MPI_Finalize (the final
 * barrier's) may still be on the wire; our BYE's completion says they and
 * it were acknowledged, and the peer's BYE says that it will not send into
 * our QP once it is gone (before this protocol, the last rank out of the
 * barrier waited for its retries into a destroyed QP, up to the bound).
 * Messages other than BYE that arrive now belong to the finished job and
 * are dropped (poll_recv, rc.finalizing); rings are not read. A message
 * that fails within the bound is seen (msg_lost, check_lost); one whose
 * retries take longer (RDMPI_RC_TIMEOUT 19 and above: 8 tries of 2.1 s or
 * more) is not. The bound (10 s) only matters when a peer is gone or
 * misbehaves: a lost final ack, a peer that never finalizes. */
static void goodbye(void)
{
    if (!rc.data_ready)
        return;
    double end = rd_clock_s() + 10.0;
    for (;;) {
        int events = poll_cm();
        int k = poll_recv();
        events += k > 0 ? k : 0;
        k = poll_send();
        events += k > 0 ? k : 0;
        int busy = 0;
        for (int i = 0; i < rc.size; i++) {
            rc_peer_t *p = &rc.peers[i];
            if (p->state == RC_READY && !p->bye_out) {
                uint32_t seq = p->post_seq;
                if (post_hdr_only(i, RD_RC_IMM_BYE, 1) == RD_OK) {
                    p->bye_out = 1;
                    p->bye_seq = seq;
                    events++;
                }
            }
            busy |= bye_pending(p);
        }
        if (!busy || rd_clock_s() > end)
            return;
        if (events == 0)
            sched_yield();
    }
}

/* In MPI_Finalize, after the closing barrier succeeded: a message to a peer
 * that was never delivered (its connection failed after the send returned,
 * e.g. this rank's last barrier message) leaves that peer waiting for it
 * forever, in its barrier or a receive; the job ends here with the reason. */
static void check_lost(void)
{
    for (int i = 0; i < rc.size; i++) {
        if (!rc.peers[i].msg_lost)
            continue;
        char msg[256];
        snprintf(msg, sizeof(msg), "rdmpi: rank %d: MPI_Finalize: messages to rank %d were not "
                 "delivered (the RC connection failed); ending the job so that rank %d does not "
                 "wait for them", rc.rank, i, i);
        rd_boot_abort(1, msg);
    }
}

static void rc_finalize(void)
{
    if (!rc.dev) {
        memset(&rc, 0, sizeof(rc));
        return;
    }
    rc.finalizing = 1;
    goodbye();
    check_lost();
    for (int i = 0; rc.peers && i < rc.size; i++) {
        rc_peer_t *p = &rc.peers[i];
        if (p->qp)
            ibv_destroy_qp(p->qp);
        if (p->ah)
            ibv_destroy_ah(p->ah);
        while (!rd_list_empty(&p->ops)) {
            rc_op_t *op = rd_list_entry(p->ops.next, rc_op_t, link);
            rd_list_remove(&op->link);
            if (op->mr)
                rd_vb_mr_release(rc.dev, op->mr);
            free(op);
        }
        while (!rd_list_empty(&p->flushes)) {
            rc_fwait_t *w = rd_list_entry(p->flushes.next, rc_fwait_t, link);
            rd_list_remove(&w->link);
            if (--w->f->n == 0)
                free(w->f);
            free(w);
        }
        if (p->pend) {
            for (uint32_t s = p->done_seq; s != p->post_seq; s++)
                if (p->pend[s % (uint32_t)rc.sq_depth].mr)
                    rd_vb_mr_release(rc.dev, p->pend[s % (uint32_t)rc.sq_depth].mr);
            free(p->pend);
        }
        if (p->ring_mr)
            ibv_dereg_mr(p->ring_mr);
        free(p->ring);
    }
    while (!rd_list_empty(&rc.expos)) {
        rc_mem_t *x = rd_list_entry(rc.expos.next, rc_mem_t, link);
        rd_list_remove(&x->link);
        rd_vb_mr_release(rc.dev, x->mr);
        free(x);
    }
    if (rc.amr)
        ibv_dereg_mr(rc.amr);
    free(rc.abuf);
    if (rc.srq)
        ibv_destroy_srq(rc.srq);
    for (rc_chunk_t *c = rc.chunks, *n; c; c = n) {
        n = c->next;
        ibv_dereg_mr(c->mr);
        free(c->mem);
        free(c);
    }
    if (rc.smr)
        ibv_dereg_mr(rc.smr);
    if (rc.ctl_mr)
        ibv_dereg_mr(rc.ctl_mr);
    free(rc.ctl);
    free(rc.rings);
    free(rc.smem);
    free(rc.sfree);
    if (rc.scq)
        ibv_destroy_cq(rc.scq);
    if (rc.rcq)
        ibv_destroy_cq(rc.rcq);
    if (rc.cm_qp)
        ibv_destroy_qp(rc.cm_qp);
    if (rc.cm_cq)
        ibv_destroy_cq(rc.cm_cq);
    if (rc.cm_mr)
        ibv_dereg_mr(rc.cm_mr);
    free(rc.cm_mem);
    free(rc.peers);
    free(rc.due);
    free(rc.qtab_qpn);
    free(rc.qtab_peer);
    rd_vb_dev_put(rc.dev);
    memset(&rc, 0, sizeof(rc));
    rdma_off();
}

/* Nothing but messages until init has a device. */
static void rdma_off(void)
{
    rd_rc_transport.rdma.ops = 0;
    rd_rc_transport.rdma.len_max = 0;
    rd_rc_transport.fail.reports = 0;
    rd_rc_transport.mem_reg = NULL;
    rd_rc_transport.mem_dereg = NULL;
    rd_rc_transport.get = NULL;
    rd_rc_transport.put = NULL;
    rd_rc_transport.flush = NULL;
    rd_rc_transport.fetch_add = NULL;
    rd_rc_transport.cswap = NULL;
}

static int lookup_addr(rc_peer_t *p, int peer)
{
    if (!p->addr_known) {
        int ok = rd_vb_addr_lookup(peer, RC_CM_KEY, &p->addr) == RD_OK &&
                 rd_vb_addr_compatible(rc.dev, &p->addr);
        p->addr_known = ok ? 1 : 2;
    }
    return p->addr_known == 1;
}

static int rc_reachable(int peer)
{
    if (!rc.dev || peer < 0 || peer >= rc.size || peer == rc.rank)
        return 0;
    return lookup_addr(&rc.peers[peer], peer);
}

/* ---- connection manager ---- */

static void cm_send(int peer, int type)
{
    rc_peer_t *p = &rc.peers[peer];
    if (rc.cm_busy >= RD_RC_CM_SLOTS)
        return;   /* all CM buffers in flight: the REQ timer or the peer's retry covers it */
    if (!p->ah && !(p->ah = rd_vb_ah_create(rc.dev, &p->addr)))
        return;
    unsigned slot = rc.cm_next++ % RD_RC_CM_SLOTS;
    char *buf = rc.cm_mem + (size_t)(RD_RC_CM_RECVS + slot) * 128;
    rd_rc_cm_msg_t m = {
        .type = (uint8_t)type,
        .version = RD_RC_VERSION,
        .src = rc.rank,
        .dst = peer,
        .qpn = p->qp->qp_num,
        .psn = p->my_psn,
        .credits = (uint16_t)rc.credits,
        .msg_max64 = (uint16_t)(rd_rc_transport.msg.eager_max / 64),
    };
    memcpy(buf, &m, sizeof(m));
    struct ibv_sge sge = { (uintptr_t)buf, sizeof(m), rc.cm_mr->lkey };
    struct ibv_send_wr wr = {
        .wr_id = RD_RC_CM_RECVS + slot,
        .sg_list = &sge,
        .num_sge = 1,
        .opcode = IBV_WR_SEND,
        .send_flags = IBV_SEND_SIGNALED,
        .wr.ud = { .ah = p->ah, .remote_qpn = p->addr.qpn, .remote_qkey = RD_RC_QKEY },
    }, *bad;
    if (ibv_post_send(rc.cm_qp, &wr, &bad) == 0)
        rc.cm_busy++;
}

/* Creates the RC QP of a pair and posts the peer's receive buffers. */
static int create_qp(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    int err;
    if (!rc.data_ready && (err = data_setup()) != RD_OK)
        return err;
    p->pend = calloc((size_t)rc.sq_depth, sizeof(*p->pend));
    if (!p->pend)
        return RD_ENOMEM;
    struct ibv_qp_init_attr a = {
        .send_cq = rc.scq,
        .recv_cq = rc.rcq,
        .srq = rc.srq,
        .cap = { .max_send_wr = (uint32_t)rc.sq_depth, .max_send_sge = 4, .max_recv_sge = 1 },
        .qp_type = IBV_QPT_RC,
    };
    p->qp = rd_vb_qp_create(rc.dev, &a, rc.max_inline);
    if (!p->qp)
        return RD_ESYS;
    if (a.cap.max_inline_data < rc.max_inline || rc.max_inline == 0)
        rc.max_inline = a.cap.max_inline_data;
    if ((err = add_rx_chunk()) != RD_OK)
        return err;
    qtab_put(p->qp->qp_num, peer);
    p->my_psn = (uint32_t)lrand48() & 0xffffff;
    return RD_OK;
}

static void fail_peer(int peer, int status);
static void rdma_retire(rc_peer_t *p, int status, rd_tp_done_fn done, void *ctx,
                        uint64_t *result, int aslot);

static void start_connect(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    if (!lookup_addr(p, peer) || create_qp(peer) != RD_OK) {
        fail_peer(peer, RD_EPEER);
        return;
    }
    p->state = RC_CONNECTING;
    double t = rd_clock_s();
    p->deadline = t + rc.connect_timeout;
    p->backoff_ms = RD_RC_CM_RETRY_MS;
    p->next_retry = t + p->backoff_ms * 1e-3;
    rd_list_push_back(&rc.connecting, &p->conn_link);
    cm_send(peer, RD_RC_CM_REQ);
}

static int connect_qp(int peer, const rd_rc_cm_msg_t *m)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->qp_ready)
        return p->remote_qpn == m->qpn ? RD_OK : RD_EINVAL;
    if (m->msg_max64 != rd_rc_transport.msg.eager_max / 64)
        return RD_EINVAL;   /* RDMPI_RC_EAGER_MAX differs between the ranks */
    int err = rd_vb_rc_connect(rc.dev, p->qp, &p->addr, m->qpn, m->psn & 0xffffff,
                               p->my_psn, rc.rd_atom);
    if (err != RD_OK)
        return err;
    p->qp_ready = 1;
    p->remote_qpn = m->qpn;
    p->tx_credits = m->credits;
    return RD_OK;
}

static void issue_ops(int peer);

static void set_ready(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->state == RC_CONNECTING)
        rd_list_remove(&p->conn_link);
    p->state = RC_READY;
    issue_ops(peer);
}

static void on_cm(const rd_rc_cm_msg_t *m)
{
    if (m->version != RD_RC_VERSION || m->dst != rc.rank || m->src < 0 ||
        m->src >= rc.size || m->src == rc.rank)
        return;
    int peer = m->src;
    rc_peer_t *p = &rc.peers[peer];
    if (p->state == RC_FAILED)
        return;
    if (m->type == RD_RC_CM_REQ) {
        if (p->state == RC_IDLE && rc.finalizing)
            return;   /* no new connections in finalize (goodbye would wait for it) */
        if (p->state == RC_IDLE) {
            if (!lookup_addr(p, peer) || create_qp(peer) != RD_OK) {
                fail_peer(peer, RD_EPEER);
                return;
            }
            p->state = RC_WAIT_RTU;
        }
        if (connect_qp(peer, m) != RD_OK) {
            fail_peer(peer, RD_EPEER);
            return;
        }
        cm_send(peer, RD_RC_CM_REP);
    } else if (m->type == RD_RC_CM_REP && p->state == RC_CONNECTING) {
        if (connect_qp(peer, m) != RD_OK) {
            fail_peer(peer, RD_EPEER);
            return;
        }
        set_ready(peer);
        post_hdr_only(peer, RD_RC_IMM_RTU, 0);
    }
}

static int poll_cm(void)
{
    struct ibv_wc wc[8];
    int n = ibv_poll_cq(rc.cm_cq, 8, wc), events = 0;
    for (int i = 0; i < n; i++) {
        if (wc[i].wr_id >= RD_RC_CM_RECVS) {
            rc.cm_busy--;
            continue;
        }
        if (wc[i].status == IBV_WC_SUCCESS &&
            wc[i].byte_len >= RD_RC_UD_GRH + sizeof(rd_rc_cm_msg_t)) {
            rd_rc_cm_msg_t m;
            memcpy(&m, rc.cm_mem + wc[i].wr_id * 128 + RD_RC_UD_GRH, sizeof(m));
            on_cm(&m);
            events++;
        }
        cm_post_recv((unsigned)wc[i].wr_id);
    }
    return events;
}

static void cm_timers(void)
{
    double t = rd_clock_s();
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &rc.connecting) {
        rc_peer_t *p = rd_list_entry(pos, rc_peer_t, conn_link);
        int peer = (int)(p - rc.peers);
        if (t >= p->deadline) {
            fail_peer(peer, RD_EPEER);
        } else if (t >= p->next_retry) {
            cm_send(peer, RD_RC_CM_REQ);
            if (p->backoff_ms < 1000)
                p->backoff_ms *= 2;
            p->next_retry = t + p->backoff_ms * 1e-3;
        }
    }
}

/* The peer cannot be reached (its connection timed out or its QP went to
 * the error state): queued operations end with status, and p2p hears of it
 * at the end of this progress pass (report_failures), so that receives
 * from it and the operations that need it fail instead of waiting. */
static void fail_peer(int peer, int status)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->state == RC_FAILED)
        return;
    if (p->state == RC_CONNECTING)
        rd_list_remove(&p->conn_link);
    p->state = RC_FAILED;
    if (!rc.finalizing) {
        p->fail_report = 1;
        rc.nfail_report++;
    }
    while (!rd_list_empty(&p->ops)) {
        rc_op_t *op = rd_list_entry(p->ops.next, rc_op_t, link);
        rd_list_remove(&op->link);
        if (op->mr)
            rd_vb_mr_release(rc.dev, op->mr);
        rd_tp_done_fn done = op->done;
        void *ctx = op->ctx;
        free(op);
        rdma_retire(p, status, done, ctx, NULL, -1);
    }
}

/* ---- sending ---- */

static inline unsigned take_credits(rc_peer_t *p)
{
    unsigned c = (unsigned)p->rx_unreported;
    if (c > RD_RC_IMM_CREDITS_MAX)
        c = RD_RC_IMM_CREDITS_MAX;
    p->rx_unreported -= (int)c;
    return c;
}

/* Immediate of a send to p: credits, and the low bits of our ring position. */
static inline uint32_t make_imm(rc_peer_t *p, unsigned kind)
{
    uint32_t imm = rd_rc_imm(kind, take_credits(p));
    if (p->ring_rx == RING_ON) {
        imm = rd_rc_imm_ring(imm, p->ring_rcvd);
        p->ring_reported = p->ring_rcvd;
    }
    return imm;
}

/* The peer has consumed count messages of its ring for us (any source:
 * slot head, counter, immediate; they may come out of order, so only a
 * count that advances and that we have written counts). */
static inline void ring_freed_to(rc_peer_t *p, uint32_t count)
{
    if ((int32_t)(count - p->ring_freed) > 0 && (int32_t)(p->ring_written - count) >= 0)
        p->ring_freed = count;
}

/* Same from the low 8 bits in an immediate: the true count is at most
 * RD_RING_SLOTS_MAX behind what we wrote. */
static inline void ring_freed8(rc_peer_t *p, unsigned low)
{
    if (p->ring_tx)
        ring_freed_to(p, rd_rc_ring_count(p->ring_written, low));
}

/* Posts a chain of nwr WRs on peer's QP (one doorbell), recording each in
 * pend; wr[i].wr_id and send_flags are completed here. */
static int post_chain(int peer, struct ibv_send_wr *wr, const rc_pend_t *pe, int nwr)
{
    rc_peer_t *p = &rc.peers[peer];
    uint32_t depth = (uint32_t)rc.sq_depth;
    for (int i = 0; i < nwr; i++) {
        uint32_t seq = p->post_seq + (uint32_t)i;
        int sig = (wr[i].send_flags & IBV_SEND_SIGNALED) ||
                  p->unsignaled + 1 >= (uint32_t)rc.signal_every ||
                  (pe[i].slot >= 0 && rc.nsfree < rc.signal_every);
        if (sig) {
            wr[i].send_flags |= IBV_SEND_SIGNALED;
            p->unsignaled = 0;
            p->slots_held = 0;
        } else {
            p->unsignaled++;
            p->slots_held += pe[i].slot >= 0;
        }
        wr[i].wr_id = (uint64_t)(uint32_t)peer << 32 | seq;
        p->pend[seq % depth] = pe[i];
    }
    struct ibv_send_wr *bad;
    if (RC_UNLIKELY(ibv_post_send(p->qp, wr, &bad) != 0))
        return RD_EPEER;
    p->post_seq += (uint32_t)nwr;
    p->sq_used += (uint32_t)nwr;
    return RD_OK;
}

/* CREDIT, RTU, FLUSH or BYE: no bytes, no credit, one reserved WR. */
static int post_hdr_only(int peer, unsigned kind, int signal)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->sq_used >= (uint32_t)rc.sq_depth)
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
static int post_ctrl(int peer, unsigned kind, const rd_rc_ring_msg_t *m)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->sq_used + 2 > (uint32_t)rc.sq_depth)
        return RD_EAGAIN;
    struct ibv_sge sge = { (uintptr_t)m, sizeof(*m), 0 };
    struct ibv_send_wr wr = { .opcode = IBV_WR_SEND_WITH_IMM, .sg_list = &sge, .num_sge = 1 };
    rc_pend_t pe = { .slot = -1 };
    if (sizeof(*m) <= rc.max_inline) {
        wr.send_flags = IBV_SEND_INLINE;
    } else {
        if (rc.nsfree == 0)
            return RD_EAGAIN;
        pe.slot = rc.sfree[--rc.nsfree];
        char *b = rc.smem + (size_t)pe.slot * rc.buf_bytes;
        memcpy(b, m, sizeof(*m));
        sge = (struct ibv_sge){ (uintptr_t)b, sizeof(*m), rc.smr->lkey };
    }
    wr.imm_data = htonl(make_imm(p, kind));
    int err = post_chain(peer, &wr, &pe, 1);
    if (err != RD_OK && pe.slot >= 0)
        rc.sfree[rc.nsfree++] = pe.slot;
    return err;
}

/* No free send buffer: ask for a completion on every QP holding buffers in
 * unsignalled WRs, so they come back. */
static void reclaim_slots(void)
{
    for (int i = 0; i < rc.size; i++) {
        rc_peer_t *p = &rc.peers[i];
        if (p->slots_held && !p->flush_out && p->state == RC_READY &&
            post_hdr_only(i, RD_RC_IMM_FLUSH, 1) == RD_OK)
            p->flush_out = 1;
    }
}

/* RDMA-Write eager: one RDMA Write of head, header, payload and tail byte
 * into the next slot of the peer's ring. RD_EAGAIN when every slot is still
 * unconsumed or the send queue is full. */
static int ring_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->ring_written - p->ring_freed >= p->tx_nslots) {
        ring_freed_to(p, __atomic_load_n(&rc.ctl[2 * peer], __ATOMIC_ACQUIRE));
        if (p->ring_written - p->ring_freed >= p->tx_nslots)
            return RD_EAGAIN;
    }
    if (p->sq_used + 2 > (uint32_t)rc.sq_depth)
        return RD_EAGAIN;
    uint32_t w = p->ring_written;
    uint8_t seq = rd_rc_slot_seq(w, p->tx_nslots);
    rd_rc_slot_t h = {
        .len = (uint32_t)len,
        .hdrlen = (uint8_t)hdrlen,
        .seq = seq,
        .srq_sent = p->srq_sent,
        .version = RD_RC_VERSION,
    };
    size_t total = sizeof(h) + hdrlen + len + 1;
    struct ibv_sge sge[4];
    struct ibv_send_wr wr = {
        .opcode = IBV_WR_RDMA_WRITE,
        .sg_list = sge,
        .wr.rdma = { .remote_addr = p->tx_raddr + (uint64_t)(w % p->tx_nslots) * p->tx_slot_bytes,
                     .rkey = p->tx_rkey },
    };
    rc_pend_t pe = { .slot = -1, .msg = 1 };
    char *b = NULL;
    if (total > rc.max_inline) {
        if (RC_UNLIKELY(rc.nsfree == 0)) {
            reclaim_slots();
            return RD_EAGAIN;
        }
        pe.slot = rc.sfree[--rc.nsfree];
        b = rc.smem + (size_t)pe.slot * rc.buf_bytes;
    }
    /* Credits and our own ring position ride in the head (after the checks
     * above: nothing may be taken for a message that is not sent). */
    h.credits = (uint16_t)take_credits(p);
    if (p->ring_rx == RING_ON) {
        h.ack = p->ring_rcvd;
        h.flags = RD_RING_F_ACK;
        p->ring_reported = p->ring_rcvd;
    }
    if (!b) {
        /* Inline: the CPU copies head, header, payload and tail in order. */
        int n = 0;
        sge[n++] = (struct ibv_sge){ (uintptr_t)&h, sizeof(h), 0 };
        if (hdrlen)
            sge[n++] = (struct ibv_sge){ (uintptr_t)hdr, (uint32_t)hdrlen, 0 };
        if (len)
            sge[n++] = (struct ibv_sge){ (uintptr_t)payload, (uint32_t)len, 0 };
        sge[n++] = (struct ibv_sge){ (uintptr_t)&seq, 1, 0 };
        wr.num_sge = n;
        wr.send_flags = IBV_SEND_INLINE;
    } else {
        memcpy(b, &h, sizeof(h));
        memcpy(b + sizeof(h), hdr, hdrlen);
        if (len)
            memcpy(b + sizeof(h) + hdrlen, payload, len);
        b[total - 1] = (char)seq;
        sge[0] = (struct ibv_sge){ (uintptr_t)b, (uint32_t)total, rc.smr->lkey };
        wr.num_sge = 1;
    }
    int err = post_chain(peer, &wr, &pe, 1);
    if (RC_UNLIKELY(err != RD_OK)) {
        if (pe.slot >= 0)
            rc.sfree[rc.nsfree++] = pe.slot;
        return err;
    }
    p->ring_written++;
    return RD_OK;
}

/* RDMPI_RC_FAULT: peer's QP goes to the error state, as a broken link
 * would leave it; what follows is the ordinary failure path (the send being
 * posted and everything outstanding complete in error, fail_peer). */
static void inject_fault(int peer)
{
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
    if (ibv_modify_qp(rc.peers[peer].qp, &a, IBV_QP_STATE) != 0)
        fail_peer(peer, RD_EPEER);   /* not even that: fail it by hand */
}

static inline int send_msg(int peer, const void *hdr, size_t hdrlen, const void *payload,
                           size_t len)
{
    if (RC_UNLIKELY((unsigned)peer >= (unsigned)rc.size || !rc.dev || hdrlen > RD_TP_HDR_MAX ||
                    len > rd_rc_transport.msg.eager_max))
        return RD_EINVAL;
    rc_peer_t *p = &rc.peers[peer];
    if (RC_UNLIKELY(p->state != RC_READY)) {
        if (p->state == RC_IDLE)
            start_connect(peer);
        return p->state == RC_FAILED ? RD_EPEER : RD_EAGAIN;
    }
    if (p->ring_tx) {
        size_t rtotal = sizeof(rd_rc_slot_t) + hdrlen + len + 1;
        if (rtotal <= p->tx_slot_bytes && rtotal <= rc.buf_bytes) {
            int err = ring_send(peer, hdr, hdrlen, payload, len);
            if (err != RD_EAGAIN)
                return err;
            /* Ring full: send/recv may still have credits (the receiver
             * restores the order from ring_sent / srq_sent). */
        }
    }
    /* One WR stays free for CREDIT/FLUSH/BYE messages. */
    if (p->tx_credits <= 0 || p->sq_used + 2 > (uint32_t)rc.sq_depth)
        return RD_EAGAIN;

    rd_rc_prefix_t pre = { .hdrlen = (uint8_t)hdrlen, .version = RD_RC_VERSION,
                           .ring_sent = (uint16_t)p->ring_written };
    size_t total = sizeof(pre) + hdrlen + len;
    struct ibv_sge sge[3];
    struct ibv_send_wr wr = { .opcode = IBV_WR_SEND_WITH_IMM, .sg_list = sge };
    rc_pend_t pe = { .slot = -1, .msg = 1 };
    if (total <= rc.max_inline) {
        /* Inline: the CPU copies at post time, straight from the caller. */
        sge[0] = (struct ibv_sge){ (uintptr_t)&pre, sizeof(pre), 0 };
        sge[1] = (struct ibv_sge){ (uintptr_t)hdr, (uint32_t)hdrlen, 0 };
        sge[2] = (struct ibv_sge){ (uintptr_t)payload, (uint32_t)len, 0 };
        wr.num_sge = len ? 3 : 2;
        wr.send_flags = IBV_SEND_INLINE;
    } else {
        if (RC_UNLIKELY(rc.nsfree == 0)) {
            reclaim_slots();
            return RD_EAGAIN;
        }
        pe.slot = rc.sfree[--rc.nsfree];
        char *b = rc.smem + (size_t)pe.slot * rc.buf_bytes;
        memcpy(b, &pre, sizeof(pre));
        memcpy(b + sizeof(pre), hdr, hdrlen);
        if (len)
            memcpy(b + sizeof(pre) + hdrlen, payload, len);
        sge[0] = (struct ibv_sge){ (uintptr_t)b, (uint32_t)total, rc.smr->lkey };
        wr.num_sge = 1;
    }
    wr.imm_data = htonl(make_imm(p, RD_RC_IMM_MSG));
    int err = post_chain(peer, &wr, &pe, 1);
    if (RC_UNLIKELY(err != RD_OK)) {
        if (pe.slot >= 0)
            rc.sfree[rc.nsfree++] = pe.slot;
        return err;
    }
    p->tx_credits--;
    p->srq_sent++;
    return RD_OK;
}

/* rc_send on the rank RDMPI_RC_FAULT names: counts the messages sent to
 * each peer and breaks the QP before message fault_after + 1 goes out. */
static int fault_send(int peer, const void *hdr, size_t hdrlen, const void *payload,
                      size_t len)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->state == RC_READY && p->fault_msgs == (uint32_t)rc.fault_after)
        inject_fault(peer);
    int err = send_msg(peer, hdr, hdrlen, payload, len);
    if (err == RD_OK)
        p->fault_msgs++;
    return err;
}

static int rc_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    if (RC_UNLIKELY(rc.fault_after >= 0) && (unsigned)peer < (unsigned)rc.size)
        return fault_send(peer, hdr, hdrlen, payload, len);
    return send_msg(peer, hdr, hdrlen, payload, len);
}

/* ---- rendezvous ---- */

/* Posts queued get/put/atomic operations of peer that fit, as one send
 * list. Only the ones with a done of their own and the last of the list
 * are signalled: the completion of a later WR tells an earlier one is over
 * (a QP completes in order), so flush never waits on a silent WR. */
static void issue_ops(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->state != RC_READY || rd_list_empty(&p->ops))
        return;
    struct ibv_send_wr wr[16];
    struct ibv_sge sge[16];
    rc_pend_t pe[16];
    rc_op_t *taken[16];
    int n = 0, reads = p->reads;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &p->ops) {
        rc_op_t *op = rd_list_entry(pos, rc_op_t, link);
        int atomic = op->kind == RC_OP_FADD || op->kind == RC_OP_CSWAP;
        if (n == 16 || p->sq_used + (uint32_t)n + 2 > (uint32_t)rc.sq_depth)
            break;
        if (op->kind != RC_OP_WRITE && reads >= rc.rd_atom)
            break;   /* keep order: a read or atomic waits for a read slot */
        if (atomic && rc.nafree == 0)
            break;   /* every bounce slot in use: wait for a completion */
        reads += op->kind != RC_OP_WRITE;
        int aslot = atomic ? rc.afree[--rc.nafree] : -1;
        wr[n] = (struct ibv_send_wr){
            .next = NULL,
            .sg_list = &sge[n],
            .num_sge = 1,
            .send_flags = op->done ? IBV_SEND_SIGNALED : 0,
        };
        if (atomic) {
            sge[n] = (struct ibv_sge){ (uintptr_t)&rc.abuf[aslot], 8, rc.amr->lkey };
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
                rc.afree[rc.nafree++] = pe[i].aslot;
        fail_peer(peer, RD_EPEER);
        return;
    }
    p->reads = reads;
    for (int i = 0; i < n; i++) {
        rd_list_remove(&taken[i]->link);
        free(taken[i]);
    }
}

/* Ends flushes of p whose operations have all completed. */
static void flush_check(rc_peer_t *p)
{
    while (!rd_list_empty(&p->flushes)) {
        rc_fwait_t *w = rd_list_entry(p->flushes.next, rc_fwait_t, link);
        if ((int32_t)(p->rdma_done - w->target) < 0)
            return;
        rd_list_remove(&w->link);
        rc_flush_t *f = w->f;
        free(w);
        if (p->rdma_error != RD_OK && f->status == RD_OK)
            f->status = p->rdma_error;
        p->rdma_error = RD_OK;
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
static void rdma_retire(rc_peer_t *p, int status, rd_tp_done_fn done, void *ctx,
                        uint64_t *result, int aslot)
{
    if (aslot >= 0) {
        if (status == RD_OK)
            *result = rc.abuf[aslot];
        rc.afree[rc.nafree++] = aslot;
    }
    p->rdma_done++;
    if (done)
        done(ctx, status);
    else if (status != RD_OK && p->rdma_error == RD_OK)
        p->rdma_error = status;
    flush_check(p);
}

/* Checks the arguments of an operation on [raddr, raddr+len) of peer's
 * memory that key describes; returns RD_OK and the rkey, or the error. */
static int check_remote(int peer, uint64_t raddr, const void *key, size_t keylen, size_t len,
                        uint32_t *rkey)
{
    rd_rc_key_t k;
    if ((unsigned)peer >= (unsigned)rc.size || peer == rc.rank || !rc.dev ||
        keylen != sizeof(k) || !rc_reachable(peer))
        return RD_EINVAL;
    memcpy(&k, key, sizeof(k));
    if (raddr < k.addr || len > k.len || raddr - k.addr > k.len - len ||
        len > rc.dev->port_attr.max_msg_sz || len > UINT32_MAX)
        return RD_EINVAL;
    if (rc.peers[peer].state == RC_FAILED)
        return RD_EPEER;
    *rkey = k.rkey;
    return RD_OK;
}

/* Queues op for peer (connecting first if needed) and posts what fits. */
static void queue_op(int peer, rc_op_t *op)
{
    rc_peer_t *p = &rc.peers[peer];
    p->rdma_issued++;
    rd_list_push_back(&p->ops, &op->link);
    if (p->state == RC_IDLE)
        start_connect(peer);
    else
        issue_ops(peer);
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
        if ((err = rd_vb_mr_acquire(rc.dev, local, len, &op->mr)) != RD_OK) {
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

static int rc_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                  const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    return rc_rdma(peer, 0, local, lmem, remote_addr, key, keylen, len, done, ctx);
}

static int rc_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
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

static int rc_fetch_add(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                        uint64_t add, uint64_t *result, rd_tp_done_fn done, void *ctx)
{
    return rc_atomic(peer, RC_OP_FADD, remote_addr, key, keylen, add, 0, result, done, ctx);
}

static int rc_cswap(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                    uint64_t compare, uint64_t swap, uint64_t *result, rd_tp_done_fn done,
                    void *ctx)
{
    return rc_atomic(peer, RC_OP_CSWAP, remote_addr, key, keylen, compare, swap, result, done,
                     ctx);
}

/* Waits for the completions of what was issued to each peer so far (RC
 * completes an RDMA operation once the target's device acknowledged it). */
static int rc_flush(int peer, rd_tp_done_fn done, void *ctx)
{
    if (!rc.dev || peer < -1 || peer >= rc.size || !done)
        return RD_EINVAL;
    rc_flush_t *f = malloc(sizeof(*f));
    if (!f)
        return RD_ENOMEM;
    *f = (rc_flush_t){ .n = 1, .status = RD_OK, .done = done, .ctx = ctx };
    int first = peer < 0 ? 0 : peer, last = peer < 0 ? rc.size - 1 : peer;
    for (int i = first; i <= last; i++) {
        rc_peer_t *p = &rc.peers[i];
        if (p->rdma_done == p->rdma_issued) {
            if (p->rdma_error != RD_OK && f->status == RD_OK)
                f->status = p->rdma_error;
            p->rdma_error = RD_OK;
            continue;
        }
        rc_fwait_t *w = malloc(sizeof(*w));
        if (!w) {
            f->status = RD_ENOMEM;
            continue;
        }
        w->target = p->rdma_issued;
        w->f = f;
        f->n++;
        rd_list_push_back(&p->flushes, &w->link);
    }
    if (--f->n == 0) {
        int status = f->status;
        free(f);
        done(ctx, status);
    }
    return RD_OK;
}

static int rc_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem)
{
    rd_rc_key_t k;
    _Static_assert(sizeof(k) <= RD_TP_KEY_MAX, "an rc key fits a transport key");
    if (!rc.dev || len == 0)
        return RD_EINVAL;
    rc_mem_t *x = malloc(sizeof(*x));
    if (!x)
        return RD_ENOMEM;
    int err = rd_vb_mr_acquire(rc.dev, buf, len, &x->mr);
    if (err != RD_OK) {
        free(x);
        return err;
    }
    rd_list_push_front(&rc.expos, &x->link);
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
static void rc_mem_dereg(rd_tp_mem_t *mem)
{
    rc_mem_t *x = (rc_mem_t *)mem;
    rd_list_remove(&x->link);
    rd_vb_mr_release(rc.dev, x->mr);
    free(x);
}

/* ---- progress ---- */

static void flush_reposts(void)
{
    if (rc.nrepost == 0)
        return;
    for (int i = 0; i < rc.nrepost; i++) {
        rc.rwr[i].next = i + 1 < rc.nrepost ? &rc.rwr[i + 1] : NULL;
        rc_rxbuf_t *b = rc.rbuf[i];
        if (b->credit && b->peer >= 0) {
            rc_peer_t *p = &rc.peers[b->peer];
            p->rx_unreported++;
            if (!p->credit_due && p->rx_unreported >= rc.credits / 2) {
                p->credit_due = 1;
                rc.due[rc.ndue++] = b->peer;
            }
        }
    }
    struct ibv_recv_wr *bad;
    if (ibv_post_srq_recv(rc.srq, rc.rwr, &bad) != 0)
        rc.srq_posted -= rc.nrepost;   /* cannot happen with a sane SRQ size */
    rc.nrepost = 0;
}

static void repost(rc_rxbuf_t *b, int peer, int credit)
{
    if (rc.nrepost == RD_RC_POLL)
        flush_reposts();   /* held buffers released by ring progress */
    b->peer = peer;
    b->credit = (uint8_t)credit;
    int i = rc.nrepost++;
    rc.rsge[i] = (struct ibv_sge){ (uintptr_t)b->data, (uint32_t)rc.buf_bytes, b->lkey };
    rc.rwr[i] = (struct ibv_recv_wr){ .wr_id = (uintptr_t)b, .sg_list = &rc.rsge[i],
                                      .num_sge = 1 };
    rc.rbuf[i] = b;
}

/* ---- RDMA-Write eager: the receiving side ---- */

/* Offers peer a ring once it has sent us enough messages. On any failure
 * (limit, memory, registration) the peer just stays on send/recv. */
static void ring_offer(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    if (!rc.ring_on || rc.nrings >= rc.ring_max_peers) {
        p->ring_rx = RING_OFF;
        return;
    }
    if (p->state != RC_READY)
        return;   /* retried at the next message */
    size_t bytes = (size_t)rc.ring_nslots * rc.ring_slot_bytes;
    char *mem;
    if (posix_memalign((void **)&mem, 4096, bytes) != 0) {
        p->ring_rx = RING_OFF;
        return;
    }
    memset(mem, 0, bytes);
    struct ibv_mr *mr = ibv_reg_mr(rc.dev->pd, mem, bytes,
                                   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!mr) {
        free(mem);
        p->ring_rx = RING_OFF;
        return;
    }
    rd_rc_ring_msg_t m = {
        .addr = (uint64_t)(uintptr_t)mem,
        .rkey = mr->rkey,
        .nslots = (uint16_t)rc.ring_nslots,
        .slot_bytes = rc.ring_slot_bytes,
    };
    if (post_ctrl(peer, RD_RC_IMM_RING, &m) != RD_OK) {
        ibv_dereg_mr(mr);
        free(mem);
        return;   /* send queue full: retried at the next message */
    }
    p->ring = mem;
    p->ring_mr = mr;
    p->ring_rx = RING_ON;
    p->ring_rcvd = p->ring_reported = 0;
    rc.rings[rc.nrings++] = peer;
}

/* A send/recv message whose predecessors have all been delivered. */
static void deliver_srq(int peer, rc_rxbuf_t *b)
{
    rc_peer_t *p = &rc.peers[peer];
    rd_rc_prefix_t pre;
    memcpy(&pre, b->data, sizeof(pre));
    size_t off = sizeof(pre) + pre.hdrlen;
    p->srq_rcvd++;
    rc.recv(peer, b->data + sizeof(pre), pre.hdrlen, b->data + off, b->len - off);
    repost(b, peer, 1);
    if (p->ring_rx == RING_NONE && ++p->rx_msgs >= (uint32_t)rc.ring_threshold)
        ring_offer(peer);
}

/* Takes the next message of our ring for peer if it has fully arrived and
 * every send/recv message sent before it has been delivered. Returns 1 if
 * one was delivered, 0 if not, or RD_EINTERN on a malformed slot.
 *
 * The slot is complete when its head and its tail byte (whose place the
 * head's lengths give) both hold this lap's seq: the sender's one RDMA
 * Write places the tail last (see doc/verbs.md for the devices this
 * assumes). Every byte a message used is zeroed after it, so a tail place
 * never holds a stale seq. */
static int ring_take(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    uint32_t r = p->ring_rcvd;
    char *slot = p->ring + (size_t)(r % (uint32_t)rc.ring_nslots) * rc.ring_slot_bytes;
    uint8_t seq = rd_rc_slot_seq(r, (unsigned)rc.ring_nslots);
    if (__atomic_load_n((uint8_t *)(slot + offsetof(rd_rc_slot_t, seq)), __ATOMIC_ACQUIRE) != seq)
        return 0;
    rd_rc_slot_t h;
    memcpy(&h, slot, sizeof(h));
    if (RC_UNLIKELY(h.version != RD_RC_VERSION || h.hdrlen > RD_TP_HDR_MAX ||
                    h.len > rc.ring_slot_bytes - sizeof(h) - 1 - h.hdrlen))
        return RD_EINTERN;
    size_t tail = sizeof(h) + h.hdrlen + h.len;
    if (__atomic_load_n((uint8_t *)(slot + tail), __ATOMIC_ACQUIRE) != seq)
        return 0;
    if (h.srq_sent != p->srq_rcvd)
        return 0;   /* a send/recv message sent before it is not delivered yet */
    p->tx_credits += h.credits;
    if (h.flags & RD_RING_F_ACK)
        ring_freed_to(p, h.ack);
    rc.recv(peer, slot + sizeof(h), h.hdrlen, slot + sizeof(h) + h.hdrlen, h.len);
    /* Only now may the sender learn that the slot is free. */
    memset(slot, 0, tail + 1);
    p->ring_rcvd = r + 1;
    return 1;
}

/* Delivers what can be delivered from peer, in the order it was sent:
 * held send/recv messages whose ring predecessors are in, ring messages
 * whose send/recv predecessors are in. Returns the count or a status. */
static int peer_advance(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    int n = 0;
    for (;;) {
        rc_rxbuf_t *b = p->held;
        if (b) {
            rd_rc_prefix_t pre;
            memcpy(&pre, b->data, sizeof(pre));
            if (pre.ring_sent == (uint16_t)p->ring_rcvd) {
                p->held = b->next;
                if (!p->held)
                    p->held_tail = NULL;
                deliver_srq(peer, b);
                n++;
                continue;
            }
            if (RC_UNLIKELY(p->ring_rx != RING_ON))
                return RD_EINTERN;   /* waits for ring messages we never offered room for */
        }
        if (p->ring_rx != RING_ON)
            return n;
        int k = ring_take(peer);
        if (k <= 0)
            return k < 0 ? k : n;
        n++;
    }
}

/* The peer offers its ring (we write into it from now on) and wants our
 * counter address in return. */
static int on_ring(int peer, const char *data, uint32_t len)
{
    rc_peer_t *p = &rc.peers[peer];
    rd_rc_ring_msg_t m;
    if (len != sizeof(m) || p->ring_tx)
        return RD_EINTERN;
    memcpy(&m, data, sizeof(m));
    if (m.nslots < 2 || m.nslots > RD_RING_SLOTS_MAX || m.slot_bytes % 64 ||
        m.slot_bytes < sizeof(rd_rc_slot_t) + RD_TP_HDR_MAX + 1)
        return RD_EINTERN;
    p->tx_raddr = m.addr;
    p->tx_rkey = m.rkey;
    p->tx_nslots = m.nslots;
    p->tx_slot_bytes = m.slot_bytes;
    p->ring_written = p->ring_freed = 0;
    rc.ctl[2 * peer] = 0;
    p->ring_tx = 1;
    p->ring_ack_owed = 1;   /* sent at the end of the pass */
    if (!p->credit_due) {
        p->credit_due = 1;
        rc.due[rc.ndue++] = peer;
    }
    return RD_OK;
}

static int on_ring_ack(int peer, const char *data, uint32_t len)
{
    rc_peer_t *p = &rc.peers[peer];
    rd_rc_ring_msg_t m;
    if (len != sizeof(m) || p->ring_rx != RING_ON)
        return RD_EINTERN;
    memcpy(&m, data, sizeof(m));
    p->ack_raddr = m.addr;
    p->ack_rkey = m.rkey;
    p->ack_known = 1;
    return RD_OK;
}

/* Nothing carried our ring position back and half the ring is owed: write
 * it into the sender's counter (no receive buffer, no completion there). */
static void ring_ack_write(int peer)
{
    rc_peer_t *p = &rc.peers[peer];
    if (p->sq_used + 2 > (uint32_t)rc.sq_depth)
        return;   /* retried next pass */
    uint32_t *src = &rc.ctl[2 * peer + 1];
    *src = p->ring_rcvd;
    struct ibv_sge sge = { (uintptr_t)src, sizeof(*src), rc.ctl_mr->lkey };
    struct ibv_send_wr wr = {
        .opcode = IBV_WR_RDMA_WRITE,
        .sg_list = &sge,
        .num_sge = 1,
        .send_flags = rc.max_inline >= sizeof(*src) ? IBV_SEND_INLINE : 0,
        .wr.rdma = { .remote_addr = p->ack_raddr, .rkey = p->ack_rkey },
    };
    rc_pend_t pe = { .slot = -1 };
    if (post_chain(peer, &wr, &pe, 1) == RD_OK)
        p->ring_reported = p->ring_rcvd;
}

static int poll_rings(void)
{
    int events = 0, status = 0;
    for (int i = 0; i < rc.nrings; i++) {
        int peer = rc.rings[i];
        rc_peer_t *p = &rc.peers[peer];
        int k = peer_advance(peer);
        if (RC_UNLIKELY(k < 0))
            status = k;
        else
            events += k;
        if (p->ack_known && p->state == RC_READY &&
            p->ring_rcvd - p->ring_reported >= (uint32_t)rc.ring_nslots / 2)
            ring_ack_write(peer);
    }
    flush_reposts();
    return status ? status : events;
}

/* ---- receiving over send/recv ---- */

static int poll_recv(void)
{
    struct ibv_wc wc[RD_RC_POLL];
    int n = ibv_poll_cq(rc.rcq, RD_RC_POLL, wc), status = 0;
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
        rc_peer_t *p = &rc.peers[peer];
        uint32_t imm = ntohl(wc[i].imm_data);
        p->tx_credits += (int)rd_rc_imm_credits(imm);
        ring_freed8(p, rd_rc_imm_ring_ack(imm));
        if (p->state == RC_WAIT_RTU)
            set_ready(peer);   /* anything on the QP proves the peer is in RTS */
        unsigned kind = rd_rc_imm_kind(imm);
        if (RC_UNLIKELY(kind == RD_RC_IMM_BYE || rc.finalizing)) {
            /* BYE: the peer is in finalize and sends nothing more. In our
             * finalize (goodbye), anything else is the finished job's and
             * goes nowhere (p2p is gone or going; its buffer carries no
             * credit back: we send nothing but BYE now). */
            if (kind == RD_RC_IMM_BYE)
                p->bye_in = 1;
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
            if (!p->held && pre.ring_sent == (uint16_t)p->ring_rcvd) {
                deliver_srq(peer, b);
                continue;
            }
            /* Ring messages sent before it are not all taken yet: it
             * waits in order behind them (the buffer is not reposted, so
             * its credit is not returned meanwhile). */
            b->next = NULL;
            if (p->held_tail)
                p->held_tail->next = b;
            else
                p->held = b;
            p->held_tail = b;
            int k = peer_advance(peer);
            if (k < 0)
                status = k;
            continue;
        }
        if (kind == RD_RC_IMM_RING || kind == RD_RC_IMM_RING_ACK) {
            int err = kind == RD_RC_IMM_RING ? on_ring(peer, b->data, wc[i].byte_len)
                                             : on_ring_ack(peer, b->data, wc[i].byte_len);
            if (err != RD_OK)
                status = err;
        }
        repost(b, peer, 0);
    }
    flush_reposts();
    return status ? status : n;
}

static void complete_sends(rc_peer_t *p, uint32_t upto, int status)
{
    uint32_t depth = (uint32_t)rc.sq_depth;
    while ((int32_t)(upto - p->done_seq) >= 0 && p->done_seq != p->post_seq) {
        rc_pend_t *e = &p->pend[p->done_seq % depth];
        if (e->slot >= 0)
            rc.sfree[rc.nsfree++] = e->slot;
        if (e->mr)
            rd_vb_mr_release(rc.dev, e->mr);
        p->reads -= e->read;
        p->done_seq++;
        p->sq_used--;
        rd_tp_done_fn done = e->done;
        void *ctx = e->ctx;
        int rdma = e->rdma, aslot = e->aslot;
        uint64_t *result = e->result;
        *e = (rc_pend_t){ .slot = -1, .aslot = -1 };
        if (rdma)
            rdma_retire(p, status, done, ctx, result, aslot);
        else if (done)
            done(ctx, status);
    }
}

static int poll_send(void)
{
    struct ibv_wc wc[RD_RC_POLL];
    int n = ibv_poll_cq(rc.scq, RD_RC_POLL, wc), status = 0;
    for (int i = 0; i < n; i++) {
        int peer = (int)(wc[i].wr_id >> 32);
        rc_peer_t *p = &rc.peers[peer];
        uint32_t seq = (uint32_t)wc[i].wr_id;
        int st = wc[i].status == IBV_WC_SUCCESS ? RD_OK : RD_EPEER;
        if (st != RD_OK) {
            status = RD_EPEER;
            /* This WR failed (the ones before it completed, the ones after
             * it flush with their own completions): was it a message? */
            if ((int32_t)(seq - p->done_seq) >= 0 && (int32_t)(p->post_seq - seq) > 0 &&
                p->pend[seq % (uint32_t)rc.sq_depth].msg)
                p->msg_lost = 1;
            if (p->state != RC_FAILED)
                fail_peer(peer, RD_EPEER);
        }
        if (wc[i].opcode == IBV_WC_SEND && p->flush_out)
            p->flush_out = 0;
        complete_sends(p, seq, st);
        issue_ops(peer);
    }
    return status ? status : n;
}

/* End of a pass: peers still owed half their credits (nothing went their
 * way to carry them) get a CREDIT message. */
static void send_due_credits(void)
{
    int keep = 0;
    for (int i = 0; i < rc.ndue; i++) {
        int peer = rc.due[i];
        rc_peer_t *p = &rc.peers[peer];
        p->credit_due = 0;
        if (p->state == RC_FAILED)
            continue;
        int again = 0;
        if (p->ring_ack_owed) {
            rd_rc_ring_msg_t m = {
                .addr = (uint64_t)(uintptr_t)&rc.ctl[2 * peer],
                .rkey = rc.ctl_mr->rkey,
            };
            if (p->state == RC_READY && post_ctrl(peer, RD_RC_IMM_RING_ACK, &m) == RD_OK)
                p->ring_ack_owed = 0;
            else
                again = 1;
        }
        /* Credits may have been piggybacked meanwhile. */
        if (p->rx_unreported >= rc.credits / 2 &&
            (p->state != RC_READY || post_hdr_only(peer, RD_RC_IMM_CREDIT, 0) != RD_OK))
            again = 1;
        if (again) {
            p->credit_due = 1;
            rc.due[keep++] = peer;
        }
    }
    rc.ndue = keep;
}

/* Tells p2p about the peers that failed since the last pass (outside the
 * pass, so the upcall may post). Without the upcall the job ends here. */
static void report_failures(void)
{
    for (int i = 0; i < rc.size && rc.nfail_report; i++) {
        if (!rc.peers[i].fail_report)
            continue;
        rc.peers[i].fail_report = 0;
        rc.nfail_report--;
        if (!rc.peer_failed) {
            char msg[256];
            snprintf(msg, sizeof(msg), "rdmpi: rank %d: the RC connection to rank %d failed "
                     "(retries exhausted or the peer is gone)", rc.rank, i);
            rd_boot_abort(1, msg);
        }
        rc.peer_failed(i, RD_EPEER);
    }
}

static int rc_progress(void)
{
    if (RC_UNLIKELY(!rc.dev))
        return 0;
    if (RC_UNLIKELY(rc.in_progress))
        return RD_EINTERN;
    rc.in_progress = 1;
    int events = poll_cm(), status = RD_OK;
    if (!rd_list_empty(&rc.connecting))
        cm_timers();
    if (rc.data_ready) {
        int k = poll_recv();
        if (k < 0)
            status = k;
        else
            events += k;
        if (rc.nrings) {
            k = poll_rings();
            if (k < 0)
                status = k;
            else
                events += k;
        }
        k = poll_send();
        if (k < 0)
            status = k;
        else
            events += k;
        if (rc.ndue)
            send_due_credits();
    }
    rc.in_progress = 0;
    if (RC_UNLIKELY(rc.nfail_report))
        report_failures();
    return status != RD_OK ? status : events;
}
