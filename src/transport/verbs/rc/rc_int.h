/*
 * RC transport, private: the state every rc_*.c file shares (one struct
 * per peer made of one sub-struct per concern, and the process-wide state
 * rd_rc) and the hot-path helpers more than one of them inlines. Nothing
 * outside src/transport/verbs/rc includes it; the wire formats are in
 * rc.h, the interface to p2p is rd_rc_transport (transport.h).
 *
 * Threading: one thread at a time calls in (p2p serializes); progress is not
 * re-entered from its upcalls, send/get/put may be called from them.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_INT_H
#define RD_TRANSPORT_VERBS_RC_RC_INT_H

#include "config.h"

#include <arpa/inet.h>
#include <stddef.h>
#include <stdint.h>

#include "transport/transport.h"
#include "transport/verbs/common/verbs.h"
#include "transport/verbs/rc/rc.h"
#include "util/list.h"
#include "util/status.h"

#define RC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RC_CM_KEY "rd.rc.cm"

/*
 * The connection of a pair, one state per peer (cm.state); every event of
 * the connection manager is a switch on it (on_req, on_rep):
 *
 *   IDLE --(send, get or put: REQ)--> CONNECTING --(REP: RTU)--> READY
 *   CONNECTING --(the peer's REQ crossed ours: REP)--> CROSSED --(REP)--> READY
 *   IDLE --(the peer's REQ: REP)--> WAIT_RTU --(anything on the QP)--> READY
 *   any --(connection timeout, a failed WR, a bad CM message)--> FAILED
 */
enum rc_conn {
    RC_IDLE,                     /* no QP yet */
    RC_CONNECTING,               /* REQ sent, waiting for REP; QP not connected */
    RC_CROSSED,                  /* REQ sent, the peer's REQ answered: QP in RTS, waiting for REP */
    RC_WAIT_RTU,                 /* QP in RTS, the peer's may not be in RTR yet */
    RC_READY,
    RC_FAILED,
};

/* Whether the peer's CM address has been looked up (cm.addr_state). */
enum rc_addr {
    RC_ADDR_UNKNOWN,             /* not looked up yet */
    RC_ADDR_OK,                  /* published and compatible with our device */
    RC_ADDR_NONE,                /* no device there, or not one we can reach */
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

enum rc_op_kind { RC_OP_READ, RC_OP_WRITE, RC_OP_WRITE_IMM, RC_OP_FADD, RC_OP_CSWAP };

/* A get, put or atomic; built on the stack and posted at once when it can
 * be, else queued: waiting for the connection, send-queue room, a read slot
 * (Reads and atomics), a bounce slot (atomics) or a receive credit (a put
 * with immediate). A queued inline put carries its own copy of the bytes
 * (data), since the caller may reuse its buffer once put returned. */
typedef struct rc_op {
    rd_list_t link;
    uint8_t kind;                /* enum rc_op_kind */
    uint8_t inl;                 /* a put posted inline: no lkey, no registration */
    rd_rcache_ent_t *mr;         /* taken from the cache for this op, or NULL (caller's handle) */
    uint32_t lkey;
    void *local;
    uint64_t raddr;
    uint32_t rkey;
    uint32_t len;
    uint32_t imm;                /* RC_OP_WRITE_IMM: the immediate, as the caller gave it */
    uint64_t add, swap;          /* atomics: fetch-add's add, or cswap's compare and swap */
    uint64_t *result;
    rd_tp_done_fn done;
    void *ctx;
    unsigned char data[];        /* a queued inline put's bytes */
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

/* Connection manager: the peer's address, the handshake and its timers. */
typedef struct rc_peer_cm {
    uint8_t state;               /* enum rc_conn */
    uint8_t addr_state;          /* enum rc_addr */
    uint8_t fail_report;         /* FAILED; p2p not told yet */
    rd_vb_addr_t addr;           /* the peer's CM address */
    struct ibv_ah *ah;
    uint32_t my_psn, remote_qpn;
    rd_list_t link;              /* in rd_rc.connecting (CONNECTING, CROSSED) */
    double next_retry, deadline;
    unsigned backoff_ms;
} rc_peer_cm_t;

/* Send queue of the pair's QP: posted WRs by sequence number and the
 * get/put operations waiting for room. */
typedef struct rc_peer_sq {
    struct ibv_qp *qp;
    uint32_t used;               /* WRs posted, completion not yet seen */
    uint32_t unsignaled;         /* WRs since the last signalled one */
    uint32_t slots_held;         /* send buffers held by unsignalled WRs */
    uint32_t post_seq, done_seq; /* next WR number; first not known complete */
    uint32_t sig_end;            /* one past the last signalled WR: those before it will complete */
    rc_pend_t *pend;             /* pend_mask + 1 entries, by seq & pend_mask */
    int reads;                   /* RDMA Reads outstanding */
    rd_list_t ops;               /* rc_op_t waiting */
    uint32_t rdma_issued;        /* gets, puts and atomics accepted */
    uint32_t rdma_done;          /* of those, completed */
    int rdma_error;              /* first error of one without done, for flush */
    rd_list_t flushes;           /* rc_fwait_t, by target */
    uint8_t flush_out;           /* a FLUSH is in flight */
    uint8_t mark_ok;             /* mark_raddr/mark_rkey are set */
    uint32_t mark_rkey;          /* a key the last get/put/atomic used, for a flush's */
    uint64_t mark_raddr;         /* zero-byte signalled Write behind unsignalled ones */
    uint8_t msg_lost;            /* a message to the peer completed in error */
} rc_peer_sq_t;

/* Send/recv flow control (rc.h): credits both ways. */
typedef struct rc_peer_credit {
    int tx;                      /* messages we may send */
    int unreported;              /* buffers reposted for the peer, not yet returned */
    uint8_t due;                 /* in rd_rc.due */
} rc_peer_credit_t;

/* RDMA-Write eager, writing side: the peer's ring for us. */
typedef struct rc_ring_tx {
    uint8_t on;                  /* the peer offered a ring */
    uint8_t ack_owed;            /* RING_ACK still to send */
    uint16_t srq_sent;           /* messages sent over send/recv (mod 2^16) */
    uint16_t nslots;
    uint32_t slot_bytes;
    uint32_t rkey;
    uint64_t raddr;
    uint32_t written;            /* messages written into the peer's ring */
    uint32_t freed;              /* of those, known consumed by the peer */
} rc_ring_tx_t;

/* RDMA-Write eager, receiving side: our ring for the peer. */
typedef struct rc_ring_rx {
    uint8_t state;               /* enum rc_ring */
    uint8_t ack_known;           /* the peer's counter (RING_ACK) is known */
    uint16_t srq_rcvd;           /* send/recv messages delivered (mod 2^16) */
    uint32_t msgs;               /* send/recv messages received, towards the threshold */
    uint32_t rcvd;               /* messages consumed from our ring */
    uint32_t reported;           /* rcvd as last told to the peer */
    uint32_t ack_rkey;
    uint64_t ack_raddr;
    char *mem;
    struct ibv_mr *mr;
    struct rc_rxbuf *held, *held_tail; /* send/recv messages waiting for earlier ring ones */
} rc_ring_rx_t;

/* The goodbye of rc.h, in finalize. */
typedef struct rc_peer_bye {
    uint8_t out;                 /* our BYE is posted (its WR: seq) */
    uint8_t in;                  /* the peer's BYE has arrived: it sends nothing more */
    uint32_t seq;
} rc_peer_bye_t;

typedef struct rc_peer {
    rc_peer_cm_t cm;
    rc_peer_sq_t sq;
    rc_peer_credit_t credit;
    rc_ring_tx_t ring_tx;
    rc_ring_rx_t ring_rx;
    rc_peer_bye_t bye;
#ifdef RD_FAULT_INJECTION
    uint32_t fault_msgs;         /* messages sent (RDMPI_RC_FAULT's count) */
#endif
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
/* Progress passes between polls of the connection queue while no
 * connection is being made (rc.c). */
#define RC_CM_POLL_EVERY 16

typedef struct rd_rc_state {
    rd_vb_dev_t *dev;
    rd_tp_recv_fn recv;
    rd_tp_failed_fn peer_failed; /* p2p's upcall (NULL: abort the job) */
    void (*notified)(int peer, uint32_t imm); /* a put_imm arrived (NULL: none expected) */
    int nfail_report;            /* peers with fail_report set */
    int finalizing;              /* errors now are the peers' own shutdown */
#ifdef RD_FAULT_INJECTION
    long fault_after;            /* RDMPI_RC_FAULT on this rank: n, else -1 */
#endif
    int rank, size;
    rc_peer_t *peers;
    /* tunables, settled at init */
    int credits, sq_depth, signal_every, nsend;
    /* The send queue's records: a power of two >= sq_depth, so that a
     * sequence number finds its record by a mask, across the wrap of the
     * 32-bit sequence too. */
    uint32_t pend_mask;
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
    /* loopback (rd_rc_loopback): peers[rank]'s QP sends to this one */
    struct ibv_qp *loop_qp;
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
    rd_list_t expos;             /* rc_mem_t handed out */
    uint64_t *abuf;              /* RC_ABUF_SLOTS atomic results */
    struct ibv_mr *amr;
    int afree[RC_ABUF_SLOTS], nafree;
    int abuf_wait;               /* an atomic waits for a bounce slot */
    int in_progress;
    unsigned cm_skip;            /* progress passes, for RC_CM_POLL_EVERY (rc.c) */
} rd_rc_state_t;

extern rd_rc_state_t rd_rc;

static inline unsigned take_credits(rc_peer_t *p)
{
    unsigned c = (unsigned)p->credit.unreported;
    if (c > RD_RC_IMM_CREDITS_MAX)
        c = RD_RC_IMM_CREDITS_MAX;
    p->credit.unreported -= (int)c;
    return c;
}

/* Immediate of a send to p: credits, and the low bits of our ring position. */
static inline uint32_t make_imm(rc_peer_t *p, unsigned kind)
{
    uint32_t imm = rd_rc_imm(kind, take_credits(p));
    if (p->ring_rx.state == RING_ON) {
        imm = rd_rc_imm_ring(imm, p->ring_rx.rcvd);
        p->ring_rx.reported = p->ring_rx.rcvd;
    }
    return imm;
}

/* Posts a chain of nwr WRs on peer's QP (one doorbell), recording each in
 * pend; wr[i].wr_id and send_flags are completed here. */
static inline int post_chain(int peer, struct ibv_send_wr *wr, const rc_pend_t *pe, int nwr)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    for (int i = 0; i < nwr; i++) {
        uint32_t seq = p->sq.post_seq + (uint32_t)i;
        int sig = (wr[i].send_flags & IBV_SEND_SIGNALED) ||
                  p->sq.unsignaled + 1 >= (uint32_t)rd_rc.signal_every ||
                  (pe[i].slot >= 0 && rd_rc.nsfree < rd_rc.signal_every);
        if (sig) {
            wr[i].send_flags |= IBV_SEND_SIGNALED;
            p->sq.unsignaled = 0;
            p->sq.slots_held = 0;
            p->sq.sig_end = seq + 1;
        } else {
            p->sq.unsignaled++;
            p->sq.slots_held += pe[i].slot >= 0;
        }
        wr[i].wr_id = (uint64_t)(uint32_t)peer << 32 | seq;
        p->sq.pend[seq & rd_rc.pend_mask] = pe[i];
    }
    struct ibv_send_wr *bad;
    if (RC_UNLIKELY(ibv_post_send(p->sq.qp, wr, &bad) != 0))
        return RD_EPEER;
    p->sq.post_seq += (uint32_t)nwr;
    p->sq.used += (uint32_t)nwr;
    return RD_OK;
}

#endif
