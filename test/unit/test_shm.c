/*
 * Unit tests of the shared-memory transport (src/transport/shm/). Each test
 * forks 2-4 ranks that share the fake process manager (fake_boot.c); a child
 * reports failure through its exit status, and the parent asserts on it (and
 * kills the remaining ranks so a failure cannot leave them waiting in a
 * fence). Nothing depends on timing: ranks wait for each other through
 * fences or by polling until the expected messages arrived.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "fake_boot.h"
#include "transport/shm/shm.h"
#include "transport/transport.h"
#include "util/status.h"

#define NR_MAX 4

static int g_rank;
static rd_boot_info_t g_info;
static const rd_transport_t *tp = &rd_shm_transport;

/* In a child: report and fail this rank. */
#define CHK(c) do {                                                           \
        if (!(c)) {                                                           \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", g_rank,    \
                    __FILE__, __LINE__, #c);                                  \
            _exit(1);                                                         \
        }                                                                     \
    } while (0)

/* ---- running ranks ------------------------------------------------------ */

/* Forks n ranks on the given simulated nodes, runs fn(rank) in each and
 * returns how many failed. */
static int run_ranks(int n, const int *node_of, void (*fn)(int rank))
{
    pid_t pid[NR_MAX];
    int failed = 0, left = n;
    if (fake_boot_setup(n, node_of) != 0)
        return n;
    fflush(NULL);
    for (int r = 0; r < n; r++) {
        pid[r] = fork();
        if (pid[r] == 0) {
            g_rank = r;
            fake_boot_child(r, &g_info);
            fn(r);
            fake_boot_info_free(&g_info);
            fflush(NULL);
            _exit(0);
        }
    }
    while (left > 0) {
        int st;
        pid_t p = wait(&st);
        if (p < 0)
            break;
        for (int r = 0; r < n; r++) {
            if (pid[r] != p)
                continue;
            pid[r] = 0;
            left--;
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
                failed++;
                for (int o = 0; o < n; o++)   /* the rest may wait on it forever */
                    if (pid[o] > 0)
                        kill(pid[o], SIGKILL);
            }
        }
    }
    fake_boot_teardown();
    return failed;
}

/* ---- receive side: the upcall records into a queue ---------------------- */

typedef struct rx_msg {
    int peer;
    size_t hdrlen, len;
    unsigned char hdr[RD_SHM_HDR_MAX];
    unsigned char *payload;
} rx_msg_t;

static rx_msg_t *rxq;
static size_t rxq_n, rxq_cap;
static void (*rx_hook)(int peer, const void *hdr, size_t hdrlen, const void *p, size_t len);

static void on_recv(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    if (rx_hook) {
        rx_hook(peer, hdr, hdrlen, payload, len);
        return;
    }
    if (rxq_n == rxq_cap) {
        rxq_cap = rxq_cap ? 2 * rxq_cap : 256;
        rxq = realloc(rxq, rxq_cap * sizeof(*rxq));
        CHK(rxq);
    }
    rx_msg_t *m = &rxq[rxq_n++];
    CHK(hdrlen <= RD_SHM_HDR_MAX);
    m->peer = peer;
    m->hdrlen = hdrlen;
    m->len = len;
    memcpy(m->hdr, hdr, hdrlen);
    m->payload = malloc(len ? len : 1);
    CHK(m->payload);
    memcpy(m->payload, payload, len);
}

static void rxq_clear(void)
{
    for (size_t i = 0; i < rxq_n; i++)
        free(rxq[i].payload);
    rxq_n = 0;
}

static void init_tp(void)
{
    rd_tp_env_t env = { &g_info, on_recv };
    rx_hook = NULL;
    rxq_clear();
    CHK(tp->init(&env) == RD_OK);
}

static void progress_until(size_t n)
{
    while (rxq_n < n) {
        int rc = tp->progress();
        CHK(rc >= 0);
        if (rc == 0)
            sched_yield();   /* ranks may outnumber cores */
    }
}

static void send_retry(int peer, const void *hdr, size_t hdrlen, const void *p, size_t len)
{
    int rc;
    while ((rc = tp->send(peer, hdr, hdrlen, p, len)) == RD_EAGAIN) {
        CHK(tp->progress() >= 0);
        sched_yield();
    }
    CHK(rc == RD_OK);
}

/* Byte i of a payload/header identified by (a, b). */
static unsigned char pat(unsigned a, unsigned b, size_t i)
{
    return (unsigned char)(a * 131u + b * 31u + (unsigned)i * 7u + (unsigned)(i >> 8));
}

static void fill(unsigned char *p, size_t n, unsigned a, unsigned b)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pat(a, b, i);
}

static int check_fill(const unsigned char *p, size_t n, unsigned a, unsigned b)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != pat(a, b, i))
            return 0;
    return 1;
}

/* The path of the node's segment, by the name local rank 0 published
 * (random: nobody can create it ahead of the job); "" before that. */
static void shm_file(char *buf, size_t n)
{
    char name[128];
    size_t len = sizeof(name);
    buf[0] = 0;
    if (rd_boot_get(g_info.local_ranks[0], "rdmpi.shm.seg", name, &len) == RD_OK)
        snprintf(buf, n, "/dev/shm%s", name);
}

/* No /dev/shm entry of this job (any name starting with rdmpi-<job>) exists. */
static int no_shm_files(void)
{
    char prefix[128];
    int clean = 1;
    snprintf(prefix, sizeof(prefix), "rdmpi-%s", g_info.job_id);
    DIR *d = opendir("/dev/shm");
    if (!d)
        return 1;
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, prefix, strlen(prefix)))
            clean = 0;
    closedir(d);
    return clean;
}

/* ---- init on several node layouts; same fences everywhere --------------- */

static void rank_layout(int rank)
{
    init_tp();
    int nf = fake_boot_fences();
    CHK(rd_boot_put("nf", &nf, sizeof(nf)) == RD_OK);
    CHK(rd_boot_fence() == RD_OK);
    for (int r = 0; r < g_info.size; r++) {
        int other = -1;
        size_t len = sizeof(other);
        CHK(rd_boot_get(r, "nf", &other, &len) == RD_OK);
        CHK(other == nf);   /* every rank fenced as often during init */
        if (r == rank)
            continue;
        int same_node = 0;
        for (int i = 0; i < g_info.local_size; i++)
            same_node |= g_info.local_ranks[i] == r;
        CHK(!!tp->reachable(r) == same_node);
    }
    CHK(!tp->reachable(-1) && !tp->reachable(g_info.size));
    CHK(tp->msg.eager_max >= 1024 && tp->msg.hdr_max == RD_SHM_HDR_MAX);

    /* Every rank exchanges one message with each local peer. */
    unsigned char hdr[16], pay[100];
    int nlocal = g_info.local_size;
    for (int i = 0; i < nlocal; i++) {
        int peer = g_info.local_ranks[i];
        if (peer == rank)
            continue;
        fill(hdr, sizeof(hdr), (unsigned)rank, (unsigned)peer);
        fill(pay, sizeof(pay), (unsigned)peer, (unsigned)rank);
        send_retry(peer, hdr, sizeof(hdr), pay, sizeof(pay));
    }
    progress_until((size_t)nlocal - 1);
    for (size_t i = 0; i < rxq_n; i++) {
        int peer = rxq[i].peer;
        CHK(rxq[i].hdrlen == sizeof(hdr) && rxq[i].len == sizeof(pay));
        CHK(check_fill(rxq[i].hdr, sizeof(hdr), (unsigned)peer, (unsigned)rank));
        CHK(check_fill(rxq[i].payload, sizeof(pay), (unsigned)rank, (unsigned)peer));
    }

    /* Areas: one per local rank (this one's included), none for the
     * others; what a rank writes into its own, every local peer reads. */
    size_t alen = 0, olen = 0;
    unsigned char *mine = nlocal > 1 ? tp->area(rank, &alen) : NULL;
    if (nlocal > 1) {
        CHK(mine && alen >= RD_SHM_AREA_BYTES_DEFAULT);
        fill(mine, alen, (unsigned)rank, 77u);
    }
    CHK(rd_boot_fence() == RD_OK);
    for (int r = 0; r < g_info.size; r++) {
        int local = 0;
        for (int i = 0; i < nlocal; i++)
            local |= g_info.local_ranks[i] == r;
        unsigned char *a = tp->area(r, &olen);
        if (!local || nlocal == 1) {
            CHK(a == NULL);
            continue;
        }
        CHK(a && olen == alen && (r == rank) == (a == mine));
        CHK(check_fill(a, olen, (unsigned)r, 77u));
    }
    CHK(tp->area(-1, &olen) == NULL && tp->area(g_info.size, &olen) == NULL);
    CHK(rd_boot_fence() == RD_OK);
    tp->finalize();
    CHK(no_shm_files());
}

static void test_layouts(void)
{
    static const int one_node[3] = { 0, 0, 0 };
    static const int split[3] = { 0, 1, 0 };      /* ranks 0, 2 together; 1 alone */
    static const int alone[2] = { 0, 1 };         /* local_size 1 everywhere */
    static const int pairs[4] = { 1, 0, 0, 1 };   /* two nodes of two */
    CU_ASSERT_EQUAL(run_ranks(3, one_node, rank_layout), 0);
    CU_ASSERT_EQUAL(run_ranks(3, split, rank_layout), 0);
    CU_ASSERT_EQUAL(run_ranks(2, alone, rank_layout), 0);
    CU_ASSERT_EQUAL(run_ranks(4, pairs, rank_layout), 0);
}

/* ---- sizes 0 .. eager_max, header sizes 0 .. hdr_max, in order ----------- */

static const size_t hdr_sizes[] = { 0, 1, 8, 13, 40, 56, RD_SHM_HDR_MAX };

/* The sizes sent: fixed ones up to the eager limit, the limit itself and
 * one under, and the same for the bulk limit (frag_max) when larger. */
static size_t n_sizes(size_t eager, size_t bulk, size_t *out)
{
    size_t n = 0;
    static const size_t fixed[] = { 0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48,
                                    55, 56, 57, 63, 64, 65, 100, 127, 128, 129, 1000,
                                    4095, 4096, 4097 };
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        if (fixed[i] <= eager)
            out[n++] = fixed[i];
    out[n++] = eager - 1;
    out[n++] = eager;
    if (bulk > eager) {
        out[n++] = bulk - 1;
        out[n++] = bulk;
    }
    return n;
}

static size_t sizes_expect_eager;   /* 0: whatever the environment sets */

static void rank_sizes(int rank)
{
    size_t sizes[64], ns;
    init_tp();
    size_t eager = tp->msg.eager_max;
    CHK(!sizes_expect_eager || eager == sizes_expect_eager);
    size_t max = tp->msg.frag_max > eager ? tp->msg.frag_max : eager;
    ns = n_sizes(eager, max, sizes);
    size_t nh = sizeof(hdr_sizes) / sizeof(hdr_sizes[0]);
    if (rank == 0) {
        unsigned char *pay = malloc(max + 1), hdr[RD_SHM_HDR_MAX];
        CHK(pay);
        /* Too long: refused, nothing taken. */
        CHK(tp->send(1, hdr, RD_SHM_HDR_MAX + 1, pay, 0) == RD_EINVAL);
        CHK(tp->send(1, hdr, 0, pay, max + 1) == RD_EINVAL);
        unsigned seq = 0;
        for (int rep = 0; rep < 3; rep++)         /* several laps of the ring */
            for (size_t h = 0; h < nh; h++)
                for (size_t s = 0; s < ns; s++, seq++) {
                    fill(hdr, hdr_sizes[h], seq, 1);
                    fill(pay, sizes[s], seq, 2);
                    send_retry(1, hdr, hdr_sizes[h], pay, sizes[s]);
                }
        free(pay);
        progress_until(1);                        /* the receiver's ack */
    } else {
        size_t total = 3 * nh * ns;
        progress_until(total);
        for (size_t i = 0; i < total; i++) {
            size_t h = (i / ns) % nh, s = i % ns;
            CHK(rxq[i].peer == 0);
            CHK(rxq[i].hdrlen == hdr_sizes[h]);
            CHK(rxq[i].len == sizes[s]);
            CHK(check_fill(rxq[i].hdr, hdr_sizes[h], (unsigned)i, 1));
            CHK(check_fill(rxq[i].payload, sizes[s], (unsigned)i, 2));
        }
        send_retry(0, NULL, 0, NULL, 0);
    }
    tp->finalize();
}

static void test_sizes(void)
{
    CU_ASSERT_EQUAL(run_ranks(2, NULL, rank_sizes), 0);
}

/* Same with a small eager limit and ring (many wraps), set on local rank 0
 * only: the others must adopt the node's values. */
static void rank_sizes_small(int rank)
{
    if (rank == 0) {
        setenv("RDMPI_SHM_EAGER_MAX", "4100", 1);
        setenv("RDMPI_SHM_RING_BYTES", "16K", 1);
    }
    sizes_expect_eager = 4100;
    rank_sizes(rank);
}

static void test_sizes_small_ring(void)
{
    CU_ASSERT_EQUAL(run_ranks(2, NULL, rank_sizes_small), 0);
}

/* ---- ring full: RD_EAGAIN, nothing taken, nothing lost ------------------- */

#define FULL_LEN 1000

static void rank_ring_full(int rank)
{
    setenv("RDMPI_SHM_RING_BYTES", "64K", 1);
    init_tp();
    unsigned char pay[FULL_LEN], hdr[8];
    unsigned n = 0;
    if (rank == 0) {
        for (;; n++) {
            fill(hdr, sizeof(hdr), n, 3);
            fill(pay, sizeof(pay), n, 4);
            int rc = tp->send(1, hdr, sizeof(hdr), pay, sizeof(pay));
            if (rc == RD_EAGAIN)
                break;
            CHK(rc == RD_OK);
            CHK(n < 1000);   /* a 64 KiB ring cannot take 1000 of these */
        }
        CHK(n > 10);
        /* Still full, and the refused message was not taken. */
        CHK(tp->send(1, hdr, sizeof(hdr), pay, sizeof(pay)) == RD_EAGAIN);
        CHK(rd_boot_put("n", &n, sizeof(n)) == RD_OK);
    }
    CHK(rd_boot_fence() == RD_OK);                /* rank 1 has not polled yet */
    if (rank == 1) {
        size_t len = sizeof(n);
        CHK(rd_boot_get(0, "n", &n, &len) == RD_OK);
    }
    CHK(rd_boot_fence() == RD_OK);
    /* Rank 1 drains while rank 0 sends n more, starting with the refused one. */
    if (rank == 0) {
        for (unsigned i = n; i < 2 * n; i++) {
            fill(hdr, sizeof(hdr), i, 3);
            fill(pay, sizeof(pay), i, 4);
            send_retry(1, hdr, sizeof(hdr), pay, sizeof(pay));
        }
        progress_until(1);
    } else {
        progress_until(2 * n);
        for (unsigned i = 0; i < 2 * n; i++) {
            CHK(rxq[i].hdrlen == sizeof(hdr) && rxq[i].len == FULL_LEN);
            CHK(check_fill(rxq[i].hdr, sizeof(hdr), i, 3));
            CHK(check_fill(rxq[i].payload, FULL_LEN, i, 4));
        }
        send_retry(0, NULL, 0, NULL, 0);
    }
    tp->finalize();
}

static void test_ring_full(void)
{
    CU_ASSERT_EQUAL(run_ranks(2, NULL, rank_ring_full), 0);
}

/* ---- stress: random sizes, all-to-all, content and per-sender order ------ */

#define STRESS_MSGS 60000    /* per rank, so 120000 or 180000 in all */

typedef struct stress_hdr {
    uint32_t src, seq;
    uint32_t len;
    unsigned char rest[];
} stress_hdr_t;

static uint32_t st_next[NR_MAX];
static uint64_t st_got;

static void stress_recv(int peer, const void *hdr, size_t hdrlen, const void *p, size_t len)
{
    stress_hdr_t h;
    CHK(hdrlen >= sizeof(h));
    memcpy(&h, hdr, sizeof(h));
    CHK(h.src == (uint32_t)peer && h.seq == st_next[peer] && h.len == len);
    CHK(check_fill((const unsigned char *)hdr + sizeof(h), hdrlen - sizeof(h), h.seq, h.src));
    CHK(check_fill(p, len, h.src, h.seq));
    st_next[peer]++;
    st_got++;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void rank_stress(int rank)
{
    int n = g_info.size;
    init_tp();
    rx_hook = stress_recv;
    size_t eager = tp->msg.eager_max;
    uint64_t rnd = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1);
    uint32_t seq[NR_MAX] = { 0 };
    unsigned char *pay = malloc(eager), hdr[RD_SHM_HDR_MAX];
    CHK(pay);
    uint64_t expect = 0;
    for (int i = 0; i < STRESS_MSGS; i++) {
        int peer = (rank + 1 + (int)(xorshift(&rnd) % (uint64_t)(n - 1))) % n;
        uint64_t r = xorshift(&rnd);
        size_t len = (r & 3) ? (size_t)(r >> 8) % 300 : (size_t)(r >> 8) % (eager + 1);
        size_t hdrlen = sizeof(stress_hdr_t) + (size_t)(r >> 40) % (RD_SHM_HDR_MAX - sizeof(stress_hdr_t) + 1);
        stress_hdr_t h = { (uint32_t)rank, seq[peer]++, (uint32_t)len };
        memcpy(hdr, &h, sizeof(h));
        fill(hdr + sizeof(h), hdrlen - sizeof(h), h.seq, h.src);
        fill(pay, len, h.src, h.seq);
        send_retry(peer, hdr, hdrlen, pay, len);
        if ((i & 15) == 0)
            CHK(tp->progress() >= 0);
    }
    /* Tell every peer how many it gets from us, and drain until we have
     * what every peer announced. No fence before that: a rank waiting in a
     * fence does not drain, and a peer may still be blocked on its ring.
     * (The fake publishes puts at once; a real PMIx would need the fence.) */
    CHK(rd_boot_put("cnt", seq, sizeof(seq)) == RD_OK);
    int known = 0;
    while (!known || st_got < expect) {
        if (!known) {
            known = 1;
            expect = 0;
            for (int p = 0; p < n && known; p++) {
                uint32_t c[NR_MAX];
                size_t len = sizeof(c);
                if (p == rank)
                    continue;
                if (rd_boot_get(p, "cnt", c, &len) == RD_OK)
                    expect += c[rank];
                else
                    known = 0;
            }
        }
        int rc = tp->progress();
        CHK(rc >= 0);
        if (rc == 0)
            sched_yield();
    }
    CHK(st_got == expect);
    CHK(rd_boot_fence() == RD_OK);   /* nobody finalizes while others still poll */
    free(pay);
    tp->finalize();
}

static void test_stress(void)
{
    CU_ASSERT_EQUAL(run_ranks(2, NULL, rank_stress), 0);
    CU_ASSERT_EQUAL(run_ranks(3, NULL, rank_stress), 0);
}

/* ---- the upcall sends: back to the sender and on to a third rank ---------- */

/* Rank 0 sends to rank 1 with at most ECHO_WINDOW messages in flight; rank
 * 1's upcall echoes each one back to rank 0 and forwards it to rank 2, whose
 * upcall acknowledges it to rank 0. A message leaves the window once both
 * its echo and its ack arrived, so no ring can fill and every send made from
 * an upcall must succeed at once. */
#define ECHO_MSGS 20000
#define ECHO_WINDOW 8
#define ECHO_PAY 512

static unsigned echo_seen, ack_seen;

static void echo_recv(int peer, const void *hdr, size_t hdrlen, const void *p, size_t len)
{
    unsigned seq;
    CHK(hdrlen == sizeof(seq));
    memcpy(&seq, hdr, sizeof(seq));
    switch (g_rank) {
    case 0:
        if (peer == 1) {
            CHK(seq == echo_seen && len == seq % ECHO_PAY && check_fill(p, len, seq, 6));
            echo_seen++;
        } else {
            CHK(peer == 2 && seq == ack_seen && len == 0);
            ack_seen++;
        }
        break;
    case 1:
        CHK(peer == 0);
        CHK(tp->send(0, hdr, hdrlen, p, len) == RD_OK);
        CHK(tp->send(2, hdr, hdrlen, p, len) == RD_OK);
        break;
    default:
        CHK(peer == 1 && seq == ack_seen && len == seq % ECHO_PAY && check_fill(p, len, seq, 6));
        ack_seen++;
        CHK(tp->send(0, hdr, hdrlen, NULL, 0) == RD_OK);
        break;
    }
}

static void rank_echo(int rank)
{
    unsigned char pay[ECHO_PAY];
    init_tp();
    rx_hook = echo_recv;
    if (rank == 0) {
        unsigned sent = 0;
        while (echo_seen < ECHO_MSGS || ack_seen < ECHO_MSGS) {
            unsigned done = echo_seen < ack_seen ? echo_seen : ack_seen;
            while (sent < ECHO_MSGS && sent - done < ECHO_WINDOW) {
                size_t len = sent % ECHO_PAY;
                fill(pay, len, sent, 6);
                CHK(tp->send(1, &sent, sizeof(sent), pay, len) == RD_OK);
                sent++;
            }
            if (tp->progress() == 0)
                sched_yield();
        }
        CHK(rd_boot_put("done", &rank, sizeof(rank)) == RD_OK);
    } else {
        /* Relay until rank 0 has everything (it publishes "done"). */
        int k;
        size_t len = sizeof(k);
        while (rd_boot_get(0, "done", &k, &len) != RD_OK) {
            int rc = tp->progress();
            CHK(rc >= 0);
            if (rc == 0)
                sched_yield();
            len = sizeof(k);
        }
        CHK(rank == 1 || ack_seen == ECHO_MSGS);
    }
    CHK(rd_boot_fence() == RD_OK);
    tp->finalize();
}

static void test_upcall_sends(void)
{
    CU_ASSERT_EQUAL(run_ranks(3, NULL, rank_echo), 0);
}

/* ---- CMA get ----------------------------------------------------------- */

#define CMA_LEN (16u << 20)

typedef struct cma_msg {
    uint64_t addr;
    uint64_t keylen;
    unsigned char key[RD_TP_KEY_MAX];
} cma_msg_t;

static void cma_done(void *ctx, int status)
{
    int *st = ctx;
    CHK(*st == 1);   /* exactly once */
    *st = status;
}

static void rank_cma(int rank)
{
    init_tp();
    if (!(tp->rdma.ops & RD_TP_RDMA_GET)) {
        /* CMA is not permitted here (ptrace policy): then get is not offered. */
        CHK(tp->get == NULL && tp->mem_reg == NULL && tp->put == NULL);
        if (rank == 0)
            printf("\n  (CMA not permitted in this environment: get not tested) ");
        CHK(rd_boot_fence() == RD_OK);
        tp->finalize();
        return;
    }
    CHK(tp->get && tp->mem_reg && tp->mem_dereg && tp->flush);
    CHK(!(tp->rdma.ops & RD_TP_RDMA_ATOMIC) && tp->fetch_add == NULL && tp->cswap == NULL);
    unsigned char *buf = malloc(CMA_LEN);
    CHK(buf);
    if (rank == 0) {
        cma_msg_t m;
        fill(buf, CMA_LEN, 7, 8);
        rd_tp_mem_t *mem;
        CHK(tp->mem_reg(buf, 0, &mem) == RD_EINVAL);   /* empty */
        CHK(tp->mem_reg(buf, CMA_LEN, &mem) == RD_OK && mem->keylen <= RD_TP_KEY_MAX);
        CHK(mem->buf == buf && mem->len == CMA_LEN);
        size_t kl = mem->keylen;
        memcpy(m.key, mem->key, kl);
        m.addr = (uint64_t)(uintptr_t)buf;
        m.keylen = kl;
        send_retry(1, NULL, 0, &m, sizeof(m));
        progress_until(1);                     /* rank 1 finished reading */
        tp->mem_dereg(mem);
    } else {
        progress_until(1);
        cma_msg_t m;
        CHK(rxq[0].len == sizeof(m));
        memcpy(&m, rxq[0].payload, sizeof(m));
        int st = 1;
        memset(buf, 0, CMA_LEN);
        CHK(tp->get(0, buf, NULL, m.addr, m.key, m.keylen, CMA_LEN, cma_done, &st) == RD_OK);
        CHK(st == RD_OK);
        CHK(check_fill(buf, CMA_LEN, 7, 8));
        /* A piece in the middle, at odd offsets. */
        size_t off = 12345, len = (1u << 20) + 3;
        memset(buf, 0, len);
        st = 1;
        CHK(tp->get(0, buf, NULL, m.addr + off, m.key, m.keylen, len, cma_done, &st) == RD_OK);
        CHK(st == RD_OK);
        for (size_t i = 0; i < len; i++)
            CHK(buf[i] == pat(7, 8, off + i));
        /* Outside the key's region, or a bad key: refused, done not called. */
        st = 1;
        CHK(tp->get(0, buf, NULL, m.addr + CMA_LEN - 8, m.key, m.keylen, 16, cma_done, &st) == RD_EINVAL);
        CHK(tp->get(0, buf, NULL, m.addr - 1, m.key, m.keylen, 8, cma_done, &st) == RD_EINVAL);
        CHK(tp->get(0, buf, NULL, m.addr, m.key, m.keylen - 1, 8, cma_done, &st) == RD_EINVAL);
        CHK(st == 1);
        send_retry(0, NULL, 0, NULL, 0);
    }
    free(buf);
    CHK(rd_boot_fence() == RD_OK);
    tp->finalize();
}

static void test_cma_get(void)
{
    CU_ASSERT_EQUAL(run_ranks(2, NULL, rank_cma), 0);
}

/* RDMPI_SHM_CMA=0 on one rank only: the whole node drops GET. */
static void rank_cma_off(int rank)
{
    if (rank == 2)
        setenv("RDMPI_SHM_CMA", "0", 1);
    init_tp();
    CHK(!(tp->rdma.ops & RD_TP_RDMA_GET));
    CHK(tp->get == NULL && tp->mem_reg == NULL && tp->put == NULL);
    CHK(rd_boot_fence() == RD_OK);
    tp->finalize();
}

static void test_cma_off(void)
{
    CU_ASSERT_EQUAL(run_ranks(3, NULL, rank_cma_off), 0);
}

/* ---- wait marks: each rank sees the others' last mark ------------------ */

/* Ranks 0, 1 and 3 share a node, rank 2 is alone. Round k: rank r marks
 * itself waiting when bit r of k is set; after a fence every rank reads
 * every other rank's mark (0 for rank 2, which is on no shared segment
 * with the others, and for itself on the others' side). */
static void rank_wait_marks(int rank)
{
    init_tp();
    CHK(tp->wait_mark && tp->waiting);
    for (int k = 0; k < 16; k++) {
        tp->wait_mark((k >> rank) & 1);
        CHK(rd_boot_fence() == RD_OK);
        for (int p = 0; p < 4; p++) {
            int local = p != 2 && rank != 2;
            if (p != rank)
                CHK(tp->waiting(p) == (local && ((k >> p) & 1)));
        }
        CHK(rd_boot_fence() == RD_OK);
    }
    tp->wait_mark(0);
    CHK(tp->waiting(-1) == 0 && tp->waiting(4) == 0);
    CHK(rd_boot_fence() == RD_OK);
    tp->finalize();
}

static void test_wait_marks(void)
{
    static const int node_of[4] = { 0, 0, 1, 0 };
    CU_ASSERT_EQUAL(run_ranks(4, node_of, rank_wait_marks), 0);
}

/* ---- the segment: mode 0600 while it exists, gone after init ----------- */

static int seen_mode = -1;
static int fences_before_init;

static void mode_hook(int nfence)
{
    /* Fence 2 of init: rank 1 has mapped, rank 0 has not unlinked yet. */
    if (nfence == fences_before_init + 2 && g_rank == 1) {
        char path[160];
        struct stat st;
        shm_file(path, sizeof(path));
        CHK(stat(path, &st) == 0);
        seen_mode = (int)(st.st_mode & 07777);
        CHK(st.st_uid == geteuid());
    }
}

static void rank_segment(int rank)
{
    char path[160], first[160];
    umask(0);   /* the mode must not depend on the umask */
    fake_boot_set_fence_hook(mode_hook);
    CHK(no_shm_files());
    CHK(rd_boot_fence() == RD_OK);   /* before rank 0 creates it */
    fences_before_init = fake_boot_fences();
    init_tp();
    fake_boot_set_fence_hook(NULL);
    if (rank == 1)
        CHK(seen_mode == 0600);
    shm_file(path, sizeof(path));
    /* /dev/shm/rdmpi-<job>-<node>-<16 hex digits> */
    size_t plen = strlen(path);
    CHK(plen > 17 && strspn(path + plen - 16, "0123456789abcdef") == 16);
    snprintf(first, sizeof(first), "%s", path);
    CHK(access(path, F_OK) != 0 && errno == ENOENT);   /* unlinked within init */
    CHK(no_shm_files());
    /* The mapping still works after the unlink. */
    unsigned char b = (unsigned char)rank;
    send_retry(1 - rank, &b, 1, &b, 1);
    progress_until(1);
    CHK(rxq[0].payload[0] == (unsigned char)(1 - rank));
    CHK(rd_boot_fence() == RD_OK);
    tp->finalize();
    CHK(no_shm_files());
    CHK(rd_boot_fence() == RD_OK);   /* checked before anyone starts the second init */
    /* A second init in the same job works: nothing was left behind. */
    init_tp();
    CHK(tp->reachable(1 - rank));
    shm_file(path, sizeof(path));
    CHK(path[0] && strcmp(path, first) != 0);   /* a new random name */
    CHK(rd_boot_fence() == RD_OK);
    tp->finalize();
    CHK(no_shm_files());
}

static void test_segment(void)
{
    CU_ASSERT_EQUAL(run_ranks(2, NULL, rank_segment), 0);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "init on node layouts, same fences everywhere", test_layouts },
        { "sizes 0..frag_max, headers 0..hdr_max, in order", test_sizes },
        { "small eager limit and ring, set on local rank 0", test_sizes_small_ring },
        { "ring full: EAGAIN, nothing taken or lost", test_ring_full },
        { "stress: random sizes, content and order", test_stress },
        { "upcall sends back and onward", test_upcall_sends },
        { "CMA get", test_cma_get },
        { "RDMPI_SHM_CMA=0 on one rank drops GET node-wide", test_cma_off },
        { "wait marks seen by node peers only", test_wait_marks },
        { "segment 0600, unlinked after init", test_segment },
    };
    return rd_unit_run("shm", tests, RD_UNIT_COUNT(tests));
}
