/*
 * The p2p wire header, version 2: the bytes p2p gives a transport in front of
 * every payload. One packed struct; each message type sends only the prefix
 * it needs, so an eager message costs 24 header bytes.
 *
 *  0       1       2       3       4               8               12              16
 *  +-------+-------+-------+-------+---------------+---------------+---------------+
 *  | type  | flags |keylen |version|  context id   |  source rank  |      tag      |
 *  +-------+-------+-------+-------+---------------+---------------+---------------+
 *  16                              24                              32
 *  +-------------------------------+-------------------------------+
 *  |  len: message bytes (EAGER,   |  sreq: sender's request id    |  <- EAGER ends at 24,
 *  |  RTS) or offset (DATA)        |  (SYNC EAGER, RTS, CTS, FIN,  |     SYNC EAGER at 32
 *  |                               |   ACK, PUT)                   |
 *  +-------------------------------+-------------------------------+
 *  32                              40                              48
 *  +-------------------------------+-------------------------------+---------------...
 *  |  rreq: receiver's request id  |  addr: buffer address         | key (keylen bytes)
 *  |  (CTS, DATA, PUT, PUT_FIN)    |  (RTS with F_GET: sender's;   | (RTS with F_GET,
 *  |                               |   PUT: receiver's)            |  PUT)
 *  +-------------------------------+-------------------------------+---------------...
 *   CTS, DATA, FIN, ACK, PUT_FIN end at 40;  RTS and PUT end at 48 + keylen.
 *
 * Protocols:
 *  eager       EAGER(+payload) ............................ matched -> copied (SYNC: ACK back)
 *  rndv get    RTS(F_GET, addr, key) -> receiver get()s into the user buffer -> FIN
 *  rndv split  RTS(F_GET) -> PUT(rreq, len = split, addr, key of the receiver's
 *              buffer from split on); the receiver get()s [0, split) while the
 *              sender put()s [split, end), both cores copying at once; then
 *              FIN (receiver's half done) and PUT_FIN (sender's half done)
 *  rndv put    RTS(F_PUT) -> PUT(F_WHOLE, len = 0, addr, key of the receiver's
 *              buffer): the sender put()s the whole message -> PUT_FIN
 *              (RDMPI_RNDV=put; the receiver reads nothing and sends no FIN)
 *  rndv copy   RTS -> CTS(rreq) -> DATA(offset)+payload ... until len bytes
 * RDMPI_RNDV selects what a sender offers (auto, get: F_GET; put: F_PUT, or
 * F_GET on a transport without put) and what a receiver prefers; the
 * receiver decides from the flags it gets, so every pair works.
 * Request ids name requests in a table of the side that owns them
 * (reqid.h: slot and generation, never an address); they only travel back
 * to that side, which drops a message whose id names no live request of
 * that peer in the step the message belongs to.
 */
#ifndef RD_P2P_PROTO_H
#define RD_P2P_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "transport/transport.h"

#define RD_PROTO_VERSION 2

/* p2p's active-message types (p2p.h: RD_AM_P2P_FIRST .. RD_AM_P2P_LAST);
 * EAGER is handled inline on arrival, the others by the handlers p2p
 * registers like any other layer. Types of other layers carry their
 * owners' headers: only the first byte, the type, is common. */
enum rd_msg_type {
    RD_MSG_EAGER = 1,    /* a whole message */
    RD_MSG_RTS = 2,      /* request to send: a large message is waiting */
    RD_MSG_CTS = 3,      /* clear to send: stream DATA to rreq */
    RD_MSG_DATA = 4,     /* a fragment of a rendezvous message */
    RD_MSG_FIN = 5,      /* receiver has read the sender's buffer: sreq is done */
    RD_MSG_ACK = 6,      /* a synchronous eager message was matched: sreq is done */
    RD_MSG_PUT = 7,      /* write bytes [len, end) of sreq into addr/key (split or put rndv) */
    RD_MSG_PUT_FIN = 8,  /* the sender's half of a split rendezvous is written */
};

enum {
    RD_MSG_F_SYNC = 1 << 0,   /* EAGER: the sender waits for an ACK */
    RD_MSG_F_GET = 1 << 1,    /* RTS: addr/key let the receiver read the data */
    RD_MSG_F_PUT = 1 << 2,    /* RTS: the sender can write into the receiver's memory */
    RD_MSG_F_WHOLE = 1 << 3,  /* PUT: the receiver reads nothing; no FIN follows */
};

typedef struct __attribute__((packed)) rd_msg_hdr {
    uint8_t type;
    uint8_t flags;
    uint8_t keylen;
    uint8_t version;
    uint32_t ctx;
    int32_t src;
    int32_t tag;
    uint64_t len;
    uint64_t sreq;
    uint64_t rreq;
    uint64_t addr;
    uint8_t key[RD_TP_KEY_MAX];
} rd_msg_hdr_t;

#define RD_HDR_EAGER_LEN offsetof(rd_msg_hdr_t, sreq)
#define RD_HDR_SYNC_LEN offsetof(rd_msg_hdr_t, rreq)
#define RD_HDR_CTRL_LEN offsetof(rd_msg_hdr_t, addr)
#define RD_HDR_RTS_LEN(keylen) (offsetof(rd_msg_hdr_t, key) + (keylen))
#define RD_HDR_MAX sizeof(rd_msg_hdr_t)

#endif
