/*
 * Neighbourhood collectives (MPI-3.1 sections 7.6 and 7.7): MPI_Neighbor_*
 * and MPI_Ineighbor_* (allgather(v), alltoall(v/w)) with their _c forms, and
 * MPI_Ialltoallw (+_c), which is the same exchange with every rank of the
 * communicator as a neighbour.
 *
 * Each call builds one schedule round (coll/nbc.h): a receive of block i
 * from the i-th source and a send of block j to the j-th destination; the
 * blocking forms wait for it. Neighbours are in the standard's order:
 * cartesian, for each dimension the -1 then the +1 neighbour (MPI_PROC_NULL
 * past a non-periodic border: that block does not move); graph, the node's
 * edges; distributed graph, the sources and destinations as given.
 *
 * On a periodic dimension of 1 or 2 ranks both neighbours are the same rank,
 * so two messages of one schedule travel between the same pair, and the one
 * sent towards -1 must land in the receiver's +1 block. Messages between one
 * pair match in posting order, so the receives of each dimension are posted
 * +1 first while the sends go -1 first.
 *
 * The _c forms take counts and displacements that fit an int (the schedule
 * builders' arrays are int) and fail with MPI_ERR_COUNT beyond.
 */
#include "api/neighbor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/narrow.h"
#include "api/topo.h"
#include "coll/nbc.h"

/* ---- the neighbours ---- */

int rd_api_nbr_comm(MPI_Comm comm, rd_comm_t **c, int *indeg, int *outdeg, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)))
        return err;
    const rd_api_topo_t *t = (*c)->topo_data;
    int r = (*c)->rank;
    switch ((*c)->topo) {
    case MPI_CART:
        *indeg = *outdeg = 2 * t->a;
        return MPI_SUCCESS;
    case MPI_GRAPH:
        *indeg = *outdeg = t->v[r] - (r ? t->v[r - 1] : 0);
        return MPI_SUCCESS;
    case MPI_DIST_GRAPH:
        *indeg = t->a;
        *outdeg = t->b;
        return MPI_SUCCESS;
    default:
        return rd_api_error(*c, MPI_ERR_TOPOLOGY, fn, "the communicator has no topology");
    }
}

/* The ranks c's rank receives from (srcs) and sends to (dsts), in the
 * standard's order. */
static void nbr_lists(const rd_comm_t *c, int *srcs, int *dsts)
{
    const rd_api_topo_t *t = c->topo_data;
    int r = c->rank;
    if (c->topo == MPI_CART) {
        int nd = t->a;
        const int *dims = t->v, *periods = t->v + nd;
        int stride = 1;
        for (int d = nd - 1; d >= 0; stride *= dims[d], d--) {
            int coord = (r / stride) % dims[d];
            for (int k = 0; k < 2; k++) {
                int x = coord + (k ? 1 : -1);
                if (periods[d])
                    x = (x + dims[d]) % dims[d];
                int peer = x < 0 || x >= dims[d] ? MPI_PROC_NULL : r + (x - coord) * stride;
                srcs[2 * d + k] = dsts[2 * d + k] = peer;
            }
        }
    } else if (c->topo == MPI_GRAPH) {
        int first = r ? t->v[r - 1] : 0, n = t->v[r] - first;
        memcpy(srcs, t->v + t->a + first, (size_t)n * sizeof(int));
        memcpy(dsts, srcs, (size_t)n * sizeof(int));
    } else {
        memcpy(srcs, t->v, (size_t)t->a * sizeof(int));
        memcpy(dsts, t->v + 2 * (size_t)t->a, (size_t)t->b * sizeof(int));
    }
}

/* ---- one exchange ---- */

/* One side of an exchange: where block i lies and what it holds. */
typedef struct side {
    const void *buf;
    int count;                  /* every block: count elements of dt */
    rd_datatype_t *dt;
    const int *counts, *displs; /* v: per block, displacements in extents of dt */
    const MPI_Aint *bdispls;    /* w: byte displacements and a type per block */
    rd_datatype_t **dts;
    int same;                   /* every block is the whole buffer (allgather's send) */
} side_t;

static void *block_at(const side_t *sd, int i, size_t *count, rd_datatype_t **dt)
{
    uintptr_t b = (uintptr_t)sd->buf;
    if (sd->dts) {
        *count = (size_t)sd->counts[i];
        *dt = sd->dts[i];
        return (void *)(b + (uintptr_t)sd->bdispls[i]);
    }
    *dt = sd->dt;
    ptrdiff_t ext = rd_dt_extent(sd->dt);
    if (sd->counts) {
        *count = (size_t)sd->counts[i];
        return (void *)(b + (uintptr_t)((ptrdiff_t)sd->displs[i] * ext));
    }
    *count = (size_t)sd->count;
    return sd->same ? (void *)b : (void *)(b + (uintptr_t)((ptrdiff_t)i * sd->count * ext));
}

/* What the caller gave for one side: either (count, type), or counts and
 * displacements with one type (v), or counts, byte displacements and types
 * (w). */
typedef struct given {
    const void *buf;
    int count;
    MPI_Datatype type;
    const int *counts, *displs;
    const MPI_Aint *bdispls;
    const MPI_Datatype *types;
    int v;                     /* counts (and displacements) per block */
    int same;                  /* every block is the whole buffer */
} given_t;

/* Checks one side of n blocks and fills sd; a w side gets its types in
 * *dts (malloc'd, the caller frees it). A w side's buffer may be MPI_BOTTOM
 * whatever its types: its byte displacements may be addresses. */
static int check_side(rd_comm_t *c, const given_t *g, int n, side_t *sd, rd_datatype_t ***dts,
                      const char *what, const char *fn)
{
    int err;
    memset(sd, 0, sizeof(*sd));
    sd->buf = g->buf;
    if (!g->v) {
        if ((err = rd_api_check_data(c, g->buf, g->count, g->type, &sd->dt, fn)))
            return err;
        sd->count = g->count;
        sd->same = g->same;
        return MPI_SUCCESS;
    }
    if (n > 0 && (!g->counts || (!g->displs && !g->bdispls) || (g->bdispls && !g->types)))
        return rd_api_error(c, MPI_ERR_ARG, fn, "%s counts, displacements or types array is NULL",
                            what);
    if (!g->types && (err = rd_api_check_dt(c, g->type, &sd->dt, fn)))
        return err;
    if (g->types && !(*dts = malloc(((size_t)n + 1) * sizeof(rd_datatype_t *))))
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for the datatypes");
    for (int i = 0; i < n; i++) {
        rd_datatype_t *dt = sd->dt;
        if ((err = rd_api_check_count(c, g->counts[i], fn)) ||
            (g->types && ((err = rd_api_check_dt(c, g->types[i], &dt, fn)) ||
                          (err = rd_api_check_wblock(c, i, g->counts[i], dt, g->bdispls[i],
                                                     what, fn)))) ||
            (!g->types && (err = rd_api_check_buf(c, g->buf, g->counts[i], dt, fn))))
            return err;
        if (g->types)
            (*dts)[i] = dt;
    }
    sd->counts = g->counts;
    sd->displs = g->displs;
    sd->bdispls = g->bdispls;
    sd->dts = g->types ? *dts : NULL;
    return MPI_SUCCESS;
}

/* Lock held. Starts s (consumed either way) under a new request. Returns an
 * internal status. */
static int launch(rd_comm_t *c, rd_nbc_t *s, MPI_Request *request)
{
    rd_request_t *r = rd_req_new(RD_REQ_NBC);
    if (!r) {
        rd_nbc_free(s);
        return RD_ENOMEM;
    }
    r->comm = c;
    r->peer = MPI_PROC_NULL;
    r->st_source = MPI_ANY_SOURCE;
    r->st_tag = MPI_ANY_TAG;
    int rc = rd_nbc_start(s, r);
    if (rc != RD_OK) {
        rd_req_free(r);
        return rc;
    }
    *request = r->handle;
    return RD_OK;
}

/* In place (MPI_Ialltoallw): the receive blocks are packed into scratch in a
 * first round, and the send side becomes that scratch as bytes. */
static void stage_in_place(rd_nbc_t *s, const side_t *rcv, int n, side_t *snd)
{
    int *counts = rd_nbc_tmp(s, (size_t)n * sizeof(int));
    MPI_Aint *displs = rd_nbc_tmp(s, (size_t)n * sizeof(MPI_Aint));
    rd_datatype_t **dts = rd_nbc_tmp(s, (size_t)n * sizeof(rd_datatype_t *));
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        size_t cnt;
        rd_datatype_t *dt;
        block_at(rcv, i, &cnt, &dt);
        total += cnt * dt->size;
    }
    char *tmp = rd_nbc_tmp(s, total ? total : 1);
    if (!counts || !displs || !dts || !tmp)
        return; /* rd_nbc_start reports the ENOMEM */
    rd_datatype_t *byte = rd_api_dt(MPI_BYTE);
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        size_t cnt;
        rd_datatype_t *dt;
        void *b = block_at(rcv, i, &cnt, &dt);
        counts[i] = (int)(cnt * dt->size);
        displs[i] = (MPI_Aint)off;
        dts[i] = byte;
        rd_nbc_copy(s, b, cnt, dt, tmp + off, cnt * dt->size, byte);
        off += cnt * dt->size;
    }
    rd_nbc_fence(s);
    *snd = (side_t){ .buf = tmp, .counts = counts, .bdispls = displs, .dts = dts };
}

/* Checks both sides, builds the round and starts it. srcs / dsts: the
 * neighbours; cart: receives are posted +1 first in each dimension. */
static int exchange(rd_comm_t *c, const int *srcs, int indeg, const int *dsts, int outdeg,
                    int cart, const given_t *gs, const given_t *gr, MPI_Request *request,
                    const char *fn)
{
    side_t snd, rcv;
    rd_datatype_t **sdts = NULL, **rdts = NULL;
    int in_place = gs->buf == MPI_IN_PLACE, err;
    if ((!in_place && (err = check_side(c, gs, outdeg, &snd, &sdts, "send", fn))) ||
        (err = check_side(c, gr, indeg, &rcv, &rdts, "receive", fn)))
        goto out;
    rd_api_lock();
    rd_nbc_t *s = rd_nbc_new(c);
    int rc = RD_ENOMEM;
    if (s) {
        if (in_place)
            stage_in_place(s, &rcv, indeg, &snd);
        for (int k = 0; k < indeg; k++) {
            int i = cart ? k ^ 1 : k;
            size_t n;
            rd_datatype_t *dt;
            void *b = block_at(&rcv, i, &n, &dt);
            if (srcs[i] != MPI_PROC_NULL)
                rd_nbc_recv(s, b, n, dt, srcs[i]);
        }
        for (int j = 0; j < outdeg; j++) {
            size_t n;
            rd_datatype_t *dt;
            void *b = block_at(&snd, j, &n, &dt);
            if (dsts[j] != MPI_PROC_NULL)
                rd_nbc_send(s, b, n, dt, dsts[j]);
        }
        rc = launch(c, s, request);
    }
    rd_api_unlock();
    err = rc == RD_OK ? MPI_SUCCESS : rd_api_status_error(c, rc, fn);
out:
    free(sdts);
    free(rdts);
    return err;
}

/* A neighbourhood collective on comm; waits for it when blocking. */
static int neighbor(MPI_Comm comm, const given_t *gs, const given_t *gr, MPI_Request *request,
                    const char *fn)
{
    rd_comm_t *c;
    int indeg, outdeg, err;
    if ((err = rd_api_nbr_comm(comm, &c, &indeg, &outdeg, fn)))
        return err;
    MPI_Request local, *req = request ? request : &local;
    if (gs->buf == MPI_IN_PLACE || gr->buf == MPI_IN_PLACE)
        return rd_api_error(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed here");
    int *lists = malloc(((size_t)indeg + (size_t)outdeg + 1) * sizeof(int));
    if (!lists)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for the neighbour lists");
    nbr_lists(c, lists, lists + indeg);
    err = exchange(c, lists, indeg, lists + indeg, outdeg, c->topo == MPI_CART, gs, gr, req, fn);
    free(lists);
    if (err == MPI_SUCCESS && !request)
        err = PMPI_Wait(req, MPI_STATUS_IGNORE);
    return err;
}

static int check_request(MPI_Comm comm, MPI_Request *request, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (request)
        return MPI_SUCCESS;
    return rd_api_error(rd_api_comm(comm), MPI_ERR_ARG, fn, "request pointer is NULL");
}

/* ---- the entry points; a NULL request means the blocking form ---- */

static int allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                     const int *rcounts, const int *displs, int rcount, MPI_Datatype rtype,
                     MPI_Comm comm, MPI_Request *request, int v, const char *fn)
{
    given_t gs = { .buf = sbuf, .count = scount, .type = stype, .same = 1 };
    given_t gr = { .buf = rbuf, .count = rcount, .type = rtype, .counts = rcounts,
                   .displs = displs, .v = v };
    return neighbor(comm, &gs, &gr, request, fn);
}

static int alltoall(const void *sbuf, const int *scounts, const int *sdispls, int scount,
                    MPI_Datatype stype, void *rbuf, const int *rcounts, const int *rdispls,
                    int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request, int v,
                    const char *fn)
{
    given_t gs = { .buf = sbuf, .count = scount, .type = stype, .counts = scounts,
                   .displs = sdispls, .v = v };
    given_t gr = { .buf = rbuf, .count = rcount, .type = rtype, .counts = rcounts,
                   .displs = rdispls, .v = v };
    return neighbor(comm, &gs, &gr, request, fn);
}

static int alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                     const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                     const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm,
                     MPI_Request *request, const char *fn)
{
    given_t gs = { .buf = sbuf, .counts = scounts, .bdispls = sdispls, .types = stypes, .v = 1 };
    given_t gr = { .buf = rbuf, .counts = rcounts, .bdispls = rdispls, .types = rtypes, .v = 1 };
    return neighbor(comm, &gs, &gr, request, fn);
}

/* The _c forms: counts and displacements narrowed to int, then as above. */
static int allgather_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype, void *rbuf,
                       const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Count rcount,
                       MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request, int v,
                       const char *fn)
{
    rd_comm_t *c;
    int in, out, sc, rc = 0, *rcs = NULL, *ds = NULL, err;
    if ((err = rd_api_nbr_comm(comm, &c, &in, &out, fn)) ||
        (err = rd_api_narrow(comm, scount, &sc, fn)) ||
        (!v && (err = rd_api_narrow(comm, rcount, &rc, fn))) ||
        (err = rd_api_narrow_array(comm, v ? rcounts : NULL, in, &rcs, fn)) ||
        (err = rd_api_narrow_array(comm, v ? displs : NULL, in, &ds, fn)))
        goto out;
    err = allgather(sbuf, sc, stype, rbuf, v ? rcs : NULL, v ? ds : NULL, rc, rtype, comm,
                    request, v, fn);
out:
    free(rcs);
    free(ds);
    return err;
}

static int alltoall_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                      MPI_Count scount, MPI_Datatype stype, void *rbuf, const MPI_Count *rcounts,
                      const MPI_Aint *rdispls, MPI_Count rcount, MPI_Datatype rtype,
                      MPI_Comm comm, MPI_Request *request, int v, const char *fn)
{
    rd_comm_t *c;
    int in, out, sc = 0, rc = 0, *scs = NULL, *sds = NULL, *rcs = NULL, *rds = NULL, err;
    if ((err = rd_api_nbr_comm(comm, &c, &in, &out, fn)) ||
        (!v && (err = rd_api_narrow(comm, scount, &sc, fn))) ||
        (!v && (err = rd_api_narrow(comm, rcount, &rc, fn))) ||
        (err = rd_api_narrow_array(comm, v ? scounts : NULL, out, &scs, fn)) ||
        (err = rd_api_narrow_array(comm, v ? sdispls : NULL, out, &sds, fn)) ||
        (err = rd_api_narrow_array(comm, v ? rcounts : NULL, in, &rcs, fn)) ||
        (err = rd_api_narrow_array(comm, v ? rdispls : NULL, in, &rds, fn)))
        goto out;
    err = alltoall(sbuf, scs, sds, sc, stype, rbuf, rcs, rds, rc, rtype, comm, request, v, fn);
out:
    free(scs);
    free(sds);
    free(rcs);
    free(rds);
    return err;
}

static int alltoallw_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                       const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts,
                       const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm,
                       MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    int in, out, *scs = NULL, *rcs = NULL, err;
    if ((err = rd_api_nbr_comm(comm, &c, &in, &out, fn)) ||
        (err = rd_api_narrow_array(comm, scounts, out, &scs, fn)) ||
        (err = rd_api_narrow_array(comm, rcounts, in, &rcs, fn)))
        goto out;
    err = alltoallw(sbuf, scs, sdispls, stypes, rbuf, rcs, rdispls, rtypes, comm, request, fn);
out:
    free(scs);
    free(rcs);
    return err;
}

RD_WEAK_ALIAS(MPI_Neighbor_allgather)
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, NULL, NULL, recvcount, recvtype, comm,
                     NULL, 0, "MPI_Neighbor_allgather");
}

RD_WEAK_ALIAS(MPI_Neighbor_allgather_c)
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    return allgather_c(sendbuf, sendcount, sendtype, recvbuf, NULL, NULL, recvcount, recvtype,
                       comm, NULL, 0, "MPI_Neighbor_allgather_c");
}

RD_WEAK_ALIAS(MPI_Ineighbor_allgather)
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_allgather";
    int err = check_request(comm, request, fn);
    return err ? err
               : allgather(sendbuf, sendcount, sendtype, recvbuf, NULL, NULL, recvcount,
                           recvtype, comm, request, 0, fn);
}

RD_WEAK_ALIAS(MPI_Ineighbor_allgather_c)
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_allgather_c";
    int err = check_request(comm, request, fn);
    return err ? err
               : allgather_c(sendbuf, sendcount, sendtype, recvbuf, NULL, NULL, recvcount,
                             recvtype, comm, request, 0, fn);
}

RD_WEAK_ALIAS(MPI_Neighbor_allgatherv)
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0, recvtype,
                     comm, NULL, 1, "MPI_Neighbor_allgatherv");
}

RD_WEAK_ALIAS(MPI_Neighbor_allgatherv_c)
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0, recvtype,
                       comm, NULL, 1, "MPI_Neighbor_allgatherv_c");
}

RD_WEAK_ALIAS(MPI_Ineighbor_allgatherv)
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_allgatherv";
    int err = check_request(comm, request, fn);
    return err ? err
               : allgather(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0,
                           recvtype, comm, request, 1, fn);
}

RD_WEAK_ALIAS(MPI_Ineighbor_allgatherv_c)
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_allgatherv_c";
    int err = check_request(comm, request, fn);
    return err ? err
               : allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0,
                             recvtype, comm, request, 1, fn);
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoall)
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall(sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL, recvcount,
                    recvtype, comm, NULL, 0, "MPI_Neighbor_alltoall");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoall_c)
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    return alltoall_c(sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL, recvcount,
                      recvtype, comm, NULL, 0, "MPI_Neighbor_alltoall_c");
}

RD_WEAK_ALIAS(MPI_Ineighbor_alltoall)
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_alltoall";
    int err = check_request(comm, request, fn);
    return err ? err
               : alltoall(sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                          recvcount, recvtype, comm, request, 0, fn);
}

RD_WEAK_ALIAS(MPI_Ineighbor_alltoall_c)
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_alltoall_c";
    int err = check_request(comm, request, fn);
    return err ? err
               : alltoall_c(sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                            recvcount, recvtype, comm, request, 0, fn);
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallv)
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall(sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts, rdispls, 0,
                    recvtype, comm, NULL, 1, "MPI_Neighbor_alltoallv");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallv_c)
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_c(sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts, rdispls, 0,
                      recvtype, comm, NULL, 1, "MPI_Neighbor_alltoallv_c");
}

RD_WEAK_ALIAS(MPI_Ineighbor_alltoallv)
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_alltoallv";
    int err = check_request(comm, request, fn);
    return err ? err
               : alltoall(sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts,
                          rdispls, 0, recvtype, comm, request, 1, fn);
}

RD_WEAK_ALIAS(MPI_Ineighbor_alltoallv_c)
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_alltoallv_c";
    int err = check_request(comm, request, fn);
    return err ? err
               : alltoall_c(sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts,
                            rdispls, 0, recvtype, comm, request, 1, fn);
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallw)
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, NULL, "MPI_Neighbor_alltoallw");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallw_c)
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                              MPI_Comm comm)
{
    return alltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                       recvtypes, comm, NULL, "MPI_Neighbor_alltoallw_c");
}

RD_WEAK_ALIAS(MPI_Ineighbor_alltoallw)
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_alltoallw";
    int err = check_request(comm, request, fn);
    return err ? err
               : alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                           rdispls, recvtypes, comm, request, fn);
}

RD_WEAK_ALIAS(MPI_Ineighbor_alltoallw_c)
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ineighbor_alltoallw_c";
    int err = check_request(comm, request, fn);
    return err ? err
               : alltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                             rdispls, recvtypes, comm, request, fn);
}

/* ---- MPI_Ialltoallw: every rank of the communicator is a neighbour ---- */

static int ialltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                      const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                      const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm,
                      MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    int err;
    if ((err = check_request(comm, request, fn)) ||
        (err = rd_api_check_coll_comm(comm, &c, fn)))
        return err;
    if (rbuf == MPI_IN_PLACE)
        return rd_api_error(c, MPI_ERR_BUFFER, fn, "recvbuf cannot be MPI_IN_PLACE");
    if (sbuf == MPI_IN_PLACE && c->rgroup)
        return rd_api_error(c, MPI_ERR_BUFFER, fn,
                            "MPI_IN_PLACE is not allowed on an intercommunicator");
    int n = rd_comm_remote_size(c);
    int *peers = malloc(((size_t)n + 1) * sizeof(int));
    if (!peers)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for the schedule");
    for (int i = 0; i < n; i++)
        peers[i] = i;
    given_t gs = { .buf = sbuf, .counts = scounts, .bdispls = sdispls, .types = stypes, .v = 1 };
    given_t gr = { .buf = rbuf, .counts = rcounts, .bdispls = rdispls, .types = rtypes, .v = 1 };
    err = exchange(c, peers, n, peers, n, 0, &gs, &gr, request, fn);
    free(peers);
    return err;
}

/* n int byte displacements as MPI_Aint (malloc'd; NULL when d is NULL). */
static MPI_Aint *widen(const int *d, int n)
{
    MPI_Aint *a = d ? malloc(((size_t)n + 1) * sizeof(MPI_Aint)) : NULL;
    for (int i = 0; a && i < n; i++)
        a[i] = d[i];
    return a;
}

RD_WEAK_ALIAS(MPI_Ialltoallw)
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    static const char fn[] = "MPI_Ialltoallw";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    int n = rd_comm_remote_size(c);
    MPI_Aint *sd = widen(sendbuf == MPI_IN_PLACE ? NULL : sdispls, n), *rd = widen(rdispls, n);
    if ((!sd && sdispls && sendbuf != MPI_IN_PLACE) || (!rd && rdispls))
        err = rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for the displacements");
    else
        err = ialltoallw(sendbuf, sendcounts, sd, sendtypes, recvbuf, recvcounts, rd, recvtypes,
                         comm, request, fn);
    free(sd);
    free(rd);
    return err;
}

RD_WEAK_ALIAS(MPI_Ialltoallw_c)
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request)
{
    static const char fn[] = "MPI_Ialltoallw_c";
    rd_comm_t *c;
    int *scs = NULL, *rcs = NULL, err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    int n = rd_comm_remote_size(c);
    if (!(err = rd_api_narrow_array(comm, sendbuf == MPI_IN_PLACE ? NULL : sendcounts, n, &scs,
                                    fn)) &&
        !(err = rd_api_narrow_array(comm, recvcounts, n, &rcs, fn)))
        err = ialltoallw(sendbuf, scs, sdispls, sendtypes, recvbuf, rcs, rdispls, recvtypes, comm,
                         request, fn);
    free(scs);
    free(rcs);
    return err;
}
