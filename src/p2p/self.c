/*
 * The loopback transport for messages a rank sends to itself. send() hands
 * the message straight to the receive upcall (which copies what it keeps), and
 * get() is a memcpy, so a large self-send costs one copy once the receive is
 * posted. The atomics are a plain read and store into this process's own
 * memory. It
 * lives in p2p because it needs no device, segment or address.
 */
#include <stdlib.h>
#include <string.h>

#include "transport/transport.h"
#include "util/status.h"

/* Larger self-messages use the rendezvous path: one copy, no buffering. */
#define RD_SELF_EAGER_MAX (16 * 1024)

static rd_tp_recv_fn self_recv;
static int self_rank;

void rd_self_set_recv(rd_tp_recv_fn fn, int rank)
{
    self_recv = fn;
    self_rank = rank;
}

static int self_init(const rd_tp_env_t *env) { return RD_OK; }
static void self_finalize(void) {}
static int self_reachable(int peer) { return peer == self_rank; }
static int self_progress(void) { return 0; }

static int self_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    self_recv(peer, hdr, hdrlen, payload, len);
    return RD_OK;
}

/* The key is the range itself: within one process the address is enough
 * to reach the memory, and the range lets get and the atomics refuse what
 * the key does not cover, as every transport does. */
typedef struct self_key {
    uint64_t addr, len;
} self_key_t;

static int self_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem)
{
    self_key_t k = { (uint64_t)(uintptr_t)buf, (uint64_t)len };
    return rd_tp_mem_new(buf, len, &k, sizeof(k), mem);
}

static void self_mem_dereg(rd_tp_mem_t *mem)
{
    free(mem);
}

/* Whether key covers [addr, addr+len). */
static int covers(const void *key, size_t keylen, uint64_t addr, size_t len)
{
    self_key_t k;
    if (keylen != sizeof(k))
        return 0;
    memcpy(&k, key, sizeof(k));
    return addr >= k.addr && len <= k.len && addr - k.addr <= k.len - len;
}

static int self_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                    const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    if (!covers(key, keylen, remote_addr, len))
        return RD_EINVAL;
    memcpy(local, (const void *)(uintptr_t)remote_addr, len);
    if (done)
        done(ctx, RD_OK);
    return RD_OK;
}

/* Every operation is over when it returns. */
static int self_flush(int peer, rd_tp_done_fn done, void *ctx)
{
    done(ctx, RD_OK);
    return RD_OK;
}

/* One process and one thread in the progress engine: a plain read and
 * write is atomic against every other atomic of this transport. */
static int self_fetch_add(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                          uint64_t add, uint64_t *result, rd_tp_done_fn done, void *ctx)
{
    uint64_t *p = (uint64_t *)(uintptr_t)remote_addr;
    if ((remote_addr & 7) || !covers(key, keylen, remote_addr, 8))
        return RD_EINVAL;
    *result = *p;
    *p += add;
    if (done)
        done(ctx, RD_OK);
    return RD_OK;
}

static int self_cswap(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                      uint64_t compare, uint64_t swap, uint64_t *result, rd_tp_done_fn done,
                      void *ctx)
{
    uint64_t *p = (uint64_t *)(uintptr_t)remote_addr;
    if ((remote_addr & 7) || !covers(key, keylen, remote_addr, 8))
        return RD_EINVAL;
    *result = *p;
    if (*p == compare)
        *p = swap;
    if (done)
        done(ctx, RD_OK);
    return RD_OK;
}

const rd_transport_t rd_self_transport = {
    .name = "self",
    .msg = { .hdr_max = 128, .eager_max = RD_SELF_EAGER_MAX },
    /* No put: p2p's rendezvous to itself stays one read (a put would make
     * the receiver ask the sender to write, the same copy by a longer way). */
    .rdma = { .ops = RD_TP_RDMA_GET | RD_TP_RDMA_ATOMIC },
    .init = self_init,
    .finalize = self_finalize,
    .reachable = self_reachable,
    .send = self_send,
    .progress = self_progress,
    .mem_reg = self_mem_reg,
    .mem_dereg = self_mem_dereg,
    .get = self_get,
    .flush = self_flush,
    .fetch_add = self_fetch_add,
    .cswap = self_cswap,
};
