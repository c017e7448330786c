/*
 * The receive side of p2p (see p2p.h): the transports call
 * rd_p2p_on_message() for each arrival; an EAGER is matched right there
 * against the context's posted receives (matching on arrival, so a posted
 * receive is filled straight from the transport's buffer) or kept as
 * unexpected, and every other type goes to its registered handler
 * (p2p_am.c). Also the matching queues by context id, posting receives,
 * probes and matched probes.
 */
#include <string.h>

#include "p2p/p2p_impl.h"

/* ---- matching queues by context id ---- */

/* Creates the queue of context ctx on first use. */
rd_match_q_t *rd_p2p_queue_new(uint32_t ctx)
{
    if (ctx >= rd_p2p.nqueues) {
        uint32_t n = rd_p2p.nqueues ? rd_p2p.nqueues : 64;
        while (n <= ctx)
            n *= 2;
        rd_match_q_t **q = realloc(rd_p2p.queues, n * sizeof(*q));
        if (!q)
            return NULL;
        memset(q + rd_p2p.nqueues, 0, (n - rd_p2p.nqueues) * sizeof(*q));
        rd_p2p.queues = q;
        rd_p2p.nqueues = n;
    }
    rd_match_q_t *q = malloc(sizeof(*q));
    if (!q || rd_match_q_init(q, rd_p2p.size) != RD_OK) {
        free(q);
        return NULL;
    }
    q->users = 0;
    rd_p2p.queues[ctx] = q;
    return q;
}

int rd_p2p_attach(rd_comm_t *c)
{
    rd_match_q_t *q = queue_of(c->ctx), *qc = queue_of(c->ctx + 1);
    if (!q || !qc)
        return RD_ENOMEM;
    q->users++;
    qc->users++;
    c->mq = q;
    c->mq_coll = qc;
    return RD_OK;
}

int rd_p2p_detach(rd_comm_t *c)
{
    /* After rd_p2p_finalize the queues are gone with everything else. */
    if (!c->mq || !rd_p2p.queues)
        return 0;
    int last = --c->mq->users == 0;
    last &= --c->mq_coll->users == 0;
    c->mq = c->mq_coll = NULL;
    return last;
}

/* The queue of ctx if it exists (never creates it). */
static rd_match_q_t *queue_if(uint32_t ctx)
{
    return ctx < rd_p2p.nqueues ? rd_p2p.queues[ctx] : NULL;
}

int rd_p2p_ctx_free(uint32_t ctx)
{
    for (uint32_t i = ctx; i < ctx + 2; i++) {
        rd_match_q_t *q = queue_if(i);
        if (q && (q->users > 0 || q->n_posted > 0))
            return RD_EAGAIN;
    }
    for (uint32_t i = ctx; i < ctx + 2; i++) {
        rd_match_q_t *q = queue_if(i);
        if (!q)
            continue;
        while (!rd_list_empty(&q->unexp_all)) {
            rd_match_elem_t *e = rd_list_entry(q->unexp_all.next, rd_match_elem_t, all_link);
            rd_match_take(q, e);
            free(rd_container_of(e, unexp_t, match));
            rd_p2p.unexp_dropped++;
        }
        rd_match_q_destroy(q);
        free(q);
        rd_p2p.queues[i] = NULL;
    }
    return RD_OK;
}

/* ---- arrivals ---- */

/* A matched eager message: unpack what fits, acknowledge a synchronous send. */
static void deliver_eager(rd_request_t *r, int peer, int src, int tag, int flags,
                          uint64_t sreq, const void *payload, size_t len)
{
    set_status(r, src, tag, len);
    /* An empty message may come with no payload pointer (the loopback
     * passes the sender's NULL on) into no buffer: memcpy must see neither. */
    if (r->st_bytes > 0) {
        if (r->dt->contig)
            memcpy(rd_dt_contig_ptr(r->buf, r->dt), payload, r->st_bytes);
        else
            rd_dt_unpack(r->buf, r->count, r->dt, 0, payload, r->st_bytes);
    }
    if (flags & RD_MSG_F_SYNC)
        rd_p2p_send_ctrl(peer, RD_MSG_ACK, sreq, 0);
    rd_req_complete(r, r->error);
}

static void from_unexp(rd_request_t *r, unexp_t *u)
{
    if (u->type == RD_MSG_EAGER)
        deliver_eager(r, u->peer, u->match.src, u->match.tag, u->flags, u->sreq, u->data, u->len);
    else
        rd_p2p_rndv_matched(r, u->peer, u->match.src, u->match.tag, u->flags, u->len, u->sreq,
                            u->addr, u->key, u->keylen);
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
            rd_p2p_rndv_matched(r, peer, h->src, h->tag, h->flags, h->len, h->sreq, h->addr,
                                h->key, h->keylen);
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

void rd_p2p_arrive(int peer, const rd_msg_hdr_t *h, const void *payload, size_t len)
{
    arrive(peer, h, payload, len);
}

/* The transports' receive upcall. EAGER, the latency-critical type, is
 * handled here; every other type goes to the handler its owner registered
 * (one load and an indirect call, no search). */
void rd_p2p_on_message(int peer, const void *hdrp, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdrp;
    if (__builtin_expect(h->type == RD_MSG_EAGER, 1)) {
        arrive(peer, h, payload, len);
        return;
    }
    rd_p2p.am[h->type](peer, hdrp, hdrlen, payload, len);
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
void *rd_p2p_on_claim(int peer, const void *hdrp, size_t hdrlen, size_t len, void **token)
{
    const rd_msg_hdr_t *h = hdrp;
    (void)hdrlen;
    if (h->type == RD_MSG_DATA) {
        rd_request_t *r = req_find(h->rreq, peer, RD_RS_RECV_DATA);
        if (!r)
            return NULL;   /* on_data drops it */
        if (!rd_dt_is_contig(r->dt, r->count) || h->len > r->st_bytes ||
            len > r->st_bytes - h->len)
            return NULL;
        /* Counted now: the fragment is complete before the next header from
         * this peer is read, and rd_p2p_on_claimed checks for the last one. */
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
void rd_p2p_on_claimed(void *token, int status)
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
        rd_p2p_send_ctrl(r->peer_world, RD_MSG_ACK, P(r)->remote, 0);
    rd_req_complete(r, status != RD_OK ? status : r->error);
}

/* ---- posting, cancelling, probing ---- */

int rd_p2p_irecv(rd_request_t *r, int coll)
{
    rd_match_q_t *q = coll ? r->comm->mq_coll : r->comm->mq;
    P(r)->bytes = r->count * r->dt->size;
    P(r)->state = RD_RS_POSTED;
    rd_match_elem_t *e = rd_match_post(q, &P(r)->match, r->peer, r->tag);
    if (e)
        from_unexp(r, rd_container_of(e, unexp_t, match));
    else if (__builtin_expect(rd_p2p.recv_check, 0))
        rd_p2p_recv_posted(q, r);
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
    else if (rd_p2p.nfailed && (st->source = rd_p2p_failed_sender(c, src)) >= 0)
        return rd_p2p.peers[st->source].failed;   /* st->source: the failed job rank */
    else if (rd_p2p.nunreach && src >= 0 && !rd_p2p.peers[rd_comm_world(c, src)].tp)
        return rd_p2p_unreachable(st->source = rd_comm_world(c, src));
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
