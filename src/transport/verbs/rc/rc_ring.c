/*
 * RC RDMA-Write eager, the receiving side and the handshake: once a peer
 * has sent RDMPI_RDMA_EAGER_THRESHOLD messages over send/recv we offer it a
 * ring (RING), it answers with its counter (RING_ACK); we poll the ring,
 * deliver slots and send/recv messages in the order they were sent, and
 * write the consumed count into the peer's counter when nothing else
 * carried it. The writing side is ring_send in rc_ring.h.
 */
#include "transport/verbs/rc/rc_ring.h"

#include <stdlib.h>
#include <string.h>

#include "transport/verbs/rc/rc_rdma.h"

/* Offers peer a ring once it has sent us enough messages. On any failure
 * (limit, memory, registration) the peer just stays on send/recv. */
void rd_rc_ring_offer(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (!rd_rc.ring_on || rd_rc.nrings >= rd_rc.ring_max_peers) {
        p->ring_rx.state = RING_OFF;
        return;
    }
    if (p->cm.state != RC_READY)
        return;   /* retried at the next message */
    size_t bytes = (size_t)rd_rc.ring_nslots * rd_rc.ring_slot_bytes;
    char *mem;
    if (posix_memalign((void **)&mem, 4096, bytes) != 0) {
        p->ring_rx.state = RING_OFF;
        return;
    }
    memset(mem, 0, bytes);
    struct ibv_mr *mr = ibv_reg_mr(rd_rc.dev->pd, mem, bytes,
                                   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!mr) {
        free(mem);
        p->ring_rx.state = RING_OFF;
        return;
    }
    rd_rc_ring_msg_t m = {
        .addr = (uint64_t)(uintptr_t)mem,
        .rkey = mr->rkey,
        .nslots = (uint16_t)rd_rc.ring_nslots,
        .slot_bytes = rd_rc.ring_slot_bytes,
    };
    if (rd_rc_post_ctrl(peer, RD_RC_IMM_RING, &m) != RD_OK) {
        ibv_dereg_mr(mr);
        free(mem);
        return;   /* send queue full: retried at the next message */
    }
    p->ring_rx.mem = mem;
    p->ring_rx.mr = mr;
    p->ring_rx.state = RING_ON;
    p->ring_rx.rcvd = p->ring_rx.reported = 0;
    rd_rc.rings[rd_rc.nrings++] = peer;
}

/* Takes the next message of our ring for peer if it has fully arrived and
 * every send/recv message sent before it has been delivered. Returns 1 if
 * one was delivered, 0 if not, or RD_EINTERN on a malformed slot.
 *
 * The slot is complete when its head and its tail byte (whose place the
 * head's lengths give) both hold this lap's seq: the sender's one RDMA
 * Write places the tail last (see doc/verbs.md for the devices this
 * assumes). Every byte a message used is zeroed after it, so a tail place
 * never holds a stale seq. */
static int ring_take(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    uint32_t r = p->ring_rx.rcvd;
    char *slot = p->ring_rx.mem + (size_t)(r % (uint32_t)rd_rc.ring_nslots) * rd_rc.ring_slot_bytes;
    uint8_t seq = rd_rc_slot_seq(r, (unsigned)rd_rc.ring_nslots);
    if (__atomic_load_n((uint8_t *)(slot + offsetof(rd_rc_slot_t, seq)), __ATOMIC_ACQUIRE) != seq)
        return 0;
    rd_rc_slot_t h;
    memcpy(&h, slot, sizeof(h));
    if (RC_UNLIKELY(h.version != RD_RC_VERSION || h.hdrlen > RD_TP_HDR_MAX ||
                    h.len > rd_rc.ring_slot_bytes - sizeof(h) - 1 - h.hdrlen))
        return RD_EINTERN;
    size_t tail = sizeof(h) + h.hdrlen + h.len;
    if (__atomic_load_n((uint8_t *)(slot + tail), __ATOMIC_ACQUIRE) != seq)
        return 0;
    if (h.srq_sent != p->ring_rx.srq_rcvd)
        return 0;   /* a send/recv message sent before it is not delivered yet */
    p->credit.tx += h.credits;
    if (h.credits)
        rd_rc_issue_ops(peer);   /* a put_imm may wait for them */
    if (h.flags & RD_RING_F_ACK)
        ring_freed_to(p, h.ack);
    rd_rc.recv(peer, slot + sizeof(h), h.hdrlen, slot + sizeof(h) + h.hdrlen, h.len);
    /* Only now may the sender learn that the slot is free. */
    memset(slot, 0, tail + 1);
    p->ring_rx.rcvd = r + 1;
    return 1;
}

/* Delivers what can be delivered from peer, in the order it was sent:
 * held send/recv messages whose ring predecessors are in, ring messages
 * whose send/recv predecessors are in. Returns the count or a status. */
int rd_rc_peer_advance(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    int n = 0;
    for (;;) {
        rc_rxbuf_t *b = p->ring_rx.held;
        if (b) {
            rd_rc_prefix_t pre;
            memcpy(&pre, b->data, sizeof(pre));
            if (pre.ring_sent == (uint16_t)p->ring_rx.rcvd) {
                p->ring_rx.held = b->next;
                if (!p->ring_rx.held)
                    p->ring_rx.held_tail = NULL;
                deliver_srq(peer, b);
                n++;
                continue;
            }
            if (RC_UNLIKELY(p->ring_rx.state != RING_ON))
                return RD_EINTERN;   /* waits for ring messages we never offered room for */
        }
        if (p->ring_rx.state != RING_ON)
            return n;
        int k = ring_take(peer);
        if (k <= 0)
            return k < 0 ? k : n;
        n++;
    }
}

/* The peer offers its ring (we write into it from now on) and wants our
 * counter address in return. */
int rd_rc_on_ring(int peer, const char *data, uint32_t len)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    rd_rc_ring_msg_t m;
    if (len != sizeof(m) || p->ring_tx.on)
        return RD_EINTERN;
    memcpy(&m, data, sizeof(m));
    if (m.nslots < 2 || m.nslots > RD_RING_SLOTS_MAX || m.slot_bytes % 64 ||
        m.slot_bytes < sizeof(rd_rc_slot_t) + RD_TP_HDR_MAX + 1)
        return RD_EINTERN;
    p->ring_tx.raddr = m.addr;
    p->ring_tx.rkey = m.rkey;
    p->ring_tx.nslots = m.nslots;
    p->ring_tx.slot_bytes = m.slot_bytes;
    p->ring_tx.written = p->ring_tx.freed = 0;
    rd_rc.ctl[2 * peer] = 0;
    p->ring_tx.on = 1;
    p->ring_tx.ack_owed = 1;   /* sent at the end of the pass */
    if (!p->credit.due) {
        p->credit.due = 1;
        rd_rc.due[rd_rc.ndue++] = peer;
    }
    return RD_OK;
}

int rd_rc_on_ring_ack(int peer, const char *data, uint32_t len)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    rd_rc_ring_msg_t m;
    if (len != sizeof(m) || p->ring_rx.state != RING_ON)
        return RD_EINTERN;
    memcpy(&m, data, sizeof(m));
    p->ring_rx.ack_raddr = m.addr;
    p->ring_rx.ack_rkey = m.rkey;
    p->ring_rx.ack_known = 1;
    return RD_OK;
}

/* Nothing carried our ring position back and half the ring is owed: write
 * it into the sender's counter (no receive buffer, no completion there). */
static void ring_ack_write(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->sq.used + 2 > (uint32_t)rd_rc.sq_depth)
        return;   /* retried next pass */
    uint32_t *src = &rd_rc.ctl[2 * peer + 1];
    *src = p->ring_rx.rcvd;
    struct ibv_sge sge = { (uintptr_t)src, sizeof(*src), rd_rc.ctl_mr->lkey };
    struct ibv_send_wr wr = {
        .opcode = IBV_WR_RDMA_WRITE,
        .sg_list = &sge,
        .num_sge = 1,
        .send_flags = rd_rc.max_inline >= sizeof(*src) ? IBV_SEND_INLINE : 0,
        .wr.rdma = { .remote_addr = p->ring_rx.ack_raddr, .rkey = p->ring_rx.ack_rkey },
    };
    rc_pend_t pe = { .slot = -1 };
    if (post_chain(peer, &wr, &pe, 1) == RD_OK)
        p->ring_rx.reported = p->ring_rx.rcvd;
}

int rd_rc_poll_rings(void)
{
    int events = 0, status = 0;
    for (int i = 0; i < rd_rc.nrings; i++) {
        int peer = rd_rc.rings[i];
        rc_peer_t *p = &rd_rc.peers[peer];
        int k = rd_rc_peer_advance(peer);
        if (RC_UNLIKELY(k < 0))
            status = k;
        else
            events += k;
        if (p->ring_rx.ack_known && p->cm.state == RC_READY &&
            p->ring_rx.rcvd - p->ring_rx.reported >= (uint32_t)rd_rc.ring_nslots / 2)
            ring_ack_write(peer);
    }
    rd_rc_flush_reposts();
    return status ? status : events;
}
