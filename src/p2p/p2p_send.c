/*
 * The send side of p2p (see p2p.h, proto.h): a message that fits the
 * transport's eager limit goes out whole (EAGER, or SYNC EAGER answered by
 * an ACK); a larger one starts a rendezvous (p2p_rndv.c).
 *
 * Ordering: everything for one peer goes through that peer's send queue once
 * the transport has pushed back (RD_EAGAIN), so messages leave in the order
 * they were sent and MPI's non-overtaking rule holds; progress
 * (p2p_progress.c) drains the queues. DATA fragments carry their offset and
 * need no order.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "p2p/p2p_impl.h"

static void mark_busy(peer_t *p)
{
    if (rd_list_empty(&p->busy_link))
        rd_list_push_back(&rd_p2p.busy_peers, &p->busy_link);
}

/* Sends now if nothing is queued for the peer and the transport has room;
 * otherwise queues a copy of the header (the payload stays the caller's until
 * req completes; control messages have none). Returns RD_OK when sent,
 * RD_EAGAIN when queued, or a negative status. */
int rd_p2p_post(int dst, const void *hdr, size_t hdrlen, const void *payload,
                size_t len, rd_request_t *req)
{
    peer_t *p = &rd_p2p.peers[dst];
    if (rd_list_empty(&p->sendq)) {
        int rc = p->tp->send(dst, hdr, hdrlen, payload, len);
        if (rc != RD_EAGAIN)
            return rc;
    }
    qmsg_t *q = malloc(sizeof(*q));
    if (!q)
        return RD_ENOMEM;
    memcpy(&q->hdr, hdr, hdrlen);
    q->hdrlen = hdrlen;
    q->payload = payload;
    q->len = len;
    q->req = req;
    q->done = NULL;
    rd_list_push_back(&p->sendq, &q->link);
    mark_busy(p);
    return RD_EAGAIN;
}

#ifdef RD_FAULT_INJECTION
/* RDMPI_P2P_FORGE_IDS (tests only): before a control message, copies of it
 * whose id of the receiver's request (rreq for PUT_FIN, else sreq) names
 * that request's slot in the generation before and after, a slot far out
 * of range, and what an address looks like: the receiver must drop them
 * all, then act on the real one. */
static void forge_ids(int dst, const rd_msg_hdr_t *real)
{
    int theirs_in_rreq = real->type == RD_MSG_PUT_FIN;
    uint64_t id = theirs_in_rreq ? real->rreq : real->sreq;
    const uint64_t fake[] = { id - (1ull << 32), id + (1ull << 32), id + (1ull << 30),
                              0x00007ffd5c3a1e40ull };
    for (size_t i = 0; i < sizeof(fake) / sizeof(fake[0]); i++) {
        rd_msg_hdr_t h;
        memcpy(&h, real, RD_HDR_CTRL_LEN);
        if (theirs_in_rreq)
            h.rreq = fake[i];
        else
            h.sreq = fake[i];
        (void)rd_p2p_post(dst, &h, RD_HDR_CTRL_LEN, NULL, 0, NULL);
    }
}
#endif

void rd_p2p_send_ctrl(int dst, int type, uint64_t sreq, uint64_t rreq)
{
    rd_msg_hdr_t h;
    memset(&h, 0, RD_HDR_CTRL_LEN);
    h.type = (uint8_t)type;
    h.version = RD_PROTO_VERSION;
    h.sreq = sreq;
    h.rreq = rreq;
#ifdef RD_FAULT_INJECTION
    if (__builtin_expect(rd_p2p.forge, 0))
        forge_ids(dst, &h);
#endif
    /* A failure here means the peer is gone; the job is ending anyway. */
    (void)rd_p2p_post(dst, &h, RD_HDR_CTRL_LEN, NULL, 0, NULL);
}

int rd_p2p_send_now(rd_comm_t *c, const void *buf, size_t count, const rd_datatype_t *dt,
                    int rank, int tag)
{
    int dst = rd_comm_world(c, rank);
    peer_t *p = &rd_p2p.peers[dst];
    const rd_transport_t *tp = p->tp;
    size_t bytes = count * dt->size;
    /* Queued messages go first (non-overtaking); the rest needs a request. */
    if (!tp || bytes > tp->msg.eager_max || !rd_dt_is_contig(dt, count) || !rd_list_empty(&p->sendq))
        return RD_EAGAIN;
    rd_msg_hdr_t h;
    h.type = RD_MSG_EAGER;
    h.flags = 0;
    h.keylen = 0;
    h.version = RD_PROTO_VERSION;
    h.ctx = c->ctx;
    h.src = c->rank;
    h.tag = tag;
    h.len = bytes;
    int rc = tp->send(dst, &h, RD_HDR_EAGER_LEN, rd_dt_contig_ptr(buf, dt), bytes);
    /* A blocking send returns without progress: nothing may stay held
     * (this message, or earlier nonblocking sends to any peer). */
    for (int i = 0; i < rd_p2p.nactive; i++)
        if (rd_p2p.active[i]->push)
            rd_p2p.active[i]->push();
    return rc;
}

int rd_p2p_isend(rd_request_t *r, int coll)
{
    int dst = rd_comm_world(r->comm, r->peer);
    peer_t *p = &rd_p2p.peers[dst];
    const rd_transport_t *tp = p->tp;
    rd_msg_hdr_t h;
    int rc;

    if (!tp)
        return rd_p2p_unreachable(dst);
    r->peer_world = dst;
    P(r)->bytes = r->count * r->dt->size;
    int contig = rd_dt_is_contig(r->dt, r->count);

    if (P(r)->bytes <= tp->msg.eager_max) {
        const void *payload = P(r)->bytes ? rd_dt_contig_ptr(r->buf, r->dt) : NULL;
        if (!contig && P(r)->bytes) {
            r->tmp = malloc(P(r)->bytes);
            if (!r->tmp)
                return RD_ENOMEM;
            rd_dt_pack(r->buf, r->count, r->dt, 0, r->tmp, P(r)->bytes);
            payload = r->tmp;
        }
        fill_hdr(&h, RD_MSG_EAGER, r, coll);
        size_t hdrlen = RD_HDR_EAGER_LEN;
        if (r->mode == RD_MODE_SYNC) {
            h.flags = RD_MSG_F_SYNC;
            h.sreq = own_id(r);
            if (!h.sreq)
                return RD_ENOMEM;
            hdrlen = RD_HDR_SYNC_LEN;
            /* The loopback answers inside the send: the ACK must find us waiting. */
            P(r)->state = RD_RS_WAIT_ACK;
        }
        rc = rd_p2p_post(dst, &h, hdrlen, payload, P(r)->bytes, r);
        if (rc == RD_OK)
            eager_sent(r);
        else if (rc == RD_EAGAIN)
            P(r)->state = RD_RS_QUEUED;
        else {
            id_end(r);
            return rc;
        }
        return RD_OK;
    }

    return rd_p2p_rndv_send(r, tp, dst, contig, coll);
}

static void on_ack(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)hdrlen, (void)payload, (void)len;
    rd_request_t *s = req_by_id(h->sreq, peer, RD_RS_WAIT_ACK);
    if (s)
        finish(s, RD_OK);
}

void rd_p2p_send_register(void)
{
    rd_p2p_am_register(RD_MSG_ACK, on_ack);
}
