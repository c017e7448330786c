/*
 * Gather, scatter and allgather, with their v variants.
 *
 * Gather / scatter: a binomial tree over packed blocks (relative to the root)
 * while the whole data is small, since it needs only log2 n message startups
 * at the root; above RDMPI_GATHER_BINOMIAL_MAX, and for the v variants whose
 * block sizes only the root knows, the root talks to every rank directly
 * (the linear algorithms MPI_Igather(v) and MPI_Iscatter(v) build too,
 * coll_steps.c).
 *
 * Allgather: recursive doubling on power-of-two sizes and Bruck's algorithm
 * otherwise while the data is small (log2 n rounds), a ring when large
 * (each byte crosses each link once). Allgatherv and the byte allgather of
 * communicator management always use the ring.
 *
 * A truncated receive does not stop any of them (rd_coll_trunc in
 * coll_util.h): the rank relays on, its later messages padded.
 */
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll_steps.h"
#include "coll/coll_util.h"
#include "util/scratch.h"
#include "util/status.h"

/* Number of relative ranks in the subtree rooted at rel. */
static int subtree_size(int rel, int size)
{
    int m = rd_coll_tree_mask(rel, size);
    return rel + m < size ? m : size - rel;
}

static int gather_binomial(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                           void *rbuf, size_t rcount, rd_datatype_t *rtype, int root, size_t n)
{
    int size = c->size, rel = (c->rank - root + size) % size, rc = RD_OK, trunc = 0;
    int mask = rd_coll_tree_mask(rel, size), nsub = subtree_size(rel, size);
    char *tmp = rd_scratch_get((size_t)nsub * n);
    if (!tmp)
        return RD_ENOMEM;
    /* the receive arguments only matter at the root */
    ptrdiff_t ext = rel ? 0 : rd_dt_extent(rtype);
    if (sbuf == RD_COLL_IN_PLACE)
        rd_coll_copy((char *)rbuf + (ptrdiff_t)c->rank * (ptrdiff_t)rcount * ext, rcount, rtype,
                     tmp, n, &rd_dt_bytes);
    else
        rd_coll_copy(sbuf, scount, stype, tmp, n, &rd_dt_bytes);
    for (int m = 1; m < mask && rel + m < size; m <<= 1) {
        int child = rel + m, cn = subtree_size(child, size);
        rc = rd_coll_trunc(rd_coll_recv(c, tmp + (size_t)m * n, (size_t)cn * n, &rd_dt_bytes,
                                        (child + root) % size, RD_TAG_GATHER), &trunc);
        if (rc != RD_OK)
            goto out;
    }
    if (rel) {
        rc = rd_coll_send_after(c, tmp, (size_t)nsub * n, &rd_dt_bytes,
                                (rel - mask + root) % size, RD_TAG_GATHER, trunc);
    } else {
        for (int j = 0; j < size; j++) {
            int r = (j + root) % size;
            rd_coll_copy(tmp + (size_t)j * n, n, &rd_dt_bytes,
                         (char *)rbuf + (ptrdiff_t)r * (ptrdiff_t)rcount * ext, rcount, rtype);
        }
    }
out:
    rd_scratch_put(tmp);
    return rd_coll_trunc_end(rc, trunc);
}

static int scatter_binomial(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                            void *rbuf, size_t rcount, rd_datatype_t *rtype, int root, size_t n)
{
    int size = c->size, rel = (c->rank - root + size) % size, rc = RD_OK, trunc = 0;
    int mask = rd_coll_tree_mask(rel, size), nsub = subtree_size(rel, size);
    char *tmp = rd_scratch_get((size_t)nsub * n);
    if (!tmp)
        return RD_ENOMEM;
    if (rel == 0) {
        ptrdiff_t ext = rd_dt_extent(stype);
        for (int j = 0; j < size; j++) {
            int r = (j + root) % size;
            rd_coll_copy((const char *)sbuf + (ptrdiff_t)r * (ptrdiff_t)scount * ext, scount,
                         stype, tmp + (size_t)j * n, n, &rd_dt_bytes);
        }
    } else {
        rc = rd_coll_trunc(rd_coll_recv(c, tmp, (size_t)nsub * n, &rd_dt_bytes,
                                        (rel - mask + root) % size, RD_TAG_SCATTER), &trunc);
        if (rc != RD_OK)
            goto out;
    }
    for (int m = mask >> 1; m > 0; m >>= 1) {
        int child = rel + m;
        if (child >= size)
            continue;
        rc = rd_coll_send_after(c, tmp + (size_t)m * n, (size_t)subtree_size(child, size) * n,
                                &rd_dt_bytes, (child + root) % size, RD_TAG_SCATTER, trunc);
        if (rc != RD_OK)
            goto out;
    }
    if (rbuf != RD_COLL_IN_PLACE)
        rd_coll_copy(tmp, n, &rd_dt_bytes, rbuf, rcount, rtype);
out:
    rd_scratch_put(tmp);
    return rd_coll_trunc_end(rc, trunc);
}

/* The linear algorithms (coll_steps.c) run by the blocking sink; NULL
 * counts: count elements for every rank. */
static int gatherv_linear(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                          void *rbuf, const int *rcounts, const int *displs, size_t rcount,
                          rd_datatype_t *rtype, int root)
{
    rd_coll_run_t run;
    rd_coll_run_init(&run, c, RD_TAG_GATHER);
    rd_coll_steps_gatherv(&run.steps, sbuf, scount, stype, rbuf, rcounts, displs, rcount, rtype,
                          root);
    return rd_coll_run_end(&run);
}

static int scatterv_linear(rd_comm_t *c, const void *sbuf, const int *scounts, const int *displs,
                           size_t scount, rd_datatype_t *stype, void *rbuf, size_t rcount,
                           rd_datatype_t *rtype, int root)
{
    rd_coll_run_t run;
    rd_coll_run_init(&run, c, RD_TAG_SCATTER);
    rd_coll_steps_scatterv(&run.steps, sbuf, scounts, displs, scount, stype, rbuf, rcount, rtype,
                           root);
    return rd_coll_run_end(&run);
}

int rd_coll_gather(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                   void *rbuf, size_t rcount, rd_datatype_t *rtype, int root)
{
    size_t n = c->rank == root ? rcount * rtype->size : scount * stype->size;
    if (n == 0)
        return RD_OK;
    if ((size_t)c->size * n <= rd_coll_tune()->gather_binomial_max && c->size > 2)
        return gather_binomial(c, sbuf, scount, stype, rbuf, rcount, rtype, root, n);
    return gatherv_linear(c, sbuf, scount, stype, rbuf, NULL, NULL, rcount, rtype, root);
}

int rd_coll_gatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                    void *rbuf, const int *rcounts, const int *displs, rd_datatype_t *rtype,
                    int root)
{
    return gatherv_linear(c, sbuf, scount, stype, rbuf, rcounts, displs, 0, rtype, root);
}

int rd_coll_scatter(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                    void *rbuf, size_t rcount, rd_datatype_t *rtype, int root)
{
    size_t n = c->rank == root ? scount * stype->size : rcount * rtype->size;
    if (n == 0)
        return RD_OK;
    if ((size_t)c->size * n <= rd_coll_tune()->gather_binomial_max && c->size > 2)
        return scatter_binomial(c, sbuf, scount, stype, rbuf, rcount, rtype, root, n);
    return scatterv_linear(c, sbuf, NULL, NULL, scount, stype, rbuf, rcount, rtype, root);
}

int rd_coll_scatterv(rd_comm_t *c, const void *sbuf, const int *scounts, const int *displs,
                     rd_datatype_t *stype, void *rbuf, size_t rcount, rd_datatype_t *rtype,
                     int root)
{
    return scatterv_linear(c, sbuf, scounts, displs, 0, stype, rbuf, rcount, rtype, root);
}

/* The allgather algorithms on packed blocks of n bytes; work holds this
 * rank's block at its place on entry and every block on return. */
static int allgather_recdbl(rd_comm_t *c, char *work, size_t n)
{
    int me = c->rank, trunc = 0;
    for (int mask = 1; mask < c->size; mask <<= 1) {
        int peer = me ^ mask;
        size_t mine = (size_t)(me & ~(mask - 1)), theirs = (size_t)(peer & ~(mask - 1));
        int rc = rd_coll_sendrecv_after(c, work + mine * n, (size_t)mask * n, &rd_dt_bytes, peer,
                                        work + theirs * n, (size_t)mask * n, &rd_dt_bytes, peer,
                                        RD_TAG_ALLGATHER, &trunc);
        if (rc != RD_OK)
            return rc;
    }
    return rd_coll_trunc_end(RD_OK, trunc);
}

static int allgather_bruck(rd_comm_t *c, char *work, size_t n)
{
    int size = c->size, me = c->rank, rc = RD_OK, trunc = 0;
    char *tmp = rd_scratch_get((size_t)size * n);
    if (!tmp)
        return RD_ENOMEM;
    /* tmp block j holds the block of rank me + j. */
    memcpy(tmp, work + (size_t)me * n, n);
    for (int k = 1; k < size && rc == RD_OK; k <<= 1) {
        int cnt = k < size - k ? k : size - k;
        rc = rd_coll_sendrecv_after(c, tmp, (size_t)cnt * n, &rd_dt_bytes,
                                    (me - k + size) % size, tmp + (size_t)k * n, (size_t)cnt * n,
                                    &rd_dt_bytes, (me + k) % size, RD_TAG_ALLGATHER, &trunc);
    }
    if (rc == RD_OK)
        for (int j = 0; j < size; j++)
            memcpy(work + (size_t)((me + j) % size) * n, tmp + (size_t)j * n, n);
    rd_scratch_put(tmp);
    return rd_coll_trunc_end(rc, trunc);
}

static int allgather_ring(rd_comm_t *c, char *work, size_t n, int tag)
{
    int size = c->size, me = c->rank, trunc = 0;
    int right = (me + 1) % size, left = (me - 1 + size) % size;
    for (int s = 0; s < size - 1; s++) {
        size_t sb = (size_t)((me - s + size) % size), rb = (size_t)((me - s - 1 + size) % size);
        int rc = rd_coll_sendrecv_after(c, work + sb * n, n, &rd_dt_bytes, right, work + rb * n,
                                        n, &rd_dt_bytes, left, tag, &trunc);
        if (rc != RD_OK)
            return rc;
    }
    return rd_coll_trunc_end(RD_OK, trunc);
}

int rd_coll_allgather(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                      void *rbuf, size_t rcount, rd_datatype_t *rtype)
{
    int size = c->size, me = c->rank;
    size_t n = rcount * rtype->size, total = (size_t)size * n;
    ptrdiff_t bext = (ptrdiff_t)rcount * rd_dt_extent(rtype);
    char *own = (char *)rbuf + (ptrdiff_t)me * bext;
    if (n == 0)
        return RD_OK;
    if (size == 1) {
        if (sbuf != RD_COLL_IN_PLACE)
            rd_coll_copy(sbuf, scount, stype, own, rcount, rtype);
        return RD_OK;
    }
    int contig = rd_dt_is_contig(rtype, rcount * (size_t)size);
    char *work = contig ? rd_dt_contig_ptr(rbuf, rtype) : rd_scratch_get(total);
    if (!work)
        return RD_ENOMEM;
    if (sbuf != RD_COLL_IN_PLACE)
        rd_coll_copy(sbuf, scount, stype, work + (size_t)me * n, n, &rd_dt_bytes);
    else if (!contig)
        rd_dt_pack(own, rcount, rtype, 0, work + (size_t)me * n, n);
    int rc;
    if (total >= rd_coll_tune()->allgather_ring_min)
        rc = allgather_ring(c, work, n, RD_TAG_ALLGATHER);
    else if ((size & (size - 1)) == 0)
        rc = allgather_recdbl(c, work, n);
    else
        rc = allgather_bruck(c, work, n);
    if (!contig) {
        if (rc == RD_OK || rc == RD_ETRUNC)
            rd_dt_unpack(rbuf, rcount * (size_t)size, rtype, 0, work, total);
        rd_scratch_put(work);
    }
    return rc;
}

int rd_coll_allgather_bytes(rd_comm_t *c, const void *send, size_t n, void *recv)
{
    char *out = recv;
    memmove(out + (size_t)c->rank * n, send, n);
    return allgather_ring(c, out, n, RD_TAG_ALLGATHER_BYTES);
}

int rd_coll_allgatherv(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                       void *rbuf, const int *rcounts, const int *displs, rd_datatype_t *rtype)
{
    int size = c->size, me = c->rank;
    ptrdiff_t ext = rd_dt_extent(rtype);
    if (sbuf != RD_COLL_IN_PLACE)
        rd_coll_copy(sbuf, scount, stype, (char *)rbuf + (ptrdiff_t)displs[me] * ext,
                     (size_t)rcounts[me], rtype);
    int right = (me + 1) % size, left = (me - 1 + size) % size, trunc = 0;
    for (int s = 0; s < size - 1; s++) {
        int sb = (me - s + size) % size, rb = (me - s - 1 + size) % size;
        int rc = rd_coll_sendrecv_after(c, (char *)rbuf + (ptrdiff_t)displs[sb] * ext,
                                        (size_t)rcounts[sb], rtype, right,
                                        (char *)rbuf + (ptrdiff_t)displs[rb] * ext,
                                        (size_t)rcounts[rb], rtype, left, RD_TAG_ALLGATHERV,
                                        &trunc);
        if (rc != RD_OK)
            return rc;
    }
    return rd_coll_trunc_end(RD_OK, trunc);
}
