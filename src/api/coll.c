/*
 * Blocking collective entry points (MPI-3.1 chapter 5). Each checks its
 * arguments where they are significant (root-only arguments at the root),
 * MPI_IN_PLACE where the standard allows it, and hands off to src/coll.
 * On an intercommunicator (MPI-3.1 5.2.2) they run the algorithms of
 * coll/coll_inter.h: MPI_IN_PLACE is not allowed there, the rooted ones take
 * MPI_ROOT / MPI_PROC_NULL / a remote rank as root, and the scans are not
 * defined (MPI_ERR_COMM).
 */
#include "api/api.h"

#include <stdint.h>
#include <stdlib.h>

#include "api/coll.h"
#include "api/op.h"
#include "coll/coll.h"
#include "coll/coll_inter.h"

_Static_assert(MPI_ROOT == RD_COLL_ROOT && MPI_PROC_NULL == RD_COLL_NO_ROOT,
               "intercommunicator roots pass through unchanged");

static int no_in_place(rd_comm_t *c, const void *buf, const char *which, const char *fn)
{
    if (buf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed as the %s here",
                        which);
}

static int not_aliased(rd_comm_t *c, const void *sbuf, const void *rbuf, MPI_Count count,
                       const char *fn)
{
    if (sbuf != rbuf || sbuf == NULL || count == 0)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_BUFFER, fn,
                        "send and receive buffers are the same (use MPI_IN_PLACE)");
}

/* The per-rank side of a rooted collective (gather's send buffer, scatter's
 * receive buffer): MPI_IN_PLACE only at the root, checked where used.
 * nonroot_what names it in the MPI_IN_PLACE error. */
static int check_rank_side(rd_comm_t *c, int root, const void *buf, MPI_Count count,
                           MPI_Datatype type, rd_datatype_t **dt, const char *nonroot_what,
                           const char *fn)
{
    int err;
    if (c->rank != root && (err = no_in_place(c, buf, nonroot_what, fn)))
        return err;
    if (buf != MPI_IN_PLACE && (err = rd_api_check_data(c, buf, count, type, dt, fn)))
        return err;
    return MPI_SUCCESS;
}

/* The root side of a rooted collective given as one block per rank (gather's
 * receive, scatter's send buffer, named by what); sbuf/rbuf of the call,
 * compared over count elements. */
static int check_root_block(rd_comm_t *c, const void *buf, MPI_Count count, MPI_Datatype type,
                            rd_datatype_t **dt, const char *what, const void *sbuf,
                            const void *rbuf, const char *fn)
{
    int err;
    if ((err = no_in_place(c, buf, what, fn)) ||
        (err = rd_api_check_data(c, buf, count, type, dt, fn)) ||
        (err = rd_api_check_nblocks(c, count, rd_comm_remote_size(c), *dt, fn)) ||
        (err = not_aliased(c, sbuf, rbuf, count, fn)))
        return err;
    return MPI_SUCCESS;
}

/* The same given as counts and displacements (gatherv, scatterv); aliasing
 * is judged over alias_count elements (the per-rank side's count). */
static int check_root_v(rd_comm_t *c, const void *buf, const int *counts, const int *displs,
                        MPI_Datatype type, rd_datatype_t **dt, const char *what,
                        const char *counts_what, const void *sbuf, const void *rbuf,
                        MPI_Count alias_count, const char *fn)
{
    int err;
    if ((err = no_in_place(c, buf, what, fn)) || (err = rd_api_check_dt(c, type, dt, fn)) ||
        (err = rd_api_check_counts(c, counts, displs, *dt, counts_what, fn)) ||
        (err = not_aliased(c, sbuf, rbuf, alias_count, fn)))
        return err;
    return MPI_SUCCESS;
}

/* Allgather and Alltoall: one block per rank each way (the send buffer of
 * Allgather one block), the receive buffer never MPI_IN_PLACE, the send
 * buffer may be. */
static int check_blocks(rd_comm_t *c, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, rd_datatype_t **st, const void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, rd_datatype_t **rt,
                        int alltoall, const char *fn)
{
    int n = rd_comm_remote_size(c), err;
    if ((err = no_in_place(c, recvbuf, "receive buffer", fn)) ||
        (sendbuf != MPI_IN_PLACE &&
         ((err = rd_api_check_data(c, sendbuf, sendcount, sendtype, st, fn)) ||
          (alltoall && (err = rd_api_check_nblocks(c, sendcount, n, *st, fn))))) ||
        (err = rd_api_check_data(c, recvbuf, recvcount, recvtype, rt, fn)) ||
        (err = rd_api_check_nblocks(c, recvcount, n, *rt, fn)) ||
        (err = not_aliased(c, sendbuf, recvbuf, recvcount, fn)))
        return err;
    return MPI_SUCCESS;
}

/* On an intercommunicator MPI_IN_PLACE is never allowed. */
static int no_in_place_inter(rd_comm_t *c, const void *sbuf, const void *rbuf, const char *fn)
{
    int err;
    if (c->rgroup && ((err = no_in_place(c, sbuf, "send buffer on an intercommunicator", fn)) ||
                      (err = no_in_place(c, rbuf, "receive buffer on an intercommunicator", fn))))
        return err;
    return MPI_SUCCESS;
}

/* Whether this rank is a rooted collective's root, and whether it has the
 * per-rank side (every rank of an intracommunicator; on an
 * intercommunicator the group without the root). */
static int is_root(const rd_comm_t *c, int root)
{
    return c->rgroup ? root == MPI_ROOT : c->rank == root;
}

static int has_rank_side(const rd_comm_t *c, int root)
{
    return c->rgroup ? root >= 0 : 1;
}

static int done(rd_comm_t *c, int rc, const char *fn)
{
    return rc == RD_OK ? MPI_SUCCESS : rd_api_status_error(c, rc, fn);
}

static const void *in_place(const void *buf)
{
    return buf == MPI_IN_PLACE ? RD_COLL_IN_PLACE : buf;
}

RD_WEAK_ALIAS(MPI_Barrier)
int PMPI_Barrier(MPI_Comm comm)
{
    static const char fn[] = "MPI_Barrier";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup ? rd_coll_inter_barrier(c) : rd_coll_barrier(c);
    rd_api_unlock();
    return done(c, rc, fn);
}

int rd_api_bcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) || (err = rd_api_check_root(c, root, fn)))
        return err;
    /* MPI_PROC_NULL still runs the (empty) collective: every member of an
     * intercommunicator counts the collectives started on it (coll/nbc.h). */
    if (c->rgroup && root == MPI_PROC_NULL)
        count = 0, dt = &rd_dt_bytes;
    else if ((err = no_in_place(c, buffer, "buffer", fn)) ||
             (err = rd_api_check_data(c, buffer, count, datatype, &dt, fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup ? rd_coll_inter_bcast(c, buffer, (size_t)count, dt, root)
                       : rd_coll_bcast(c, buffer, (size_t)count, dt, root);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Bcast)
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return rd_api_bcast(buffer, count, datatype, root, comm, "MPI_Bcast");
}

/* MPI_Gather(v) and MPI_Scatter(v): the same checks with the sides swapped.
 * The per-rank side (gather's send, scatter's receive buffer) is checked at
 * every rank, the root side at the root: one block per rank, or (v) counts
 * and displacements. Unused counts and displacements are NULL. */
int rd_api_rooted(int is_gather, const void *sendbuf, const int *scounts, const int *sdispls,
                  MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const int *rcounts,
                  const int *rdispls, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm, int v, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *st = NULL, *rt = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) ||
        (err = rd_api_check_root(c, root, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)))
        return err;
    if (!has_rank_side(c, root))
        err = MPI_SUCCESS;
    else if (is_gather)
        err = check_rank_side(c, root, sendbuf, sendcount, sendtype, &st,
                              "send buffer at a non-root rank", fn);
    else
        err = check_rank_side(c, root, recvbuf, recvcount, recvtype, &rt,
                              "receive buffer at a non-root rank", fn);
    if (!err && is_root(c, root)) {
        if (is_gather && v)
            err = check_root_v(c, recvbuf, rcounts, rdispls, recvtype, &rt, "receive buffer",
                               "receive", sendbuf, recvbuf, sendcount, fn);
        else if (is_gather)
            err = check_root_block(c, recvbuf, recvcount, recvtype, &rt, "receive buffer",
                                   sendbuf, recvbuf, fn);
        else if (v)
            err = check_root_v(c, sendbuf, scounts, sdispls, sendtype, &st, "send buffer",
                               "send", sendbuf, recvbuf, recvcount, fn);
        else
            err = check_root_block(c, sendbuf, sendcount, sendtype, &st, "send buffer", sendbuf,
                                   recvbuf, fn);
    }
    if (err)
        return err;
    rd_api_lock();
    int rc;
    if (c->rgroup && is_gather)
        rc = rd_coll_inter_gatherv(c, sendbuf, (size_t)sendcount, st, recvbuf, rcounts, rdispls,
                                   (size_t)recvcount, rt, root);
    else if (c->rgroup)
        rc = rd_coll_inter_scatterv(c, sendbuf, scounts, sdispls, (size_t)sendcount, st,
                                    recvbuf, (size_t)recvcount, rt, root);
    else if (is_gather && v)
        rc = rd_coll_gatherv(c, in_place(sendbuf), (size_t)sendcount, st, recvbuf, rcounts,
                             rdispls, rt, root);
    else if (is_gather)
        rc = rd_coll_gather(c, in_place(sendbuf), (size_t)sendcount, st, recvbuf,
                            (size_t)recvcount, rt, root);
    else if (v)
        rc = rd_coll_scatterv(c, sendbuf, scounts, sdispls, st, (void *)in_place(recvbuf),
                              (size_t)recvcount, rt, root);
    else
        rc = rd_coll_scatter(c, sendbuf, (size_t)sendcount, st, (void *)in_place(recvbuf),
                             (size_t)recvcount, rt, root);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Gather)
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return rd_api_rooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                        recvcount, recvtype, root, comm, 0, "MPI_Gather");
}

RD_WEAK_ALIAS(MPI_Gatherv)
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    return rd_api_rooted(1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, recvcounts, displs,
                        0, recvtype, root, comm, 1, "MPI_Gatherv");
}

RD_WEAK_ALIAS(MPI_Scatter)
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return rd_api_rooted(0, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, NULL, NULL,
                        recvcount, recvtype, root, comm, 0, "MPI_Scatter");
}

RD_WEAK_ALIAS(MPI_Scatterv)
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    return rd_api_rooted(0, sendbuf, sendcounts, displs, 0, sendtype, recvbuf, NULL, NULL,
                        recvcount, recvtype, root, comm, 1, "MPI_Scatterv");
}

/* MPI_Allgather and MPI_Alltoall: the same arguments and checks. */
int rd_api_blocks(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                  int alltoall, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *st = NULL, *rt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)) ||
        (err = check_blocks(c, sendbuf, sendcount, sendtype, &st, recvbuf, recvcount, recvtype,
                            &rt, alltoall, fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup && alltoall
                 ? rd_coll_inter_alltoallv(c, sendbuf, NULL, NULL, (size_t)sendcount, st, recvbuf,
                                           NULL, NULL, (size_t)recvcount, rt)
             : c->rgroup ? rd_coll_inter_allgatherv(c, sendbuf, (size_t)sendcount, st, recvbuf,
                                                    NULL, NULL, (size_t)recvcount, rt)
             : alltoall ? rd_coll_alltoall(c, in_place(sendbuf), (size_t)sendcount, st, recvbuf,
                                         (size_t)recvcount, rt)
                        : rd_coll_allgather(c, in_place(sendbuf), (size_t)sendcount, st, recvbuf,
                                            (size_t)recvcount, rt);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Allgather)
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rd_api_blocks(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 0,
                        "MPI_Allgather");
}

int rd_api_allgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, MPI_Comm comm, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *st = NULL, *rt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)) ||
        (err = no_in_place(c, recvbuf, "receive buffer", fn)) ||
        (sendbuf != MPI_IN_PLACE &&
         (err = rd_api_check_data(c, sendbuf, sendcount, sendtype, &st, fn))) ||
        (err = rd_api_check_dt(c, recvtype, &rt, fn)) ||
        (err = rd_api_check_counts(c, recvcounts, displs, rt, "receive", fn)) ||
        (err = not_aliased(c, sendbuf, recvbuf, sendcount, fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup ? rd_coll_inter_allgatherv(c, sendbuf, (size_t)sendcount, st, recvbuf,
                                                  recvcounts, displs, 0, rt)
                       : rd_coll_allgatherv(c, in_place(sendbuf), (size_t)sendcount, st, recvbuf,
                                            recvcounts, displs, rt);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Allgatherv)
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    return rd_api_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                             comm, "MPI_Allgatherv");
}

RD_WEAK_ALIAS(MPI_Alltoall)
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return rd_api_blocks(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 1,
                        "MPI_Alltoall");
}

int rd_api_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *st = NULL, *rt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)) ||
        (err = no_in_place(c, recvbuf, "receive buffer", fn)) ||
        (sendbuf != MPI_IN_PLACE &&
         ((err = rd_api_check_dt(c, sendtype, &st, fn)) ||
          (err = rd_api_check_counts(c, sendcounts, sdispls, st, "send", fn)))) ||
        (err = rd_api_check_dt(c, recvtype, &rt, fn)) ||
        (err = rd_api_check_counts(c, recvcounts, rdispls, rt, "receive", fn)) ||
        (err = not_aliased(c, sendbuf, recvbuf, 1, fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup ? rd_coll_inter_alltoallv(c, sendbuf, sendcounts, sdispls, 0, st, recvbuf,
                                                 recvcounts, rdispls, 0, rt)
                       : rd_coll_alltoallv(c, in_place(sendbuf), sendcounts, sdispls, st, recvbuf,
                                           recvcounts, rdispls, rt);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Alltoallv)
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return rd_api_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                            recvtype, comm, "MPI_Alltoallv");
}

/* The datatype arrays of MPI_Alltoallw, decoded (n entries), and the block
 * each describes with its count and byte displacement (what: "send" or
 * "receive"). */
static int decode_types(rd_comm_t *c, const MPI_Datatype *h, rd_datatype_t **out, int n,
                        const int *counts, const int *displs, const char *what, const char *fn)
{
    if (!h)
        return rd_api_error(c, MPI_ERR_ARG, fn, "datatype array is NULL");
    for (int i = 0; i < n; i++) {
        int err;
        if ((err = rd_api_check_dt(c, h[i], &out[i], fn)) ||
            (err = rd_api_check_wblock(c, i, counts[i], out[i], displs[i], what, fn)))
            return err;
    }
    return MPI_SUCCESS;
}

int rd_api_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                     const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                     const char *fn)
{
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)) ||
        (err = no_in_place(c, recvbuf, "receive buffer", fn)) ||
        (sendbuf != MPI_IN_PLACE &&
         (err = rd_api_check_counts(c, sendcounts, sdispls, NULL, "send", fn))) ||
        (err = rd_api_check_counts(c, recvcounts, rdispls, NULL, "receive", fn)) ||
        (err = not_aliased(c, sendbuf, recvbuf, 1, fn)))
        return err;
    int n = rd_comm_remote_size(c);
    rd_datatype_t **types = malloc(2 * (size_t)n * sizeof(*types));
    if (!types)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    rd_datatype_t **st = types, **rt = types + n;
    if ((sendbuf != MPI_IN_PLACE &&
         (err = decode_types(c, sendtypes, st, n, sendcounts, sdispls, "send", fn))) ||
        (err = decode_types(c, recvtypes, rt, n, recvcounts, rdispls, "receive", fn))) {
        free(types);
        return err;
    }
    rd_api_lock();
    int rc = c->rgroup ? rd_coll_inter_alltoallw(c, sendbuf, sendcounts, sdispls, st, recvbuf,
                                                 recvcounts, rdispls, rt)
                       : rd_coll_alltoallw(c, in_place(sendbuf), sendcounts, sdispls, st, recvbuf,
                                           recvcounts, rdispls, rt);
    rd_api_unlock();
    free(types);
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Alltoallw)
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return rd_api_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                            recvtypes, comm, "MPI_Alltoallw");
}

/* Arguments shared by the reductions: count, datatype, send buffer, op. */
static int check_reduction(rd_comm_t *c, const void *sbuf, MPI_Count count, MPI_Datatype type,
                           MPI_Op h, rd_datatype_t **dt, rd_op_t **op, const char *fn)
{
    int err;
    if ((err = rd_api_check_data(c, sbuf, count, type, dt, fn)) ||
        (err = rd_api_check_op(c, h, *dt, op, fn)))
        return err;
    return MPI_SUCCESS;
}

/* The receive buffer of a reduction (at the root for MPI_Reduce): not
 * MPI_IN_PLACE, rcount elements of dt, not the send buffer (count
 * elements). */
static int check_reduction_recv(rd_comm_t *c, const void *sbuf, void *rbuf, MPI_Count count,
                                MPI_Count rcount, rd_datatype_t *dt, const char *fn)
{
    int err;
    if ((err = no_in_place(c, rbuf, "receive buffer", fn)) ||
        (err = rd_api_check_buf(c, rbuf, rcount, dt, fn)) ||
        (err = not_aliased(c, sbuf, rbuf, count, fn)))
        return err;
    return MPI_SUCCESS;
}

int rd_api_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) || (err = rd_api_check_root(c, root, fn)))
        return err;
    if (c->rgroup) {
        /* The root's group sends nothing: the datatype and op are checked
         * against its receive buffer. */
        if (root == MPI_PROC_NULL)
            count = 0, dt = NULL, o = NULL;  /* an empty collective, as in MPI_Bcast */
        else if ((err = no_in_place_inter(c, sendbuf, recvbuf, fn)) ||
                 (err = check_reduction(c, root == MPI_ROOT ? recvbuf : sendbuf, count, datatype,
                                        op, &dt, &o, fn)))
            return err;
        rd_api_lock();
        int rc = rd_coll_inter_reduce(c, sendbuf, recvbuf, (size_t)count, dt, o, root);
        rd_api_unlock();
        return done(c, rc, fn);
    }
    if ((err = check_reduction(c, sendbuf, count, datatype, op, &dt, &o, fn)))
        return err;
    if (c->rank != root && (err = no_in_place(c, sendbuf, "send buffer at a non-root rank", fn)))
        return err;
    if (c->rank == root &&
        (err = check_reduction_recv(c, sendbuf, recvbuf, count, count, dt, fn)))
        return err;
    rd_api_lock();
    int rc = rd_coll_reduce(c, in_place(sendbuf), recvbuf, (size_t)count, dt, o, root);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Reduce)
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    return rd_api_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, "MPI_Reduce");
}

int rd_api_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)))
        return err;
    if (!recvcounts)
        return rd_api_error(c, MPI_ERR_ARG, fn, "recvcounts is NULL");
    long long total = 0;
    for (int i = 0; i < c->size; i++) {
        if (recvcounts[i] < 0)
            return rd_api_error(c, MPI_ERR_COUNT, fn, "negative count %d for rank %d",
                                recvcounts[i], i);
        total += recvcounts[i];
    }
    if (total > INT32_MAX)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "the counts add up to more than INT_MAX");
    if ((err = check_reduction(c, sendbuf, (int)total, datatype, op, &dt, &o, fn)) ||
        (err = check_reduction_recv(c, sendbuf, recvbuf, (int)total, recvcounts[c->rank], dt,
                                    fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup ? rd_coll_inter_reduce_scatter(c, sendbuf, recvbuf, recvcounts, 0, dt, o)
                       : rd_coll_reduce_scatter(c, in_place(sendbuf), recvbuf, recvcounts, dt, o);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Reduce_scatter)
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return rd_api_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm,
                                 "MPI_Reduce_scatter");
}

int rd_api_reduce_scatter_block(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_coll_comm(comm, &c, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)) ||
        (err = rd_api_check_count(c, recvcount, fn)))
        return err;
    if (recvcount > INT32_MAX / c->size)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "recvcount * size is more than INT_MAX");
    if ((err = check_reduction(c, sendbuf, recvcount * c->size, datatype, op, &dt, &o,
                               fn)) ||
        (err = check_reduction_recv(c, sendbuf, recvbuf, recvcount * c->size, recvcount, dt,
                                    fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup ? rd_coll_inter_reduce_scatter(c, sendbuf, recvbuf, NULL, (size_t)recvcount,
                                                      dt, o)
                       : rd_coll_reduce_scatter_block(c, in_place(sendbuf), recvbuf,
                                                      (size_t)recvcount, dt, o);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return rd_api_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                       "MPI_Reduce_scatter_block");
}

/* MPI_Allreduce, MPI_Scan and MPI_Exscan: the same arguments and checks. */
int rd_api_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, enum rd_api_allreduce_kind kind, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = kind == RD_API_ALLREDUCE ? rd_api_check_coll_comm(comm, &c, fn)
                                        : rd_api_check_coll_comm_intra(comm, &c, fn)) ||
        (err = no_in_place_inter(c, sendbuf, recvbuf, fn)) ||
        (err = check_reduction(c, sendbuf, count, datatype, op, &dt, &o, fn)) ||
        (err = check_reduction_recv(c, sendbuf, recvbuf, count, count, dt, fn)))
        return err;
    rd_api_lock();
    const void *sbuf = in_place(sendbuf);
    int rc = c->rgroup ? rd_coll_inter_allreduce(c, sendbuf, recvbuf, (size_t)count, dt, o)
             : kind == RD_API_ALLREDUCE ? rd_coll_allreduce(c, sbuf, recvbuf, (size_t)count, dt, o)
             : kind == RD_API_EXSCAN  ? rd_coll_exscan(c, sbuf, recvbuf, (size_t)count, dt, o)
                                      : rd_coll_scan(c, sbuf, recvbuf, (size_t)count, dt, o);
    rd_api_unlock();
    return done(c, rc, fn);
}

RD_WEAK_ALIAS(MPI_Scan)
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return rd_api_allreduce(sendbuf, recvbuf, count, datatype, op, comm, RD_API_SCAN,
                            "MPI_Scan");
}

RD_WEAK_ALIAS(MPI_Exscan)
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    return rd_api_allreduce(sendbuf, recvbuf, count, datatype, op, comm, RD_API_EXSCAN,
                            "MPI_Exscan");
}

RD_WEAK_ALIAS(MPI_Allreduce)
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
    return rd_api_allreduce(sendbuf, recvbuf, count, datatype, op, comm, RD_API_ALLREDUCE,
                            "MPI_Allreduce");
}
