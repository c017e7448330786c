/*
 * UD reliability layer (see rel.h for the protocol and the wire format).
 *
 * Layout of the per-peer state: the send side keeps the last window packets
 * it posted in a ring indexed by PSN % window (the packet is rebuilt in
 * place with a fresh ack before each retransmission); the receive side
 * keeps packets that arrived early in a ring of the same shape, allocated
 * only when the first early packet comes. Peers with anything outstanding
 * (unacknowledged packets, an unposted tail, an ack owed) sit on an active
 * list, so poll costs nothing for idle peers.
 */
#include "config.h"

#include "transport/verbs/ud/rel.h"

#include <stdlib.h>
#include <string.h>

#include "util/list.h"
#include "util/status.h"

#define HDR_LEN sizeof(rd_udr_hdr_t)
#define MSG_LEN sizeof(rd_udr_msg_t)
#define SACK_BITS 64

typedef struct tx_slot {
    uint64_t sent;               /* time of the last transmission */
    uint32_t len;                /* packet bytes, header included */
    uint8_t sacked;              /* the receiver holds it (selective ack) */
    uint8_t fast;                /* fast-retransmitted already */
    uint8_t resent;              /* sent more than once: no RTT sample */
} tx_slot_t;

typedef struct peer {
    /* sending */
    uint32_t next_psn;           /* PSN of the next new packet */
    uint32_t una;                /* oldest unacknowledged PSN */
    uint32_t credits;            /* what the peer grants (its wnd) */
    tx_slot_t *tx;               /* window slots, NULL until the first send */
    uint8_t *tx_mem;             /* window * mtu bytes */
    uint8_t *stage;              /* unposted tail of the last message */
    size_t stage_cap, stage_len, stage_off;
    uint64_t rto;                /* current retransmission timeout */
    uint64_t rto_base;           /* ... without backoff (from the RTT) */
    uint64_t srtt, rttvar;       /* smoothed round trip and its variation, us */
    uint64_t last_progress;      /* last time una moved (or the window opened) */
    /* receiving */
    uint32_t expected;           /* next PSN to deliver = our ack */
    uint32_t held;               /* early packets in rx */
    uint32_t *rx_len;            /* per slot: packet length, 0 = empty */
    uint8_t *rx_mem;             /* window * mtu bytes, NULL until needed */
    uint8_t *asm_buf;            /* reassembly of a multi-packet message */
    size_t asm_cap, asm_need, asm_got;
    uint16_t asm_hdrlen;
    uint8_t asm_on;
    uint8_t ack_now;             /* send an ack at the next poll */
    uint32_t ack_owed;           /* packets taken since our last ack */
    uint64_t ack_since;          /* when the oldest of them came */
    rd_list_t link;              /* on e->active */
    int active;
} peer_t;

struct rd_udr {
    rd_udr_cfg_t cfg;
    rd_udr_ops_t ops;
    size_t body_max;             /* mtu - header */
    peer_t *peers;
    rd_list_t active;
    uint64_t rng;
    rd_udr_stats_t st;
};

static inline int32_t seq_diff(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b);
}

static inline uint32_t slot_of(const rd_udr_t *e, uint32_t psn)
{
    return psn % e->cfg.window;
}

static void mem_add(rd_udr_t *e, size_t n)
{
    e->st.mem += n;
    if (e->st.mem > e->st.mem_peak)
        e->st.mem_peak = e->st.mem;
}

static void activate(rd_udr_t *e, peer_t *p)
{
    if (!p->active) {
        p->active = 1;
        rd_list_push_back(&e->active, &p->link);
    }
}

#ifdef RD_FAULT_INJECTION
/* xorshift64*: uniform in [0, 1). */
static double rnd01(rd_udr_t *e)
{
    e->rng ^= e->rng >> 12;
    e->rng ^= e->rng << 25;
    e->rng ^= e->rng >> 27;
    return (double)((e->rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}
#endif

rd_udr_t *rd_udr_create(const rd_udr_cfg_t *cfg, const rd_udr_ops_t *ops, int *status)
{
    *status = RD_EINVAL;
    if (cfg->npeers < 1 || cfg->self < 0 || cfg->self >= cfg->npeers ||
        cfg->mtu < RD_UDR_MTU_MIN || cfg->window < RD_UDR_WINDOW_MIN ||
        cfg->window > RD_UDR_WINDOW_MAX || (cfg->window & (cfg->window - 1)) ||
        cfg->init_credits < 1 ||
        cfg->msg_max > UINT32_MAX || cfg->drop_rate < 0 || cfg->drop_rate > 1 ||
        cfg->rto_us == 0 || !ops->post || !ops->deliver || !ops->now)
        return NULL;
    *status = RD_ENOMEM;
    rd_udr_t *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->cfg = *cfg;
    e->ops = *ops;
    if (e->cfg.ack_every < 1)
        e->cfg.ack_every = 1;
    if (e->cfg.rto_max_us < e->cfg.rto_us)
        e->cfg.rto_max_us = e->cfg.rto_us;
    if (e->cfg.rto_min_us == 0 || e->cfg.rto_min_us > e->cfg.rto_max_us)
        e->cfg.rto_min_us = e->cfg.rto_us < e->cfg.rto_max_us ? e->cfg.rto_us : e->cfg.rto_max_us;
    e->body_max = cfg->mtu - HDR_LEN;
    e->rng = (cfg->seed ^ ((uint64_t)cfg->self << 32)) * 0x9E3779B97F4A7C15ULL | 1;
    rd_list_init(&e->active);
    e->peers = calloc((size_t)cfg->npeers, sizeof(peer_t));
    if (!e->peers) {
        free(e);
        return NULL;
    }
    for (int i = 0; i < cfg->npeers; i++) {
        peer_t *p = &e->peers[i];
        p->credits = cfg->init_credits;
        p->next_psn = p->una = p->expected = cfg->first_psn;
        p->rto = p->rto_base = cfg->rto_us;
        rd_list_init(&p->link);
    }
    *status = RD_OK;
    return e;
}

void rd_udr_destroy(rd_udr_t *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->cfg.npeers; i++) {
        peer_t *p = &e->peers[i];
        free(p->tx);
        free(p->tx_mem);
        free(p->stage);
        free(p->rx_len);
        free(p->rx_mem);
        free(p->asm_buf);
    }
    free(e->peers);
    free(e);
}

/* --- sending ------------------------------------------------------------ */

static uint32_t window_free(const rd_udr_t *e, const peer_t *p)
{
    uint32_t limit = p->credits < e->cfg.window ? p->credits : e->cfg.window;
    uint32_t used = p->next_psn - p->una;
    return used >= limit ? 0 : limit - used;
}

/* Selective-ack bitmap of what we hold early from p. */
static uint64_t rx_sack(const rd_udr_t *e, const peer_t *p)
{
    if (!p->held)
        return 0;
    uint64_t sack = 0;
    uint32_t n = e->cfg.window - 1 < SACK_BITS ? e->cfg.window - 1 : SACK_BITS;
    for (uint32_t i = 0; i < n; i++)
        if (p->rx_len[slot_of(e, p->expected + 1 + i)])
            sack |= 1ULL << i;
    return sack;
}

/* Fills the acknowledgement part of a header for p; whatever we owed p is
 * then paid. */
static void fill_hdr(rd_udr_t *e, peer_t *p, rd_udr_hdr_t *h, uint8_t flags, uint32_t psn)
{
    h->version = RD_UDR_VERSION;
    h->flags = flags;
    h->wnd = (uint16_t)e->cfg.window;
    h->src = (uint32_t)e->cfg.self;
    h->psn = psn;
    h->ack = p->expected;
    h->sack = rx_sack(e, p);
    p->ack_owed = 0;
    p->ack_now = 0;
}

static uint8_t *tx_buf(const rd_udr_t *e, const peer_t *p, uint32_t psn)
{
    return p->tx_mem + (size_t)slot_of(e, psn) * e->cfg.mtu;
}

/* (Re)transmits packet psn with a fresh acknowledgement. */
static int transmit(rd_udr_t *e, peer_t *p, int peer, uint32_t psn, uint64_t now, int again)
{
    tx_slot_t *s = &p->tx[slot_of(e, psn)];
    uint8_t *buf = tx_buf(e, p, psn);
    rd_udr_hdr_t h;
    memcpy(&h, buf, HDR_LEN);
    /* a retransmission wants its fate known at once */
    fill_hdr(e, p, &h, (uint8_t)(h.flags | (again ? RD_UDR_F_ACKREQ : 0)), psn);
    memcpy(buf, &h, HDR_LEN);
    s->sent = now;
    if (again) {
        s->resent = 1;
        e->st.retrans++;
    }
    else
        e->st.pkts_sent++;
    return e->ops.post(e->ops.ctx, peer, buf, s->len);
}

/* Copies n bytes at offset off of the concatenation of segs. */
typedef struct seg {
    const void *p;
    size_t n;
} seg_t;

static void gather(uint8_t *dst, const seg_t *segs, int nseg, size_t off, size_t n)
{
    for (int i = 0; i < nseg && n; i++) {
        if (off >= segs[i].n) {
            off -= segs[i].n;
            continue;
        }
        size_t k = segs[i].n - off < n ? segs[i].n - off : n;
        memcpy(dst, (const uint8_t *)segs[i].p + off, k);
        dst += k;
        n -= k;
        off = 0;
    }
}

/* Builds packet next_psn from n bytes at stream offset off and posts it. */
static int emit(rd_udr_t *e, peer_t *p, int peer, const seg_t *segs, int nseg, size_t off,
                size_t n, int first, uint64_t now)
{
    uint32_t psn = p->next_psn;
    uint8_t *buf = tx_buf(e, p, psn);
    tx_slot_t *s = &p->tx[slot_of(e, psn)];
    gather(buf + HDR_LEN, segs, nseg, off, n);
    rd_udr_hdr_t h = {.flags = (uint8_t)(RD_UDR_F_DATA | (first ? RD_UDR_F_FIRST : 0))};
    if (p->una == p->next_psn)
        p->last_progress = now;
    p->next_psn++;
    /* the packet that fills the window asks for an ack, or the sender
     * would wait for the receiver's delayed one */
    if (window_free(e, p) == 0)
        h.flags |= RD_UDR_F_ACKREQ;
    memcpy(buf, &h, HDR_LEN);
    s->len = (uint32_t)(HDR_LEN + n);
    s->sacked = 0;
    s->fast = 0;
    s->resent = 0;
    return transmit(e, p, peer, psn, now, 0);
}

/* Posts as much of the staged tail as the window allows. */
static int flush_stage(rd_udr_t *e, peer_t *p, int peer, uint64_t now)
{
    int posted = 0;
    while (p->stage_off < p->stage_len && window_free(e, p) > 0) {
        size_t n = p->stage_len - p->stage_off;
        if (n > e->body_max)
            n = e->body_max;
        seg_t seg = {p->stage, p->stage_len};
        int rc = emit(e, p, peer, &seg, 1, p->stage_off, n, 0, now);
        if (rc < 0)
            return rc;
        p->stage_off += n;
        posted++;
    }
    return posted;
}

static int tx_alloc(rd_udr_t *e, peer_t *p)
{
    p->tx = calloc(e->cfg.window, sizeof(tx_slot_t));
    p->tx_mem = malloc((size_t)e->cfg.window * e->cfg.mtu);
    if (!p->tx || !p->tx_mem) {
        free(p->tx);
        free(p->tx_mem);
        p->tx = NULL;
        p->tx_mem = NULL;
        return RD_ENOMEM;
    }
    mem_add(e, e->cfg.window * (sizeof(tx_slot_t) + e->cfg.mtu));
    return RD_OK;
}

int rd_udr_send(rd_udr_t *e, int peer, const void *hdr, size_t hdrlen,
                const void *payload, size_t len)
{
    if (peer < 0 || peer >= e->cfg.npeers || peer == e->cfg.self || hdrlen > UINT16_MAX ||
        hdrlen > e->cfg.msg_max || len > e->cfg.msg_max - hdrlen)
        return RD_EINVAL;
    peer_t *p = &e->peers[peer];
    if (p->stage_off < p->stage_len || window_free(e, p) == 0)
        return RD_EAGAIN;
    if (!p->tx && tx_alloc(e, p) != RD_OK)
        return RD_ENOMEM;
    rd_udr_msg_t d = {.len = (uint32_t)len, .hdrlen = (uint16_t)hdrlen};
    seg_t segs[3] = {{&d, MSG_LEN}, {hdr, hdrlen}, {payload, len}};
    size_t total = MSG_LEN + hdrlen + len;
    /* Keep the tail first, so that a failed allocation takes nothing. */
    size_t head = (size_t)window_free(e, p) * e->body_max;
    if (head < total) {
        size_t tail = total - head;
        if (p->stage_cap < tail) {
            uint8_t *s = realloc(p->stage, tail);
            if (!s)
                return RD_ENOMEM;
            mem_add(e, tail - p->stage_cap);
            p->stage = s;
            p->stage_cap = tail;
        }
        gather(p->stage, segs, 3, head, tail);
        p->stage_len = tail;
        p->stage_off = 0;
    } else {
        head = total;
    }
    uint64_t now = e->ops.now(e->ops.ctx);
    activate(e, p);
    for (size_t off = 0; off < head;) {
        size_t n = head - off < e->body_max ? head - off : e->body_max;
        int rc = emit(e, p, peer, segs, 3, off, n, off == 0, now);
        if (rc < 0)
            return rc;
        off += n;
    }
    return RD_OK;
}

static int send_ack(rd_udr_t *e, peer_t *p, int peer)
{
    rd_udr_hdr_t h;
    fill_hdr(e, p, &h, 0, p->next_psn);
    e->st.acks_sent++;
    return e->ops.post(e->ops.ctx, peer, &h, HDR_LEN);
}

/* --- receiving ---------------------------------------------------------- */

/* Jacobson/Karels: srtt += (r - srtt) / 8, rttvar += (|r - srtt| - rttvar) / 4,
 * rto = srtt + 4 rttvar within [rto_min, rto_max]. */
static void rtt_sample(rd_udr_t *e, peer_t *p, uint64_t r)
{
    if (!p->srtt) {
        p->srtt = r ? r : 1;
        p->rttvar = r / 2;
    } else {
        uint64_t dev = r > p->srtt ? r - p->srtt : p->srtt - r;
        p->rttvar = (3 * p->rttvar + dev) / 4;
        p->srtt = (7 * p->srtt + r) / 8;
    }
    uint64_t rto = p->srtt + 4 * p->rttvar;
    if (rto < e->cfg.rto_min_us)
        rto = e->cfg.rto_min_us;
    if (rto > e->cfg.rto_max_us)
        rto = e->cfg.rto_max_us;
    p->rto_base = rto;
}

/* What an acknowledgement from peer tells the sending side. */
static int on_ack(rd_udr_t *e, peer_t *p, int peer, const rd_udr_hdr_t *h, uint64_t now)
{
    p->credits = h->wnd ? h->wnd : 1;
    if (!p->tx)
        return 0;
    if (seq_diff(h->ack, p->next_psn) > 0) {
        e->st.bad++;            /* acknowledges what was never sent */
        return 0;
    }
    if (seq_diff(h->ack, p->una) > 0) {
        const tx_slot_t *last = &p->tx[slot_of(e, h->ack - 1)];
        if (!last->resent)
            rtt_sample(e, p, now - last->sent);
        p->una = h->ack;
        p->rto = p->rto_base;
        p->last_progress = now;
    }
    int posted = 0;
    if (h->sack && p->una != p->next_psn) {
        /* the receiver holds these; a hole below the highest is lost (or
         * late): retransmit it once without waiting for the timeout */
        uint32_t top = p->una;
        for (int i = 0; i < SACK_BITS; i++) {
            if (!(h->sack & (1ULL << i)))
                continue;
            uint32_t psn = h->ack + 1 + (uint32_t)i;
            if (seq_diff(psn, p->next_psn) >= 0)
                break;
            if (seq_diff(psn, p->una) < 0)
                continue;
            p->tx[slot_of(e, psn)].sacked = 1;
            top = psn;
        }
        for (uint32_t psn = p->una; seq_diff(psn, top) < 0; psn++) {
            tx_slot_t *s = &p->tx[slot_of(e, psn)];
            if (s->sacked || s->fast)
                continue;
            s->fast = 1;
            int rc = transmit(e, p, peer, psn, now, 1);
            if (rc < 0)
                return rc;
            posted++;
        }
    }
    if (p->stage_off < p->stage_len) {
        int rc = flush_stage(e, p, peer, now);
        if (rc < 0)
            return rc;
        posted += rc;
    }
    return posted;
}

/* An in-order packet body: reassemble, deliver whole messages. Returns
 * messages delivered or a negative status. */
static int consume(rd_udr_t *e, peer_t *p, int peer, uint8_t flags, const uint8_t *body,
                   size_t blen)
{
    if (flags & RD_UDR_F_FIRST) {
        rd_udr_msg_t d;
        if (p->asm_on) {
            e->st.bad++;        /* the previous message was cut short */
            p->asm_on = 0;
        }
        if (blen < MSG_LEN)
            goto bad;
        memcpy(&d, body, MSG_LEN);
        size_t total = (size_t)d.hdrlen + d.len;
        size_t dlen = blen - MSG_LEN;
        if (total > e->cfg.msg_max || dlen > total)
            goto bad;
        body += MSG_LEN;
        if (dlen == total) {
            e->st.delivered++;
            e->ops.deliver(e->ops.ctx, peer, body, d.hdrlen, body + d.hdrlen, d.len);
            return 1;
        }
        if (p->asm_cap < total) {
            uint8_t *b = realloc(p->asm_buf, total);
            if (!b)
                return RD_ENOMEM;
            mem_add(e, total - p->asm_cap);
            p->asm_buf = b;
            p->asm_cap = total;
        }
        memcpy(p->asm_buf, body, dlen);
        p->asm_on = 1;
        p->asm_need = total;
        p->asm_got = dlen;
        p->asm_hdrlen = d.hdrlen;
        return 0;
    }
    if (!p->asm_on || blen > p->asm_need - p->asm_got)
        goto bad;
    memcpy(p->asm_buf + p->asm_got, body, blen);
    p->asm_got += blen;
    if (p->asm_got < p->asm_need)
        return 0;
    p->asm_on = 0;
    e->st.delivered++;
    e->ops.deliver(e->ops.ctx, peer, p->asm_buf, p->asm_hdrlen, p->asm_buf + p->asm_hdrlen,
                   p->asm_need - p->asm_hdrlen);
    return 1;
bad:
    e->st.bad++;
    return 0;
}

static int hold_early(rd_udr_t *e, peer_t *p, uint32_t psn, const void *pkt, size_t len)
{
    if (!p->rx_mem) {
        p->rx_len = calloc(e->cfg.window, sizeof(uint32_t));
        p->rx_mem = malloc((size_t)e->cfg.window * e->cfg.mtu);
        if (!p->rx_len || !p->rx_mem) {
            free(p->rx_len);
            free(p->rx_mem);
            p->rx_len = NULL;
            p->rx_mem = NULL;
            return RD_ENOMEM;
        }
        mem_add(e, e->cfg.window * (sizeof(uint32_t) + e->cfg.mtu));
    }
    uint32_t i = slot_of(e, psn);
    if (p->rx_len[i]) {
        e->st.dups++;
        return RD_OK;
    }
    memcpy(p->rx_mem + (size_t)i * e->cfg.mtu, pkt, len);
    p->rx_len[i] = (uint32_t)len;
    p->held++;
    e->st.early++;
    return RD_OK;
}

int rd_udr_input(rd_udr_t *e, const void *pkt, size_t len)
{
#ifdef RD_FAULT_INJECTION
    if (e->cfg.drop_rate > 0 && rnd01(e) < e->cfg.drop_rate) {
        e->st.dropped++;
        return 0;
    }
#endif
    rd_udr_hdr_t h;
    if (len < HDR_LEN || len > e->cfg.mtu) {
        e->st.bad++;
        return 0;
    }
    memcpy(&h, pkt, HDR_LEN);
    if (h.version != RD_UDR_VERSION || h.src >= (uint32_t)e->cfg.npeers ||
        h.src == (uint32_t)e->cfg.self || ((h.flags & RD_UDR_F_DATA) && len == HDR_LEN)) {
        e->st.bad++;
        return 0;
    }
    int peer = (int)h.src;
    peer_t *p = &e->peers[peer];
    uint64_t now = e->ops.now(e->ops.ctx);
    e->st.pkts_recv++;
    int rc = on_ack(e, p, peer, &h, now);
    if (rc < 0)
        return rc;
    if (!(h.flags & RD_UDR_F_DATA))
        return 0;

    int32_t d = seq_diff(h.psn, p->expected);
    if (d < 0 || (uint32_t)d >= e->cfg.window) {
        /* a duplicate: the sender missed our ack, repeat it now. Beyond the
         * credits we granted: the sender broke the protocol, drop it. */
        if (d < 0)
            e->st.dups++;
        else
            e->st.overrun++;
        p->ack_now = 1;
        if (!p->ack_owed++)
            p->ack_since = now;
        activate(e, p);
        return 0;
    }
    if (!p->ack_owed++)
        p->ack_since = now;
    activate(e, p);
    if (d > 0) {
        p->ack_now = 1;         /* a gap: tell the sender what we hold */
        return hold_early(e, p, h.psn, pkt, len);
    }
    if (h.flags & RD_UDR_F_ACKREQ)
        p->ack_now = 1;
    /* expected moves before delivery: an upcall that sends piggybacks an
     * ack that already covers this packet */
    p->expected++;
    const uint8_t *body = (const uint8_t *)pkt + HDR_LEN;
    int delivered = consume(e, p, peer, h.flags, body, len - HDR_LEN);
    if (delivered < 0)
        return delivered;
    while (p->held) {
        uint32_t i = slot_of(e, p->expected);
        uint32_t plen = p->rx_len[i];
        if (!plen)
            break;
        const uint8_t *q = p->rx_mem + (size_t)i * e->cfg.mtu;
        /* the slot is freed before the upcall: rx_sack must not see it */
        p->rx_len[i] = 0;
        p->held--;
        p->expected++;
        rd_udr_hdr_t qh;
        memcpy(&qh, q, HDR_LEN);
        if (qh.flags & RD_UDR_F_ACKREQ)
            p->ack_now = 1;
        rc = consume(e, p, peer, qh.flags, q + HDR_LEN, plen - HDR_LEN);
        if (rc < 0)
            return rc;
        delivered += rc;
    }
    if (p->ack_owed >= e->cfg.ack_every)
        p->ack_now = 1;
    return delivered;
}

/* --- timers ------------------------------------------------------------- */

static int peer_quiet(const peer_t *p)
{
    return p->una == p->next_psn && p->stage_off >= p->stage_len && !p->ack_owed;
}

int rd_udr_poll(rd_udr_t *e)
{
    if (rd_list_empty(&e->active))
        return 0;
    uint64_t now = e->ops.now(e->ops.ctx);
    int posted = 0, rc;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &e->active) {
        peer_t *p = rd_list_entry(pos, peer_t, link);
        int peer = (int)(p - e->peers);
        if (p->una != p->next_psn) {
            if (e->cfg.timeout_us && now - p->last_progress > e->cfg.timeout_us)
                return RD_EPEER;
            const tx_slot_t *old = &p->tx[slot_of(e, p->una)];
            if (now - old->sent >= p->rto) {
                for (uint32_t psn = p->una; psn != p->next_psn; psn++) {
                    const tx_slot_t *s = &p->tx[slot_of(e, psn)];
                    if (s->sacked || now - s->sent < p->rto)
                        continue;
                    if ((rc = transmit(e, p, peer, psn, now, 1)) < 0)
                        return rc;
                    posted++;
                }
                p->rto = p->rto * 2 < e->cfg.rto_max_us ? p->rto * 2 : e->cfg.rto_max_us;
            }
        }
        if (p->stage_off < p->stage_len) {
            if ((rc = flush_stage(e, p, peer, now)) < 0)
                return rc;
            posted += rc;
        }
        if (p->ack_owed && (p->ack_now || now - p->ack_since >= e->cfg.ack_delay_us)) {
            if ((rc = send_ack(e, p, peer)) < 0)
                return rc;
            posted++;
        }
        if (peer_quiet(p)) {
            rd_list_remove(&p->link);
            p->active = 0;
        }
    }
    return posted;
}

int rd_udr_quiet(const rd_udr_t *e)
{
    const rd_list_t *pos;
    rd_list_for_each(pos, &e->active)
        if (!peer_quiet(rd_list_entry(pos, const peer_t, link)))
            return 0;
    return 1;
}

uint32_t rd_udr_inflight(const rd_udr_t *e, int peer)
{
    if (peer < 0 || peer >= e->cfg.npeers)
        return 0;
    return e->peers[peer].next_psn - e->peers[peer].una;
}

void rd_udr_get_stats(const rd_udr_t *e, rd_udr_stats_t *st)
{
    *st = e->st;
}
