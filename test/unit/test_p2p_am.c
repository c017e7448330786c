/*
 * Unit tests of p2p's interfaces for other layers: the active-message
 * registry and rd_p2p_am_send (with its queueing, ordering and failure
 * rules), progress hooks switched on and off, and an eager receive through
 * rd_p2p_start and the request's private area. One process plays job rank 0
 * of two; rank 1 sits behind the scripted transport (fake_tp.h) that records what p2p
 * sends, refuses sends while told to be full, and lets the test deliver
 * messages and report rank 1 failed through the upcalls p2p gave it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/group.h"
#include "core/request.h"
#include "fake_tp.h"
#include "p2p/p2p.h"
#include "p2p/proto.h"
#include "unit_main.h"
#include "util/status.h"

/* Rank 1 sits behind the scripted transport of fake_tp.h. */
static int local_ranks[1] = { 0 };
static rd_boot_info_t boot = { .rank = 0, .size = 2, .local_size = 1, .local_ranks = local_ranks,
                               .universe_size = 2 };

static int setup(void)
{
    fake_tp_reset(0, 64);
    return rd_p2p_init(&boot) == RD_OK ? 0 : 1;
}

static int teardown(void)
{
    rd_p2p_finalize();
    fake_tp_clear();
    return 0;
}

/* Delivers a message from peer through p2p's receive upcall, now. */
static void deliver(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    fake_tp_push(peer, hdr, hdrlen, payload, len);
    rd_progress();
    CU_ASSERT_EQUAL(fake_tp_pending(), 0);
}

/* What the transport accepted as the i-th send. */
static const fake_msg_t *sent(int i)
{
    const fake_msg_t *m = fake_tp_sent(i);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_FATAL(m->hdrlen <= RD_P2P_AM_HDR_MAX && m->len <= 64);
    return m;
}

/* ---- handlers and callbacks the tests register ---- */

static struct {
    int calls, peer;
    unsigned char hdr[RD_P2P_AM_HDR_MAX];
    size_t hdrlen, len;
    char payload[64];
} got;

static void on_test_msg(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    got.calls++;
    got.peer = peer;
    memcpy(got.hdr, hdr, hdrlen);
    got.hdrlen = hdrlen;
    if (len)
        memcpy(got.payload, payload, len);
    got.len = len;
}

static void on_other_msg(int peer, const void *hdr, size_t hdrlen, const void *payload,
                         size_t len)
{
    (void)peer, (void)hdr, (void)hdrlen, (void)payload, (void)len;
}

static int ndone, done_status[4];

static void sent_done(void *ctx, int status)
{
    CU_ASSERT_FATAL(ndone < 4);
    done_status[ndone++] = status;
    *(int *)ctx = 1;
}

/* ---- tests ---- */

static void test_register(void)
{
    CU_ASSERT_EQUAL(rd_p2p_am_register(0, on_test_msg), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_am_register(RD_AM_TYPES, on_test_msg), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_am_register(RD_MSG_EAGER, on_test_msg), RD_EINVAL);
    /* p2p's own rendezvous types are taken by p2p's handlers. */
    CU_ASSERT_EQUAL(rd_p2p_am_register(RD_MSG_RTS, on_test_msg), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_am_register(RD_AM_RMA_FIRST, on_test_msg), RD_OK);
    CU_ASSERT_EQUAL(rd_p2p_am_register(RD_AM_RMA_FIRST, on_test_msg), RD_OK);
    CU_ASSERT_EQUAL(rd_p2p_am_register(RD_AM_RMA_FIRST, on_other_msg), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_am_register(RD_AM_COLL_FIRST, on_other_msg), RD_OK);
}

static void test_dispatch(void)
{
    unsigned char hdr[12] = { RD_AM_RMA_FIRST, 7, 8, 9 };
    memset(&got, 0, sizeof(got));
    deliver(1, hdr, sizeof(hdr), "abc", 3);
    CU_ASSERT_EQUAL(got.calls, 1);
    CU_ASSERT_EQUAL(got.peer, 1);
    CU_ASSERT_EQUAL(got.hdrlen, sizeof(hdr));
    CU_ASSERT_EQUAL(memcmp(got.hdr, hdr, sizeof(hdr)), 0);
    CU_ASSERT_EQUAL(got.len, 3);
    CU_ASSERT_EQUAL(memcmp(got.payload, "abc", 3), 0);
    /* A type nobody registered is dropped. */
    hdr[0] = RD_AM_RMA_FIRST + 1;
    deliver(1, hdr, sizeof(hdr), NULL, 0);
    CU_ASSERT_EQUAL(got.calls, 1);
}

static void test_send_now(void)
{
    unsigned char hdr[RD_P2P_AM_HDR_MAX] = { RD_AM_RMA_FIRST, 1, 2, 3 };
    int called = 0;
    fake_tp_forget();
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, 4, "xy", 2, sent_done, &called), RD_OK);
    CU_ASSERT_EQUAL(fake_tp_nsent(), 1);
    CU_ASSERT_EQUAL(sent(0)->hdrlen, 4);
    CU_ASSERT_EQUAL(memcmp(sent(0)->hdr, hdr, 4), 0);
    CU_ASSERT_EQUAL(sent(0)->len, 2);
    CU_ASSERT_EQUAL(called, 0);   /* sent at once: done is never called */
    /* The limits. */
    CU_ASSERT_EQUAL(rd_p2p_am_max(1), 64);
    CU_ASSERT_EQUAL(rd_p2p_am_max(2), 0);
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, 0, NULL, 0, NULL, NULL), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, RD_P2P_AM_HDR_MAX + 1, NULL, 0, NULL, NULL),
                    RD_EINVAL);
    char big[65] = { 0 };
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, 4, big, sizeof(big), NULL, NULL), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_am_send(2, hdr, 4, NULL, 0, NULL, NULL), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_am_send(-1, hdr, 4, NULL, 0, NULL, NULL), RD_EINVAL);
    CU_ASSERT_EQUAL(fake_tp_nsent(), 1);
}

static void test_send_queued(void)
{
    unsigned char hdr[8] = { RD_AM_RMA_FIRST, 1 };
    int first = 0, second = 0;
    fake_tp_forget();
    ndone = 0;
    fake_tp_refuse(1000);   /* full */
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, sizeof(hdr), "one", 3, sent_done, &first), RD_EAGAIN);
    hdr[1] = 2;   /* the queued copy of the header keeps what was sent */
    /* The transport has room again, but the first message waits: order holds. */
    fake_tp_refuse(0);
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, sizeof(hdr), "two", 3, sent_done, &second),
                    RD_EAGAIN);
    CU_ASSERT_EQUAL(fake_tp_nsent(), 0);
    CU_ASSERT_EQUAL(first + second, 0);
    rd_progress();
    CU_ASSERT_EQUAL(fake_tp_nsent(), 2);
    CU_ASSERT_EQUAL(sent(0)->hdr[1], 1);
    CU_ASSERT_EQUAL(memcmp(sent(0)->payload, "one", 3), 0);
    CU_ASSERT_EQUAL(sent(1)->hdr[1], 2);
    CU_ASSERT_EQUAL(memcmp(sent(1)->payload, "two", 3), 0);
    CU_ASSERT(first && second);
    CU_ASSERT_EQUAL(ndone, 2);
    CU_ASSERT_EQUAL(done_status[0], RD_OK);
    CU_ASSERT_EQUAL(done_status[1], RD_OK);
    rd_progress();
    CU_ASSERT_EQUAL(ndone, 2);   /* once each */
}

static void test_self(void)
{
    unsigned char hdr[4] = { RD_AM_RMA_FIRST, 5 };
    memset(&got, 0, sizeof(got));
    /* The loopback transport runs the handler inside the send. */
    CU_ASSERT_EQUAL(rd_p2p_am_send(0, hdr, sizeof(hdr), "me", 2, NULL, NULL), RD_OK);
    CU_ASSERT_EQUAL(got.calls, 1);
    CU_ASSERT_EQUAL(got.peer, 0);
    CU_ASSERT_EQUAL(got.hdr[1], 5);
    CU_ASSERT_EQUAL(memcmp(got.payload, "me", 2), 0);
}

static int hook_calls, hook_stop_after;
static int hook_id;

static int count_hook(void)
{
    hook_calls++;
    if (hook_calls == hook_stop_after)
        rd_progress_hook_deactivate(hook_id);
    return 0;
}

/* Distinct functions to fill every hook slot, and one more. */
#define FILLER(n) static int filler_hook##n(void) { return 0; }
FILLER(1) FILLER(2) FILLER(3) FILLER(4) FILLER(5) FILLER(6) FILLER(7) FILLER(8)
static rd_progress_hook_fn const fillers[] = { filler_hook1, filler_hook2, filler_hook3,
                                               filler_hook4, filler_hook5, filler_hook6,
                                               filler_hook7, filler_hook8 };
_Static_assert(sizeof(fillers) / sizeof(fillers[0]) >= RD_PROGRESS_HOOKS_MAX,
               "one filler per free slot and one too many");

static void test_hooks(void)
{
    hook_id = rd_progress_hook_register(count_hook);
    CU_ASSERT_FATAL(hook_id >= 0);
    CU_ASSERT_EQUAL(rd_progress_hook_register(count_hook), hook_id);
    hook_calls = 0;
    hook_stop_after = 3;
    rd_progress();
    CU_ASSERT_EQUAL(hook_calls, 0);   /* registered, not active */
    rd_progress_hook_activate(hook_id);
    rd_progress_hook_activate(hook_id);
    rd_progress();
    rd_progress();
    CU_ASSERT_EQUAL(hook_calls, 2);
    rd_progress();                    /* the third call switches itself off */
    rd_progress();
    CU_ASSERT_EQUAL(hook_calls, 3);
    for (int i = 0; i < RD_PROGRESS_HOOKS_MAX - 1; i++) {
        int id = rd_progress_hook_register(fillers[i]);
        CU_ASSERT(id >= 0 && id != hook_id);
    }
    CU_ASSERT_EQUAL(rd_progress_hook_register(fillers[RD_PROGRESS_HOOKS_MAX - 1]), RD_ENOMEM);
}

/* A receive started through rd_p2p_start is matched by an EAGER arrival
 * and another by an unexpected one. */
static void test_eager_recv(void)
{
    int world[2] = { 0, 1 };
    rd_group_t *g = rd_group_new(2, world, 0);
    CU_ASSERT_FATAL(g != NULL);
    rd_comm_t *c = rd_comm_new(g, 4);
    rd_group_release(g);
    CU_ASSERT_FATAL(c != NULL && rd_p2p_attach(c) == RD_OK);

    char buf[16] = { 0 };
    rd_request_t r;
    rd_req_init_local(&r, RD_REQ_RECV);
    CU_ASSERT_EQUAL(rd_p2p_start(&r, buf, sizeof(buf), &rd_dt_bytes, c, 1, 42, RD_MODE_STANDARD,
                                 0), RD_OK);
    CU_ASSERT_EQUAL(r.done, 0);
    rd_msg_hdr_t h;
    memset(&h, 0, sizeof(h));
    h.type = RD_MSG_EAGER;
    h.version = RD_PROTO_VERSION;
    h.ctx = 4;
    h.src = 1;
    h.tag = 42;
    h.len = 5;
    deliver(1, &h, RD_HDR_EAGER_LEN, "hello", 5);
    CU_ASSERT_EQUAL(r.done, 1);
    CU_ASSERT_EQUAL(r.error, RD_OK);
    CU_ASSERT_EQUAL(r.st_source, 1);
    CU_ASSERT_EQUAL(r.st_tag, 42);
    CU_ASSERT_EQUAL(r.st_bytes, 5);
    CU_ASSERT_EQUAL(memcmp(buf, "hello", 5), 0);
    rd_req_free(&r);

    /* Unexpected first, then the receive; a longer message truncates. */
    h.tag = 43;
    deliver(1, &h, RD_HDR_EAGER_LEN, "0123456789abcdefXYZ", 19);
    rd_req_init_local(&r, RD_REQ_RECV);
    CU_ASSERT_EQUAL(rd_p2p_start(&r, buf, sizeof(buf), &rd_dt_bytes, c, 1, RD_ANY_TAG,
                                 RD_MODE_STANDARD, 0), RD_OK);
    CU_ASSERT_EQUAL(r.done, 1);
    CU_ASSERT_EQUAL(r.error, RD_ETRUNC);
    CU_ASSERT_EQUAL(r.st_tag, 43);
    CU_ASSERT_EQUAL(r.st_bytes, sizeof(buf));
    CU_ASSERT_EQUAL(memcmp(buf, "0123456789abcdef", 16), 0);
    rd_req_free(&r);
    rd_comm_release(c);
}

/* Last: rank 1 fails with a message queued for it. */
static void test_peer_failed(void)
{
    unsigned char hdr[4] = { RD_AM_RMA_FIRST };
    int called = 0;
    ndone = 0;
    fake_tp_refuse(1000);   /* full */
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, sizeof(hdr), NULL, 0, sent_done, &called), RD_EAGAIN);
    fake_tp_fail(1, RD_EPEER);
    rd_progress();
    CU_ASSERT_EQUAL(called, 1);
    CU_ASSERT_EQUAL(ndone, 1);
    CU_ASSERT_EQUAL(done_status[0], RD_EPEER);
    fake_tp_refuse(0);
    CU_ASSERT_EQUAL(rd_p2p_am_send(1, hdr, sizeof(hdr), NULL, 0, sent_done, &called), RD_EPEER);
    CU_ASSERT_EQUAL(rd_p2p_failed_peer(), 1);
    rd_progress();
    CU_ASSERT_EQUAL(ndone, 1);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "register", test_register },
        { "dispatch", test_dispatch },
        { "send now", test_send_now },
        { "send queued in order", test_send_queued },
        { "send to self", test_self },
        { "progress hooks", test_hooks },
        { "eager receive through rd_p2p_start", test_eager_recv },
        { "peer failed with a message queued", test_peer_failed },
    };
    return rd_unit_run_fixture("p2p active messages", setup, teardown, tests,
                               RD_UNIT_COUNT(tests));
}
