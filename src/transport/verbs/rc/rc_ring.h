/*
 * RC RDMA-Write eager (rc_ring.c): per-peer rings of slots that the sender
 * RDMA-writes and the receiver polls (protocol in rc.h). The writing side
 * (ring_send) and the in-order delivery of send/recv messages
 * (deliver_srq) are on the hot path and inlined here.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_RING_H
#define RD_TRANSPORT_VERBS_RC_RC_RING_H

#include <string.h>

#include "transport/verbs/rc/rc_int.h"
#include "transport/verbs/rc/rc_msg.h"

/* Offers peer a ring (RING) once it has sent enough messages. */
void rd_rc_ring_offer(int peer);
/* Delivers what can be delivered from peer in the order it was sent. */
int rd_rc_peer_advance(int peer);
/* RING / RING_ACK arrived (their payload); RD_OK or RD_EINTERN. */
int rd_rc_on_ring(int peer, const char *data, uint32_t len);
int rd_rc_on_ring_ack(int peer, const char *data, uint32_t len);
/* Polls every ring we hold; the count, or a negative status. */
int rd_rc_poll_rings(void);

/* The peer has consumed count messages of its ring for us (any source:
 * slot head, counter, immediate; they may come out of order, so only a
 * count that advances and that we have written counts). */
static inline void ring_freed_to(rc_peer_t *p, uint32_t count)
{
    if ((int32_t)(count - p->ring_tx.freed) > 0 && (int32_t)(p->ring_tx.written - count) >= 0)
        p->ring_tx.freed = count;
}

/* Same from the low 8 bits in an immediate: the true count is at most
 * RD_RING_SLOTS_MAX behind what we wrote. */
static inline void ring_freed8(rc_peer_t *p, unsigned low)
{
    if (p->ring_tx.on)
        ring_freed_to(p, rd_rc_ring_count(p->ring_tx.written, low));
}

/* RDMA-Write eager: one RDMA Write of head, header, payload and tail byte
 * into the next slot of the peer's ring. RD_EAGAIN when every slot is still
 * unconsumed or the send queue is full. */
static inline int ring_send(int peer, const void *hdr, size_t hdrlen, const void *payload,
                            size_t len)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->ring_tx.written - p->ring_tx.freed >= p->ring_tx.nslots) {
        ring_freed_to(p, __atomic_load_n(&rd_rc.ctl[2 * peer], __ATOMIC_ACQUIRE));
        if (p->ring_tx.written - p->ring_tx.freed >= p->ring_tx.nslots)
            return RD_EAGAIN;
    }
    if (p->sq.used + 2 > (uint32_t)rd_rc.sq_depth)
        return RD_EAGAIN;
    uint32_t w = p->ring_tx.written;
    uint8_t seq = rd_rc_slot_seq(w, p->ring_tx.nslots);
    rd_rc_slot_t h = {
        .len = (uint32_t)len,
        .hdrlen = (uint8_t)hdrlen,
        .seq = seq,
        .srq_sent = p->ring_tx.srq_sent,
        .version = RD_RC_VERSION,
    };
    size_t total = sizeof(h) + hdrlen + len + 1;
    struct ibv_sge sge[4];
    struct ibv_send_wr wr = {
        .opcode = IBV_WR_RDMA_WRITE,
        .sg_list = sge,
        .wr.rdma = { .remote_addr = p->ring_tx.raddr +
                                    (uint64_t)(w % p->ring_tx.nslots) * p->ring_tx.slot_bytes,
                     .rkey = p->ring_tx.rkey },
    };
    rc_pend_t pe = { .slot = -1, .msg = 1 };
    char *b = NULL;
    if (total > rd_rc.max_inline) {
        if (RC_UNLIKELY(rd_rc.nsfree == 0)) {
            rd_rc_reclaim_slots();
            return RD_EAGAIN;
        }
        pe.slot = rd_rc.sfree[--rd_rc.nsfree];
        b = rd_rc.smem + (size_t)pe.slot * rd_rc.buf_bytes;
    }
    /* Credits and our own ring position ride in the head (after the checks
     * above: nothing may be taken for a message that is not sent). */
    h.credits = (uint16_t)take_credits(p);
    if (p->ring_rx.state == RING_ON) {
        h.ack = p->ring_rx.rcvd;
        h.flags = RD_RING_F_ACK;
        p->ring_rx.reported = p->ring_rx.rcvd;
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
        sge[0] = (struct ibv_sge){ (uintptr_t)b, (uint32_t)total, rd_rc.smr->lkey };
        wr.num_sge = 1;
    }
    int err = post_chain(peer, &wr, &pe, 1);
    if (RC_UNLIKELY(err != RD_OK)) {
        if (pe.slot >= 0)
            rd_rc.sfree[rd_rc.nsfree++] = pe.slot;
        return err;
    }
    p->ring_tx.written++;
    return RD_OK;
}

/* A send/recv message whose predecessors have all been delivered. */
static inline void deliver_srq(int peer, rc_rxbuf_t *b)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    rd_rc_prefix_t pre;
    memcpy(&pre, b->data, sizeof(pre));
    size_t off = sizeof(pre) + pre.hdrlen;
    p->ring_rx.srq_rcvd++;
    rd_rc.recv(peer, b->data + sizeof(pre), pre.hdrlen, b->data + off, b->len - off);
    repost(b, peer, 1);
    if (p->ring_rx.state == RING_NONE && ++p->ring_rx.msgs >= (uint32_t)rd_rc.ring_threshold)
        rd_rc_ring_offer(peer);
}

#endif
