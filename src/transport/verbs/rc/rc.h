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
 * nothing to send and half the credits are due. CREDIT, RTU and FLUSH
 * messages need no credit: they land in the reserve (at most two CREDITs
 * can be in flight, since each returns at least half of all credits; one
 * RTU per connection; one FLUSH at a time).
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_H
#define RD_TRANSPORT_VERBS_RC_RC_H

#include <stddef.h>
#include <stdint.h>

#define RD_RC_VERSION 1

/* Tunables (doc/tunables.md). */
#define RD_RC_EAGER_MAX_DEFAULT (8 * 1024)   /* RDMPI_RC_EAGER_MAX */
#define RD_RC_EAGER_MAX_LIMIT (1u << 20)
#define RD_RC_CREDITS_DEFAULT 32             /* RDMPI_RC_CREDITS: per peer */
#define RD_RC_SEND_BUFS_DEFAULT 256          /* RDMPI_RC_SEND_BUFS: registered copies */
#define RD_RC_SQ_DEPTH_DEFAULT 128           /* RDMPI_RC_SQ_DEPTH: send WRs per QP */
#define RD_RC_SIGNAL_DEFAULT 16              /* RDMPI_RC_SIGNAL_EVERY */
#define RD_RC_INLINE_DEFAULT 256             /* RDMPI_RC_INLINE: asked of the device */
#define RD_RC_CONNECT_TIMEOUT_DEFAULT 60     /* RDMPI_RC_CONNECT_TIMEOUT, seconds */

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
 * Immediate of every RC send (32 bits, network order on the wire):
 *
 *   31      24 23     16 15                              0
 *   +---------+---------+--------------------------------+
 *   |  kind   |    0    |  credits returned to the peer  |
 *   +---------+---------+--------------------------------+
 * MSG carries a message; CREDIT, RTU and FLUSH are header-only (no bytes).
 */
enum {
    RD_RC_IMM_MSG = 0,
    RD_RC_IMM_CREDIT = 1,        /* credits only: the return path was idle */
    RD_RC_IMM_RTU = 2,           /* connection: the sender is in RTS */
    RD_RC_IMM_FLUSH = 3,         /* signalled, to reclaim unsignalled send buffers */
};
#define RD_RC_IMM_CREDITS_MAX 0xffffu

static inline uint32_t rd_rc_imm(unsigned kind, unsigned credits)
{
    return (uint32_t)kind << 24 | (credits & RD_RC_IMM_CREDITS_MAX);
}
static inline unsigned rd_rc_imm_kind(uint32_t imm) { return imm >> 24; }
static inline unsigned rd_rc_imm_credits(uint32_t imm) { return imm & RD_RC_IMM_CREDITS_MAX; }

/*
 * MSG layout in the receive buffer (4-byte prefix, then the p2p header,
 * then the payload; the payload length is the byte count minus both):
 *
 *   0       1       2               4
 *   +-------+-------+---------------+-----------------+------------------
 *   |hdrlen |version|   reserved    | hdr (hdrlen B)  | payload ...
 *   +-------+-------+---------------+-----------------+------------------
 */
typedef struct __attribute__((packed)) rd_rc_prefix {
    uint8_t hdrlen;
    uint8_t version;
    uint16_t reserved;
} rd_rc_prefix_t;

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
