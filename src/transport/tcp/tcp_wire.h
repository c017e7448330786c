/*
 * The TCP transport's wire format, version 3 (2: the address record lists
 * several addresses; 3: the address record carries no key, and HELLO
 * carries the job key when the launcher gave one): what travels on a
 * connection between two ranks, and the address record each rank
 * publishes through PMIx. Multi-byte fields are little-endian.
 *
 * A connection carries a stream of frames. Every frame starts with this
 * 8-byte header, followed by hdrlen bytes of upper header (p2p's rd_msg_hdr_t
 * prefix for MSG, the hello for HELLO) and len bytes of payload:
 *
 *  0       1       2               4                               8
 *  +-------+-------+---------------+-------------------------------+
 *  | type  |version|    hdrlen     |   len: payload bytes          |
 *  +-------+-------+---------------+-------------------------------+
 *  | hdrlen bytes of upper header ... | len bytes of payload ...     |
 *  +----------------------------------+----------------------------+
 *
 * Frame types and the lengths each must have (anything else is a protocol
 * error and closes the connection):
 *  HELLO  hdrlen = sizeof(rd_tcp_hello_t), len = 0   first frame of the
 *         connecting side: who it is and the connection key (below)
 *  ACK    hdrlen = 0, len = 0    the accepting side takes the connection
 *  NACK   hdrlen = 0, len = 0    the accepting side keeps its own connection
 *                                (both sides connected at once; see below)
 *  MSG    1 <= hdrlen <= RD_TCP_HDR_MAX, len <= RD_TCP_LEN_LIMIT
 *  BYE    hdrlen = 0, len = 0    last frame: the sender is finalizing
 *
 * The connection key is the job key (boot.h) when the launcher gave one:
 * rdmpi's mpirun hands it to every rank in its environment, so nothing
 * secret is published. Without one (srun, Hydra), each rank makes 16 random
 * bytes and publishes them under RD_TCP_BOOT_SECRET, and a HELLO carries
 * the connecting rank's own; that launcher's key-value store keeps them
 * from processes outside the job.
 *
 * Connection set-up (one connection per pair of ranks, made on first send):
 *   connector                            acceptor
 *   HELLO(src, dst, key) -------------->  checks dst == self and the key:
 *                                         the job key, or the one src
 *                                         published
 *                              <-------  ACK: data flows both ways
 * When both ranks connect at once, the connection made by the lower rank
 * wins: the higher rank ACKs the lower rank's HELLO and drops its own
 * attempt; the lower rank answers the higher rank's HELLO with NACK. Data
 * is queued, not sent, until the connector sees ACK, so nothing is lost.
 * A connection whose HELLO has a wrong key is closed without an answer.
 *
 * Finalize: each side sends BYE after its last frame and closes once it
 * has read the peer's BYE. EOF or a reset without a BYE means the peer died.
 */
#ifndef RD_TRANSPORT_TCP_TCP_WIRE_H
#define RD_TRANSPORT_TCP_TCP_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define RD_TCP_WIRE_VERSION 3

enum rd_tcp_frame_type {
    RD_TCP_F_HELLO = 1,
    RD_TCP_F_ACK = 2,
    RD_TCP_F_NACK = 3,
    RD_TCP_F_MSG = 4,
    RD_TCP_F_BYE = 5,
};

typedef struct __attribute__((packed)) rd_tcp_frame {
    uint8_t type;
    uint8_t version;
    uint16_t hdrlen;
    uint32_t len;
} rd_tcp_frame_t;

#define RD_TCP_FRAME_LEN sizeof(rd_tcp_frame_t)

/* Largest upper header of a MSG frame (p2p's header is at most 80 bytes). */
#define RD_TCP_HDR_MAX 128
/* Largest payload of any frame a receiver accepts; senders clamp their
 * eager limit (RDMPI_TCP_EAGER_MAX) to it. */
#define RD_TCP_LEN_LIMIT (16u << 20)

#define RD_TCP_KEY_LEN 16
#define RD_TCP_HELLO_MAGIC 0x50544452u   /* "RDTP" */

/*
 * HELLO body:
 *  0               4               8               12              16
 *  +---------------+---------------+---------------+---------------+
 *  |  magic "RDTP" |  src rank     |  dst rank     |  reserved (0) |
 *  +---------------+---------------+---------------+---------------+
 *  |  key: the job key, or the 16 bytes src published             |
 *  |  under RD_TCP_BOOT_SECRET                                     |
 *  +---------------------------------------------------------------+
 */
typedef struct __attribute__((packed)) rd_tcp_hello {
    uint32_t magic;
    int32_t src;
    int32_t dst;
    uint32_t reserved;
    uint8_t key[RD_TCP_KEY_LEN];
} rd_tcp_hello_t;

/*
 * Address record every rank publishes with rd_boot_put(RD_TCP_BOOT_KEY): the
 * port it listens on and up to RD_TCP_ADDRS_MAX addresses it can be
 * reached at (a connecting peer picks one, tcp_addr.h). Only the count
 * entries in use are published (RD_TCP_ADDR_LEN(count) bytes).
 *  0       1       2               4
 *  +-------+-------+---------------+
 *  |version| count |  port (BE)    |
 *  +-------+-------+---------------+
 *  count entries of 20 bytes:
 *  +-------+-------+---------------+-------------------------------+
 *  |family |prefix | reserved (0)  |  addr: IPv4 in the first 4    |
 *  +-------+-------+---------------+  bytes, or IPv6 (16 bytes)     |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * family is 4 or 6; prefix is the length of the interface's network prefix
 * (netmask bits); port is in network byte order.
 */
#define RD_TCP_ADDRS_MAX 8

typedef struct __attribute__((packed)) rd_tcp_ent {
    uint8_t family;
    uint8_t prefix;
    uint16_t reserved;
    uint8_t addr[16];
} rd_tcp_ent_t;

typedef struct __attribute__((packed)) rd_tcp_addr {
    uint8_t version;
    uint8_t count;
    uint16_t port;
    rd_tcp_ent_t ent[RD_TCP_ADDRS_MAX];
} rd_tcp_addr_t;

#define RD_TCP_ADDR_LEN(count) (offsetof(rd_tcp_addr_t, ent) + (size_t)(count) * sizeof(rd_tcp_ent_t))

#define RD_TCP_BOOT_KEY "rdmpi.tcp.addr"
/* A rank's own connection key (RD_TCP_KEY_LEN bytes), published only when
 * the launcher gave no job key. */
#define RD_TCP_BOOT_SECRET "rdmpi.tcp.key"

#endif
