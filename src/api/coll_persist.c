/*
 * Persistent collectives (MPI-4.0 section 5.13): MPI_Barrier_init ...
 * MPI_Exscan_init and the persistent neighbourhood collectives
 * MPI_Neighbor_*_init; their _c forms are in coll_persist_c.c.
 *
 * The init call checks what it can without the data moving (communicator,
 * root, counts, datatypes, operation, info) and records the arguments in a
 * request of kind RD_REQ_PERSIST_COLL, which is inactive; the count,
 * displacement and datatype arrays are copied into the same allocation (the
 * request's tmp, freed with it). Each MPI_Start runs the matching
 * nonblocking collective on them (its own checks see the buffers) under a
 * schedule tag taken at init: persistent collectives match in the order of
 * their init calls, whatever the order of their starts (MPI-4.0 5.13). Its
 * request becomes the persistent one's inner request, so Wait and Test
 * complete it as they complete a persistent point-to-point request and the
 * request stays allocated, inactive, until MPI_Request_free. Freeing it
 * while active is an error (wait.c). The request holds references on the
 * datatypes and the operation it records until then: the user may free
 * them between the init call and the request's last start.
 */
#include "api/coll_persist.h"

#include <stdlib.h>
#include <string.h>

#include "api/narrow.h"
#include "api/neighbor.h"
#include "api/op.h"
#include "coll/nbc.h"

/* Which arguments a kind uses: the send side (count and type), the receive
 * side, each 1 everywhere or 2 at the root only; a root; an operation;
 * per-rank arrays on the send side (sv), the receive side (rv), with
 * datatypes (w); a neighbourhood collective. */
static const struct {
    unsigned char send, recv, root, op, sv, rv, w, nbr;
} uses[] = {
    [RD_PC_BARRIER] = { 0 },
    [RD_PC_BCAST] = { .recv = 1, .root = 1 },
    [RD_PC_GATHER] = { .send = 1, .recv = 2, .root = 1 },
    [RD_PC_GATHERV] = { .send = 1, .recv = 2, .root = 1, .rv = 1 },
    [RD_PC_SCATTER] = { .send = 2, .recv = 1, .root = 1 },
    [RD_PC_SCATTERV] = { .send = 2, .recv = 1, .root = 1, .sv = 1 },
    [RD_PC_ALLGATHER] = { .send = 1, .recv = 1 },
    [RD_PC_ALLGATHERV] = { .send = 1, .recv = 1, .rv = 1 },
    [RD_PC_ALLTOALL] = { .send = 1, .recv = 1 },
    [RD_PC_ALLTOALLV] = { .send = 1, .recv = 1, .sv = 1, .rv = 1 },
    [RD_PC_ALLTOALLW] = { .send = 1, .recv = 1, .sv = 1, .rv = 1, .w = 1 },
    [RD_PC_REDUCE] = { .recv = 1, .root = 1, .op = 1 },
    [RD_PC_ALLREDUCE] = { .recv = 1, .op = 1 },
    [RD_PC_REDSCAT] = { .recv = 1, .op = 1, .rv = 1 },
    [RD_PC_REDSCAT_BLOCK] = { .recv = 1, .op = 1 },
    [RD_PC_SCAN] = { .recv = 1, .op = 1 },
    [RD_PC_EXSCAN] = { .recv = 1, .op = 1 },
    [RD_PC_NB_ALLGATHER] = { .send = 1, .recv = 1, .nbr = 1 },
    [RD_PC_NB_ALLGATHERV] = { .send = 1, .recv = 1, .rv = 1, .nbr = 1 },
    [RD_PC_NB_ALLTOALL] = { .send = 1, .recv = 1, .nbr = 1 },
    [RD_PC_NB_ALLTOALLV] = { .send = 1, .recv = 1, .sv = 1, .rv = 1, .nbr = 1 },
    [RD_PC_NB_ALLTOALLW] = { .send = 1, .recv = 1, .sv = 1, .rv = 1, .w = 1, .nbr = 1 },
};

/* ---- recording ---- */

/* With cur NULL, adds the room n elements of size el need to *bytes;
 * else copies them from *p to *cur, points *p at the copy and moves on. */
static void place(const void **p, size_t n, size_t el, char **cur, size_t *bytes)
{
    size_t len = (n * el + 7) & ~(size_t)7;
    if (!*p)
        return;
    if (!cur) {
        *bytes += len;
        return;
    }
    memcpy(*cur, *p, n * el);
    *p = *cur;
    *cur += len;
}

static void place_all(rd_api_pcoll_t *a, int ns, int nr, char **cur, size_t *bytes)
{
    size_t dsz = uses[a->kind].nbr && uses[a->kind].w ? sizeof(MPI_Aint) : sizeof(int);
    place(&a->scounts, (size_t)ns, sizeof(int), cur, bytes);
    place(&a->sdispls, (size_t)ns, dsz, cur, bytes);
    place(&a->stypes, (size_t)ns, sizeof(MPI_Datatype), cur, bytes);
    place(&a->rcounts, (size_t)nr, sizeof(int), cur, bytes);
    place(&a->rdispls, (size_t)nr, dsz, cur, bytes);
    place(&a->rtypes, (size_t)nr, sizeof(MPI_Datatype), cur, bytes);
}

/* One side's arrays of n entries: present, no negative count, valid types. */
static int check_arrays(rd_comm_t *c, const int *counts, const void *displs,
                        const MPI_Datatype *types, int n, int w, const char *what, const char *fn)
{
    int err;
    if (n > 0 && (!counts || !displs || (w && !types)))
        return rd_api_error(c, MPI_ERR_ARG, fn, "%s counts, displacements or types array is NULL",
                            what);
    for (int i = 0; i < n; i++) {
        rd_datatype_t *dt;
        if ((err = rd_api_check_count(c, counts[i], fn)) ||
            (w && (err = rd_api_check_dt(c, types[i], &dt, fn))))
            return err;
    }
    return MPI_SUCCESS;
}

/* The communicator (*c; a neighbourhood collective's degrees) and root. */
static int get_comm(const rd_api_pcoll_t *a, rd_comm_t **c, int *indeg, int *outdeg, const char *fn)
{
    int err;
    *indeg = *outdeg = 0;
    if (uses[a->kind].nbr)
        err = rd_api_nbr_comm(a->comm, c, indeg, outdeg, fn);
    else
        err = rd_api_check_coll_comm(a->comm, c, fn);
    if (!err && uses[a->kind].root)
        err = rd_api_check_root(*c, a->root, fn);
    return err;
}

/* Whether a uses its send / receive side at this rank, and the lengths of
 * the arrays of each side (0 where it has none). */
static void sides(const rd_api_pcoll_t *a, const rd_comm_t *c, int indeg, int outdeg, int *send,
                  int *recv, int *ns, int *nr)
{
    int at_root = c->rgroup ? a->root == MPI_ROOT : c->rank == a->root;
    *send = uses[a->kind].send == 1 || (uses[a->kind].send == 2 && at_root);
    *recv = uses[a->kind].recv == 1 || (uses[a->kind].recv == 2 && at_root);
    *send = *send && a->sbuf != MPI_IN_PLACE;
    *recv = *recv && a->rbuf != MPI_IN_PLACE;
    int n = rd_comm_remote_size(c);
    *ns = !*send || !uses[a->kind].sv ? 0 : uses[a->kind].nbr ? outdeg : n;
    *nr = !*recv || !uses[a->kind].rv ? 0
          : uses[a->kind].nbr         ? indeg
          : a->kind == RD_PC_REDSCAT     ? c->size
                                      : n;
}

/* The checks of the arguments a kind uses; *ns / *nr the lengths of its
 * send / receive arrays, whose unused pointers are set to NULL. */
static int check(rd_api_pcoll_t *a, rd_comm_t **cp, int *ns, int *nr, const char *fn)
{
    int err, indeg, outdeg, send, recv;
    rd_datatype_t *dt;
    rd_op_t *o;
    if ((err = get_comm(a, cp, &indeg, &outdeg, fn)))
        return err;
    rd_comm_t *c = *cp;
    sides(a, c, indeg, outdeg, &send, &recv, ns, nr);
    if (!*ns)
        a->scounts = a->sdispls = a->stypes = NULL;
    if (!*nr)
        a->rcounts = a->rdispls = a->rtypes = NULL;
    a->ns = *ns;
    a->nr = *nr;
    a->held_stype = send && !uses[a->kind].w;
    a->held_rtype = (recv && !uses[a->kind].w) || uses[a->kind].op;
    a->held_op = uses[a->kind].op;
    if (a->kind == RD_PC_REDSCAT) {
        a->rdispls = NULL;
        if (!a->rcounts)
            return rd_api_error(c, MPI_ERR_ARG, fn, "recvcounts array is NULL");
        for (int i = 0; i < *nr; i++)
            if ((err = rd_api_check_count(c, ((const int *)a->rcounts)[i], fn)))
                return err;
        if ((err = rd_api_check_dt(c, a->rtype, &dt, fn)))
            return err;
        return rd_api_check_op(c, a->op, dt, &o, fn);
    }
    if (*ns && (err = check_arrays(c, a->scounts, a->sdispls, a->stypes, *ns, uses[a->kind].w,
                                   "send", fn)))
        return err;
    if (*nr && (err = check_arrays(c, a->rcounts, a->rdispls, a->rtypes, *nr, uses[a->kind].w,
                                   "receive", fn)))
        return err;
    if (send && !uses[a->kind].w &&
        ((!*ns && (err = rd_api_check_count(c, a->scount, fn))) ||
         (err = rd_api_check_dt(c, a->stype, &dt, fn))))
        return err;
    if (recv && !uses[a->kind].w &&
        ((!*nr && (err = rd_api_check_count(c, a->rcount, fn))) ||
         (err = rd_api_check_dt(c, a->rtype, &dt, fn))))
        return err;
    if (uses[a->kind].op &&
        ((err = rd_api_check_dt(c, a->rtype, &dt, fn)) ||
         (err = rd_api_check_op(c, a->op, dt, &o, fn))))
        return err;
    return MPI_SUCCESS;
}

/* Lock held. Takes (hold 1) or drops (hold 0) a reference on each datatype
 * and the operation the checks of a accepted: MPI_Type_free and MPI_Op_free
 * then leave their handles valid for the starts. */
static void hold_objects(const rd_api_pcoll_t *a, int hold)
{
    MPI_Datatype t[2] = { a->held_stype ? a->stype : MPI_DATATYPE_NULL,
                          a->held_rtype ? a->rtype : MPI_DATATYPE_NULL };
    const MPI_Datatype *arr[2] = { a->stypes, a->rtypes };
    int n[2] = { a->ns, a->nr };
    for (int side = 0; side < 2; side++) {
        for (int i = -1; i < (arr[side] ? n[side] : 0); i++) {
            rd_datatype_t *dt = rd_api_dt(i < 0 ? t[side] : arr[side][i]);
            if (dt && hold)
                rd_dt_ref(dt);
            else if (dt)
                rd_dt_release(dt);
        }
    }
    rd_op_t *o = a->held_op ? rd_api_op(a->op) : NULL;
    if (o && hold)
        rd_api_op_ref(o);
    else if (o)
        rd_api_op_release(o);
}

void rd_api_pcoll_free(rd_request_t *p)
{
    if (p->tmp)
        hold_objects(p->tmp, 0);
}

int rd_api_pcoll_init(rd_api_pcoll_t *a, MPI_Info info, MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    int ns, nr, err;
    RD_API_CHECK_INIT(fn);
    if ((err = check(a, &c, &ns, &nr, fn)))
        return err;
    if (!request)
        return rd_api_error(c, MPI_ERR_ARG, fn, "request pointer is NULL");
    if (info != MPI_INFO_NULL && RD_HANDLE_OBJ(info) != RD_OBJ_INFO)
        return rd_api_error(c, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    size_t bytes = sizeof(rd_api_pcoll_t);
    place_all(a, ns, nr, NULL, &bytes);
    rd_api_pcoll_t *rec = malloc(bytes);
    if (!rec)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    *rec = *a;
    char *cur = (char *)(rec + 1);
    place_all(rec, ns, nr, &cur, NULL);
    rd_api_lock();
    int tag = rd_nbc_reserve_tag(c);
    rd_request_t *r = tag < 0 ? NULL : rd_req_new(RD_REQ_PERSIST_COLL);
    if (r) {
        rd_req_hold_comm(r, c);
        r->peer = MPI_PROC_NULL;
        r->tag = tag;
        r->tmp = rec;
        r->done = 1; /* inactive: waits return at once */
        hold_objects(rec, 1);
        *request = r->handle;
    }
    rd_api_unlock();
    if (!r) {
        free(rec);
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    }
    return MPI_SUCCESS;
}

/* ---- starting ---- */

/* The nonblocking collective a records. */
static int run(const rd_api_pcoll_t *a, MPI_Request *h)
{
    switch (a->kind) {
    case RD_PC_BARRIER:
        return PMPI_Ibarrier(a->comm, h);
    case RD_PC_BCAST:
        return PMPI_Ibcast(a->rbuf, a->rcount, a->rtype, a->root, a->comm, h);
    case RD_PC_GATHER:
        return PMPI_Igather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                            a->comm, h);
    case RD_PC_GATHERV:
        return PMPI_Igatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls,
                             a->rtype, a->root, a->comm, h);
    case RD_PC_SCATTER:
        return PMPI_Iscatter(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                             a->comm, h);
    case RD_PC_SCATTERV:
        return PMPI_Iscatterv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcount,
                              a->rtype, a->root, a->comm, h);
    case RD_PC_ALLGATHER:
        return PMPI_Iallgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                               a->comm, h);
    case RD_PC_ALLGATHERV:
        return PMPI_Iallgatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls,
                                a->rtype, a->comm, h);
    case RD_PC_ALLTOALL:
        return PMPI_Ialltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                              a->comm, h);
    case RD_PC_ALLTOALLV:
        return PMPI_Ialltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                               a->rdispls, a->rtype, a->comm, h);
    case RD_PC_ALLTOALLW:
        return PMPI_Ialltoallw(a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf, a->rcounts,
                               a->rdispls, a->rtypes, a->comm, h);
    case RD_PC_REDUCE:
        return PMPI_Ireduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, a->comm, h);
    case RD_PC_ALLREDUCE:
        return PMPI_Iallreduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm, h);
    case RD_PC_REDSCAT:
        return PMPI_Ireduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->rtype, a->op, a->comm, h);
    case RD_PC_REDSCAT_BLOCK:
        return PMPI_Ireduce_scatter_block(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm,
                                          h);
    case RD_PC_SCAN:
        return PMPI_Iscan(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm, h);
    case RD_PC_EXSCAN:
        return PMPI_Iexscan(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm, h);
    case RD_PC_NB_ALLGATHER:
        return PMPI_Ineighbor_allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                        a->rtype, a->comm, h);
    case RD_PC_NB_ALLGATHERV:
        return PMPI_Ineighbor_allgatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts,
                                         a->rdispls, a->rtype, a->comm, h);
    case RD_PC_NB_ALLTOALL:
        return PMPI_Ineighbor_alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount,
                                       a->rtype, a->comm, h);
    case RD_PC_NB_ALLTOALLV:
        return PMPI_Ineighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf,
                                        a->rcounts, a->rdispls, a->rtype, a->comm, h);
    default:
        return PMPI_Ineighbor_alltoallw(a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf,
                                        a->rcounts, a->rdispls, a->rtypes, a->comm, h);
    }
}

int rd_api_pcoll_start(rd_request_t *p, const char *fn)
{
    if (p->inner)
        return rd_api_error(p->comm, MPI_ERR_REQUEST, fn, "request 0x%x is already active",
                            (unsigned)p->handle);
    MPI_Request h = MPI_REQUEST_NULL;
    /* The nonblocking collective takes the lock itself; its schedule gets
     * the tag taken at init, so starts in any order match. */
    rd_api_unlock();
    rd_nbc_use_tag(p->comm, p->tag);
    int err = run(p->tmp, &h);
    rd_nbc_use_tag(p->comm, -1);
    rd_api_lock();
    if (err != MPI_SUCCESS)
        return err;
    p->inner = rd_api_req(h);
    p->done = 0;
    return MPI_SUCCESS;
}

int rd_api_pcoll_init_c(rd_api_pcoll_t *a, const rd_api_pcoll_wide_t *w, MPI_Info info,
                        MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    int indeg, outdeg, send, recv, ns, nr, err;
    int *sc = NULL, *sd = NULL, *rc = NULL, *rd = NULL;
    RD_API_CHECK_INIT(fn);
    if ((err = get_comm(a, &c, &indeg, &outdeg, fn)))
        return err;
    sides(a, c, indeg, outdeg, &send, &recv, &ns, &nr);
    if ((send && !ns && (err = rd_api_narrow(a->comm, w->scount, &a->scount, fn))) ||
        (recv && !nr && (err = rd_api_narrow(a->comm, w->rcount, &a->rcount, fn))) ||
        (err = rd_api_narrow_array(a->comm, w->scounts, ns, &sc, fn)) ||
        (err = rd_api_narrow_array(a->comm, w->sdispls, ns, &sd, fn)) ||
        (err = rd_api_narrow_array(a->comm, w->rcounts, nr, &rc, fn)) ||
        (err = rd_api_narrow_array(a->comm, w->rdispls, nr, &rd, fn)))
        goto out;
    a->scounts = sc;
    a->rcounts = rc;
    if (a->kind != RD_PC_NB_ALLTOALLW) {
        a->sdispls = sd;
        a->rdispls = rd;
    }
    err = rd_api_pcoll_init(a, info, request, fn);
out:
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    return err;
}

/* ---- the entry points ---- */

RD_WEAK_ALIAS(MPI_Barrier_init)
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_BARRIER, .comm = comm };
    return rd_api_pcoll_init(&a, info, request, "MPI_Barrier_init");
}

RD_WEAK_ALIAS(MPI_Bcast_init)
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_BCAST, .comm = comm, .rbuf = buffer, .rcount = count,
                         .rtype = datatype, .root = root };
    return rd_api_pcoll_init(&a, info, request, "MPI_Bcast_init");
}

/* Gather, scatter, allgather, alltoall and their neighbourhood forms: the
 * same (count, type) arguments on both sides. */
static int two_sided(int kind, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request, const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .scount = sendcount,
                         .stype = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype,
                         .root = root };
    return rd_api_pcoll_init(&a, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Gather_init)
int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    return two_sided(RD_PC_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                     comm, info, request, "MPI_Gather_init");
}

RD_WEAK_ALIAS(MPI_Scatter_init)
int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    return two_sided(RD_PC_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     root, comm, info, request, "MPI_Scatter_init");
}

RD_WEAK_ALIAS(MPI_Allgather_init)
int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return two_sided(RD_PC_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                     comm, info, request, "MPI_Allgather_init");
}

RD_WEAK_ALIAS(MPI_Alltoall_init)
int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return two_sided(RD_PC_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                     comm, info, request, "MPI_Alltoall_init");
}

RD_WEAK_ALIAS(MPI_Neighbor_allgather_init)
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return two_sided(RD_PC_NB_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     0, comm, info, request, "MPI_Neighbor_allgather_init");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoall_init)
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return two_sided(RD_PC_NB_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     0, comm, info, request, "MPI_Neighbor_alltoall_init");
}

/* Gatherv, allgatherv and the neighbourhood allgatherv: receive counts and
 * displacements. */
static int gatherv(int kind, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Info info, MPI_Request *request, const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .scount = sendcount,
                         .stype = sendtype, .rbuf = recvbuf, .rcounts = recvcounts,
                         .rdispls = displs, .rtype = recvtype, .root = root };
    return rd_api_pcoll_init(&a, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Gatherv_init)
int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gatherv(RD_PC_GATHERV, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                   recvtype, root, comm, info, request, "MPI_Gatherv_init");
}

RD_WEAK_ALIAS(MPI_Allgatherv_init)
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    return gatherv(RD_PC_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                   recvtype, 0, comm, info, request, "MPI_Allgatherv_init");
}

RD_WEAK_ALIAS(MPI_Neighbor_allgatherv_init)
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    return gatherv(RD_PC_NB_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                   recvtype, 0, comm, info, request, "MPI_Neighbor_allgatherv_init");
}

RD_WEAK_ALIAS(MPI_Scatterv_init)
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_SCATTERV, .comm = comm, .sbuf = sendbuf,
                         .scounts = sendcounts, .sdispls = displs, .stype = sendtype,
                         .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .root = root };
    return rd_api_pcoll_init(&a, info, request, "MPI_Scatterv_init");
}

/* Alltoallv and the neighbourhood alltoallv. */
static int alltoallv(int kind, const void *sendbuf, const int *sendcounts, const int *sdispls,
                     MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                     const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request, const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .scounts = sendcounts,
                         .sdispls = sdispls, .stype = sendtype, .rbuf = recvbuf,
                         .rcounts = recvcounts, .rdispls = rdispls, .rtype = recvtype };
    return rd_api_pcoll_init(&a, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Alltoallv_init)
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return alltoallv(RD_PC_ALLTOALLV, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                     rdispls, recvtype, comm, info, request, "MPI_Alltoallv_init");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallv_init)
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    return alltoallv(RD_PC_NB_ALLTOALLV, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                     recvcounts, rdispls, recvtype, comm, info, request,
                     "MPI_Neighbor_alltoallv_init");
}

RD_WEAK_ALIAS(MPI_Alltoallw_init)
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_ALLTOALLW, .comm = comm, .sbuf = sendbuf,
                         .scounts = sendcounts, .sdispls = sdispls, .stypes = sendtypes,
                         .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls,
                         .rtypes = recvtypes };
    return rd_api_pcoll_init(&a, info, request, "MPI_Alltoallw_init");
}

RD_WEAK_ALIAS(MPI_Neighbor_alltoallw_init)
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_NB_ALLTOALLW, .comm = comm, .sbuf = sendbuf,
                         .scounts = sendcounts, .sdispls = sdispls, .stypes = sendtypes,
                         .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls,
                         .rtypes = recvtypes };
    return rd_api_pcoll_init(&a, info, request, "MPI_Neighbor_alltoallw_init");
}

/* Reductions: the datatype and count are kept as the receive side's. */
static int reduction(int kind, const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request, const char *fn)
{
    rd_api_pcoll_t a = { .kind = kind, .comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                         .rcount = count, .rtype = datatype, .op = op, .root = root };
    return rd_api_pcoll_init(&a, info, request, fn);
}

RD_WEAK_ALIAS(MPI_Reduce_init)
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduction(RD_PC_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, info, request,
                     "MPI_Reduce_init");
}

RD_WEAK_ALIAS(MPI_Allreduce_init)
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduction(RD_PC_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, 0, comm, info, request,
                     "MPI_Allreduce_init");
}

RD_WEAK_ALIAS(MPI_Reduce_scatter_block_init)
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    return reduction(RD_PC_REDSCAT_BLOCK, sendbuf, recvbuf, recvcount, datatype, op, 0, comm, info,
                     request, "MPI_Reduce_scatter_block_init");
}

RD_WEAK_ALIAS(MPI_Scan_init)
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduction(RD_PC_SCAN, sendbuf, recvbuf, count, datatype, op, 0, comm, info, request,
                     "MPI_Scan_init");
}

RD_WEAK_ALIAS(MPI_Exscan_init)
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduction(RD_PC_EXSCAN, sendbuf, recvbuf, count, datatype, op, 0, comm, info, request,
                     "MPI_Exscan_init");
}

RD_WEAK_ALIAS(MPI_Reduce_scatter_init)
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    rd_api_pcoll_t a = { .kind = RD_PC_REDSCAT, .comm = comm, .sbuf = sendbuf, .rbuf = recvbuf,
                         .rcounts = recvcounts, .rtype = datatype, .op = op };
    return rd_api_pcoll_init(&a, info, request, "MPI_Reduce_scatter_init");
}
