/*
 * Unit tests of the matching engine (src/p2p/match.c): directed cases for each
 * MPI matching rule, then a long randomized run checked step by step against a
 * reference model that is obviously correct (two arrays scanned in order).
 * The random seed is printed; set RD_TEST_SEED to replay a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "p2p/match.h"
#include "util/status.h"

#define ANY_S RD_ANY_SOURCE
#define ANY_T RD_ANY_TAG

static rd_match_q_t q;

static int setup(void) { return rd_match_q_init(&q, 4) == RD_OK ? 0 : -1; }
static int teardown(void) { rd_match_q_destroy(&q); return 0; }

/* Each directed test starts from an empty queue of 4 sources. */
static void fresh(void)
{
    rd_match_q_destroy(&q);
    CU_ASSERT_FATAL(rd_match_q_init(&q, 4) == RD_OK);
}

static void test_init_destroy(void)
{
    rd_match_q_t z;
    CU_ASSERT_EQUAL(rd_match_q_init(&z, 0), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_match_q_init(&z, 1000), RD_OK);
    CU_ASSERT_EQUAL(z.n_posted, 0);
    CU_ASSERT_EQUAL(z.n_unexp, 0);
    CU_ASSERT_PTR_NULL(rd_match_peek(&z, ANY_S, ANY_T));
    CU_ASSERT_PTR_NULL(rd_match_peek(&z, 999, 0));
    rd_match_q_destroy(&z);
}

static void test_exact(void)
{
    rd_match_elem_t r, m, m2, r2;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r, 1, 7));
    CU_ASSERT_EQUAL(q.n_posted, 1);
    /* wrong source, then wrong tag: both become unexpected */
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m2, 2, 7));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m, 1, 8));
    CU_ASSERT_EQUAL(q.n_unexp, 2);
    rd_match_elem_t m3;
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m3, 1, 7), &r);
    CU_ASSERT_EQUAL(q.n_posted, 0);
    CU_ASSERT_EQUAL(q.n_unexp, 2);
    /* a receive finds the unexpected message of its source and tag */
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r2, 1, 8), &m);
    CU_ASSERT_EQUAL(q.n_unexp, 1);
    CU_ASSERT_EQUAL(m.src, 1);
    CU_ASSERT_EQUAL(m.tag, 8);
}

/* arrive with m == NULL looks for a receive without queueing anything */
static void test_arrive_probe_only(void)
{
    rd_match_elem_t r, m;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, NULL, 1, 7));
    CU_ASSERT_EQUAL(q.n_unexp, 0);
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r, 1, 7));
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, NULL, 1, 7), &r);
    CU_ASSERT_EQUAL(q.n_posted, 0);
    /* the usual two-step: look first, then queue the copy */
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, NULL, 2, 3));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m, 2, 3));
    CU_ASSERT_EQUAL(q.n_unexp, 1);
    CU_ASSERT_PTR_EQUAL(rd_match_peek(&q, 2, 3), &m);
}

static void test_any_source(void)
{
    rd_match_elem_t r, m;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r, ANY_S, 5));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m, 3, 4));   /* tag mismatch */
    rd_match_elem_t m2;
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m2, 3, 5), &r);
    CU_ASSERT_EQUAL(q.n_posted, 0);
    CU_ASSERT_EQUAL(q.n_unexp, 1);
}

static void test_any_tag(void)
{
    rd_match_elem_t r, m, m2;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r, 2, ANY_T));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m, 1, 9));   /* source mismatch */
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m2, 2, 9), &r);
    CU_ASSERT_EQUAL(q.n_posted, 0);
}

static void test_any_both(void)
{
    rd_match_elem_t r, r2, m, m2;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r, ANY_S, ANY_T));
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m, 0, 123), &r);
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m2, 3, 0));
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r2, ANY_S, ANY_T), &m2);
    CU_ASSERT_EQUAL(q.n_posted, 0);
    CU_ASSERT_EQUAL(q.n_unexp, 0);
}

/* A message fitting both a wildcard and a specific receive goes to whichever
 * was posted first, whichever list it sits in. */
static void test_wildcard_order(void)
{
    rd_match_elem_t w, s, m1, m2;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &w, ANY_S, 1));
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &s, 2, 1));
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m1, 2, 1), &w);
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m2, 2, 1), &s);

    rd_match_elem_t s2, w2, t2, m3, m4, m5;
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &s2, 2, ANY_T));
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &w2, ANY_S, 1));
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &t2, 2, 1));
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m3, 2, 1), &s2);
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m4, 2, 1), &w2);
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m5, 2, 1), &t2);
    CU_ASSERT_EQUAL(q.n_posted, 0);
    CU_ASSERT_EQUAL(q.n_unexp, 0);
}

/* An earlier wildcard that does not fit the tag must not hide a later
 * specific receive, nor an earlier specific one that does not fit. */
static void test_wildcard_tag_skip(void)
{
    rd_match_elem_t w, s0, s1, m1, m2;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &w, ANY_S, 9));
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &s0, 1, 8));
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &s1, 1, 3));
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m1, 1, 3), &s1);
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m2, 1, 9), &w);
    CU_ASSERT_EQUAL(q.n_posted, 1);
}

static void test_any_source_arrival_order(void)
{
    rd_match_elem_t m[6], r[6];
    static const int srcs[6] = { 3, 0, 2, 0, 1, 3 };
    fresh();
    for (int i = 0; i < 6; i++)
        CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[i], srcs[i], i % 2));
    CU_ASSERT_EQUAL(q.n_unexp, 6);
    /* tag 1 first: arrivals 1, 3, 5 in that order */
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[0], ANY_S, 1), &m[1]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[1], ANY_S, 1), &m[3]);
    /* a receive naming source 3 takes its oldest message */
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[2], 3, ANY_T), &m[0]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[3], ANY_S, ANY_T), &m[2]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[4], ANY_S, ANY_T), &m[4]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[5], ANY_S, ANY_T), &m[5]);
    CU_ASSERT_EQUAL(q.n_unexp, 0);
    CU_ASSERT_EQUAL(q.n_posted, 0);
}

static void test_non_overtaking(void)
{
    rd_match_elem_t m[5], r[5];
    fresh();
    for (int i = 0; i < 5; i++)
        CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[i], 2, 4));
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[0], 2, 4), &m[0]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[1], ANY_S, 4), &m[1]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[2], 2, ANY_T), &m[2]);
    CU_ASSERT_PTR_EQUAL(rd_match_peek(&q, ANY_S, ANY_T), &m[3]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[3], ANY_S, ANY_T), &m[3]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[4], 2, 4), &m[4]);
}

static void test_tag_skip(void)
{
    rd_match_elem_t m[4], r[3];
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[0], 1, 10));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[1], 1, 11));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[2], 1, 12));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[3], 1, 11));
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[0], 1, 11), &m[1]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r[1], ANY_S, 11), &m[3]);
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r[2], 1, 11));
    CU_ASSERT_EQUAL(q.n_unexp, 2);
    CU_ASSERT_EQUAL(q.n_posted, 1);
}

static void test_peek_take(void)
{
    rd_match_elem_t m[3], r;
    fresh();
    CU_ASSERT_PTR_NULL(rd_match_peek(&q, ANY_S, ANY_T));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[0], 0, 1));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[1], 1, 2));
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m[2], 1, 1));
    /* peek leaves the message queued: twice gives the same answer */
    CU_ASSERT_PTR_EQUAL(rd_match_peek(&q, 1, ANY_T), &m[1]);
    CU_ASSERT_PTR_EQUAL(rd_match_peek(&q, 1, ANY_T), &m[1]);
    CU_ASSERT_PTR_EQUAL(rd_match_peek(&q, ANY_S, 1), &m[0]);
    CU_ASSERT_PTR_NULL(rd_match_peek(&q, 2, ANY_T));
    CU_ASSERT_PTR_NULL(rd_match_peek(&q, ANY_S, 3));
    CU_ASSERT_EQUAL(q.n_unexp, 3);
    /* take removes it from both the per-source and the arrival-order list */
    rd_match_take(&q, &m[1]);
    CU_ASSERT_EQUAL(q.n_unexp, 2);
    CU_ASSERT_PTR_EQUAL(rd_match_peek(&q, 1, ANY_T), &m[2]);
    CU_ASSERT_PTR_NULL(rd_match_peek(&q, ANY_S, 2));
    rd_match_take(&q, &m[0]);
    CU_ASSERT_PTR_EQUAL(rd_match_peek(&q, ANY_S, ANY_T), &m[2]);
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r, ANY_S, ANY_T), &m[2]);
    CU_ASSERT_EQUAL(q.n_unexp, 0);
}

static void test_cancel(void)
{
    rd_match_elem_t r1, r2, w, m1, m2;
    rd_match_elem_t never;
    fresh();
    memset(&never, 0, sizeof(never));
    CU_ASSERT_EQUAL(rd_match_cancel(&q, &never), 0);

    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r1, 1, 1));
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &r2, 1, 1));
    CU_ASSERT_PTR_NULL(rd_match_post(&q, &w, ANY_S, ANY_T));
    CU_ASSERT_EQUAL(q.n_posted, 3);
    CU_ASSERT_EQUAL(rd_match_cancel(&q, &r1), 1);
    CU_ASSERT_EQUAL(q.n_posted, 2);
    CU_ASSERT_EQUAL(rd_match_cancel(&q, &r1), 0);   /* twice: already gone */
    CU_ASSERT_EQUAL(q.n_posted, 2);
    CU_ASSERT_PTR_EQUAL(rd_match_arrive(&q, &m1, 1, 1), &r2);
    CU_ASSERT_EQUAL(rd_match_cancel(&q, &r2), 0);   /* already matched */
    CU_ASSERT_EQUAL(rd_match_cancel(&q, &w), 1);
    CU_ASSERT_EQUAL(q.n_posted, 0);
    CU_ASSERT_PTR_NULL(rd_match_arrive(&q, &m2, 1, 1)); /* nothing left to match */
    CU_ASSERT_EQUAL(q.n_unexp, 1);

    /* a receive matched at post time was never queued: cancel says 0 */
    rd_match_elem_t r3;
    memset(&r3, 0xa5, sizeof(r3));
    CU_ASSERT_PTR_EQUAL(rd_match_post(&q, &r3, ANY_S, 1), &m2);
    CU_ASSERT_EQUAL(rd_match_cancel(&q, &r3), 0);
    CU_ASSERT_EQUAL(q.n_posted, 0);
}

/* ---- randomized run against a reference model ---- */

#define NSRC 5
#define NTAG 4
#define NOPS 150000L

enum { ST_POSTED, ST_UNEXP, ST_MATCHED, ST_CANCELLED, ST_TAKEN };

typedef struct item {
    rd_match_elem_t e;
    int is_recv;
    int src, tag;         /* as posted / as arrived */
    int state;
    long partner;         /* the item it matched, -1 if none */
    long pair_no;         /* messages: arrival number within (src, tag) */
} item_t;

static item_t *items;
static long nitems;

/* The model: ids in posted order and in arrival order, scanned linearly. */
static long *mposted, *munexp;
static long n_mposted, n_munexp;

static unsigned long long rng;
static unsigned long long seed;
static long opno;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;   /* xorshift64 */
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

#define CHECK(c) do { \
        if (!(c)) { \
            fprintf(stderr, "\ntest_match: seed %llu op %ld: check failed: %s\n", seed, opno, #c); \
            CU_FAIL_FATAL(#c); \
        } \
    } while (0)

static int fits(int want_src, int want_tag, int src, int tag)
{
    return (want_src == ANY_S || want_src == src) && (want_tag == ANY_T || want_tag == tag);
}

static long id_of(rd_match_elem_t *e)
{
    return e ? (long)((item_t *)rd_container_of(e, item_t, e) - items) : -1;
}

static void model_remove(long *arr, long *n, long k)
{
    memmove(&arr[k], &arr[k + 1], (size_t)(*n - k - 1) * sizeof(*arr));
    (*n)--;
}

/* Non-overtaking: per (src, tag), messages are matched in arrival number order. */
static long next_arrival[NSRC][NTAG], next_matched[NSRC][NTAG];

static void message_consumed(long mid)
{
    item_t *m = &items[mid];
    CHECK(m->pair_no == next_matched[m->src][m->tag]);
    next_matched[m->src][m->tag]++;
}

static int rnd_src(void) { return rnd(5) == 0 ? ANY_S : (int)rnd(NSRC); }
static int rnd_tag(void) { return rnd(5) == 0 ? ANY_T : (int)rnd(NTAG); }

static void op_post(void)
{
    long id = nitems++;
    item_t *it = &items[id];
    it->is_recv = 1;
    it->src = rnd_src();
    it->tag = rnd_tag();
    it->partner = -1;
    long want = -1, k;
    for (k = 0; k < n_munexp; k++) {
        item_t *m = &items[munexp[k]];
        if (fits(it->src, it->tag, m->src, m->tag)) {
            want = munexp[k];
            break;
        }
    }
    long got = id_of(rd_match_post(&q, &it->e, it->src, it->tag));
    CHECK(got == want);
    if (want >= 0) {
        model_remove(munexp, &n_munexp, k);
        CHECK(items[want].state == ST_UNEXP);
        items[want].state = ST_MATCHED;
        items[want].partner = id;
        it->state = ST_MATCHED;
        it->partner = want;
        message_consumed(want);
    } else {
        mposted[n_mposted++] = id;
        it->state = ST_POSTED;
    }
}

static void op_arrive(void)
{
    long id = nitems++;
    item_t *it = &items[id];
    it->is_recv = 0;
    it->src = (int)rnd(NSRC);
    it->tag = (int)rnd(NTAG);
    it->partner = -1;
    it->pair_no = next_arrival[it->src][it->tag]++;
    long want = -1, k;
    for (k = 0; k < n_mposted; k++) {
        item_t *r = &items[mposted[k]];
        if (fits(r->src, r->tag, it->src, it->tag)) {
            want = mposted[k];
            break;
        }
    }
    long got = id_of(rd_match_arrive(&q, &it->e, it->src, it->tag));
    CHECK(got == want);
    if (want >= 0) {
        model_remove(mposted, &n_mposted, k);
        CHECK(items[want].state == ST_POSTED);
        items[want].state = ST_MATCHED;
        items[want].partner = id;
        it->state = ST_MATCHED;
        it->partner = want;
        message_consumed(id);
    } else {
        munexp[n_munexp++] = id;
        it->state = ST_UNEXP;
    }
}

/* Probe, and half the time take what was found (MPI_Mprobe). */
static void op_peek(void)
{
    int src = rnd_src(), tag = rnd_tag();
    long want = -1, k;
    for (k = 0; k < n_munexp; k++) {
        item_t *m = &items[munexp[k]];
        if (fits(src, tag, m->src, m->tag)) {
            want = munexp[k];
            break;
        }
    }
    rd_match_elem_t *e = rd_match_peek(&q, src, tag);
    CHECK(id_of(e) == want);
    if (e && rnd(2)) {
        rd_match_take(&q, e);
        model_remove(munexp, &n_munexp, k);
        items[want].state = ST_TAKEN;
        message_consumed(want);
    }
}

/* Cancel a random earlier receive, posted or not. */
static void op_cancel(void)
{
    if (nitems == 0)
        return;
    long id = (long)rnd((unsigned)nitems);
    if (!items[id].is_recv)
        return;
    long k;
    for (k = 0; k < n_mposted; k++)
        if (mposted[k] == id)
            break;
    int want = k < n_mposted;
    CHECK(rd_match_cancel(&q, &items[id].e) == want);
    if (want) {
        model_remove(mposted, &n_mposted, k);
        items[id].state = ST_CANCELLED;
    }
}

static void test_random(void)
{
    const char *s = getenv("RD_TEST_SEED");
    seed = s ? strtoull(s, NULL, 0) : 20240611ULL;
    rng = seed ? seed : 1;
    printf("\n    test_match random: seed %llu (set RD_TEST_SEED to change), %ld ops ", seed, NOPS);

    items = calloc(NOPS, sizeof(*items));
    mposted = calloc(NOPS, sizeof(*mposted));
    munexp = calloc(NOPS, sizeof(*munexp));
    CU_ASSERT_FATAL(items && mposted && munexp);
    nitems = n_mposted = n_munexp = 0;
    memset(next_arrival, 0, sizeof(next_arrival));
    memset(next_matched, 0, sizeof(next_matched));
    rd_match_q_destroy(&q);
    CU_ASSERT_FATAL(rd_match_q_init(&q, NSRC) == RD_OK);

    for (opno = 0; opno < NOPS; opno++) {
        unsigned r = rnd(100);
        if (r < 40)
            op_post();
        else if (r < 80)
            op_arrive();
        else if (r < 92)
            op_peek();
        else
            op_cancel();
        CHECK(q.n_posted == n_mposted);
        CHECK(q.n_unexp == n_munexp);
    }

    /* Every element is matched exactly once (with a partner that points back),
     * or still queued, or was cancelled / taken. */
    long queued_r = 0, queued_m = 0;
    for (long i = 0; i < nitems; i++) {
        item_t *it = &items[i];
        switch (it->state) {
        case ST_MATCHED:
            CHECK(it->partner >= 0 && items[it->partner].partner == i);
            CHECK(items[it->partner].is_recv != it->is_recv);
            CHECK(fits(it->is_recv ? it->src : items[it->partner].src,
                       it->is_recv ? it->tag : items[it->partner].tag,
                       it->is_recv ? items[it->partner].src : it->src,
                       it->is_recv ? items[it->partner].tag : it->tag));
            break;
        case ST_POSTED: queued_r++; break;
        case ST_UNEXP: queued_m++; break;
        default: CHECK(it->partner == -1); break;
        }
    }
    CHECK(queued_r == q.n_posted && queued_m == q.n_unexp);

    /* Drain: posted receives cancel once each; unexpected messages come out
     * in arrival order; then nothing is left. */
    for (long k = 0; k < n_mposted; k++)
        CHECK(rd_match_cancel(&q, &items[mposted[k]].e) == 1);
    for (long k = 0; k < n_munexp; k++) {
        rd_match_elem_t *e = rd_match_peek(&q, ANY_S, ANY_T);
        CHECK(id_of(e) == munexp[k]);
        rd_match_take(&q, e);
        message_consumed(munexp[k]);
    }
    CHECK(q.n_posted == 0 && q.n_unexp == 0);
    CHECK(rd_match_peek(&q, ANY_S, ANY_T) == NULL);
    for (int src = 0; src < NSRC; src++)
        for (int tag = 0; tag < NTAG; tag++)
            CHECK(next_matched[src][tag] == next_arrival[src][tag]);

    free(items);
    free(mposted);
    free(munexp);
    items = NULL;
    mposted = munexp = NULL;
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "init and destroy", test_init_destroy },
        { "exact match", test_exact },
        { "arrive without queueing (m == NULL)", test_arrive_probe_only },
        { "ANY_SOURCE", test_any_source },
        { "ANY_TAG", test_any_tag },
        { "ANY_SOURCE and ANY_TAG", test_any_both },
        { "wildcard vs specific: post order decides", test_wildcard_order },
        { "non-fitting receives are skipped", test_wildcard_tag_skip },
        { "ANY_SOURCE takes arrival order", test_any_source_arrival_order },
        { "non-overtaking per source and tag", test_non_overtaking },
        { "tag mismatch skipping", test_tag_skip },
        { "peek and take", test_peek_take },
        { "cancel", test_cancel },
        { "randomized against a reference model", test_random },
    };
    return rd_unit_run_fixture("match", setup, teardown, tests, RD_UNIT_COUNT(tests));
}
