/*
 * MPI_Bcast: through the node-local shared areas (coll_shm.c) when they
 * apply; else a binomial tree for short messages (log2 n latency; the one
 * MPI_Ibcast builds too, coll_steps.c), and for long ones van de Geijn's
 * scatter + ring allgather, which moves about 2x the message per rank
 * instead of log2 n x. Both work on the packed bytes, so a non-contiguous
 * datatype is packed once at the root and unpacked once at each receiver.
 */
#include "coll/coll.h"

#include <stdlib.h>

#include "coll/coll_shm.h"
#include "coll/coll_steps.h"
#include "coll/coll_util.h"
#include "util/scratch.h"
#include "util/status.h"

/* Byte offset of chunk i when n bytes are cut into chunks of cs. */
static size_t chunk_off(size_t i, size_t cs, size_t n)
{
    return i * cs < n ? i * cs : n;
}

static int scatter_ring(rd_comm_t *c, char *buf, size_t n, int root)
{
    int size = c->size, rel = (c->rank - root + size) % size, rc, trunc = 0;
    int mask = rd_coll_tree_mask(rel, size);
    size_t cs = (n + (size_t)size - 1) / (size_t)size;
    /* Binomial scatter: relative rank rel receives chunks [rel, rel + mask). */
    if (rel) {
        int hi = rel + mask < size ? rel + mask : size;
        size_t lo_b = chunk_off((size_t)rel, cs, n), hi_b = chunk_off((size_t)hi, cs, n);
        if (hi_b > lo_b) {
            rc = rd_coll_trunc(rd_coll_recv(c, buf + lo_b, hi_b - lo_b, &rd_dt_bytes,
                                            (rel - mask + root) % size, RD_TAG_BCAST_SCATTER),
                               &trunc);
            if (rc != RD_OK)
                return rc;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int child = rel + mask;
        if (child >= size)
            continue;
        int hi = child + mask < size ? child + mask : size;
        size_t lo_b = chunk_off((size_t)child, cs, n), hi_b = chunk_off((size_t)hi, cs, n);
        if (hi_b > lo_b) {
            rc = rd_coll_send_after(c, buf + lo_b, hi_b - lo_b, &rd_dt_bytes,
                                    (child + root) % size, RD_TAG_BCAST_SCATTER, trunc);
            if (rc != RD_OK)
                return rc;
        }
    }
    /* Ring allgather of the chunks, in relative rank order. */
    int right = (c->rank + 1) % size, left = (c->rank - 1 + size) % size;
    for (int s = 0; s < size - 1; s++) {
        size_t sj = (size_t)((rel - s + size) % size), rj = (size_t)((rel - s - 1 + size) % size);
        size_t so = chunk_off(sj, cs, n), sl = chunk_off(sj + 1, cs, n) - so;
        size_t ro = chunk_off(rj, cs, n), rl = chunk_off(rj + 1, cs, n) - ro;
        rd_request_t *r[2] = { NULL, NULL };
        rc = RD_OK;
        if (rl)
            rc = rd_coll_irecv(c, buf + ro, rl, &rd_dt_bytes, left, RD_TAG_BCAST_RING, &r[0]);
        if (rc == RD_OK && sl && !trunc)
            rc = rd_coll_isend(c, buf + so, sl, &rd_dt_bytes, right, RD_TAG_BCAST_RING, &r[1]);
        else if (rc == RD_OK && sl)
            rc = rd_coll_send_after(c, buf + so, sl, &rd_dt_bytes, right, RD_TAG_BCAST_RING, 1);
        int rc2 = rd_coll_trunc(rd_coll_wait(r[0]), &trunc), rc3 = rd_coll_wait(r[1]);
        if (rc != RD_OK || rc2 != RD_OK || rc3 != RD_OK)
            return rc != RD_OK ? rc : rc2 != RD_OK ? rc2 : rc3;
    }
    return rd_coll_trunc_end(RD_OK, trunc);
}

int rd_coll_bcast_bytes(rd_comm_t *c, void *buf, size_t n, int root)
{
    rd_coll_run_t run;
    rd_coll_run_init(&run, c, RD_TAG_BCAST_BYTES);
    rd_coll_steps_bcast(&run.steps, buf, n, &rd_dt_bytes, root);
    return rd_coll_run_end(&run);
}

int rd_coll_bcast(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int root)
{
    size_t n = count * dt->size;
    if (c->size == 1 || n == 0)
        return RD_OK;
    int rc = rd_coll_shm_bcast(c, buf, count, dt, root);
    if (rc != RD_ENOTSUP)
        return rc;
    const rd_coll_tune_t *t = rd_coll_tune();
    int contig = rd_dt_is_contig(dt, count);
    char *bytes = contig ? rd_dt_contig_ptr(buf, dt) : rd_scratch_get(n);
    if (!bytes)
        return RD_ENOMEM;
    if (!contig && c->rank == root)
        rd_dt_pack(buf, count, dt, 0, bytes, n);
    if (n >= t->bcast_scatter_min && c->size >= t->bcast_scatter_min_procs)
        rc = scatter_ring(c, bytes, n, root);
    else
        rc = rd_coll_bcast_bytes(c, bytes, n, root);
    if (!contig) {
        if ((rc == RD_OK || rc == RD_ETRUNC) && c->rank != root)
            rd_dt_unpack(buf, count, dt, 0, bytes, n);
        rd_scratch_put(bytes);
    }
    return rc;
}
