/*
 * Put, Get, the accumulates and the atomics, origin side (see rma.h and
 * rma_origin.h). Every call first makes the checks the origin can make
 * (rd_rma_check), then takes the first path that fits the target:
 *  - device atomics: 8-byte accumulates and atomics on a window in that
 *    mode, to any target, this rank included (rma_dev.c);
 *  - local: the target's window is mapped here (SHM path, or this rank's
 *    own window): memcpy or the pack engine straight into or out of it;
 *    accumulates of lock-free kinds with rma_acc.c's atomics;
 *  - RDMA: contiguous origin and target data on a window the target
 *    registered, off the node (rc): one transport get/put from and to
 *    user memory, without a completion of its own (rd_rma_ops_complete
 *    flushes);
 *  - node peers' Win_create windows (user memory reached by CMA): Puts
 *    through the rings, the rest by CMA once a ring stays full; large
 *    contiguous Gets through the rings while the target waits in MPI,
 *    else read straight from the target by CMA;
 *  - active messages: everything else, Win_create windows of node peers
 *    included, the data cut into messages of at most the transport's
 *    largest (rd_p2p_am_max), a derived target datatype shipped as the
 *    runs each message covers (rma_dtype.h).
 */
#include "rma/rma_origin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rma/rma_acc.h"
#include "rma/rma_dev.h"
#include "rma/rma_dtype.h"
#include "rma/rma_ops.h"
#include "rma/rma_tunables.h"
#include "rma/rma_wire.h"
#include "util/clock.h"
#include "util/errdetail.h"
#include "util/status.h"

int rd_rma_check(rd_win_t *w, const rd_rma_op_t *op, uint64_t *tdata, size_t *bytes)
{
    int rc = rd_rma_epoch_check(w, op->target);
    if (rc != RD_OK)
        return rc;
    const rd_datatype_t *tdt = op->tdt;
    size_t n = op->tcount * tdt->size;
    *bytes = n;
    if (w->flavor == RD_WIN_DYNAMIC) {
        /* the target checks against its attached regions */
        *tdata = op->disp + (uint64_t)tdt->true_lb;
        return RD_OK;
    }
    const rd_rma_peer_t *pe = &w->rma->peers[op->target];
    uint64_t du = pe->disp_unit > 0 ? (uint64_t)pe->disp_unit : 1;
    if (op->disp > UINT64_MAX / du)
        goto range;
    uint64_t base = op->disp * du;
    *tdata = base + (uint64_t)tdt->true_lb;
    if (!n)
        return RD_OK;
    ptrdiff_t span = (ptrdiff_t)(op->tcount - 1) * rd_dt_extent(tdt);
    ptrdiff_t lo = tdt->true_lb + (span < 0 ? span : 0);
    ptrdiff_t hi = tdt->true_ub + (span > 0 ? span : 0);
    if ((lo < 0 && (uint64_t)-lo > base) || (uint64_t)hi > pe->size ||
        base > pe->size - (uint64_t)hi)
        goto range;
    return RD_OK;
range:
    rd_err_detail("%zu elements at displacement %zu (disp_unit %d) reach outside rank %d's "
                  "window of %zu bytes", op->tcount, op->disp, pe->disp_unit, op->target,
                  pe->size);
    return RD_ERANGE;
}

/* Where target's window memory is here, or NULL (not mapped). */
static char *local_base(rd_win_t *w, int target)
{
    if (w->flavor == RD_WIN_DYNAMIC)
        return NULL;
    if (target == w->comm->rank)
        return w->base;
    const rd_rma_peer_t *pe = &w->rma->peers[target];
    return pe->path == RD_RMA_PATH_SHM ? pe->mapped : NULL;
}

static void done_now(rd_request_t *r, int status)
{
    if (r)
        rd_req_complete(r, status);
}

/* Copies bytes of packed data from (src, scount, sdt) to (dst, dcount, ddt). */
static void local_copy(void *dst, size_t dcount, const rd_datatype_t *ddt, const void *src,
                       size_t scount, const rd_datatype_t *sdt, size_t bytes)
{
    int dc = rd_dt_is_contig(ddt, dcount), sc = rd_dt_is_contig(sdt, scount);
    if (dc && sc) {
        memmove(rd_dt_contig_ptr(dst, ddt), rd_dt_contig_ptr(src, sdt), bytes);
    } else if (dc) {
        rd_dt_pack(src, scount, sdt, 0, rd_dt_contig_ptr(dst, ddt), bytes);
    } else if (sc) {
        rd_dt_unpack(dst, dcount, ddt, 0, rd_dt_contig_ptr(src, sdt), bytes);
    } else {
        char tmp[4096];
        for (size_t off = 0; off < bytes; off += sizeof(tmp)) {
            size_t n = bytes - off < sizeof(tmp) ? bytes - off : sizeof(tmp);
            rd_dt_pack(src, scount, sdt, off, tmp, n);
            rd_dt_unpack(dst, dcount, ddt, off, tmp, n);
        }
    }
}

/* ---- RDMA ---- */

/* Whether (ocount, odt) goes by RDMA: contiguous data on both sides to a
 * target reached by RDMA (never a node peer: rma_win.c). */
static int rdma_fits(rd_win_t *w, const rd_rma_op_t *op, size_t ocount,
                     const rd_datatype_t *odt, unsigned need)
{
    const rd_rma_peer_t *pe = &w->rma->peers[op->target];
    return w->flavor != RD_WIN_DYNAMIC && pe->path == RD_RMA_PATH_RDMA && pe->keylen &&
           rd_dt_is_contig(odt, ocount) && rd_dt_is_contig(op->tdt, op->tcount) &&
           (rd_p2p_rdma_ops(pe->world) & need);
}

/* Whether (lcount, ldt) and the target data, both contiguous, go to a
 * node peer whose window key we have (CMA works between us, need says
 * which way): a put by put_ring, a get by get_cma. */
static int cma_fits(rd_win_t *w, const rd_rma_op_t *op, size_t lcount,
                    const rd_datatype_t *ldt, unsigned need)
{
    const rd_rma_peer_t *pe = &w->rma->peers[op->target];
    return w->flavor != RD_WIN_DYNAMIC && pe->path == RD_RMA_PATH_AM && pe->keylen &&
           rd_p2p_signals(pe->world) && (rd_p2p_rdma_ops(pe->world) & need) &&
           rd_dt_is_contig(ldt, lcount) && rd_dt_is_contig(op->tdt, op->tcount);
}

/* One get or put of bytes between local and the target's tdata, cut at
 * the transport's largest length. RD_ENOTSUP (nothing issued) sends the
 * caller to active messages. r completes after a flush of its own. */
static int rdma_xfer(rd_win_t *w, int target, int put, void *local, uint64_t tdata,
                     size_t bytes, rd_request_t *r)
{
    rd_rma_peer_t *pe = &w->rma->peers[target];
    size_t max = rd_p2p_rdma_len_max(pe->world);
    uint64_t raddr = pe->base + tdata;
    for (size_t off = 0, n; off < bytes; off += n) {
        n = max && bytes - off > max ? max : bytes - off;
        char *l = (char *)local + off;
        int rc = put ? rd_p2p_rdma_put(pe->world, l, NULL, raddr + off, pe->key, pe->keylen, n,
                                       NULL, NULL)
                     : rd_p2p_rdma_get(pe->world, l, NULL, raddr + off, pe->key, pe->keylen, n,
                                       NULL, NULL);
        if (rc == RD_ENOTSUP && off == 0)
            return rc;
        if (rc < 0)
            return rc;
        pe->rdma_unflushed++;
    }
    if (r) {
        int rc = rd_p2p_rdma_flush(pe->world, rd_rma_req_done, r);
        if (rc < 0)
            rd_req_complete(r, rc);
    }
    return RD_OK;
}

/* ---- node peers: the rings, CMA when they stay full or for large gets ---- */

/* How long a put to a node peer waits for room in a full ring before it
 * moves the rest itself by CMA. A target that drains frees a record's
 * room in well under this; one that computes outside MPI, or is not
 * running on a loaded node, does not, and the origin's own copy, slow as
 * CMA is, beats waiting for it. */
#define RING_WAIT_NS 20000

/* RDMPI_RMA_GET_CMA_MIN (0: never), read at init. */
static size_t get_cma_min;
/* Gets read by CMA, Gets of that size that took the rings because their
 * target was waiting in MPI, and CMA transfers the kernel refused (EPERM)
 * that went through the rings instead (RDMPI_VERBOSE's rma line). */
static unsigned long cma_gets, waiting_gets, cma_refused;

int rd_rma_origin_init(void)
{
    long long v;
    int rc = rd_tunable_int(&rd_rma_tunables[RD_RMA_T_GET_CMA_MIN], &v);
    if (rc == RD_OK)
        get_cma_min = (size_t)v;
    return rc;
}

void rd_rma_cma_counts(unsigned long *gets, unsigned long *waiting, unsigned long *refused)
{
    *gets = cma_gets;
    *waiting = waiting_gets;
    *refused = cma_refused;
}

typedef struct cma_wait {
    volatile int done;
    int status, err;
} cma_wait_t;

static void cma_done(void *ctx, int status)
{
    cma_wait_t *c = ctx;
    c->status = status;
    c->err = status == RD_ESYS ? errno : 0;
    c->done = 1;
}

/* One get or put of bytes between local and a node peer's tdata by CMA,
 * over when this returns (CMA copies inside the call; the wait covers a
 * transport that would complete later). RD_ENOTSUP when the kernel
 * refuses this process access to the target's memory (EPERM: ptrace
 * rules, a target that made itself undumpable): the target is then
 * marked, counted, and taken through the rings from now on. Bytes moved
 * before a refusal are moved again by the rings, which is harmless. */
static int cma_xfer(rd_win_t *w, int target, int put, void *local, uint64_t tdata,
                    size_t bytes)
{
    rd_rma_peer_t *pe = &w->rma->peers[target];
    size_t max = rd_p2p_rdma_len_max(pe->world);
    uint64_t raddr = pe->base + tdata;
    for (size_t off = 0, n; off < bytes; off += n) {
        n = max && bytes - off > max ? max : bytes - off;
        char *l = (char *)local + off;
        cma_wait_t c = { 0, RD_OK, 0 };
        int rc = put ? rd_p2p_rdma_put(pe->world, l, NULL, raddr + off, pe->key, pe->keylen, n,
                                       cma_done, &c)
                     : rd_p2p_rdma_get(pe->world, l, NULL, raddr + off, pe->key, pe->keylen, n,
                                       cma_done, &c);
        if (rc == RD_OK) {
            rd_rma_progress_until(&c.done);
            rc = c.status;
        }
        if (rc == RD_ESYS && c.err == EPERM) {
            pe->cma_refused = 1;
            cma_refused++;
            return RD_ENOTSUP;
        }
        if (rc != RD_OK)
            return rc;
    }
    return RD_OK;
}

/* A Get of contiguous data from a node peer's Win_create window, of
 * get_cma_min bytes or more, from a target that is not waiting in MPI:
 * the origin reads the target's memory itself, so the Get needs nothing
 * of the target's CPU. A target blocked in a wait polls its rings and
 * answers at once, and then the rings are faster than CMA (the origin and
 * the target each copy, record by record, at once), so the Get goes there
 * (rd_p2p_peer_waiting; if the target leaves its wait right after, it
 * answers when it next enters MPI). A Get is no accumulate, so reading
 * beside the target's progress breaks no atomicity, and a Put or
 * accumulate completed before it is in the target's memory. Only taken
 * when nothing earlier to the target is unanswered, so that the Get stays
 * behind this origin's earlier operations as on the rings (MPI does not
 * ask for it; the usual Get and flush costs nothing for it). RD_ENOTSUP
 * sends the caller to the rings. */
static int get_cma(rd_win_t *w, const rd_rma_op_t *op, uint64_t tdata, size_t bytes,
                   rd_request_t *r)
{
    rd_rma_peer_t *pe = &w->rma->peers[op->target];
    if (!get_cma_min || bytes < get_cma_min || pe->cma_refused ||
        pe->am_sent != pe->am_acked || !cma_fits(w, op, op->rcount, op->rdt, RD_P2P_RDMA_GET))
        return RD_ENOTSUP;
    if (rd_p2p_peer_waiting(pe->world)) {
        waiting_gets++;
        return RD_ENOTSUP;
    }
    int rc = cma_xfer(w, op->target, 0, rd_dt_contig_ptr(op->rbuf, op->rdt), tdata, bytes);
    if (rc != RD_OK)
        return rc;
    cma_gets++;
    done_now(r, RD_OK);
    return RD_OK;
}

/* A contiguous put of bytes from src to a node peer whose window key we
 * have (rma_win.c): records through the ring, each handed to the
 * transport at once, while the target keeps up; once the ring has stayed
 * full for RING_WAIT_NS, the rest in one CMA transfer (unless the kernel
 * refuses it: then the ring, waiting for the target). *cma says whether
 * that happened (the data is then there, without the target's
 * progress). */
static int put_ring(rd_win_t *w, int target, const char *src, uint64_t tdata, size_t bytes,
                    int *cma)
{
    rd_rma_peer_t *pe = &w->rma->peers[target];
    size_t step = rd_p2p_am_max(pe->world);
    rd_rma_op_msg_t m = {
        .h = { .type = RD_RMA_AM_PUT }, .basic = 0xff, .esize = 1,
        .src = (uint32_t)w->comm->rank,
    };
    *cma = 0;
    int64_t since = 0;
    for (size_t off = 0, n; off < bytes; off += n) {
        n = bytes - off < step ? bytes - off : step;
        m.addr = tdata + off;
        m.len = n;
        m.roff = off;
        int rc;
        while ((rc = rd_rma_send_now(w, target, &m, sizeof(m), src + off, n)) == RD_EAGAIN) {
            int64_t now = rd_clock_ns();
            if (!since) {
                since = now;
            } else if (now - since > RING_WAIT_NS && !pe->cma_refused) {
                rc = cma_xfer(w, target, 1, (char *)src + off, tdata + off, bytes - off);
                if (rc != RD_ENOTSUP) {
                    *cma = 1;
                    return rc;
                }
            }
            rd_progress();
        }
        if (rc != RD_OK)
            return rc;
        since = 0;
    }
    return RD_OK;
}

/* ---- active messages ---- */

/* What one operation sends. */
typedef struct xfer {
    int type;                    /* RD_RMA_AM_* */
    int op, basic;               /* accumulates */
    size_t elem;                 /* cut only between elements of this size */
    int data;                    /* origin data travels (not GET, NO_OP) */
    const void *obuf;            /* origin data (NULL is MPI_BOTTOM) */
    size_t ocount;
    const rd_datatype_t *odt;
    size_t tcount;
    const rd_datatype_t *tdt;
    uint64_t tdata;
    size_t bytes;
} xfer_t;

static int am_xfer(rd_win_t *w, int target, const xfer_t *x, rd_rma_pend_t *p)
{
    size_t budget = rd_p2p_am_max(w->rma->peers[target].world);
    if (budget < x->elem + sizeof(rd_rma_block_t) * 2)
        return RD_EPEER;
    rd_rma_op_msg_t m = {
        .h = { .type = (uint8_t)x->type }, .opid = p ? p->id : 0, .op = (uint8_t)x->op,
        .basic = x->basic < 0 ? 0xff : (uint8_t)x->basic, .esize = (uint16_t)x->elem,
        .src = (uint32_t)w->comm->rank,
    };
    int ocontig = x->data && rd_dt_is_contig(x->odt, x->ocount);
    int rc = RD_OK;
    if (rd_dt_is_contig(x->tdt, x->tcount)) {
        size_t step = budget / x->elem * x->elem;
        for (size_t off = 0, n; off < x->bytes && rc == RD_OK; off += n) {
            n = x->bytes - off < step ? x->bytes - off : step;
            m.addr = x->tdata + off;
            m.len = n;
            m.roff = off;
            const void *pl = NULL;
            void *own = NULL;
            if (ocontig) {
                pl = (const char *)rd_dt_contig_ptr(x->obuf, x->odt) + off;
            } else if (x->data) {
                if (!(own = malloc(n)))
                    return RD_ENOMEM;
                rd_dt_pack(x->obuf, x->ocount, x->odt, off, own, n);
                pl = own;
            }
            rc = rd_rma_send(w, target, p, &m, sizeof(m), pl, x->data ? n : 0, own);
        }
        return rc;
    }
    rd_rma_flat_t f;
    if ((rc = rd_rma_flatten(x->tcount, x->tdt, &f)) != RD_OK)
        return rc;
    rd_rma_cursor_t c = { .f = &f };
    for (size_t off = 0, got; off < x->bytes && rc == RD_OK; off += got) {
        char *buf = malloc(budget);
        if (!buf) {
            rc = RD_ENOMEM;
            break;
        }
        size_t nb = rd_rma_cursor_take(&c, budget, x->bytes - off, x->elem,
                                       (rd_rma_block_t *)buf, &got);
        if (!nb) {
            free(buf);
            rc = RD_EINTERN;
            break;
        }
        size_t meta = nb * sizeof(rd_rma_block_t);
        if (x->data)
            rd_dt_pack(x->obuf, x->ocount, x->odt, off, buf + meta, got);
        m.addr = x->tdata;
        m.nblocks = (uint32_t)nb;
        m.len = got;
        m.roff = off;
        rc = rd_rma_send(w, target, p, &m, sizeof(m), buf, meta + (x->data ? got : 0), buf);
    }
    rd_rma_flat_free(&f);
    return rc;
}

/* Ends the sending of p with rc. An operation that sent nothing fails
 * whole (its request is the caller's again); one that sent part reports
 * rc through its request, or through the return when it has none. */
static int finish(rd_rma_pend_t *p, int rc)
{
    if (!p)
        return rc;
    if (rc != RD_OK && p->msgs == 0) {
        p->req = NULL;
    } else if (rc != RD_OK) {
        if (p->error == RD_OK)
            p->error = rc;
        if (p->req)
            rc = RD_OK;
    }
    rd_rma_pend_sent(p);
    return rc;
}

/* A record whose replies fill (buf, count, dt). */
static rd_rma_pend_t *pend_result(rd_win_t *w, int target, rd_request_t *r, void *buf,
                                  size_t count, rd_datatype_t *dt)
{
    rd_rma_pend_t *p = rd_rma_pend_new(w, target, r);
    if (p && buf)
        rd_rma_pend_result(p, buf, count, dt);
    return p;
}

static int size_mismatch(size_t a, size_t b)
{
    if (a == b)
        return 0;
    rd_err_detail("origin data of %zu bytes against target data of %zu bytes", a, b);
    return 1;
}

/* ---- the operations ---- */

int rd_rma_put_via(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r, int *via)
{
    uint64_t tdata;
    size_t bytes;
    *via = RD_RMA_VIA_NONE;
    int rc = rd_rma_check(w, op, &tdata, &bytes);
    if (rc != RD_OK)
        return rc;
    if (size_mismatch(op->ocount * op->odt->size, bytes))
        return RD_EINVAL;
    if (!bytes) {
        done_now(r, RD_OK);
        return RD_OK;
    }
    int t = op->target;
    char *m = local_base(w, t);
    if (m) {
        local_copy(m + tdata - op->tdt->true_lb, op->tcount, op->tdt, op->obuf, op->ocount,
                   op->odt, bytes);
        *via = RD_RMA_VIA_LOCAL;
        done_now(r, RD_OK);
        return RD_OK;
    }
    if (rdma_fits(w, op, op->ocount, op->odt, RD_P2P_RDMA_PUT)) {
        rc = rdma_xfer(w, t, 1, rd_dt_contig_ptr(op->obuf, op->odt), tdata, bytes, r);
        if (rc != RD_ENOTSUP) {
            *via = RD_RMA_VIA_RDMA;
            return rc;
        }
    }
    if (!r && cma_fits(w, op, op->ocount, op->odt, RD_P2P_RDMA_PUT)) {
        int cma;
        rc = put_ring(w, t, rd_dt_contig_ptr(op->obuf, op->odt), tdata, bytes, &cma);
        *via = cma ? RD_RMA_VIA_RDMA : RD_RMA_VIA_AM;
        return rc;
    }
    rd_rma_pend_t *p = NULL;
    if (r && !(p = rd_rma_pend_new(w, t, r)))
        return RD_ENOMEM;
    xfer_t x = { .type = RD_RMA_AM_PUT, .basic = -1, .elem = 1, .data = 1, .obuf = op->obuf,
                 .ocount = op->ocount, .odt = op->odt, .tcount = op->tcount, .tdt = op->tdt,
                 .tdata = tdata, .bytes = bytes };
    *via = RD_RMA_VIA_AM;
    return finish(p, am_xfer(w, t, &x, p));
}

int rd_rma_put(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r)
{
    int via;
    return rd_rma_put_via(w, op, r, &via);
}

int rd_rma_get(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r)
{
    uint64_t tdata;
    size_t bytes;
    int rc = rd_rma_check(w, op, &tdata, &bytes);
    if (rc != RD_OK)
        return rc;
    if (size_mismatch(op->rcount * op->rdt->size, bytes))
        return RD_EINVAL;
    if (!bytes) {
        done_now(r, RD_OK);
        return RD_OK;
    }
    int t = op->target;
    char *m = local_base(w, t);
    if (m) {
        local_copy(op->rbuf, op->rcount, op->rdt, m + tdata - op->tdt->true_lb, op->tcount,
                   op->tdt, bytes);
        done_now(r, RD_OK);
        return RD_OK;
    }
    if (rdma_fits(w, op, op->rcount, op->rdt, RD_P2P_RDMA_GET)) {
        rc = rdma_xfer(w, t, 0, rd_dt_contig_ptr(op->rbuf, op->rdt), tdata, bytes, r);
        if (rc != RD_ENOTSUP)
            return rc;
    }
    if ((rc = get_cma(w, op, tdata, bytes, r)) != RD_ENOTSUP)
        return rc;
    rd_rma_pend_t *p = pend_result(w, t, r, op->rbuf, op->rcount, op->rdt);
    if (!p)
        return RD_ENOMEM;
    xfer_t x = { .type = RD_RMA_AM_GET, .basic = -1, .elem = 1, .tcount = op->tcount,
                 .tdt = op->tdt, .tdata = tdata, .bytes = bytes };
    return finish(p, am_xfer(w, t, &x, p));
}

/* Applies an accumulate to a mapped target here. */
static int acc_local(char *m, const rd_rma_op_t *op, int k, uint64_t tdata, size_t bytes,
                     int get)
{
    int kind = op->op->kind;
    const void *in = NULL;
    void *old = NULL, *tin = NULL, *told = NULL;
    rd_rma_flat_t f = { 0 };
    int rc = RD_ENOMEM;
    if (kind != RD_OP_NO_OP &&
        !(in = rd_rma_contig_view(op->obuf, op->ocount, op->odt, bytes, 1, &tin)))
        goto out;
    if (get && !(old = rd_rma_contig_view(op->rbuf, op->rcount, op->rdt, bytes, 0, &told)))
        goto out;
    if (!rd_dt_is_contig(op->tdt, op->tcount) &&
        (rc = rd_rma_flatten(op->tcount, op->tdt, &f)) != RD_OK)
        goto out;
    rc = rd_rma_acc_apply(kind, k, m + tdata, f.b, f.n, bytes, in, old);
    if (rc == RD_OK && told)
        rd_dt_unpack(op->rbuf, op->rcount, op->rdt, 0, told, bytes);
out:
    rd_rma_flat_free(&f);
    free(tin);
    free(told);
    return rc;
}

/* Accumulate (get 0) and Get_accumulate (get 1). */
static int acc(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r, int get)
{
    uint64_t tdata;
    size_t bytes;
    int rc = rd_rma_check(w, op, &tdata, &bytes);
    if (rc != RD_OK)
        return rc;
    int kind = op->op->kind, noop = kind == RD_OP_NO_OP;
    int k = rd_rma_dt_basic(op->tdt);
    if (!bytes || (noop && !get)) {
        done_now(r, RD_OK); /* no data: nothing to match either */
        return RD_OK;
    }
    if (kind >= RD_OP_USER || (k == RD_BASIC_NONE && kind != RD_OP_REPLACE && !noop)) {
        rd_err_detail("the operation does not apply to the target datatype");
        return RD_EINVAL;
    }
    if (!noop && (size_mismatch(op->ocount * op->odt->size, bytes) ||
                  rd_rma_dt_basic(op->odt) != k)) {
        rd_err_detail("origin and target datatypes differ");
        return RD_EINVAL;
    }
    if (get && size_mismatch(op->rcount * op->rdt->size, bytes))
        return RD_EINVAL;
    if (rd_rma_dev_takes(w, k) &&
        (rc = rd_rma_dev_acc(w, op, r, get, k, tdata, bytes)) != RD_RMA_DEV_USUAL)
        return rc;
    int t = op->target;
    char *m = local_base(w, t);
    if (m && rd_rma_acc_atomic(k)) {
        rc = acc_local(m, op, k, tdata, bytes, get);
        if (rc == RD_OK)
            done_now(r, RD_OK);
        return rc;
    }
    rd_rma_pend_t *p = NULL;
    if (get)
        p = pend_result(w, t, r, op->rbuf, op->rcount, op->rdt);
    else if (r)
        p = rd_rma_pend_new(w, t, r);
    if ((get || r) && !p)
        return RD_ENOMEM;
    xfer_t x = { .type = get ? RD_RMA_AM_GET_ACC : RD_RMA_AM_ACC, .op = kind, .basic = k,
                 .elem = rd_rma_basic_size(k), .data = !noop, .obuf = op->obuf,
                 .ocount = op->ocount, .odt = op->odt, .tcount = op->tcount, .tdt = op->tdt,
                 .tdata = tdata, .bytes = bytes };
    return finish(p, am_xfer(w, t, &x, p));
}

int rd_rma_acc(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r)
{
    return acc(w, op, r, 0);
}

int rd_rma_get_acc(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r)
{
    return acc(w, op, r, 1);
}

/* Fetch_and_op is a Get_accumulate of one element; the API passes the
 * one datatype as odt, rdt and tdt with counts 1. */
int rd_rma_fetch_op(rd_win_t *w, const rd_rma_op_t *op)
{
    uint64_t tdata;
    size_t bytes;
    int rc = rd_rma_check(w, op, &tdata, &bytes);
    if (rc != RD_OK)
        return rc;
    int kind = op->op->kind, k = rd_rma_dt_basic(op->tdt);
    if (kind >= RD_OP_USER || k == RD_BASIC_NONE) {
        rd_err_detail("the operation does not apply to the datatype");
        return RD_EINVAL;
    }
    if (rd_rma_dev_takes(w, k) &&
        (rc = rd_rma_dev_fetch_op(w, op, k, tdata)) != RD_RMA_DEV_USUAL)
        return rc;
    int t = op->target;
    char *m = local_base(w, t);
    if (m && rd_rma_acc_atomic(k))
        return rd_rma_acc_apply(kind, k, m + tdata, NULL, 0, bytes, op->obuf, op->rbuf);
    rd_rma_pend_t *p = pend_result(w, t, NULL, op->rbuf, 1, op->rdt);
    if (!p)
        return RD_ENOMEM;
    xfer_t x = { .type = RD_RMA_AM_FOP, .op = kind, .basic = k, .elem = bytes,
                 .data = kind != RD_OP_NO_OP, .obuf = op->obuf, .ocount = 1, .odt = op->odt,
                 .tcount = 1, .tdt = op->tdt, .tdata = tdata, .bytes = bytes };
    return finish(p, am_xfer(w, t, &x, p));
}

/* Compare_and_swap: integer, logical and byte types only (the API
 * checks), so one contiguous element of 1 to 8 bytes. */
int rd_rma_cas(rd_win_t *w, const rd_rma_op_t *op)
{
    uint64_t tdata;
    size_t bytes;
    int rc = rd_rma_check(w, op, &tdata, &bytes);
    if (rc != RD_OK)
        return rc;
    int k = rd_rma_dt_basic(op->tdt);
    if (k == RD_BASIC_NONE || rd_rma_basic_size(k) != bytes) {
        rd_err_detail("Compare_and_swap takes one element of a predefined type");
        return RD_EINVAL;
    }
    if (rd_rma_dev_takes(w, k) && (rc = rd_rma_dev_cas(w, op, tdata)) != RD_RMA_DEV_USUAL)
        return rc;
    int t = op->target;
    char *m = local_base(w, t);
    if (m && rd_rma_acc_atomic(k)) {
        rd_rma_acc_cas(k, m + tdata, op->cbuf, op->obuf, op->rbuf);
        return RD_OK;
    }
    rd_rma_pend_t *p = pend_result(w, t, NULL, op->rbuf, 1, op->rdt);
    char *pl = malloc(2 * bytes);
    if (!p || !pl) {
        free(pl);
        return finish(p, RD_ENOMEM);
    }
    memcpy(pl, op->cbuf, bytes);
    memcpy(pl + bytes, op->obuf, bytes);
    rd_rma_op_msg_t msg = {
        .h = { .type = RD_RMA_AM_CAS }, .opid = p->id, .addr = tdata, .len = bytes,
        .op = RD_OP_REPLACE, .basic = (uint8_t)k, .esize = (uint16_t)bytes,
        .src = (uint32_t)w->comm->rank,
    };
    return finish(p, rd_rma_send(w, t, p, &msg, sizeof(msg), pl, 2 * bytes, pl));
}
