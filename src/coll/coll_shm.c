/* Node-local collectives through the ranks' shared areas (see coll_shm.h). */
#include "coll/coll_shm.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/coll_comm.h"
#include "coll/coll_util.h"
#include "coll/nbc.h"
#include "p2p/p2p.h"
#include "util/copy.h"
#include "util/errdetail.h"
#include "util/scratch.h"
#include "util/status.h"

#define AREAS_SMALL 64

/* Whether n bytes (per block) is within limit for c, whose size caps all
 * limits on two ranks. */
static int within(const rd_comm_t *c, size_t n, size_t limit)
{
    size_t np2 = rd_coll_tune()->coll_shm_max_np2;
    return n <= limit && (c->size != 2 || n <= np2);
}

/* The areas of one communicator for one collective. */
typedef struct shm_view {
    rd_comm_t *c;
    void **area;                 /* by rank of c */
    void *small[AREAS_SMALL];
    size_t stride;               /* bytes from buffer 0 to buffer 1 */
    size_t chunk;                /* data bytes per buffer */
} shm_view_t;

/* Which of this process's two buffers the next publication takes. */
static unsigned next_buf;

static int view_open(shm_view_t *v, rd_comm_t *c)
{
    size_t len = 0;
    if (rd_p2p_threads())
        return RD_ENOTSUP;  /* the buffers are the process's, not the thread's (coll_shm.h) */
    v->c = c;
    v->area = v->small;
    if (c->size > AREAS_SMALL && !(v->area = malloc((size_t)c->size * sizeof(void *))))
        return RD_ENOMEM;
    int rc = rd_p2p_node_areas(c, v->area, &len);
    /* Room for the header and two buffers of at least one line of data. */
    if (rc == RD_OK && len < 2 * RD_COLL_SHM_LINE + 2 * (RD_COLL_SHM_LINE + 64))
        rc = RD_ENOTSUP;
    if (rc != RD_OK) {
        if (v->area != v->small)
            free(v->area);
        return rc;
    }
    v->stride = ((len - sizeof(rd_coll_shm_hdr_t)) / 2) & ~(size_t)63;
    /* A power of two, so power-of-two messages cut into whole chunks. */
    v->chunk = 64;
    while (v->chunk * 2 <= v->stride - sizeof(rd_coll_shm_buf_t))
        v->chunk *= 2;
    return RD_OK;
}

static void view_close(shm_view_t *v)
{
    if (v->area != v->small)
        free(v->area);
}

/* Opens c's areas for a collective of n bytes (per block) when n is
 * within limit; RD_ENOTSUP sends the caller to the message algorithms. */
static int view_open_within(shm_view_t *v, rd_comm_t *c, size_t n, size_t limit)
{
    if (!within(c, n, limit))
        return RD_ENOTSUP;
    return view_open(v, c);
}

static rd_coll_shm_buf_t *buf_at(void *area, size_t stride, unsigned i)
{
    return (rd_coll_shm_buf_t *)((char *)area + sizeof(rd_coll_shm_hdr_t) + i * stride);
}

/* The sequence number after seq (they run 1 ... 2^32 - 1, then 1 again). */
static uint32_t seq_after(uint32_t seq)
{
    return seq == UINT32_MAX ? 1 : seq + 1;
}

static uint64_t stamp_of(const rd_comm_t *c, uint32_t seq)
{
    return (uint64_t)c->ctx << 32 | seq;
}

/* The identity of the communicator's next publication (the same on every rank). */
static uint64_t next_stamp(rd_comm_t *c)
{
    rd_coll_comm_t *cc = rd_coll_comm(c);
    cc->shm_seq = seq_after(cc->shm_seq);
    return stamp_of(c, cc->shm_seq);
}

static void mark_version(void *mine)
{
    rd_coll_shm_hdr_t *h = mine;
    if (atomic_load_explicit(&h->version, memory_order_relaxed) != RD_COLL_SHM_VERSION)
        atomic_store_explicit(&h->version, RD_COLL_SHM_VERSION, memory_order_relaxed);
}

/* One of this rank's two buffers that its last readers are done with (the
 * one after the previous publication's when both are), or NULL. */
static rd_coll_shm_buf_t *take_free(void *mine, size_t stride)
{
    for (unsigned k = 0; k < 2; k++) {
        unsigned i = next_buf ^ k;
        rd_coll_shm_buf_t *b = buf_at(mine, stride, i);
        if (atomic_load_explicit(&b->stamp, memory_order_acquire) == 0) {
            next_buf = i ^ 1;
            return b;
        }
    }
    return NULL;
}

/* One turn of a wait on another rank: runs progress (pending schedules,
 * messages) and backs off while nothing moves, keeping the lock of
 * MPI_THREAD_MULTIPLE (rd_p2p_backoff). */
static void wait_turn(unsigned *idle)
{
    rd_p2p_backoff(rd_progress(), idle);
}

/* Takes one of this rank's buffers once its last readers are done with it.
 * Whichever frees first: a pending MPI_Ibcast (rd_coll_shm_ibcast) may hold
 * the other until progress moves its readers on. */
static rd_coll_shm_buf_t *pub_begin(shm_view_t *v)
{
    void *mine = v->area[v->c->rank];
    rd_coll_shm_buf_t *b;
    unsigned idle = 0;
    mark_version(mine);
    if ((b = take_free(mine, v->stride)))
        return b;
    rd_p2p_wait_begin();
    while (!(b = take_free(mine, v->stride))) {
        wait_turn(&idle);
    }
    rd_p2p_wait_end();
    return b;
}

/* The bytes field of a publication of a collective of n bytes. */
static uint32_t bytes_field(size_t n)
{
    return n < RD_COLL_SHM_BYTES_BIG ? (uint32_t)n : RD_COLL_SHM_BYTES_BIG;
}

/* The size the owner of b passed, as far as b tells it: mine when they
 * cannot be told apart. */
static size_t owner_size(const rd_coll_shm_buf_t *b, size_t mine)
{
    uint32_t f = b->bytes;
    return f == bytes_field(mine) || f == RD_COLL_SHM_BYTES_BIG ? mine : f;
}

/* Publishes b for readers, holding data of a collective of n bytes. */
static void pub_end(rd_coll_shm_buf_t *b, uint64_t stamp, int readers, size_t n)
{
    b->bytes = bytes_field(n);
    atomic_store_explicit(&b->left, (uint32_t)readers, memory_order_relaxed);
    atomic_store_explicit(&b->stamp, stamp, memory_order_release);
}

/* The buffer of area (of another rank) that holds the publication stamp:
 * RD_OK with *out set, RD_EAGAIN when neither does yet, RD_EINTERN when the
 * area has another layout version. */
static int lookup(void *area, size_t stride, uint64_t stamp, rd_coll_shm_buf_t **out)
{
    rd_coll_shm_buf_t *b0 = buf_at(area, stride, 0), *b1 = buf_at(area, stride, 1), *b = NULL;
    if (atomic_load_explicit(&b0->stamp, memory_order_acquire) == stamp)
        b = b0;
    else if (atomic_load_explicit(&b1->stamp, memory_order_acquire) == stamp)
        b = b1;
    if (!b)
        return RD_EAGAIN;
    const rd_coll_shm_hdr_t *h = area;
    if (atomic_load_explicit(&h->version, memory_order_relaxed) != RD_COLL_SHM_VERSION)
        return RD_EINTERN;
    *out = b;
    return RD_OK;
}

/* Waits until rank r's area holds the publication stamp. */
static int find(shm_view_t *v, int r, uint64_t stamp, rd_coll_shm_buf_t **out)
{
    unsigned idle = 0;
    int rc = lookup(v->area[r], v->stride, stamp, out);
    if (rc != RD_EAGAIN)
        return rc;
    rd_p2p_wait_begin();
    while ((rc = lookup(v->area[r], v->stride, stamp, out)) == RD_EAGAIN) {
        wait_turn(&idle);
    }
    rd_p2p_wait_end();
    return rc;
}

/* A reader is done with b; the last one frees it. A reader that finds
 * left == 1 is the last one (the others have decremented it and never
 * come back), so it frees b without a read-modify-write. */
static void release(rd_coll_shm_buf_t *b)
{
    if (atomic_load_explicit(&b->left, memory_order_acquire) == 1 ||
        atomic_fetch_sub_explicit(&b->left, 1, memory_order_acq_rel) == 1)
        atomic_store_explicit(&b->stamp, 0, memory_order_release);
}

/* A broadcast receiver of n bytes got sent bytes from root: records the
 * detail and returns the status (RD_OK when they agree). */
static int bcast_size_check(const rd_comm_t *c, int root, size_t sent, size_t n)
{
    if (sent == n)
        return RD_OK;
    rd_err_detail("rank %d of the communicator broadcast %zu bytes, rank %d expected %zu", root,
                  sent, c->rank, n);
    return sent > n ? RD_ETRUNC : RD_ESIZE;
}

int rd_coll_shm_bcast(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int root)
{
    size_t n = count * dt->size;
    shm_view_t v;
    int rc = view_open_within(&v, c, n, rd_coll_tune()->bcast_shm_max);
    if (rc != RD_OK)
        return rc;
    int contig = rd_dt_is_contig(dt, count);
    char *bytes = contig ? rd_dt_contig_ptr(buf, dt) : NULL;
    /* A receiver goes by the root's size, which the first chunk tells, so
     * that it takes as many chunks (and sequence numbers) as the root
     * publishes even when the sizes differ; it keeps what fits. */
    size_t sent = n;
    for (size_t off = 0; off < sent; off += v.chunk) {
        size_t len = sent - off < v.chunk ? sent - off : v.chunk;
        uint64_t stamp = next_stamp(c);
        rd_coll_shm_buf_t *b;
        if (c->rank == root) {
            b = pub_begin(&v);
            if (contig)
                rd_copy_shared(b->data, bytes + off, len);
            else
                rd_dt_pack(buf, count, dt, off, b->data, len);
            pub_end(b, stamp, c->size - 1, n);
            continue;
        }
        if ((rc = find(&v, root, stamp, &b)) != RD_OK)
            break;
        if (off == 0 && (sent = owner_size(b, n)) != n)
            len = sent < v.chunk ? sent : v.chunk;
        size_t keep = off >= n ? 0 : n - off < len ? n - off : len;
        if (contig && keep)
            memcpy(bytes + off, b->data, keep);
        else if (keep)
            rd_dt_unpack(buf, count, dt, off, b->data, keep);
        release(b);
    }
    if (rc == RD_OK && c->rank != root)
        rc = bcast_size_check(c, root, sent, n);
    view_close(&v);
    return rc;
}

/* ---- MPI_Ibcast: the broadcast above as one wait step of a schedule ---- */

typedef struct ibcast {
    void *area;                  /* the root's */
    size_t stride, chunk;
    void *buf;                   /* the user's (count, dt) */
    size_t count;
    rd_datatype_t *dt;           /* the wait step holds the reference */
    char *bytes;                 /* buf's bytes when contiguous, else NULL */
    size_t n, off;               /* bytes in all; the next chunk's offset */
    size_t sent;                 /* the root's size (its first chunk tells) */
    uint32_t seq;                /* the next chunk's sequence number */
    int root;
    struct ibcast *next;         /* the root's: the next in pub_queue */
    int queued;                  /* the root's: still in pub_queue */
} ibcast_t;

/* The root's MPI_Ibcasts that have chunks left to publish, in the order of
 * their calls. They publish in that order: all communicators share this
 * process's two buffers, and a later broadcast that took them first could
 * wait on readers who have yet to call the earlier one (each rank calls them
 * in the same order, but completes them in its own). */
static ibcast_t *pub_head, *pub_tail;

static void pub_enqueue(ibcast_t *ib)
{
    ib->next = NULL;
    ib->queued = 1;
    if (pub_tail)
        pub_tail->next = ib;
    else
        pub_head = ib;
    pub_tail = ib;
}

static void pub_dequeue(void *arg)
{
    ibcast_t *ib = arg, **p = &pub_head, *prev = NULL;
    if (!ib->queued)
        return;
    while (*p != ib) {
        prev = *p;
        p = &(*p)->next;
    }
    *p = ib->next;
    if (pub_tail == ib)
        pub_tail = prev;
    ib->queued = 0;
}

/* The root: publishes every chunk it has a free buffer for. */
static int ibcast_publish(rd_nbc_t *s, void *arg)
{
    ibcast_t *ib = arg;
    rd_comm_t *c = rd_nbc_comm(s);
    if (ib != pub_head)
        return 0;
    while (ib->off < ib->n) {
        rd_coll_shm_buf_t *b = take_free(ib->area, ib->stride);
        if (!b)
            return 0;
        size_t len = ib->n - ib->off < ib->chunk ? ib->n - ib->off : ib->chunk;
        if (ib->bytes)
            rd_copy_shared(b->data, ib->bytes + ib->off, len);
        else
            rd_dt_pack(ib->buf, ib->count, ib->dt, ib->off, b->data, len);
        pub_end(b, stamp_of(c, ib->seq), c->size - 1, ib->n);
        ib->seq = seq_after(ib->seq);
        ib->off += len;
    }
    pub_dequeue(ib);
    return 1;
}

/* The others: copy out every chunk the root has published. */
static int ibcast_copy_out(rd_nbc_t *s, void *arg)
{
    ibcast_t *ib = arg;
    const rd_comm_t *c = rd_nbc_comm(s);
    /* By the root's size, as the blocking broadcast goes; the sequence
     * numbers taken at the call by this rank's size still match the
     * root's when both sizes fill as many chunks. */
    while (ib->off < ib->sent) {
        rd_coll_shm_buf_t *b;
        int rc = lookup(ib->area, ib->stride, stamp_of(c, ib->seq), &b);
        if (rc != RD_OK)
            return rc == RD_EAGAIN ? 0 : rc;
        if (ib->off == 0)
            ib->sent = owner_size(b, ib->n);
        size_t len = ib->sent - ib->off < ib->chunk ? ib->sent - ib->off : ib->chunk;
        size_t keep = ib->off >= ib->n ? 0 : ib->n - ib->off < len ? ib->n - ib->off : len;
        if (ib->bytes && keep)
            memcpy(ib->bytes + ib->off, b->data, keep);
        else if (keep)
            rd_dt_unpack(ib->buf, ib->count, ib->dt, ib->off, b->data, keep);
        release(b);
        ib->seq = seq_after(ib->seq);
        ib->off += len;
    }
    int rc = bcast_size_check(c, ib->root, ib->sent, ib->n);
    return rc == RD_OK ? 1 : rc;
}

int rd_coll_shm_ibcast(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int root)
{
    rd_comm_t *c = rd_nbc_comm(s);
    size_t n = count * dt->size;
    shm_view_t v;
    int rc = view_open_within(&v, c, n, rd_coll_tune()->ibcast_shm_max);
    if (rc != RD_OK)
        return rc;
    ibcast_t *ib = rd_nbc_tmp(s, sizeof(*ib));
    if (!ib) {
        view_close(&v);
        return RD_ENOMEM;
    }
    ib->area = v.area[root];
    ib->stride = v.stride;
    ib->chunk = v.chunk;
    view_close(&v);
    ib->buf = buf;
    ib->count = count;
    ib->dt = dt;
    ib->bytes = rd_dt_is_contig(dt, count) ? rd_dt_contig_ptr(buf, dt) : NULL;
    ib->n = n;
    ib->off = 0;
    ib->sent = n;
    ib->root = root;
    /* Take the stamps of all chunks now, in call order, so that the
     * collectives started after this one (blocking or not) get the same
     * sequence numbers on every rank whenever this one completes. */
    ib->seq = seq_after(rd_coll_comm(c)->shm_seq);
    for (size_t off = 0; off < n; off += ib->chunk)
        next_stamp(c);
    if (n == 0)
        return RD_OK;
    if (c->rank == root) {
        mark_version(ib->area);
        pub_enqueue(ib);
        /* A schedule that fails or is never started leaves the queue too. */
        rd_nbc_on_free(s, pub_dequeue, ib);
    }
    rd_nbc_wait(s, c->rank == root ? ibcast_publish : ibcast_copy_out, ib, dt);
    rd_nbc_fence(s);
    return RD_OK;
}

/* Elements [seg_lo(i), seg_lo(i + 1)) of k are segment i of n. */
static size_t seg_lo(int i, int n, size_t k)
{
    return k / (size_t)n * (size_t)i + ((size_t)i < k % (size_t)n ? (size_t)i : k % (size_t)n);
}

/* Waits for every other rank's publication stamp into bufs (bufs[me] set by the caller). */
static int find_all(shm_view_t *v, uint64_t stamp, rd_coll_shm_buf_t **bufs)
{
    int rc = RD_OK;
    for (int i = 0; i < v->c->size && rc == RD_OK; i++)
        if (i != v->c->rank)
            rc = find(v, i, stamp, &bufs[i]);
    return rc;
}

static void release_all(shm_view_t *v, rd_coll_shm_buf_t **bufs)
{
    for (int i = 0; i < v->c->size; i++)
        if (i != v->c->rank)
            release(bufs[i]);
}

/* out[0, k) = x0 op (x1 op (... op x(n-1))) over elements [first, first + k)
 * of every rank's data (x[i]: rank i's chunk, published or, for this rank,
 * its own send buffer): the same steps whichever rank runs them. */
static void reduce_ordered(const unsigned char *const *x, int n, size_t first, size_t k,
                           char *out, const rd_datatype_t *dt, const rd_op_t *op)
{
    size_t off = first * dt->size;
    ptrdiff_t lb = dt->true_lb;
    if (k == 0)
        return;
    memcpy(out, x[n - 1] + off, k * dt->size);
    for (int i = n - 2; i >= 0; i--)
        rd_op_apply(op, x[i] + off - lb, out - lb, k, dt);
}

/* Every contribution published in bufs (this rank's own at bufs[c->rank])
 * has n bytes; else the detail names the first that differs: RD_ETRUNC when
 * some contribution is longer than this rank's, else RD_ESIZE. */
static int allreduce_size_check(const rd_comm_t *c, rd_coll_shm_buf_t *const *bufs, size_t n)
{
    int odd = -1, longer = 0;
    for (int i = 0; i < c->size; i++) {
        size_t m = i == c->rank ? n : owner_size(bufs[i], n);
        if (m != n && odd < 0)
            odd = i;
        longer |= m > n;
    }
    if (odd < 0)
        return RD_OK;
    rd_err_detail("rank %d of the communicator passed %zu bytes, rank %d passed %zu", odd,
                  owner_size(bufs[odd], n), c->rank, n);
    return longer ? RD_ETRUNC : RD_ESIZE;
}

int rd_coll_shm_allreduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                          rd_datatype_t *dt, const rd_op_t *op)
{
    size_t n = count * dt->size;
    const rd_coll_tune_t *t = rd_coll_tune();
    if (!rd_dt_is_contig(dt, count))
        return RD_ENOTSUP;
    shm_view_t v;
    int rc = view_open_within(&v, c, n, t->allreduce_shm_max);
    if (rc != RD_OK)
        return rc;
    size_t per = v.chunk / dt->size;   /* whole elements per chunk */
    if (per == 0) {
        view_close(&v);
        return RD_ENOTSUP;
    }
    int size = c->size, me = c->rank;
    rd_coll_shm_buf_t *small[AREAS_SMALL], **bufs = small;
    const unsigned char *xsmall[AREAS_SMALL], **x = xsmall;
    if (size > AREAS_SMALL) {
        bufs = malloc((size_t)size * sizeof(*bufs));
        x = malloc((size_t)size * sizeof(*x));
        if (!bufs || !x) {
            free(bufs);
            free(x);
            view_close(&v);
            return RD_ENOMEM;
        }
    }
    int in_place = sbuf == RD_COLL_IN_PLACE;
    const char *src = rd_dt_contig_ptr(in_place ? rbuf : sbuf, dt);
    char *dst = rd_dt_contig_ptr(rbuf, dt);
    /* Long vectors: each rank reduces one segment and publishes it (two
     * hand-offs, 1/size of the arithmetic each); short ones: every rank
     * reduces everything (one hand-off). */
    int split = n >= t->allreduce_shm_split_min && count >= (size_t)size;
    for (size_t first = 0; first < count && rc == RD_OK; first += per) {
        size_t k = count - first < per ? count - first : per;
        size_t off = first * dt->size, len = k * dt->size;
        uint64_t stamp = next_stamp(c);
        /* Publish this rank's part. Not in place, this rank reduces its
         * own part from src, so only the others read the publication. In
         * place, the reduction overwrites src, so this rank reads its
         * publication too and counts among its readers: else the others
         * could free the buffer before this rank's reduction, and a
         * pending MPI_Ibcast's step, run by the progress calls in find_all,
         * could take it and overwrite it. */
        bufs[me] = pub_begin(&v);
        rd_copy_shared(bufs[me]->data, src + off, len);
        pub_end(bufs[me], stamp, in_place ? size : size - 1, n);
        if ((rc = find_all(&v, stamp, bufs)) != RD_OK) {
            if (in_place)
                release(bufs[me]);
            break;
        }
        /* Sizes that differ: every rank sees it here, at the first chunk,
         * and stops with the same sequence numbers taken. */
        if (first == 0 && (rc = allreduce_size_check(c, bufs, n)) != RD_OK) {
            if (in_place)
                release(bufs[me]);
            release_all(&v, bufs);
            break;
        }
        for (int i = 0; i < size; i++)
            x[i] = bufs[i]->data;
        if (!in_place)
            x[me] = (const unsigned char *)src + off;
        if (!split) {
            reduce_ordered(x, size, 0, k, dst + off, dt, op);
            if (in_place)
                release(bufs[me]);
            release_all(&v, bufs);
            continue;
        }
        size_t lo = seg_lo(me, size, k), hi = seg_lo(me + 1, size, k);
        char *mine = dst + off + lo * dt->size;
        reduce_ordered(x, size, lo, hi - lo, mine, dt, op);
        if (in_place)
            release(bufs[me]);
        release_all(&v, bufs);
        stamp = next_stamp(c);
        bufs[me] = pub_begin(&v);
        rd_copy_shared(bufs[me]->data, mine, (hi - lo) * dt->size);
        pub_end(bufs[me], stamp, size - 1, n);
        if ((rc = find_all(&v, stamp, bufs)) != RD_OK)
            break;
        for (int i = 0; i < size; i++) {
            if (i == me)
                continue;
            size_t ilo = seg_lo(i, size, k), ihi = seg_lo(i + 1, size, k);
            memcpy(dst + off + ilo * dt->size, bufs[i]->data, (ihi - ilo) * dt->size);
        }
        release_all(&v, bufs);
    }
    if (bufs != small) {
        free(bufs);
        free(x);
    }
    view_close(&v);
    return rc;
}

/* Block i of a buffer of blocks of count elements of dt. */
static char *block(const void *buf, size_t i, size_t count, const rd_datatype_t *dt)
{
    return (char *)buf + (ptrdiff_t)(i * count) * rd_dt_extent(dt);
}

int rd_coll_shm_alltoall(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                         void *rbuf, size_t rcount, rd_datatype_t *rtype)
{
    size_t n = rcount * rtype->size;
    shm_view_t v;
    int rc = view_open_within(&v, c, n, rd_coll_tune()->alltoall_shm_max);
    if (rc != RD_OK)
        return rc;
    /* Publication k holds this rank's blocks for destinations [k per, (k + 1) per). */
    size_t per = v.chunk / n;
    if (per == 0) {
        view_close(&v);
        return RD_ENOTSUP;
    }
    int size = c->size, me = c->rank;
    int scontig = rd_dt_is_contig(stype, scount), rcontig = rd_dt_is_contig(rtype, rcount);
    rd_coll_copy(block(sbuf, (size_t)me, scount, stype), scount, stype,
                 block(rbuf, (size_t)me, rcount, rtype), rcount, rtype);
    for (size_t d0 = 0; d0 < (size_t)size; d0 += per) {
        size_t d1 = d0 + per < (size_t)size ? d0 + per : (size_t)size;
        int readers = (int)(d1 - d0) - ((size_t)me >= d0 && (size_t)me < d1);
        uint64_t stamp = next_stamp(c);
        if (readers > 0) {
            rd_coll_shm_buf_t *b = pub_begin(&v);
            for (size_t d = d0; d < d1; d++) {
                const char *sb = block(sbuf, d, scount, stype);
                if (d == (size_t)me)
                    continue;
                if (scontig)
                    rd_copy_shared(b->data + (d - d0) * n, rd_dt_contig_ptr(sb, stype), n);
                else
                    rd_dt_pack(sb, scount, stype, 0, b->data + (d - d0) * n, n);
            }
            pub_end(b, stamp, readers, n);
        }
        if ((size_t)me < d0 || (size_t)me >= d1)
            continue;
        /* Every other rank's block for this one. */
        for (int w = 0; w < size && rc == RD_OK; w++) {
            rd_coll_shm_buf_t *b;
            if (w == me || (rc = find(&v, w, stamp, &b)) != RD_OK)
                continue;
            const unsigned char *from = b->data + ((size_t)me - d0) * n;
            char *rb = block(rbuf, (size_t)w, rcount, rtype);
            if (rcontig)
                memcpy(rd_dt_contig_ptr(rb, rtype), from, n);
            else
                rd_dt_unpack(rb, rcount, rtype, 0, from, n);
            release(b);
        }
        if (rc != RD_OK)
            break;
    }
    view_close(&v);
    return rc;
}

/* Waits until this rank, which counted itself among the readers of its
 * publication b, is the last one left, then frees b. Until then b cannot
 * be freed, so a pending MPI_Ibcast run by progress cannot take it. */
static void wait_readers(rd_coll_shm_buf_t *b)
{
    unsigned idle = 0;
    if (atomic_load_explicit(&b->left, memory_order_acquire) != 1) {
        rd_p2p_wait_begin();
        while (atomic_load_explicit(&b->left, memory_order_acquire) != 1) {
            wait_turn(&idle);
        }
        rd_p2p_wait_end();
    }
    release(b);
}

/* Reads the block rank w's publication b offers rank me into rank w's
 * block of rbuf (through staging when rtype is not contiguous; without
 * staging, only releases b), then releases b. */
static int a2a_read(rd_comm_t *c, int w, rd_coll_shm_buf_t *b, int me, void *rbuf,
                    size_t rcount, rd_datatype_t *rtype, int rcontig, char *staging)
{
    rd_coll_shm_a2a_t pd;
    size_t n = rcount * rtype->size;
    memcpy(&pd, b->data, sizeof(pd));
    char *rb = block(rbuf, (size_t)w, rcount, rtype);
    char *to = rcontig ? rd_dt_contig_ptr(rb, rtype) : staging;
    int rc;
    if (!to)
        rc = RD_ENOMEM;
    else if (pd.keylen == 0 || pd.keylen > sizeof(pd.key))
        rc = RD_EINVAL;
    else
        rc = rd_p2p_node_read(c, w, to, pd.addr + (uint64_t)me * pd.stride, pd.key, pd.keylen, n);
    release(b);
    if (rc == RD_OK && !rcontig)
        rd_dt_unpack(rb, rcount, rtype, 0, staging, n);
    return rc;
}

int rd_coll_shm_alltoall_cma(rd_comm_t *c, const void *sbuf, size_t scount,
                             rd_datatype_t *stype, void *rbuf, size_t rcount,
                             rd_datatype_t *rtype)
{
    size_t n = rcount * rtype->size, min = rd_coll_tune()->alltoall_cma_min;
    if (min == 0 || n < min)
        return RD_ENOTSUP;
    /* Whether the transport reads peer memory (the same on every rank). */
    if (!rd_p2p_node_readable(c))
        return RD_ENOTSUP;
    rd_coll_shm_a2a_t d = { 0 };
    size_t keylen = 0;
    void *reg = NULL;
    shm_view_t v;
    int rc = view_open(&v, c);
    if (rc != RD_OK)
        return rc;
    if (v.chunk < sizeof(d)) {
        view_close(&v);
        return RD_ENOTSUP;
    }
    int size = c->size, me = c->rank;
    ptrdiff_t sext = (ptrdiff_t)scount * rd_dt_extent(stype);
    /* Readers take contiguous blocks at a fixed non-negative stride in
     * place; anything else is packed into a staging copy first. */
    int in_place = rd_dt_is_contig(stype, scount) && sext >= 0;
    int rcontig = rd_dt_is_contig(rtype, rcount);
    char *packed = NULL, *staging = NULL;
    const char *base = NULL;
    size_t stride = n;
    /* Memory running out past this point still takes part in every
     * hand-off (with an empty key, without reading), so that no peer waits
     * forever; the error is returned at the end. */
    if (in_place) {
        base = rd_dt_contig_ptr(sbuf, stype);
        stride = (size_t)sext;
    } else if ((packed = rd_scratch_get((size_t)size * n))) {
        for (int i = 0; i < size; i++)
            if (i != me)
                rd_dt_pack(block(sbuf, (size_t)i, scount, stype), scount, stype, 0,
                           packed + (size_t)i * n, n);
        base = packed;
    } else {
        rc = RD_ENOMEM;
    }
    if (!rcontig && !(staging = rd_scratch_get(n)))
        rc = RD_ENOMEM;
    size_t span = (size_t)(size - 1) * stride + n;
    if (base && rd_p2p_node_key(c, base, span, d.key, &keylen, &reg) == RD_OK) {
        d.addr = (uint64_t)(uintptr_t)base;
        d.stride = stride;
        d.keylen = (uint32_t)keylen;
    } else {
        /* An empty key: the readers' reads fail (RD_EINVAL). */
        rc = rc != RD_OK ? rc : RD_EINTERN;
    }
    uint64_t stamp = next_stamp(c);
    rd_coll_shm_buf_t *mine = pub_begin(&v);
    memcpy(mine->data, &d, sizeof(d));
    pub_end(mine, stamp, size, n);
    /* Whichever peer has published first is read first: with more ranks
     * than cores, a peer that is not running holds up only its own block.
     * The scan starts at rank me - 1, so no rank is everybody's first.
     * (Without memory for the list: in that order, waiting for each.) */
    int small[AREAS_SMALL], *pend = small, npend = 0;
    if (size > AREAS_SMALL)
        pend = malloc((size_t)size * sizeof(int));
    for (int s = 1; s < size; s++) {
        int w = (me - s + size) % size;
        if (pend) {
            pend[npend++] = w;
            continue;
        }
        rd_coll_shm_buf_t *b;
        int frc = find(&v, w, stamp, &b);
        int rrc = frc == RD_OK ? a2a_read(c, w, b, me, rbuf, rcount, rtype, rcontig, staging) : frc;
        rc = rc != RD_OK ? rc : rrc;
    }
    unsigned idle = 0;
    while (npend > 0) {
        int got = 0;
        for (int k = 0; k < npend;) {
            int w = pend[k];
            rd_coll_shm_buf_t *b;
            int frc = lookup(v.area[w], v.stride, stamp, &b);
            if (frc == RD_EAGAIN) {
                k++;
                continue;
            }
            pend[k] = pend[--npend];
            got = 1;
            int rrc =
                frc == RD_OK ? a2a_read(c, w, b, me, rbuf, rcount, rtype, rcontig, staging) : frc;
            rc = rc != RD_OK ? rc : rrc;
        }
        if (got)
            idle = 0;
        else
            wait_turn(&idle);
    }
    if (pend != small)
        free(pend);
    /* This rank's own block last: the peers' reads come first, so that they
     * are done with this rank's send buffer sooner, and the copy fills the
     * time they still take (np=2 128-512 KiB: 0.92x the copy-first time). */
    rd_coll_copy(block(sbuf, (size_t)me, scount, stype), scount, stype,
                 block(rbuf, (size_t)me, rcount, rtype), rcount, rtype);
    /* The send buffer stays untouched until every peer has read it. */
    wait_readers(mine);
    if (d.keylen)
        rd_p2p_node_key_release(c, reg);
    rd_scratch_put(staging);
    rd_scratch_put(packed);
    view_close(&v);
    return rc;
}
