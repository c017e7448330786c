/*
 * p2p's private state and the interfaces between its files (never included
 * outside src/p2p). The layer is split by concern: p2p_send.c (eager sends,
 * the per-peer send queues), p2p_recv.c (arrivals, matching, probes),
 * p2p_rndv.c (the rendezvous protocols), p2p_fail.c (failed peers),
 * p2p_progress.c (the progress engine and its hooks), p2p_am.c (the
 * active-message registry), reqid.c (the ids of requests on the wire),
 * p2p_node.c (node services for src/coll), p2p_init.c (transport
 * selection, init, finalize) and self.c (the loopback transport).
 * Everything here is hidden in the library.
 */
#ifndef RD_P2P_P2P_IMPL_H
#define RD_P2P_P2P_IMPL_H

#include <stdint.h>
#include <stdlib.h>

#include "core/datatype.h"
#include "p2p/match.h"
#include "p2p/p2p.h"
#include "p2p/proto.h"
#include "p2p/reqid.h"
#include "transport/transport.h"
#include "util/list.h"
#include "util/status.h"

#pragma GCC visibility push(hidden)

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
    uint8_t counted;           /* rendezvous send: counted in its peer's rndv_sends */
    int parts;                 /* rendezvous: completions still awaited (get/put halves) */
    rd_match_elem_t match;     /* posted receive */
    size_t bytes;              /* packed message length (send) / capacity (recv) */
    size_t offset;             /* rendezvous: bytes moved so far */
    /* Rendezvous: the registration of this side's buffer a peer reads
     * (the sender's whole buffer, RTS with F_GET) or writes (the
     * receiver's part, PUT), dropped when the rendezvous ends; or NULL. */
    rd_tp_mem_t *mem;
    uint64_t remote;           /* rendezvous: the peer's request id */
    uint64_t id;               /* this request's id on the wire (reqid.h), 0: none yet */
    rd_list_t link;            /* in rd_p2p.streaming while streaming DATA */
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

#define RD_TP_MAX 8   /* transports compiled in, at most */

typedef struct peer {
    const rd_transport_t *tp;   /* NULL: unreachable */
    rd_list_t sendq;            /* qmsg_t, in send order */
    rd_list_t busy_link;        /* in busy_peers while sendq is not empty */
    int track;                  /* tp reports failures: keep the waiting list */
    int failed;                 /* 0, or the status the peer failed with */
    rd_list_t waiting;          /* requests (wait_link) waiting on a message from it */
    unsigned stream_full;       /* pass in which it got no more DATA (refused, or its share) */
    unsigned stream_pass;       /* pass that stream_bytes counts */
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

typedef struct rd_p2p_state {
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
    const rd_transport_t *marker;      /* active transport with wait marks, or NULL */
    size_t split_min;                  /* RDMPI_RNDV_SPLIT; 0: each transport's split_min */
    int split_cpus;                    /* a CPU per local rank: a sender can take a split */
    int verbose;                       /* RDMPI_VERBOSE */
    int local_size;                    /* ranks on this node (for the report) */
    unsigned char *on_node;            /* by job rank: 1 when on this node */
    int nunreach;                      /* peers no transport reaches (tp NULL) */
    unsigned long reads_whole, reads_split; /* rendezvous received by direct read */
    unsigned long puts_whole, streamed;     /* ... written by the sender, streamed */
    unsigned long rdma_puts, rdma_gets;     /* one-sided transfers of src/rma by RDMA */
    const rd_transport_t *loop_tp;     /* connected to this process itself (rd_p2p_rdma_loopback) */
    unsigned long unexp_dropped;       /* unexpected messages freed with their context */
    int rndv;                          /* RDMPI_RNDV: enum rndv_mode */
    rd_progress_hook_fn hooks[RD_PROGRESS_HOOKS_MAX];
    int nhooks;                        /* registered */
    unsigned hooks_on;                 /* bit i: hooks[i] is active */
    int recv_check;                    /* a transport watches peers, or a peer failed */
    int nfailed;                       /* peers reported failed */
    unsigned pass;                     /* push_queues calls, for peer_t.stream_full */
    rd_p2p_am_fn am[RD_AM_TYPES];      /* handlers by message type (EAGER is inline) */
    rd_reqid_tab_t ids;                /* request ids sent on the wire (reqid.h) */
    unsigned long bad_ids;             /* messages dropped: no live request of theirs */
    unsigned long malformed;           /* messages dropped for a field out of range */
    int forge;                         /* RDMPI_P2P_FORGE_IDS names this rank (tests only) */
} rd_p2p_state_t;

/* The one instance, shared by p2p's files. */
extern rd_p2p_state_t rd_p2p;

/* RDMPI_RNDV: how rendezvous data moves when the transport can do both. */
enum rndv_mode {
    RNDV_AUTO,   /* the receiver reads; large messages split get + put (today's default) */
    RNDV_GET,    /* the receiver reads the whole message */
    RNDV_PUT,    /* the sender writes the whole message into the receiver's buffer */
};

extern const rd_transport_t rd_self_transport;
/* env->notified (p2p_rdma.c). */
void rd_p2p_on_notified(int peer, uint32_t imm);
void rd_self_set_recv(rd_tp_recv_fn fn, int rank);

/* ---- matching queues by context id (p2p_recv.c) ---- */

/* Creates the queue of context ctx on first use (NULL on ENOMEM). */
rd_match_q_t *rd_p2p_queue_new(uint32_t ctx);

static inline rd_match_q_t *queue_of(uint32_t ctx)
{
    if (__builtin_expect(ctx < rd_p2p.nqueues && rd_p2p.queues[ctx] != NULL, 1))
        return rd_p2p.queues[ctx];
    return rd_p2p_queue_new(ctx);
}

/* ---- helpers every protocol uses ---- */

/* r waits for a message from peer (ACK, CTS, FIN, DATA): if the peer's
 * transport can report its failure, keep r where rd_p2p_on_peer_failed finds it. */
static inline void track(rd_request_t *r, int peer)
{
    peer_t *p = &rd_p2p.peers[peer];
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
        rd_p2p.peers[r->peer_world].rndv_sends--;
    }
}

/* ---- request ids (reqid.h): a request named on the wire ---- */

/* r's id, given on first use; 0 when the table cannot grow. */
static inline uint64_t own_id(rd_request_t *r)
{
    if (!P(r)->id)
        P(r)->id = rd_reqid_new(&rd_p2p.ids, r);
    return P(r)->id;
}

/* r is over: a message naming it from now on is stale. */
static inline void id_end(rd_request_t *r)
{
    if (P(r)->id) {
        rd_reqid_release(&rd_p2p.ids, P(r)->id);
        P(r)->id = 0;
    }
}

/* The request a wire id names if it is live, exchanges messages with peer
 * and is in state, else NULL: a forged, corrupted or stale id never
 * reaches a request. */
static inline rd_request_t *req_find(uint64_t id, int peer, int state)
{
    rd_request_t *r = rd_reqid_get(&rd_p2p.ids, id);
    return r && r->peer_world == peer && P(r)->state == state ? r : NULL;
}

/* req_find for a message handler: a NULL answer means the message is
 * dropped, and is counted (rd_p2p_dropped). */
static inline rd_request_t *req_by_id(uint64_t id, int peer, int state)
{
    rd_request_t *r = req_find(id, peer, state);
    if (__builtin_expect(r == NULL, 0))
        rd_p2p.bad_ids++;
    return r;
}

/* Completion of a request that may have an id. */
static inline void done(rd_request_t *r, int err)
{
    id_end(r);
    rd_req_complete(r, err);
}

/* Completion of a request that may be tracked. */
static inline void finish(rd_request_t *r, int err)
{
    untrack(r);
    rndv_uncount(r);
    done(r, err);
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

/* Largest DATA fragment tp takes (transport.h: frag_max). */
static inline size_t frag_max(const rd_transport_t *tp)
{
    return tp->msg.frag_max > tp->msg.eager_max ? tp->msg.frag_max : tp->msg.eager_max;
}

static inline void set_status(rd_request_t *r, int src, int tag, size_t len)
{
    r->st_source = src;
    r->st_tag = tag;
    r->st_bytes = len < P(r)->bytes ? len : P(r)->bytes;
    r->error = len > P(r)->bytes ? RD_ETRUNC : RD_OK;
}

/* The eager completion rule: a standard send is done once the transport took
 * the data; a synchronous one when the receiver acknowledges the match. */
static inline void eager_sent(rd_request_t *r)
{
    if (r->mode == RD_MODE_SYNC) {
        P(r)->state = RD_RS_WAIT_ACK;
        track(r, r->peer_world);
    } else
        rd_req_complete(r, RD_OK);
}

/* ---- between the files ---- */

/* p2p_send.c */
int rd_p2p_post(int dst, const void *hdr, size_t hdrlen, const void *payload, size_t len,
                rd_request_t *req);
void rd_p2p_send_ctrl(int dst, int type, uint64_t sreq, uint64_t rreq);
void rd_p2p_send_register(void);

/* p2p_recv.c */
void rd_p2p_on_message(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
void *rd_p2p_on_claim(int peer, const void *hdr, size_t hdrlen, size_t len, void **token);
void rd_p2p_on_claimed(void *token, int status);
/* An EAGER or RTS arrives (the RTS handler's way into matching). */
void rd_p2p_arrive(int peer, const rd_msg_hdr_t *h, const void *payload, size_t len);

/* p2p_rndv.c */
/* Starts the rendezvous send of r (r->peer_world, P(r)->bytes set) to dst
 * over tp: the RTS. */
int rd_p2p_rndv_send(rd_request_t *r, const rd_transport_t *tp, int dst, int contig, int coll);
void rd_p2p_rndv_matched(rd_request_t *r, int peer, int src, int tag, int flags, size_t len,
                         uint64_t sreq, uint64_t addr, const uint8_t *key, size_t keylen);
void rd_p2p_release_keys(rd_request_t *r);
int rd_p2p_stream(rd_request_t *r);
void rd_p2p_rndv_register(void);

/* p2p_fail.c */
int rd_p2p_failed_sender(const rd_comm_t *c, int src);
void rd_p2p_recv_posted(rd_match_q_t *q, rd_request_t *r);
void rd_p2p_on_peer_failed(int peer, int status);

/* p2p_am.c */
void rd_p2p_am_init(void);

/* p2p_reach.c: peers no transport reaches. rd_p2p_reach_check runs at the
 * end of init (want: RDMPI_TRANSPORTS): RD_EUNREACH with the error detail
 * when this rank's own transports turned a peer down, else RD_OK.
 * rd_p2p_unreachable records why peer is unreachable and returns
 * RD_EUNREACH, for the operation that needed it. name_listed: is name an
 * entry of the comma-separated list? */
int rd_p2p_reach_check(const char *want);
int rd_p2p_unreachable(int peer);
int rd_p2p_name_listed(const char *list, const char *name);

#pragma GCC visibility pop

#endif
