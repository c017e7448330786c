/*
 * RC transport: wire formats and tunables.
 *
 * Two channels per pair of ranks:
 *  - the connection manager: one UD QP per process (its QPN published
 *    through PMIx as "rd.rc.cm"), carrying REQ/REP messages that bring up
 *    the RC QP of a pair on first use (rd_rc_cm_msg_t);
 *  - the RC QP of the pair: SEND_WITH_IMM messages into the receiver's
 *    shared receive queue, and RDMA Read / Write for rendezvous.
 *
 * Connection (a = the side that needs the peer first, b = the other):
 *    a: create QP, REQ(qpn, psn, bufs) ------>  b: create QP, INIT->RTR->RTS
 *    a: INIT->RTR->RTS, READY  <------- REP(qpn, psn, bufs)    (b: WAIT_RTU)
 *    a: RTU (an RC header-only message) ----->  b: READY
 * A side in WAIT_RTU does not send: its peer may not be in RTR yet. a
 * retransmits REQ on a timer (UD is unreliable); b answers every REQ for the
 * QP it already connected with the same REP. If both sides send REQ at once,
 * each connects its own QP to the QPN in the other's REQ and answers REP:
 * one QP per side, paired with each other, whoever was first.
 *
 * Flow control: when a pair connects, each side posts credits + reserve
 * buffers to its SRQ for the peer and tells it `credits` in REQ/REP. A
 * message costs the sender one credit; the receiver returns credits for
 * buffers it has consumed and posted again in the immediate of every message
 * it sends to that peer, or in a header-only CREDIT message when it has
 * nothing to send and half the credits are due. CREDIT, RTU, FLUSH and BYE
 * messages need no credit: they land in the reserve (at most two CREDITs
 * can be in flight, since each returns at least half of all credits; one
 * RTU and one BYE per connection; one FLUSH at a time; with RING and
 * RING_ACK, 7 of the RD_RC_RESERVE buffers).
 *
 * Goodbye (in MPI_Finalize, version 3): each side posts a signalled BYE to
 * every connected peer and destroys its QP only once its own BYE has
 * completed (the peer's HCA acknowledged it, and with it every earlier send)
 * and the peer's BYE has arrived (the peer sends nothing after it):
 *    a: BYE (signalled) ---------------------->  b: holds a's BYE
 *    a: BYE completed   <------------- RC ack
 *    a: holds b's BYE   <----------------------  b: BYE (signalled)
 *    a: destroys its QP    RC ack ------------>  b: BYE completed, destroys
 * Neither side sends into a QP its peer has destroyed (only a lost final
 * ack makes the other side's BYE retry into it; a bound covers that).
 *
 * RDMA-Write eager (RDMPI_RDMA_EAGER): once a rank has received
 * RDMPI_RDMA_EAGER_THRESHOLD messages from a peer over send/recv, it
 * allocates a ring of slots for that peer and offers it (RING, below); the
 * peer answers RING_ACK with the address of the counter where this rank may
 * RDMA-write how many slots it has consumed. From then on the peer RDMA-writes
 * messages that fit a slot into the ring (rd_rc_slot_t); the others still go
 * by send/recv. Both paths carry how many messages went the other way before
 * (the slot's srq_sent, the prefix's ring_sent), so the receiver delivers in
 * the order the sender sent. Consumed slots go back in bits 16-23 of the
 * immediate, in the ack of a slot the other way, or by an RDMA Write of the
 * counter when half the ring is owed and nothing carried it.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_H
#define RD_TRANSPORT_VERBS_RC_RC_H

#include <stddef.h>
#include <stdint.h>

#define RD_RC_VERSION 3

/* Tunables (doc/tunables.md). */
#define RD_RC_EAGER_MAX_DEFAULT (8 * 1024)   /* RDMPI_RC_EAGER_MAX */
#define RD_RC_SPLIT_MIN (256 * 1024)         /* split rendezvous: RDMA Read + Write */
#define RD_RC_EAGER_MAX_LIMIT (1u << 20)
#define RD_RC_CREDITS_DEFAULT 32             /* RDMPI_RC_CREDITS: per peer */
#define RD_RC_SEND_BUFS_DEFAULT 256          /* RDMPI_RC_SEND_BUFS: registered copies */
#define RD_RC_SQ_DEPTH_DEFAULT 128           /* RDMPI_RC_SQ_DEPTH: send WRs per QP */
#define RD_RC_SIGNAL_DEFAULT 16              /* RDMPI_RC_SIGNAL_EVERY */
#define RD_RC_INLINE_DEFAULT 256             /* RDMPI_RC_INLINE: asked of the device */
#define RD_RC_CONNECT_TIMEOUT_DEFAULT 60     /* RDMPI_RC_CONNECT_TIMEOUT, seconds */
#define RD_RING_ENABLE_DEFAULT 1             /* RDMPI_RDMA_EAGER */
#define RD_RING_THRESHOLD_DEFAULT 16         /* RDMPI_RDMA_EAGER_THRESHOLD: messages */
#define RD_RING_SLOTS_DEFAULT 16             /* RDMPI_RDMA_EAGER_SLOTS: per ring */
#define RD_RING_SLOTS_MAX 64                 /* the immediate carries 8 bits of position */
#define RD_RING_SIZE_DEFAULT 4096            /* RDMPI_RDMA_EAGER_SIZE: payload per slot */
#define RD_RING_PEERS_DEFAULT 64             /* RDMPI_RDMA_EAGER_PEERS: rings per process */

/* Fixed parameters. */
#define RD_RC_RESERVE 8          /* receive buffers per peer beyond its credits */
#define RD_RC_QKEY 0x72644d31u   /* Q_Key of the connection-manager QPs */
#define RD_RC_CM_SLOTS 32        /* CM send buffers (also its send queue) */
#define RD_RC_CM_RECVS 64        /* CM receive buffers */
#define RD_RC_CM_RETRY_MS 50     /* first REQ retransmission, doubled up to 1 s */
#define RD_RC_UD_GRH 40          /* UD receives start with a 40-byte GRH */
#define RD_RC_POLL 32            /* completions taken per ibv_poll_cq */

/*
 * Connection-manager message (UD payload, 24 bytes, version RD_RC_VERSION):
 *
 *   0       1       2               4                               8
 *   +-------+-------+---------------+-------------------------------+
 *   | type  |version|   reserved    |          source rank          |
 *   +-------+-------+---------------+-------------------------------+
 *   8                               12                              16
 *   +-------------------------------+-------------------------------+
 *   |        destination rank       |     RC QPN of the source      |
 *   +-------------------------------+-------------------------------+
 *   16                              20                              24
 *   +-------------------------------+-------------------------------+
 *   |   first PSN the source sends  | credits | largest message     |
 *   +-------------------------------+---------+---------------------+
 *                                    (16 bits)  (16 bits, in 64 B units)
 */
enum {
    RD_RC_CM_REQ = 1,
    RD_RC_CM_REP = 2,
};
typedef struct __attribute__((packed)) rd_rc_cm_msg {
    uint8_t type;
    uint8_t version;
    uint16_t reserved;
    int32_t src;
    int32_t dst;
    uint32_t qpn;
    uint32_t psn;
    uint16_t credits;
    uint16_t msg_max64;          /* eager_max / 64: both sides must agree */
} rd_rc_cm_msg_t;

_Static_assert(sizeof(rd_rc_cm_msg_t) == 24, "CM message is 24 bytes");

/*
 * Two kinds of receive completion carry an immediate, told apart by the
 * completion's opcode, never by the immediate's bits:
 *
 *   sender's WR                    receiver's ibv_wc.opcode      immediate
 *   SEND_WITH_IMM (messages,       IBV_WC_RECV                   rc's own (below):
 *     CREDIT, RTU, FLUSH, ...)                                   kind, ring ack, credits
 *   RDMA_WRITE_WITH_IMM (put_imm)  IBV_WC_RECV_RDMA_WITH_IMM     the caller's 32 bits,
 *                                                                untouched
 *
 * A put with immediate (put_imm) consumes a receive buffer of the SRQ like
 * a message: it costs the sender one credit, and waits in the operation
 * queue (in order with the other RDMA operations) while it has none; the
 * receiver reposts the buffer at once (no bytes land in it) and returns the
 * credit as for a message. It returns no credits and no ring position of
 * its own (its immediate has no room for them), and it is not a message:
 * it counts in neither srq_sent nor ring_sent. The receiver's HCA places
 * the written bytes before it completes the receive, so they are in memory
 * when env->notified runs.
 *
 * Immediate of every RC send (32 bits, network order on the wire):
 *
 *   31      24 23     16 15                              0
 *   +---------+---------+--------------------------------+
 *   |  kind   | ring ack|  credits returned to the peer  |
 *   +---------+---------+--------------------------------+
 * MSG carries a message; CREDIT, RTU, FLUSH and BYE are header-only (no bytes);
 * RING and RING_ACK carry an rd_rc_ring_msg_t. ring ack: the low 8 bits of
 * the number of slots the sender has consumed in its ring for the peer (0
 * without a ring); the peer rebuilds the full count from how many it wrote,
 * which is never more than RD_RING_SLOTS_MAX ahead.
 */
enum {
    RD_RC_IMM_MSG = 0,
    RD_RC_IMM_CREDIT = 1,        /* credits only: the return path was idle */
    RD_RC_IMM_RTU = 2,           /* connection: the sender is in RTS */
    RD_RC_IMM_FLUSH = 3,         /* signalled, to reclaim unsignalled send buffers */
    RD_RC_IMM_RING = 4,          /* offer of a ring (rd_rc_ring_msg_t) */
    RD_RC_IMM_RING_ACK = 5,      /* where to write consumed-slot counts (rd_rc_ring_msg_t) */
    RD_RC_IMM_BYE = 6,           /* signalled, in finalize: the sender sends nothing more */
};
#define RD_RC_IMM_CREDITS_MAX 0xffffu

static inline uint32_t rd_rc_imm(unsigned kind, unsigned credits)
{
    return (uint32_t)kind << 24 | (credits & RD_RC_IMM_CREDITS_MAX);
}
static inline unsigned rd_rc_imm_kind(uint32_t imm) { return imm >> 24; }
static inline unsigned rd_rc_imm_credits(uint32_t imm) { return imm & RD_RC_IMM_CREDITS_MAX; }
static inline uint32_t rd_rc_imm_ring(uint32_t imm, unsigned ring_ack)
{
    return imm | (ring_ack & 0xffu) << 16;
}
static inline unsigned rd_rc_imm_ring_ack(uint32_t imm) { return (imm >> 16) & 0xffu; }
/* The full consumed count from its low 8 bits, given that the true count
 * is at most 255 behind written (the messages written so far). */
static inline uint32_t rd_rc_ring_count(uint32_t written, unsigned low)
{
    return written - ((written - low) & 0xffu);
}

/*
 * MSG layout in the receive buffer (4-byte prefix, then the p2p header,
 * then the payload; the payload length is the byte count minus both):
 *
 *   0       1       2               4
 *   +-------+-------+---------------+-----------------+------------------
 *   |hdrlen |version|   ring_sent   | hdr (hdrlen B)  | payload ...
 *   +-------+-------+---------------+-----------------+------------------
 * ring_sent: messages the sender had RDMA-written into the receiver's ring
 * before this one (mod 2^16).
 */
typedef struct __attribute__((packed)) rd_rc_prefix {
    uint8_t hdrlen;
    uint8_t version;
    uint16_t ring_sent;
} rd_rc_prefix_t;

/*
 * RING / RING_ACK payload (24 bytes). RING: the receiver's ring (nslots
 * slots of slot_bytes at addr, rkey). RING_ACK: the sender's 4-byte counter
 * at addr, rkey, into which the ring's owner writes how many slots it has
 * consumed (nslots and slot_bytes 0).
 *
 *   0                               8               12      14      16
 *   +-------------------------------+---------------+-------+-------+
 *   |            address            |     rkey      |nslots | rsvd  |
 *   +-------------------------------+---------------+-------+-------+
 *   16              20              24
 *   +---------------+---------------+
 *   |  slot_bytes   |   reserved    |
 *   +---------------+---------------+
 */
typedef struct __attribute__((packed)) rd_rc_ring_msg {
    uint64_t addr;
    uint32_t rkey;
    uint16_t nslots;
    uint16_t reserved;
    uint32_t slot_bytes;
    uint32_t reserved2;
} rd_rc_ring_msg_t;

_Static_assert(sizeof(rd_rc_ring_msg_t) == 24, "RING message is 24 bytes");

/*
 * One slot of a ring, as the sender RDMA-writes it (one WR: head, p2p
 * header, payload, tail byte; slot_bytes is a multiple of 64):
 *
 *   0               4       5       6               8
 *   +---------------+-------+-------+---------------+
 *   |  payload len  |hdrlen |  seq  |   srq_sent    |
 *   +---------------+-------+-------+---------------+
 *   8               12              14      15      16
 *   +---------------+---------------+-------+-------+
 *   |      ack      |    credits    | flags |version|
 *   +---------------+---------------+-------+-------+
 *   16                                     16+hdrlen+len
 *   +------------------+-------------------+-------+
 *   | hdr (hdrlen B)   | payload (len B)   |  seq  |  (tail byte)
 *   +------------------+-------------------+-------+
 * seq: (lap mod 255) + 1 where lap = message number / nslots; never 0, the
 * value of a consumed slot (the receiver zeroes what a message used), and
 * different from the previous lap's. srq_sent: messages sent over send/recv
 * before this one (mod 2^16). ack (valid with RD_RING_F_ACK): slots consumed
 * in the writer's own ring for the reader. credits: send/recv credits
 * returned, as in the immediate.
 */
enum {
    RD_RING_F_ACK = 1 << 0,
};
typedef struct __attribute__((packed)) rd_rc_slot {
    uint32_t len;
    uint8_t hdrlen;
    uint8_t seq;
    uint16_t srq_sent;
    uint32_t ack;
    uint16_t credits;
    uint8_t flags;
    uint8_t version;
} rd_rc_slot_t;

_Static_assert(sizeof(rd_rc_slot_t) == 16, "slot head is 16 bytes");

static inline uint8_t rd_rc_slot_seq(uint32_t msgno, unsigned nslots)
{
    return (uint8_t)((msgno / nslots) % 255u + 1u);
}

/*
 * Memory key for rendezvous (24 bytes): the rkey and the keyed range, so
 * get/put check bounds before posting.
 *
 *   0               4               8                               16
 *   +---------------+---------------+-------------------------------+
 *   |     rkey      |   reserved    |       address of the range    |
 *   +---------------+---------------+-------------------------------+
 *   16                              24
 *   +-------------------------------+
 *   |       length of the range     |
 *   +-------------------------------+
 */
typedef struct __attribute__((packed)) rd_rc_key {
    uint32_t rkey;
    uint32_t reserved;
    uint64_t addr;
    uint64_t len;
} rd_rc_key_t;

#endif
