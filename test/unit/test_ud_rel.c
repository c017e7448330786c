/*
 * Unit tests of the UD reliability layer (src/transport/verbs/ud/rel.c):
 * two or three engines joined by a simulated link that loses, duplicates
 * and reorders packets, on a simulated clock. Randomized message streams
 * (sizes 0 to the largest) must arrive complete, in order, exactly once,
 * while the windows bound what is in flight and what the engines hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "transport/verbs/ud/rel.h"
#include "util/status.h"

#define MAXN 3

/* --- the simulated link ------------------------------------------------- */

typedef struct sim_pkt {
    int dst;
    uint64_t at;                 /* arrival time */
    size_t len;
    uint8_t *data;
} sim_pkt_t;

typedef struct msg_hdr {         /* the "p2p header" of every test message */
    uint32_t src, dst, seq, len;
} msg_hdr_t;

static struct sim {
    int n;
    uint64_t now;
    double loss, dup;            /* link faults, on top of the engines' drop knob */
    uint64_t delay, jitter;      /* one-way latency: delay + [0, jitter) */
    int fifo;                    /* packets due together arrive in order sent */
    uint64_t rng;
    sim_pkt_t *q;
    size_t nq, capq;
    int hold[MAXN];              /* node does not take packets off the wire */
    rd_udr_t *e[MAXN];
    int id[MAXN];
    /* streams */
    uint32_t to_send[MAXN][MAXN], sent[MAXN][MAXN], got[MAXN][MAXN];
    size_t msg_max;
    int errors;
    uint64_t posted[MAXN][MAXN]; /* packets node i put on the wire to j */
} sim;

static uint64_t rnd(void)
{
    sim.rng ^= sim.rng >> 12;
    sim.rng ^= sim.rng << 25;
    sim.rng ^= sim.rng >> 27;
    return sim.rng * 2685821657736338717ULL;
}

static double rnd01(void)
{
    return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0);
}

static void enqueue(int dst, const void *pkt, size_t len)
{
    if (sim.nq == sim.capq) {
        sim.capq = sim.capq ? 2 * sim.capq : 256;
        sim.q = realloc(sim.q, sim.capq * sizeof(sim_pkt_t));
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim.q);
    }
    sim_pkt_t *s = &sim.q[sim.nq++];
    s->dst = dst;
    s->at = sim.now + sim.delay + (sim.jitter ? rnd() % sim.jitter : 0);
    s->len = len;
    s->data = malloc(len ? len : 1);
    memcpy(s->data, pkt, len);
}

static int sim_post(void *ctx, int peer, const void *pkt, size_t len)
{
    int self = *(int *)ctx;
    sim.posted[self][peer]++;
    if (rnd01() < sim.loss)
        return RD_OK;
    enqueue(peer, pkt, len);
    if (rnd01() < sim.dup)
        enqueue(peer, pkt, len);
    return RD_OK;
}

static uint64_t sim_now(void *ctx)
{
    (void)ctx;
    return sim.now;
}

/* Deterministic content and size of message seq from src to dst. */
static uint8_t pattern(uint32_t src, uint32_t dst, uint32_t seq, size_t i)
{
    return (uint8_t)(src * 131 + dst * 71 + seq * 29 + i * 7 + (i >> 8));
}

static size_t msg_size(uint32_t src, uint32_t dst, uint32_t seq)
{
    uint64_t h = (src * 1000003ULL + dst * 7919ULL + seq) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    size_t max = sim.msg_max - sizeof(msg_hdr_t);
    size_t n;
    switch (h % 10) {
    case 0: case 1: case 2: n = (h >> 8) % 17; break;      /* 0..16 */
    case 3: case 4: case 5: n = (h >> 8) % 1024; break;
    case 6: n = max; break;                                 /* the largest */
    case 7: n = (h >> 8) % 8 + 204; break;                  /* around a packet edge */
    default: n = (h >> 8) % (max + 1); break;
    }
    return n < max ? n : max;
}

static void sim_deliver(void *ctx, int peer, const void *hdr, size_t hdrlen,
                        const void *payload, size_t len)
{
    int self = *(int *)ctx;
    msg_hdr_t h;
    if (hdrlen != sizeof(h)) {
        sim.errors++;
        return;
    }
    memcpy(&h, hdr, sizeof(h));
    if (h.src != (uint32_t)peer || h.dst != (uint32_t)self || h.len != len ||
        h.seq != sim.got[peer][self] || len != msg_size(h.src, h.dst, h.seq)) {
        sim.errors++;
        return;
    }
    const uint8_t *b = payload;
    for (size_t i = 0; i < len; i++)
        if (b[i] != pattern(h.src, h.dst, h.seq, i)) {
            sim.errors++;
            return;
        }
    sim.got[peer][self]++;
}

static rd_udr_cfg_t base_cfg(int self, int n)
{
    rd_udr_cfg_t c = {
        .self = self, .npeers = n, .mtu = 256, .msg_max = 20000, .window = 16,
        .init_credits = 16, .ack_every = 4, .ack_delay_us = 50, .rto_us = 400,
        .rto_max_us = 10000, .timeout_us = 0, .drop_rate = 0, .seed = 7,
    };
    return c;
}

static void sim_setup(int n, const rd_udr_cfg_t *cfgs, uint64_t seed)
{
    for (size_t i = 0; i < sim.nq; i++)
        free(sim.q[i].data);
    free(sim.q);
    memset(&sim, 0, sizeof(sim));
    sim.n = n;
    sim.rng = seed * 0x9E3779B97F4A7C15ULL | 1;
    sim.msg_max = cfgs[0].msg_max;
    for (int i = 0; i < n; i++) {
        sim.id[i] = i;
        rd_udr_ops_t ops = {.ctx = &sim.id[i], .post = sim_post, .deliver = sim_deliver,
                            .now = sim_now};
        int st;
        sim.e[i] = rd_udr_create(&cfgs[i], &ops, &st);
        CU_ASSERT_EQUAL_FATAL(st, RD_OK);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim.e[i]);
    }
}

static void sim_teardown(void)
{
    for (int i = 0; i < sim.n; i++)
        rd_udr_destroy(sim.e[i]);
    for (size_t i = 0; i < sim.nq; i++)
        free(sim.q[i].data);
    free(sim.q);
    sim.q = NULL;
    sim.nq = sim.capq = 0;
}

/* Delivers, in random order, the packets due now. Returns how many. */
static int sim_step(void)
{
    size_t ndue = 0;
    sim_pkt_t *due = malloc((sim.nq + 1) * sizeof(sim_pkt_t));
    size_t keep = 0;
    for (size_t i = 0; i < sim.nq; i++) {
        if (sim.q[i].at <= sim.now && !sim.hold[sim.q[i].dst])
            due[ndue++] = sim.q[i];
        else
            sim.q[keep++] = sim.q[i];
    }
    sim.nq = keep;
    for (size_t i = sim.fifo ? 0 : ndue; i > 1; i--) {
        size_t j = rnd() % i;
        sim_pkt_t t = due[i - 1];
        due[i - 1] = due[j];
        due[j] = t;
    }
    for (size_t i = 0; i < ndue; i++) {
        if (rd_udr_input(sim.e[due[i].dst], due[i].data, due[i].len) < 0)
            CU_FAIL("rd_udr_input failed");
        free(due[i].data);
    }
    free(due);
    return (int)ndue;
}

static int try_send(int s, int d)
{
    uint32_t seq = sim.sent[s][d];
    size_t len = msg_size((uint32_t)s, (uint32_t)d, seq);
    msg_hdr_t h = {(uint32_t)s, (uint32_t)d, seq, (uint32_t)len};
    uint8_t *buf = malloc(len ? len : 1);
    for (size_t i = 0; i < len; i++)
        buf[i] = pattern((uint32_t)s, (uint32_t)d, seq, i);
    int rc = rd_udr_send(sim.e[s], d, &h, sizeof(h), buf, len);
    /* scribble over the caller's buffers: the engine must have copied them */
    memset(buf, 0xEE, len);
    memset(&h, 0xEE, sizeof(h));
    free(buf);
    if (rc == RD_OK)
        sim.sent[s][d]++;
    return rc;
}

/* Runs the streams to the end; checks invariants at every step. Returns
 * the number of steps taken. */
static long sim_run(long max_steps, uint64_t step_us)
{
    long step;
    for (step = 0; step < max_steps; step++) {
        sim.now += step_us;
        for (int s = 0; s < sim.n; s++)
            for (int d = 0; d < sim.n; d++) {
                if (s == d)
                    continue;
                /* a few messages per step, until the window pushes back */
                for (int k = 0; k < 3 && sim.sent[s][d] < sim.to_send[s][d]; k++) {
                    int rc = try_send(s, d);
                    if (rc != RD_OK && rc != RD_EAGAIN)
                        CU_FAIL("rd_udr_send failed");
                    if (rc != RD_OK)
                        break;
                }
            }
        sim_step();
        /* checked every step, reported only when broken (CUnit keeps a
         * record per assertion) */
        for (int i = 0; i < sim.n; i++)
            if (rd_udr_poll(sim.e[i]) < 0)
                CU_FAIL("rd_udr_poll failed");
        for (int s = 0; s < sim.n; s++)
            for (int d = 0; d < sim.n; d++)
                if (s != d && rd_udr_inflight(sim.e[s], d) > 16)
                    CU_FAIL("more packets in flight than the window");
        int done = sim.nq == 0;
        for (int s = 0; s < sim.n && done; s++) {
            done = rd_udr_quiet(sim.e[s]);
            for (int d = 0; d < sim.n && done; d++)
                done = sim.got[s][d] == sim.to_send[s][d] && sim.sent[s][d] == sim.to_send[s][d];
        }
        if (done)
            break;
    }
    /* Memory per peer: window tx and rx slots, one staged tail and one
     * reassembly buffer, each at most a message. */
    for (int i = 0; i < sim.n; i++) {
        rd_udr_stats_t st;
        rd_udr_get_stats(sim.e[i], &st);
        size_t bound = (size_t)(sim.n - 1) * (16 * (256 + 32) * 2 + 2 * 20000);
        CU_ASSERT(st.mem_peak <= bound);
        CU_ASSERT(st.mem_peak > 0);
    }
    return step;
}

static void check_all_arrived(void)
{
    CU_ASSERT_EQUAL(sim.errors, 0);
    for (int s = 0; s < sim.n; s++)
        for (int d = 0; d < sim.n; d++) {
            CU_ASSERT_EQUAL(sim.sent[s][d], sim.to_send[s][d]);
            CU_ASSERT_EQUAL(sim.got[s][d], sim.to_send[s][d]);
        }
    uint64_t delivered = 0, expected = 0;
    for (int i = 0; i < sim.n; i++) {
        rd_udr_stats_t st;
        rd_udr_get_stats(sim.e[i], &st);
        delivered += st.delivered;
        CU_ASSERT_EQUAL(st.bad, 0);
        CU_ASSERT_EQUAL(st.overrun, 0);
    }
    for (int s = 0; s < sim.n; s++)
        for (int d = 0; d < sim.n; d++)
            expected += sim.to_send[s][d];
    CU_ASSERT_EQUAL(delivered, expected);
}

static void streams(int n, uint32_t count)
{
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            sim.to_send[s][d] = s == d ? 0 : count;
}

/* --- tests -------------------------------------------------------------- */

static void test_clean_link(void)
{
    /* No faults, a timeout far above the latency: everything arrives, and
     * nothing is ever sent twice. */
    rd_udr_cfg_t c[2] = {base_cfg(0, 2), base_cfg(1, 2)};
    sim_setup(2, c, 1);
    sim.delay = 20;
    sim.fifo = 1;
    streams(2, 300);
    long steps = sim_run(200000, 10);
    CU_ASSERT(steps < 200000);
    check_all_arrived();
    for (int i = 0; i < 2; i++) {
        rd_udr_stats_t st;
        rd_udr_get_stats(sim.e[i], &st);
        CU_ASSERT_EQUAL(st.retrans, 0);
        CU_ASSERT_EQUAL(st.dups, 0);
        CU_ASSERT_EQUAL(st.early, 0);
        CU_ASSERT(st.pkts_sent > 300);
    }
    sim_teardown();
}

static void lossy(int n, double loss, double dup, double drop, uint32_t count, uint64_t seed,
                  uint32_t first_psn)
{
    rd_udr_cfg_t c[MAXN] = {{0}};
    for (int i = 0; i < n; i++) {
        c[i] = base_cfg(i, n);
        c[i].drop_rate = drop;
        c[i].seed = seed + (uint64_t)i;
        c[i].first_psn = first_psn;
    }
    sim_setup(n, c, seed);
    sim.loss = loss;
    sim.dup = dup;
    sim.delay = 20;
    sim.jitter = 300;            /* packets overtake each other */
    streams(n, count);
    long steps = sim_run(2000000, 10);
    CU_ASSERT(steps < 2000000);
    check_all_arrived();
    uint64_t retrans = 0, dups = 0, early = 0, dropped = 0;
    for (int i = 0; i < n; i++) {
        rd_udr_stats_t st;
        rd_udr_get_stats(sim.e[i], &st);
        retrans += st.retrans;
        dups += st.dups;
        early += st.early;
        dropped += st.dropped;
    }
    /* the faults did happen, and were repaired */
    CU_ASSERT(retrans > 0);
    CU_ASSERT(dups > 0);
    CU_ASSERT(early > 0);
    if (drop > 0)
        CU_ASSERT(dropped > 0);
    sim_teardown();
}

static void test_lossy_two(void)
{
    lossy(2, 0.10, 0.05, 0.05, 300, 11, 0);
}

static void test_lossy_three(void)
{
    lossy(3, 0.08, 0.05, 0.05, 150, 23, 0);
}

static void test_psn_wrap(void)
{
    /* start just below 2^32: the PSNs wrap in the middle of the run */
    lossy(2, 0.05, 0.02, 0, 200, 31, 0xFFFFFF80u);
}

static void test_heavy_loss(void)
{
    lossy(2, 0.30, 0.10, 0.10, 60, 41, 0);
}

/* Virtual time to move 200 messages each way over a lossy link. */
static uint64_t lossy_time(uint64_t rto, uint64_t rto_min)
{
    rd_udr_cfg_t c[2] = {base_cfg(0, 2), base_cfg(1, 2)};
    for (int i = 0; i < 2; i++) {
        c[i].rto_us = rto;
        c[i].rto_min_us = rto_min;
        c[i].rto_max_us = 200000;
    }
    sim_setup(2, c, 51);
    sim.loss = 0.05;
    sim.delay = 20;
    sim.jitter = 40;
    streams(2, 200);
    long steps = sim_run(2000000, 10);
    CU_ASSERT(steps < 2000000);
    check_all_arrived();
    uint64_t t = sim.now;
    sim_teardown();
    return t;
}

static void test_rto_adapts(void)
{
    /* A first timeout far above the round trip (~50 us here): measured
     * RTTs bring it down, so losses cost far less time than when the
     * timeout is held fixed. */
    uint64_t fixed = lossy_time(20000, 20000);
    uint64_t adaptive = lossy_time(20000, 100);
    CU_ASSERT(adaptive * 4 < fixed);
}

static void test_credits(void)
{
    /* A grants 16, B only 4. Before B has spoken, A assumes 2 (init_credits). */
    rd_udr_cfg_t c[2] = {base_cfg(0, 2), base_cfg(1, 2)};
    c[0].init_credits = 2;
    c[1].window = 4;
    sim_setup(2, c, 5);
    sim.delay = 20;
    msg_hdr_t h = {0};
    /* a stalled receiver: A gets exactly its credits out, then RD_EAGAIN */
    sim.hold[1] = 1;
    CU_ASSERT_EQUAL(rd_udr_send(sim.e[0], 1, &h, sizeof(h), NULL, 0), RD_OK);
    CU_ASSERT_EQUAL(rd_udr_send(sim.e[0], 1, &h, sizeof(h), NULL, 0), RD_OK);
    CU_ASSERT_EQUAL(rd_udr_send(sim.e[0], 1, &h, sizeof(h), NULL, 0), RD_EAGAIN);
    CU_ASSERT_EQUAL(rd_udr_inflight(sim.e[0], 1), 2);
    /* retransmissions while stalled do not add packets in flight */
    for (int i = 0; i < 100; i++) {
        sim.now += 100;
        sim_step();
        CU_ASSERT(rd_udr_poll(sim.e[0]) >= 0);
    }
    CU_ASSERT_EQUAL(rd_udr_inflight(sim.e[0], 1), 2);
    rd_udr_stats_t st;
    rd_udr_get_stats(sim.e[0], &st);
    CU_ASSERT(st.retrans > 0);
    /* B wakes up: its acks carry wnd = 4, and A never exceeds that */
    sim.hold[1] = 0;
    uint32_t sent = 0, max_inflight = 0;
    for (int i = 0; i < 20000 && sent < 200; i++) {
        sim.now += 10;
        while (sent < 200 && rd_udr_send(sim.e[0], 1, &h, sizeof(h), NULL, 0) == RD_OK)
            sent++;
        uint32_t f = rd_udr_inflight(sim.e[0], 1);
        if (f > max_inflight)
            max_inflight = f;
        sim_step();
        rd_udr_poll(sim.e[0]);
        rd_udr_poll(sim.e[1]);
    }
    CU_ASSERT_EQUAL(sent, 200);
    CU_ASSERT_EQUAL(max_inflight, 4);
    rd_udr_get_stats(sim.e[1], &st);
    CU_ASSERT_EQUAL(st.overrun, 0);
    sim_teardown();
}

static void test_bad_input(void)
{
    rd_udr_cfg_t c[2] = {base_cfg(0, 2), base_cfg(1, 2)};
    sim_setup(2, c, 9);
    rd_udr_t *e = sim.e[1];
    uint8_t pkt[64] = {0};
    rd_udr_hdr_t h = {.version = RD_UDR_VERSION, .flags = RD_UDR_F_DATA | RD_UDR_F_FIRST,
                      .wnd = 16, .src = 0, .psn = 0, .ack = 0, .sack = 0};
    rd_udr_stats_t st;
    CU_ASSERT_EQUAL(rd_udr_input(e, pkt, 10), 0);               /* truncated */
    h.version = 9;
    memcpy(pkt, &h, sizeof(h));
    CU_ASSERT_EQUAL(rd_udr_input(e, pkt, sizeof(pkt)), 0);      /* wrong version */
    h.version = RD_UDR_VERSION;
    h.src = 1;
    memcpy(pkt, &h, sizeof(h));
    CU_ASSERT_EQUAL(rd_udr_input(e, pkt, sizeof(pkt)), 0);      /* from itself */
    h.src = 5;
    memcpy(pkt, &h, sizeof(h));
    CU_ASSERT_EQUAL(rd_udr_input(e, pkt, sizeof(pkt)), 0);      /* no such rank */
    h.src = 0;
    memcpy(pkt, &h, sizeof(h));
    CU_ASSERT_EQUAL(rd_udr_input(e, pkt, sizeof(h)), 0);        /* data without body */
    /* a descriptor claiming more than msg_max */
    rd_udr_msg_t d = {.len = 1000000, .hdrlen = 0};
    memcpy(pkt + sizeof(h), &d, sizeof(d));
    CU_ASSERT_EQUAL(rd_udr_input(e, pkt, sizeof(pkt)), 0);
    /* an ack of packets never sent */
    rd_udr_hdr_t a = {.version = RD_UDR_VERSION, .wnd = 16, .src = 0, .ack = 77};
    memcpy(pkt, &a, sizeof(a));
    rd_udr_send(e, 0, &a, sizeof(a), NULL, 0);
    CU_ASSERT_EQUAL(rd_udr_input(e, pkt, sizeof(a)), 0);
    CU_ASSERT_EQUAL(rd_udr_inflight(e, 0), 1);
    rd_udr_get_stats(e, &st);
    CU_ASSERT_EQUAL(st.bad, 7);
    CU_ASSERT_EQUAL(st.delivered, 0);
    /* send arguments */
    CU_ASSERT_EQUAL(rd_udr_send(e, 1, &h, 4, NULL, 0), RD_EINVAL);     /* self */
    CU_ASSERT_EQUAL(rd_udr_send(e, 2, &h, 4, NULL, 0), RD_EINVAL);     /* no such rank */
    CU_ASSERT_EQUAL(rd_udr_send(e, -1, &h, 4, NULL, 0), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_udr_send(e, 0, &h, 4, pkt, 20000), RD_EINVAL);  /* > msg_max */
    /* bad configurations */
    rd_udr_ops_t ops = {.ctx = &sim.id[0], .post = sim_post, .deliver = sim_deliver,
                        .now = sim_now};
    int status;
    rd_udr_cfg_t b = base_cfg(0, 2);
    b.window = 12;                                              /* not a power of two */
    CU_ASSERT_PTR_NULL(rd_udr_create(&b, &ops, &status));
    CU_ASSERT_EQUAL(status, RD_EINVAL);
    b = base_cfg(0, 2);
    b.drop_rate = 1.5;
    CU_ASSERT_PTR_NULL(rd_udr_create(&b, &ops, &status));
    b = base_cfg(0, 2);
    b.mtu = 16;
    CU_ASSERT_PTR_NULL(rd_udr_create(&b, &ops, &status));
    b = base_cfg(2, 2);
    CU_ASSERT_PTR_NULL(rd_udr_create(&b, &ops, &status));
    sim_teardown();
}

static void test_drop_all_and_timeout(void)
{
    /* drop_rate 1: nothing gets through; with a timeout, poll gives up with
     * RD_EPEER instead of retrying forever */
    rd_udr_cfg_t c[2] = {base_cfg(0, 2), base_cfg(1, 2)};
    c[0].timeout_us = 100000;
    c[1].drop_rate = 1.0;
    sim_setup(2, c, 3);
    sim.delay = 20;
    msg_hdr_t h = {0, 1, 0, 0};
    CU_ASSERT_EQUAL(rd_udr_send(sim.e[0], 1, &h, sizeof(h), NULL, 0), RD_OK);
    int rc = 0;
    for (int i = 0; i < 5000 && rc >= 0; i++) {
        sim.now += 100;
        sim_step();
        rc = rd_udr_poll(sim.e[0]);
    }
    CU_ASSERT_EQUAL(rc, RD_EPEER);
    CU_ASSERT(sim.now >= 100000);
    rd_udr_stats_t st;
    rd_udr_get_stats(sim.e[1], &st);
    CU_ASSERT(st.dropped > 1);
    CU_ASSERT_EQUAL(st.pkts_recv, 0);
    CU_ASSERT_EQUAL(st.delivered, 0);
    rd_udr_get_stats(sim.e[0], &st);
    /* the timeout backs off: far fewer retransmissions than 100 ms / 400 us */
    CU_ASSERT(st.retrans > 3 && st.retrans < 40);
    sim_teardown();
}

static void test_piggyback(void)
{
    /* ping-pong of small messages: acks ride on the replies, so almost no
     * header-only ack is needed */
    rd_udr_cfg_t c[2] = {base_cfg(0, 2), base_cfg(1, 2)};
    c[0].ack_delay_us = c[1].ack_delay_us = 1000;
    c[0].msg_max = c[1].msg_max = 200;  /* every message fits one packet */
    sim_setup(2, c, 13);
    sim.delay = 20;
    int rounds = 0;
    for (int i = 0; i < 100; i++) {
        for (int dir = 0; dir < 2; dir++) {
            uint32_t before = sim.got[dir][!dir];
            CU_ASSERT_EQUAL_FATAL(try_send(dir, !dir), RD_OK);
            for (int t = 0; t < 10000 && sim.got[dir][!dir] == before; t++) {
                sim.now += 10;
                sim_step();
                CU_ASSERT(rd_udr_poll(sim.e[0]) >= 0);
                CU_ASSERT(rd_udr_poll(sim.e[1]) >= 0);
            }
        }
        rounds++;
    }
    CU_ASSERT_EQUAL(rounds, 100);
    CU_ASSERT_EQUAL(sim.errors, 0);
    rd_udr_stats_t st0, st1;
    rd_udr_get_stats(sim.e[0], &st0);
    rd_udr_get_stats(sim.e[1], &st1);
    CU_ASSERT(st0.acks_sent + st1.acks_sent < 10);
    CU_ASSERT_EQUAL(st0.retrans + st1.retrans, 0);
    /* the last reply is still unacknowledged until the delayed ack */
    for (int i = 0; i < 300; i++) {
        sim.now += 10;
        sim_step();
        rd_udr_poll(sim.e[0]);
        rd_udr_poll(sim.e[1]);
    }
    CU_ASSERT(rd_udr_quiet(sim.e[0]));
    CU_ASSERT(rd_udr_quiet(sim.e[1]));
    sim_teardown();
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "clean link: no retransmission", test_clean_link },
        { "lossy, duplicating, reordering link, 2 engines", test_lossy_two },
        { "lossy link, 3 engines, all pairs", test_lossy_three },
        { "PSN wraparound", test_psn_wrap },
        { "30% loss", test_heavy_loss },
        { "timeout follows the measured round trip", test_rto_adapts },
        { "credits bound packets in flight", test_credits },
        { "malformed packets and arguments", test_bad_input },
        { "drop everything: timeout", test_drop_all_and_timeout },
        { "acks piggybacked on replies", test_piggyback },
    };
    return rd_unit_run("ud_rel", tests, RD_UNIT_COUNT(tests));
}
