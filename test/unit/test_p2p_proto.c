/*
 * Unit tests of p2p's protocols against MPI's rules, over the scripted
 * transport (fake_tp.h): this process is job rank 0 of 3 and the test plays
 * ranks 1 and 2, reading what p2p sent and answering with the messages a
 * peer's p2p would send (proto.h), delivered in the order each test
 * scripts. Covered: non-overtaking through bursts of eager and rendezvous
 * messages, wildcard matching order, truncation, sends the transport
 * refuses, failed peers, the rendezvous protocols (get, put, split,
 * streamed copy) and their FIN/ACK/PUT_FIN ends, unknown message types,
 * request ids that name no live request (forged or stale).
 * p2p is process-global, so every test starts and stops its own instance.
 */
#include <stdlib.h>
#include <string.h>

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

#define CTX 4
#define EAGER_MAX 64

static rd_comm_t *comm;

static void down(void)
{
    fake_tp_down(&comm, NULL);
}

/* A p2p instance over a fresh fake with caps, and comm over ranks 0..2. */
static void up(unsigned caps)
{
    static int running;
    if (running)
        down();   /* the previous test stopped at a fatal assertion */
    running = 0;
    CU_ASSERT_FATAL(fake_tp_up(caps, EAGER_MAX, CTX, &comm) == RD_OK);
    running = 1;
}

/* ---- what a peer's p2p would send (proto.h) ---- */

static rd_msg_hdr_t hdr_of(int type, int peer)
{
    rd_msg_hdr_t h;
    memset(&h, 0, sizeof(h));
    h.type = (uint8_t)type;
    h.version = RD_PROTO_VERSION;
    h.ctx = CTX;
    h.src = peer;   /* comm ranks are job ranks here */
    return h;
}

static void peer_eager(int peer, int tag, const char *data, size_t len)
{
    rd_msg_hdr_t h = hdr_of(RD_MSG_EAGER, peer);
    h.tag = tag;
    h.len = len;
    fake_tp_push(peer, &h, RD_HDR_EAGER_LEN, data, len);
}

static void peer_ssend(int peer, int tag, const char *data, size_t len, uint64_t sreq)
{
    rd_msg_hdr_t h = hdr_of(RD_MSG_EAGER, peer);
    h.flags = RD_MSG_F_SYNC;
    h.tag = tag;
    h.len = len;
    h.sreq = sreq;
    fake_tp_push(peer, &h, RD_HDR_SYNC_LEN, data, len);
}

/* An RTS for len bytes at buf; flags RD_MSG_F_GET adds buf's address and key. */
static void peer_rts(int peer, int tag, const char *buf, size_t len, int flags, uint64_t sreq)
{
    rd_msg_hdr_t h = hdr_of(RD_MSG_RTS, peer);
    h.flags = (uint8_t)flags;
    h.tag = tag;
    h.len = len;
    h.sreq = sreq;
    if (flags & RD_MSG_F_GET) {
        h.addr = (uint64_t)(uintptr_t)buf;
        h.keylen = (uint8_t)fake_tp_key(buf, len, h.key);
    }
    fake_tp_push(peer, &h, RD_HDR_RTS_LEN(h.keylen), NULL, 0);
}

/* CTS, FIN, ACK, PUT_FIN. */
static void peer_ctrl(int peer, int type, uint64_t sreq, uint64_t rreq)
{
    rd_msg_hdr_t h = hdr_of(type, peer);
    h.sreq = sreq;
    h.rreq = rreq;
    fake_tp_push(peer, &h, RD_HDR_CTRL_LEN, NULL, 0);
}

/* The receiver's PUT: write [off, len) of sreq's message into buf + off. */
static void peer_put(int peer, uint64_t sreq, uint64_t rreq, char *buf, size_t off, size_t len,
                     int flags)
{
    rd_msg_hdr_t h = hdr_of(RD_MSG_PUT, peer);
    h.flags = (uint8_t)flags;
    h.len = off;
    h.sreq = sreq;
    h.rreq = rreq;
    h.addr = (uint64_t)(uintptr_t)(buf + off);
    h.keylen = (uint8_t)fake_tp_key(buf + off, len - off, h.key);
    fake_tp_push(peer, &h, RD_HDR_RTS_LEN(h.keylen), NULL, 0);
}

/* ---- requests and progress ---- */

static void post_recv(rd_request_t *r, void *buf, size_t n, int src, int tag)
{
    rd_req_init_local(r, RD_REQ_RECV);
    CU_ASSERT_EQUAL(rd_p2p_start(r, buf, n, &rd_dt_bytes, comm, src, tag, RD_MODE_STANDARD, 0),
                    RD_OK);
}

static void post_send(rd_request_t *r, const void *buf, size_t n, int dst, int tag, int mode)
{
    rd_req_init_local(r, RD_REQ_SEND);
    CU_ASSERT_EQUAL(rd_p2p_start(r, buf, n, &rd_dt_bytes, comm, dst, tag, mode, 0), RD_OK);
}

/* Progresses until r is done, at most 20 times (a hang is a failure). */
static int run_until(rd_request_t *r)
{
    for (int i = 0; i < 20 && !r->done; i++)
        rd_progress();
    return r->done;
}

static void progress_n(int n)
{
    while (n-- > 0)
        rd_progress();
}

/* The nth (from 0) message p2p sent of type, or NULL. */
static const rd_msg_hdr_t *sent_type(int type, int nth)
{
    for (int i = 0; i < fake_tp_nsent(); i++)
        if (fake_tp_hdr(i)->type == type && nth-- == 0)
            return fake_tp_hdr(i);
    return NULL;
}

/* Whether the i-th message sent carries the string s (with its NUL). */
static int sent_str(int i, const char *s)
{
    const fake_msg_t *m = fake_tp_sent(i);
    return m && m->len == strlen(s) + 1 && memcmp(m->payload, s, m->len) == 0;
}

static int count_type(int type)
{
    int n = 0;
    for (int i = 0; i < fake_tp_nsent(); i++)
        n += fake_tp_hdr(i)->type == type;
    return n;
}

/* The id p2p gave r on the wire (reqid.h), 0 when it has none. */
static uint64_t id_of(rd_request_t *r)
{
    return P(r)->id;
}

static void fill(char *buf, size_t len, int seed)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (char)(seed + i * 7);
}

static void check_recv(rd_request_t *r, int src, int tag, size_t bytes, int error)
{
    CU_ASSERT_EQUAL(r->done, 1);
    CU_ASSERT_EQUAL(r->error, error);
    CU_ASSERT_EQUAL(r->st_source, src);
    CU_ASSERT_EQUAL(r->st_tag, tag);
    CU_ASSERT_EQUAL(r->st_bytes, bytes);
}

/* ---- non-overtaking ---- */

/* Rank 1 sends eager, rendezvous, eager, rendezvous on one tag; all four
 * arrive in one burst. Two receives were posted before, two are posted
 * after: each must get the message of its rank in send order, whatever
 * protocol carries it. */
static void burst(unsigned caps, int tag_of_late)
{
    up(caps);
    static char big1[200], big2[300], bufs[4][300];
    fill(big1, sizeof(big1), 1);
    fill(big2, sizeof(big2), 2);
    memset(bufs, 0, sizeof(bufs));
    int flags = (caps & RD_TP_RDMA_GET) ? RD_MSG_F_GET : 0;
    rd_request_t r[4];
    post_recv(&r[0], bufs[0], 300, 1, 5);
    post_recv(&r[1], bufs[1], 300, RD_ANY_SOURCE, 5);
    peer_eager(1, 5, "first", 6);
    peer_rts(1, 5, big1, sizeof(big1), flags, 0x1001);
    peer_eager(1, 5, "third", 6);
    peer_rts(1, 5, big2, sizeof(big2), flags, 0x1002);
    rd_progress();
    CU_ASSERT_EQUAL(fake_tp_pending(), 0);
    check_recv(&r[0], 1, 5, 6, RD_OK);
    CU_ASSERT_STRING_EQUAL(bufs[0], "first");
    post_recv(&r[2], bufs[2], 300, 1, tag_of_late);
    post_recv(&r[3], bufs[3], 300, RD_ANY_SOURCE, tag_of_late);
    check_recv(&r[2], 1, 5, 6, RD_OK);   /* the unexpected eager, at once */
    CU_ASSERT_STRING_EQUAL(bufs[2], "third");
    if (!flags) {
        /* Streamed: answer each CTS with the DATA the sender would stream. */
        rd_progress();
        CU_ASSERT_EQUAL_FATAL(count_type(RD_MSG_CTS), 2);
        const rd_msg_hdr_t *c1 = sent_type(RD_MSG_CTS, 0), *c2 = sent_type(RD_MSG_CTS, 1);
        CU_ASSERT_EQUAL(c1->sreq, 0x1001);
        CU_ASSERT_EQUAL(c1->rreq, id_of(&r[1]));
        CU_ASSERT_EQUAL(c2->sreq, 0x1002);
        CU_ASSERT_EQUAL(c2->rreq, id_of(&r[3]));
        for (int k = 0; k < 2; k++) {
            const char *src = k ? big2 : big1;
            size_t len = k ? sizeof(big2) : sizeof(big1);
            for (size_t off = 0; off < len; off += EAGER_MAX) {
                rd_msg_hdr_t h = hdr_of(RD_MSG_DATA, 1);
                h.len = off;
                h.rreq = k ? c2->rreq : c1->rreq;
                size_t n = len - off < EAGER_MAX ? len - off : EAGER_MAX;
                fake_tp_push(1, &h, RD_HDR_CTRL_LEN, src + off, n);
            }
        }
    }
    CU_ASSERT(run_until(&r[1]));
    CU_ASSERT(run_until(&r[3]));
    check_recv(&r[1], 1, 5, sizeof(big1), RD_OK);
    check_recv(&r[3], 1, 5, sizeof(big2), RD_OK);
    CU_ASSERT_EQUAL(memcmp(bufs[1], big1, sizeof(big1)), 0);
    CU_ASSERT_EQUAL(memcmp(bufs[3], big2, sizeof(big2)), 0);
    if (flags) {
        /* Read directly; each read ends with a FIN naming its sender's request. */
        CU_ASSERT_EQUAL_FATAL(count_type(RD_MSG_FIN), 2);
        CU_ASSERT_EQUAL(sent_type(RD_MSG_FIN, 0)->sreq, 0x1001);
        CU_ASSERT_EQUAL(sent_type(RD_MSG_FIN, 1)->sreq, 0x1002);
        CU_ASSERT_EQUAL(fake_tp_stats()->gets, 2);
    }
    for (int i = 0; i < 4; i++)
        rd_req_free(&r[i]);
    down();
}

static void test_burst_get(void) { burst(RD_TP_RDMA_GET, 5); }
static void test_burst_stream(void) { burst(0, RD_ANY_TAG); }

/* ---- wildcards ---- */

static void test_wildcards(void)
{
    up(0);
    char b[8][8];
    memset(b, 0, sizeof(b));
    rd_request_t r[8];
    /* Posted first: a message takes the earliest-posted receive it fits. */
    post_recv(&r[0], b[0], 8, RD_ANY_SOURCE, RD_ANY_TAG);
    post_recv(&r[1], b[1], 8, 1, 7);
    post_recv(&r[2], b[2], 8, RD_ANY_SOURCE, 7);
    post_recv(&r[3], b[3], 8, 2, RD_ANY_TAG);
    peer_eager(2, 9, "m1", 3);
    peer_eager(2, 7, "m2", 3);
    peer_eager(1, 7, "m3", 3);
    peer_eager(2, 4, "m4", 3);
    rd_progress();
    check_recv(&r[0], 2, 9, 3, RD_OK);
    check_recv(&r[1], 1, 7, 3, RD_OK);
    check_recv(&r[2], 2, 7, 3, RD_OK);
    check_recv(&r[3], 2, 4, 3, RD_OK);
    CU_ASSERT_STRING_EQUAL(b[0], "m1");
    CU_ASSERT_STRING_EQUAL(b[1], "m3");
    CU_ASSERT_STRING_EQUAL(b[2], "m2");
    CU_ASSERT_STRING_EQUAL(b[3], "m4");
    /* Unexpected first: a receive takes the earliest arrival it fits. */
    peer_eager(1, 1, "a", 2);
    peer_eager(2, 2, "b", 2);
    peer_eager(1, 2, "c", 2);
    peer_eager(2, 3, "d", 2);
    rd_progress();
    post_recv(&r[4], b[4], 8, RD_ANY_SOURCE, 2);
    post_recv(&r[5], b[5], 8, 1, RD_ANY_TAG);
    post_recv(&r[6], b[6], 8, RD_ANY_SOURCE, RD_ANY_TAG);
    post_recv(&r[7], b[7], 8, RD_ANY_SOURCE, RD_ANY_TAG);
    check_recv(&r[4], 2, 2, 2, RD_OK);
    check_recv(&r[5], 1, 1, 2, RD_OK);
    check_recv(&r[6], 1, 2, 2, RD_OK);
    check_recv(&r[7], 2, 3, 2, RD_OK);
    CU_ASSERT_STRING_EQUAL(b[4], "b");
    CU_ASSERT_STRING_EQUAL(b[5], "a");
    CU_ASSERT_STRING_EQUAL(b[6], "c");
    CU_ASSERT_STRING_EQUAL(b[7], "d");
    for (int i = 0; i < 8; i++)
        rd_req_free(&r[i]);
    down();
}

/* ---- truncation ---- */

/* A receive of 8 bytes (then a guard) gets a longer message: MPI_ERR_TRUNCATE
 * with the first 8 bytes, nothing written past them. */
static void test_trunc_eager(void)
{
    up(0);
    char buf[2][16];
    memset(buf, '#', sizeof(buf));
    rd_request_t r[2];
    post_recv(&r[0], buf[0], 8, 1, 3);
    peer_eager(1, 3, "0123456789abcdefghi", 20);
    peer_eager(1, 4, "ABCDEFGHIJKLMNOPQRS", 20);
    rd_progress();
    post_recv(&r[1], buf[1], 8, 1, 4);
    check_recv(&r[0], 1, 3, 8, RD_ETRUNC);
    check_recv(&r[1], 1, 4, 8, RD_ETRUNC);
    CU_ASSERT_EQUAL(memcmp(buf[0], "01234567########", 16), 0);
    CU_ASSERT_EQUAL(memcmp(buf[1], "ABCDEFGH########", 16), 0);
    rd_req_free(&r[0]);
    rd_req_free(&r[1]);
    down();
}

/* Empty messages, with and without a buffer, posted before and after. */
static void test_empty(void)
{
    up(0);
    char buf[4] = "xyz";
    rd_request_t r[3];
    post_recv(&r[0], NULL, 0, 1, 1);
    post_recv(&r[1], buf, sizeof(buf), 1, 2);
    peer_eager(1, 1, NULL, 0);
    peer_eager(1, 2, NULL, 0);
    peer_eager(1, 3, NULL, 0);
    rd_progress();
    post_recv(&r[2], NULL, 0, 1, 3);
    check_recv(&r[0], 1, 1, 0, RD_OK);
    check_recv(&r[1], 1, 2, 0, RD_OK);
    check_recv(&r[2], 1, 3, 0, RD_OK);
    CU_ASSERT_STRING_EQUAL(buf, "xyz");
    for (int i = 0; i < 3; i++)
        rd_req_free(&r[i]);
    down();
}

static void trunc_rndv(unsigned caps)
{
    up(caps);
    static char big[200], buf[128];
    fill(big, sizeof(big), 3);
    memset(buf, '#', sizeof(buf));
    int flags = caps ? RD_MSG_F_GET : 0;
    rd_request_t r;
    post_recv(&r, buf, 100, 1, 3);
    peer_rts(1, 3, big, sizeof(big), flags, 0x2001);
    rd_progress();
    if (!flags) {
        const rd_msg_hdr_t *cts = sent_type(RD_MSG_CTS, 0);
        CU_ASSERT_FATAL(cts != NULL);
        CU_ASSERT_EQUAL(cts->sreq, 0x2001);
        for (size_t off = 0; off < sizeof(big); off += EAGER_MAX) {
            rd_msg_hdr_t h = hdr_of(RD_MSG_DATA, 1);
            h.len = off;
            h.rreq = cts->rreq;
            size_t n = sizeof(big) - off < EAGER_MAX ? sizeof(big) - off : EAGER_MAX;
            fake_tp_push(1, &h, RD_HDR_CTRL_LEN, big + off, n);
        }
    }
    CU_ASSERT(run_until(&r));
    check_recv(&r, 1, 3, 100, RD_ETRUNC);
    CU_ASSERT_EQUAL(memcmp(buf, big, 100), 0);
    for (size_t i = 100; i < sizeof(buf); i++)
        CU_ASSERT_EQUAL_FATAL(buf[i], '#');
    if (flags) {
        /* The sender's buffer is released by the FIN even so. */
        CU_ASSERT_EQUAL_FATAL(count_type(RD_MSG_FIN), 1);
        CU_ASSERT_EQUAL(sent_type(RD_MSG_FIN, 0)->sreq, 0x2001);
    }
    rd_req_free(&r);
    down();
}

static void test_trunc_rndv_get(void) { trunc_rndv(RD_TP_RDMA_GET); }
static void test_trunc_rndv_stream(void) { trunc_rndv(0); }

/* ---- sends the transport refuses ---- */

static void test_eagain_order(void)
{
    up(0);
    static char big[200];
    fill(big, sizeof(big), 4);
    rd_request_t s[3];
    fake_tp_refuse(2);
    post_send(&s[0], "one", 4, 1, 1, RD_MODE_STANDARD);
    CU_ASSERT_EQUAL(fake_tp_refused(), 1);
    /* Queued behind the first even though the transport would take it. */
    fake_tp_refuse(0);
    post_send(&s[1], "two", 4, 1, 2, RD_MODE_STANDARD);
    post_send(&s[2], big, sizeof(big), 1, 3, RD_MODE_STANDARD);
    CU_ASSERT_EQUAL(rd_p2p_send_now(comm, "four", 5, &rd_dt_bytes, 1, 4), RD_EAGAIN);
    CU_ASSERT_EQUAL(fake_tp_nsent(), 0);
    CU_ASSERT_EQUAL(s[0].done + s[1].done + s[2].done, 0);
    /* Refused once more at the first progress, then all leave in order. */
    fake_tp_refuse(1);
    rd_progress();
    CU_ASSERT_EQUAL(fake_tp_refused(), 2);
    CU_ASSERT_EQUAL(fake_tp_nsent(), 0);
    rd_progress();
    CU_ASSERT_EQUAL_FATAL(fake_tp_nsent(), 3);
    CU_ASSERT_EQUAL(fake_tp_hdr(0)->type, RD_MSG_EAGER);
    CU_ASSERT_EQUAL(fake_tp_hdr(0)->tag, 1);
    CU_ASSERT(sent_str(0, "one"));
    CU_ASSERT_EQUAL(fake_tp_hdr(1)->type, RD_MSG_EAGER);
    CU_ASSERT_EQUAL(fake_tp_hdr(1)->tag, 2);
    CU_ASSERT(sent_str(1, "two"));
    CU_ASSERT_EQUAL(fake_tp_hdr(2)->type, RD_MSG_RTS);
    CU_ASSERT_EQUAL(fake_tp_hdr(2)->tag, 3);
    CU_ASSERT_EQUAL(fake_tp_hdr(2)->sreq, id_of(&s[2]));
    CU_ASSERT(s[0].done && s[1].done);
    CU_ASSERT_EQUAL(s[0].error, RD_OK);
    CU_ASSERT_EQUAL(s[2].done, 0);
    /* The queue is empty again: the blocking fast path sends at once. */
    CU_ASSERT_EQUAL(rd_p2p_send_now(comm, "four", 5, &rd_dt_bytes, 1, 4), RD_OK);
    CU_ASSERT_EQUAL_FATAL(fake_tp_nsent(), 4);
    CU_ASSERT_EQUAL(fake_tp_hdr(3)->tag, 4);
    /* The rendezvous goes on: stream after the CTS, refused once midway. */
    peer_ctrl(1, RD_MSG_CTS, id_of(&s[2]), 0x77);
    fake_tp_forget();
    rd_progress();
    fake_tp_refuse(1);
    CU_ASSERT(run_until(&s[2]));
    CU_ASSERT_EQUAL(s[2].error, RD_OK);
    char got[200];
    size_t total = 0;
    for (int i = 0; i < fake_tp_nsent(); i++) {
        const rd_msg_hdr_t *h = fake_tp_hdr(i);
        CU_ASSERT_EQUAL_FATAL(h->type, RD_MSG_DATA);
        CU_ASSERT_EQUAL(h->rreq, 0x77);
        CU_ASSERT_FATAL(h->len + fake_tp_sent(i)->len <= sizeof(got));
        memcpy(got + h->len, fake_tp_sent(i)->payload, fake_tp_sent(i)->len);
        total += fake_tp_sent(i)->len;
    }
    CU_ASSERT_EQUAL(total, sizeof(big));
    CU_ASSERT_EQUAL(memcmp(got, big, sizeof(big)), 0);
    for (int i = 0; i < 3; i++)
        rd_req_free(&s[i]);
    down();
}

/* ---- failed peers ---- */

static void test_peer_failed(void)
{
    up(0);
    static char big[200], b[8][16];
    rd_request_t r[7], s[3];
    peer_eager(1, 99, "early", 6);   /* arrives before the failure */
    rd_progress();
    post_recv(&r[0], b[0], 16, 1, 5);
    post_recv(&r[1], b[1], 16, RD_ANY_SOURCE, 5);
    post_recv(&r[2], b[2], 16, 2, 5);
    post_send(&s[0], "sync", 5, 1, 1, RD_MODE_SYNC);              /* waits for its ACK */
    post_send(&s[1], big, sizeof(big), 1, 2, RD_MODE_STANDARD);   /* waits for its CTS */
    fake_tp_refuse(1);
    post_send(&s[2], "queued", 7, 1, 3, RD_MODE_STANDARD);        /* waits in the queue */
    CU_ASSERT_EQUAL(s[0].done + s[1].done + s[2].done, 0);
    fake_tp_fail(1, RD_EPEER);
    rd_progress();
    CU_ASSERT_EQUAL(r[0].done, 1);
    CU_ASSERT_EQUAL(r[0].error, RD_EPEER);
    CU_ASSERT_EQUAL(r[1].done, 1);
    CU_ASSERT_EQUAL(r[1].error, RD_EPEER);
    CU_ASSERT_EQUAL(r[2].done, 0);   /* rank 2 is alive */
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(s[i].done, 1);
        CU_ASSERT_EQUAL(s[i].error, RD_EPEER);
    }
    /* After the failure: receives naming it, or any source, end at once... */
    post_recv(&r[3], b[3], 16, 1, 6);
    post_recv(&r[4], b[4], 16, RD_ANY_SOURCE, 6);
    CU_ASSERT(r[3].done && r[3].error == RD_EPEER);
    CU_ASSERT(r[4].done && r[4].error == RD_EPEER);
    /* ... but what it sent before is still received, and rank 2 still works. */
    post_recv(&r[5], b[5], 16, 1, 99);
    check_recv(&r[5], 1, 99, 6, RD_OK);
    CU_ASSERT_STRING_EQUAL(b[5], "early");
    peer_eager(2, 5, "alive", 6);
    CU_ASSERT(run_until(&r[2]));
    check_recv(&r[2], 2, 5, 6, RD_OK);
    post_recv(&r[6], b[6], 16, 2, 7);
    peer_eager(2, 7, "still", 6);
    CU_ASSERT(run_until(&r[6]));
    CU_ASSERT_EQUAL(r[6].error, RD_OK);
    for (int i = 0; i < 7; i++)
        rd_req_free(&r[i]);
    for (int i = 0; i < 3; i++)
        rd_req_free(&s[i]);
    down();
}

/* ---- rendezvous and synchronous ends ---- */

static void test_ack_fin(void)
{
    up(RD_TP_RDMA_GET);
    static char big[200];
    fill(big, sizeof(big), 5);
    rd_request_t s[2], r;
    /* A synchronous eager send is done at the receiver's ACK, not before. */
    post_send(&s[0], "sync", 5, 1, 3, RD_MODE_SYNC);
    const rd_msg_hdr_t *h = fake_tp_hdr(0);
    CU_ASSERT_FATAL(h != NULL);
    CU_ASSERT_EQUAL(h->type, RD_MSG_EAGER);
    CU_ASSERT(h->flags & RD_MSG_F_SYNC);
    CU_ASSERT_EQUAL(fake_tp_sent(0)->hdrlen, RD_HDR_SYNC_LEN);
    CU_ASSERT_EQUAL(h->sreq, id_of(&s[0]));
    progress_n(3);
    CU_ASSERT_EQUAL(s[0].done, 0);
    peer_ctrl(1, RD_MSG_ACK, id_of(&s[0]), 0);
    CU_ASSERT(run_until(&s[0]));
    CU_ASSERT_EQUAL(s[0].error, RD_OK);
    /* A rendezvous send offers its buffer for reading and is done at the FIN. */
    post_send(&s[1], big, sizeof(big), 1, 4, RD_MODE_STANDARD);
    h = fake_tp_hdr(1);
    CU_ASSERT_FATAL(h != NULL);
    CU_ASSERT_EQUAL(h->type, RD_MSG_RTS);
    CU_ASSERT(h->flags & RD_MSG_F_GET);
    CU_ASSERT_EQUAL(h->len, sizeof(big));
    CU_ASSERT_EQUAL(h->addr, (uint64_t)(uintptr_t)big);
    CU_ASSERT(fake_tp_key_covers(h->key, h->keylen, big, sizeof(big)));
    CU_ASSERT_EQUAL(fake_tp_sent(1)->hdrlen, RD_HDR_RTS_LEN(h->keylen));
    progress_n(3);
    CU_ASSERT_EQUAL(s[1].done, 0);
    peer_ctrl(1, RD_MSG_FIN, h->sreq, 0);
    CU_ASSERT(run_until(&s[1]));
    CU_ASSERT_EQUAL(s[1].error, RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats()->releases, fake_tp_stats()->keys);
    /* A synchronous message received late is acknowledged at the match. */
    peer_ssend(2, 8, "hi", 3, 0xabc);
    rd_progress();
    CU_ASSERT_EQUAL(count_type(RD_MSG_ACK), 0);
    char buf[4];
    post_recv(&r, buf, sizeof(buf), 2, 8);
    check_recv(&r, 2, 8, 3, RD_OK);
    rd_progress();
    CU_ASSERT_EQUAL_FATAL(count_type(RD_MSG_ACK), 1);
    CU_ASSERT_EQUAL(sent_type(RD_MSG_ACK, 0)->sreq, 0xabc);
    CU_ASSERT_EQUAL(fake_tp_sent(fake_tp_nsent() - 1)->peer, 2);
    for (int i = 0; i < 2; i++)
        rd_req_free(&s[i]);
    rd_req_free(&r);
    down();
}

/* The receiver prefers the sender to write (RTS with F_PUT only): it sends
 * the key of its whole buffer and is done at the PUT_FIN. */
static void test_put_recv(void)
{
    up(RD_TP_RDMA_GET | RD_TP_RDMA_PUT);
    static char big[200], buf[200];
    fill(big, sizeof(big), 6);
    rd_request_t r;
    post_recv(&r, buf, sizeof(buf), 1, 2);
    peer_rts(1, 2, big, sizeof(big), RD_MSG_F_PUT, 0x3001);
    rd_progress();
    const rd_msg_hdr_t *h = sent_type(RD_MSG_PUT, 0);
    CU_ASSERT_FATAL(h != NULL);
    CU_ASSERT(h->flags & RD_MSG_F_WHOLE);
    CU_ASSERT_EQUAL(h->len, 0);
    CU_ASSERT_EQUAL(h->sreq, 0x3001);
    CU_ASSERT_EQUAL(h->addr, (uint64_t)(uintptr_t)buf);
    CU_ASSERT_FATAL(fake_tp_key_covers(h->key, h->keylen, buf, sizeof(buf)));
    memcpy((void *)(uintptr_t)h->addr, big, sizeof(big));   /* the sender's put */
    progress_n(2);
    CU_ASSERT_EQUAL(r.done, 0);
    peer_ctrl(1, RD_MSG_PUT_FIN, 0, h->rreq);
    CU_ASSERT(run_until(&r));
    check_recv(&r, 1, 2, sizeof(big), RD_OK);
    CU_ASSERT_EQUAL(memcmp(buf, big, sizeof(big)), 0);
    CU_ASSERT_EQUAL(fake_tp_stats()->gets, 0);
    CU_ASSERT_EQUAL(count_type(RD_MSG_FIN), 0);
    CU_ASSERT_EQUAL(fake_tp_stats()->releases, fake_tp_stats()->keys);
    rd_req_free(&r);
    down();
}

/* The receiver asks this sender to write: whole (PUT with F_WHOLE, done at
 * our put), or the second half of a split (done at our put and its FIN). */
static void put_send(int whole)
{
    up(RD_TP_RDMA_GET | RD_TP_RDMA_PUT);
    static char big[256], dst[256];
    fill(big, sizeof(big), 7);
    memset(dst, 0, sizeof(dst));
    rd_request_t s;
    post_send(&s, big, sizeof(big), 1, 2, RD_MODE_STANDARD);
    const rd_msg_hdr_t *rts = sent_type(RD_MSG_RTS, 0);
    CU_ASSERT_FATAL(rts != NULL);
    size_t off = whole ? 0 : 128;
    peer_put(1, rts->sreq, 0x4001, dst, off, sizeof(dst), whole ? RD_MSG_F_WHOLE : 0);
    progress_n(3);
    CU_ASSERT_EQUAL(fake_tp_stats()->puts, 1);
    CU_ASSERT_EQUAL_FATAL(count_type(RD_MSG_PUT_FIN), 1);
    CU_ASSERT_EQUAL(sent_type(RD_MSG_PUT_FIN, 0)->rreq, 0x4001);
    CU_ASSERT_EQUAL(memcmp(dst + off, big + off, sizeof(big) - off), 0);
    if (!whole) {
        CU_ASSERT_EQUAL(s.done, 0);   /* the receiver still reads its half */
        memcpy(dst, big, off);
        peer_ctrl(1, RD_MSG_FIN, rts->sreq, 0);
    }
    CU_ASSERT(run_until(&s));
    CU_ASSERT_EQUAL(s.error, RD_OK);
    CU_ASSERT_EQUAL(memcmp(dst, big, sizeof(big)), 0);
    CU_ASSERT_EQUAL(fake_tp_stats()->releases, fake_tp_stats()->keys);
    rd_req_free(&s);
    down();
}

static void test_put_send_whole(void) { put_send(1); }
static void test_put_send_split(void) { put_send(0); }

/* A split receive (RDMPI_RNDV_SPLIT=1 splits every rendezvous): reads the
 * first half, asks the sender to write the second, FIN for its half, done
 * only once the PUT_FIN came too. */
static void test_split_recv(void)
{
    setenv("RDMPI_RNDV_SPLIT", "1", 1);
    up(RD_TP_RDMA_GET | RD_TP_RDMA_PUT);
    unsetenv("RDMPI_RNDV_SPLIT");
    static char big[256], buf[256];
    fill(big, sizeof(big), 8);
    memset(buf, 0, sizeof(buf));
    rd_request_t r;
    post_recv(&r, buf, sizeof(buf), 1, 2);
    peer_rts(1, 2, big, sizeof(big), RD_MSG_F_GET | RD_MSG_F_PUT, 0x5001);
    rd_progress();
    const rd_msg_hdr_t *h = sent_type(RD_MSG_PUT, 0);
    CU_ASSERT_FATAL(h != NULL);
    CU_ASSERT_EQUAL(h->flags & RD_MSG_F_WHOLE, 0);
    size_t split = h->len;
    CU_ASSERT_FATAL(split > 0 && split < sizeof(big));
    CU_ASSERT_EQUAL(h->addr, (uint64_t)(uintptr_t)(buf + split));
    CU_ASSERT(fake_tp_key_covers(h->key, h->keylen, buf + split, sizeof(buf) - split));
    uint64_t rreq = h->rreq;
    memcpy(buf + split, big + split, sizeof(big) - split);   /* the sender's put */
    progress_n(2);
    CU_ASSERT_EQUAL(fake_tp_stats()->gets, 1);
    CU_ASSERT_EQUAL_FATAL(count_type(RD_MSG_FIN), 1);
    CU_ASSERT_EQUAL(sent_type(RD_MSG_FIN, 0)->sreq, 0x5001);
    CU_ASSERT_EQUAL(r.done, 0);
    peer_ctrl(1, RD_MSG_PUT_FIN, 0, rreq);
    CU_ASSERT(run_until(&r));
    check_recv(&r, 1, 2, sizeof(big), RD_OK);
    CU_ASSERT_EQUAL(memcmp(buf, big, sizeof(big)), 0);
    CU_ASSERT_EQUAL(fake_tp_stats()->releases, fake_tp_stats()->keys);
    rd_req_free(&r);
    down();
}

/* ---- message types nobody handles ---- */

static void test_unknown_type(void)
{
    up(0);
    static const uint8_t types[] = { 0, RD_AM_P2P_LAST, RD_AM_COLL_FIRST + 3, RD_AM_RMA_LAST,
                                     200, 255 };
    char buf[8];
    rd_request_t r;
    post_recv(&r, buf, sizeof(buf), 1, 1);
    for (size_t i = 0; i < sizeof(types); i++) {
        unsigned char hdr[RD_HDR_CTRL_LEN];
        memset(hdr, 0xff, sizeof(hdr));
        hdr[0] = types[i];
        fake_tp_push(1, hdr, sizeof(hdr), "junk", 5);
    }
    peer_eager(1, 1, "after", 6);
    rd_progress();
    check_recv(&r, 1, 1, 6, RD_OK);
    CU_ASSERT_STRING_EQUAL(buf, "after");
    CU_ASSERT_EQUAL(fake_tp_nsent(), 0);
    rd_req_free(&r);
    down();
}

/* ---- ids from the wire ---- */

/* Messages that name a request this rank never gave out, one that ended, one
 * of another peer or in another state: each is dropped and counted, no
 * request moves, nothing is dereferenced; then the real answers finish
 * every request. */
static void test_forged_ids(void)
{
    up(RD_TP_RDMA_GET);
    static char big[200], got[200];
    fill(big, sizeof(big), 9);
    rd_request_t ss, rs, rr;
    post_send(&ss, "sync", 5, 1, 3, RD_MODE_SYNC);
    post_send(&rs, big, sizeof(big), 1, 4, RD_MODE_STANDARD);
    post_recv(&rr, got, sizeof(got), 2, 5);
    peer_rts(2, 5, big, sizeof(big), 0, 0x2001);   /* no F_GET: a CTS answers */
    rd_progress();
    const rd_msg_hdr_t *cts = sent_type(RD_MSG_CTS, 0);
    CU_ASSERT_FATAL(cts != NULL);
    uint64_t sid = id_of(&ss), rsid = id_of(&rs), rid = cts->rreq;
    CU_ASSERT_FATAL(sid && rsid && rid == id_of(&rr));
    const uint64_t bogus[] = { 0, 1, 0xdead0000beefull, (uint64_t)(uintptr_t)&ss,
                               (uint64_t)(uintptr_t)&rr, sid + 4096, sid ^ (1ull << 45),
                               UINT64_MAX };
    int n = 0;
    for (size_t i = 0; i < sizeof(bogus) / sizeof(bogus[0]); i++) {
        peer_ctrl(1, RD_MSG_ACK, bogus[i], 0);
        peer_ctrl(1, RD_MSG_CTS, bogus[i], 0x3001);
        peer_ctrl(1, RD_MSG_FIN, bogus[i], 0);
        peer_ctrl(2, RD_MSG_PUT_FIN, 0, bogus[i]);
        peer_put(1, bogus[i], 0x3002, got, 0, sizeof(got), RD_MSG_F_WHOLE);
        rd_msg_hdr_t h = hdr_of(RD_MSG_DATA, 2);
        h.rreq = bogus[i];
        fake_tp_push(2, &h, RD_HDR_CTRL_LEN, "xxxxxxxx", 8);
        n += 6;
    }
    /* Live ids, but from the wrong peer or for the wrong step. */
    peer_ctrl(2, RD_MSG_ACK, sid, 0);        /* ss waits for rank 1 */
    peer_ctrl(1, RD_MSG_ACK, rsid, 0);       /* rs is a rendezvous, not a sync send */
    peer_ctrl(1, RD_MSG_FIN, sid, 0);        /* ss has no FIN to wait for */
    peer_ctrl(1, RD_MSG_PUT_FIN, 0, rid);    /* rr talks with rank 2 */
    n += 4;
    progress_n(3);
    CU_ASSERT_EQUAL(fake_tp_pending(), 0);
    CU_ASSERT_EQUAL(ss.done, 0);
    CU_ASSERT_EQUAL(rs.done, 0);
    CU_ASSERT_EQUAL(rr.done, 0);
    CU_ASSERT_EQUAL(fake_tp_stats()->puts, 0);
    CU_ASSERT_EQUAL(rd_p2p.bad_ids, (unsigned long)n);
    char line[256];
    CU_ASSERT_EQUAL(rd_p2p_dropped(line, sizeof(line)), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "dropped"));
    /* The real answers. */
    peer_ctrl(1, RD_MSG_ACK, sid, 0);
    peer_ctrl(1, RD_MSG_FIN, rsid, 0);
    for (size_t off = 0; off < sizeof(big); off += EAGER_MAX) {
        rd_msg_hdr_t h = hdr_of(RD_MSG_DATA, 2);
        h.len = off;
        h.rreq = rid;
        size_t k = sizeof(big) - off < EAGER_MAX ? sizeof(big) - off : EAGER_MAX;
        fake_tp_push(2, &h, RD_HDR_CTRL_LEN, big + off, k);
    }
    CU_ASSERT(run_until(&ss));
    CU_ASSERT(run_until(&rs));
    CU_ASSERT(run_until(&rr));
    CU_ASSERT_EQUAL(ss.error, RD_OK);
    CU_ASSERT_EQUAL(rs.error, RD_OK);
    check_recv(&rr, 2, 5, sizeof(big), RD_OK);
    CU_ASSERT(memcmp(got, big, sizeof(big)) == 0);
    CU_ASSERT_EQUAL(rd_p2p.bad_ids, (unsigned long)n);
    /* Once ended, their ids are stale: a late duplicate is dropped too. */
    peer_ctrl(1, RD_MSG_ACK, sid, 0);
    peer_ctrl(1, RD_MSG_FIN, rsid, 0);
    peer_ctrl(2, RD_MSG_PUT_FIN, 0, rid);
    progress_n(2);
    CU_ASSERT_EQUAL(rd_p2p.bad_ids, (unsigned long)n + 3);
    CU_ASSERT_EQUAL(rd_p2p.ids.live, 0);
    rd_req_free(&ss);
    rd_req_free(&rs);
    rd_req_free(&rr);
    down();
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "non-overtaking burst, read by get", test_burst_get },
        { "non-overtaking burst, streamed", test_burst_stream },
        { "wildcard matching order", test_wildcards },
        { "truncated eager", test_trunc_eager },
        { "empty messages", test_empty },
        { "truncated rendezvous by get", test_trunc_rndv_get },
        { "truncated rendezvous streamed", test_trunc_rndv_stream },
        { "refused sends queue in order", test_eagain_order },
        { "failed peer ends what waits on it", test_peer_failed },
        { "ACK and FIN end sends", test_ack_fin },
        { "receive written by the sender's put", test_put_recv },
        { "send writes the whole message", test_put_send_whole },
        { "send writes the second half of a split", test_put_send_split },
        { "split receive", test_split_recv },
        { "unknown message types are dropped", test_unknown_type },
        { "forged and stale request ids are dropped", test_forged_ids },
    };
    return rd_unit_run("p2p protocols", tests, RD_UNIT_COUNT(tests));
}
