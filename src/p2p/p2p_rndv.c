/*
 * The rendezvous protocols (see proto.h): a message larger than the eager
 * limit sends an RTS and waits. If the transport can read remote memory
 * (RD_TP_RDMA_GET) and both buffers are contiguous, the receiver reads the
 * data straight into the user buffer and answers FIN (RDMPI_RNDV=get or
 * auto; auto splits large ones, see proto.h). With RDMPI_RNDV=put and a
 * transport that writes remote memory (RD_TP_RDMA_PUT), the receiver answers
 * with the key of its buffer and the sender writes the whole message, then
 * PUT_FIN. Otherwise the receiver answers CTS and the sender streams DATA
 * fragments that are unpacked in place (non-contiguous buffers, truncated
 * receives on the put path, transports without get or put). The handlers
 * of RTS, CTS, DATA, FIN, PUT and PUT_FIN register with the active-message
 * registry like any other layer's.
 */
#include <string.h>

#include "p2p/p2p_impl.h"

int rd_p2p_rndv_send(rd_request_t *r, const rd_transport_t *tp, int dst, int contig, int coll)
{
    rd_msg_hdr_t h;
    fill_hdr(&h, RD_MSG_RTS, r, coll);
    h.sreq = own_id(r);
    if (!h.sreq)
        return RD_ENOMEM;
    size_t keylen = 0;
    if (rd_p2p.rndv == RNDV_PUT && (tp->rdma.ops & RD_TP_RDMA_PUT) && contig) {
        h.flags = RD_MSG_F_PUT;   /* the receiver answers with its key */
    } else if ((tp->rdma.ops & RD_TP_RDMA_GET) && contig) {
        const void *base = rd_dt_contig_ptr(r->buf, r->dt);
        rd_tp_mem_t *m;
        if (tp->mem_reg(base, P(r)->bytes, &m) == RD_OK) {
            keylen = m->keylen;
            memcpy(h.key, m->key, keylen);
            h.flags = RD_MSG_F_GET;
            h.keylen = (uint8_t)keylen;
            P(r)->mem = m;
            h.addr = (uint64_t)(uintptr_t)base;
        }
    }
    P(r)->state = RD_RS_WAIT_CTS;
    P(r)->parts = 1; /* the FIN, or our whole put; a split adds our put of its half */
    int rc = rd_p2p_post(dst, &h, RD_HDR_RTS_LEN(keylen), NULL, 0, NULL);
    if (rc < 0) {
        rd_p2p_release_keys(r);
        id_end(r);
        return rc;
    }
    P(r)->counted = 1;
    rd_p2p.peers[dst].rndv_sends++;
    track(r, dst);
    return RD_OK;
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
    rd_p2p_release_keys(r);
    rndv_uncount(r);
    done(r, status);
}

/* Pushes DATA fragments of a streaming send until done, the transport is
 * full or the peer had its share of this pass (RD_STREAM_PASS_MAX).
 * Returns 1 if it sent something or the request finished. Once the
 * transport refused a fragment for a peer, its other streaming sends wait
 * for the next pass (each would only be refused again). */
int rd_p2p_stream(rd_request_t *r)
{
    peer_t *p = &rd_p2p.peers[r->peer_world];
    if (p->stream_full == rd_p2p.pass)
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
        if (p->stream_pass != rd_p2p.pass) {
            p->stream_pass = rd_p2p.pass;
            p->stream_bytes = 0;
        } else if (p->stream_bytes >= RD_STREAM_PASS_MAX) {
            p->stream_full = rd_p2p.pass;   /* its turn is over for this pass */
            return P(r)->offset != start;
        }
        size_t n = P(r)->bytes - P(r)->offset;
        if (n > fmax)
            n = fmax;
        const void *payload;
        if (contig) {
            payload = (const char *)rd_dt_contig_ptr(r->buf, r->dt) + P(r)->offset;
        } else {
            rd_dt_pack(r->buf, r->count, r->dt, P(r)->offset, rd_p2p.scratch, n);
            payload = rd_p2p.scratch;
        }
        h.len = P(r)->offset;
        int rc = tp->send(r->peer_world, &h, RD_HDR_CTRL_LEN, payload, n);
        if (rc == RD_EAGAIN) {
            p->stream_full = rd_p2p.pass;
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

/* The rendezvous is over: lets the transport drop what backs our key. */
void rd_p2p_release_keys(rd_request_t *r)
{
    if (!P(r)->mem)
        return;
    rd_p2p.peers[r->peer_world].tp->mem_dereg(P(r)->mem);
    P(r)->mem = NULL;
}

/* One part of a rendezvous finished (the receiver's get, the sender's put,
 * or a FIN / PUT_FIN for the other side's part); the request completes with
 * the last one. */
static void part_done(rd_request_t *r, int status)
{
    if (status != RD_OK)
        r->error = status;
    if (--P(r)->parts <= 0) {
        rd_p2p_release_keys(r);
        finish(r, r->error);
    }
}

static void get_done(void *ctx, int status)
{
    rd_request_t *r = ctx;
    rd_p2p_send_ctrl(r->peer_world, RD_MSG_FIN, P(r)->remote, 0);
    part_done(r, status);
}

static void put_done(void *ctx, int status)
{
    rd_request_t *s = ctx;
    rd_p2p_send_ctrl(s->peer_world, RD_MSG_PUT_FIN, 0, P(s)->remote);
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
    if (!own_id(r))
        return RD_ENOMEM;
    rd_tp_mem_t *m;
    int rc = tp->mem_reg(base + off, len - off, &m);
    if (rc != RD_OK)
        return rc;
    size_t keylen = m->keylen;
    memcpy(h.key, m->key, keylen);
    h.type = RD_MSG_PUT;
    h.flags = (uint8_t)flags;
    h.version = RD_PROTO_VERSION;
    h.keylen = (uint8_t)keylen;
    h.len = off;
    h.sreq = sreq;
    h.rreq = P(r)->id;
    h.addr = (uint64_t)(uintptr_t)(base + off);
    P(r)->mem = m;
    rc = rd_p2p_post(peer, &h, RD_HDR_RTS_LEN(keylen), NULL, 0, NULL);
    if (rc < 0) {
        rd_p2p_release_keys(r);
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
    if (rd_p2p.split_min)
        return len >= rd_p2p.split_min;
    return tp->rdma.split_min && len >= tp->rdma.split_min && rd_p2p.split_cpus &&
           !rd_p2p.peers[peer].rndv_sends;
}

/* RDMPI_RNDV=auto: asks the sender to write the second half of a large
 * message while we read [0, split): on a node both cores copy. Returns the
 * split point, or the bytes to read when the message is not split. */
static size_t split_put(const rd_transport_t *tp, rd_request_t *r, int peer, size_t len,
                        uint64_t sreq)
{
    /* len is the whole message; a truncated receive is read, not split. */
    if (rd_p2p.rndv != RNDV_AUTO || !(tp->rdma.ops & RD_TP_RDMA_PUT) || len != r->st_bytes ||
        !split_worth(tp, peer, len))
        return r->st_bytes;
    size_t split = (len / 2) & ~(size_t)63;
    if (split == 0 || ask_put(tp, r, peer, len, sreq, split, 0) != RD_OK)
        return len;
    return split;
}

/* A matched RTS: read the data directly if we can, else ask for a stream. */
void rd_p2p_rndv_matched(rd_request_t *r, int peer, int src, int tag, int flags, size_t len,
                         uint64_t sreq, uint64_t addr, const uint8_t *key, size_t keylen)
{
    const rd_transport_t *tp = rd_p2p.peers[peer].tp;
    set_status(r, src, tag, len);
    r->peer_world = peer;
    P(r)->remote = sreq;
    P(r)->state = RD_RS_RECV_DATA;
    track(r, peer);
    int contig = rd_dt_is_contig(r->dt, r->count);
    /* The sender writes the whole message if it offered to and we prefer
     * it (or it offered nothing else); not into a truncated receive, whose
     * buffer is shorter than what the sender would write. */
    if ((flags & RD_MSG_F_PUT) && contig && (tp->rdma.ops & RD_TP_RDMA_PUT) && len == r->st_bytes &&
        (rd_p2p.rndv == RNDV_PUT || !(flags & RD_MSG_F_GET))) {
        P(r)->parts = 0;
        if (ask_put(tp, r, peer, len, sreq, 0, RD_MSG_F_WHOLE) == RD_OK) {
            rd_p2p.puts_whole++;
            return;
        }
    }
    if ((flags & RD_MSG_F_GET) && contig) {
        P(r)->parts = 1;
        size_t mine = split_put(tp, r, peer, len, sreq);
        if (mine < r->st_bytes)
            rd_p2p.reads_split++;
        else
            rd_p2p.reads_whole++;
        int rc = tp->get(peer, rd_dt_contig_ptr(r->buf, r->dt), NULL, addr, key, keylen, mine,
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
    rd_p2p.streamed++;
    if (!own_id(r)) {
        finish(r, RD_ENOMEM);
        return;
    }
    rd_p2p_send_ctrl(peer, RD_MSG_CTS, sreq, P(r)->id);
}

static void on_data(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)hdrlen;
    rd_request_t *r = req_by_id(h->rreq, peer, RD_RS_RECV_DATA);
    if (!r)
        return;
    size_t off = h->len;
    if (off < r->st_bytes) {
        size_t n = r->st_bytes - off < len ? r->st_bytes - off : len;
        rd_dt_unpack(r->buf, r->count, r->dt, off, payload, n);
    }
    P(r)->offset += len;
    if (P(r)->offset >= P(r)->remote)
        finish(r, r->error);
}

static void on_rts(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)hdrlen;
    if (h->keylen > RD_TP_KEY_MAX) {
        rd_p2p.malformed++;   /* the key would not fit where it is kept */
        return;
    }
    rd_p2p_arrive(peer, hdr, payload, len);
}

static void on_cts(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)hdrlen, (void)payload, (void)len;
    rd_request_t *s = req_by_id(h->sreq, peer, RD_RS_WAIT_CTS);
    if (!s)
        return;
    untrack(s);   /* rd_p2p_stream() sees the peer's failure itself */
    P(s)->remote = h->rreq;
    P(s)->offset = 0;
    P(s)->state = RD_RS_STREAMING;
    rd_list_push_back(&rd_p2p.streaming, &P(s)->link);
}

static void on_fin(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)hdrlen, (void)payload, (void)len;
    rd_request_t *s = req_by_id(h->sreq, peer, RD_RS_WAIT_CTS);
    if (s)
        part_done(s, RD_OK);
}

static void on_put(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)hdrlen, (void)payload, (void)len;
    rd_request_t *s = req_by_id(h->sreq, peer, RD_RS_WAIT_CTS);
    if (!s)
        return;
    if (h->len > P(s)->bytes || h->keylen > RD_TP_KEY_MAX) {
        rd_p2p.malformed++;   /* an offset past the message, or no key */
        return;
    }
    const char *base = rd_dt_contig_ptr(s->buf, s->dt);
    P(s)->remote = h->rreq;
    /* A split adds our put to the FIN we wait for; a whole put replaces it. */
    if (!(h->flags & RD_MSG_F_WHOLE))
        P(s)->parts++;
    int rc = rd_p2p.peers[peer].tp->put(peer, base + h->len, NULL, h->addr, h->key, h->keylen,
                                     P(s)->bytes - h->len, put_done, s);
    if (rc != RD_OK)
        put_done(s, rc);
}

static void on_put_fin(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    const rd_msg_hdr_t *h = hdr;
    (void)hdrlen, (void)payload, (void)len;
    rd_request_t *r = req_by_id(h->rreq, peer, RD_RS_RECV_DATA);
    if (r)
        part_done(r, RD_OK);
}

void rd_p2p_rndv_register(void)
{
    rd_p2p_am_register(RD_MSG_RTS, on_rts);
    rd_p2p_am_register(RD_MSG_CTS, on_cts);
    rd_p2p_am_register(RD_MSG_DATA, on_data);
    rd_p2p_am_register(RD_MSG_FIN, on_fin);
    rd_p2p_am_register(RD_MSG_PUT, on_put);
    rd_p2p_am_register(RD_MSG_PUT_FIN, on_put_fin);
}
