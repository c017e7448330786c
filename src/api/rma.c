/*
 * One-sided communication entry points: MPI_Put, Get, Accumulate,
 * Get_accumulate, Fetch_and_op, Compare_and_swap, their request forms
 * (Rput, Rget, Raccumulate, Rget_accumulate) and large-count variants, and
 * the notified puts of the MPIX_ extension (MPIX_Put_notify,
 * MPIX_Win_notify_test / _wait). Every argument is checked here and every
 * check rma can make (epoch, target range) is made there before anything
 * moves, so that an erroneous call writes nothing; errors go to the
 * window's error handler.
 */
#include "api/win.h"

#include "api/op.h"
#include "p2p/p2p.h"

enum rma_kind { K_PUT, K_GET, K_ACC, K_GET_ACC, K_FOP, K_CAS, K_NOTIFY };

/* One call's arguments, as every entry point passes them. */
typedef struct args {
    enum rma_kind kind;
    const void *obuf;            /* Put, accumulates, FOP, CAS: the origin data */
    MPI_Count ocount;
    MPI_Datatype otype;
    void *rbuf;                  /* Get (the origin buffer), Get_accumulate, FOP, CAS */
    MPI_Count rcount;
    MPI_Datatype rtype;
    const void *cbuf;            /* CAS */
    int target;
    MPI_Aint disp;
    MPI_Count tcount;
    MPI_Datatype ttype;
    MPI_Op op;                   /* accumulates, FOP */
    int tag;                     /* notified put */
    int reqform;                 /* Rput & co.: request is where the handle goes */
    MPI_Request *request;
} args_t;

static int check_type(rd_win_t *w, MPI_Datatype h, rd_datatype_t **dt, const char *what,
                      const char *fn)
{
    *dt = rd_api_dt(h);
    if (*dt && (*dt)->committed)
        return MPI_SUCCESS;
    if (*dt)
        return rd_api_win_error(w, MPI_ERR_TYPE, fn, "%s datatype is not committed", what);
    return rd_api_win_error(w, MPI_ERR_TYPE, fn, h == MPI_DATATYPE_NULL
                            ? "%s datatype is MPI_DATATYPE_NULL"
                            : "%s datatype: invalid handle 0x%x", what, (unsigned)h);
}

static int check_count(rd_win_t *w, MPI_Count n, const char *what, const char *fn)
{
    if (n >= 0)
        return MPI_SUCCESS;
    return rd_api_win_error(w, MPI_ERR_COUNT, fn, "%s count %lld is negative", what,
                            (long long)n);
}

/* Compare_and_swap takes C and Fortran integers, logicals and MPI_BYTE. */
static int cas_type_ok(const rd_datatype_t *dt)
{
    if (!dt->builtin)
        return 0;
    if (dt->basic == RD_BASIC_NONE)
        return dt->size == 1;
    return (dt->basic >= RD_BASIC_INT8 && dt->basic <= RD_BASIC_UINT64) ||
           dt->basic == RD_BASIC_BOOL || dt->basic == RD_BASIC_FLOGICAL;
}

/* MPICH applies one-sided accumulates to MPI_CHAR as the C integer it is
 * (its reductions do not), and programs written against it rely on that. */
static int char_ok(const rd_op_t *op, const rd_datatype_t *dt)
{
    return dt->basic == RD_BASIC_CHAR && op->kind != RD_OP_MINLOC && op->kind != RD_OP_MAXLOC;
}

/* Checks the operation argument of an accumulate on target type tdt. */
static int check_op(rd_win_t *w, MPI_Op h, const rd_datatype_t *tdt, rd_op_t **op,
                    const char *fn)
{
    *op = rd_api_op(h);
    if (!*op)
        return rd_api_win_error(w, MPI_ERR_OP, fn, h == MPI_OP_NULL ? "op is MPI_OP_NULL"
                                : "invalid op handle 0x%x", (unsigned)h);
    if ((*op)->kind == RD_OP_USER)
        return rd_api_win_error(w, MPI_ERR_OP, fn, "one-sided accumulates take predefined "
                                "operations only, not user-defined ones");
    if (!rd_op_valid(*op, tdt) && !char_ok(*op, tdt))
        return rd_api_win_error(w, MPI_ERR_OP, fn, "the operation is not defined on "
                                "datatype %s", tdt->name[0] ? tdt->name : "(derived)");
    return MPI_SUCCESS;
}

/* The data arguments of a, decoded into o (lock not held). */
static int check_args(rd_win_t *w, const args_t *a, rd_rma_op_t *o, const char *fn)
{
    int err;
    rd_op_t *op = NULL;
    int one = a->kind == K_FOP || a->kind == K_CAS;
    int noop = 0;
    if (a->disp < 0)
        return rd_api_win_error(w, MPI_ERR_DISP, fn, "target displacement %ld is negative",
                                (long)a->disp);
    if ((err = check_count(w, a->tcount, "target", fn)) ||
        (err = check_type(w, a->ttype, &o->tdt, "target", fn)))
        return err;
    if (a->kind == K_ACC || a->kind == K_GET_ACC || a->kind == K_FOP) {
        if ((err = check_op(w, a->op, o->tdt, &op, fn)))
            return err;
        noop = op->kind == RD_OP_NO_OP;
    }
    /* origin data (ignored for MPI_NO_OP) */
    if (a->kind != K_GET && !noop) {
        if ((err = check_count(w, a->ocount, "origin", fn)) ||
            (err = check_type(w, a->otype, &o->odt, "origin", fn)))
            return err;
        if (!a->obuf && a->ocount && o->odt->builtin && o->odt->size)
            return rd_api_win_error(w, MPI_ERR_BUFFER, fn, "origin buffer is NULL");
    }
    /* result */
    if (a->kind == K_GET || a->kind == K_GET_ACC || one) {
        if ((err = check_count(w, a->rcount, "result", fn)) ||
            (err = check_type(w, a->rtype, &o->rdt, "result", fn)))
            return err;
        if (!a->rbuf && a->rcount && o->rdt->builtin && o->rdt->size)
            return rd_api_win_error(w, MPI_ERR_BUFFER, fn, "result buffer is NULL");
    }
    if (one && !o->tdt->builtin)
        return rd_api_win_error(w, MPI_ERR_TYPE, fn, "%s takes a predefined datatype",
                                a->kind == K_FOP ? "MPI_Fetch_and_op" : "MPI_Compare_and_swap");
    if (a->kind == K_CAS) {
        if (!cas_type_ok(o->tdt))
            return rd_api_win_error(w, MPI_ERR_TYPE, fn, "MPI_Compare_and_swap takes an "
                                    "integer, logical or byte datatype, not %s", o->tdt->name);
        if (!a->cbuf)
            return rd_api_win_error(w, MPI_ERR_BUFFER, fn, "compare buffer is NULL");
    }
    /* the data must be as long at both ends */
    size_t tbytes = (size_t)a->tcount * o->tdt->size;
    if (o->odt && !noop && (size_t)a->ocount * o->odt->size != tbytes)
        return rd_api_win_error(w, MPI_ERR_TYPE, fn, "origin data (%zu bytes) and target data "
                                "(%zu bytes) differ in size",
                                (size_t)a->ocount * o->odt->size, tbytes);
    if (o->rdt && (size_t)a->rcount * o->rdt->size != tbytes)
        return rd_api_win_error(w, MPI_ERR_TYPE, fn, "result buffer (%zu bytes) and target "
                                "data (%zu bytes) differ in size",
                                (size_t)a->rcount * o->rdt->size, tbytes);
    o->obuf = a->obuf;
    o->ocount = (size_t)a->ocount;
    o->rbuf = a->rbuf;
    o->rcount = (size_t)a->rcount;
    o->cbuf = a->cbuf;
    o->target = a->target;
    o->disp = (size_t)a->disp;
    o->tcount = (size_t)a->tcount;
    o->op = op;
    if (noop && !o->odt)
        o->odt = o->tdt; /* not read: MPI_NO_OP ignores the origin */
    return MPI_SUCCESS;
}

/* A request of an RMA operation on w (lock held), or NULL. */
static rd_request_t *rma_request(rd_win_t *w, int target)
{
    rd_request_t *r = rd_req_new(RD_REQ_RMA);
    if (!r)
        return NULL;
    r->comm = w->comm;
    r->peer = target;
    r->st_source = MPI_ANY_SOURCE;
    r->st_tag = MPI_ANY_TAG;
    r->ext = w;
    return r;
}

static int run(MPI_Win win, const args_t *a, const char *fn)
{
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (a->reqform && !a->request)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "request pointer is NULL");
    if (a->target == MPI_PROC_NULL) {
        if (!a->reqform)
            return MPI_SUCCESS;
        rd_api_lock();
        rd_request_t *r = rma_request(w, MPI_PROC_NULL);
        if (r)
            rd_req_complete(r, RD_OK);
        rd_api_unlock();
        if (!r)
            return rd_api_win_error(w, MPI_ERR_NO_MEM, fn, "out of memory for a request");
        *a->request = r->handle;
        return MPI_SUCCESS;
    }
    if (a->target < 0 || a->target >= w->comm->size)
        return rd_api_win_error(w, MPI_ERR_RANK, fn, "target rank %d is not in the window's "
                                "group of %d", a->target, w->comm->size);
    if (a->kind == K_NOTIFY && (a->tag < 0 || a->tag > RD_TAG_UB))
        return rd_api_win_error(w, MPI_ERR_TAG, fn, "notification tag %d is negative or above "
                                "MPI_TAG_UB", a->tag);
    rd_rma_op_t o = { 0 };
    if ((err = check_args(w, a, &o, fn)))
        return err;
    rd_api_lock();
    rd_request_t *r = NULL;
    if (a->reqform && !(r = rma_request(w, a->target))) {
        rd_api_unlock();
        return rd_api_win_error(w, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    }
    int rc;
    switch (a->kind) {
    case K_PUT: rc = rd_rma_put(w, &o, r); break;
    case K_GET: rc = rd_rma_get(w, &o, r); break;
    case K_ACC: rc = rd_rma_acc(w, &o, r); break;
    case K_GET_ACC: rc = rd_rma_get_acc(w, &o, r); break;
    case K_FOP: rc = rd_rma_fetch_op(w, &o); break;
    case K_CAS: rc = rd_rma_cas(w, &o); break;
    default: rc = rd_rma_put_notify(w, &o, a->tag, r); break;
    }
    if (rc != RD_OK && r)
        rd_req_free(r);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_win_status_error(w, rc, fn);
    if (r)
        *a->request = r->handle;
    return MPI_SUCCESS;
}

/* ---- fast paths ----
 * The common Put, Get and Fetch_and_op in a few compares, as MPI_Send's
 * checks in pt2pt.c: a live window, committed datatypes, counts and a
 * displacement that are not negative, a rank of the window's group, a
 * buffer; contiguous data of the same length at both ends. rma then takes
 * the call when the target's memory is mapped here (rd_rma_put_fast).
 * Anything else, errors included, goes through run(), whose checks name
 * what is wrong. */

static inline int fast_common(rd_win_t *w, int target, MPI_Aint disp)
{
    return w && rd_api.initialized && !rd_api.finalized && disp >= 0 &&
           (unsigned)target < (unsigned)w->comm->size;
}

/* Put (put 1) or Get (put 0) of contiguous data; 1 when done. Inlined
 * into the entry points, whose general path is a call of its own. */
static inline __attribute__((always_inline)) int fast_xfer(int put, const void *buf, MPI_Count ocount, MPI_Datatype otype,
                            int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                            MPI_Win win)
{
    rd_win_t *w = rd_api_win(win);
    rd_datatype_t *odt = rd_api_dt(otype), *tdt = otype == ttype ? odt : rd_api_dt(ttype);
    if (!__builtin_expect(fast_common(w, target, disp) && odt && tdt && odt->committed &&
                              tdt->committed && ocount >= 0 && tcount >= 0 && buf &&
                              rd_dt_is_contig(odt, (size_t)ocount) &&
                              rd_dt_is_contig(tdt, (size_t)tcount), 1))
        return 0;
    size_t bytes = (size_t)tcount * tdt->size;
    if ((size_t)ocount * odt->size != bytes)
        return 0;
    rd_api_lock();
    int done = put ? rd_rma_put_fast(w, target, (size_t)disp, tdt->true_lb,
                                     rd_dt_contig_ptr(buf, odt), bytes)
                   : rd_rma_get_fast(w, target, (size_t)disp, tdt->true_lb,
                                     rd_dt_contig_ptr(buf, odt), bytes);
    rd_api_unlock();
    return done;
}

static inline __attribute__((always_inline)) int fast_fop(const void *obuf, void *rbuf, MPI_Datatype type, int target,
                           MPI_Aint disp, MPI_Op oph, MPI_Win win)
{
    rd_win_t *w = rd_api_win(win);
    rd_datatype_t *dt = rd_api_dt(type);
    if (!__builtin_expect(fast_common(w, target, disp) && dt && dt->builtin && obuf && rbuf,
                          1))
        return 0;
    rd_op_t *op = rd_api_op(oph);
    /* SUM of an integer needs no table lookup */
    if (!op || op->kind == RD_OP_USER ||
        (!(op->kind == RD_OP_SUM && dt->basic >= RD_BASIC_INT8 && dt->basic <= RD_BASIC_UINT64) &&
         !rd_op_valid(op, dt)))
        return 0;
    rd_api_lock();
    int done = rd_rma_fetch_op_fast(w, target, (size_t)disp, dt, op->kind, obuf, rbuf);
    rd_api_unlock();
    return done;
}

/* ---- entry points ----
 * Each int form and its _c (large-count) twin share one body below: the
 * int counts widen to MPI_Count on the call. reqform: the request form
 * (Rput & co.), whose handle goes to *request. Inlined, so that MPI_Put
 * and MPI_Get keep their fast path without a call. */

#define PUT_ARGS(k, oa, oc, ot, tr, td, tc, tt)                                          \
    (args_t){ .kind = k, .obuf = oa, .ocount = oc, .otype = ot, .target = tr, .disp = td, \
              .tcount = tc, .ttype = tt }

/* Put and Accumulate (kind K_PUT or K_ACC; op for K_ACC), and their
 * request forms. */
static inline __attribute__((always_inline)) int
put_call(enum rma_kind kind, const void *oa, MPI_Count oc, MPI_Datatype ot, int tr, MPI_Aint td,
         MPI_Count tc, MPI_Datatype tt, MPI_Op op, MPI_Win win, int reqform,
         MPI_Request *request, const char *fn)
{
    if (kind == K_PUT && !reqform && fast_xfer(1, oa, oc, ot, tr, td, tc, tt, win))
        return MPI_SUCCESS;
    args_t a = PUT_ARGS(kind, oa, oc, ot, tr, td, tc, tt);
    a.op = op;
    a.reqform = reqform;
    a.request = request;
    return run(win, &a, fn);
}

/* Get and Rget. */
static inline __attribute__((always_inline)) int
get_call(void *ra, MPI_Count rc, MPI_Datatype rt, int tr, MPI_Aint td, MPI_Count tc,
         MPI_Datatype tt, MPI_Win win, int reqform, MPI_Request *request, const char *fn)
{
    if (!reqform && fast_xfer(0, ra, rc, rt, tr, td, tc, tt, win))
        return MPI_SUCCESS;
    args_t a = { .kind = K_GET, .rbuf = ra, .rcount = rc, .rtype = rt, .target = tr,
                 .disp = td, .tcount = tc, .ttype = tt, .reqform = reqform,
                 .request = request };
    return run(win, &a, fn);
}

/* Get_accumulate, Rget_accumulate, and (kind K_FOP, K_CAS with cbuf)
 * the one-element atomics. */
static int gacc_call(enum rma_kind kind, const void *oa, MPI_Count oc, MPI_Datatype ot,
                     const void *cbuf, void *ra, MPI_Count rc, MPI_Datatype rt, int tr,
                     MPI_Aint td, MPI_Count tc, MPI_Datatype tt, MPI_Op op, MPI_Win win,
                     int reqform, MPI_Request *request, const char *fn)
{
    args_t a = { .kind = kind, .obuf = oa, .ocount = oc, .otype = ot, .cbuf = cbuf, .rbuf = ra,
                 .rcount = rc, .rtype = rt, .target = tr, .disp = td, .tcount = tc,
                 .ttype = tt, .op = op, .reqform = reqform, .request = request };
    return run(win, &a, fn);
}

RD_WEAK_ALIAS(MPI_Put)
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    return put_call(K_PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, MPI_OP_NULL, win, 0, NULL, "MPI_Put");
}

RD_WEAK_ALIAS(MPI_Put_c)
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    return put_call(K_PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, MPI_OP_NULL, win, 0, NULL, "MPI_Put_c");
}

RD_WEAK_ALIAS(MPI_Rput)
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return put_call(K_PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, MPI_OP_NULL, win, 1, request, "MPI_Rput");
}

RD_WEAK_ALIAS(MPI_Rput_c)
int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return put_call(K_PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, MPI_OP_NULL, win, 1, request, "MPI_Rput_c");
}

RD_WEAK_ALIAS(MPI_Get)
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    return get_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, 0, NULL, "MPI_Get");
}

RD_WEAK_ALIAS(MPI_Get_c)
int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    return get_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, 0, NULL, "MPI_Get_c");
}

RD_WEAK_ALIAS(MPI_Rget)
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return get_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, 1, request, "MPI_Rget");
}

RD_WEAK_ALIAS(MPI_Rget_c)
int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return get_call(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, win, 1, request, "MPI_Rget_c");
}

RD_WEAK_ALIAS(MPI_Accumulate)
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return put_call(K_ACC, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, 0, NULL, "MPI_Accumulate");
}

RD_WEAK_ALIAS(MPI_Accumulate_c)
int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
                      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
    return put_call(K_ACC, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, 0, NULL, "MPI_Accumulate_c");
}

RD_WEAK_ALIAS(MPI_Raccumulate)
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    return put_call(K_ACC, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, 1, request, "MPI_Raccumulate");
}

RD_WEAK_ALIAS(MPI_Raccumulate_c)
int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                       MPI_Win win, MPI_Request *request)
{
    return put_call(K_ACC, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                    target_count, target_datatype, op, win, 1, request, "MPI_Raccumulate_c");
}

RD_WEAK_ALIAS(MPI_Get_accumulate)
int PMPI_Get_accumulate(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, void *result_addr, int result_count,
                        MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op,
                        MPI_Win win)
{
    return gacc_call(K_GET_ACC, origin_addr, origin_count, origin_datatype, NULL, result_addr,
                     result_count, result_datatype, target_rank, target_disp, target_count,
                     target_datatype, op, win, 0, NULL, "MPI_Get_accumulate");
}

RD_WEAK_ALIAS(MPI_Get_accumulate_c)
int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr,
                          MPI_Count result_count, MPI_Datatype result_datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return gacc_call(K_GET_ACC, origin_addr, origin_count, origin_datatype, NULL, result_addr,
                     result_count, result_datatype, target_rank, target_disp, target_count,
                     target_datatype, op, win, 0, NULL, "MPI_Get_accumulate_c");
}

RD_WEAK_ALIAS(MPI_Rget_accumulate)
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, void *result_addr, int result_count,
                         MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype, MPI_Op op,
                         MPI_Win win, MPI_Request *request)
{
    return gacc_call(K_GET_ACC, origin_addr, origin_count, origin_datatype, NULL, result_addr,
                     result_count, result_datatype, target_rank, target_disp, target_count,
                     target_datatype, op, win, 1, request, "MPI_Rget_accumulate");
}

RD_WEAK_ALIAS(MPI_Rget_accumulate_c)
int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr,
                           MPI_Count result_count, MPI_Datatype result_datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                           MPI_Request *request)
{
    return gacc_call(K_GET_ACC, origin_addr, origin_count, origin_datatype, NULL, result_addr,
                     result_count, result_datatype, target_rank, target_disp, target_count,
                     target_datatype, op, win, 1, request, "MPI_Rget_accumulate_c");
}

RD_WEAK_ALIAS(MPI_Fetch_and_op)
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    if (fast_fop(origin_addr, result_addr, datatype, target_rank, target_disp, op, win))
        return MPI_SUCCESS;
    return gacc_call(K_FOP, origin_addr, 1, datatype, NULL, result_addr, 1, datatype,
                     target_rank, target_disp, 1, datatype, op, win, 0, NULL,
                     "MPI_Fetch_and_op");
}

RD_WEAK_ALIAS(MPI_Compare_and_swap)
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                          void *result_addr, MPI_Datatype datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Win win)
{
    return gacc_call(K_CAS, origin_addr, 1, datatype, compare_addr, result_addr, 1, datatype,
                     target_rank, target_disp, 1, datatype, MPI_REPLACE, win, 0, NULL,
                     "MPI_Compare_and_swap");
}

/* ---- notified puts (MPIX_) ---- */

RD_WEAK_ALIAS(MPIX_Put_notify)
int PMPIX_Put_notify(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, int notify_tag, MPI_Win win)
{
    args_t a = PUT_ARGS(K_NOTIFY, origin_addr, origin_count, origin_datatype, target_rank,
                        target_disp, target_count, target_datatype);
    a.tag = notify_tag;
    return run(win, &a, "MPIX_Put_notify");
}

RD_WEAK_ALIAS(MPIX_Win_notify_test)
int PMPIX_Win_notify_test(MPI_Win win, int *flag, int *source, int *notify_tag)
{
    static const char fn[] = "MPIX_Win_notify_test";
    rd_win_t *w;
    int err, s, t;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (!flag)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "flag pointer is NULL");
    rd_api_lock();
    int rc = rd_rma_notify_test(w, flag, &s, &t);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_win_status_error(w, rc, fn);
    if (*flag && source)
        *source = s;
    if (*flag && notify_tag)
        *notify_tag = t;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPIX_Win_notify_wait)
int PMPIX_Win_notify_wait(MPI_Win win, int *source, int *notify_tag)
{
    static const char fn[] = "MPIX_Win_notify_wait";
    rd_win_t *w;
    int err, flag = 0, s, t;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    unsigned idle = 0;
    rd_api_lock();
    int rc;
    rd_p2p_wait_begin();
    while ((rc = rd_rma_notify_test(w, &flag, &s, &t)) == RD_OK && !flag) {
        /* other threads get the lock between polls */
        rd_api_unlock();
        rd_p2p_idle(&idle);
        rd_api_lock();
    }
    rd_p2p_wait_end();
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_win_status_error(w, rc, fn);
    if (source)
        *source = s;
    if (notify_tag)
        *notify_tag = t;
    return MPI_SUCCESS;
}
