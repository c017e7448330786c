/*
 * tp_conform: every transport named in RDMPI_TRANSPORTS (shm, tcp, rc, ud)
 * against the contract its ops table promises in transport.h, between the
 * two ranks of an np=2 job, and the loopback transport of p2p (self) on each
 * rank. It drives the tables directly (rdmpi internals, linked from the
 * library's objects; no MPI_Init), one transport at a time:
 *   - the capabilities agree with the ops: an operation not offered is NULL;
 *   - a burst of messages with mixed header and payload sizes up to
 *     eager_max and frag_max arrives complete and in order, also when send()
 *     answers RD_EAGAIN (nothing taken: no loss, no duplicate);
 *   - with get/put: mem_reg'd memory read and written at several sizes and
 *     offsets, with and without a local handle, the data checked; a range
 *     outside the key refused without a completion; puts without done
 *     completed by flush(peer) and flush(-1);
 *   - puts of at most rdma.inline_max bytes, many of them without done,
 *     from a buffer overwritten as soon as put returned: the peer gets the
 *     bytes as they were (more puts than the send queue holds: a transport
 *     that leaves them unsignalled must still keep its queue from
 *     overflowing); gets without done, more than the read slots, all
 *     completed by one flush;
 *   - with put_imm (only where offered; the run says where it was not):
 *     many puts with immediates of 0 bytes to a few KiB, far more than the
 *     peer has receive buffers, every immediate delivered once, untouched
 *     (all 32 bits), and the bytes already in memory when it is;
 *   - with atomics: fetch-adds and compare-swaps from both ranks on each
 *     other's counter give the exact total, every fetched value once;
 *   - with loopback (only where offered): each rank's fetch-adds and
 *     compare-swaps on its own counter through its own device, mixed with
 *     the peer's on the same counter, lose no update.
 * A broken contract prints "FAIL transport: what (line)" and the job exits
 * non-zero; a transport that reaches no peer here is reported and skipped,
 * or fails the run when TP_CONFORM_REQUIRE is set (the testlists set it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boot/boot.h"
#include "transport/transport.h"
#include "util/errdetail.h"
#include "util/status.h"

/* p2p's loopback transport (src/p2p/self.c). */
extern const rd_transport_t rd_self_transport;
void rd_self_set_recv(rd_tp_recv_fn fn, int rank);

#define BURST 400                 /* messages per burst */
#define FLOOD_MAX 20000           /* eager_max messages sent after it, until RD_EAGAIN */
#define RDMA_BYTES (4u << 20)     /* each rank's registered buffer */
#define ATOMICS 2000              /* fetch-adds per rank, and as many cswap increments */
#define WAIT_SECONDS 120
#define LINGER_SECONDS 5          /* leave(): the longest wait for the peer's BYE */
/* Regions of each rank's buffer: the first half holds the owner's pattern
 * (peers read it), the second half is where the peer writes. */
#define HALF (RDMA_BYTES / 2)

static rd_boot_info_t boot;
static const rd_transport_t *tp;
static int peer;                  /* the other rank, or this one for self */
static int failures;

static void fail(int line, const char *what)
{
    fprintf(stderr, "FAIL %s: %s (tp_conform.c:%d, rank %d)\n", tp ? tp->name : "-", what,
            line, boot.rank);
    failures++;
}

#define CHECK(c)                                                                                \
    do {                                                                                        \
        if (!(c))                                                                               \
            fail(__LINE__, #c);                                                                 \
    } while (0)

static unsigned char pat(unsigned seed, size_t i)
{
    return (unsigned char)((i * 131u + seed * 7u + (i >> 9)) ^ (seed >> 3));
}

/* ---- arrivals ---- */

/* Header of every test message: its place in the burst and what it carries. */
typedef struct msg_hdr {
    uint32_t kind;                /* MSG_* */
    uint32_t seq;
    uint64_t len;                 /* payload bytes */
    uint64_t a, b;                /* kind-specific */
} msg_hdr_t;

enum { MSG_BURST = 1, MSG_ADDR, MSG_STEP, MSG_END, MSG_BYE };

static uint32_t next_seq;         /* burst messages received in order so far */
static size_t hdr_sizes_seen;     /* burst headers longer than msg_hdr_t */
static int steps;                 /* MSG_STEP messages received */
static int steps_sent;            /* and sent */
static int byes;                  /* MSG_BYE messages received */
static int burst_end;             /* burst messages the peer sent (MSG_END), or -1 */
static uint64_t peer_addr, peer_aaddr;
static unsigned char peer_key[RD_TP_KEY_MAX];
static size_t peer_keylen;
static int have_addr;

/* put_imm arrivals (test_put_imm). */
#define NOTES 2000                /* put_imms per rank */
#define NOTE_BASE (HALF + 1310720) /* NOTES records of NOTE_STRIDE in the writer's half */
#define NOTE_STRIDE 128
#define NOTE_BIG_EVERY 97         /* every 97th writes NOTE_BIG bytes instead */
#define NOTE_BIG 4096
#define NOTE_BIG_BASE (HALF + 1638400)
static int notes;                 /* immediates received */
static int notes_bad;             /* of those: unknown, duplicated, or before their bytes */
static int notes_in_order = 1;
static unsigned char *note_seen;
static unsigned char *note_buf;   /* this rank's registered buffer, where the peer writes */

static size_t burst_len(uint32_t seq);
static size_t burst_hdrlen(uint32_t seq);

static void on_recv(int from, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    msg_hdr_t h;
    if (from != peer || hdrlen < sizeof(h)) {
        fail(__LINE__, "a message from the wrong rank or with a short header");
        return;
    }
    memcpy(&h, hdr, sizeof(h));
    if (h.kind == MSG_BURST) {
        if (h.seq != next_seq) {
            fprintf(stderr, "  burst message %u arrived when %u was next\n", h.seq, next_seq);
            fail(__LINE__, "burst out of order, lost or duplicated");
        }
        next_seq = h.seq + 1;
        if (hdrlen != burst_hdrlen(h.seq) || len != burst_len(h.seq) || len != h.len) {
            fail(__LINE__, "burst message with the wrong header or payload length");
            return;
        }
        for (size_t i = sizeof(h); i < hdrlen; i++)
            if (((const unsigned char *)hdr)[i] != pat(h.seq, i)) {
                fail(__LINE__, "burst header bytes differ");
                break;
            }
        hdr_sizes_seen += hdrlen > sizeof(h);
        for (size_t i = 0; i < len; i++)
            if (((const unsigned char *)payload)[i] != pat(h.seq + 1000, i)) {
                fail(__LINE__, "burst payload bytes differ");
                break;
            }
    } else if (h.kind == MSG_ADDR) {
        peer_addr = h.a;
        peer_aaddr = h.b;
        peer_keylen = len;
        CHECK(len <= RD_TP_KEY_MAX);
        memcpy(peer_key, payload, len < RD_TP_KEY_MAX ? len : RD_TP_KEY_MAX);
        have_addr = 1;
    } else if (h.kind == MSG_END) {
        burst_end = (int)h.a;
    } else if (h.kind == MSG_STEP) {
        steps++;
    } else if (h.kind == MSG_BYE) {
        byes++;
    } else {
        fail(__LINE__, "a message of unknown kind");
    }
}

static size_t note_len(uint32_t i)
{
    static const size_t lens[4] = { 0, 8, NOTE_STRIDE, 1 };
    return i % NOTE_BIG_EVERY == 0 ? NOTE_BIG : lens[i % 4];
}

static size_t note_at(uint32_t i)
{
    return i % NOTE_BIG_EVERY == 0 ? NOTE_BIG_BASE + (size_t)(i / NOTE_BIG_EVERY) * NOTE_BIG
                                   : NOTE_BASE + (size_t)i * NOTE_STRIDE;
}

/* The immediate of put_imm number i: its top byte takes every value, those
 * of the transport's own immediates (rc's kinds) included. */
static uint32_t note_imm(uint32_t i)
{
    return (i % 256u) << 24 | i;
}

/* env->notified: a put_imm of the peer has arrived; its bytes must be here. */
static void on_notified(int from, uint32_t imm)
{
    uint32_t i = imm & 0xffffffu;
    notes++;
    if (from != peer || i >= NOTES || imm >> 24 != i % 256u || !note_seen || note_seen[i]) {
        fprintf(stderr, "  immediate 0x%08x from rank %d: unknown or repeated\n", imm, from);
        notes_bad++;
        return;
    }
    note_seen[i] = 1;
    if (i != (uint32_t)notes - 1)
        notes_in_order = 0;
    unsigned them = (unsigned)(boot.rank ^ 1);
    size_t at = note_at(i), n = note_len(i);
    for (size_t k = 0; k < n; k++)
        if (note_buf[at + k] != pat(them + 70, at + k)) {
            fprintf(stderr, "  put_imm %u: byte %zu of %zu not in place when notified\n", i, k, n);
            notes_bad++;
            break;
        }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Progresses until *flag reaches want; a transport that never gets there
 * fails the case instead of hanging it. */
static void progress_until(const volatile int *flag, int want, const char *what)
{
    double end = now() + WAIT_SECONDS;
    while (*flag < want) {
        int rc = tp->progress();
        if (rc < 0) {
            fail(__LINE__, "progress failed");
            return;
        }
        if (now() > end) {
            fprintf(stderr, "  waiting for %s (steps %d of %d, burst %u of %d, key %d)\n", what,
                    steps, steps_sent, (unsigned)next_seq, burst_end, have_addr);
            fail(__LINE__, "timed out");
            exit(1);
        }
    }
}

static unsigned long eagains;

/* send() until taken, progressing while the transport has no room. */
static void send_msg(const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    double end = now() + WAIT_SECONDS;
    for (;;) {
        int rc = tp->send(peer, hdr, hdrlen, payload, len);
        if (rc == RD_OK)
            return;
        if (rc != RD_EAGAIN) {
            fprintf(stderr, "  send of %zu+%zu bytes: status %d\n", hdrlen, len, rc);
            fail(__LINE__, "send failed");
            return;
        }
        eagains++;
        if (tp->progress() < 0 || now() > end) {
            fail(__LINE__, "no room for a send that RD_EAGAIN said to retry");
            exit(1);
        }
    }
}

/* Both ranks meet: each tells the other it got this far. */
static void step(void)
{
    int sent = ++steps_sent;
    msg_hdr_t h = { .kind = MSG_STEP };
    send_msg(&h, sizeof(h), NULL, 0);
    progress_until(&steps, sent, "the peer's step");
    if (tp->push)
        tp->push();
}

/* ---- capabilities against ops ---- */

static void check_caps(void)
{
    const rd_transport_t *t = tp;
    unsigned ops = t->rdma.ops;
    CHECK(t->msg.hdr_max >= RD_TP_HDR_MAX);
    CHECK(t->msg.eager_max >= 1);
    CHECK(t->init && t->finalize && t->reachable && t->send && t->progress);
    CHECK(!(ops & ~(unsigned)(RD_TP_RDMA_GET | RD_TP_RDMA_PUT | RD_TP_RDMA_ATOMIC)));
    CHECK(!!(ops & RD_TP_RDMA_GET) == !!t->get);
    CHECK(!!(ops & RD_TP_RDMA_PUT) == !!t->put);
    CHECK(!!(ops & RD_TP_RDMA_ATOMIC) == !!t->fetch_add);
    CHECK(!!(ops & RD_TP_RDMA_ATOMIC) == !!t->cswap);
    CHECK(!t->loopback || (ops & RD_TP_RDMA_ATOMIC));
    CHECK(!!ops == !!t->mem_reg && !!ops == !!t->mem_dereg && !!ops == !!t->flush);
    CHECK(ops || (!t->rdma.split_min && !t->rdma.inline_max));
    CHECK((ops & RD_TP_RDMA_PUT) || (!t->put_imm && !t->rdma.inline_max));
    CHECK(!!t->signal == !!t->signaled);
    CHECK(t->fail.reports || !t->watch);
    CHECK(!t->node.cpus || t->signal || t->area);
}

/* Before the fence that ends a transport's run. The fence does not
 * progress the transport, so a lost packet of the last STEP this rank sent
 * would never be resent (ud) and the peer would wait for it until it timed
 * out. Each rank sends BYE once its last step is over and progresses until
 * the peer's BYE, which the peer sends only after our STEP arrived; a lost
 * BYE costs the peer LINGER_SECONDS, not a failure. */
static void leave(void)
{
    msg_hdr_t h = { .kind = MSG_BYE };
    send_msg(&h, sizeof(h), NULL, 0);
    if (tp->push)
        tp->push();
    double end = now() + LINGER_SECONDS;
    while (!byes && now() < end)
        if (tp->progress() < 0) {
            fail(__LINE__, "progress failed");
            return;
        }
}

/* ---- ordered burst ---- */

static size_t sizes[8];
static int nsizes;

static size_t burst_len(uint32_t seq)
{
    if (seq >= BURST)
        return tp->msg.eager_max;   /* the flood after the mixed burst */
    return sizes[(seq * 7u + seq / 5u) % (unsigned)nsizes];
}

static size_t burst_hdrlen(uint32_t seq)
{
    size_t room = RD_TP_HDR_MAX - sizeof(msg_hdr_t);
    return sizeof(msg_hdr_t) + (seq * 13u) % (room + 1);
}

static void test_burst(void)
{
    size_t eager = tp->msg.eager_max;
    size_t frag = tp->msg.frag_max > eager ? tp->msg.frag_max : eager;
    nsizes = 0;
    sizes[nsizes++] = 0;
    sizes[nsizes++] = 1;
    sizes[nsizes++] = eager < 63 ? eager : 63;
    sizes[nsizes++] = eager / 2 + 1;
    sizes[nsizes++] = eager;
    sizes[nsizes++] = frag;
    sizes[nsizes++] = eager > 4096 ? 4096 : eager;
    unsigned char *payload = malloc(frag), hdr[RD_TP_HDR_MAX];
    CHECK(payload);
    unsigned long eagains0 = eagains;
    /* Both ranks send their whole burst before waiting: no progress between
     * sends but the retries after RD_EAGAIN. */
    for (uint32_t seq = 0; seq < BURST; seq++) {
        msg_hdr_t h = { .kind = MSG_BURST, .seq = seq, .len = burst_len(seq) };
        size_t hl = burst_hdrlen(seq);
        memcpy(hdr, &h, sizeof(h));
        for (size_t i = sizeof(h); i < hl; i++)
            hdr[i] = pat(seq, i);
        for (size_t i = 0; i < h.len; i++)
            payload[i] = pat(seq + 1000, i);
        send_msg(hdr, hl, payload, h.len);
        /* The caller may reuse its buffers once send() returned RD_OK. */
        memset(payload, 0xee, h.len);
        memset(hdr, 0xee, hl);
    }
    /* Then messages of eager_max bytes until the transport runs out of room
     * (a transport may queue without bound: RD_EAGAIN is never required),
     * which must lose and duplicate nothing either. */
    unsigned long burst_eagains = eagains - eagains0;
    uint32_t seq = BURST;
    unsigned long flood0 = eagains;
    while (peer != boot.rank && eagains == flood0 && seq < BURST + FLOOD_MAX) {
        msg_hdr_t h = { .kind = MSG_BURST, .seq = seq, .len = eager };
        size_t hl = burst_hdrlen(seq);
        memcpy(hdr, &h, sizeof(h));
        for (size_t i = sizeof(h); i < hl; i++)
            hdr[i] = pat(seq, i);
        for (size_t i = 0; i < eager; i++)
            payload[i] = pat(seq + 1000, i);
        send_msg(hdr, hl, payload, eager);
        seq++;
    }
    msg_hdr_t end = { .kind = MSG_END, .a = seq };
    send_msg(&end, sizeof(end), NULL, 0);
    if (tp->push)
        tp->push();
    progress_until(&burst_end, 0, "the end of the peer's burst");
    progress_until((volatile int *)&next_seq, burst_end, "the peer's burst");
    CHECK(next_seq == (uint32_t)burst_end);
    CHECK(hdr_sizes_seen > 0);
    if (boot.rank == 0)
        printf("  %s: burst of %d (0..%zu bytes, headers to %d) in order, %lu RD_EAGAIN; "
               "then %u of %zu bytes, %s\n", tp->name, BURST, frag, RD_TP_HDR_MAX,
               burst_eagains, seq - BURST, eager,
               eagains > flood0 ? "in order after RD_EAGAIN" : "in order, no RD_EAGAIN");
    free(payload);
    step();
}

/* ---- get / put / flush ---- */

typedef struct done_ctx {
    int calls, status;
} done_ctx_t;

static void on_done(void *ctx, int status)
{
    done_ctx_t *d = ctx;
    d->calls++;
    if (status != RD_OK)
        d->status = status;
}

static void wait_done(done_ctx_t *d, int want, const char *what)
{
    progress_until(&d->calls, want, what);
    CHECK(d->calls == want);
    CHECK(d->status == RD_OK);
}

static int flushed(int target)
{
    done_ctx_t d = { 0, RD_OK };
    int rc = tp->flush(target, on_done, &d);
    CHECK(rc == RD_OK);
    if (rc != RD_OK)
        return rc;
    wait_done(&d, 1, "a flush");
    return d.status;
}


static const size_t rdma_sizes[] = { 1, 8, 4095, 65536, 1u << 20 };
static const size_t rdma_offs[] = { 0, 3, 4096, 12345, 100000 };
#define NRDMA (sizeof(rdma_sizes) / sizeof(rdma_sizes[0]))

/* Where rdma_sizes[i] is written in the second half (disjoint). */
static size_t put_off(size_t i)
{
    size_t off = 0;
    for (size_t j = 0; j < i; j++)
        off += rdma_sizes[j] + 64;
    return HALF + off + rdma_offs[i] % 64;
}

static void test_rdma(unsigned char *buf)
{
    unsigned me = (unsigned)boot.rank, them = (unsigned)(boot.rank ^ (peer != boot.rank));
    unsigned char *local = malloc(HALF);
    CHECK(local);
    rd_tp_mem_t *lmem = NULL;
    CHECK(tp->mem_reg(local, HALF, &lmem) == RD_OK);

    if (tp->rdma.ops & RD_TP_RDMA_GET) {
        for (size_t i = 0; i < NRDMA; i++) {
            for (int with_handle = 0; with_handle < 2; with_handle++) {
                size_t n = rdma_sizes[i], off = rdma_offs[i];
                done_ctx_t d = { 0, RD_OK };
                memset(local, 0, n + 1);
                int rc = tp->get(peer, local, with_handle ? lmem : NULL, peer_addr + off,
                                 peer_key, peer_keylen, n, on_done, &d);
                CHECK(rc == RD_OK);
                if (rc != RD_OK)
                    continue;
                wait_done(&d, 1, "a get");
                for (size_t k = 0; k < n; k++)
                    if (local[k] != pat(them, off + k)) {
                        fprintf(stderr, "  get of %zu bytes at %zu: byte %zu differs\n", n, off, k);
                        fail(__LINE__, "get read the wrong bytes");
                        break;
                    }
                CHECK(local[n] == 0);   /* nothing beyond len */
            }
        }
        /* Gets without done, more than a transport has read slots: one
         * flush completes them all. */
        memset(local, 0, 64 * 96);
        for (size_t g = 0; g < 64; g++)
            CHECK(tp->get(peer, local + g * 96, g % 2 ? lmem : NULL, peer_addr + 7 + g * 100,
                          peer_key, peer_keylen, 64, NULL, NULL) == RD_OK);
        CHECK(flushed(peer) == RD_OK);
        for (size_t g = 0; g < 64; g++)
            for (size_t k = 0; k < 64; k++)
                if (local[g * 96 + k] != pat(them, 7 + g * 100 + k)) {
                    fprintf(stderr, "  silent get %zu: byte %zu differs\n", g, k);
                    fail(__LINE__, "flush returned before gets without done were complete");
                    g = 64;
                    break;
                }
        /* Outside the key's range: refused, done never called. */
        done_ctx_t d = { 0, RD_OK };
        CHECK(tp->get(peer, local, NULL, peer_addr + RDMA_BYTES - 8, peer_key, peer_keylen, 16,
                      on_done, &d) == RD_EINVAL);
        CHECK(tp->get(peer, local, NULL, peer_addr - 8, peer_key, peer_keylen, 8, on_done,
                      &d) == RD_EINVAL);
        for (int k = 0; k < 1000; k++)
            tp->progress();
        CHECK(d.calls == 0);
    }

    if (tp->rdma.ops & RD_TP_RDMA_PUT) {
        /* Half with done, half without: flush completes the silent ones. */
        done_ctx_t d = { 0, RD_OK };
        int with_done = 0;
        for (size_t i = 0; i < NRDMA; i++) {
            size_t n = rdma_sizes[i], at = put_off(i);
            unsigned char *src = local + (at - HALF);
            for (size_t k = 0; k < n; k++)
                src[k] = pat(me + 50, at + k);
            int silent = i % 2 == 0;
            CHECK(tp->put(peer, src, i % 3 == 1 ? lmem : NULL, peer_addr + at, peer_key,
                          peer_keylen, n, silent ? NULL : on_done, &d) == RD_OK);
            with_done += !silent;
        }
        CHECK(flushed(peer) == RD_OK);
        /* Every put is complete at the peer now, the ones with done too. */
        CHECK(d.calls == with_done && d.status == RD_OK);
        /* A second round of silent puts, completed by a flush of every peer. */
        size_t at = put_off(NRDMA);
        for (size_t k = 0; k < 4096; k++)
            local[at - HALF + k] = pat(me + 60, at + k);
        for (int r = 0; r < 4; r++)
            CHECK(tp->put(peer, local + (at - HALF) + (size_t)r * 1024, NULL,
                          peer_addr + at + (size_t)r * 1024, peer_key, peer_keylen, 1024, NULL,
                          NULL) == RD_OK);
        CHECK(flushed(-1) == RD_OK);
        /* An empty flush completes too. */
        CHECK(flushed(peer) == RD_OK);
    }
    step();   /* the peer's puts into our buffer are complete */
    if (tp->rdma.ops & RD_TP_RDMA_PUT) {
        for (size_t i = 0; i < NRDMA; i++) {
            size_t n = rdma_sizes[i], at = put_off(i);
            for (size_t k = 0; k < n; k++)
                if (buf[at + k] != pat(them + 50, at + k)) {
                    fprintf(stderr, "  put of %zu bytes at %zu: byte %zu differs\n", n, at, k);
                    fail(__LINE__, "put wrote the wrong bytes (or flush returned early)");
                    break;
                }
        }
        size_t at = put_off(NRDMA);
        for (size_t k = 0; k < 4096; k++)
            if (buf[at + k] != pat(them + 60, at + k)) {
                fail(__LINE__, "flush(-1) returned before the puts were complete");
                break;
            }
    }
    if (boot.rank == 0)
        printf("  %s: %s of 1 B .. 1 MiB checked%s\n", tp->name,
               (tp->rdma.ops & RD_TP_RDMA_PUT) ? "get and put" : "get",
               (tp->rdma.ops & RD_TP_RDMA_PUT) ? ", flush(peer) and flush(-1)" : "");
    tp->mem_dereg(lmem);
    free(local);
}

/* ---- inline puts ---- */

#define INL_BASE (HALF + 1728000) /* after the put_imm records */

static size_t inl_len(size_t i, size_t max)
{
    size_t lens[4] = { 1, 8, max / 2 ? max / 2 : 1, max };
    return lens[i % 4];
}

/* Puts of at most inline_max bytes from one buffer, overwritten as soon as
 * put returned (transport.h allows it up to inline_max), most without done
 * and more of them than a send queue holds; one flush, then the peer
 * checks what arrived. */
static void test_inline(unsigned char *buf)
{
    size_t max = tp->rdma.inline_max;
    if (!(tp->rdma.ops & RD_TP_RDMA_PUT))
        return;
    if (max == 0) {
        if (boot.rank == 0)
            printf("  %s: no inline puts (inline_max is 0)\n", tp->name);
        return;
    }
    unsigned me = (unsigned)boot.rank, them = (unsigned)(boot.rank ^ (peer != boot.rank));
    size_t stride = (max + 63) & ~(size_t)63, room = RDMA_BYTES - 64 - INL_BASE;
    size_t count = room / stride < 1000 ? room / stride : 1000;
    unsigned char *src = malloc(max);
    CHECK(src);
    done_ctx_t d = { 0, RD_OK };
    int with_done = 0;
    for (size_t i = 0; i < count; i++) {
        size_t n = inl_len(i, max), at = INL_BASE + i * stride;
        for (size_t k = 0; k < n; k++)
            src[k] = pat(me + 80, at + k);
        int silent = i % 10 != 0;
        CHECK(tp->put(peer, src, NULL, peer_addr + at, peer_key, peer_keylen, n,
                      silent ? NULL : on_done, &d) == RD_OK);
        with_done += !silent;
        memset(src, 0xee, max);
    }
    CHECK(flushed(peer) == RD_OK);
    CHECK(d.calls == with_done && d.status == RD_OK);
    step();
    for (size_t i = 0; i < count; i++) {
        size_t n = inl_len(i, max), at = INL_BASE + i * stride;
        for (size_t k = 0; k < n; k++)
            if (buf[at + k] != pat(them + 80, at + k)) {
                fprintf(stderr, "  inline put %zu of %zu bytes: byte %zu differs\n", i, n, k);
                fail(__LINE__, "an inline put wrote the buffer's later contents");
                i = count;
                break;
            }
    }
    if (boot.rank == 0)
        printf("  %s: %zu inline puts of 1 .. %zu bytes (buffer reused at once), right\n",
               tp->name, count, max);
    free(src);
}

/* ---- put with immediate ---- */

static void test_put_imm(void)
{
    if (!tp->put_imm) {
        if (boot.rank == 0)
            printf("  %s: put_imm not offered: skipped\n", tp->name);
        return;
    }
    unsigned me = (unsigned)boot.rank;
    /* Sources laid out like the peer's buffer, kept until the flush (the
     * larger ones are not inline). */
    unsigned char *local = malloc(HALF);
    CHECK(local);
    done_ctx_t d = { 0, RD_OK };
    int with_done = 0;
    for (uint32_t i = 0; i < NOTES; i++) {
        size_t at = note_at(i), n = note_len(i);
        for (size_t k = 0; k < n; k++)
            local[at - HALF + k] = pat(me + 70, at + k);
        int silent = i % 3 != 0;
        int rc = tp->put_imm(peer, local + (at - HALF), NULL, peer_addr + at, peer_key,
                             peer_keylen, n, note_imm(i), silent ? NULL : on_done, &d);
        CHECK(rc == RD_OK);
        if (rc != RD_OK)
            break;
        with_done += !silent;
        /* No progress for most of them: they outrun the peer's receive
         * buffers and must wait for its credits. */
        if (i % 512 == 511)
            tp->progress();
    }
    CHECK(flushed(peer) == RD_OK);
    CHECK(d.calls == with_done && d.status == RD_OK);
    progress_until(&notes, NOTES, "the peer's put_imms");
    CHECK(notes == NOTES);
    CHECK(notes_bad == 0);
    step();
    if (boot.rank == 0)
        printf("  %s: %d put_imm of 0 .. %d bytes each way, every immediate once, its bytes "
               "in place%s\n", tp->name, NOTES, NOTE_BIG,
               notes_in_order ? ", in order" : "");
    free(local);
}

/* ---- atomics ---- */

/* loopback: this rank's own counter through its device, while the peer
 * adds to it too (both ranks do both): the atomics of both kinds and of
 * both origins are atomic with each other, so the total is exact. */
static void test_loopback(uint64_t *counter, const rd_tp_mem_t *mem)
{
    int me = boot.rank;
    uint64_t before = *counter, r, own = (uint64_t)(uintptr_t)counter;
    int rc = tp->loopback();
    if (rc != RD_OK)
        fprintf(stderr, "  loopback: %s (%s)\n", rd_status_str(rc), rd_err_detail_peek());
    CHECK(rc == RD_OK);
    CHECK(tp->loopback() == RD_OK);   /* once connected, again is nothing */
    step();
    for (int i = 0; i < ATOMICS; i++) {
        CHECK(tp->fetch_add(peer, peer_aaddr, peer_key, peer_keylen, 1, &r, NULL, NULL) ==
              RD_OK);
        if (i % 2) {
            CHECK(tp->fetch_add(me, own, mem->key, mem->keylen, 1, &r, NULL, NULL) == RD_OK);
        } else {
            /* an increment by compare-swap, retried with the value found */
            uint64_t guess = *counter;
            for (;;) {
                uint64_t found = ~(uint64_t)0;
                done_ctx_t c = { 0, RD_OK };
                CHECK(tp->cswap(me, own, mem->key, mem->keylen, guess, guess + 1, &found,
                                on_done, &c) == RD_OK);
                wait_done(&c, 1, "a compare-swap on this rank's own memory");
                if (found == guess || c.status != RD_OK)
                    break;
                guess = found;
            }
        }
        if (i % 64 == 63)
            tp->progress();
    }
    CHECK(flushed(me) == RD_OK);
    CHECK(flushed(peer) == RD_OK);
    step();   /* both ranks' atomics are complete */
    if (*counter != before + 2 * ATOMICS) {
        fprintf(stderr, "  counter %llu, expected %llu\n", (unsigned long long)*counter,
                (unsigned long long)(before + 2 * ATOMICS));
        fail(__LINE__, "loopback atomics and the peer's lost or doubled an update");
    }
    if (boot.rank == 0)
        printf("  %s: loopback: %d atomics on each rank's own counter through its device, "
               "mixed with the peer's, exact total\n", tp->name, ATOMICS);
}

static void test_atomics(uint64_t *counter)
{
    /* Each rank adds to the other's counter: ATOMICS fetch-adds of 1 (some
     * without done) and ATOMICS increments by compare-swap; every value the
     * fetch-adds find is found once, and the total is exact. */
    uint64_t *res = calloc(ATOMICS, sizeof(*res));
    unsigned char *seen = calloc(2 * ATOMICS + 1, 1);
    CHECK(res && seen);
    done_ctx_t d = { 0, RD_OK };
    int with_done = 0;
    for (int i = 0; i < ATOMICS; i++) {
        int silent = i % 4 == 3;
        int rc = tp->fetch_add(peer, peer_aaddr, peer_key, peer_keylen, 1, &res[i],
                               silent ? NULL : on_done, &d);
        CHECK(rc == RD_OK);
        if (rc != RD_OK)
            break;
        with_done += !silent;
        if (i % 64 == 63)
            tp->progress();
    }
    CHECK(flushed(peer) == RD_OK);
    CHECK(d.calls == with_done && d.status == RD_OK);
    for (int i = 0; i < ATOMICS; i++) {
        if (res[i] > 2 * ATOMICS || seen[res[i]]) {
            fail(__LINE__, "a fetch-add found a value twice or out of range");
            break;
        }
        seen[res[i]] = 1;
    }
    /* Increments by compare-swap: retry with the value found until it took. */
    uint64_t guess = 0;
    for (int i = 0; i < ATOMICS; i++) {
        for (int tries = 0;; tries++) {
            uint64_t found = ~(uint64_t)0;
            done_ctx_t c = { 0, RD_OK };
            CHECK(tp->cswap(peer, peer_aaddr, peer_key, peer_keylen, guess, guess + 1, &found,
                            on_done, &c) == RD_OK);
            wait_done(&c, 1, "a compare-swap");
            if (found == guess) {
                guess++;
                break;
            }
            CHECK(found > guess && found <= 2 * ATOMICS);
            guess = found;
            if (tries > 100000) {
                fail(__LINE__, "compare-swap never took");
                break;
            }
        }
    }
    /* A misaligned target is refused. */
    uint64_t r;
    CHECK(tp->fetch_add(peer, peer_aaddr + 1, peer_key, peer_keylen, 1, &r, NULL, NULL) ==
          RD_EINVAL);
    step();   /* both ranks' atomics are complete */
    if (*counter != 2 * ATOMICS) {
        fprintf(stderr, "  counter %llu, expected %d\n", (unsigned long long)*counter,
                2 * ATOMICS);
        fail(__LINE__, "atomics lost or doubled an update");
    }
    if (boot.rank == 0)
        printf("  %s: %d fetch-adds and %d compare-swaps from each rank, exact total\n",
               tp->name, ATOMICS, ATOMICS);
    free(res);
    free(seen);
}

/* ---- one transport ---- */

static void test_memory(void)
{
    unsigned me = (unsigned)boot.rank;
    unsigned char *buf = NULL;
    CHECK(posix_memalign((void **)&buf, 4096, RDMA_BYTES) == 0);
    for (size_t k = 0; k < RDMA_BYTES; k++)
        buf[k] = k < HALF ? pat(me, k) : 0;
    uint64_t *counter = (uint64_t *)(void *)(buf + RDMA_BYTES - 64);
    *counter = 0;
    rd_tp_mem_t *mem = NULL, *again = NULL;
    CHECK(tp->mem_reg(buf, RDMA_BYTES, &mem) == RD_OK);
    CHECK(mem && mem->buf == buf && mem->len == RDMA_BYTES && mem->keylen <= RD_TP_KEY_MAX);
    /* Registering the same memory again works alike (verbs: a cache hit). */
    CHECK(tp->mem_reg(buf, RDMA_BYTES, &again) == RD_OK);
    CHECK(again && again->keylen == mem->keylen);
    tp->mem_dereg(again);

    notes = notes_bad = 0;
    notes_in_order = 1;
    note_buf = buf;
    note_seen = calloc(NOTES, 1);
    CHECK(note_seen);
    msg_hdr_t h = { .kind = MSG_ADDR, .a = (uint64_t)(uintptr_t)buf,
                    .b = (uint64_t)(uintptr_t)counter };
    send_msg(&h, sizeof(h), mem->key, mem->keylen);
    progress_until(&have_addr, 1, "the peer's key");
    test_rdma(buf);
    test_inline(buf);
    test_put_imm();
    if ((tp->rdma.ops & RD_TP_RDMA_ATOMIC) && tp->fetch_add && tp->cswap) {
        test_atomics(counter);
        if (tp->loopback)
            test_loopback(counter, mem);
        else if (boot.rank == 0)
            printf("  %s: no loopback\n", tp->name);
    } else if (boot.rank == 0)
        printf("  %s: no atomics (fetch_add and cswap are NULL)\n", tp->name);
    step();
    tp->mem_dereg(mem);
    free(note_seen);
    note_seen = NULL;
    free(buf);
}

static void run(const rd_transport_t *t, int self)
{
    tp = t;
    /* Reset before anything can arrive: a peer ahead of us may send its
     * next message while we still wait for its previous one. */
    steps = steps_sent = byes = 0;
    next_seq = 0;
    burst_end = -1;
    hdr_sizes_seen = 0;
    have_addr = 0;
    peer = self ? boot.rank : boot.rank ^ 1;
    if (!self) {
        rd_tp_env_t env = { .boot = &boot, .recv = on_recv, .notified = on_notified };
        int rc = ((rd_transport_t *)t)->init(&env);
        if (rc != RD_OK) {
            fprintf(stderr, "rank %d: %s: init failed (%d)\n", boot.rank, t->name, rc);
            failures++;
            return;
        }
        if (t->fence_after_init && rd_boot_fence() != RD_OK) {
            fail(__LINE__, "fence");
            return;
        }
        if (!t->reachable(peer)) {
            if (getenv("TP_CONFORM_REQUIRE"))
                fail(__LINE__, "the transport reaches no peer (TP_CONFORM_REQUIRE is set)");
            else if (boot.rank == 0)
                printf("  %s: reaches no peer here: not tested\n", t->name);
            rd_boot_fence();
            t->finalize();
            return;
        }
    } else {
        rd_self_set_recv(on_recv, boot.rank);
    }
    check_caps();
    test_burst();
    if (t->rdma.ops)
        test_memory();
    else if (boot.rank == 0)
        printf("  %s: no remote memory access (mem_reg, get, put, flush are NULL)\n", t->name);
    if (!self) {
        leave();
        rd_boot_fence();
        t->finalize();
    }
}

int main(void)
{
    if (rd_boot_init(&boot) != RD_OK || boot.size != 2) {
        fprintf(stderr, "tp_conform: needs an np=2 job from mpirun\n");
        return 1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *want = getenv("RDMPI_TRANSPORTS");
    if (!want)
        want = RD_TRANSPORTS_DEFAULT;
    int tested = 0;
    for (int i = 0; rd_transports[i]; i++) {
        char list[256];
        snprintf(list, sizeof(list), ",%s,", want);
        char name[64];
        snprintf(name, sizeof(name), ",%s,", rd_transports[i]->name);
        if (!strstr(list, name))
            continue;
        run(rd_transports[i], 0);
        tested++;
    }
    run(&rd_self_transport, 1);
    CHECK(tested > 0);
    rd_boot_fence();
    if (boot.rank == 0)
        printf(failures ? "tp_conform: %d failure(s) on rank 0\n" : " No Errors\n", failures);
    rd_boot_finalize(&boot);
    return failures ? 1 : 0;
}
