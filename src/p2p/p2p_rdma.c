/*
 * Remote memory access for src/rma: the transports' registration, get, put,
 * flush and atomics, through the transport p2p uses for each peer. One
 * registration covers every transport in use that offers remote access, so
 * a window registers once whatever mix of peers it has; the keys travel as
 * one blob of (transport index, key) entries.
 */
#include <stdlib.h>
#include <string.h>

#include "p2p/p2p.h"
#include "p2p/p2p_impl.h"

struct rd_p2p_mem {
    int n;
    struct {
        const rd_transport_t *tp;
        rd_tp_mem_t *m;
    } reg[RD_TP_MAX];
};

/* Key blob entry: [transport index][keylen][key bytes]. The index is the
 * transport's place in rd_transports[], the same on every rank. */
static int tp_index(const rd_transport_t *tp)
{
    for (int i = 0; rd_transports[i]; i++)
        if (rd_transports[i] == tp)
            return i;
    return -1;
}

static const rd_transport_t *peer_tp(int peer)
{
    if (peer < 0 || peer >= rd_p2p.size || peer == rd_p2p.rank)
        return NULL;
    return rd_p2p.peers[peer].tp;
}

/* peer_tp, and for this process the transport it is connected to itself
 * with (rd_p2p_rdma_loopback), for the atomics, flush and keys. */
static const rd_transport_t *atomic_tp(int peer)
{
    return peer == rd_p2p.rank ? rd_p2p.loop_tp : peer_tp(peer);
}

int rd_p2p_rdma_loopback(int peer)
{
    const rd_transport_t *tp = peer_tp(peer);
    if (!tp || rd_p2p.peers[peer].failed || !(tp->rdma.ops & RD_TP_RDMA_ATOMIC) ||
        !tp->loopback)
        return RD_ENOTSUP;
    if (rd_p2p.loop_tp)
        return rd_p2p.loop_tp == tp ? RD_OK : RD_ENOTSUP;
    int rc = tp->loopback();
    if (rc == RD_OK)
        rd_p2p.loop_tp = tp;
    return rc;
}

int rd_p2p_rdma_loop_same(int peer)
{
    const rd_transport_t *tp = atomic_tp(peer);
    return tp && tp == rd_p2p.loop_tp && (tp->rdma.ops & RD_TP_RDMA_ATOMIC) &&
           (peer == rd_p2p.rank || !rd_p2p.peers[peer].failed);
}

unsigned rd_p2p_rdma_ops(int peer)
{
    const rd_transport_t *tp = peer_tp(peer);
    return tp && !rd_p2p.peers[peer].failed ? tp->rdma.ops : 0;
}

size_t rd_p2p_rdma_inline_max(int peer)
{
    const rd_transport_t *tp = peer_tp(peer);
    return tp ? tp->rdma.inline_max : 0;
}

size_t rd_p2p_rdma_len_max(int peer)
{
    const rd_transport_t *tp = peer_tp(peer);
    return tp ? tp->rdma.len_max : 0;
}

int rd_p2p_mem_reg(const void *buf, size_t len, rd_p2p_mem_t **out)
{
    rd_p2p_mem_t *m = calloc(1, sizeof(*m));
    if (!m)
        return RD_ENOMEM;
    for (int i = 0; len > 0 && i < rd_p2p.nactive; i++) {
        const rd_transport_t *tp = rd_p2p.active[i];
        if (!tp->rdma.ops || !tp->mem_reg || tp == &rd_self_transport)
            continue;
        int rc = tp->mem_reg(buf, len, &m->reg[m->n].m);
        if (rc != RD_OK) {
            rd_p2p_mem_dereg(m);
            return rc;
        }
        m->reg[m->n++].tp = tp;
    }
    *out = m;
    return RD_OK;
}

void rd_p2p_mem_dereg(rd_p2p_mem_t *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++)
        m->reg[i].tp->mem_dereg(m->reg[i].m);
    free(m);
}

void rd_p2p_mem_keys(const rd_p2p_mem_t *m, void *buf, size_t *len)
{
    uint8_t *p = buf;
    size_t off = 0;
    for (int i = 0; i < m->n; i++) {
        const rd_tp_mem_t *r = m->reg[i].m;
        if (off + 2 + r->keylen > RD_P2P_KEYS_MAX)
            break;
        p[off] = (uint8_t)tp_index(m->reg[i].tp);
        p[off + 1] = (uint8_t)r->keylen;
        memcpy(p + off + 2, r->key, r->keylen);
        off += 2 + r->keylen;
    }
    *len = off;
}

int rd_p2p_mem_key_for(int peer, const void *keys, size_t len, const void **key, size_t *keylen)
{
    const rd_transport_t *tp = atomic_tp(peer);
    const uint8_t *p = keys;
    int want = tp ? tp_index(tp) : -1;
    for (size_t off = 0; want >= 0 && off + 2 <= len;) {
        size_t kl = p[off + 1];
        if (off + 2 + kl > len)
            break;
        if (p[off] == want) {
            *key = p + off + 2;
            *keylen = kl;
            return 1;
        }
        off += 2 + kl;
    }
    return 0;
}

/* The registration of lmem with peer's transport, or NULL. */
static rd_tp_mem_t *lreg(const rd_p2p_mem_t *lmem, const rd_transport_t *tp)
{
    for (int i = 0; lmem && i < lmem->n; i++)
        if (lmem->reg[i].tp == tp)
            return lmem->reg[i].m;
    return NULL;
}

int rd_p2p_rdma_get(int peer, void *local, rd_p2p_mem_t *lmem, uint64_t raddr, const void *key,
                    size_t keylen, size_t len, rd_p2p_done_fn done, void *ctx)
{
    const rd_transport_t *tp = peer_tp(peer);
    if (!tp || !(tp->rdma.ops & RD_TP_RDMA_GET))
        return RD_ENOTSUP;
    rd_p2p.rdma_gets++;
    return tp->get(peer, local, lreg(lmem, tp), raddr, key, keylen, len, done, ctx);
}

int rd_p2p_rdma_put(int peer, const void *local, rd_p2p_mem_t *lmem, uint64_t raddr,
                    const void *key, size_t keylen, size_t len, rd_p2p_done_fn done, void *ctx)
{
    const rd_transport_t *tp = peer_tp(peer);
    if (!tp || !(tp->rdma.ops & RD_TP_RDMA_PUT))
        return RD_ENOTSUP;
    rd_p2p.rdma_puts++;
    return tp->put(peer, local, lreg(lmem, tp), raddr, key, keylen, len, done, ctx);
}

int rd_p2p_rdma_put_imm(int peer, const void *local, rd_p2p_mem_t *lmem, uint64_t raddr,
                        const void *key, size_t keylen, size_t len, uint32_t imm,
                        rd_p2p_done_fn done, void *ctx)
{
    const rd_transport_t *tp = peer_tp(peer);
    if (!tp || !tp->put_imm)
        return RD_ENOTSUP;
    return tp->put_imm(peer, local, lreg(lmem, tp), raddr, key, keylen, len, imm, done, ctx);
}

int rd_p2p_rdma_flush(int peer, rd_p2p_done_fn done, void *ctx)
{
    const rd_transport_t *tp = atomic_tp(peer);
    if (!tp || !tp->flush)
        return RD_ENOTSUP;
    return tp->flush(peer, done, ctx);
}

int rd_p2p_rdma_fetch_add(int peer, uint64_t raddr, const void *key, size_t keylen,
                          uint64_t add, uint64_t *result, rd_p2p_done_fn done, void *ctx)
{
    const rd_transport_t *tp = atomic_tp(peer);
    if (!tp || !(tp->rdma.ops & RD_TP_RDMA_ATOMIC))
        return RD_ENOTSUP;
    return tp->fetch_add(peer, raddr, key, keylen, add, result, done, ctx);
}

int rd_p2p_rdma_cswap(int peer, uint64_t raddr, const void *key, size_t keylen,
                      uint64_t compare, uint64_t swap, uint64_t *result, rd_p2p_done_fn done,
                      void *ctx)
{
    const rd_transport_t *tp = atomic_tp(peer);
    if (!tp || !(tp->rdma.ops & RD_TP_RDMA_ATOMIC))
        return RD_ENOTSUP;
    return tp->cswap(peer, raddr, key, keylen, compare, swap, result, done, ctx);
}

static rd_p2p_notify_fn notify_fn;

void rd_p2p_notify_register(rd_p2p_notify_fn fn)
{
    notify_fn = fn;
}

/* env->notified: a put_imm from peer has landed. */
void rd_p2p_on_notified(int peer, uint32_t imm)
{
    if (notify_fn)
        notify_fn(peer, imm);
}

int rd_p2p_same_node(int peer)
{
    return peer >= 0 && peer < rd_p2p.size && rd_p2p.on_node && rd_p2p.on_node[peer];
}
