/*
 * Windows (rma.h, creation and memory): the table of windows by id, the
 * local part of creation (memory, registration, the descriptor a rank
 * publishes), connecting to the peers once every descriptor is here
 * (mapping node peers' segments, choosing each target's path), freeing,
 * Win_shared_query and Alloc_mem / Free_mem.
 *
 * Memory: an ALLOCATE window with node peers lives in a segment of its own
 * ([control block][window memory]), so that node peers map it (when
 * /dev/shm has no room for it, in private memory like a Win_create
 * window's). A SHARED window lives in one segment created by rank 0
 * ([control blocks of every rank][everyone's memory, contiguous]) or, with
 * alloc_shared_noncontig, in one segment per rank. Win_create and dynamic
 * windows with node peers get a segment holding only the control block
 * (the lock word). Without node peers nothing is shared: heap memory.
 */
#include "rma/rma_win.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rma/rma_dev.h"
#include "rma/rma_lock.h"
#include "rma/rma_sync.h"
#include "util/errdetail.h"
#include "util/status.h"

/* The descriptor each rank publishes (version 1), at most RD_RMA_DESC_MAX
 * bytes; it travels between processes of one job only (one architecture):
 *
 *   0       1       2       3       4               8              12    14    16
 *  +-------+-------+-------+-------+---------------+---------------+-----+-----+
 *  |version|failed |flavor |segkind|   disp_unit   |    status     |keyln|flags|
 *  +-------+-------+-------+-------+---------------+---------------+-----+-----+
 *  16              24              32              40              48
 *  +---------------+---------------+---------------+---------------+
 *  |     base      |     size      |    seglen     |    dataoff    |
 *  +---------------+---------------+---------------+---------------+
 *  48                              112                             240
 *  +-------------------------------+-------------------------------+
 *  | segment name (64, NUL-ended)  | keys (RD_P2P_KEYS_MAX = 128)  |
 *  +-------------------------------+-------------------------------+
 *
 * failed: this rank's creation failed with status (the others return it).
 * segkind: SEG_DATA (segment = control block, then memory at dataoff),
 * SEG_CTL (control block only), SEG_SHARED (rank 0's segment holds every
 * rank's control block and memory), SEG_NONE. keys: rd_p2p_mem_keys of the
 * window memory, keylen bytes. flags: DESC_F_DEV_ATOMICS when this rank can
 * keep the window in device-atomics mode (rd_rma_dev_local); the window
 * takes the mode when every rank sets it. Such a rank has no node peers,
 * hence no segment: the segment name's bytes carry its lock word's address
 * and key instead (rd_rma_dev_local's desc). */
enum { SEG_NONE = 0, SEG_DATA = 1, SEG_CTL = 2, SEG_SHARED = 3 };
enum { DESC_F_DEV_ATOMICS = 1 };

typedef struct __attribute__((packed)) rma_desc {
    uint8_t version, failed, flavor, segkind;
    int32_t disp_unit;
    int32_t status;
    uint16_t keylen;
    uint16_t flags;
    uint64_t base, size, seglen, dataoff;
    char segname[RD_RMA_SEG_NAME_MAX];
    uint8_t keys[RD_P2P_KEYS_MAX];
} rma_desc_t;
_Static_assert(sizeof(rma_desc_t) <= RD_RMA_DESC_MAX, "window descriptor too large");

#define DESC_VERSION 1

/* ---- the window table ---- */

static rd_win_t **table;
static int ntable, captable;

static struct {
    unsigned long windows, shm, rdma, am, segments;
} stats;

rd_win_t *rd_rma_win_lookup(uint32_t id)
{
    for (int i = 0; i < ntable; i++)
        if (table[i]->rma->id == id)
            return table[i];
    return NULL;
}

static int table_add(rd_win_t *w)
{
    if (ntable == captable) {
        int cap = captable ? captable * 2 : 16;
        rd_win_t **t = realloc(table, (size_t)cap * sizeof(*t));
        if (!t)
            return RD_ENOMEM;
        table = t;
        captable = cap;
    }
    table[ntable++] = w;
    return RD_OK;
}

static void table_remove(rd_win_t *w)
{
    for (int i = 0; i < ntable; i++)
        if (table[i] == w) {
            table[i] = table[--ntable];
            return;
        }
}

/* A message's sender is a job rank: binary search in byworld, made once
 * the window is connected. */
int rd_rma_rank_of(rd_win_t *w, int world)
{
    const uint64_t *v = w->rma->sync->byworld;
    if (!v)
        return rd_group_rank_of(w->comm->group, world);
    int lo = 0, hi = w->rma->nranks;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int mw = (int)(v[mid] >> 32);
        if (mw == world)
            return (int)(uint32_t)v[mid];
        if (mw < world)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

rd_rma_ring_t *rd_rma_notify_ring(rd_win_t *w, int target)
{
    rd_rma_ctl_t *c = w->rma->sync->pctl[target];
    if (w->flavor == RD_WIN_DYNAMIC || w->rma->peers[target].path != RD_RMA_PATH_SHM || !c)
        return NULL;
    return &c->ring;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void index_senders(rd_win_t *w)
{
    int n = w->rma->nranks;
    uint64_t *v = malloc((size_t)n * sizeof(*v));
    if (!v)
        return;  /* rd_rma_rank_of scans the group instead */
    for (int r = 0; r < n; r++)
        v[r] = (uint64_t)(uint32_t)w->rma->peers[r].world << 32 | (uint32_t)r;
    qsort(v, (size_t)n, sizeof(*v), cmp_u64);
    w->rma->sync->byworld = v;
}

/* ---- init ---- */

int rd_rma_init(const rd_boot_info_t *boot)
{
    rd_rma_seg_init(boot->job_id);
    memset(&stats, 0, sizeof(stats));
    int rc = rd_rma_sync_init();
    if (rc == RD_OK)
        rc = rd_rma_lock_init();
    if (rc == RD_OK)
        rc = rd_rma_ops_init();
    return rc;
}

void rd_rma_finalize(void)
{
    rd_rma_ops_finalize();
    free(table);
    table = NULL;
    ntable = captable = 0;
}

void rd_rma_report(char *buf, size_t len)
{
    unsigned long atomic, am, ring, imm, msg, full, cma_gets, waiting, refused, dwin, dfadd,
        dcswap, dlock;
    rd_rma_lock_counts(&atomic, &am);
    rd_rma_dev_counts(&dwin, &dfadd, &dcswap, &dlock);
    rd_rma_notify_counts(&ring, &imm, &msg, &full);
    rd_rma_cma_counts(&cma_gets, &waiting, &refused);
    snprintf(buf, len, "rdmpi: rank %d: rma: %lu windows, %lu node segments; targets by path: "
             "shm %lu, rdma %lu, am %lu; locks taken by atomics %lu, by messages %lu; "
             "notified puts by ring %lu (ring full %lu), by immediate %lu, by message %lu; "
             "gets from node peers by CMA %lu, by rings to a waiting target %lu, "
             "CMA refused %lu; "
             "device atomics: windows %lu, fetch-add %lu, compare-and-swap %lu, on lock "
             "words %lu",
             rd_p2p_world_rank(), stats.windows, stats.segments, stats.shm, stats.rdma, stats.am,
             atomic, am, ring, full, imm, msg, cma_gets, waiting, refused, dwin, dfadd, dcswap,
             dlock);
}

/* ---- creation ---- */

static size_t ctl_area(int n)
{
    return ((size_t)n * RD_RMA_CTL_SIZE + 4095) / 4096 * 4096;
}

/* Creates this rank's segment of len bytes and remembers its random name
 * (which the descriptor carries to the node peers) until rd_rma_win_ready
 * unlinks it. */
static int own_segment(rd_win_t *w, size_t len, void **addr)
{
    struct rd_rma_sync *s = w->rma->sync;
    int rc = rd_rma_seg_create(s->segname, len, addr);
    if (rc != RD_OK)
        return rc;
    s->linked = 1;
    w->rma->seg = *addr;
    w->rma->seglen = len;
    stats.segments++;
    return RD_OK;
}

/* Memory and control block of this rank; fills the segment part of d. */
static int make_memory(rd_win_t *w, const size_t *sizes, rma_desc_t *d)
{
    struct rd_rma_sync *s = w->rma->sync;
    void *seg;
    int rc;
    s->ctl = &s->heap_ctl;
    switch (w->flavor) {
    case RD_WIN_ALLOCATE:
        if (!s->node_peers) {
            if (w->size && posix_memalign(&s->heap, 64, w->size) != 0) {
                rd_err_detail("out of memory for a window of %zu bytes", w->size);
                return RD_ENOMEM;
            }
            if (w->size)
                memset(s->heap, 0, w->size);
            w->base = s->heap;
            return RD_OK;
        }
        if ((rc = own_segment(w, RD_RMA_CTL_SIZE + w->size, &seg)) == RD_OK) {
            s->ctl = seg;
            w->base = (char *)seg + RD_RMA_CTL_SIZE;
            d->segkind = SEG_DATA;
            d->dataoff = RD_RMA_CTL_SIZE;
            break;
        }
        if (rc != RD_ENOMEM)
            return rc;
        /* No room in /dev/shm: private memory that node peers reach
         * like a Win_create window's; only the control block is shared. */
        rd_err_detail_clear();
        if (posix_memalign(&s->heap, 64, w->size ? w->size : 1) != 0) {
            rd_err_detail("out of memory for a window of %zu bytes", w->size);
            return RD_ENOMEM;
        }
        memset(s->heap, 0, w->size);
        w->base = s->heap;
        /* fall through */
    default:
        if (!s->node_peers)
            return RD_OK;
        if ((rc = own_segment(w, RD_RMA_CTL_SIZE, &seg)) != RD_OK)
            return rc;
        s->ctl = seg;
        d->segkind = SEG_CTL;
        break;
    case RD_WIN_SHARED:
        if (w->hints.alloc_shared_noncontig) {
            if ((rc = own_segment(w, RD_RMA_CTL_SIZE + w->size, &seg)) != RD_OK)
                return rc;
            s->ctl = seg;
            w->base = (char *)seg + RD_RMA_CTL_SIZE;
            d->segkind = SEG_DATA;
            d->dataoff = RD_RMA_CTL_SIZE;
            break;
        }
        d->segkind = SEG_SHARED;
        if (w->comm->rank == 0) {
            size_t total = 0;
            for (int r = 0; r < w->comm->size; r++)
                total += sizes[r];
            if ((rc = own_segment(w, ctl_area(w->comm->size) + total, &seg)) != RD_OK)
                return rc;
        }
        /* The others map rank 0's segment in rd_rma_win_connect. */
        break;
    }
    d->seglen = w->rma->seglen;
    memcpy(d->segname, s->segname, sizeof(d->segname));
    return RD_OK;
}

static int all_same_node(rd_comm_t *c)
{
    for (int r = 0; r < c->size; r++)
        if (r != c->rank && !rd_p2p_same_node(rd_comm_world(c, r)))
            return 0;
    return 1;
}

int rd_rma_win_new(rd_comm_t *c, int flavor, void *base, size_t size, int disp_unit,
                   const rd_win_hints_t *hints, const size_t *sizes, rd_win_t **out,
                   void *desc)
{
    rma_desc_t *d = desc;
    memset(d, 0, sizeof(*d));
    d->version = DESC_VERSION;
    *out = NULL;
    if (flavor == RD_WIN_SHARED && !all_same_node(c)) {
        rd_err_detail("the communicator spans several nodes; shared memory needs every member "
                      "on one node (use MPI_Comm_split_type with MPI_COMM_TYPE_SHARED first)");
        rd_rma_desc_fail(d, RD_ESHARED);
        return RD_ESHARED;
    }
    rd_win_t *w = calloc(1, sizeof(*w));
    struct rd_rma_win *rw = calloc(1, sizeof(*rw));
    struct rd_rma_sync *s = calloc(1, sizeof(*s));
    int n = c->size, rc = RD_ENOMEM;
    if (w)
        w->rma = rw;
    if (rw) {
        rw->sync = s;
        rw->win = w;
        rw->id = c->ctx;
        rw->nranks = n;
    }
    if (!w || !rw || !s || !(rw->peers = calloc((size_t)n, sizeof(*rw->peers))) ||
        !(s->pctl = calloc((size_t)n, sizeof(*s->pctl))) ||
        !(s->posts = calloc((size_t)n, sizeof(*s->posts))) ||
        !(s->granted = calloc((size_t)n, sizeof(*s->granted))) ||
        !(s->how = calloc((size_t)n, sizeof(*s->how))) ||
        !(s->maps = calloc((size_t)n, sizeof(*s->maps)))) {
        rd_err_detail("out of memory for the window's table of %d peers", n);
        goto fail;
    }
    rd_list_init(&w->attrs);
    s->queue_tail = &s->queue;
    w->comm = c;
    w->flavor = flavor;
    w->base = flavor == RD_WIN_CREATE ? base : NULL;
    w->size = flavor == RD_WIN_DYNAMIC ? 0 : size;
    w->disp_unit = disp_unit;
    w->hints = *hints;
    for (int r = 0; r < n; r++)
        if (r != c->rank && rd_p2p_same_node(rd_comm_world(c, r)))
            s->node_peers++;
    if ((rc = make_memory(w, sizes, d)) != RD_OK)
        goto fail;
    if (flavor != RD_WIN_DYNAMIC && flavor != RD_WIN_SHARED) {
        if ((rc = rd_p2p_mem_reg(w->base, w->size, &rw->mem)) != RD_OK)
            goto fail;
        size_t kl = 0;
        rd_p2p_mem_keys(rw->mem, d->keys, &kl);
        d->keylen = (uint16_t)kl;
        if (rd_rma_dev_local(w, d->segname, sizeof(d->segname)))
            d->flags |= DESC_F_DEV_ATOMICS;
    }
    if ((rc = table_add(w)) != RD_OK)
        goto fail;
    if ((rc = rd_rma_ops_win_new(w)) != RD_OK) {
        table_remove(w);
        goto fail;
    }
    d->flavor = (uint8_t)flavor;
    d->disp_unit = disp_unit;
    d->base = (uint64_t)(uintptr_t)w->base;
    d->size = w->size;
    stats.windows++;
    *out = w;
    return RD_OK;

fail:
    if (rw && rw->mem)
        rd_p2p_mem_dereg(rw->mem);
    if (rw && rw->ctl_mem)
        rd_rma_dev_free(w);
    if (s && s->linked) {
        rd_rma_seg_unlink(s->segname);
        rd_rma_seg_unmap(rw->seg, rw->seglen);
    }
    if (s) {
        free(s->heap);
        free(s->pctl);
        free(s->posts);
        free(s->granted);
        free(s->how);
        free(s->maps);
    }
    if (rw)
        free(rw->peers);
    free(s);
    free(rw);
    free(w);
    rd_rma_desc_fail(d, rc);
    return rc;
}

void rd_rma_desc_fail(void *desc, int status)
{
    rma_desc_t *d = desc;
    d->version = DESC_VERSION;
    d->failed = 1;
    d->status = status;
}

/* Maps a node peer's segment (kept for unmapping at free). */
static int map_peer(rd_win_t *w, const rma_desc_t *d, void **addr)
{
    struct rd_rma_sync *s = w->rma->sync;
    char name[RD_RMA_SEG_NAME_MAX];
    memcpy(name, d->segname, sizeof(name));
    name[sizeof(name) - 1] = 0;
    int rc = rd_rma_seg_map(name, d->seglen, addr);
    if (rc != RD_OK)
        return rc;
    s->maps[s->nmaps].addr = *addr;
    s->maps[s->nmaps++].len = d->seglen;
    return RD_OK;
}

/* SHARED, contiguous: everyone's memory in rank 0's segment. */
static int connect_shared(rd_win_t *w, const rma_desc_t *descs)
{
    struct rd_rma_win *rw = w->rma;
    struct rd_rma_sync *s = rw->sync;
    int n = rw->nranks, rc;
    char *seg = rw->seg;
    if (w->comm->rank != 0 && (rc = map_peer(w, &descs[0], (void **)&seg)) != RD_OK)
        return rc;
    size_t off = ctl_area(n);
    for (int r = 0; r < n; r++) {
        rd_rma_peer_t *p = &rw->peers[r];
        p->mapped = descs[r].size ? seg + off : NULL;
        s->pctl[r] = (rd_rma_ctl_t *)(seg + (size_t)r * RD_RMA_CTL_SIZE);
        off += descs[r].size;
    }
    s->ctl = s->pctl[w->comm->rank];
    w->base = rw->peers[w->comm->rank].mapped;
    for (int r = 0; r < n; r++)
        rw->peers[r].base = (uint64_t)(uintptr_t)rw->peers[r].mapped;
    return rd_p2p_mem_reg(w->base, w->size, &rw->mem);
}

/* Rank r's device-atomics part of its descriptor (rd_rma_dev_connect). */
static const void *dev_desc(const void *dv, int r)
{
    return ((const rma_desc_t *)dv)[r].segname;
}

int rd_rma_win_connect(rd_win_t *w, const void *descs_)
{
    const rma_desc_t *descs = descs_;
    struct rd_rma_win *rw = w->rma;
    struct rd_rma_sync *s = rw->sync;
    int n = rw->nranks, me = w->comm->rank, rc;
    for (int r = 0; r < n; r++) {
        const rma_desc_t *d =
            (const rma_desc_t *)((const char *)descs + (size_t)r * RD_RMA_DESC_MAX);
        if (d->version != DESC_VERSION || d->failed) {
            rd_err_detail("window creation failed at rank %d of the communicator (%s)", r,
                          d->version == DESC_VERSION ? rd_status_str(d->status)
                                                     : "bad descriptor version");
            return d->version == DESC_VERSION && d->status < 0 ? d->status : RD_EINTERN;
        }
    }
    /* Descriptors are RD_RMA_DESC_MAX apart: copy them into an array. */
    rma_desc_t *dv = malloc((size_t)n * sizeof(*dv));
    if (!dv)
        return RD_ENOMEM;
    for (int r = 0; r < n; r++)
        memcpy(&dv[r], (const char *)descs + (size_t)r * RD_RMA_DESC_MAX, sizeof(*dv));
    for (int r = 0; r < n; r++) {
        rd_rma_peer_t *p = &rw->peers[r];
        p->world = rd_comm_world(w->comm, r);
        p->base = dv[r].base;
        p->size = dv[r].size;
        p->disp_unit = dv[r].disp_unit;
        p->path = RD_RMA_PATH_AM;
    }
    index_senders(w);
    rc = RD_OK;
    if (w->flavor == RD_WIN_SHARED && !w->hints.alloc_shared_noncontig)
        rc = connect_shared(w, dv);
    for (int r = 0; r < n && rc == RD_OK; r++) {
        rd_rma_peer_t *p = &rw->peers[r];
        const rma_desc_t *d = &dv[r];
        void *seg = NULL;
        if (w->flavor == RD_WIN_SHARED && !w->hints.alloc_shared_noncontig) {
            p->path = RD_RMA_PATH_SHM;
        } else if (r == me) {
            s->pctl[r] = s->ctl;
            if (w->flavor != RD_WIN_DYNAMIC) {
                p->path = RD_RMA_PATH_SHM;
                p->mapped = w->base;
            }
        } else if ((d->segkind == SEG_DATA || d->segkind == SEG_CTL) &&
                   rd_p2p_same_node(p->world)) {
            if ((rc = map_peer(w, d, &seg)) != RD_OK)
                break;
            s->pctl[r] = seg;
            if (d->segkind == SEG_DATA) {
                p->path = RD_RMA_PATH_SHM;
                p->mapped = (char *)seg + d->dataoff;
            }
        }
        const void *key;
        size_t kl;
        if (p->path == RD_RMA_PATH_AM && w->flavor != RD_WIN_DYNAMIC && r != me &&
            (rd_p2p_rdma_ops(p->world) & (RD_P2P_RDMA_GET | RD_P2P_RDMA_PUT)) ==
                (RD_P2P_RDMA_GET | RD_P2P_RDMA_PUT) &&
            d->keylen <= RD_P2P_KEYS_MAX &&
            rd_p2p_mem_key_for(p->world, d->keys, d->keylen, &key, &kl) && kl <= RD_P2P_KEY_MAX) {
            memcpy(p->key, key, kl);
            p->keylen = kl;
            /* Node peers are reached through the rings: RDMA there is CMA,
             * slower than two copies, and serves only when the rings stay
             * full (rma_origin.c). */
            if (!rd_p2p_signals(p->world)) {
                p->path = RD_RMA_PATH_RDMA;
                p->rdma_max = rd_p2p_rdma_len_max(p->world);
            }
        }
        if (r != me && p->path != RD_RMA_PATH_SHM)
            s->poke = 1;
        if (p->path == RD_RMA_PATH_SHM)
            stats.shm++;
        else if (p->path == RD_RMA_PATH_RDMA)
            stats.rdma++;
        else
            stats.am++;
    }
    if (rc == RD_OK) {
        int all = 1;
        for (int r = 0; r < n; r++)
            all &= (dv[r].flags & DESC_F_DEV_ATOMICS) != 0;
        rc = rd_rma_dev_connect(w, all, dev_desc, dv);
    }
    free(dv);
    return rc;
}

void rd_rma_win_ready(rd_win_t *w)
{
    struct rd_rma_sync *s = w->rma->sync;
    if (s->linked) {
        rd_rma_seg_unlink(s->segname);
        s->linked = 0;
    }
}

/* ---- destruction ---- */

static void release(rd_win_t *w)
{
    struct rd_rma_win *rw = w->rma;
    struct rd_rma_sync *s = rw->sync;
    rd_rma_ops_win_free(w);
    table_remove(w);
    rd_rma_lock_free(w);
    rd_rma_sync_free(w);
    rd_rma_win_ready(w);
    if (rw->mem)
        rd_p2p_mem_dereg(rw->mem);
    rd_rma_dev_free(w);
    for (int i = 0; i < s->nmaps; i++)
        rd_rma_seg_unmap(s->maps[i].addr, s->maps[i].len);
    rd_rma_seg_unmap(rw->seg, rw->seglen);
    free(s->heap);
    free(s->pctl);
    free(s->posts);
    free(s->granted);
    free(s->how);
    free(s->maps);
    free(s->regions);
    free(s->byworld);
    free(rw->peers);
    free(s);
    free(rw);
    w->rma = NULL;
}

int rd_rma_win_free_check(rd_win_t *w)
{
    struct rd_rma_win *rw = w->rma;
    if (rw->access == RD_EPOCH_PSCW || rw->exposure == RD_EPOCH_PSCW) {
        rd_err_detail("a PSCW epoch is still open on the window (call MPI_Win_complete / "
                      "MPI_Win_wait first)");
        return RD_ESYNC;
    }
    if (rw->access == RD_EPOCH_LOCK || rw->access == RD_EPOCH_LOCK_ALL || rd_rma_lock_held(w)) {
        rd_err_detail("a passive-target epoch is still open on the window (call "
                      "MPI_Win_unlock / MPI_Win_unlock_all first)");
        return RD_ESYNC;
    }
    return rd_rma_ops_complete(w, -1, 0);
}

void rd_rma_win_destroy(rd_win_t *w)
{
    if (!w)
        return;
    if (w->rma)
        release(w);
    free(w);
}

/* ---- queries ---- */

int rd_rma_shared_query(rd_win_t *w, int rank, void **base, size_t *size, int *disp_unit)
{
    struct rd_rma_win *rw = w->rma;
    if (rank < 0) {
        for (int r = 0; r < rw->nranks; r++)
            if (rw->peers[r].size > 0) {
                rank = r;
                break;
            }
        if (rank < 0) {
            *base = NULL;
            *size = 0;
            *disp_unit = rw->peers[0].disp_unit;
            return RD_OK;
        }
    }
    rd_rma_peer_t *p = &rw->peers[rank];
    if (p->path != RD_RMA_PATH_SHM) {
        rd_err_detail("the memory of rank %d is not mapped in this process (%s)", rank,
                      w->flavor == RD_WIN_DYNAMIC ? "a dynamic window"
                                                  : "it runs on another node");
        return RD_EFLAVOR;
    }
    /* MPI gives NULL for a rank that contributed no memory. */
    *base = p->size ? p->mapped : NULL;
    *size = p->size;
    *disp_unit = p->disp_unit;
    return RD_OK;
}

/* ---- Alloc_mem / Free_mem ---- */

typedef struct alloc_rec {
    struct alloc_rec *next;
    void *ptr;
    rd_p2p_mem_t *mem;
} alloc_rec_t;

static alloc_rec_t *allocs;

int rd_rma_alloc_mem(size_t size, void **ptr)
{
    alloc_rec_t *a = calloc(1, sizeof(*a));
    if (!a || posix_memalign(&a->ptr, 64, size ? size : 1) != 0) {
        free(a);
        rd_err_detail("out of memory for %zu bytes", size);
        return RD_ENOMEM;
    }
    int rc = rd_p2p_mem_reg(a->ptr, size, &a->mem);
    if (rc != RD_OK) {
        free(a->ptr);
        free(a);
        return rc;
    }
    a->next = allocs;
    allocs = a;
    *ptr = a->ptr;
    return RD_OK;
}

int rd_rma_free_mem(void *ptr)
{
    for (alloc_rec_t **p = &allocs; *p; p = &(*p)->next)
        if ((*p)->ptr == ptr) {
            alloc_rec_t *a = *p;
            *p = a->next;
            rd_p2p_mem_dereg(a->mem);
            free(a->ptr);
            free(a);
            return RD_OK;
        }
    rd_err_detail("%p was not returned by MPI_Alloc_mem (or was freed already)", ptr);
    return RD_EINVAL;
}
