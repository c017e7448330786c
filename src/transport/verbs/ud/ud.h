/*
 * UD transport: tunables and fixed parameters.
 *
 * One UD QP per process receives everything (its receive queue is the only
 * receive buffer pool); RDMPI_UD_QPS > 1 adds send-only UD QPs that
 * outgoing packets rotate over (Kalia et al.: several QPs keep several NIC
 * send engines busy). Each peer's address handle is made on the first
 * packet to it, from the address it published through PMIx ("rd.ud").
 *
 * Reliability, ordering, fragmentation and credits are the rel engine's
 * (rel.h, which also draws the packet format); this file moves its packets:
 * a UD payload is exactly one rel packet, at most the port's active MTU.
 *
 * Receive-queue sizing (why the credits hold): every peer may have `window`
 * data packets and at most as many header-only acks in flight towards us,
 * so the receive queue holds 2 x window x (ranks - 1) buffers plus a
 * margin of one polled batch, and a packet is acknowledged no earlier than
 * the batch it came in is posted again (an ack piggybacked by an upcall in
 * that batch may leave first: the margin covers it). When the device cannot post that many, the window shrinks until it
 * fits.
 */
#ifndef RD_TRANSPORT_VERBS_UD_UD_H
#define RD_TRANSPORT_VERBS_UD_UD_H

/* Tunables (doc/tunables.md). */
#define RD_UD_EAGER_MAX_DEFAULT (32 * 1024)  /* RDMPI_UD_EAGER_MAX */
#define RD_UD_EAGER_MAX_LIMIT (1u << 20)
#define RD_UD_WINDOW_DEFAULT 64              /* RDMPI_UD_WINDOW: packets per peer */
#define RD_UD_QPS_DEFAULT 1                  /* RDMPI_UD_QPS */
#define RD_UD_QPS_MAX 16
#define RD_UD_RTO_DEFAULT 20000              /* RDMPI_UD_RTO: first timeout, microseconds */
#define RD_UD_RTO_MIN 1000                   /* floor of the RTT-based timeout, us */
#define RD_UD_RTO_MAX 500000                 /* cap of the doubled timeout, us */
#define RD_UD_ACK_DELAY_DEFAULT 200          /* RDMPI_UD_ACK_DELAY, microseconds */
#define RD_UD_TIMEOUT_DEFAULT 0              /* RDMPI_UD_TIMEOUT, seconds (0: never) */
#define RD_UD_INLINE_DEFAULT 128             /* RDMPI_UD_INLINE: asked of the device */
#define RD_UD_SQ_DEPTH_DEFAULT 128           /* RDMPI_UD_SQ_DEPTH: send WRs per QP */
#define RD_UD_SIGNAL_DEFAULT 16              /* RDMPI_UD_SIGNAL_EVERY */

/* Fixed parameters. */
#define RD_UD_QKEY 0x72645544u   /* Q_Key of every rdmpi UD data QP ("rdUD") */
#define RD_UD_GRH 40             /* UD receives start with a 40-byte GRH */
#define RD_UD_POLL 32            /* completions taken per ibv_poll_cq */
#define RD_UD_RQ_MARGIN 64       /* receive buffers beyond 2 x window x peers (>= RD_UD_POLL) */
#define RD_UD_CREDITS_INIT 16    /* credits assumed before a peer has answered */
#define RD_UD_LINGER_US 3000000  /* finalize waits this long for the last acks */

#endif
