/*
 * TCP sending: each peer's queue, the bursts held back to go out
 * together, and the writev that empties a queue. Kept apart from
 * receiving, which shares only the connection with it.
 *
 * A send is one sendmsg of frame header, p2p header and payload, with no
 * copy when the socket takes it all; the rest is copied to the peer's
 * queue, which progress writes out as the socket drains.
 *
 * Bursts (each sendmsg runs the whole TCP stack, with veth the receiver's
 * too, so a burst of small sends is paid per message): the first send to a
 * peer after a progress call is written at once (ping-pong latency is
 * untouched); a later one with at most RDMPI_TCP_COALESCE_MAX payload
 * bytes, before the next progress call, is copied to the peer's queue
 * ("held") and goes out with the rest of the burst in one sendmsg. The
 * rule: held frames are written at the next progress call (its start, so
 * any MPI call that waits, tests or probes, and the end of the call for
 * sends made by upcalls during it), by flush() (p2p calls it after every
 * blocking send to any peer, so MPI_Send never returns with its message,
 * or an earlier one, held), when a send of a larger message to that peer
 * comes (order), or when a peer's held bytes reach RD_TCP_HOLD_MAX. So a
 * held send goes out at the next MPI call that progresses or sends
 * blocking; MPI_Isend, MPI_Irecv and calls that neither wait nor send do
 * not write it, and a nonblocking send followed by no such call can wait
 * until the application's next one, as a send queued behind a full
 * socket always could. A peer's queue is bounded
 * (RDMPI_TCP_SENDQ_MAX): beyond it send() says RD_EAGAIN and p2p keeps the
 * message.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "transport/tcp/tcp_int.h"
#include "util/list.h"
#include "util/status.h"

/* Held-back bytes per peer beyond which a burst is written out at once
 * (one read buffer's worth at the receiver). */
#define RD_TCP_HOLD_MAX RD_TCP_RXBUF
/* Room of a queue chunk that later small frames are appended to. */
#define RD_TCP_CHUNK 65536
/* Queued frames written by one writev. */
#define RD_TCP_IOV 64

/* After a write to c's socket failed: 1 to write again at once (EINTR), 0
 * when the socket is full (rd_tcp_conn_flush runs again on EPOLLOUT), -1
 * when c failed (the peer is lost). */
static int write_failed(conn_t *c)
{
    if (errno == EINTR)
        return 1;
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        return 0;
    rd_tcp_peer_lost(c, strerror(errno));
    return -1;
}

/* Writes what c has to write: its control frame, then (once UP) the peer's
 * queue, until done or the socket is full. Returns -1 if c failed. */
int rd_tcp_conn_flush(conn_t *c)
{
    while (c->ctl_off < c->ctl_len) {
        ssize_t n = send(c->fd, c->ctl + c->ctl_off, c->ctl_len - c->ctl_off, MSG_NOSIGNAL);
        if (n < 0) {
            int rc = write_failed(c);
            if (rc > 0)
                continue;
            return rc;
        }
        c->ctl_off += (size_t)n;
    }
    if (c->state != C_UP)
        return 0;
    tpeer_t *p = &rd_tcp.peers[c->peer];
    while (!rd_list_empty(&p->q)) {
        struct iovec iov[RD_TCP_IOV];
        int k = 0;
        for (rd_list_t *e = p->q.next; e != &p->q && k < RD_TCP_IOV; e = e->next, k++) {
            out_t *o = rd_list_entry(e, out_t, link);
            iov[k].iov_base = o->data + o->off;
            iov[k].iov_len = o->len - o->off;
        }
        struct msghdr mh = { .msg_iov = iov, .msg_iovlen = (size_t)k };
        ssize_t n = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
        if (n < 0) {
            int rc = write_failed(c);
            if (rc > 0)
                continue;
            return rc;
        }
        size_t left = (size_t)n;
        while (left) {
            out_t *o = rd_list_entry(p->q.next, out_t, link);
            size_t k2 = o->len - o->off;
            if (left < k2) {
                o->off += left;
                p->qbytes -= left;
                break;
            }
            left -= k2;
            p->qbytes -= k2;
            rd_list_remove(&o->link);
            free(o);
        }
    }
    return 0;
}

/* Queues a frame for peer (copying header and payload, all but its first
 * skip bytes, which went out already), bypassing the bound. A frame that
 * fits in the room left in the last chunk is appended to it (one iovec
 * for a burst of small frames); else a new chunk is made. */
int rd_tcp_enqueue(tpeer_t *p, const rd_tcp_frame_t *f, const void *hdr, size_t hdrlen,
                   const void *payload, size_t len, size_t skip)
{
    size_t total = sizeof(*f) + hdrlen + len;
    size_t need = total - skip;
    out_t *o = rd_list_empty(&p->q) ? NULL : rd_list_entry(p->q.prev, out_t, link);
    if (!o || o->cap - o->len < need) {
        size_t cap = need < RD_TCP_CHUNK ? RD_TCP_CHUNK : need;
        o = malloc(sizeof(*o) + cap);
        if (!o)
            return RD_ENOMEM;
        o->len = o->off = 0;
        o->cap = cap;
        rd_list_push_back(&p->q, &o->link);
    }
    unsigned char tmp[RD_TCP_FRAME_LEN + RD_TCP_HDR_MAX];
    memcpy(tmp, f, sizeof(*f));
    if (hdrlen)
        memcpy(tmp + sizeof(*f), hdr, hdrlen);
    size_t head = sizeof(*f) + hdrlen;
    unsigned char *d = o->data + o->len;
    if (skip < head) {
        memcpy(d, tmp + skip, head - skip);
        d += head - skip;
        if (len)
            memcpy(d, payload, len);
    } else if (len) {
        memcpy(d, (const char *)payload + (skip - head), len - (skip - head));
    }
    o->len += need;
    p->qbytes += need;
    return RD_OK;
}

/* Drops what is queued for p (nothing of it will be written). */
void rd_tcp_queue_drop(tpeer_t *p)
{
    while (!rd_list_empty(&p->q)) {
        out_t *o = rd_list_entry(p->q.next, out_t, link);
        rd_list_remove(&o->link);
        free(o);
    }
    p->qbytes = 0;
}

/* Writes out what send() held back for p. */
static void flush_peer(tpeer_t *p)
{
    rd_list_remove(&p->held_link);
    p->held = 0;
    if (p->conn && p->conn->state == C_UP)
        rd_tcp_conn_flush(p->conn);
}

void rd_tcp_flush_held(void)
{
    while (!rd_list_empty(&rd_tcp.held))
        flush_peer(rd_list_entry(rd_tcp.held.next, tpeer_t, held_link));
}

int rd_tcp_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    if ((unsigned)peer >= (unsigned)rd_tcp.size || peer == rd_tcp.rank || !rd_tcp.peers ||
        hdrlen < 1 || hdrlen > RD_TCP_HDR_MAX || len > rd_tcp_transport.msg.frag_max)
        return RD_EINVAL;
    tpeer_t *p = &rd_tcp.peers[peer];
    if (p->bye || p->failed || rd_tcp.finalizing)
        return RD_EPEER;
    rd_tcp_frame_t f = { .type = RD_TCP_F_MSG, .version = RD_TCP_WIRE_VERSION,
                         .hdrlen = htole16((uint16_t)hdrlen), .len = htole32((uint32_t)len) };
    size_t total = sizeof(f) + hdrlen + len;
    int small = len <= rd_tcp.coalesce_max && rd_tcp.coalesce_max > 0;
    if (p->held && (!small || p->qbytes + total > RD_TCP_HOLD_MAX)) {
        /* The burst is over (a large message) or big enough: write it. */
        flush_peer(p);
        if (p->bye || p->failed)
            return RD_EPEER;
    }
    conn_t *c = p->conn;
    size_t sent = 0;
    if (c && c->state == C_UP && p->qbytes == 0 && c->ctl_off == c->ctl_len) {
        if (small && p->gen == rd_tcp.gen) {
            /* Not the first since the last progress call: hold it back
             * for one writev with the rest of the burst. */
            int rc = rd_tcp_enqueue(p, &f, hdr, hdrlen, payload, len, 0);
            /* The peer may still be on the held list with its queue
             * already written out (on EPOLLOUT): it goes on it once. */
            if (rc == RD_OK && !p->held) {
                p->held = 1;
                rd_list_push_back(&rd_tcp.held, &p->held_link);
            }
            return rc;
        }
        p->gen = rd_tcp.gen;
        struct iovec iov[3] = {
            { &f, sizeof(f) }, { (void *)hdr, hdrlen }, { (void *)payload, len },
        };
        struct msghdr mh = { .msg_iov = iov, .msg_iovlen = len ? 3 : 2 };
        ssize_t n;
        do
            n = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n == (ssize_t)total)
            return RD_OK;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            rd_tcp_peer_lost(c, strerror(errno));
            return RD_EPEER;
        }
        if (n > 0)
            sent = (size_t)n;   /* the rest is queued; EPOLLOUT resumes it */
    } else if (p->qbytes > 0 &&
               ((len >= RD_TCP_BIG && !small) || p->qbytes + total > rd_tcp.sendq_max)) {
        /* A big payload is never copied whole behind others: the caller
         * keeps it (no copy) until the queue has drained. */
        return RD_EAGAIN;
    }
    /* Connect first: a refused connection (a dead peer) takes nothing. A
     * peer whose connection we wait for after a NACK gets its queue later. */
    int rc;
    if (!p->conn && rd_list_empty(&p->retry) && (rc = rd_tcp_connect(peer)) != RD_OK)
        return rc;
    return rd_tcp_enqueue(p, &f, hdr, hdrlen, payload, len, sent);
}

void rd_tcp_push(void)
{
    if (!rd_list_empty(&rd_tcp.held))
        rd_tcp_flush_held();
}
