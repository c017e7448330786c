/*
 * Nonblocking collective entry points (MPI_Ibarrier ... MPI_Iscatterv,
 * MPI_Comm_idup). Each checks its arguments as the blocking collective does,
 * builds a schedule (src/coll/nbc.h) and starts it; the request completes
 * when the progress engine has run the schedule to its end. On an
 * intercommunicator the builders run the algorithms of coll/coll_inter.h,
 * with the arguments checked as the blocking collectives check them (no
 * MPI_IN_PLACE; MPI_ROOT / MPI_PROC_NULL roots; no scans). The large-count
 * (_c) variants (nbc_c.c) share the bodies (api/nbc.h).
 *
 * MPI_Comm_idup agrees on a context id without blocking (coll/ctxid.h).
 */
#include "api/api.h"

#include <stdlib.h>

#include "api/attr.h"
#include "api/comm.h"
#include "api/nbc.h"
#include "api/op.h"
#include "coll/coll_inter.h"
#include "coll/ctxid.h"
#include "coll/nbc.h"

_Static_assert(MPI_ROOT == RD_COLL_ROOT && MPI_PROC_NULL == RD_COLL_NO_ROOT,
               "intercommunicator roots pass through unchanged");

/* ---- argument checks (error classes as MPICH reports them) ---- */

static int check_comm(MPI_Comm comm, MPI_Request *request, rd_comm_t **c, const char *fn)
{
    int err;
    if ((err = rd_api_check_coll_comm(comm, c, fn)))
        return err;
    if (!request)
        return rd_api_error(*c, MPI_ERR_ARG, fn, "request pointer is NULL");
    return MPI_SUCCESS;
}

/* On an intercommunicator MPI_IN_PLACE is never allowed. */
static int check_inter_in_place(rd_comm_t *c, const void *sbuf, const void *rbuf,
                                const char *fn)
{
    if (!c->rgroup || (sbuf != MPI_IN_PLACE && rbuf != MPI_IN_PLACE))
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_BUFFER, fn,
                        "MPI_IN_PLACE is not allowed on an intercommunicator");
}

/* The root of a rooted collective (MPI_ROOT on an intercommunicator). */
static int is_root(const rd_comm_t *c, int root)
{
    return c->rgroup ? root == MPI_ROOT : c->rank == root;
}

/* The send and receive buffers of a reduction must not be the same memory
 * unless the send buffer is MPI_IN_PLACE. */
static int check_alias(rd_comm_t *c, const void *sbuf, const void *rbuf, MPI_Count count,
                       const char *fn)
{
    if (sbuf != rbuf || sbuf == MPI_IN_PLACE || count == 0)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_BUFFER, fn,
                        "sendbuf and recvbuf are the same buffer: use MPI_IN_PLACE");
}

static int check_inplace_root(rd_comm_t *c, const void *buf, int root, const char *what,
                              const char *fn)
{
    if (buf != MPI_IN_PLACE || c->rank == root)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_BUFFER, fn, "%s may be MPI_IN_PLACE only at the root", what);
}

static int check_counts_types(rd_comm_t *c, const void *buf, const int *counts,
                              const int *displs, MPI_Datatype type, rd_datatype_t **dt,
                              const char *what, const char *fn)
{
    int err;
    if ((err = rd_api_check_dt(c, type, dt, fn)) ||
        (err = rd_api_check_counts(c, counts, displs, *dt, what, fn)))
        return err;
    for (int i = 0; i < rd_comm_remote_size(c); i++)
        if ((err = rd_api_check_buf(c, buf, counts[i], *dt, fn)))
            return err;
    return MPI_SUCCESS;
}

/* ---- starting ---- */

static const void *in_place(const void *buf)
{
    return buf == MPI_IN_PLACE ? RD_NBC_IN_PLACE : buf;
}

static void release_op(void *op)
{
    rd_api_op_release(op);
}

/* Holds a reference on op while s runs (MPI_Op_free may come first). */
static void hold_op(rd_nbc_t *s, rd_op_t *op)
{
    rd_api_op_ref(op);
    rd_nbc_on_free(s, release_op, op);
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

/* The schedule under construction, NULL (and the lock released) on ENOMEM. */
static rd_nbc_t *begin(rd_comm_t *c)
{
    rd_api_lock();
    rd_nbc_t *s = rd_nbc_new(c);
    if (!s)
        rd_api_unlock();
    return s;
}

/* Starts the schedule begin() made and releases the lock. */
static int end(rd_comm_t *c, rd_nbc_t *s, MPI_Request *request, const char *fn)
{
    int rc = launch(c, s, request);
    rd_api_unlock();
    return rc == RD_OK ? MPI_SUCCESS : rd_api_status_error(c, rc, fn);
}

static int no_mem(rd_comm_t *c, const char *fn)
{
    return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for the schedule");
}

/* ---- the collectives ---- */

RD_WEAK_ALIAS(MPI_Ibarrier)
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    static const char fn[] = "MPI_Ibarrier";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)))
        return err;
    rd_nbc_t *s = begin(c);
    if (!s)
        return no_mem(c, fn);
    rd_nbc_barrier(s);
    return end(c, s, request, fn);
}

int rd_api_ibcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)) || (err = rd_api_check_root(c, root, fn)) ||
        (!(c->rgroup && root == MPI_PROC_NULL) &&
         (err = rd_api_check_data(c, buffer, count, datatype, &dt, fn))))
        return err;
    if (c->rgroup && root == MPI_PROC_NULL)
        dt = &rd_dt_bytes;
    rd_nbc_t *s = begin(c);
    if (!s)
        return no_mem(c, fn);
    rd_nbc_bcast(s, buffer, (size_t)count, dt, root);
    return end(c, s, request, fn);
}

RD_WEAK_ALIAS(MPI_Ibcast)
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return rd_api_ibcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast");
}

int rd_api_ireduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)) || (err = rd_api_check_root(c, root, fn)))
        return err;
    if (c->rgroup) {
        /* Only the root receives and only the other group sends; the rest of
         * the root's group takes no part (its arguments are not looked at). */
        const void *buf = root == MPI_ROOT ? recvbuf : sendbuf;
        if (root == MPI_PROC_NULL)
            count = 0, buf = NULL, datatype = MPI_INT, op = MPI_SUM;
        if ((err = check_inter_in_place(c, sendbuf, recvbuf, fn)) ||
            (err = rd_api_check_data(c, buf, count, datatype, &dt, fn)) ||
            (err = rd_api_check_op(c, op, dt, &o, fn)))
            return err;
    } else if ((err = check_inplace_root(c, sendbuf, root, "sendbuf", fn)) ||
               (err = rd_api_check_data(c, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count,
                                        datatype, &dt, fn)) ||
               (c->rank == root && (err = rd_api_check_buf(c, recvbuf, count, dt, fn))) ||
               (c->rank == root && (err = check_alias(c, sendbuf, recvbuf, count, fn))) ||
               (err = rd_api_check_op(c, op, dt, &o, fn))) {
        return err;
    }
    rd_nbc_t *s = begin(c);
    if (!s)
        return no_mem(c, fn);
    hold_op(s, o);
    rd_nbc_reduce_to(s, in_place(sendbuf), recvbuf, (size_t)count, dt, o, root);
    return end(c, s, request, fn);
}

RD_WEAK_ALIAS(MPI_Ireduce)
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request,
                          "MPI_Ireduce");
}

/* Iallreduce, Iscan, Iexscan: the same arguments. */
int rd_api_iallreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request, int scan, int excl,
                      const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)))
        return err;
    if (scan && c->rgroup)
        return rd_api_error(c, MPI_ERR_COMM, fn, "scans are not defined on an intercommunicator");
    if ((err = check_inter_in_place(c, sendbuf, recvbuf, fn)) ||
        (err = rd_api_check_data(c, recvbuf, count, datatype, &dt, fn)) ||
        (sendbuf != MPI_IN_PLACE && (err = rd_api_check_buf(c, sendbuf, count, dt, fn))) ||
        (err = check_alias(c, sendbuf, recvbuf, count, fn)) ||
        (err = rd_api_check_op(c, op, dt, &o, fn)))
        return err;
    rd_nbc_t *s = begin(c);
    if (!s)
        return no_mem(c, fn);
    hold_op(s, o);
    if (scan)
        rd_nbc_scan(s, in_place(sendbuf), recvbuf, (size_t)count, dt, o, excl);
    else
        rd_nbc_allreduce(s, in_place(sendbuf), recvbuf, (size_t)count, dt, o);
    return end(c, s, request, fn);
}

RD_WEAK_ALIAS(MPI_Iallreduce)
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request, 0, 0,
                             "MPI_Iallreduce");
}

RD_WEAK_ALIAS(MPI_Iscan)
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request, 1, 0,
                             "MPI_Iscan");
}

RD_WEAK_ALIAS(MPI_Iexscan)
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request, 1, 1,
                             "MPI_Iexscan");
}

/* Ireduce_scatter(_block): a reduction to rank 0 into scratch, then a
 * scatter of the blocks. */
int rd_api_ireduce_scatter(const void *sendbuf, void *recvbuf, const int *counts,
                           MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request, int v, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)) ||
        (err = check_inter_in_place(c, sendbuf, recvbuf, fn)))
        return err;
    if (v && !counts)
        return rd_api_error(c, MPI_ERR_ARG, fn, "recvcounts array is NULL");
    if (!v && (err = rd_api_check_count(c, count, fn)))
        return err;
    if (v) {
        for (int i = 0; i < c->size; i++)
            if ((err = rd_api_check_count(c, counts[i], fn)))
                return err;
        count = counts[c->rank];
    }
    size_t total = 0;
    for (int i = 0; i < c->size; i++)
        total += counts ? (size_t)counts[i] : (size_t)count;
    if ((err = rd_api_check_data(c, recvbuf, count, datatype, &dt, fn)) ||
        (sendbuf != MPI_IN_PLACE &&
         (err = rd_api_check_buf(c, sendbuf, (MPI_Count)total, dt, fn))) ||
        (err = check_alias(c, sendbuf, recvbuf, (MPI_Count)total, fn)) ||
        (err = rd_api_check_op(c, op, dt, &o, fn)))
        return err;
    if (c->rgroup) {
        rd_nbc_t *s = begin(c);
        if (!s)
            return no_mem(c, fn);
        hold_op(s, o);
        rd_nbc_inter_reduce_scatter(s, sendbuf, recvbuf, counts, (size_t)count, dt, o);
        return end(c, s, request, fn);
    }
    int *displs = NULL;
    if (counts && !(displs = malloc((size_t)c->size * sizeof(int))))
        return no_mem(c, fn);
    for (int i = 0, d = 0; counts && i < c->size; d += counts[i], i++)
        displs[i] = d;
    rd_nbc_t *s = begin(c);
    if (!s) {
        free(displs);
        return no_mem(c, fn);
    }
    hold_op(s, o);
    const void *src = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    void *full = c->rank == 0 ? rd_nbc_tmp_typed(s, total, dt) : NULL;
    rd_nbc_reduce_to(s, src, full, total, dt, o, 0);
    rd_nbc_scatterv(s, full, counts, displs, (size_t)count, dt, recvbuf, (size_t)count, dt, 0);
    free(displs);
    return end(c, s, request, fn);
}

RD_WEAK_ALIAS(MPI_Ireduce_scatter_block)
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    return rd_api_ireduce_scatter(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm, request,
                                  0, "MPI_Ireduce_scatter_block");
}

RD_WEAK_ALIAS(MPI_Ireduce_scatter)
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_ireduce_scatter(sendbuf, recvbuf, recvcounts, 0, datatype, op, comm, request, 1,
                                  "MPI_Ireduce_scatter");
}

/* Igather(v) and Iscatter(v): the same checks with the sides swapped. The
 * per-rank side (gather's send, scatter's receive buffer) may be
 * MPI_IN_PLACE at the root only; the root side is one block per rank, or
 * (v) counts and displacements. Unused counts and displacements are NULL. */
int rd_api_irooted(int is_gather, const void *sendbuf, const int *scounts, const int *sdispls,
                   MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const int *rcounts,
                   const int *rdispls, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request, int v, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *sdt = NULL, *rdt = NULL;
    /* l: the per-rank side; r: the root side */
    const void *lbuf = is_gather ? sendbuf : recvbuf, *rbuf = is_gather ? recvbuf : sendbuf;
    MPI_Count lcount = is_gather ? sendcount : recvcount;
    MPI_Count rcount = is_gather ? recvcount : sendcount;
    MPI_Datatype ltype = is_gather ? sendtype : recvtype, rtype = is_gather ? recvtype : sendtype;
    rd_datatype_t **ldt = is_gather ? &sdt : &rdt, **rdtp = is_gather ? &rdt : &sdt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)) || (err = rd_api_check_root(c, root, fn)) ||
        (err = check_inter_in_place(c, sendbuf, recvbuf, fn)) ||
        (!c->rgroup &&
         (err = check_inplace_root(c, lbuf, root, is_gather ? "sendbuf" : "recvbuf", fn))))
        return err;
    /* The per-rank side: every rank, or on an intercommunicator the group
     * without the root. */
    if ((!c->rgroup || root >= 0) && lbuf != MPI_IN_PLACE &&
        (err = rd_api_check_data(c, lbuf, lcount, ltype, ldt, fn)))
        return err;
    if (is_root(c, root)) {
        if (v)
            err = check_counts_types(c, rbuf, is_gather ? rcounts : scounts,
                                     is_gather ? rdispls : sdispls, rtype, rdtp,
                                     is_gather ? "receive" : "send", fn);
        else if (!(err = rd_api_check_data(c, rbuf, rcount, rtype, rdtp, fn)) &&
                 !(err = rd_api_check_nblocks(c, rcount, rd_comm_remote_size(c), *rdtp, fn)))
            err = check_alias(c, sendbuf, recvbuf, rcount, fn);
        if (err)
            return err;
    }
    rd_nbc_t *s = begin(c);
    if (!s)
        return no_mem(c, fn);
    if (is_gather)
        rd_nbc_gatherv(s, in_place(sendbuf), (size_t)sendcount, sdt, recvbuf, rcounts, rdispls,
                       (size_t)recvcount, rdt, root);
    else
        rd_nbc_scatterv(s, sendbuf, scounts, sdispls, (size_t)sendcount, sdt,
                        recvbuf == MPI_IN_PLACE ? RD_NBC_IN_PLACE : recvbuf, (size_t)recvcount,
                        rdt, root);
    return end(c, s, request, fn);
}

RD_WEAK_ALIAS(MPI_Igather)
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return rd_api_irooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                          recvcount, recvtype, root, comm, request, 0, "MPI_Igather");
}

RD_WEAK_ALIAS(MPI_Igatherv)
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    return rd_api_irooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, recvcounts,
                          displs, 0, recvtype, root, comm, request, 1, "MPI_Igatherv");
}

RD_WEAK_ALIAS(MPI_Iscatter)
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return rd_api_irooted(0, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                          recvcount, recvtype, root, comm, request, 0, "MPI_Iscatter");
}

RD_WEAK_ALIAS(MPI_Iscatterv)
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_irooted(0, sendbuf, sendcounts, displs, 0, sendtype, recvbuf, NULL, NULL,
                          recvcount, recvtype, root, comm, request, 1, "MPI_Iscatterv");
}

/* Iallgather and Iallgatherv. */
int rd_api_iallgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const int *rcounts, const int *rdispls, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request, int v,
                      const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *sdt = NULL, *rdt = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)) ||
        (err = check_inter_in_place(c, sendbuf, recvbuf, fn)))
        return err;
    if (sendbuf != MPI_IN_PLACE &&
        (err = rd_api_check_data(c, sendbuf, sendcount, sendtype, &sdt, fn)))
        return err;
    if (v)
        err = check_counts_types(c, recvbuf, rcounts, rdispls, recvtype, &rdt, "receive", fn);
    else if (!(err = rd_api_check_data(c, recvbuf, recvcount, recvtype, &rdt, fn)) &&
             !(err = rd_api_check_nblocks(c, recvcount, rd_comm_remote_size(c), rdt, fn)))
        err = check_alias(c, sendbuf, recvbuf, recvcount, fn);
    if (err)
        return err;
    rd_nbc_t *s = begin(c);
    if (!s)
        return no_mem(c, fn);
    rd_nbc_allgatherv(s, in_place(sendbuf), (size_t)sendcount, sdt, recvbuf, v ? rcounts : NULL,
                      v ? rdispls : NULL, (size_t)recvcount, rdt);
    return end(c, s, request, fn);
}

RD_WEAK_ALIAS(MPI_Iallgather)
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallgather(sendbuf, sendcount, sendtype, recvbuf, NULL, NULL, recvcount,
                             recvtype, comm, request, 0, "MPI_Iallgather");
}

RD_WEAK_ALIAS(MPI_Iallgatherv)
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    return rd_api_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0,
                             recvtype, comm, request, 1, "MPI_Iallgatherv");
}

/* Ialltoall and Ialltoallv. */
int rd_api_ialltoall(const void *sendbuf, const int *scounts, const int *sdispls,
                     MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int *rcounts, const int *rdispls, MPI_Count recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request, int v,
                     const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *sdt = NULL, *rdt = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)) ||
        (err = check_inter_in_place(c, sendbuf, recvbuf, fn)))
        return err;
    if (v) {
        if ((sendbuf != MPI_IN_PLACE &&
             (err = check_counts_types(c, sendbuf, scounts, sdispls, sendtype, &sdt, "send",
                                       fn))) ||
            (err = check_counts_types(c, recvbuf, rcounts, rdispls, recvtype, &rdt, "receive",
                                      fn)))
            return err;
    } else if ((sendbuf != MPI_IN_PLACE &&
                ((err = rd_api_check_data(c, sendbuf, sendcount, sendtype, &sdt, fn)) ||
                 (err = rd_api_check_nblocks(c, sendcount, rd_comm_remote_size(c), sdt,
                                             fn)))) ||
               (err = rd_api_check_data(c, recvbuf, recvcount, recvtype, &rdt, fn)) ||
               (err = rd_api_check_nblocks(c, recvcount, rd_comm_remote_size(c), rdt, fn)) ||
               (err = check_alias(c, sendbuf, recvbuf, recvcount, fn))) {
        return err;
    }
    rd_nbc_t *s = begin(c);
    if (!s)
        return no_mem(c, fn);
    rd_nbc_alltoallv(s, in_place(sendbuf), v ? scounts : NULL, v ? sdispls : NULL,
                     (size_t)sendcount, sdt, recvbuf, v ? rcounts : NULL, v ? rdispls : NULL,
                     (size_t)recvcount, rdt);
    return end(c, s, request, fn);
}

RD_WEAK_ALIAS(MPI_Ialltoall)
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return rd_api_ialltoall(sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                            recvcount, recvtype, comm, request, 0, "MPI_Ialltoall");
}

RD_WEAK_ALIAS(MPI_Ialltoallv)
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    return rd_api_ialltoall(sendbuf, sendcounts, sdispls, 0, sendtype, recvbuf, recvcounts,
                            rdispls, 0, recvtype, comm, request, 1, "MPI_Ialltoallv");
}

/* ---- MPI_Comm_idup: the context id is agreed by a schedule (coll/ctxid.h) ---- */

/* The communicator object behind the new handle: same group and error
 * handler as c; its context id is set when the agreement completes. */
static int idup_comm(rd_comm_t *c, rd_comm_t **out)
{
    if (c->rgroup)
        return rd_api_comm_new_inter_pending(c, out);
    rd_comm_t *nc = rd_comm_new(c->group, 0);
    if (!nc)
        return RD_ENOMEM;
    nc->errh = c->errh;
    if (nc->errh)
        rd_errh_ref(nc->errh);
    if (!(nc->handle = rd_handle_alloc(RD_OBJ_COMM, nc))) {
        rd_comm_release(nc);
        return RD_ENOMEM;
    }
    *out = nc;
    return RD_OK;
}

static int idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request, const char *fn)
{
    rd_comm_t *c, *nc = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_comm(comm, request, &c, fn)))
        return err;
    if (!newcomm)
        return rd_api_error(c, MPI_ERR_ARG, fn, "newcomm pointer is NULL");
    rd_api_lock();
    int rc = idup_comm(c, &nc);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    /* Attribute copy callbacks run now, without the lock, as in MPI_Comm_dup. */
    if ((err = rd_api_attr_copy_dup(c, nc, fn)) != MPI_SUCCESS)
        return err;
    rd_nbc_t *s = begin(c);
    if (!s || rd_coll_ctx_idup(s, nc) != RD_OK) {
        if (s) {
            rd_nbc_free(s);
            rd_api_unlock();
        }
        rd_api_comm_free(nc);
        return no_mem(c, fn);
    }
    *newcomm = nc->handle;
    rc = launch(c, s, request);
    rd_api_unlock();
    if (rc != RD_OK) {
        *newcomm = MPI_COMM_NULL;
        rd_api_comm_free(nc);
        return rd_api_status_error(c, rc, fn);
    }
    return MPI_SUCCESS;
}

/* The new communicator gets the hints of info (MPI_Comm_idup: those of
 * comm, as MPI_Comm_dup), stored at once since they are local. */
static int idup_hints(MPI_Comm comm, MPI_Info info, MPI_Comm newcomm)
{
    MPI_Info mine = MPI_INFO_NULL;
    int err = MPI_SUCCESS;
    if (info == MPI_INFO_NULL && (err = PMPI_Comm_get_info(comm, &mine)) == MPI_SUCCESS)
        info = mine;
    if (err == MPI_SUCCESS)
        err = PMPI_Comm_set_info(newcomm, info);
    if (mine != MPI_INFO_NULL)
        PMPI_Info_free(&mine);
    return err; /* a failure went through the handler already */
}

RD_WEAK_ALIAS(MPI_Comm_idup)
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    static const char fn[] = "MPI_Comm_idup";
    int err = idup(comm, newcomm, request, fn);
    return err == MPI_SUCCESS ? idup_hints(comm, MPI_INFO_NULL, *newcomm) : err;
}

RD_WEAK_ALIAS(MPI_Comm_idup_with_info)
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    static const char fn[] = "MPI_Comm_idup_with_info";
    RD_API_CHECK_INIT(fn);
    if (info != MPI_INFO_NULL && info != MPI_INFO_ENV && !rd_handle_get(RD_OBJ_INFO, info))
        return rd_api_error(rd_api_comm(comm), MPI_ERR_INFO, fn, "invalid info handle 0x%x",
                            (unsigned)info);
    int err = idup(comm, newcomm, request, fn);
    if (err != MPI_SUCCESS)
        return err;
    if (info == MPI_INFO_NULL) /* no hints, not comm's */
        return MPI_SUCCESS;
    return idup_hints(comm, info, *newcomm);
}
