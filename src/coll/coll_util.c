/* Shared pieces of the collective algorithms (see coll_util.h). */
#include "coll/coll_util.h"
#include "util/scratch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_tunables.h"
#include "p2p/p2p.h"
#include "util/status.h"

static rd_coll_tune_t tune;
static pthread_once_t tune_once = PTHREAD_ONCE_INIT;

/* One value of the table. MPI_Init has checked every value
 * (api/api_tunables.h), so reading cannot fail here. */
static long long tun(int i)
{
    const rd_tunable_t *t = &rd_coll_tunables[i];
    long long v;
    return rd_tunable_int(t, &v) == RD_OK ? v : (long long)t->dflt;
}

static void tune_load(void)
{
    /* Defaults follow the usual crossover points on shared memory and
     * InfiniBand: latency-bound trees below, bandwidth-bound rings above. */
    tune.barrier_signal = (int)tun(RD_COLL_T_BARRIER_SIGNAL);
    /* Node-local collectives through shared areas (coll_shm.c) up to these
     * sizes; 0 turns them off. */
    tune.bcast_shm_max = (size_t)tun(RD_COLL_T_BCAST_SHM_MAX);
    tune.ibcast_shm_max = (size_t)tun(RD_COLL_T_IBCAST_SHM_MAX);
    tune.allreduce_shm_max = (size_t)tun(RD_COLL_T_ALLREDUCE_SHM_MAX);
    tune.allreduce_shm_split_min = (size_t)tun(RD_COLL_T_ALLREDUCE_SHM_SPLIT_MIN);
    tune.alltoall_shm_max = (size_t)tun(RD_COLL_T_ALLTOALL_SHM_MAX);
    /* Above that, single-copy alltoall from this many bytes per block
     * (0: off), on any number of ranks. */
    tune.alltoall_cma_min = (size_t)tun(RD_COLL_T_ALLTOALL_CMA_MIN);
    /* With two ranks every algorithm is a single exchange already: the
     * shared areas save only p2p's per-message overhead, and from a few KiB
     * their two copies lose to one copy over CMA (doc/performance.md). */
    tune.coll_shm_max_np2 = (size_t)tun(RD_COLL_T_COLL_SHM_MAX_NP2);
    tune.bcast_scatter_min = (size_t)tun(RD_COLL_T_BCAST_SCATTER_MIN);
    tune.bcast_scatter_min_procs = (int)tun(RD_COLL_T_BCAST_SCATTER_MIN_PROCS);
    tune.allgather_ring_min = (size_t)tun(RD_COLL_T_ALLGATHER_RING_MIN);
    tune.alltoall_bruck_max = (size_t)tun(RD_COLL_T_ALLTOALL_BRUCK_MAX);
    tune.alltoall_scattered_max = (size_t)tun(RD_COLL_T_ALLTOALL_SCATTERED_MAX);
    tune.allreduce_rsag_min = (size_t)tun(RD_COLL_T_ALLREDUCE_RSAG_MIN);
    /* On two ranks both algorithms move the same bytes; Rabenseifner only
     * halves the local reduction and costs a second round (a second
     * rendezvous handshake above the eager size), which pays from about
     * 256 KiB on shared memory (measured, doc/performance.md). */
    tune.allreduce_rsag_min_np2 = (size_t)tun(RD_COLL_T_ALLREDUCE_RSAG_MIN_NP2);
    tune.gather_binomial_max = (size_t)tun(RD_COLL_T_GATHER_BINOMIAL_MAX);
    tune.reduce_scatter_pairwise_min = (size_t)tun(RD_COLL_T_REDUCE_SCATTER_PAIRWISE_MIN);
}

const rd_coll_tune_t *rd_coll_tune(void)
{
    pthread_once(&tune_once, tune_load);
    return &tune;
}

/* Starts a message on request memory local (a blocking caller's stack, see
 * rd_req_init_local), or on a pooled request when local is NULL. */
static int start(rd_request_t **out, rd_request_t *local, int kind, rd_comm_t *c, void *buf,
                 size_t count, rd_datatype_t *dt, int peer, int tag)
{
    rd_request_t *r = local;
    if (r)
        rd_req_init_local(r, kind);
    else if (!(r = rd_req_new(kind)))
        return RD_ENOMEM;
    int rc = rd_p2p_start(r, buf, count, dt, c, peer, tag, RD_MODE_STANDARD, 1);
    if (rc != RD_OK) {
        rd_req_free(r);
        return rc;
    }
    *out = r;
    return RD_OK;
}

int rd_coll_isend(rd_comm_t *c, const void *buf, size_t count, rd_datatype_t *dt, int peer,
                  int tag, rd_request_t **out)
{
    return start(out, NULL, RD_REQ_SEND, c, (void *)buf, count, dt, peer, tag);
}

int rd_coll_irecv(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int peer, int tag,
                  rd_request_t **out)
{
    return start(out, NULL, RD_REQ_RECV, c, buf, count, dt, peer, tag);
}

int rd_coll_wait(rd_request_t *r)
{
    if (!r)
        return RD_OK;
    rd_p2p_wait(r);
    int rc = r->error;
    rd_req_free(r);
    return rc;
}

int rd_coll_waitall(rd_request_t **r, int n)
{
    int rc = RD_OK;
    for (int i = 0; i < n; i++) {
        int rci = rd_coll_wait(r[i]);
        r[i] = NULL;
        if (rc == RD_OK)
            rc = rci;
    }
    return rc;
}

/* The blocking forms wait before returning, so their requests live on the
 * stack. */
int rd_coll_send(rd_comm_t *c, const void *buf, size_t count, rd_datatype_t *dt, int peer,
                 int tag)
{
    rd_request_t local, *r;
    int rc = start(&r, &local, RD_REQ_SEND, c, (void *)buf, count, dt, peer, tag);
    return rc == RD_OK ? rd_coll_wait(r) : rc;
}

int rd_coll_recv(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int peer, int tag)
{
    rd_request_t local, *r;
    int rc = start(&r, &local, RD_REQ_RECV, c, buf, count, dt, peer, tag);
    return rc == RD_OK ? rd_coll_wait(r) : rc;
}

int rd_coll_sendrecv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype, int dst,
                     void *rbuf, size_t rcount, rd_datatype_t *rtype, int src, int tag)
{
    int trunc = 0;
    int rc = rd_coll_sendrecv_after(c, sbuf, scount, stype, dst, rbuf, rcount, rtype, src, tag,
                                    &trunc);
    return rd_coll_trunc_end(rc, trunc);
}

void rd_coll_pad(const void *buf, size_t count, const rd_datatype_t *dt, char *p)
{
    rd_dt_pack(buf, count, dt, 0, p, count * dt->size);
    p[count * dt->size] = 0;
}

void *rd_coll_padded(const void *buf, size_t count, const rd_datatype_t *dt, size_t *len)
{
    char *p = rd_scratch_get(count * dt->size + 1);
    if (!p)
        return NULL;
    rd_coll_pad(buf, count, dt, p);
    *len = count * dt->size + 1;
    return p;
}

int rd_coll_send_after(rd_comm_t *c, const void *buf, size_t count, rd_datatype_t *dt, int peer,
                       int tag, int trunc)
{
    if (!trunc)
        return rd_coll_send(c, buf, count, dt, peer, tag);
    size_t len;
    void *p = rd_coll_padded(buf, count, dt, &len);
    if (!p)
        return RD_ENOMEM;
    int rc = rd_coll_send(c, p, len, &rd_dt_bytes, peer, tag);
    rd_scratch_put(p);
    return rc;
}

int rd_coll_sendrecv_after(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                           int dst, void *rbuf, size_t rcount, rd_datatype_t *rtype, int src,
                           int tag, int *trunc)
{
    void *pad = NULL;
    if (*trunc) {
        if (!(pad = rd_coll_padded(sbuf, scount, stype, &scount)))
            return RD_ENOMEM;
        sbuf = pad;
        stype = &rd_dt_bytes;
    }
    rd_request_t local[2], *r[2] = { NULL, NULL };
    int rc = start(&r[0], &local[0], RD_REQ_RECV, c, rbuf, rcount, rtype, src, tag);
    if (rc == RD_OK)
        rc = start(&r[1], &local[1], RD_REQ_SEND, c, (void *)sbuf, scount, stype, dst, tag);
    int rc0 = rd_coll_trunc(rd_coll_wait(r[0]), trunc), rc1 = rd_coll_wait(r[1]);
    rd_scratch_put(pad);
    return rc != RD_OK ? rc : rc0 != RD_OK ? rc0 : rc1;
}

int rd_coll_post(int kind, rd_request_t *local, rd_comm_t *c, void *buf, size_t count,
                 rd_datatype_t *dt, int peer, int tag, rd_request_t **out)
{
    return start(out, local, kind, c, buf, count, dt, peer, tag);
}

void *rd_coll_tmp(size_t count, const rd_datatype_t *dt, void **mem)
{
    ptrdiff_t ext = rd_dt_extent(dt), true_ext = dt->true_ub - dt->true_lb;
    size_t span = count ? (size_t)((ptrdiff_t)(count - 1) * ext + true_ext) : 0;
    *mem = rd_scratch_get(span);
    if (!*mem)
        return NULL;
    return (char *)*mem - dt->true_lb;
}

/* Bounce buffer for copies between non-contiguous layouts. */
#define COPY_CHUNK 8192

void rd_coll_copy(const void *src, size_t scount, const rd_datatype_t *stype, void *dst,
                  size_t rcount, const rd_datatype_t *rtype)
{
    size_t sbytes = scount * stype->size, rbytes = rcount * rtype->size;
    size_t n = sbytes < rbytes ? sbytes : rbytes;
    if (!n)
        return;
    if (rd_dt_is_contig(stype, scount) && rd_dt_is_contig(rtype, rcount)) {
        memmove(rd_dt_contig_ptr(dst, rtype), rd_dt_contig_ptr(src, stype), n);
        return;
    }
    if (rd_dt_is_contig(rtype, rcount)) {
        rd_dt_pack(src, scount, stype, 0, rd_dt_contig_ptr(dst, rtype), n);
        return;
    }
    if (rd_dt_is_contig(stype, scount)) {
        rd_dt_unpack(dst, rcount, rtype, 0, rd_dt_contig_ptr(src, stype), n);
        return;
    }
    char bounce[COPY_CHUNK];
    for (size_t off = 0; off < n; off += COPY_CHUNK) {
        size_t len = n - off < COPY_CHUNK ? n - off : COPY_CHUNK;
        rd_dt_pack(src, scount, stype, off, bounce, len);
        rd_dt_unpack(dst, rcount, rtype, off, bounce, len);
    }
}
