/*
 * The loopback transport for messages a rank sends to itself. send() hands
 * the message straight to the receive upcall (which copies what it keeps), and
 * get() is a memcpy, so a large self-send costs one copy once the receive is
 * posted. It lives in p2p because it needs no device, segment or address.
 */
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

static int self_mem_key(const void *buf, size_t len, void *key, size_t *keylen)
{
    *keylen = 0; /* the address alone is enough within one process */
    return RD_OK;
}

static int self_put(int peer, const void *local, uint64_t remote_addr, const void *key,
                    size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    memcpy((void *)(uintptr_t)remote_addr, local, len);
    done(ctx, RD_OK);
    return RD_OK;
}

static int self_get(int peer, void *local, uint64_t remote_addr, const void *key, size_t keylen,
                    size_t len, rd_tp_done_fn done, void *ctx)
{
    memcpy(local, (const void *)(uintptr_t)remote_addr, len);
    done(ctx, RD_OK);
    return RD_OK;
}

const rd_transport_t rd_self_transport = {
    .name = "self",
    .caps = RD_TP_CAP_GET,
    .hdr_max = 128,
    .eager_max = RD_SELF_EAGER_MAX,
    .init = self_init,
    .finalize = self_finalize,
    .reachable = self_reachable,
    .send = self_send,
    .progress = self_progress,
    .mem_key = self_mem_key,
    .get = self_get,
    .put = self_put,
};
