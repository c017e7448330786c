/*
 * The operations' wire formats (version 1): the active messages one rank
 * sends another to put, get, accumulate, fetch, notify, and the replies.
 * Every header starts with rd_rma_hdr_t (rma_impl.h); all are packed and
 * little-endian as the hosts are (every rank of a job runs on one
 * architecture). Offsets and ids in them come from the wire: the target
 * checks them against its window (rma_am.c), the origin its records
 * (rma_ops.c), before use.
 */
#ifndef RD_RMA_RMA_WIRE_H
#define RD_RMA_RMA_WIRE_H

#include <stdint.h>

#include "rma/rma_impl.h"

enum {
    RD_RMA_AM_PUT = RD_RMA_AM_OPS_FIRST, /* data into the window */
    RD_RMA_AM_GET,                       /* request: reply RESP with the data */
    RD_RMA_AM_ACC,                       /* accumulate data into the window */
    RD_RMA_AM_GET_ACC,                   /* accumulate, reply RESP with the old data */
    RD_RMA_AM_FOP,                       /* one element: Fetch_and_op */
    RD_RMA_AM_CAS,                       /* one element: Compare_and_swap */
    RD_RMA_AM_ACK,                       /* target -> origin: operations done */
    RD_RMA_AM_RESP,                      /* target -> origin: data of a GET/GET_ACC/FOP/CAS */
    RD_RMA_AM_NOTIFY,                    /* after a notified put's data */
    RD_RMA_AM_OPS_END,
};

/* One operation (PUT, GET, ACC, GET_ACC, FOP, CAS), or one fragment of a
 * larger one (each fragment stands alone):
 *
 *   0               8              12              16
 *  +---------------+---------------+---------------+
 *  | rd_rma_hdr_t  |     opid      |    nblocks    |
 *  +---------------+---------------+---------------+
 *  16                              24                              32
 *  +-------------------------------+-------------------------------+
 *  |  addr (target offset)         |  len (bytes at the target)    |
 *  +-------------------------------+-------------------------------+
 *  32                              40      41      42      44      48
 *  +-------------------------------+-------+-------+-------+-------+
 *  |  roff (offset in the result)  |  op   | basic | esize |  src  |
 *  +-------------------------------+-------+-------+-------+-------+
 *
 * addr is the byte offset from the target's window base, or for a dynamic
 * window the absolute address. With nblocks 0 the len bytes at addr are
 * one run; else the payload starts with nblocks rd_rma_block_t (offsets
 * from addr, lengths summing to len), in packed order. Then the data:
 * PUT/ACC/GET_ACC len bytes, FOP esize bytes, CAS compare then swap value
 * (esize each), GET nothing. opid names the origin's record (0: none, the
 * origin counts an ACK only); the target's reply (ACK or RESP) returns it
 * with roff. op and basic (enum rd_op_kind, rd_basic) and esize (packed
 * bytes of one element) describe accumulates. src is the origin's rank in
 * the window's communicator (notifications report it).
 */
typedef struct __attribute__((packed)) rd_rma_op_msg {
    rd_rma_hdr_t h;
    uint32_t opid;
    uint32_t nblocks;
    uint64_t addr;
    uint64_t len;
    uint64_t roff;
    uint8_t op;
    uint8_t basic;
    uint16_t esize;
    uint32_t src;
} rd_rma_op_msg_t;

typedef struct __attribute__((packed)) rd_rma_block {
    uint64_t off;
    uint64_t len;
} rd_rma_block_t;

/* ACK and RESP, target -> origin:
 *
 *   0               8              12              16              20      24
 *  +---------------+---------------+---------------+---------------+-------+
 *  | rd_rma_hdr_t  |     opid      |    status     |     count     | from  |
 *  +---------------+---------------+---------------+---------------+-------+
 *  24                              32
 *  +-------------------------------+
 *  |  roff                         |
 *  +-------------------------------+
 *
 * status is RD_OK or why the target refused (RD_ERANGE: outside the
 * window; nothing was applied). count is how many operation messages this
 * acknowledges (ACK; RESP acknowledges one). from is the target's rank in
 * the window's communicator. RESP carries the result bytes that belong at
 * packed offset roff of the origin's result. */
typedef struct __attribute__((packed)) rd_rma_ack_msg {
    rd_rma_hdr_t h;
    uint32_t opid;
    int32_t status;
    uint32_t count;
    uint32_t from;
    uint64_t roff;
} rd_rma_ack_msg_t;

/* NOTIFY, origin -> target, after the data of a notified put:
 *
 *   0               8              12              16
 *  +---------------+---------------+---------------+
 *  | rd_rma_hdr_t  |      src      |      tag      |
 *  +---------------+---------------+---------------+
 *
 * src is the origin's rank in the window's communicator. Not
 * acknowledged. With flags RD_RMA_NOTIFY_DRAIN it carries no
 * notification: the origin found the target's notification ring full
 * and asks the target to move the ring's notifications to its queue. */
#define RD_RMA_NOTIFY_DRAIN 0x1
typedef struct __attribute__((packed)) rd_rma_notify_msg {
    rd_rma_hdr_t h;
    uint32_t src;
    int32_t tag;
} rd_rma_notify_msg_t;

#endif
