/*
 * Shared-memory transport: moves messages between ranks of one node through
 * lock-free single-producer/single-consumer rings in one POSIX shm segment
 * per node, and reads large buffers of a peer directly with CMA
 * (process_vm_readv) for p2p's rendezvous. The segment and ring layout is
 * drawn in shm.h.
 *
 * Threading: like the rest of p2p's progress engine, one thread at a time
 * calls into a transport. Progress may not be re-entered from its upcall
 * (transport.h); send and get may.
 */
#include "transport/shm/shm.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "transport/transport.h"
#include "util/copy.h"
#include "transport/shm/shm_seg.h"
#include "transport/shm/shm_tunables.h"
#include "util/errdetail.h"
#include "util/status.h"

/* Records consumed from one ring per progress pass before moving on to the
 * next peer: keeps one busy sender from starving the others. */
#define RD_SHM_RX_BATCH 64

/* Cells whose flags the producer clears ahead of its tail after it published
 * a record, so the clearing store a record needs before its own publication
 * (see shm.h) is usually already done and off the critical path. Refilled
 * in one pass when fewer than two cleared cells are left. */
#define RD_SHM_CLEAR_AHEAD 8

#define RD_SHM_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Sending side of the ring from this rank to one local peer. */
typedef struct rd_shm_tx {
    unsigned char *ring;
    _Atomic uint64_t *head;      /* consumer's released position (shared) */
    uint64_t tail;               /* next byte to write (private) */
    uint64_t head_cache;         /* last head read (private) */
    uint64_t clear_end;          /* cell flags in [tail, clear_end) are 0 */
} rd_shm_tx_t;

/* Receiving side of the ring from one local peer to this rank. */
typedef struct rd_shm_rx {
    unsigned char *ring;
    _Atomic uint64_t *head;
    uint64_t pos;                /* next byte to read (private) */
    uint64_t released;           /* last value stored into *head */
    _Atomic uint32_t *next;      /* flag of the cell at pos: the idle poll's word */
    int rank;                    /* job rank of the sender */
} rd_shm_rx_t;

static struct rd_shm_state {
    rd_tp_recv_fn recv;
    int size;                    /* job size */
    int nlocal, me;              /* local ranks, my local index */
    int *local_of;               /* job rank -> local index, or -1 */
    pid_t *pids;                 /* local index -> pid (0: that rank does not use shm) */
    pid_t mypid;
    unsigned char *seg;
    size_t seg_bytes;
    uint64_t ring_bytes, ring_mask;
    uint64_t release_bytes;      /* consumer publishes head after this much */
    rd_shm_tx_t *tx;             /* by local index; tx[me] unused */
    rd_shm_rx_t *rx;             /* one per local rank using shm but this one */
    int nrx;
    _Atomic uint64_t **sig_out;  /* by local index: my signal counter towards it */
    _Atomic uint64_t **sig_in;   /* by local index: its signal counter towards me */
    uint64_t *sig_sent;          /* by local index: signals raised towards it */
    uint64_t *sig_seen;          /* by local index: its signals consumed */
    unsigned char *areas;        /* area of local index 0; the others follow */
    size_t area_bytes;
    int in_progress;
    int no_leader;               /* local rank 0 does not use shm: no segment here */
    int rdma_error;              /* first failed get/put without done, for flush */
    long long tun_eager, tun_ring, tun_area, tun_cma;   /* tunables, read at init */
} shm;

/* Word a peer reads with process_vm_readv to prove CMA works at init. */
static const volatile uint64_t rd_shm_probe_word = RD_SHM_MAGIC;

/* No remote memory access until the node's CMA vote says so. */
static void rdma_off(void)
{
    rd_shm_transport.rdma.ops = 0;
    rd_shm_transport.node.cpus = 0;
    rd_shm_transport.mem_reg = NULL;
    rd_shm_transport.mem_dereg = NULL;
    rd_shm_transport.get = NULL;
    rd_shm_transport.put = NULL;
    rd_shm_transport.flush = NULL;
}

static int shm_init(const rd_tp_env_t *env);
static void shm_finalize(void);
static int shm_reachable(int peer);
static int shm_refusal(int peer, char *buf, size_t len);
static int shm_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
static int shm_progress(void);
static int shm_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem);
static void shm_mem_dereg(rd_tp_mem_t *mem);
static int shm_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                   const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
static int shm_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                   const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
static int shm_flush(int peer, rd_tp_done_fn done, void *ctx);
static void shm_signal(int peer);
static int shm_signaled(int peer);
static void *shm_area(int rank, size_t *len);
static void shm_wait_mark(int on);
static int shm_waiting(int peer);

/* The ops table; init settles rdma (the CMA vote), eager_max and the
 * node's CPUs. CMA has no remote atomics: the atomics stay NULL. */
rd_transport_t rd_shm_transport = {
    .name = "shm",
    .msg = { .hdr_max = RD_SHM_HDR_MAX, .eager_max = RD_SHM_EAGER_MAX_DEFAULT },
    .rdma = { .ops = 0, .split_min = RD_SHM_SPLIT_MIN },
    .init = shm_init,
    .finalize = shm_finalize,
    .init_fences = 3,
    .reachable = shm_reachable,
    .refusal = shm_refusal,
    .send = shm_send,
    .progress = shm_progress,
    .signal = shm_signal,
    .signaled = shm_signaled,
    .area = shm_area,
    .wait_mark = shm_wait_mark,
    .waiting = shm_waiting,
};


static uint64_t pow2_ceil(uint64_t v)
{
    uint64_t p = RD_SHM_PAGE;
    while (p < v)
        p <<= 1;
    return p;
}

/* The node-wide parameters local rank 0 decides from its environment. */
static void choose_params(rd_shm_seg_hdr_t *h, int n)
{
    long long eager = shm.tun_eager, ring = shm.tun_ring, area = shm.tun_area;
    /* Room for a wrap filler, two largest records and the spare cell. */
    uint64_t need = 4 * rd_shm_rec_size(RD_SHM_HDR_MAX, (size_t)eager);
    if ((uint64_t)ring < need)
        ring = (long long)need;
    size_t nrings = (size_t)n * (size_t)(n - 1);
    h->magic = RD_SHM_MAGIC;
    h->version = RD_SHM_VERSION;
    h->nlocal = (uint32_t)n;
    h->ring_bytes = pow2_ceil((uint64_t)ring);
    h->eager_max = (uint64_t)eager;
    h->ctl_off = RD_SHM_PAGE + (uint64_t)n * sizeof(rd_shm_slot_t);
    h->sig_off = h->ctl_off + nrings * sizeof(rd_shm_ctl_t);
    h->area_off = (h->sig_off + nrings * sizeof(rd_shm_sig_t) + RD_SHM_PAGE - 1) &
                  ~(uint64_t)(RD_SHM_PAGE - 1);
    h->area_bytes = ((uint64_t)area + RD_SHM_PAGE - 1) & ~(uint64_t)(RD_SHM_PAGE - 1);
    h->ring_off = h->area_off + (uint64_t)n * h->area_bytes;
    h->seg_bytes = h->ring_off + nrings * h->ring_bytes;
    atomic_init(&h->cma_ok, 1);
}

static rd_shm_slot_t *slot_of(int li)
{
    return (rd_shm_slot_t *)(shm.seg + RD_SHM_PAGE) + li;
}

static void publish_slot(const rd_boot_info_t *boot)
{
    rd_shm_slot_t *s = slot_of(shm.me);
    s->pid = (int32_t)shm.mypid;
    s->rank = boot->rank;
    s->probe_addr = (uint64_t)(uintptr_t)&rd_shm_probe_word;
    cpu_set_t set;
    _Static_assert(sizeof(set) * 8 >= RD_SHM_CPUS, "cpu_set_t holds a slot's mask");
    memset(s->cpus, 0, sizeof(s->cpus));
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;   /* unknown: left empty */
    for (int cpu = 0; cpu < RD_SHM_CPUS; cpu++)
        if (CPU_ISSET(cpu, &set))
            s->cpus[cpu / 64] |= 1ull << (cpu % 64);
}

/* CPUs in the union of the local ranks' masks, once every slot is filled;
 * 0 if some rank's mask is unknown. */
static int node_cpus(void)
{
    uint64_t all[RD_SHM_CPUS / 64] = { 0 };
    for (int li = 0; li < shm.nlocal; li++) {
        const rd_shm_slot_t *s = slot_of(li);
        uint64_t any = 0;
        if (!s->pid)
            continue;   /* that rank does not use shm */
        for (size_t w = 0; w < RD_SHM_CPUS / 64; w++) {
            all[w] |= s->cpus[w];
            any |= s->cpus[w];
        }
        if (!any)
            return 0;
    }
    int n = 0;
    for (size_t w = 0; w < RD_SHM_CPUS / 64; w++)
        n += __builtin_popcountll(all[w]);
    return n;
}

/* Local rank 0: creates the segment under a fresh random name (written to
 * name, len bytes; shm_seg.h), initializes its header and publishes the
 * name for the other local ranks. */
static int create_segment(char *name, size_t len, int n, const rd_boot_info_t *boot)
{
    rd_shm_seg_hdr_t h;
    memset(&h, 0, sizeof(h));
    choose_params(&h, n);
    void *p;
    int rc = rd_shm_seg_create(name, len, h.seg_bytes, n, boot, &p);
    if (rc != RD_OK)
        return rc;
    shm.seg = p;
    shm.seg_bytes = h.seg_bytes;
    memcpy(shm.seg, &h, sizeof(h));   /* ftruncate zeroed the rest: rings empty */
    publish_slot(boot);
    return rd_shm_seg_publish(name);   /* on failure shm_finalize unmaps, shm_init unlinks */
}

/* Other local ranks: maps the segment local rank 0 created, by the name it
 * published (written to name, len bytes), and checks its header. RD_EAGAIN
 * when there is none because local rank 0 does not use shm (it is not in
 * its RDMPI_TRANSPORTS): shm then reaches no one here. */
static int attach_segment(char *name, size_t len, int n, const rd_boot_info_t *boot)
{
    void *p;
    size_t bytes;
    int rc = rd_shm_seg_attach(name, len, boot, &p, &bytes);
    if (rc != RD_OK)
        return rc;
    shm.seg = p;
    shm.seg_bytes = bytes;
    const rd_shm_seg_hdr_t *h = p;
    if (h->magic != RD_SHM_MAGIC || h->version != RD_SHM_VERSION ||
        h->nlocal != (uint32_t)n || h->seg_bytes != shm.seg_bytes) {
        rd_err_detail("shm: segment %s does not match this rank (version %u, %u local ranks; "
                      "expected version %u, %d)", name, (unsigned)h->version,
                      (unsigned)h->nlocal, (unsigned)RD_SHM_VERSION, n);
        return RD_EINTERN;
    }
    publish_slot(boot);
    return RD_OK;
}

/* Votes against CMA unless this rank can read every local peer's probe word. */
static void probe_cma(rd_shm_seg_hdr_t *h)
{
    if (!shm.tun_cma) {
        atomic_store(&h->cma_ok, 0);
        return;
    }
    for (int li = 0; li < shm.nlocal; li++) {
        const rd_shm_slot_t *s = slot_of(li);
        if (li == shm.me || !s->pid)
            continue;
        uint64_t word = 0;
        struct iovec l = { &word, sizeof(word) };
        struct iovec r = { (void *)(uintptr_t)s->probe_addr, sizeof(word) };
        if (process_vm_readv(s->pid, &l, 1, &r, 1, 0) != (ssize_t)sizeof(word) ||
            word != RD_SHM_MAGIC) {
            atomic_store(&h->cma_ok, 0);
            return;
        }
    }
}

/* Private ring views once the segment is mapped and every slot is filled. */
static int setup_rings(void)
{
    const rd_shm_seg_hdr_t *h = (const rd_shm_seg_hdr_t *)shm.seg;
    int n = shm.nlocal;
    shm.ring_bytes = h->ring_bytes;
    shm.ring_mask = h->ring_bytes - 1;
    shm.release_bytes = h->ring_bytes / 16;
    shm.tx = calloc((size_t)n, sizeof(*shm.tx));
    shm.rx = calloc((size_t)n - 1, sizeof(*shm.rx));
    shm.pids = calloc((size_t)n, sizeof(*shm.pids));
    shm.sig_out = calloc((size_t)n, sizeof(*shm.sig_out));
    shm.sig_in = calloc((size_t)n, sizeof(*shm.sig_in));
    shm.sig_sent = calloc((size_t)n, sizeof(*shm.sig_sent));
    shm.sig_seen = calloc((size_t)n, sizeof(*shm.sig_seen));
    if (!shm.tx || !shm.rx || !shm.pids || !shm.sig_out || !shm.sig_in || !shm.sig_sent ||
        !shm.sig_seen)
        return RD_ENOMEM;
    rd_shm_ctl_t *ctl = (rd_shm_ctl_t *)(shm.seg + h->ctl_off);
    rd_shm_sig_t *sig = (rd_shm_sig_t *)(shm.seg + h->sig_off);
    unsigned char *rings = shm.seg + h->ring_off;
    shm.areas = shm.seg + h->area_off;
    shm.area_bytes = h->area_bytes;
    int k = 0;
    for (int li = 0; li < n; li++) {
        shm.pids[li] = slot_of(li)->pid;
        if (li == shm.me || !shm.pids[li])
            continue;
        size_t out = rd_shm_ring_index(n, shm.me, li);
        size_t in = rd_shm_ring_index(n, li, shm.me);
        shm.tx[li].ring = rings + out * h->ring_bytes;
        shm.tx[li].head = &ctl[out].head;
        shm.sig_out[li] = &sig[out].count;
        shm.sig_in[li] = &sig[in].count;
        shm.rx[k].ring = rings + in * h->ring_bytes;
        shm.rx[k].head = &ctl[in].head;
        shm.rx[k].next = &((rd_shm_rec_t *)shm.rx[k].ring)->flag;
        shm.rx[k].rank = slot_of(li)->rank;
        k++;
    }
    shm.nrx = k;
    return RD_OK;
}

/*
 * Collective over all ranks of the job. Every rank calls rd_boot_fence three
 * times whatever its node looks like (ranks alone on their node make no
 * segment; a rank without shm in RDMPI_TRANSPORTS fences in p2p), and keeps
 * fencing after a local error so no rank is left waiting; the error is
 * returned at the end.
 *   1. local rank 0 creates the segment            | fence
 *   2. the others map it; all publish pid + probe  | fence
 *   3. local rank 0 unlinks; all vote on CMA       | fence
 *   4. all read the vote: the node agrees on caps.
 * Another local rank that does not use shm leaves its slot empty (pid 0):
 * the others neither probe it nor reach it. When local rank 0 does not use
 * shm, nobody makes the segment and shm reaches no one on this node.
 */
static int shm_init(const rd_tp_env_t *env)
{
    const rd_boot_info_t *boot = env->boot;
    char name[96];
    int err = RD_OK, rc;

    memset(&shm, 0, sizeof(shm));
    shm.recv = env->recv;
    shm.size = boot->size;
    shm.nlocal = boot->local_size;
    shm.me = boot->local_rank;
    shm.mypid = getpid();
    rdma_off();
    /* Every rank reads them, so a bad value fails on every rank alike. */
    const rd_tunable_t *t = rd_shm_tunables;
    if ((err = rd_tunable_int(&t[RD_SHM_T_EAGER_MAX], &shm.tun_eager)) == RD_OK &&
        (err = rd_tunable_int(&t[RD_SHM_T_RING_BYTES], &shm.tun_ring)) == RD_OK &&
        (err = rd_tunable_int(&t[RD_SHM_T_AREA_BYTES], &shm.tun_area)) == RD_OK)
        err = rd_tunable_int(&t[RD_SHM_T_CMA], &shm.tun_cma);
    rd_shm_transport.msg.eager_max = (size_t)shm.tun_eager;

    if (!err && !(shm.local_of = malloc((size_t)shm.size * sizeof(*shm.local_of))))
        err = RD_ENOMEM;
    if (!err) {
        for (int r = 0; r < shm.size; r++)
            shm.local_of[r] = -1;
        for (int li = 0; li < shm.nlocal; li++)
            shm.local_of[boot->local_ranks[li]] = li;
    }
    int active = shm.nlocal > 1;
    name[0] = 0;
    /* The name carries the node id besides its random part: hosts that share
     * /dev/shm (network namespaces on one machine) must not meet in one
     * segment. */
    if (active && !err && shm.me == 0 &&
        (err = create_segment(name, sizeof(name), shm.nlocal, boot)) != RD_OK)
        rd_shm_seg_publish_failure(err);
    atomic_thread_fence(memory_order_seq_cst);
    if ((rc = rd_boot_fence()) != RD_OK && !err)
        err = rc;

    if (active && !err && shm.me != 0 && (err = attach_segment(name, sizeof(name), shm.nlocal,
                                               boot)) == RD_EAGAIN) {
        shm.no_leader = 1;
        active = 0;
        err = RD_OK;
    }
    atomic_thread_fence(memory_order_seq_cst);
    if ((rc = rd_boot_fence()) != RD_OK && !err)
        err = rc;

    if (active && shm.me == 0 && name[0])
        shm_unlink(name);   /* mapped everywhere (or failed): nothing stays in /dev/shm */
    if (active && !err)
        probe_cma((rd_shm_seg_hdr_t *)shm.seg);
    atomic_thread_fence(memory_order_seq_cst);
    if ((rc = rd_boot_fence()) != RD_OK && !err)
        err = rc;

    if (active && !err) {
        const rd_shm_seg_hdr_t *h = (const rd_shm_seg_hdr_t *)shm.seg;
        rd_shm_transport.msg.eager_max = h->eager_max;
        /* Bulk messages (rendezvous DATA, one-sided data) take records of
         * up to an eighth of the ring (four fit with room to spare, as
         * choose_params wants for the largest): per byte, a record's
         * bookkeeping then weighs little against its two copies. */
        size_t bulk = (size_t)(h->ring_bytes / 8);
        rd_shm_transport.msg.frag_max = bulk > h->eager_max ? bulk : 0;
        rd_shm_transport.node.cpus = node_cpus();
        if (atomic_load(&h->cma_ok)) {
            /* The probe read a peer; writes need the same permission. */
            rd_shm_transport.rdma.ops = RD_TP_RDMA_GET | RD_TP_RDMA_PUT;
            rd_shm_transport.mem_reg = shm_mem_reg;
            rd_shm_transport.mem_dereg = shm_mem_dereg;
            rd_shm_transport.get = shm_get;
            rd_shm_transport.put = shm_put;
            rd_shm_transport.flush = shm_flush;
        }
        err = setup_rings();
    }
    if (err)
        shm_finalize();
    return err;
}

static void shm_finalize(void)
{
    if (shm.seg)
        munmap(shm.seg, shm.seg_bytes);
    free(shm.local_of);
    free(shm.pids);
    free(shm.tx);
    free(shm.rx);
    free(shm.sig_out);
    free(shm.sig_in);
    free(shm.sig_sent);
    free(shm.sig_seen);
    memset(&shm, 0, sizeof(shm));
    rdma_off();
}

static int shm_reachable(int peer)
{
    return shm.seg && peer >= 0 && peer < shm.size && shm.local_of[peer] >= 0 &&
           shm.pids[shm.local_of[peer]] != 0;
}

static int shm_refusal(int peer, char *buf, size_t len)
{
    if (!shm.local_of || peer < 0 || peer >= shm.size || shm.local_of[peer] < 0) {
        snprintf(buf, len, "rank %d is on another node", peer);
        return RD_TP_REFUSED;
    }
    if (shm.no_leader) {
        int leader = -1;
        for (int r = 0; r < shm.size && leader < 0; r++)
            leader = shm.local_of[r] == 0 ? r : -1;
        snprintf(buf, len, "local rank 0 (rank %d), which makes the node's segment, does "
                 "not use shm", leader);
        return RD_TP_REFUSED;
    }
    snprintf(buf, len, "rank %d does not use shm", peer);
    return RD_TP_ABSENT;
}

/* Signals (shm.h): one counter line per ordered pair; only p2p's barrier
 * uses them, for peers it reaches through this transport. */
static void shm_signal(int peer)
{
    int li = shm.local_of[peer];
    atomic_store_explicit(shm.sig_out[li], ++shm.sig_sent[li], memory_order_release);
}

/* Areas (shm.h): rank may be this process. */
static void *shm_area(int rank, size_t *len)
{
    if (!shm.seg || rank < 0 || rank >= shm.size || shm.local_of[rank] < 0 || !shm.area_bytes)
        return NULL;
    *len = shm.area_bytes;
    return shm.areas + (size_t)shm.local_of[rank] * shm.area_bytes;
}

static int shm_signaled(int peer)
{
    int li = shm.local_of[peer];
    if (atomic_load_explicit(shm.sig_in[li], memory_order_acquire) == shm.sig_seen[li])
        return 0;
    shm.sig_seen[li]++;
    return 1;
}

/* Wait marks (shm.h): relaxed, a hint beside the rings, which carry the
 * data and its order. */
static void shm_wait_mark(int on)
{
    if (shm.seg)
        atomic_store_explicit(&slot_of(shm.me)->waiting, (uint32_t)on, memory_order_relaxed);
}

static int shm_waiting(int peer)
{
    if (!shm.seg || peer < 0 || peer >= shm.size || shm.local_of[peer] < 0)
        return 0;
    return atomic_load_explicit(&slot_of(shm.local_of[peer])->waiting,
                                memory_order_relaxed) != 0;
}

static inline _Atomic uint32_t *flag_at(const rd_shm_tx_t *tx, uint64_t pos)
{
    return &((rd_shm_rec_t *)(tx->ring + (pos & shm.ring_mask)))->flag;
}

/* After a publication, when fewer than two cleared cells are left past the
 * tail: clears the flags of the next RD_SHM_CLEAR_AHEAD cells (within the
 * space the consumer released) while nobody waits on this rank, so that the
 * next sends find their successor's flag already 0. Batched: one pass every
 * few small sends rather than a store and a loop per send. */
static void clear_ahead(rd_shm_tx_t *tx)
{
    uint64_t limit = tx->head_cache + shm.ring_bytes;
    uint64_t want = tx->tail + RD_SHM_CLEAR_AHEAD * RD_SHM_CELL;
    if (want > limit)
        want = limit;
    for (uint64_t p = tx->clear_end; p < want; p += RD_SHM_CELL)
        atomic_store_explicit(flag_at(tx, p), 0, memory_order_relaxed);
    if (want > tx->clear_end)
        tx->clear_end = want;
}

/* Copies n bytes into the ring. Headers and small payloads (the latency
 * case) take a few word moves instead of a libc call; the overlapping
 * unaligned moves copy exactly n bytes. Bigger ones as util/copy.h says:
 * the receiver's core reads them next. */
static inline void copy_in(unsigned char *dst, const unsigned char *src, size_t n)
{
    uint64_t a, b, c, d;
    if (n > 32) {
        rd_copy_shared(dst, src, n);
    } else if (n > 16) {
        memcpy(&a, src, 8);
        memcpy(&b, src + 8, 8);
        memcpy(&c, src + n - 16, 8);
        memcpy(&d, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + 8, &b, 8);
        memcpy(dst + n - 16, &c, 8);
        memcpy(dst + n - 8, &d, 8);
    } else if (n >= 8) {
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, src, 4);
        memcpy(&y, src + n - 4, 4);
        memcpy(dst, &x, 4);
        memcpy(dst + n - 4, &y, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            dst[i] = src[i];
    }
}

static int shm_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    /* shm.size is 0 before init, so an uninitialized transport fails here. */
    if (RD_SHM_UNLIKELY((unsigned)peer >= (unsigned)shm.size || hdrlen > RD_SHM_HDR_MAX ||
                        (len > rd_shm_transport.msg.eager_max &&
                         len > rd_shm_transport.msg.frag_max)))
        return RD_EINVAL;
    int li = shm.local_of[peer];
    if (RD_SHM_UNLIKELY(li < 0 || li == shm.me || !shm.seg))
        return RD_EINVAL;

    rd_shm_tx_t *tx = &shm.tx[li];
    const uint64_t ring_bytes = shm.ring_bytes;
    size_t rec = rd_shm_rec_size(hdrlen, len);
    uint64_t tail = tx->tail;
    uint64_t off = tail & shm.ring_mask;
    uint64_t skip = off + rec > ring_bytes ? ring_bytes - off : 0;
    uint64_t need = skip + rec + RD_SHM_CELL;   /* + the successor's flag cell */

    if (RD_SHM_UNLIKELY(tail + need - tx->head_cache > ring_bytes)) {
        tx->head_cache = atomic_load_explicit(tx->head, memory_order_acquire);
        if (tail + need - tx->head_cache > ring_bytes)
            return RD_EAGAIN;
    }

    unsigned char *ring = tx->ring;
    uint64_t end = tail + skip + rec;
    /* The successor's flag must read 0 before a record is published; the
     * cells in [tail, clear_end) are known to be 0. */
    if (RD_SHM_UNLIKELY(end >= tx->clear_end)) {
        if (skip && tail + skip >= tx->clear_end)   /* the WRAP filler's successor */
            atomic_store_explicit(flag_at(tx, tail + skip), 0, memory_order_relaxed);
        atomic_store_explicit(flag_at(tx, end), 0, memory_order_relaxed);
        tx->clear_end = end + RD_SHM_CELL;
    }
    if (RD_SHM_UNLIKELY(skip)) {
        rd_shm_rec_t *w = (rd_shm_rec_t *)(ring + off);
        atomic_store_explicit(&w->flag, rd_shm_flag(RD_SHM_REC_WRAP, 0), memory_order_release);
        off = 0;
    }

    rd_shm_rec_t *r = (rd_shm_rec_t *)(ring + off);
    r->len = (uint32_t)len;
    copy_in(r->data, hdr, hdrlen);
    copy_in(r->data + rd_shm_payload_off(hdrlen), payload, len);
    atomic_store_explicit(&r->flag, rd_shm_flag(RD_SHM_REC_MSG, hdrlen), memory_order_release);
    tx->tail = end;
    if (tx->clear_end - end < 2 * RD_SHM_CELL)
        clear_ahead(tx);
    return RD_OK;
}

/* Consumes what the rings hold (shm_progress saw a record). Out of line so
 * that the idle poll is a few loads without a stack frame. */
static int __attribute__((noinline)) shm_drain(void)
{
    if (RD_SHM_UNLIKELY(shm.in_progress))
        return RD_EINTERN;   /* called from the upcall: forbidden by transport.h */
    shm.in_progress = 1;
    const uint64_t mask = shm.ring_mask;
    int events = 0, status = RD_OK;
    for (int i = 0; i < shm.nrx; i++) {
        rd_shm_rx_t *rx = &shm.rx[i];
        /* The record stays valid during the upcall: head is published only
         * after it returns, so the producer cannot overwrite it. */
        uint64_t pos = rx->pos;
        for (int k = 0; k < RD_SHM_RX_BATCH; k++) {
            rd_shm_rec_t *r = (rd_shm_rec_t *)(rx->ring + (pos & mask));
            uint32_t flag = atomic_load_explicit(&r->flag, memory_order_acquire);
            unsigned kind = rd_shm_flag_kind(flag);
            if (kind == RD_SHM_REC_EMPTY)
                break;
            if (kind == RD_SHM_REC_WRAP) {
                pos += shm.ring_bytes - (pos & mask);
                continue;
            }
            if (RD_SHM_UNLIKELY(kind != RD_SHM_REC_MSG)) {
                status = RD_EINTERN;
                break;
            }
            size_t hdrlen = rd_shm_flag_hdrlen(flag);
            size_t len = r->len;
            shm.recv(rx->rank, r->data, hdrlen, r->data + rd_shm_payload_off(hdrlen), len);
            pos += rd_shm_rec_size(hdrlen, len);
            events++;
            if (pos - rx->released >= shm.release_bytes) {
                /* Large records: give the space back now so the producer can
                 * refill while we copy the next ones. */
                rx->released = pos;
                atomic_store_explicit(rx->head, pos, memory_order_release);
            }
        }
        rx->pos = pos;
        rx->next = &((rd_shm_rec_t *)(rx->ring + (pos & mask)))->flag;
        if (pos != rx->released) {
            rx->released = pos;
            atomic_store_explicit(rx->head, pos, memory_order_release);
        }
    }
    shm.in_progress = 0;
    return status != RD_OK ? status : events;
}

/* The idle poll reads one word per peer: the flag of the cell where that
 * peer's next record will start, one cache line that moves only when the
 * peer writes a record into it. */
static int shm_progress(void)
{
    const rd_shm_rx_t *rx = shm.rx, *end = rx + shm.nrx;
    for (; rx < end; rx++)
        if (atomic_load_explicit(rx->next, memory_order_relaxed) != 0)
            return shm_drain();
    return 0;
}

/* A CMA key is this process's pid and the range: a peer needs nothing else
 * to process_vm_readv/writev it, so registering costs one small record. */
static int shm_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem)
{
    rd_shm_key_t k = {
        .pid = (int32_t)shm.mypid,
        .reserved = 0,
        .addr = (uint64_t)(uintptr_t)buf,
        .len = (uint64_t)len,
    };
    _Static_assert(sizeof(k) <= RD_TP_KEY_MAX, "a CMA key fits a transport key");
    if (len == 0)
        return RD_EINVAL;
    return rd_tp_mem_new(buf, len, &k, sizeof(k), mem);
}

static void shm_mem_dereg(rd_tp_mem_t *mem)
{
    free(mem);
}

/* One CMA transfer between local memory and a peer's keyed memory: a read
 * (get) or a write (put). Argument errors are returned (done is not called);
 * transfer errors are reported through done, which is always called before
 * this returns. */
static int cma_copy(int peer, void *local, uint64_t remote_addr, const void *key, size_t keylen,
                    size_t len, int write, rd_tp_done_fn done, void *ctx)
{
    rd_shm_key_t k;
    if (!shm_reachable(peer) || keylen != sizeof(k))
        return RD_EINVAL;
    memcpy(&k, key, sizeof(k));
    if (k.pid != (int32_t)shm.pids[shm.local_of[peer]] || remote_addr < k.addr ||
        len > k.len || remote_addr - k.addr > k.len - len)
        return RD_EINVAL;

    int status = RD_OK, err = 0;
    size_t got = 0;
    while (got < len) {
        struct iovec l = { (char *)local + got, len - got };
        struct iovec r = { (void *)(uintptr_t)(remote_addr + got), len - got };
        ssize_t n = write ? process_vm_writev(k.pid, &l, 1, &r, 1, 0)
                          : process_vm_readv(k.pid, &l, 1, &r, 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err = n < 0 ? errno : EFAULT;
            status = err == ESRCH ? RD_EPEER : RD_ESYS;
            if (status == RD_ESYS)
                rd_err_detail_sys(err, "shm: %s of %zu bytes %s rank %d",
                                  write ? "process_vm_writev" : "process_vm_readv", len - got,
                                  write ? "to" : "from", peer);
            break;
        }
        got += (size_t)n;
    }
    /* RD_ESYS: errno tells done why (EPERM: the kernel refuses access to
     * the peer's memory, which a caller with another way may take). */
    if (status == RD_ESYS)
        errno = err;
    if (done)
        done(ctx, status);
    else if (status != RD_OK && shm.rdma_error == RD_OK)
        shm.rdma_error = status;
    return RD_OK;
}

/* The local side needs no registration: CMA reads and writes this
 * process's memory by address, so lmem is not needed. */
static int shm_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                   const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    (void)lmem;
    return cma_copy(peer, local, remote_addr, key, keylen, len, 0, done, ctx);
}

static int shm_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                   const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx)
{
    (void)lmem;
    return cma_copy(peer, (void *)local, remote_addr, key, keylen, len, 1, done, ctx);
}

/* Every CMA transfer is over when get or put returns: nothing to wait for,
 * but an error of a transfer without done is reported here once. */
static int shm_flush(int peer, rd_tp_done_fn done, void *ctx)
{
    if (peer != -1 && !shm_reachable(peer))
        return RD_EINVAL;
    int status = shm.rdma_error;
    shm.rdma_error = RD_OK;
    done(ctx, status);
    return RD_OK;
}
