/*
 * Unit tests of p2p's remote memory access for src/rma (p2p_rdma.c) over
 * two scripted transports (fake_tp.h): one process plays job rank 0 of 3,
 * rank 1 sits behind the first fake ("tcp"), rank 2 behind the second
 * ("ud"), whose keys have another length. One registration covers both;
 * the key blob carries both keys; rd_p2p_mem_key_for picks the one of the
 * transport that reaches the peer; every operation goes to that transport
 * with its own local handle; an operation the transport lacks is
 * RD_ENOTSUP.
 */
#include <stdlib.h>
#include <string.h>

#include "fake_tp.h"
#include "p2p/p2p.h"
#include "unit_main.h"
#include "util/status.h"

static int local_ranks[1] = { 0 };
static const rd_boot_info_t boot = { .rank = 0, .size = 3, .local_size = 1,
                                     .local_ranks = local_ranks,
                                     .universe_size = 3 };

/* p2p over the two fakes: rank 1 on the first (caps1), rank 2 on the
 * second (caps2, put_imm when imm). */
static void up(unsigned caps1, unsigned caps2, int imm)
{
    fake_tp_reset(caps1, 64);
    fake_tp_second(2, caps2, imm, 48);
    CU_ASSERT_FATAL(rd_p2p_init(&boot) == RD_OK);
}

static void down(void)
{
    rd_p2p_finalize();
    fake_tp_clear();
}

static struct {
    int calls, status;
} done_got;

static void on_done(void *ctx, int status)
{
    (void)ctx;
    done_got.calls++;
    done_got.status = status;
}

static const unsigned ALL = RD_TP_RDMA_GET | RD_TP_RDMA_PUT;

/* Capabilities per peer: each peer's own transport's, none for this rank. */
static void test_caps_per_peer(void)
{
    up(RD_TP_RDMA_GET, ALL, 1);
    CU_ASSERT_EQUAL(rd_p2p_rdma_ops(1), RD_P2P_RDMA_GET);
    CU_ASSERT_EQUAL(rd_p2p_rdma_ops(2), RD_P2P_RDMA_GET | RD_P2P_RDMA_PUT);
    CU_ASSERT_EQUAL(rd_p2p_rdma_ops(0), 0);
    CU_ASSERT_EQUAL(rd_p2p_rdma_ops(3), 0);
    CU_ASSERT_EQUAL(rd_p2p_rdma_inline_max(1), 0);
    CU_ASSERT_EQUAL(rd_p2p_rdma_inline_max(2), 48);
    down();
}

/* One registration over both transports; the blob holds both keys; each
 * peer's key is the one of the transport that reaches it. */
static void test_one_registration_two_keys(void)
{
    up(ALL, ALL, 1);
    static char buf[4096];
    rd_p2p_mem_t *m = NULL;
    CU_ASSERT_FATAL(rd_p2p_mem_reg(buf, sizeof(buf), &m) == RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats()->keys, 1);
    CU_ASSERT_EQUAL(fake_tp_stats2()->keys, 1);

    unsigned char blob[RD_P2P_KEYS_MAX];
    size_t len = 0;
    rd_p2p_mem_keys(m, blob, &len);
    CU_ASSERT_EQUAL(len, 2 + FAKE_TP_KEYLEN + 2 + FAKE_TP_KEYLEN2);

    const void *key = NULL;
    size_t keylen = 0;
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(1, blob, len, &key, &keylen), 1);
    CU_ASSERT_EQUAL(keylen, FAKE_TP_KEYLEN);
    CU_ASSERT(fake_tp_key_covers(key, keylen, buf, sizeof(buf)));
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(2, blob, len, &key, &keylen), 1);
    CU_ASSERT_EQUAL(keylen, FAKE_TP_KEYLEN2);
    /* This rank and ranks outside the job have no key. */
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(0, blob, len, &key, &keylen), 0);
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(5, blob, len, &key, &keylen), 0);
    /* A blob cut inside the second entry still gives the first key, and no
     * second one (never bytes past its end). */
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(1, blob, len - 1, &key, &keylen), 1);
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(2, blob, len - 1, &key, &keylen), 0);

    rd_p2p_mem_dereg(m);
    CU_ASSERT_EQUAL(fake_tp_stats()->releases, 1);
    CU_ASSERT_EQUAL(fake_tp_stats2()->releases, 1);
    down();
}

/* A blob from a rank whose transports gave only the first fake's key: no
 * key for a peer reached by the second (the caller uses active messages). */
static void test_key_missing_for_transport(void)
{
    up(ALL, 0, 0);
    static char buf[64];
    rd_p2p_mem_t *m = NULL;
    CU_ASSERT_FATAL(rd_p2p_mem_reg(buf, sizeof(buf), &m) == RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats2()->keys, 0);   /* no remote access there */
    unsigned char blob[RD_P2P_KEYS_MAX];
    size_t len = 0;
    rd_p2p_mem_keys(m, blob, &len);
    const void *key;
    size_t keylen;
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(1, blob, len, &key, &keylen), 1);
    CU_ASSERT_EQUAL(rd_p2p_mem_key_for(2, blob, len, &key, &keylen), 0);
    rd_p2p_mem_dereg(m);
    down();
}

/* The second transport refuses: nothing stays registered with the first. */
static void test_registration_rolls_back(void)
{
    up(ALL, ALL, 1);
    static char buf[64];
    rd_p2p_mem_t *m = NULL;
    fake_tp_fail_reg2(RD_ENOMEM);
    CU_ASSERT_EQUAL(rd_p2p_mem_reg(buf, sizeof(buf), &m), RD_ENOMEM);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_EQUAL(fake_tp_stats()->keys, 1);
    CU_ASSERT_EQUAL(fake_tp_stats()->releases, 1);
    /* An empty handle registers nothing. */
    CU_ASSERT_FATAL(rd_p2p_mem_reg(buf, 0, &m) == RD_OK);
    size_t len = 99;
    unsigned char blob[RD_P2P_KEYS_MAX];
    rd_p2p_mem_keys(m, blob, &len);
    CU_ASSERT_EQUAL(len, 0);
    rd_p2p_mem_dereg(m);
    CU_ASSERT_EQUAL(fake_tp_stats()->keys, 1);
    down();
}

/* get and put go to the peer's transport with that transport's key and
 * that transport's registration of the local handle. */
static void test_ops_route_per_peer(void)
{
    up(ALL, ALL, 1);
    static char win[256], local[256];
    rd_p2p_mem_t *wm = NULL, *lm = NULL;
    CU_ASSERT_FATAL(rd_p2p_mem_reg(win, sizeof(win), &wm) == RD_OK);
    CU_ASSERT_FATAL(rd_p2p_mem_reg(local, sizeof(local), &lm) == RD_OK);
    unsigned char blob[RD_P2P_KEYS_MAX];
    size_t len;
    rd_p2p_mem_keys(wm, blob, &len);
    const void *k1, *k2;
    size_t kl1, kl2;
    CU_ASSERT_FATAL(rd_p2p_mem_key_for(1, blob, len, &k1, &kl1) == 1);
    CU_ASSERT_FATAL(rd_p2p_mem_key_for(2, blob, len, &k2, &kl2) == 1);
    uint64_t base = (uint64_t)(uintptr_t)win;

    memcpy(local, "to rank one", 12);
    done_got.calls = 0;
    CU_ASSERT_EQUAL(rd_p2p_rdma_put(1, local, lm, base, k1, kl1, 12, on_done, NULL), RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats()->puts, 1);
    CU_ASSERT_EQUAL(fake_tp_stats()->lmem_keylen, FAKE_TP_KEYLEN);
    CU_ASSERT_EQUAL(fake_tp_stats2()->puts, 0);
    CU_ASSERT_EQUAL(memcmp(win, "to rank one", 12), 0);

    memcpy(local + 64, "to rank two", 12);
    CU_ASSERT_EQUAL(rd_p2p_rdma_put(2, local + 64, lm, base + 100, k2, kl2, 12, NULL, NULL),
                    RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats2()->puts, 1);
    CU_ASSERT_EQUAL(fake_tp_stats2()->lmem_keylen, FAKE_TP_KEYLEN2);
    CU_ASSERT_EQUAL(memcmp(win + 100, "to rank two", 12), 0);

    /* A key of the other transport does not cover anything here. */
    CU_ASSERT_EQUAL(rd_p2p_rdma_put(2, local, NULL, base, k1, kl1, 8, NULL, NULL), RD_EINVAL);
    CU_ASSERT_EQUAL(rd_p2p_rdma_get(1, local, NULL, base, k2, kl2, 8, NULL, NULL), RD_EINVAL);

    memset(local, 0, sizeof(local));
    CU_ASSERT_EQUAL(rd_p2p_rdma_get(2, local, NULL, base + 100, k2, kl2, 12, on_done, NULL),
                    RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats2()->gets, 1);
    CU_ASSERT_EQUAL(fake_tp_stats2()->lmem_keylen, 0);
    CU_ASSERT_EQUAL(memcmp(local, "to rank two", 12), 0);

    CU_ASSERT_EQUAL(rd_p2p_rdma_flush(2, on_done, NULL), RD_OK);
    CU_ASSERT_EQUAL(rd_p2p_rdma_flush(1, on_done, NULL), RD_OK);
    while (done_got.calls < 4)
        CU_ASSERT_FATAL(rd_progress() >= 0);
    CU_ASSERT_EQUAL(done_got.calls, 4);
    CU_ASSERT_EQUAL(done_got.status, RD_OK);

    rd_p2p_mem_dereg(lm);
    rd_p2p_mem_dereg(wm);
    down();
}

static struct {
    int calls, peer;
    uint32_t imm;
} note_got;

static void on_note(int peer, uint32_t imm)
{
    note_got.calls++;
    note_got.peer = peer;
    note_got.imm = imm;
}

/* put_imm where the peer's transport has it; the peer's immediates reach
 * the registered handler with the sender and all 32 bits. */
static void test_put_imm_and_notify(void)
{
    up(ALL, ALL, 1);
    static char win[64];
    rd_p2p_mem_t *m = NULL;
    CU_ASSERT_FATAL(rd_p2p_mem_reg(win, sizeof(win), &m) == RD_OK);
    unsigned char blob[RD_P2P_KEYS_MAX];
    size_t len;
    rd_p2p_mem_keys(m, blob, &len);
    const void *k;
    size_t kl;
    CU_ASSERT_FATAL(rd_p2p_mem_key_for(2, blob, len, &k, &kl) == 1);
    CU_ASSERT_EQUAL(rd_p2p_rdma_put_imm(2, "abc", NULL, (uint64_t)(uintptr_t)win, k, kl, 3,
                                        0xfedcba98u, NULL, NULL), RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats2()->put_imms, 1);
    CU_ASSERT_EQUAL(memcmp(win, "abc", 3), 0);

    memset(&note_got, 0, sizeof(note_got));
    rd_p2p_notify_register(on_note);
    fake_tp_notify(2, 0x06000001u);
    rd_progress();
    CU_ASSERT_EQUAL(note_got.calls, 1);
    CU_ASSERT_EQUAL(note_got.peer, 2);
    CU_ASSERT_EQUAL(note_got.imm, 0x06000001u);
    rd_p2p_notify_register(NULL);
    fake_tp_notify(1, 7);
    rd_progress();   /* nobody registered: dropped, no call */
    CU_ASSERT_EQUAL(note_got.calls, 1);
    rd_p2p_mem_dereg(m);
    down();
}

/* What a transport lacks is RD_ENOTSUP, never a call through NULL; this
 * rank has no transport for itself here. */
static void test_missing_ops_enotsup(void)
{
    up(RD_TP_RDMA_GET, ALL, 0);
    static char win[64], local[64];
    unsigned char key[RD_TP_KEY_MAX];
    size_t kl = fake_tp_key(win, sizeof(win), key);
    uint64_t a = (uint64_t)(uintptr_t)win, r;
    CU_ASSERT_EQUAL(rd_p2p_rdma_put(1, local, NULL, a, key, kl, 8, NULL, NULL), RD_ENOTSUP);
    CU_ASSERT_EQUAL(rd_p2p_rdma_put_imm(1, local, NULL, a, key, kl, 8, 1, NULL, NULL),
                    RD_ENOTSUP);
    CU_ASSERT_EQUAL(rd_p2p_rdma_put_imm(2, local, NULL, a, key, kl, 8, 1, NULL, NULL),
                    RD_ENOTSUP);
    CU_ASSERT_EQUAL(rd_p2p_rdma_fetch_add(1, a, key, kl, 1, &r, NULL, NULL), RD_ENOTSUP);
    CU_ASSERT_EQUAL(rd_p2p_rdma_cswap(2, a, key, kl, 0, 1, &r, NULL, NULL), RD_ENOTSUP);
    CU_ASSERT_EQUAL(rd_p2p_rdma_get(0, local, NULL, a, key, kl, 8, NULL, NULL), RD_ENOTSUP);
    CU_ASSERT_EQUAL(rd_p2p_rdma_flush(0, on_done, NULL), RD_ENOTSUP);
    CU_ASSERT_EQUAL(fake_tp_stats()->puts + fake_tp_stats2()->puts, 0);
    /* The get the first transport has goes through. */
    CU_ASSERT_EQUAL(rd_p2p_rdma_get(1, local, NULL, a, key, kl, 8, NULL, NULL), RD_OK);
    CU_ASSERT_EQUAL(fake_tp_stats()->gets, 1);
    down();
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "capabilities per peer", test_caps_per_peer },
        { "one registration, a key per transport", test_one_registration_two_keys },
        { "no key for a transport without remote access", test_key_missing_for_transport },
        { "a failed registration rolls back", test_registration_rolls_back },
        { "operations go to the peer's transport", test_ops_route_per_peer },
        { "put_imm and notifications", test_put_imm_and_notify },
        { "missing operations are RD_ENOTSUP", test_missing_ops_enotsup },
    };
    return rd_unit_run("p2p_rdma", tests, RD_UNIT_COUNT(tests));
}
