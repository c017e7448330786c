/*
 * RC messages (rc_msg.c): the data path's queues and buffers, send/recv
 * messages with their credits, header-only and control messages, SRQ
 * receives and send completions.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_MSG_H
#define RD_TRANSPORT_VERBS_RC_RC_MSG_H

#include "transport/verbs/rc/rc_int.h"

/* SRQ, CQs, send buffers and ring counters, on the first connection. */
int rd_rc_data_setup(void);
/* Posts the receive buffers one more peer may fill (credits + reserve). */
int rd_rc_add_rx_chunk(void);
/* CREDIT, RTU, FLUSH or BYE: no bytes, no credit. */
int rd_rc_post_hdr_only(int peer, unsigned kind, int signal);
/* RING or RING_ACK with its 24-byte payload, no credit. */
int rd_rc_post_ctrl(int peer, unsigned kind, const rd_rc_ring_msg_t *m);
/* No free send buffer: asks for completions that bring some back. */
void rd_rc_reclaim_slots(void);
/* The ops table's send(). */
int rd_rc_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
#ifdef RD_FAULT_INJECTION
/* send() without the fault hook (rc_fault.c). */
int rd_rc_send_msg(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
#endif
/* Posts the receive buffers collected in this pass again, as one list. */
void rd_rc_flush_reposts(void);
/* Receive and send completions; the count, or a negative status. */
int rd_rc_poll_recv(void);
int rd_rc_poll_send(void);
/* End of a pass: CREDIT and RING_ACK messages that nothing else carried. */
void rd_rc_send_due_credits(void);

/* Queues b to go back to the SRQ at the end of the pass; credit: the
 * message it held used one of peer's credits, to be returned. */
static inline void repost(rc_rxbuf_t *b, int peer, int credit)
{
    if (rd_rc.nrepost == RD_RC_POLL)
        rd_rc_flush_reposts();   /* held buffers released by ring progress */
    b->peer = peer;
    b->credit = (uint8_t)credit;
    int i = rd_rc.nrepost++;
    rd_rc.rsge[i] = (struct ibv_sge){ (uintptr_t)b->data, (uint32_t)rd_rc.buf_bytes, b->lkey };
    rd_rc.rwr[i] = (struct ibv_recv_wr){ .wr_id = (uintptr_t)b, .sg_list = &rd_rc.rsge[i],
                                      .num_sge = 1 };
    rd_rc.rbuf[i] = b;
}

#endif
