/*
 * Unit tests of the nonblocking-collective engine (src/coll/nbc.h) over the
 * scripted transport (fake_tp.h): this process is rank 0 of a 3-rank job
 * and the test plays ranks 1 and 2, answering the schedule's messages with
 * the ones their schedules would send. A schedule must move only inside
 * rd_progress, keep its progress hook active while it runs and switch it
 * off once the last schedule ended, and end with the error of a failed peer
 * instead of hanging.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/nbc.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/group.h"
#include "core/request.h"
#include "fake_tp.h"
#include "p2p/p2p.h"
#include "p2p/p2p_impl.h"
#include "p2p/proto.h"
#include "unit_main.h"
#include "util/status.h"

#define EAGER_MAX 64

static rd_comm_t *comm;
static uint32_t next_ctx = 8;   /* a fresh context per test: its NBC tags start at the base */

static void down(void)
{
    fake_tp_down(&comm, rd_nbc_fini);
}

static void up(unsigned caps)
{
    static int running;
    if (running)
        down();
    running = 0;
    CU_ASSERT_FATAL(fake_tp_up(caps, EAGER_MAX, next_ctx, &comm) == RD_OK);
    next_ctx += 2;
    running = 1;
}

/* Whether some progress hook (the engine's is the only one here) runs. */
static int hook_active(void)
{
    return rd_p2p.hooks_on != 0;
}

/* What peer's schedule sends: an eager message on the collective context. */
static void peer_coll_eager(int peer, int tag, const void *data, size_t len)
{
    rd_msg_hdr_t h;
    memset(&h, 0, sizeof(h));
    h.type = RD_MSG_EAGER;
    h.version = RD_PROTO_VERSION;
    h.ctx = comm->ctx + 1;
    h.src = peer;
    h.tag = tag;
    h.len = len;
    fake_tp_push(peer, &h, RD_HDR_EAGER_LEN, data, len);
}

static rd_nbc_t *start(rd_request_t *req, void (*build)(rd_nbc_t *, void *), void *arg)
{
    rd_nbc_t *s = rd_nbc_new(comm);
    CU_ASSERT_FATAL(s != NULL);
    build(s, arg);
    rd_req_init_local(req, RD_REQ_NBC);
    CU_ASSERT_FATAL(rd_nbc_start(s, req) == RD_OK);
    return s;
}

static void build_barrier(rd_nbc_t *s, void *arg)
{
    (void)arg;
    rd_nbc_barrier(s);
}

/* The messages rank 0 sent on the collective context, with their tags. */
static int coll_sends(int to, int tag)
{
    int n = 0;
    for (int i = 0; i < fake_tp_nsent(); i++) {
        const rd_msg_hdr_t *h = fake_tp_hdr(i);
        n += fake_tp_sent(i)->peer == to && h->ctx == comm->ctx + 1 && h->tag == tag;
    }
    return n;
}

/* A dissemination barrier over 3 ranks: round k sends to rank 2^k and
 * receives from rank -2^k (mod 3). Each round waits for its message, and
 * the schedule moves only when rd_progress runs. */
static void test_barrier(void)
{
    up(0);
    const int tag = RD_NBC_TAG_BASE;
    rd_request_t req;
    CU_ASSERT_FALSE(hook_active());
    start(&req, build_barrier, NULL);
    CU_ASSERT(hook_active());
    CU_ASSERT_EQUAL(req.done, 0);
    CU_ASSERT_EQUAL(coll_sends(1, tag), 1);   /* round 0: to rank 1 */
    CU_ASSERT_EQUAL(coll_sends(2, tag), 0);
    for (int i = 0; i < 5; i++)
        rd_progress();
    CU_ASSERT_EQUAL(req.done, 0);   /* rank 2 has not entered */
    CU_ASSERT(hook_active());
    peer_coll_eager(2, tag, NULL, 0);   /* round 0: from rank 2 */
    CU_ASSERT_EQUAL(coll_sends(2, tag), 0);   /* nothing moves outside progress */
    rd_progress();
    CU_ASSERT_EQUAL(coll_sends(2, tag), 1);   /* round 1: to rank 2 */
    CU_ASSERT_EQUAL(req.done, 0);
    CU_ASSERT(hook_active());
    peer_coll_eager(1, tag, NULL, 0);   /* round 1: from rank 1 */
    CU_ASSERT_EQUAL(req.done, 0);
    rd_progress();
    CU_ASSERT_EQUAL(req.done, 1);
    CU_ASSERT_EQUAL(req.error, RD_OK);
    CU_ASSERT_FALSE(hook_active());
    int before = fake_tp_stats()->progress;
    rd_progress();
    CU_ASSERT_EQUAL(fake_tp_stats()->progress, before + 1);
    CU_ASSERT_EQUAL(fake_tp_nsent(), 2);   /* and nothing more is sent */
    rd_req_free(&req);
    down();
}

struct bcast_arg {
    void *buf;
    size_t len;
    int root;
};

static void build_bcast(rd_nbc_t *s, void *arg)
{
    struct bcast_arg *a = arg;
    rd_nbc_bcast(s, a->buf, a->len, &rd_dt_bytes, a->root);
}

/* Two schedules at once: a barrier and a broadcast from rank 1 (a
 * rendezvous read by get). The hook stays active until both ended,
 * whichever ends first. */
static void test_two_schedules(void)
{
    up(RD_TP_RDMA_GET);
    static char data[200], buf[200];
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (char)(i * 3 + 1);
    memset(buf, 0, sizeof(buf));
    rd_request_t bar, bc;
    struct bcast_arg a = { buf, sizeof(buf), 1 };
    start(&bar, build_barrier, NULL);
    start(&bc, build_bcast, &a);
    CU_ASSERT(hook_active());
    /* Rank 1's tree sends the data to rank 0 with the second schedule's tag. */
    rd_msg_hdr_t h;
    memset(&h, 0, sizeof(h));
    h.type = RD_MSG_RTS;
    h.flags = RD_MSG_F_GET;
    h.version = RD_PROTO_VERSION;
    h.ctx = comm->ctx + 1;
    h.src = 1;
    h.tag = RD_NBC_TAG_BASE + 1;
    h.len = sizeof(data);
    h.sreq = 0x6001;
    h.addr = (uint64_t)(uintptr_t)data;
    h.keylen = (uint8_t)fake_tp_key(data, sizeof(data), h.key);
    fake_tp_push(1, &h, RD_HDR_RTS_LEN(h.keylen), NULL, 0);
    for (int i = 0; i < 10 && !bc.done; i++)
        rd_progress();
    CU_ASSERT_EQUAL(bc.done, 1);
    CU_ASSERT_EQUAL(bc.error, RD_OK);
    CU_ASSERT_EQUAL(memcmp(buf, data, sizeof(data)), 0);
    CU_ASSERT_EQUAL(bar.done, 0);
    CU_ASSERT(hook_active());   /* the barrier still runs */
    peer_coll_eager(2, RD_NBC_TAG_BASE, NULL, 0);
    rd_progress();
    peer_coll_eager(1, RD_NBC_TAG_BASE, NULL, 0);
    rd_progress();
    CU_ASSERT_EQUAL(bar.done, 1);
    CU_ASSERT_EQUAL(bar.error, RD_OK);
    CU_ASSERT_FALSE(hook_active());
    rd_req_free(&bar);
    rd_req_free(&bc);
    down();
}

/* A peer the schedule waits for fails: the schedule ends with its error,
 * and the hook goes off. */
static void test_peer_failed(void)
{
    up(0);
    rd_request_t req;
    start(&req, build_barrier, NULL);
    rd_progress();
    CU_ASSERT_EQUAL(req.done, 0);
    fake_tp_fail(2, RD_EPEER);
    for (int i = 0; i < 10 && !req.done; i++)
        rd_progress();
    CU_ASSERT_EQUAL(req.done, 1);
    CU_ASSERT_EQUAL(req.error, RD_EPEER);
    CU_ASSERT_FALSE(hook_active());
    rd_req_free(&req);
    down();
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "barrier moves only in progress", test_barrier },
        { "hook active until the last schedule ends", test_two_schedules },
        { "failed peer ends the schedule", test_peer_failed },
    };
    return rd_unit_run("nonblocking collectives", tests, RD_UNIT_COUNT(tests));
}
