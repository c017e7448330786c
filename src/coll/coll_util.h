/*
 * What the collective algorithms (coll_*.c) share: point-to-point on the
 * collective context, temporary buffers, local copies between datatypes, the
 * tunables that choose algorithms, and the tags. Private to src/coll.
 */
#ifndef RD_COLL_COLL_UTIL_H
#define RD_COLL_COLL_UTIL_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/request.h"
#include "util/status.h"

/* One fixed tag per algorithm (all below RD_COLL_TAG_NBC_BASE). */
enum rd_coll_tag {
    RD_TAG_BARRIER = 1,
    RD_TAG_ALLGATHER_BYTES = 2,
    RD_TAG_BCAST_BYTES = 3,
    RD_TAG_BCAST = 4,
    RD_TAG_BCAST_SCATTER = 5,
    RD_TAG_BCAST_RING = 6,
    RD_TAG_GATHER = 7,
    RD_TAG_SCATTER = 8,
    RD_TAG_ALLGATHER = 9,
    RD_TAG_ALLGATHERV = 10,
    RD_TAG_ALLTOALL = 11,
    RD_TAG_ALLTOALLV = 12,
    RD_TAG_REDUCE = 13,
    RD_TAG_ALLREDUCE = 14,
    RD_TAG_REDUCE_SCATTER = 15,
    RD_TAG_SCAN = 16,
    RD_TAG_CTXID = 17,         /* context-id agreements (ctxid.c) */
};

/* Algorithm thresholds, read once from RDMPI_* variables (see coll_util.c). */
typedef struct rd_coll_tune {
    int barrier_signal;            /* barrier through shared-memory signals when possible */
    size_t bcast_shm_max;          /* bytes: node-local bcast through shared areas up to here */
    size_t ibcast_shm_max;         /* bytes: the same for MPI_Ibcast */
    size_t allreduce_shm_max;      /* bytes: the same for allreduce */
    size_t allreduce_shm_split_min; /* bytes: ... each rank reducing one segment from here */
    size_t alltoall_shm_max;       /* bytes per block: the same for alltoall */
    size_t alltoall_cma_min;       /* bytes per block: single-copy alltoall from here (0: off) */
    size_t coll_shm_max_np2;       /* bytes (per block): all three, on two ranks */
    size_t bcast_scatter_min;      /* bytes: scatter + ring allgather broadcast from here */
    int bcast_scatter_min_procs;   /* ... and with at least this many ranks */
    size_t allgather_ring_min;     /* total bytes: ring allgather from here */
    size_t alltoall_bruck_max;     /* bytes per block: Bruck alltoall up to here */
    size_t alltoall_scattered_max; /* bytes per block: all transfers at once up to here */
    size_t allreduce_rsag_min;     /* bytes: Rabenseifner allreduce from here */
    size_t allreduce_rsag_min_np2; /* the same when the power of two below size is 2 */
    size_t gather_binomial_max;    /* total bytes: binomial gather/scatter up to here */
    size_t reduce_scatter_pairwise_min; /* total bytes: pairwise reduce-scatter from here */
} rd_coll_tune_t;

const rd_coll_tune_t *rd_coll_tune(void);

/* Nonblocking send / receive of (buf, count, dt) with peer on c's collective
 * context. buf uses dt's layout; non-contiguous data is packed by p2p. */
int rd_coll_isend(rd_comm_t *c, const void *buf, size_t count, rd_datatype_t *dt, int peer,
                  int tag, rd_request_t **out);
int rd_coll_irecv(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int peer, int tag,
                  rd_request_t **out);
/* Waits for r, frees it and returns its status. NULL is an empty request. */
int rd_coll_wait(rd_request_t *r);
/* Waits for n requests (NULL entries skipped); the first error wins. */
int rd_coll_waitall(rd_request_t **r, int n);
int rd_coll_send(rd_comm_t *c, const void *buf, size_t count, rd_datatype_t *dt, int peer,
                 int tag);
int rd_coll_recv(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int peer, int tag);
/* Send to dst and receive from src at once. */
int rd_coll_sendrecv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype, int dst,
                     void *rbuf, size_t rcount, rd_datatype_t *rtype, int src, int tag);

/* A truncated receive does not end a collective: the rank goes on with
 * its part (keeping what fit), so that no peer waits forever for a message
 * it would have sent or leaves one unreceived, and reports RD_ETRUNC at the
 * end. Its later messages in that collective carry one byte more than
 * their count (rd_coll_padded), so that the ranks it relays to see the
 * truncation too instead of taking part of the data silently.
 * rd_coll_trunc folds a receive's status into *trunc: RD_OK for RD_ETRUNC
 * (and *trunc set), else rc. */
static inline int rd_coll_trunc(int rc, int *trunc)
{
    if (rc != RD_ETRUNC)
        return rc;
    *trunc = 1;
    return RD_OK;
}
/* The status a collective that went on after a truncation returns. */
static inline int rd_coll_trunc_end(int rc, int trunc)
{
    return rc == RD_OK && trunc ? RD_ETRUNC : rc;
}
/* (buf, count, dt) packed into p, count * size + 1 bytes, the last one 0. */
void rd_coll_pad(const void *buf, size_t count, const rd_datatype_t *dt, char *p);
/* The same into *len bytes from rd_scratch_get (util/scratch.h); NULL on
 * ENOMEM. */
void *rd_coll_padded(const void *buf, size_t count, const rd_datatype_t *dt, size_t *len);
/* rd_coll_send, one byte longer (rd_coll_padded) when trunc is set. */
int rd_coll_send_after(rd_comm_t *c, const void *buf, size_t count, rd_datatype_t *dt, int peer,
                       int tag, int trunc);

/* rd_coll_sendrecv that goes on after a truncation: the send padded if
 * *trunc is set, the receive's truncation folded into *trunc. */
int rd_coll_sendrecv_after(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                           int dst, void *rbuf, size_t rcount, rd_datatype_t *rtype, int src,
                           int tag, int *trunc);

/* A send or receive (kind RD_REQ_SEND / RD_REQ_RECV) as rd_coll_isend and
 * rd_coll_irecv, on request memory local (see rd_req_init_local) if not
 * NULL: for a caller that waits for it before local goes away. */
int rd_coll_post(int kind, rd_request_t *local, rd_comm_t *c, void *buf, size_t count,
                 rd_datatype_t *dt, int peer, int tag, rd_request_t **out);

/* A temporary buffer that holds count elements of dt in dt's layout:
 * returns the address to use as the buffer (it may point before the memory
 * when dt's true lower bound is positive) and sets *mem to what to give back
 * with rd_scratch_put (util/scratch.h).
 * NULL on ENOMEM (*mem NULL). count 0 gives a valid, unusable pointer. */
void *rd_coll_tmp(size_t count, const rd_datatype_t *dt, void **mem);
/* Copies (src, scount, stype) into (dst, rcount, rtype): the packed bytes of
 * the smaller of the two. */
void rd_coll_copy(const void *src, size_t scount, const rd_datatype_t *stype, void *dst,
                  size_t rcount, const rd_datatype_t *rtype);

/* Largest power of two not above n (n >= 1). */
static inline int rd_coll_pof2(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* Rank i's block in a v-argument (buf, counts, displs; displacements in
 * extents of dt): its address *p and count *cnt. NULL counts / displs mean
 * count elements for every rank, at i * count. */
static inline void rd_coll_block(const void *buf, const int *counts, const int *displs,
                                 size_t count, const rd_datatype_t *dt, int i, void **p,
                                 size_t *cnt)
{
    ptrdiff_t d = displs ? displs[i] : (ptrdiff_t)((size_t)i * count);
    *cnt = counts ? (size_t)counts[i] : count;
    *p = (char *)buf + d * rd_dt_extent(dt);
}

/* Binomial trees over relative ranks (0 the root): the lowest set bit of
 * rel, which separates it from its parent (rel - mask), or for the root the
 * first power of two >= n. Its children are rel + m for m = mask / 2, mask
 * / 4, ... 1 with rel + m < n. */
static inline int rd_coll_tree_mask(int rel, int n)
{
    int mask = 1;
    while (mask < n && !(rel & mask))
        mask <<= 1;
    return mask;
}

#endif
