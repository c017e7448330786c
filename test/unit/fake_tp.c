/*
 * The scripted transport of fake_tp.h, and the transport registry and
 * process-manager calls a one-process test job needs. Everything it is
 * asked is checked against the transport contract (transport.h) where the
 * fake can tell: header sizes, payload limits, keys that cover what a
 * get() or put() touches.
 */
#include "fake_tp.h"

#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/group.h"
#include "p2p/p2p.h"
#include "p2p/proto.h"
#include "util/status.h"

/* A message waiting for delivery, a get/put waiting for completion. */
typedef struct inbox_msg {
    int peer;
    unsigned char hdr[128];
    size_t hdrlen, len;
    unsigned char *payload;
} inbox_msg_t;

typedef struct op {
    rd_tp_done_fn done;
    void *ctx;
} op_t;

/* The key mem_reg() hands out: the range it covers. */
typedef struct fake_key {
    uint64_t addr, len;
} fake_key_t;

#define FAKE_MAX 256

static struct {
    const rd_tp_env_t *env;
    int refuse, refused;
    int nsent;
    fake_msg_t sent[FAKE_MAX];
    int ninbox, inbox_next;
    inbox_msg_t inbox[FAKE_MAX];
    int nops;
    op_t ops[FAKE_MAX];
    int fail_peer, fail_status;
    int failed[FAKE_MAX];
    fake_tp_stats_t stats;
    /* the second fake (fake_tp_second) */
    int second;                   /* first peer it carries; 0: not in use */
    int fail_reg2;
    fake_tp_stats_t stats2;
    int nnotes;
    struct {
        int peer;
        uint32_t imm;
    } notes[FAKE_MAX];
} fk;

/* Named like a transport p2p knows, so that RDMPI_TRANSPORTS accepts it. */
static rd_transport_t fake_tp;

static int fake_init(const rd_tp_env_t *env)
{
    fk.env = env;
    return RD_OK;
}

static void fake_finalize(void) {}

static int fake_reachable(int peer)
{
    return peer != fk.env->boot->rank && peer < fk.env->boot->size &&
           (!fk.second || peer < fk.second);
}

static void *dup_bytes(const void *p, size_t len)
{
    if (!len)
        return NULL;
    void *d = malloc(len);
    if (!d)
        abort();
    memcpy(d, p, len);
    return d;
}

static int fake_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    size_t pmax = fake_tp.msg.frag_max > fake_tp.msg.eager_max ? fake_tp.msg.frag_max : fake_tp.msg.eager_max;
    if (hdrlen == 0 || hdrlen > fake_tp.msg.hdr_max || len > pmax || (len && !payload) ||
        fk.nsent == FAKE_MAX)
        abort();   /* p2p broke the contract: no test can go on */
    if (peer < FAKE_MAX && fk.failed[peer])
        return fk.failed[peer];
    if (fk.refuse > 0) {
        fk.refuse--;
        fk.refused++;
        return RD_EAGAIN;
    }
    fake_msg_t *m = &fk.sent[fk.nsent++];
    m->peer = peer;
    memcpy(m->hdr, hdr, hdrlen);
    m->hdrlen = hdrlen;
    m->len = len;
    m->payload = dup_bytes(payload, len);
    return RD_OK;
}

static int fake_progress(void)
{
    int n = 0;
    fk.stats.progress++;
    /* Completions first: a get done before the messages queued after it. */
    int nops = fk.nops;
    op_t ops[FAKE_MAX];
    memcpy(ops, fk.ops, (size_t)nops * sizeof(ops[0]));
    fk.nops = 0;
    for (int i = 0; i < nops; i++, n++)
        ops[i].done(ops[i].ctx, RD_OK);
    /* Only what was queued before this call: an upcall may make the test's
     * script queue more, for the next progress. */
    int nnotes = fk.nnotes;
    fk.nnotes = 0;
    for (int i = 0; i < nnotes; i++, n++)
        fk.env->notified(fk.notes[i].peer, fk.notes[i].imm);
    int end = fk.ninbox;
    while (fk.inbox_next < end) {
        inbox_msg_t *m = &fk.inbox[fk.inbox_next++];
        fk.env->recv(m->peer, m->hdr, m->hdrlen, m->payload, m->len);
        n++;
    }
    if (fk.fail_peer >= 0) {
        int peer = fk.fail_peer;
        fk.fail_peer = -1;
        fk.failed[peer] = fk.fail_status;
        fk.env->peer_failed(peer, fk.fail_status);
        n++;
    }
    return n;
}

static int fake_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem)
{
    fake_key_t k = { (uint64_t)(uintptr_t)buf, len };
    int rc = rd_tp_mem_new(buf, len, &k, sizeof(k), mem);
    if (rc == RD_OK)
        fk.stats.keys++;
    return rc;
}

static void fake_mem_dereg(rd_tp_mem_t *mem)
{
    free(mem);
    fk.stats.releases++;
}

/* [addr, addr + len) lies inside what key covers. */
static int key_covers(const void *key, size_t keylen, uint64_t addr, size_t len)
{
    fake_key_t k;
    if (keylen != sizeof(k))
        return 0;
    memcpy(&k, key, sizeof(k));
    return addr >= k.addr && addr + len <= k.addr + k.len;
}

static int queue_op(rd_tp_done_fn done, void *ctx)
{
    if (fk.nops == FAKE_MAX)
        return RD_ENOMEM;
    fk.ops[fk.nops++] = (op_t){ .done = done, .ctx = ctx };
    return RD_OK;
}

static int fake_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                    const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    (void)peer;
    fk.stats.gets++;
    fk.stats.lmem_keylen = lmem ? lmem->keylen : 0;
    if (!key_covers(key, keylen, remote_addr, len))
        return RD_EINVAL;
    memcpy(local, (const void *)(uintptr_t)remote_addr, len);
    return done ? queue_op(done, ctx) : RD_OK;
}

static int fake_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                    const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    (void)peer;
    fk.stats.puts++;
    fk.stats.lmem_keylen = lmem ? lmem->keylen : 0;
    if (!key_covers(key, keylen, remote_addr, len))
        return RD_EINVAL;
    memcpy((void *)(uintptr_t)remote_addr, local, len);
    return done ? queue_op(done, ctx) : RD_OK;
}

/* Operations complete in order at progress(): a flush queued behind them
 * completes after all of them. */
static int fake_flush(int peer, rd_tp_done_fn done, void *ctx)
{
    (void)peer;
    return queue_op(done, ctx);
}

/* ---- the second fake: same memcpy model, keys of another length ---- */

static rd_transport_t fake_tp2;

typedef struct fake_key2 {
    uint64_t tag, addr, len;
} fake_key2_t;

#define FAKE_KEY2_TAG 0x3266616b65ull   /* "ekaf2" */

static int fake2_init(const rd_tp_env_t *env)
{
    (void)env;
    return RD_OK;
}

static int fake2_reachable(int peer)
{
    return fk.second && peer >= fk.second && peer != fk.env->boot->rank &&
           peer < fk.env->boot->size;
}

static int fake2_progress(void)
{
    return 0;   /* the first fake's progress completes every operation */
}

static int fake2_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem)
{
    if (fk.fail_reg2) {
        int rc = fk.fail_reg2;
        fk.fail_reg2 = 0;
        return rc;
    }
    fake_key2_t k = { FAKE_KEY2_TAG, (uint64_t)(uintptr_t)buf, len };
    int rc = rd_tp_mem_new(buf, len, &k, sizeof(k), mem);
    if (rc == RD_OK)
        fk.stats2.keys++;
    return rc;
}

static void fake2_mem_dereg(rd_tp_mem_t *mem)
{
    free(mem);
    fk.stats2.releases++;
}

static int key2_covers(const void *key, size_t keylen, uint64_t addr, size_t len)
{
    fake_key2_t k;
    if (keylen != sizeof(k))
        return 0;
    memcpy(&k, key, sizeof(k));
    return k.tag == FAKE_KEY2_TAG && addr >= k.addr && addr + len <= k.addr + k.len;
}

static int fake2_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                     const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    (void)peer;
    fk.stats2.gets++;
    fk.stats2.lmem_keylen = lmem ? lmem->keylen : 0;
    if (!key2_covers(key, keylen, remote_addr, len))
        return RD_EINVAL;
    memcpy(local, (const void *)(uintptr_t)remote_addr, len);
    return done ? queue_op(done, ctx) : RD_OK;
}

static int fake2_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                     const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    (void)peer;
    fk.stats2.puts++;
    fk.stats2.lmem_keylen = lmem ? lmem->keylen : 0;
    if (!key2_covers(key, keylen, remote_addr, len))
        return RD_EINVAL;
    memcpy((void *)(uintptr_t)remote_addr, local, len);
    return done ? queue_op(done, ctx) : RD_OK;
}

static int fake2_put_imm(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                         const void *key, size_t keylen, size_t len, uint32_t imm,
                         rd_tp_done_fn done, void *ctx)
{
    (void)imm;
    fk.stats2.put_imms++;
    fk.stats2.puts--;   /* counted as a put_imm only */
    return fake2_put(peer, local, lmem, remote_addr, key, keylen, len, done, ctx);
}

static void fake_tp2_table(unsigned caps, int imm, size_t inline_max)
{
    fake_tp2 = (rd_transport_t){
        .name = "ud",
        .msg = { .hdr_max = RD_HDR_MAX, .eager_max = 64, .frag_max = 0 },
        .rdma = { .ops = caps, .inline_max = (caps & RD_TP_RDMA_PUT) ? inline_max : 0 },
        .fail = { .reports = 1 },
        .init = fake2_init,
        .finalize = fake_finalize,
        .reachable = fake2_reachable,
        .send = fake_send,
        .progress = fake2_progress,
        .mem_reg = caps ? fake2_mem_reg : NULL,
        .mem_dereg = caps ? fake2_mem_dereg : NULL,
        .get = (caps & RD_TP_RDMA_GET) ? fake2_get : NULL,
        .put = (caps & RD_TP_RDMA_PUT) ? fake2_put : NULL,
        .put_imm = (caps & RD_TP_RDMA_PUT) && imm ? fake2_put_imm : NULL,
        .flush = caps ? fake_flush : NULL,
    };
}

void fake_tp_second(int first, unsigned caps2, int imm, size_t inline_max)
{
    fk.second = first;
    fake_tp2_table(caps2, imm, inline_max);
    setenv("RDMPI_TRANSPORTS", "tcp,ud", 1);
}

const fake_tp_stats_t *fake_tp_stats2(void) { return &fk.stats2; }

void fake_tp_fail_reg2(int status) { fk.fail_reg2 = status; }

void fake_tp_notify(int peer, uint32_t imm)
{
    if (fk.nnotes == FAKE_MAX)
        abort();
    fk.notes[fk.nnotes].peer = peer;
    fk.notes[fk.nnotes++].imm = imm;
}

/* The ops table and capabilities: the one place that follows transport.h. */
static void fake_tp_table(unsigned caps, size_t eager_max)
{
    fake_tp = (rd_transport_t){
        .name = "tcp",
        .msg = { .hdr_max = RD_HDR_MAX, .eager_max = eager_max, .frag_max = 0 },
        .rdma = { .ops = caps, .split_min = 0 },
        .fail = { .reports = 1 },
        .init = fake_init,
        .finalize = fake_finalize,
        .reachable = fake_reachable,
        .send = fake_send,
        .progress = fake_progress,
        .mem_reg = caps ? fake_mem_reg : NULL,
        .mem_dereg = caps ? fake_mem_dereg : NULL,
        .get = (caps & RD_TP_RDMA_GET) ? fake_get : NULL,
        .put = (caps & RD_TP_RDMA_PUT) ? fake_put : NULL,
        .flush = caps ? fake_flush : NULL,
    };
}

rd_transport_t *const rd_transports[] = { &fake_tp, &fake_tp2, NULL };

void fake_tp_clear(void)
{
    for (int i = 0; i < fk.nsent; i++)
        free(fk.sent[i].payload);
    for (int i = 0; i < fk.ninbox; i++)
        free(fk.inbox[i].payload);
    memset(&fk, 0, sizeof(fk));
    fk.fail_peer = -1;
}

void fake_tp_reset(unsigned caps, size_t eager_max)
{
    fake_tp_clear();
    fake_tp_table(caps, eager_max);
    fake_tp2_table(0, 0, 0);   /* listed, named, not selected */
    setenv("RDMPI_TRANSPORTS", "tcp", 1);
}

int fake_tp_nsent(void) { return fk.nsent; }

const fake_msg_t *fake_tp_sent(int i)
{
    return i >= 0 && i < fk.nsent ? &fk.sent[i] : NULL;
}

const struct rd_msg_hdr *fake_tp_hdr(int i)
{
    return i >= 0 && i < fk.nsent ? (const rd_msg_hdr_t *)(const void *)fk.sent[i].hdr : NULL;
}

void fake_tp_forget(void)
{
    for (int i = 0; i < fk.nsent; i++)
        free(fk.sent[i].payload);
    fk.nsent = 0;
}

void fake_tp_refuse(int n) { fk.refuse = n; }
int fake_tp_refused(void) { return fk.refused; }

void fake_tp_push(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    if (fk.ninbox == FAKE_MAX || hdrlen > sizeof(fk.inbox[0].hdr))
        abort();
    inbox_msg_t *m = &fk.inbox[fk.ninbox++];
    m->peer = peer;
    memset(m->hdr, 0, sizeof(m->hdr));
    memcpy(m->hdr, hdr, hdrlen);
    m->hdrlen = hdrlen;
    m->len = len;
    m->payload = dup_bytes(payload, len);
}

int fake_tp_pending(void) { return fk.ninbox - fk.inbox_next; }

void fake_tp_fail(int peer, int status)
{
    fk.fail_peer = peer;
    fk.fail_status = status;
}

size_t fake_tp_key(const void *buf, size_t len, void *key)
{
    /* The peer's key: not one p2p registers or must release. */
    fake_key_t k = { (uint64_t)(uintptr_t)buf, len };
    memcpy(key, &k, sizeof(k));
    return sizeof(k);
}

int fake_tp_key_covers(const void *key, size_t keylen, const void *buf, size_t len)
{
    return key_covers(key, keylen, (uint64_t)(uintptr_t)buf, len);
}

const fake_tp_stats_t *fake_tp_stats(void) { return &fk.stats; }

/* The process manager p2p may call (boot.h): one process, nothing to wait for. */
int rd_boot_fence(void) { return RD_OK; }

void rd_boot_abort(int code, const char *msg)
{
    (void)msg;
    exit(code);
}

int fake_tp_up(unsigned caps, size_t eager_max, uint32_t ctx, rd_comm_t **comm)
{
    static int local[1] = { 0 };
    static const rd_boot_info_t boot = { .rank = 0, .size = 3, .local_size = 1,
                                         .local_ranks = local, .universe_size = 3 };
    int world[3] = { 0, 1, 2 };
    *comm = NULL;
    fake_tp_reset(caps, eager_max);
    int rc = rd_p2p_init(&boot);
    if (rc != RD_OK)
        return rc;
    rd_group_t *g = rd_group_new(3, world, 0);
    if (g) {
        *comm = rd_comm_new(g, ctx);
        rd_group_release(g);
    }
    rc = *comm ? rd_p2p_attach(*comm) : RD_ENOMEM;
    if (rc != RD_OK)
        fake_tp_down(comm, NULL);
    return rc;
}

void fake_tp_down(rd_comm_t **comm, void (*fini)(void))
{
    if (*comm)
        rd_comm_release(*comm);
    *comm = NULL;
    if (fini)
        fini();
    rd_p2p_finalize();
    fake_tp_clear();
}
