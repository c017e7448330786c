/*
 * Failed peers: a transport with fail.reports reports a peer that is gone
 * (rd_p2p_on_peer_failed). Every operation that needs it then ends with the
 * error: queued and future sends to it, receives naming it, requests waiting
 * for its ACK/CTS/FIN/DATA (kept on the peer's waiting list, only for such
 * transports), and receives from ANY_SOURCE on a communicator it belongs to
 * (the sender they wait for may be the dead one; ULFM's rule for blocking
 * receives, without its acknowledgement calls). Messages that arrived before
 * the failure can still be received. None of this touches a shm-only job's
 * fast path beyond one flag test when a receive is posted.
 */
#include "p2p/p2p_impl.h"

/* The failed job rank whose loss dooms a receive from src (a rank or
 * RD_ANY_SOURCE) on c, or -1. */
int rd_p2p_failed_sender(const rd_comm_t *c, int src)
{
    if (src != RD_ANY_SOURCE) {
        int w = rd_comm_world(c, src);
        return rd_p2p.peers[w].failed ? w : -1;
    }
    for (int i = 0, n = rd_comm_remote_size(c); i < n; i++) {
        int w = rd_comm_world(c, i);
        if (rd_p2p.peers[w].failed)
            return w;
    }
    return -1;
}

/* Ends a posted receive (already out of matching) because peer failed. */
static void fail_recv(rd_request_t *r, int peer, int status)
{
    r->peer_world = peer;
    r->st_bytes = 0;
    finish(r, status);
}

/* A receive was just posted (not matched): if its sender is already known
 * to be gone, end it now; else let the sender's transport watch it. */
void __attribute__((noinline)) rd_p2p_recv_posted(rd_match_q_t *q, rd_request_t *r)
{
    if (rd_p2p.nfailed) {
        int w = rd_p2p_failed_sender(r->comm, r->peer);
        if (w >= 0) {
            rd_match_cancel(q, &P(r)->match);
            fail_recv(r, w, rd_p2p.peers[w].failed);
            return;
        }
    }
    if (r->peer != RD_ANY_SOURCE) {
        int w = rd_comm_world(r->comm, r->peer);
        const rd_transport_t *tp = rd_p2p.peers[w].tp;
        if (tp && tp->watch)
            tp->watch(w);
        if (!tp) {
            /* Nothing can come from a peer no transport reaches (p2p_reach.c). */
            rd_match_cancel(q, &P(r)->match);
            fail_recv(r, w, rd_p2p_unreachable(w));
        }
    }
}

/* Transport upcall: peer is gone. */
void rd_p2p_on_peer_failed(int peer, int status)
{
    peer_t *p = &rd_p2p.peers[peer];
    if (p->failed || peer == rd_p2p.rank)
        return;
    p->failed = status;
    rd_p2p.nfailed++;
    rd_p2p.recv_check = 1;
    /* Queued sends: the messages will never leave. */
    while (!rd_list_empty(&p->sendq)) {
        qmsg_t *q = rd_list_entry(p->sendq.next, qmsg_t, link);
        rd_list_remove(&q->link);
        if (q->req)
            finish(q->req, status);
        else if (q->done)
            q->done(q->ctx, status);
        free(q);
    }
    if (!rd_list_empty(&p->busy_link)) {
        rd_list_remove(&p->busy_link);
        rd_list_init(&p->busy_link);
    }
    /* Requests waiting for its ACK, CTS, FIN or DATA. */
    while (!rd_list_empty(&p->waiting)) {
        rd_request_t *r = req_of(rd_container_of(p->waiting.next, p2p_req_t, wait_link));
        rd_p2p_release_keys(r);
        r->peer_world = peer;
        finish(r, status);
    }
    /* Posted receives that only it could satisfy, or from ANY_SOURCE on a
     * communicator it belongs to. */
    for (uint32_t ctx = 0; ctx < rd_p2p.nqueues; ctx++) {
        rd_match_q_t *q = rd_p2p.queues[ctx];
        if (!q || q->n_posted == 0)
            continue;
        for (int src = -1; src < q->nsrc; src++) {
            rd_list_t *head = src < 0 ? &q->posted_any : &q->posted[src];
            rd_list_t *pos, *tmp;
            rd_list_for_each_safe(pos, tmp, head) {
                rd_request_t *r = req_of(rd_container_of(pos, p2p_req_t, match.link));
                if (rd_p2p_failed_sender(r->comm, P(r)->match.src) != peer)
                    continue;
                rd_match_cancel(q, &P(r)->match);
                fail_recv(r, peer, status);
            }
        }
    }
}

int rd_p2p_failed_peer(void)
{
    for (int i = 0; rd_p2p.nfailed && i < rd_p2p.size; i++)
        if (rd_p2p.peers[i].failed)
            return i;
    return -1;
}
