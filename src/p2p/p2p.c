/*
 * Point-to-point protocols and the progress engine (see p2p.h, proto.h).
 *
 * Send side: a message that fits the transport's eager limit goes out whole;
 * a larger one sends an RTS and waits. If the transport can read remote
 * memory (RD_TP_CAP_GET) and both buffers are contiguous, the receiver reads
 * the data straight into the user buffer and answers FIN (RDMPI_RNDV=get or
 * auto; auto splits large ones, see proto.h). With RDMPI_RNDV=put and a
 * transport that writes remote memory (RD_TP_CAP_PUT), the receiver answers
 * with the key of its buffer and the sender writes the whole message, then
 * PUT_FIN. Otherwise the receiver answers CTS and the sender streams DATA
 * fragments that are unpacked in place (non-contiguous buffers, truncated
 * receives on the put path, transports without get or put).
 *
 * Ordering: everything for one peer goes through that peer's send queue once
 * the transport has pushed back (RD_EAGAIN), so messages leave in the order
 * they were sent and MPI's non-overtaking rule holds. DATA fragments carry
 * their offset and need no order.
 *
 * Receive side: the transports call on_message() for each arrival; it matches
 * the header against the context's posted receives (matching on arrival, so a
 * posted receive is filled straight from the transport's buffer) or keeps the
 * message as unexpected.
 *
 * Failed peers: a transport with RD_TP_CAP_FAILS reports a peer that is gone
 * (on_peer_failed). Every operation that needs it then ends with the error:
 * queued and future sends to it, receives naming it, requests waiting for
 * its ACK/CTS/FIN/DATA (kept on the peer's waiting list, only for such
 * transports), and receives from ANY_SOURCE on a communicator it belongs to
 * (the sender they wait for may be the dead one; ULFM's rule for blocking
 * receives, without its acknowledgement calls). Messages that arrived before
 * the failure can still be received. None of this touches a shm-only job's
 * fast path beyond one flag test when a receive is posted.
 */
#include "p2p/p2p.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datatype.h"
#include "p2p/proto.h"
#include "transport/transport.h"
#include "util/env.h"
#include "util/status.h"

extern const rd_transport_t rd_self_transport;
void rd_self_set_recv(rd_tp_recv_fn fn, int rank);

/* p2p's state in a send or receive request (rd_request_t.priv). */
enum p2p_req_state {
    RD_RS_IDLE,
    RD_RS_POSTED,        /* receive: queued in the matching engine */
    RD_RS_WAIT_ACK,      /* sync eager send: sent, waiting for the match ack */
    RD_RS_WAIT_CTS,      /* rendezvous send: RTS sent, waiting for CTS or FIN */
    RD_RS_STREAMING,     /* rendezvous send: sending fragments after CTS */
    RD_RS_RECV_DATA,     /* rendezvous receive: fragments or a get in flight */
    RD_RS_QUEUED,        /* send: waiting in a per-peer queue for ring space */
};

typedef struct p2p_req {
    uint8_t state;             /* enum p2p_req_state */
    uint8_t keyed;             /* rendezvous: transport keys to release (RD_KEYED_*) */
    uint8_t counted;           /* rendezvous send: counted in its peer's rndv_sends */
    int parts;                 /* rendezvous: completions still awaited (get/put halves) */
    rd_match_elem_t match;     /* posted receive */
    size_t bytes;              /* packed message length (send) / capacity (recv) */
    size_t offset;             /* rendezvous: bytes moved so far */
    size_t key_off, key_len;   /* rendezvous: the part of buf keyed for a peer's put */
    uint64_t remote;           /* rendezvous: the peer's request id */
    rd_list_t link;            /* in p2p.streaming while streaming DATA */
    rd_list_t wait_link;       /* waiting on a peer that may fail (next NULL: not) */
} p2p_req_t;

_Static_assert(sizeof(p2p_req_t) <= RD_REQ_PRIV_SIZE, "p2p's request state fits its area");
_Static_assert(_Alignof(p2p_req_t) <= 8, "the request's private area is 8-byte aligned");

static inline p2p_req_t *P(rd_request_t *r)
{
    return (p2p_req_t *)(void *)r->priv;
}

static inline rd_request_t *req_of(p2p_req_t *pr)
{
    return (rd_request_t *)(void *)((char *)pr - offsetof(rd_request_t, priv));
}

static inline rd_request_t *req_of_match(rd_match_elem_t *e)
{
    return req_of(rd_container_of(e, p2p_req_t, match));
}

/* A message queued for a peer whose transport has no room yet. */
typedef struct qmsg {
    rd_list_t link;
    rd_request_t *req;      /* eager send to complete once sent, or NULL (control) */
    rd_p2p_am_done_fn done; /* or an active message's owner to tell (rd_p2p_am_send) */
    void *ctx;
    const void *payload;
    size_t len;
    size_t hdrlen;
    rd_msg_hdr_t hdr;
} qmsg_t;

/* Key bits in rd_request_t.keyed: which memory this side keyed for the peer. */
enum {
    RD_KEYED_SEND = 1 << 0,     /* the sender's whole buffer (RTS with F_GET) */
    RD_KEYED_PART = 1 << 1,     /* the receiver's part the sender writes (PUT): P(r)->key_off, key_len */
};

#define RD_TP_MAX 8   /* transports compiled in, at most */

typedef struct peer {
    const rd_transport_t *tp;   /* NULL: unreachable */
    rd_list_t sendq;            /* qmsg_t, in send order */
    rd_list_t busy_link;        /* in busy_peers while sendq is not empty */
    int track;                  /* tp reports failures: keep the waiting list */
    int failed;                 /* 0, or the status the peer failed with */
    rd_list_t waiting;          /* requests (wait_link) waiting on a message from it */
    unsigned stream_full;       /* p2p.pass in which it got no more DATA (refused, or its share) */
    unsigned stream_pass;       /* p2p.pass that stream_bytes counts */
    size_t stream_bytes;        /* DATA bytes streamed to it in that pass */
    unsigned rndv_sends;        /* our rendezvous sends to it not yet complete */
} peer_t;

/* An unexpected message: an EAGER with its payload copied, or an RTS. */
typedef struct unexp {
    rd_match_elem_t match;
    int peer;                   /* job rank of the sender */
    uint8_t type, flags, keylen;
    size_t len;
    uint64_t sreq, addr;
    uint8_t key[RD_TP_KEY_MAX];
    char data[];
} unexp_t;

static struct {
    int rank, size;
    peer_t *peers;
    const rd_transport_t *inited[RD_TP_MAX];  /* initialized, finalized in reverse */
    const rd_transport_t *active[RD_TP_MAX];  /* carry some peer: polled by progress */
    int ninited, nactive;
    rd_list_t busy_peers;
    rd_list_t streaming;               /* send requests streaming DATA after a CTS */
    rd_match_q_t **queues;             /* by context id */
    uint32_t nqueues;
    char *scratch;                     /* packing buffer for non-contiguous fragments */
    size_t scratch_len;
    unsigned spin;                     /* idle polls before yielding */
    size_t split_min;                  /* RDMPI_RNDV_SPLIT; 0: each transport's split_min */
    int split_cpus;                    /* a CPU per local rank: a sender can take a split */
    int verbose;                       /* RDMPI_VERBOSE */
    unsigned long reads_whole, reads_split; /* rendezvous received by direct read */
    int rndv;                          /* RDMPI_RNDV: enum rndv_mode */
    rd_p2p_am_fn am[RD_AM_TYPES];      /* handlers by message type (EAGER is inline) */
    rd_progress_hook_fn hooks[RD_PROGRESS_HOOKS_MAX];
    int nhooks;                        /* registered */
    unsigned hooks_on;                 /* bit i: hooks[i] is active */
    int recv_check;                    /* a transport watches peers, or a peer failed */
    int nfailed;                       /* peers reported failed */
    unsigned pass;                     /* push_queues calls, for peer_t.stream_full */
} p2p;

/* RDMPI_RNDV: how rendezvous data moves when the transport can do both. */
enum rndv_mode {
    RNDV_AUTO,   /* the receiver reads; large messages split get + put (today's default) */
    RNDV_GET,    /* the receiver reads the whole message */
    RNDV_PUT,    /* the sender writes the whole message into the receiver's buffer */
};

int rd_p2p_world_rank(void) { return p2p.rank; }
int rd_p2p_world_size(void) { return p2p.size; }

int rd_p2p_failed_peer(void)
{
    for (int i = 0; p2p.nfailed && i < p2p.size; i++)
        if (p2p.peers[i].failed)
            return i;
    return -1;
}

/* ---- matching queues by context id ---- */

/* Creates the queue of context ctx on first use. */
static rd_match_q_t *queue_new(uint32_t ctx)
{
    if (ctx >= p2p.nqueues) {
        uint32_t n = p2p.nqueues ? p2p.nqueues : 64;
        while (n <= ctx)
            n *= 2;
        rd_match_q_t **q = realloc(p2p.queues, n * sizeof(*q));
        if (!q)
            return NULL;
        memset(q + p2p.nqueues, 0, (n - p2p.nqueues) * sizeof(*q));
        p2p.queues = q;
        p2p.nqueues = n;
    }
    rd_match_q_t *q = malloc(sizeof(*q));
    if (!q || rd_match_q_init(q, p2p.size) != RD_OK) {
        free(q);
        return NULL;
    }
    p2p.queues[ctx] = q;
    return q;
}

static inline rd_match_q_t *queue_of(uint32_t ctx)
{
    if (__builtin_expect(ctx < p2p.nqueues && p2p.queues[ctx] != NULL, 1))
        return p2p.queues[ctx];
    return queue_new(ctx);
}

int rd_p2p_attach(rd_comm_t *c)
{
    c->mq = queue_of(c->ctx);
    c->mq_coll = queue_of(c->ctx + 1);
    return c->mq && c->mq_coll ? RD_OK : RD_ENOMEM;
}

/* ---- sending ---- */

static void mark_busy(peer_t *p)
{
    if (rd_list_empty(&p->busy_link))
        rd_list_push_back(&p2p.busy_peers, &p->busy_link);
}

/* r waits for a message from peer (ACK, CTS, FIN, DATA): if the peer's
 * transport can report its failure, keep r where on_peer_failed finds it. */
static inline void track(rd_request_t *r, int peer)
{
    peer_t *p = &p2p.peers[peer];
    if (__builtin_expect(p->track, 0) && !P(r)->wait_link.next)
        rd_list_push_back(&p->waiting, &P(r)->wait_link);
}

static inline void untrack(rd_request_t *r)
{
    if (__builtin_expect(P(r)->wait_link.next != NULL, 0)) {
        rd_list_remove(&P(r)->wait_link);
        P(r)->wait_link.next = NULL;
    }
}

/* A rendezvous send is over (complete, or failed). */
static inline void rndv_uncount(rd_request_t *r)
{
    if (P(r)->counted) {
        P(r)->counted = 0;
        p2p.peers[r->peer_world].rndv_sends--;
    }
}

/* Completion of a request that may be tracked. */
static inline void finish(rd_request_t *r, int err)
{
    untrack(r);
    rndv_uncount(r);
    rd_req_complete(r, err);
}

/* Sends now if nothing is queued for the peer and the transport has room;
 * otherwise queues a copy of the header (the payload stays the caller's until
 * req completes; control messages have none). Returns RD_OK when sent,
 * RD_EAGAIN when queued, or a negative status. */
static int post(int dst, const void *hdr, size_t hdrlen, const void *payload,
                size_t len, rd_request_t *req)
{
    peer_t *p = &p2p.peers[dst];
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

static void send_ctrl(int dst, int type, uint64_t sreq, uint64_t rreq)
{
    rd_msg_hdr_t h;
    memset(&h, 0, RD_HDR_CTRL_LEN);
    h.type = (uint8_t)type;
    h.version = RD_PROTO_VERSION;
    h.sreq = sreq;
    h.rreq = rreq;
    /* A failure here means the peer is gone; the job is ending anyway. */
    (void)post(dst, &h, RD_HDR_CTRL_LEN, NULL, 0, NULL);
}

static inline void fill_hdr(rd_msg_hdr_t *h, int type, rd_request_t *r, int coll)
{
    h->type = (uint8_t)type;
    h->flags = 0;
    h->keylen = 0;
    h->version = RD_PROTO_VERSION;
    h->ctx = r->comm->ctx + (coll ? 1 : 0);
    h->src = r->comm->rank;
    h->tag = r->tag;
    h->len = P(r)->bytes;
}

/* The eager completion rule: a standard send is done once the transport took
 * the data; a synchronous one when the receiver acknowledges the match. */
static void eager_sent(rd_request_t *r)
{
    if (r->mode == RD_MODE_SYNC) {
        P(r)->state = RD_RS_WAIT_ACK;
        track(r, r->peer_world);
    } else
        rd_req_complete(r, RD_OK);
}

int rd_p2p_send_now(rd_comm_t *c, const void *buf, size_t count, const rd_datatype_t *dt,
                    int rank, int tag)
{
    int dst = rd_comm_world(c, rank);
    peer_t *p = &p2p.peers[dst];
    const rd_transport_t *tp = p->tp;
    size_t bytes = count * dt->size;
    /* Queued messages go first (non-overtaking); the rest needs a request. */
    if (!tp || bytes > tp->eager_max || !rd_dt_is_contig(dt, count) || !rd_list_empty(&p->sendq))
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
    for (int i = 0; i < p2p.nactive; i++)
        if (p2p.active[i]->flush)
            p2p.active[i]->flush();
    return rc;
}

int rd_p2p_isend(rd_request_t *r, int coll)
{
    int dst = rd_comm_world(r->comm, r->peer);
    peer_t *p = &p2p.peers[dst];
    const rd_transport_t *tp = p->tp;
    rd_msg_hdr_t h;
    int rc;

    if (!tp)
        return RD_EPEER;
    r->peer_world = dst;
    P(r)->bytes = r->count * r->dt->size;
    int contig = rd_dt_is_contig(r->dt, r->count);

    if (P(r)->bytes <= tp->eager_max) {
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
            h.sreq = (uint64_t)(uintptr_t)r;
            hdrlen = RD_HDR_SYNC_LEN;
        }
        rc = post(dst, &h, hdrlen, payload, P(r)->bytes, r);
        if (rc == RD_OK)
            eager_sent(r);
        else if (rc == RD_EAGAIN)
            P(r)->state = RD_RS_QUEUED;
        else
            return rc;
        return RD_OK;
    }

    /* Rendezvous. */
    fill_hdr(&h, RD_MSG_RTS, r, coll);
    h.sreq = (uint64_t)(uintptr_t)r;
    size_t keylen = 0;
    if (p2p.rndv == RNDV_PUT && (tp->caps & RD_TP_CAP_PUT) && contig) {
        h.flags = RD_MSG_F_PUT;   /* the receiver answers with its key */
    } else if ((tp->caps & RD_TP_CAP_GET) && contig) {
        const void *base = rd_dt_contig_ptr(r->buf, r->dt);
        keylen = sizeof(h.key);
        if (tp->mem_key(base, P(r)->bytes, h.key, &keylen) == RD_OK) {
            h.flags = RD_MSG_F_GET;
            h.keylen = (uint8_t)keylen;
            P(r)->keyed = RD_KEYED_SEND;
            h.addr = (uint64_t)(uintptr_t)base;
        } else {
            keylen = 0;
        }
    }
    P(r)->state = RD_RS_WAIT_CTS;
    P(r)->parts = 1; /* the FIN, or our whole put; a split adds our put of its half */
    rc = post(dst, &h, RD_HDR_RTS_LEN(keylen), NULL, 0, NULL);
    if (rc < 0)
        return rc;
    P(r)->counted = 1;
    p2p.peers[dst].rndv_sends++;
    track(r, dst);
    return RD_OK;
}

static void release_keys(rd_request_t *r);

/* Largest DATA fragment tp takes (transport.h: frag_max). */
static inline size_t frag_max(const rd_transport_t *tp)
{
    return tp->frag_max > tp->eager_max ? tp->frag_max : tp->eager_max;
}

/* DATA bytes one push_queues pass streams to one peer at most: a send of
 * many megabytes into a socket with a big buffer leaves room for the
 * progress engine to read the other peers (and this one) in between. */
#define RD_STREAM_PASS_MAX (1024 * 1024)

/* A streaming send is over: all its DATA went out (RD_OK), or the
 * transport failed it. */
static void stream_end(rd_request_t *r, int status)
{
    rd_list_remove(&P(r)->link);
    release_keys(r);
    rndv_uncount(r);
    rd_req_complete(r, status);
}

/* Pushes DATA fragments of a streaming send until done, the transport is
 * full or the peer had its share of this pass (RD_STREAM_PASS_MAX).
 * Returns 1 if it sent something or the request finished. Once the
 * transport refused a fragment for a peer, its other streaming sends wait
 * for the next pass (each would only be refused again). */
static int stream(rd_request_t *r)
{
    peer_t *p = &p2p.peers[r->peer_world];
    if (p->stream_full == p2p.pass)
        return 0;
    const rd_transport_t *tp = p->tp;
    size_t fmax = frag_max(tp);
    int contig = rd_dt_is_contig(r->dt, r->count);
    rd_msg_hdr_t h;
    memset(&h, 0, RD_HDR_CTRL_LEN);
    h.type = RD_MSG_DATA;
    h.version = RD_PROTO_VERSION;
    h.rreq = P(r)->remote;
    size_t start = P(r)->offset;
    while (P(r)->offset < P(r)->bytes) {
        if (p->stream_pass != p2p.pass) {
            p->stream_pass = p2p.pass;
            p->stream_bytes = 0;
        } else if (p->stream_bytes >= RD_STREAM_PASS_MAX) {
            p->stream_full = p2p.pass;   /* its turn is over for this pass */
            return P(r)->offset != start;
        }
        size_t n = P(r)->bytes - P(r)->offset;
        if (n > fmax)
            n = fmax;
        const void *payload;
        if (contig) {
            payload = (const char *)rd_dt_contig_ptr(r->buf, r->dt) + P(r)->offset;
        } else {
            rd_dt_pack(r->buf, r->count, r->dt, P(r)->offset, p2p.scratch, n);
            payload = p2p.scratch;
        }
        h.len = P(r)->offset;
        int rc = tp->send(r->peer_world, &h, RD_HDR_CTRL_LEN, payload, n);
        if (rc == RD_EAGAIN) {
            p->stream_full = p2p.pass;
            return P(r)->offset != start;
        }
        if (rc != RD_OK) {
            stream_end(r, rc);
            return 1;
        }
        P(r)->offset += n;
        p->stream_bytes += n;
    }
    stream_end(r, RD_OK);
    return 1;
}

/* ---- receiving ---- */

static void set_status(rd_request_t *r, int src, int tag, size_t len)
{
    r->st_source = src;
    r->st_tag = tag;
    r->st_bytes = len < P(r)->bytes ? len : P(r)->bytes;
    r->error = len > P(r)->bytes ? RD_ETRUNC : RD_OK;
}

/* A matched eager message: unpack what fits, acknowledge a synchronous send. */
static void deliver_eager(rd_request_t *r, int peer, int src, int tag, int flags,
                          uint64_t sreq, const void *payload, size_t len)
{
    set_status(r, src, tag, len);
    if (r->dt->contig)
        memcpy(rd_dt_contig_ptr(r->buf, r->dt), payload, r->st_bytes);
    else
        rd_dt_unpack(r->buf, r->count, r->dt, 0, payload, r->st_bytes);
    if (flags & RD_MSG_F_SYNC)
        send_ctrl(peer, RD_MSG_ACK, sreq, 0);
    rd_req_complete(r, r->error);
}

/* The rendezvous is over: lets the transport drop what backs our keys. */
static void release_keys(rd_request_t *r)
{
    if (!P(r)->keyed)
        return;
    const rd_transport_t *tp = p2p.peers[r->peer_world].tp;
    if (tp->mem_release) {
        char *base = rd_dt_contig_ptr(r->buf, r->dt);
        if (P(r)->keyed & RD_KEYED_SEND)
            tp->mem_release(base, P(r)->bytes);
        if (P(r)->keyed & RD_KEYED_PART)
            tp->mem_release(base + P(r)->key_off, P(r)->key_len);
    }
    P(r)->keyed = 0;
}

/* One part of a rendezvous finished (the receiver's get, the sender's put,
 * or a FIN / PUT_FIN for the other side's part); the request completes with
 * the last one. */
static void part_done(rd_request_t *r, int status)
{
    if (status != RD_OK)
        r->error = status;
    if (--P(r)->parts <= 0) {
        release_keys(r);
        finish(r, r->error);
    }
}

static void get_done(void *ctx, int status)
{
    rd_request_t *r = ctx;
    send_ctrl(r->peer_world, RD_MSG_FIN, P(r)->remote, 0);
    part_done(r, status);
}

static void put_done(void *ctx, int status)
{
    rd_request_t *s = ctx;
    send_ctrl(s->peer_world, RD_MSG_PUT_FIN, 0, P(s)->remote);
    part_done(s, status);
}

/* Asks the sender of a matched RTS to write bytes [off, len) straight into
 * the (contiguous) user buffer: a PUT with the key of that part. flags is 0
 * (a split: we read [0, off) ourselves) or RD_MSG_F_WHOLE (off is 0). On
 * RD_OK one more part (the PUT_FIN) is awaited. */
static int ask_put(const rd_transport_t *tp, rd_request_t *r, int peer, size_t len,
                   uint64_t sreq, size_t off, int flags)
{
    char *base = rd_dt_contig_ptr(r->buf, r->dt);
    rd_msg_hdr_t h;
    memset(&h, 0, offsetof(rd_msg_hdr_t, key));
    size_t keylen = sizeof(h.key);
    int rc = tp->mem_key(base + off, len - off, h.key, &keylen);
    if (rc != RD_OK)
        return rc;
    h.type = RD_MSG_PUT;
    h.flags = (uint8_t)flags;
    h.version = RD_PROTO_VERSION;
    h.keylen = (uint8_t)keylen;
    h.len = off;
    h.sreq = sreq;
    h.rreq = (uint64_t)(uintptr_t)r;
    h.addr = (uint64_t)(uintptr_t)(base + off);
    P(r)->keyed |= RD_KEYED_PART;
    P(r)->key_off = off;
    P(r)->key_len = len - off;
    rc = post(peer, &h, RD_HDR_RTS_LEN(keylen), NULL, 0, NULL);
    if (rc < 0) {
        release_keys(r);
        return rc;
    }
    P(r)->parts++;
    return RD_OK;
}

/* Whether a rendezvous of len bytes from peer is worth splitting. By
 * default, from the transport's split_min on, and only when the sender is
 * free to write its half: it has a CPU of its own, and we have no
 * rendezvous send of our own to it under way (then it is reading ours, and
 * both cores copy anyway, as in a halo exchange). RDMPI_RNDV_SPLIT splits
 * every one from its size on (tests force the path with 1). */
static int split_worth(const rd_transport_t *tp, int peer, size_t len)
{
    if (p2p.split_min)
        return len >= p2p.split_min;
    return tp->split_min && len >= tp->split_min && p2p.split_cpus &&
           !p2p.peers[peer].rndv_sends;
}

/* RDMPI_RNDV=auto: asks the sender to write the second half of a large
 * message while we read [0, split): on a node both cores copy. Returns the
 * split point, or the bytes to read when the message is not split. */
static size_t split_put(const rd_transport_t *tp, rd_request_t *r, int peer, size_t len,
                        uint64_t sreq)
{
    /* len is the whole message; a truncated receive is read, not split. */
    if (p2p.rndv != RNDV_AUTO || !(tp->caps & RD_TP_CAP_PUT) || len != r->st_bytes ||
        !split_worth(tp, peer, len))
        return r->st_bytes;
    size_t split = (len / 2) & ~(size_t)63;
    if (split == 0 || ask_put(tp, r, peer, len, sreq, split, 0) != RD_OK)
        return len;
    return split;
}

/* A matched RTS: read the data directly if we can, else ask for a stream. */
static void start_rndv(rd_request_t *r, int peer, int src, int tag, int flags, size_t len,
                       uint64_t sreq, uint64_t addr, const uint8_t *key, size_t keylen)
{
    const rd_transport_t *tp = p2p.peers[peer].tp;
    set_status(r, src, tag, len);
    r->peer_world = peer;
    P(r)->remote = sreq;
    P(r)->state = RD_RS_RECV_DATA;
    track(r, peer);
    int contig = rd_dt_is_contig(r->dt, r->count);
    /* The sender writes the whole message if it offered to and we prefer
     * it (or it offered nothing else); not into a truncated receive, whose
     * buffer is shorter than what the sender would write. */
    if ((flags & RD_MSG_F_PUT) && contig && (tp->caps & RD_TP_CAP_PUT) && len == r->st_bytes &&
        (p2p.rndv == RNDV_PUT || !(flags & RD_MSG_F_GET))) {
        P(r)->parts = 0;
        if (ask_put(tp, r, peer, len, sreq, 0, RD_MSG_F_WHOLE) == RD_OK)
            return;
    }
    if ((flags & RD_MSG_F_GET) && contig) {
        P(r)->parts = 1;
        size_t mine = split_put(tp, r, peer, len, sreq);
        if (mine < r->st_bytes)
            p2p.reads_split++;
        else
            p2p.reads_whole++;
        int rc = tp->get(peer, rd_dt_contig_ptr(r->buf, r->dt), addr, key, keylen, mine,
                         get_done, r);
        if (rc == RD_OK)
            return;
        if (P(r)->parts > 1) {
            /* The sender is already writing its half: end with the error. */
            get_done(r, rc);
            return;
        }
        /* The transport refused this read: fall back to streaming. */
    }
    P(r)->offset = 0;
    P(r)->remote = len; /* total bytes the sender will stream */
    send_ctrl(peer, RD_MSG_CTS, sreq, (uint64_t)(uintptr_t)r);
}

static void on_data(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)peer, (void)hdrlen;
    rd_request_t *r = (rd_request_t *)(uintptr_t)h->rreq;
    size_t off = h->len;
    if (off < r->st_bytes) {
        size_t n = r->st_bytes - off < len ? r->st_bytes - off : len;
        rd_dt_unpack(r->buf, r->count, r->dt, off, payload, n);
    }
    P(r)->offset += len;
    if (P(r)->offset >= P(r)->remote)
        finish(r, r->error);
}

static void from_unexp(rd_request_t *r, unexp_t *u)
{
    if (u->type == RD_MSG_EAGER)
        deliver_eager(r, u->peer, u->match.src, u->match.tag, u->flags, u->sreq, u->data, u->len);
    else
        start_rndv(r, u->peer, u->match.src, u->match.tag, u->flags, u->len, u->sreq, u->addr,
                   u->key, u->keylen);
    free(u);
}

/* An arrival we cannot store would be lost silently and hang the job later:
 * end the job now, loudly. */
static void __attribute__((noreturn)) out_of_memory(void)
{
    rd_boot_abort(1, "rdmpi: out of memory while storing an unexpected message");
}

/* An EAGER or RTS arrives: hand it to the posted receive it matches, or keep
 * it as unexpected. */
static inline void arrive(int peer, const rd_msg_hdr_t *h, const void *payload, size_t len)
{
    rd_match_q_t *q = queue_of(h->ctx);
    if (!q)
        out_of_memory();
    rd_match_elem_t *e = rd_match_arrive(q, NULL, h->src, h->tag);
    if (e) {
        rd_request_t *r = req_of_match(e);
        if (h->type == RD_MSG_EAGER)
            deliver_eager(r, peer, h->src, h->tag, h->flags, h->sreq, payload, len);
        else
            start_rndv(r, peer, h->src, h->tag, h->flags, h->len, h->sreq, h->addr, h->key,
                       h->keylen);
        return;
    }
    size_t keep = h->type == RD_MSG_EAGER ? len : 0;
    unexp_t *u = malloc(sizeof(*u) + keep);
    if (!u)
        out_of_memory();
    u->peer = peer;
    u->type = h->type;
    u->flags = h->flags;
    u->len = h->type == RD_MSG_EAGER ? len : h->len;
    u->sreq = (h->flags & RD_MSG_F_SYNC) || h->type == RD_MSG_RTS ? h->sreq : 0;
    u->keylen = 0;
    u->addr = 0;
    if (h->type == RD_MSG_RTS && (h->flags & RD_MSG_F_GET)) {
        u->addr = h->addr;
        u->keylen = h->keylen;
        memcpy(u->key, h->key, h->keylen);
    }
    if (keep)
        memcpy(u->data, payload, keep);
    rd_match_arrive(q, &u->match, h->src, h->tag);
}

/* The transports' receive upcall. EAGER, the latency-critical type, is
 * handled here; every other type goes to the handler its owner registered
 * (one load and an indirect call, no search). */
static void on_message(int peer, const void *hdrp, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdrp;
    if (__builtin_expect(h->type == RD_MSG_EAGER, 1)) {
        arrive(peer, h, payload, len);
        return;
    }
    p2p.am[h->type](peer, hdrp, hdrlen, payload, len);
}

static void on_rts(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)hdrlen;
    arrive(peer, hdr, payload, len);
}

static void on_cts(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    rd_request_t *s = (rd_request_t *)(uintptr_t)h->sreq;
    (void)peer, (void)hdrlen, (void)payload, (void)len;
    untrack(s);   /* stream() sees the peer's failure itself */
    P(s)->remote = h->rreq;
    P(s)->offset = 0;
    P(s)->state = RD_RS_STREAMING;
    rd_list_push_back(&p2p.streaming, &P(s)->link);
}

static void on_fin(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)peer, (void)hdrlen, (void)payload, (void)len;
    part_done((rd_request_t *)(uintptr_t)h->sreq, RD_OK);
}

static void on_ack(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)peer, (void)hdrlen, (void)payload, (void)len;
    finish((rd_request_t *)(uintptr_t)h->sreq, RD_OK);
}

static void on_put(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    rd_request_t *s = (rd_request_t *)(uintptr_t)h->sreq;
    const char *base = rd_dt_contig_ptr(s->buf, s->dt);
    (void)hdrlen, (void)payload, (void)len;
    P(s)->remote = h->rreq;
    /* A split adds our put to the FIN we wait for; a whole put replaces it. */
    if (!(h->flags & RD_MSG_F_WHOLE))
        P(s)->parts++;
    int rc = p2p.peers[peer].tp->put(peer, base + h->len, h->addr, h->key, h->keylen,
                                     P(s)->bytes - h->len, put_done, s);
    if (rc != RD_OK)
        put_done(s, rc);
}

static void on_put_fin(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)peer, (void)hdrlen, (void)payload, (void)len;
    part_done((rd_request_t *)(uintptr_t)h->rreq, RD_OK);
}

/* ---- the active-message registry ---- */

_Static_assert(RD_HDR_MAX == RD_P2P_AM_HDR_MAX, "an active message's header fits every transport");
_Static_assert((int)RD_MSG_PUT_FIN <= (int)RD_AM_P2P_LAST, "p2p's types stay in p2p's range");

/* A type nobody registered: dropped, as the closed switch did before. */
static void am_unknown(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)peer, (void)hdr, (void)hdrlen, (void)payload, (void)len;
}

int rd_p2p_am_register(int type, rd_p2p_am_fn fn)
{
    if (type <= 0 || type >= RD_AM_TYPES || type == RD_MSG_EAGER || !fn)
        return RD_EINVAL;
    if (p2p.am[type] != am_unknown && p2p.am[type] != fn)
        return RD_EINVAL;
    p2p.am[type] = fn;
    return RD_OK;
}

/* Every type unknown, then p2p's own protocols. */
static void am_init(void)
{
    for (int t = 0; t < RD_AM_TYPES; t++)
        p2p.am[t] = am_unknown;
    rd_p2p_am_register(RD_MSG_ACK, on_ack);
    rd_p2p_am_register(RD_MSG_RTS, on_rts);
    rd_p2p_am_register(RD_MSG_CTS, on_cts);
    rd_p2p_am_register(RD_MSG_DATA, on_data);
    rd_p2p_am_register(RD_MSG_FIN, on_fin);
    rd_p2p_am_register(RD_MSG_PUT, on_put);
    rd_p2p_am_register(RD_MSG_PUT_FIN, on_put_fin);
}

int rd_p2p_am_send(int peer_world, const void *hdr, size_t hdrlen, const void *payload,
                   size_t len, rd_p2p_am_done_fn done, void *ctx)
{
    if (peer_world < 0 || peer_world >= p2p.size || hdrlen < 1 || hdrlen > RD_P2P_AM_HDR_MAX)
        return RD_EINVAL;
    peer_t *p = &p2p.peers[peer_world];
    if (!p->tp)
        return RD_EPEER;
    if (p->failed)
        return p->failed;
    if (len > p->tp->eager_max)
        return RD_EINVAL;
    int rc = post(peer_world, hdr, hdrlen, payload, len, NULL);
    if (rc == RD_EAGAIN) {
        qmsg_t *q = rd_list_entry(p->sendq.prev, qmsg_t, link);
        q->done = done;
        q->ctx = ctx;
    }
    return rc;
}

size_t rd_p2p_am_max(int peer_world)
{
    if (peer_world < 0 || peer_world >= p2p.size || !p2p.peers[peer_world].tp)
        return 0;
    return p2p.peers[peer_world].tp->eager_max;
}

/* ---- early arrival (transports that see a header before its payload) ---- */

/* Token of a claimed DATA fragment: the request with its low bit set (an
 * EAGER claim passes the bare request). */
#define CLAIM_DATA ((uintptr_t)1)

/* The header of an EAGER or DATA message is in and its payload is not: if a
 * posted receive takes it, say where the payload goes. An EAGER is matched
 * now (nothing else from this peer can arrive before its payload, so the
 * order holds); a buffer the payload cannot land in directly (non-contiguous
 * type, truncation) gets a bounce copy in r->tmp. A DATA fragment goes into
 * its place in a contiguous buffer, else it takes the normal path. */
static void *on_claim(int peer, const void *hdrp, size_t hdrlen, size_t len, void **token)
{
    const rd_msg_hdr_t *h = hdrp;
    (void)hdrlen;
    if (h->type == RD_MSG_DATA) {
        rd_request_t *r = (rd_request_t *)(uintptr_t)h->rreq;
        if (!rd_dt_is_contig(r->dt, r->count) || h->len > r->st_bytes ||
            len > r->st_bytes - h->len)
            return NULL;
        /* Counted now: the fragment is complete before the next header from
         * this peer is read, and on_claimed checks for the last one. */
        P(r)->offset += len;
        *token = (void *)((uintptr_t)r | CLAIM_DATA);
        return (char *)rd_dt_contig_ptr(r->buf, r->dt) + h->len;
    }
    if (h->type != RD_MSG_EAGER)
        return NULL;
    rd_match_q_t *q = queue_of(h->ctx);
    if (!q)
        out_of_memory();
    rd_match_elem_t *e = rd_match_arrive(q, NULL, h->src, h->tag);
    if (!e)
        return NULL;
    rd_request_t *r = req_of_match(e);
    set_status(r, h->src, h->tag, len);
    P(r)->state = RD_RS_RECV_DATA;
    r->peer_world = peer;
    P(r)->remote = (h->flags & RD_MSG_F_SYNC) ? h->sreq : 0;
    *token = r;
    if (rd_dt_is_contig(r->dt, r->count) && len <= P(r)->bytes)
        return rd_dt_contig_ptr(r->buf, r->dt);
    r->tmp = malloc(len);
    if (!r->tmp)
        out_of_memory();
    return r->tmp;
}

/* The payload of a claimed message is all in. */
static void on_claimed(void *token, int status)
{
    rd_request_t *r = (rd_request_t *)((uintptr_t)token & ~CLAIM_DATA);
    if ((uintptr_t)token & CLAIM_DATA) {
        if (status != RD_OK)
            r->error = status;
        if (P(r)->offset >= P(r)->remote)
            finish(r, r->error);
        return;
    }
    if (r->tmp) {
        rd_dt_unpack(r->buf, r->count, r->dt, 0, r->tmp, r->st_bytes);
        free(r->tmp);
        r->tmp = NULL;
    }
    if (P(r)->remote && status == RD_OK)
        send_ctrl(r->peer_world, RD_MSG_ACK, P(r)->remote, 0);
    rd_req_complete(r, status != RD_OK ? status : r->error);
}

/* ---- failed peers ---- */

/* The failed job rank whose loss dooms a receive from src (a rank or
 * RD_ANY_SOURCE) on c, or -1. */
static int failed_sender(const rd_comm_t *c, int src)
{
    if (src != RD_ANY_SOURCE) {
        int w = rd_comm_world(c, src);
        return p2p.peers[w].failed ? w : -1;
    }
    for (int i = 0, n = rd_comm_remote_size(c); i < n; i++) {
        int w = rd_comm_world(c, i);
        if (p2p.peers[w].failed)
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
static void __attribute__((noinline)) recv_posted(rd_match_q_t *q, rd_request_t *r)
{
    if (p2p.nfailed) {
        int w = failed_sender(r->comm, r->peer);
        if (w >= 0) {
            rd_match_cancel(q, &P(r)->match);
            fail_recv(r, w, p2p.peers[w].failed);
            return;
        }
    }
    if (r->peer != RD_ANY_SOURCE) {
        int w = rd_comm_world(r->comm, r->peer);
        const rd_transport_t *tp = p2p.peers[w].tp;
        if (tp && tp->watch)
            tp->watch(w);
    }
}

/* Transport upcall: peer is gone. */
static void on_peer_failed(int peer, int status)
{
    peer_t *p = &p2p.peers[peer];
    if (p->failed || peer == p2p.rank)
        return;
    p->failed = status;
    p2p.nfailed++;
    p2p.recv_check = 1;
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
        release_keys(r);
        r->peer_world = peer;
        finish(r, status);
    }
    /* Posted receives that only it could satisfy, or from ANY_SOURCE on a
     * communicator it belongs to. */
    for (uint32_t ctx = 0; ctx < p2p.nqueues; ctx++) {
        rd_match_q_t *q = p2p.queues[ctx];
        if (!q || q->n_posted == 0)
            continue;
        for (int src = -1; src < q->nsrc; src++) {
            rd_list_t *head = src < 0 ? &q->posted_any : &q->posted[src];
            rd_list_t *pos, *tmp;
            rd_list_for_each_safe(pos, tmp, head) {
                rd_request_t *r = req_of(rd_container_of(pos, p2p_req_t, match.link));
                if (failed_sender(r->comm, P(r)->match.src) != peer)
                    continue;
                rd_match_cancel(q, &P(r)->match);
                fail_recv(r, peer, status);
            }
        }
    }
}

int rd_p2p_irecv(rd_request_t *r, int coll)
{
    rd_match_q_t *q = coll ? r->comm->mq_coll : r->comm->mq;
    P(r)->bytes = r->count * r->dt->size;
    P(r)->state = RD_RS_POSTED;
    rd_match_elem_t *e = rd_match_post(q, &P(r)->match, r->peer, r->tag);
    if (e)
        from_unexp(r, rd_container_of(e, unexp_t, match));
    else if (__builtin_expect(p2p.recv_check, 0))
        recv_posted(q, r);
    return RD_OK;
}

int rd_p2p_cancel_recv(rd_request_t *r)
{
    rd_match_q_t *q = r->comm->mq;
    if (P(r)->state != RD_RS_POSTED || r->done || !rd_match_cancel(q, &P(r)->match))
        return 0;
    r->cancelled = 1;
    r->st_bytes = 0;
    rd_req_complete(r, RD_OK);
    return 1;
}

static void fill_probe(rd_p2p_status_t *st, const unexp_t *u)
{
    st->source = u->match.src;
    st->tag = u->match.tag;
    st->bytes = u->len;
}

int rd_p2p_iprobe(rd_comm_t *c, int src, int tag, int *flag, rd_p2p_status_t *st)
{
    rd_match_elem_t *e = rd_match_peek(c->mq, src, tag);
    if (!e) {
        rd_progress();
        e = rd_match_peek(c->mq, src, tag);
    }
    *flag = e != NULL;
    if (e)
        fill_probe(st, rd_container_of(e, unexp_t, match));
    else if (p2p.nfailed && (st->source = failed_sender(c, src)) >= 0)
        return p2p.peers[st->source].failed;   /* st->source: the failed job rank */
    return RD_OK;
}

int rd_p2p_improbe(rd_comm_t *c, int src, int tag, int *flag, rd_p2p_status_t *st, void **msg)
{
    int rc = rd_p2p_iprobe(c, src, tag, flag, st);
    *msg = NULL;
    if (rc != RD_OK)
        return rc;
    if (*flag) {
        rd_match_elem_t *e = rd_match_peek(c->mq, src, tag);
        rd_match_take(c->mq, e);
        *msg = rd_container_of(e, unexp_t, match);
    }
    return RD_OK;
}

int rd_p2p_mrecv(rd_request_t *r, void *msg)
{
    P(r)->bytes = r->count * r->dt->size;
    from_unexp(r, msg);
    return RD_OK;
}

/* ---- progress ---- */

static int push_queues(void)
{
    int n = 0;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &p2p.busy_peers) {
        peer_t *p = rd_list_entry(pos, peer_t, busy_link);
        int dst = (int)(p - p2p.peers);
        while (!rd_list_empty(&p->sendq)) {
            qmsg_t *q = rd_list_entry(p->sendq.next, qmsg_t, link);
            int rc = p->tp->send(dst, &q->hdr, q->hdrlen, q->payload, q->len);
            if (rc == RD_EAGAIN)
                break;
            rd_list_remove(&q->link);
            if (q->req) {
                if (rc == RD_OK)
                    eager_sent(q->req);
                else
                    rd_req_complete(q->req, rc);
            } else if (q->done) {
                q->done(q->ctx, rc);
            }
            free(q);
            n++;
        }
        if (rd_list_empty(&p->sendq))
            rd_list_remove(&p->busy_link);
    }
    if (++p2p.pass == 0)
        p2p.pass = 1;   /* 0 is every peer's stream_full at init */
    rd_list_for_each_safe(pos, tmp, &p2p.streaming) {
        n += stream(req_of(rd_list_entry(pos, p2p_req_t, link)));
    }
    return n;
}

/* What rd_progress does beyond polling the transports. */
static int __attribute__((noinline)) progress_more(void)
{
    int n = 0;
    if (!rd_list_empty(&p2p.busy_peers) || !rd_list_empty(&p2p.streaming))
        n += push_queues();
    /* Reread the mask each time: a hook may switch itself or another off. */
    for (int i = 0; i < p2p.nhooks; i++)
        if (p2p.hooks_on & (1u << i))
            n += p2p.hooks[i]();
    return n;
}

int rd_progress(void)
{
    int n = 0;
    for (int i = 0; i < p2p.nactive; i++) {
        int k = p2p.active[i]->progress();
        if (k > 0)
            n += k;
    }
    if (__builtin_expect(p2p.hooks_on || !rd_list_empty(&p2p.busy_peers) ||
                             !rd_list_empty(&p2p.streaming), 0))
        n += progress_more();
    return n;
}

int rd_progress_hook_register(rd_progress_hook_fn fn)
{
    for (int i = 0; i < p2p.nhooks; i++)
        if (p2p.hooks[i] == fn)
            return i;
    if (p2p.nhooks == RD_PROGRESS_HOOKS_MAX)
        return RD_ENOMEM;
    p2p.hooks[p2p.nhooks] = fn;
    return p2p.nhooks++;
}

void rd_progress_hook_activate(int id)
{
    p2p.hooks_on |= 1u << id;
}

void rd_progress_hook_deactivate(int id)
{
    p2p.hooks_on &= ~(1u << id);
}

void rd_p2p_idle(unsigned *idle)
{
    if (++*idle >= p2p.spin) {
        sched_yield();
        *idle = p2p.spin / 2;
    }
}

void rd_p2p_wait(rd_request_t *r)
{
    unsigned idle = 0;
    while (!r->done) {
        if (rd_progress() == 0)
            rd_p2p_idle(&idle);
        else
            idle = 0;
    }
}

/* ---- node signals (src/coll's node barrier) ---- */

int rd_p2p_signals(int peer)
{
    const rd_transport_t *tp = p2p.peers[peer].tp;
    return tp && tp->signal;
}

void rd_p2p_signal(int peer)
{
    p2p.peers[peer].tp->signal(peer);
}

int rd_p2p_signaled(int peer)
{
    return p2p.peers[peer].tp->signaled(peer);
}

/* ---- shared areas for node-local collectives ---- */

int rd_p2p_node_areas(rd_comm_t *c, void **areas, size_t *len)
{
    int n = c->size, me = c->rank;
    const int *world = c->group->world;
    if (c->rgroup || n < 2)
        return RD_ENOTSUP;
    /* Every member decides alike: all reached through one transport with
     * areas (shm: all on this node), and areas of one size node-wide. */
    const rd_transport_t *tp = p2p.peers[world[me == 0 ? 1 : 0]].tp;
    if (!tp || !tp->area)
        return RD_ENOTSUP;
    for (int i = 0; i < n; i++) {
        if (i != me && p2p.peers[world[i]].tp != tp)
            return RD_ENOTSUP;
        if (!(areas[i] = tp->area(world[i], len)))
            return RD_ENOTSUP;
    }
    return RD_OK;
}

/* ---- single-copy reads for node-local collectives ---- */

_Static_assert(RD_TP_KEY_MAX <= RD_P2P_NODE_KEY_MAX, "node keys hold any transport key");

/* The transport that reaches every other member of node-local c, if it
 * reads peer memory. */
static const rd_transport_t *node_reader(const rd_comm_t *c)
{
    if (c->rgroup || c->size < 2)
        return NULL;
    const rd_transport_t *tp = p2p.peers[c->group->world[c->rank == 0 ? 1 : 0]].tp;
    return tp && tp->area && tp->get && tp->mem_key ? tp : NULL;
}

int rd_p2p_node_readable(rd_comm_t *c)
{
    return node_reader(c) != NULL;
}

int rd_p2p_node_key(rd_comm_t *c, const void *buf, size_t len, void *key, size_t *keylen)
{
    const rd_transport_t *tp = node_reader(c);
    if (!tp)
        return RD_ENOTSUP;
    *keylen = RD_P2P_NODE_KEY_MAX;
    return tp->mem_key(buf, len, key, keylen);
}

void rd_p2p_node_key_release(rd_comm_t *c, const void *buf, size_t len)
{
    const rd_transport_t *tp = node_reader(c);
    if (tp && tp->mem_release)
        tp->mem_release(buf, len);
}

typedef struct node_read {
    int done, status;
} node_read_t;

static void node_read_done(void *ctx, int status)
{
    node_read_t *nr = ctx;
    nr->status = status;
    nr->done = 1;
}

int rd_p2p_node_read(rd_comm_t *c, int rank, void *local, uint64_t addr, const void *key,
                     size_t keylen, size_t len)
{
    const rd_transport_t *tp = node_reader(c);
    if (!tp || rank < 0 || rank >= c->size || rank == c->rank)
        return RD_EINVAL;
    node_read_t nr = { 0, RD_OK };
    int rc = tp->get(c->group->world[rank], local, addr, key, keylen, len, node_read_done, &nr);
    if (rc != RD_OK)
        return rc;
    /* shm completes before returning; a transport that completes later
     * does so from its progress. */
    unsigned idle = 0;
    while (!nr.done) {
        if (rd_progress() == 0)
            rd_p2p_idle(&idle);
        else
            idle = 0;
    }
    return nr.status;
}

/* ---- init ---- */

/* Is name one of the comma-separated entries of list? */
static int name_listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* RDMPI_TRANSPORTS must name only known transports: a typo would otherwise
 * silently leave peers unreachable. A known one this build lacks (rc or ud
 * built --without-verbs) is skipped: its peers go to the next one listed. */
static int check_transport_names(const char *list)
{
    static const char *const known = "shm,tcp,rc,ud";
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char name[16];
        if (len > 0) {
            snprintf(name, sizeof(name), "%.*s", (int)len, p);
            if (len >= sizeof(name) || !name_listed(known, name)) {
                fprintf(stderr, "rdmpi: RDMPI_TRANSPORTS=%s: unknown transport \"%.*s\" "
                        "(known: %s)\n", list, (int)len, p, known);
                return RD_EINVAL;
            }
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return RD_OK;
}

/* CPUs this process may run on (its affinity mask), else online CPUs. */
static int own_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int spin_cpus;              /* the count spin_policy went by */
static const char *spin_cpus_what;  /* where that count came from */

/* How long a waiting rank polls before it yields its CPU, from the CPUs
 * the ranks of this node may use between them (what = where that count
 * comes from, for RDMPI_VERBOSE). Spinning pays off only while every rank
 * here has a CPU of its own; when ranks share CPUs, a spinning rank burns
 * the time slice its peer needs to answer (np=4 on 2 cores: allreduce
 * 100-190 us with 2000 polls, 7-11 us with 10). Counting online CPUs is
 * not enough: ranks under taskset, a container's cpuset or a batch
 * allocation may be limited to fewer. forced: RDMPI_SPIN_COUNT, or -1. */
static void spin_policy(const rd_boot_info_t *boot, int cpus, const char *what, long forced)
{
    long spin = forced >= 0 ? forced : boot->local_size > cpus ? 10 : 2000;
    p2p.spin = spin > 0 ? (unsigned)spin : 1;
    /* A split rendezvous waits for the sender's half: not worth it when the
     * sender may have to wait for a CPU first. */
    p2p.split_cpus = boot->local_size <= cpus;
    spin_cpus = cpus;
    spin_cpus_what = what;
}

/* RDMPI_VERBOSE: what init chose, one line per rank on stderr. */
static void report_init(const rd_boot_info_t *boot)
{
    char peers[256];
    size_t off = 0;
    peers[0] = 0;
    for (int i = 0; i < p2p.ninited; i++) {
        int n = 0;
        for (int peer = 0; peer < boot->size; peer++)
            n += p2p.peers[peer].tp == p2p.inited[i];
        if (n && off < sizeof(peers))
            off += (size_t)snprintf(peers + off, sizeof(peers) - off, " %s %d", p2p.inited[i]->name, n);
    }
    fprintf(stderr,
            "rdmpi: rank %d: peers by transport:%s; %d local rank(s) on %d CPU(s) (%s): %s, %u polls before yielding\n",
            boot->rank, peers[0] ? peers : " none", boot->local_size, spin_cpus, spin_cpus_what,
            boot->local_size > spin_cpus ? "ranks share CPUs" : "a CPU per rank", p2p.spin);
}

int rd_p2p_init(const rd_boot_info_t *boot)
{
    static rd_tp_env_t env;
    p2p.rank = boot->rank;
    p2p.size = boot->size;
    /* Until the transports know better (spin_policy), as if every rank
     * here could use this rank's CPUs. */
    long spin_forced = rd_env_long("RDMPI_SPIN_COUNT", -1);
    spin_policy(boot, own_cpus(), "this rank's CPUs", spin_forced);
    p2p.split_min = (size_t)rd_env_size("RDMPI_RNDV_SPLIT", 0);
    const char *rndv = rd_env_str("RDMPI_RNDV", "auto");
    if (strcmp(rndv, "auto") == 0) {
        p2p.rndv = RNDV_AUTO;
    } else if (strcmp(rndv, "get") == 0) {
        p2p.rndv = RNDV_GET;
    } else if (strcmp(rndv, "put") == 0) {
        p2p.rndv = RNDV_PUT;
    } else {
        fprintf(stderr, "rdmpi: RDMPI_RNDV=%s: expected get, put or auto\n", rndv);
        return RD_EINVAL;
    }
    rd_list_init(&p2p.busy_peers);
    rd_list_init(&p2p.streaming);
    am_init();
    p2p.peers = calloc(boot->size, sizeof(peer_t));
    if (!p2p.peers)
        return RD_ENOMEM;
    for (int i = 0; i < boot->size; i++) {
        rd_list_init(&p2p.peers[i].sendq);
        rd_list_init(&p2p.peers[i].busy_link);
        rd_list_init(&p2p.peers[i].waiting);
    }

    env.boot = boot;
    env.recv = on_message;
    env.claim = on_claim;
    env.claimed = on_claimed;
    env.peer_failed = on_peer_failed;
    rd_self_set_recv(on_message, boot->rank);
    const char *want = rd_env_str("RDMPI_TRANSPORTS", RD_TRANSPORTS_DEFAULT);
    int rc = check_transport_names(want);
    if (rc != RD_OK)
        return rc;
    /* Every rank initializes the same transports in the same order, so
     * collective inits line up; then one fence publishes what they put. */
    int fence = 0;
    for (int i = 0; rd_transports[i]; i++) {
        rd_transport_t *tp = rd_transports[i];
        if (!name_listed(want, tp->name))
            continue;
        if ((rc = tp->init(&env)) != RD_OK)
            return rc;
        p2p.inited[p2p.ninited++] = tp;
        fence |= tp->fence_after_init;
    }
    if (fence && (rc = rd_boot_fence()) != RD_OK)
        return rc;
    for (int i = 0; i < p2p.ninited; i++)
        if (p2p.inited[i]->node_cpus > 0) {
            spin_policy(boot, p2p.inited[i]->node_cpus, "the node's ranks' CPUs", spin_forced);
            break;
        }
    size_t scratch = 0;
    for (int i = 0; i < p2p.ninited; i++) {
        const rd_transport_t *tp = p2p.inited[i];
        int used = 0;
        for (int peer = 0; peer < boot->size; peer++)
            if (peer != boot->rank && !p2p.peers[peer].tp && tp->reachable(peer)) {
                p2p.peers[peer].tp = tp;
                p2p.peers[peer].track = (tp->caps & RD_TP_CAP_FAILS) != 0;
                used = 1;
            }
        /* Only transports that carry some peer are polled: an idle network
         * transport must not cost the shared-memory fast path a syscall. */
        if (used)
            p2p.active[p2p.nactive++] = tp;
        if (used && tp->watch)
            p2p.recv_check = 1;
        if (frag_max(tp) > scratch)
            scratch = frag_max(tp);
    }
    p2p.peers[boot->rank].tp = &rd_self_transport;
    if (rd_self_transport.eager_max > scratch)
        scratch = rd_self_transport.eager_max;
    p2p.scratch = malloc(scratch);
    p2p.scratch_len = scratch;
    if (!p2p.scratch)
        return RD_ENOMEM;
    p2p.verbose = rd_env_bool("RDMPI_VERBOSE", 0);
    if (p2p.verbose)
        report_init(boot);
    return RD_OK;
}

void rd_p2p_finalize(void)
{
    if (p2p.verbose)
        fprintf(stderr, "rdmpi: rank %d: rendezvous received by direct read: %lu whole, %lu split\n",
                p2p.rank, p2p.reads_whole, p2p.reads_split);
    for (int i = p2p.ninited - 1; i >= 0; i--)
        p2p.inited[i]->finalize();
    p2p.nactive = p2p.ninited = 0;
    for (uint32_t c = 0; c < p2p.nqueues; c++) {
        rd_match_q_t *q = p2p.queues[c];
        if (!q)
            continue;
        /* Unreceived messages are the application's error; free their copies. */
        while (!rd_list_empty(&q->unexp_all)) {
            rd_match_elem_t *e = rd_list_entry(q->unexp_all.next, rd_match_elem_t, all_link);
            rd_match_take(q, e);
            free(rd_container_of(e, unexp_t, match));
        }
        rd_match_q_destroy(q);
        free(q);
    }
    free(p2p.queues);
    free(p2p.peers);
    free(p2p.scratch);
    memset(&p2p, 0, sizeof(p2p)); /* hooks too: they register again at the next init */
}
