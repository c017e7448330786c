/*
 * UD reliability layer: turns an unreliable, unordered, size-limited
 * datagram service into reliable, in-order, exactly-once delivery of
 * messages of any size up to a bound, between the ranks of a job.
 *
 * It knows nothing about verbs: it talks to the wire only through callbacks
 * (post one packet to a peer, deliver one message, read a clock), so the
 * unit tests run it over a simulated lossy link on any host, and the ud
 * transport (ud.c) runs it over a UD QP.
 *
 * Per ordered pair of ranks (a "peer" of an engine):
 *  - packet sequence numbers (PSN, 32 bits, wrapping), starting at 0;
 *  - a message (its 8-byte descriptor, the p2p header, the payload) is cut
 *    into packets of at most mtu bytes; a message always starts a packet;
 *  - cumulative acknowledgement (ack = next PSN expected) plus a 64-bit
 *    selective-ack bitmap, carried in every packet (piggybacked on data),
 *    or in a header-only packet when the reverse path is idle: after
 *    ack_every packets, after ack_delay, or at once when the sender asks
 *    (ACKREQ), on a duplicate, or on a gap;
 *  - a bounded send window: at most min(window, credits) unacknowledged
 *    packets. Credits are what the receiver grants (the wnd field of every
 *    header it sends); the receiver only acknowledges packets it has taken
 *    off the wire, so a sender never has more packets in flight than the
 *    receiver has promised room for. Header-only acks need no credits;
 *  - retransmission of unacknowledged, un-sacked packets when the oldest
 *    has waited rto (doubling up to rto_max, reset on progress), and a
 *    single fast retransmission of a hole the receiver's bitmap reveals;
 *    rto follows the measured round trip (srtt + 4 rttvar, at least
 *    rto_min; samples only from packets sent once, as Karn's rule says);
 *  - duplicates dropped; early packets held (at most window per peer) and
 *    delivered in PSN order, so MPI's non-overtaking rule holds.
 *
 * Memory per peer that has talked: window tx packet slots (kept for
 * retransmission), window rx slots (only once a packet arrives early), the
 * unsent tail of at most one message, one reassembly buffer.
 */
#ifndef RD_TRANSPORT_VERBS_UD_REL_H
#define RD_TRANSPORT_VERBS_UD_REL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Packet header, version 1, 24 bytes, little-endian (every host rdmpi runs
 * on), in front of every packet:
 *
 *   0       1       2               4
 *   +-------+-------+---------------+
 *   |version| flags |      wnd      |   wnd: credits the sender of this
 *   +-------+-------+---------------+        packet grants its receiver
 *   4                               8
 *   +-------------------------------+
 *   |          src (rank)           |
 *   +-------------------------------+
 *   8                               12
 *   +-------------------------------+
 *   |              psn              |   DATA: this packet's PSN
 *   +-------------------------------+
 *   12                              16
 *   +-------------------------------+
 *   |              ack              |   every PSN < ack from the receiver
 *   +-------------------------------+   of this packet has arrived
 *   16                                                              24
 *   +---------------------------------------------------------------+
 *   |                         sack (64 bits)                        |
 *   +---------------------------------------------------------------+
 *        bit i set: PSN ack + 1 + i has arrived (early)
 *
 * flags: RD_UDR_F_DATA (a body follows), RD_UDR_F_FIRST (the body starts a
 * message with an rd_udr_msg_t), RD_UDR_F_ACKREQ (acknowledge now).
 *
 * Message descriptor at the start of a FIRST packet's body, 8 bytes:
 *
 *   0                               4               6               8
 *   +-------------------------------+---------------+---------------+
 *   |        len (payload)          |    hdrlen     |   reserved    |
 *   +-------------------------------+---------------+---------------+
 *
 * followed by hdrlen bytes of header and len bytes of payload, continued in
 * the bodies of the next packets (PSN order) until all have come.
 */
#define RD_UDR_VERSION 1

enum {
    RD_UDR_F_DATA = 1 << 0,
    RD_UDR_F_FIRST = 1 << 1,
    RD_UDR_F_ACKREQ = 1 << 2,
};

typedef struct __attribute__((packed)) rd_udr_hdr {
    uint8_t version;
    uint8_t flags;
    uint16_t wnd;
    uint32_t src;
    uint32_t psn;
    uint32_t ack;
    uint64_t sack;
} rd_udr_hdr_t;

typedef struct __attribute__((packed)) rd_udr_msg {
    uint32_t len;
    uint16_t hdrlen;
    uint16_t reserved;
} rd_udr_msg_t;

_Static_assert(sizeof(rd_udr_hdr_t) == 24, "packet header is 24 bytes");
_Static_assert(sizeof(rd_udr_msg_t) == 8, "message descriptor is 8 bytes");

/* Bounds of the window (packets in flight per peer). */
#define RD_UDR_WINDOW_MIN 2
#define RD_UDR_WINDOW_MAX 4096
/* Smallest packet the engine can work with: header, descriptor, one byte. */
#define RD_UDR_MTU_MIN (sizeof(rd_udr_hdr_t) + sizeof(rd_udr_msg_t) + 1)

typedef struct rd_udr rd_udr_t;

typedef struct rd_udr_ops {
    void *ctx;
    /* Puts one packet (len bytes at pkt, valid only during the call) on the
     * wire towards peer. RD_OK, or a negative rd_status (fatal). */
    int (*post)(void *ctx, int peer, const void *pkt, size_t len);
    /* A whole message from peer, in order, exactly once. hdr and payload are
     * valid only during the call. May call rd_udr_send, never input/poll. */
    void (*deliver)(void *ctx, int peer, const void *hdr, size_t hdrlen,
                    const void *payload, size_t len);
    /* Monotonic time in microseconds. */
    uint64_t (*now)(void *ctx);
} rd_udr_ops_t;

typedef struct rd_udr_cfg {
    int self;                /* this engine's rank */
    int npeers;              /* ranks 0..npeers-1 */
    size_t mtu;              /* largest packet, header included */
    size_t msg_max;          /* largest hdrlen + len of a message */
    uint32_t window;         /* packets in flight per peer, and credits granted
                              * (a power of two, so PSN % window survives the wrap) */
    uint32_t init_credits;   /* credits assumed before a peer has spoken */
    uint32_t ack_every;      /* header-only ack after this many unacked packets */
    uint64_t ack_delay_us;   /* ... or once the oldest unacked one is this old */
    uint64_t rto_us;         /* retransmission timeout before any RTT sample */
    uint64_t rto_min_us;     /* floor of the timeout computed from RTT samples */
    uint64_t rto_max_us;     /* cap of the doubling timeout */
    uint64_t timeout_us;     /* no progress for this long: RD_EPEER (0: never) */
    double drop_rate;        /* fraction of received packets dropped on purpose
                                (tests: only builds with RD_FAULT_INJECTION drop) */
    uint64_t seed;           /* of the drop generator */
    uint32_t first_psn;      /* PSN of the first packet each way (same on all ranks) */
} rd_udr_cfg_t;

/* Counters, for tests and diagnostics. */
typedef struct rd_udr_stats {
    uint64_t pkts_sent;      /* data packets, first transmissions */
    uint64_t retrans;        /* data packets sent again */
    uint64_t acks_sent;      /* header-only acks */
    uint64_t pkts_recv;      /* packets accepted (data or ack) */
    uint64_t dropped;        /* dropped on purpose (drop_rate) */
    uint64_t dups;           /* data packets seen before */
    uint64_t early;          /* data packets held until their turn */
    uint64_t overrun;        /* data packets beyond the credits granted */
    uint64_t bad;            /* malformed packets ignored */
    uint64_t delivered;      /* messages delivered */
    size_t mem;              /* bytes held by the engine now */
    size_t mem_peak;         /* ... and at most so far */
} rd_udr_stats_t;

/* Creates an engine; NULL with *status set (RD_EINVAL for a bad cfg,
 * RD_ENOMEM). cfg and ops are copied. */
rd_udr_t *rd_udr_create(const rd_udr_cfg_t *cfg, const rd_udr_ops_t *ops, int *status);
void rd_udr_destroy(rd_udr_t *e);

/* Queues a message to peer: RD_OK once hdr and payload are copied (the
 * first packets may already be posted), RD_EAGAIN when the window or the
 * peer's credits are full or an earlier message is not all posted yet
 * (nothing taken), RD_EINVAL for a bad peer or size, or the post error. */
int rd_udr_send(rd_udr_t *e, int peer, const void *hdr, size_t hdrlen,
                const void *payload, size_t len);

/* One packet off the wire. Returns messages delivered (>= 0) or the
 * negative status of a post it made. */
int rd_udr_input(rd_udr_t *e, const void *pkt, size_t len);

/* Timers: retransmissions, delayed acks, posting the rest of messages the
 * window held back. Returns packets posted (>= 0), RD_EPEER when a peer
 * made no progress for timeout_us, or a post error. */
int rd_udr_poll(rd_udr_t *e);

/* Nonzero when nothing is unacknowledged, unposted or owed an ack. */
int rd_udr_quiet(const rd_udr_t *e);

/* Packets to peer sent and not yet acknowledged. */
uint32_t rd_udr_inflight(const rd_udr_t *e, int peer);

void rd_udr_get_stats(const rd_udr_t *e, rd_udr_stats_t *st);

#endif
