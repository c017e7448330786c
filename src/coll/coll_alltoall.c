/*
 * Alltoall and its v / w variants.
 *
 * Alltoall: Bruck's algorithm for small blocks (log2 n rounds, each moving
 * about half the data, so startup costs dominate less), every transfer
 * posted at once for medium blocks, pairwise exchange
 * otherwise (n - 1 rounds; in round s rank r sends to r + s and receives from
 * r - s, so every round is a perfect matching on any process count).
 * Alltoallv / alltoallw: block sizes differ per pair and only the two ends
 * know them, so every transfer is posted at once and completed together.
 * MPI_IN_PLACE: the receive buffer's blocks are first packed into a
 * temporary that serves as the send buffer.
 */
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll_shm.h"
#include "coll/coll_util.h"
#include "util/scratch.h"
#include "util/status.h"

static int alltoall_bruck(rd_comm_t *c, const char *sbuf, size_t scount, rd_datatype_t *stype,
                          char *rbuf, size_t rcount, rd_datatype_t *rtype, size_t n)
{
    int size = c->size, me = c->rank, rc = RD_OK, trunc = 0;
    ptrdiff_t sext = (ptrdiff_t)scount * rd_dt_extent(stype);
    ptrdiff_t rext = (ptrdiff_t)rcount * rd_dt_extent(rtype);
    char *tmp = rd_scratch_get(3 * (size_t)size * n);
    if (!tmp)
        return RD_ENOMEM;
    char *out = tmp + (size_t)size * n, *in = out + (size_t)size * n;
    /* Block i of tmp is the data for rank me + i. */
    for (int i = 0; i < size; i++)
        rd_coll_copy(sbuf + (ptrdiff_t)((me + i) % size) * sext, scount, stype, tmp + (size_t)i * n,
                     n, &rd_dt_bytes);
    /* Round k moves every block whose index has bit k set k ranks onwards. */
    for (int k = 1; k < size && rc == RD_OK; k <<= 1) {
        size_t cnt = 0;
        for (int i = 1; i < size; i++)
            if (i & k)
                memcpy(out + cnt++ * n, tmp + (size_t)i * n, n);
        rc = rd_coll_sendrecv_after(c, out, cnt * n, &rd_dt_bytes, (me + k) % size, in,
                                    cnt * n, &rd_dt_bytes, (me - k + size) % size,
                                    RD_TAG_ALLTOALL, &trunc);
        cnt = 0;
        for (int i = 1; i < size; i++)
            if (i & k)
                memcpy(tmp + (size_t)i * n, in + cnt++ * n, n);
    }
    /* Now block i came from rank me - i. */
    if (rc == RD_OK)
        for (int i = 0; i < size; i++)
            rd_coll_copy(tmp + (size_t)i * n, n, &rd_dt_bytes,
                         rbuf + (ptrdiff_t)((me - i + size) % size) * rext, rcount, rtype);
    rd_scratch_put(tmp);
    return rd_coll_trunc_end(rc, trunc);
}

static int alltoall_pairwise(rd_comm_t *c, const char *sbuf, size_t scount, rd_datatype_t *stype,
                             char *rbuf, size_t rcount, rd_datatype_t *rtype)
{
    int size = c->size, me = c->rank, trunc = 0;
    ptrdiff_t sext = (ptrdiff_t)scount * rd_dt_extent(stype);
    ptrdiff_t rext = (ptrdiff_t)rcount * rd_dt_extent(rtype);
    rd_coll_copy(sbuf + me * sext, scount, stype, rbuf + me * rext, rcount, rtype);
    for (int s = 1; s < size; s++) {
        int dst = (me + s) % size, src = (me - s + size) % size;
        int rc = rd_coll_sendrecv_after(c, sbuf + dst * sext, scount, stype, dst,
                                        rbuf + src * rext, rcount, rtype, src, RD_TAG_ALLTOALL,
                                        &trunc);
        if (rc != RD_OK)
            return rc;
    }
    return rd_coll_trunc_end(RD_OK, trunc);
}

/* Every receive and send posted at once, then one wait: no round waits for
 * the previous one, which matters most when ranks share cores (a rank that
 * is not running holds up only the transfers it takes part in). */
static int alltoall_scattered(rd_comm_t *c, const char *sbuf, size_t scount,
                              rd_datatype_t *stype, char *rbuf, size_t rcount,
                              rd_datatype_t *rtype)
{
    int size = c->size, me = c->rank, rc = RD_OK;
    ptrdiff_t sext = (ptrdiff_t)scount * rd_dt_extent(stype);
    ptrdiff_t rext = (ptrdiff_t)rcount * rd_dt_extent(rtype);
    rd_request_t **r = calloc(2 * (size_t)size, sizeof(*r));
    if (!r)
        return RD_ENOMEM;
    for (int s = 1; s < size && rc == RD_OK; s++) {
        int src = (me - s + size) % size;
        rc = rd_coll_irecv(c, rbuf + src * rext, rcount, rtype, src, RD_TAG_ALLTOALL, &r[s]);
    }
    for (int s = 1; s < size && rc == RD_OK; s++) {
        int dst = (me + s) % size;
        rc = rd_coll_isend(c, sbuf + dst * sext, scount, stype, dst, RD_TAG_ALLTOALL,
                           &r[size + s]);
    }
    if (rc == RD_OK)
        rd_coll_copy(sbuf + me * sext, scount, stype, rbuf + me * rext, rcount, rtype);
    int rc2 = rd_coll_waitall(r, 2 * size);
    free(r);
    return rc != RD_OK ? rc : rc2;
}

int rd_coll_alltoall(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                     void *rbuf, size_t rcount, rd_datatype_t *rtype)
{
    size_t n = rcount * rtype->size;
    if (n == 0)
        return RD_OK;
    void *packed = NULL;
    if (sbuf == RD_COLL_IN_PLACE) {
        packed = rd_scratch_get((size_t)c->size * n);
        if (!packed)
            return RD_ENOMEM;
        rd_dt_pack(rbuf, rcount * (size_t)c->size, rtype, 0, packed, (size_t)c->size * n);
        sbuf = packed;
        scount = n;
        stype = &rd_dt_bytes;
    }
    int rc = rd_coll_shm_alltoall(c, sbuf, scount, stype, rbuf, rcount, rtype);
    if (rc == RD_ENOTSUP)
        rc = rd_coll_shm_alltoall_cma(c, sbuf, scount, stype, rbuf, rcount, rtype);
    if (rc == RD_ENOTSUP) {
        if (n <= rd_coll_tune()->alltoall_bruck_max && c->size > 2)
            rc = alltoall_bruck(c, sbuf, scount, stype, rbuf, rcount, rtype, n);
        else if (n <= rd_coll_tune()->alltoall_scattered_max && c->size > 2)
            rc = alltoall_scattered(c, sbuf, scount, stype, rbuf, rcount, rtype);
        else
            rc = alltoall_pairwise(c, sbuf, scount, stype, rbuf, rcount, rtype);
    }
    rd_scratch_put(packed);
    return rc;
}

/* One side of an alltoallv / alltoallw: where block i lies and its type. */
typedef struct side {
    const char *buf;
    const int *counts, *displs;
    rd_datatype_t *type;              /* alltoallv: one type */
    rd_datatype_t *const *types;      /* alltoallw: one per peer, displs in bytes */
} side_t;

static rd_datatype_t *side_type(const side_t *s, int i)
{
    return s->types ? s->types[i] : s->type;
}

static char *side_ptr(const side_t *s, int i)
{
    ptrdiff_t d = s->displs[i];
    return (char *)s->buf + (s->types ? d : d * rd_dt_extent(s->type));
}

static int exchange(rd_comm_t *c, const side_t *snd, const side_t *rcv)
{
    int size = c->size, me = c->rank, rc = RD_OK;
    rd_coll_copy(side_ptr(snd, me), (size_t)snd->counts[me], side_type(snd, me), side_ptr(rcv, me),
                 (size_t)rcv->counts[me], side_type(rcv, me));
    rd_request_t **r = calloc(2 * (size_t)size, sizeof(*r));
    if (!r)
        return RD_ENOMEM;
    /* Start with the neighbours so that no rank is everybody's first peer. */
    for (int s = 1; s < size && rc == RD_OK; s++) {
        int src = (me - s + size) % size;
        rc = rd_coll_irecv(c, side_ptr(rcv, src), (size_t)rcv->counts[src], side_type(rcv, src),
                           src, RD_TAG_ALLTOALLV, &r[src]);
    }
    for (int s = 1; s < size && rc == RD_OK; s++) {
        int dst = (me + s) % size;
        rc = rd_coll_isend(c, side_ptr(snd, dst), (size_t)snd->counts[dst], side_type(snd, dst),
                           dst, RD_TAG_ALLTOALLV, &r[size + dst]);
    }
    int rc2 = rd_coll_waitall(r, 2 * size);
    free(r);
    return rc != RD_OK ? rc : rc2;
}

/* MPI_IN_PLACE: packs the receive side's blocks into *mem and describes them
 * as a byte send side (counts and displacements in bytes). */
static int pack_in_place(rd_comm_t *c, const side_t *rcv, side_t *snd, void **mem)
{
    int size = c->size;
    size_t total = 0;
    for (int i = 0; i < size; i++)
        total += (size_t)rcv->counts[i] * side_type(rcv, i)->size;
    char *p = rd_scratch_get(total + 2 * (size_t)size * sizeof(int) + 1);
    if (!p)
        return RD_ENOMEM;
    int *counts = (int *)p, *displs = counts + size;
    char *data = (char *)(displs + size);
    size_t off = 0;
    for (int i = 0; i < size; i++) {
        size_t n = (size_t)rcv->counts[i] * side_type(rcv, i)->size;
        rd_dt_pack(side_ptr(rcv, i), (size_t)rcv->counts[i], side_type(rcv, i), 0, data + off, n);
        counts[i] = (int)n;
        displs[i] = (int)off;
        off += n;
    }
    snd->buf = data;
    snd->counts = counts;
    snd->displs = displs;
    snd->type = &rd_dt_bytes;
    snd->types = NULL;
    *mem = p;
    return RD_OK;
}

static int alltoall_vw(rd_comm_t *c, int in_place, side_t *snd, const side_t *rcv)
{
    void *mem = NULL;
    if (in_place) {
        int rc = pack_in_place(c, rcv, snd, &mem);
        if (rc != RD_OK)
            return rc;
    }
    int rc = exchange(c, snd, rcv);
    rd_scratch_put(mem);
    return rc;
}

int rd_coll_alltoallv(rd_comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                      rd_datatype_t *stype, void *rbuf, const int *rcounts, const int *rdispls,
                      rd_datatype_t *rtype)
{
    side_t snd = { sbuf, scounts, sdispls, stype, NULL };
    side_t rcv = { rbuf, rcounts, rdispls, rtype, NULL };
    return alltoall_vw(c, sbuf == RD_COLL_IN_PLACE, &snd, &rcv);
}

int rd_coll_alltoallw(rd_comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                      rd_datatype_t *const *stypes, void *rbuf, const int *rcounts,
                      const int *rdispls, rd_datatype_t *const *rtypes)
{
    side_t snd = { sbuf, scounts, sdispls, NULL, stypes };
    side_t rcv = { rbuf, rcounts, rdispls, NULL, rtypes };
    return alltoall_vw(c, sbuf == RD_COLL_IN_PLACE, &snd, &rcv);
}
