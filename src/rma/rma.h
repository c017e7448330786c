/*
 * One-sided communication (MPI-3.1 chapter 11), as the API layer sees it:
 * windows, the operations that move data to and from them, and the
 * synchronization that opens and closes epochs.
 *
 * Layer: rma sits on p2p (active messages for the target-side work, the
 * transports' remote memory access through p2p's RDMA calls) and beside
 * coll; it never calls coll. Collective steps of window creation and of
 * fence (an allgather of window descriptors, barriers) are done by the API
 * layer with coll, between the rma calls below that need them.
 *
 * Paths, chosen per target when the window is connected:
 *  - SHM: the target's window memory is mapped here (Win_allocate and
 *    Win_allocate_shared windows of processes on this node): Put and Get
 *    are memcpy, atomics are C11 atomics on the shared words.
 *  - RDMA: the peer's transport reads and writes registered memory
 *    (rc: RDMA Read/Write; shm on Win_create windows: CMA, above the shm
 *    eager size): contiguous Put and Get go straight to the target
 *    window, no target CPU involved.
 *  - AM: everything else (tcp, ud, derived target datatypes, accumulates,
 *    dynamic windows): an active message the target applies in its
 *    progress and acknowledges.
 * Memory model: unified on every path (MPI_WIN_UNIFIED).
 *
 * Status codes are the internal ones (util/status.h; RD_ESYNC, RD_ERANGE,
 * RD_ECONFLICT, RD_EATTACH, RD_EFLAVOR, RD_ESHARED are rma's, mapped by the
 * API layer to the MPI_ERR_RMA_* classes).
 */
#ifndef RD_RMA_RMA_H
#define RD_RMA_RMA_H

#include <stddef.h>
#include <stdint.h>

#include "boot/boot.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/errhandler.h"
#include "core/op.h"
#include "core/request.h"
#include "util/list.h"

/* enum values the API maps from MPI constants. */
enum rd_win_flavor { RD_WIN_CREATE = 1, RD_WIN_ALLOCATE = 2, RD_WIN_DYNAMIC = 3, RD_WIN_SHARED = 4 };
enum rd_lock_type { RD_LOCK_SHARED = 1, RD_LOCK_EXCLUSIVE = 2 };
/* Asserts (MPI_MODE_*), as the API passes them through unchanged. */
enum {
    RD_MODE_NOCHECK = 1024, RD_MODE_NOSTORE = 2048, RD_MODE_NOPUT = 4096,
    RD_MODE_NOPRECEDE = 8192, RD_MODE_NOSUCCEED = 16384,
};

/* Window info hints rma acts on (the API parses MPI_Info into this). */
typedef struct rd_win_hints {
    int no_locks;                /* "no_locks" true: no lock word, no lock handlers */
    int same_size, same_disp_unit;
    int alloc_shared_noncontig;  /* Win_allocate_shared: one segment per rank */
    int acc_ordering_none;       /* "accumulate_ordering" none */
    int acc_same_op_no_op;       /* "accumulate_ops" same_op_no_op: RDMA atomics allowed */
} rd_win_hints_t;

/* What a window's creator publishes to every member (allgathered by the
 * API layer as RD_RMA_DESC_MAX opaque bytes per rank). */
#define RD_RMA_DESC_MAX 256

typedef struct rd_win rd_win_t;

/* The window object. The fields marked API belong to src/api (attributes,
 * error handler, name, info); the rest is rma's and opaque to the API
 * except where noted as read-only. */
struct rd_win {
    int handle;                  /* API */
    rd_list_t attrs;             /* API: rd_attr_t (core/comm.h), as communicators */
    rd_errhandler_t *errh;       /* API */
    char name[128];              /* API */
    int info;                    /* API: MPI_Info handle of the hints as given, or MPI_INFO_NULL */

    rd_comm_t *comm;             /* read-only: rma's private duplicate of the creator's comm */
    int flavor;                  /* read-only: enum rd_win_flavor */
    void *base;                  /* read-only: this rank's window memory (NULL: size 0 / dynamic) */
    size_t size;                 /* read-only */
    int disp_unit;               /* read-only */
    rd_win_hints_t hints;        /* read-only */

    struct rd_rma_win *rma;      /* rma's state (rma_impl.h) */
};

/* ---- creation and destruction (collective over comm) ----
 * The API layer duplicates the user's communicator into c (the window keeps
 * that reference) and then:
 *   1. rd_rma_win_new: local part; allocates the memory of ALLOCATE and
 *      SHARED windows (sizes: every rank's size, needed for SHARED only,
 *      else NULL), registers it, registers the window for incoming
 *      messages, fills this rank's descriptor desc (RD_RMA_DESC_MAX bytes).
 *   2. allgather of the descriptors over c (coll).
 *   3. rd_rma_win_connect: maps node peers' memory, records keys.
 * A failure in 1 or 3 returns a negative status; the API layer then still
 * takes part in the remaining collective steps with a descriptor marked
 * failed (rd_rma_win_new marks desc itself when it fails; the API marks it
 * with rd_rma_desc_fail when it fails before calling rd_rma_win_new), so
 * that nobody hangs, and frees the window. rd_rma_win_connect returns the
 * status of the first failed rank when any descriptor is marked failed. */
int rd_rma_win_new(rd_comm_t *c, int flavor, void *base, size_t size, int disp_unit,
                   const rd_win_hints_t *hints, const size_t *sizes, rd_win_t **w,
                   void *desc);
void rd_rma_desc_fail(void *desc, int status);
int rd_rma_win_connect(rd_win_t *w, const void *descs);
/* 4. once every member has connected (the API layer agrees on the
 *    statuses of step 3, which is also the barrier this needs): removes
 *    the names of the node segments this rank created, now that every
 *    node peer has mapped them. */
void rd_rma_win_ready(rd_win_t *w);
/* Win_free, before the API layer's barrier: RD_ESYNC when an epoch other
 * than fence's is open (nothing changed, the window stays usable); else
 * completes this rank's operations on w and returns their first error.
 * After the barrier, rd_rma_win_destroy frees the memory this window
 * allocated, deregisters, drops the window and frees w (the API layer
 * then releases w->comm). rd_rma_win_destroy(NULL) does nothing. */
int rd_rma_win_free_check(rd_win_t *w);
void rd_rma_win_destroy(rd_win_t *w);

/* Win_shared_query: base, size and disp_unit of rank (MPI_PROC_NULL = -1:
 * the first rank with size > 0) as mapped here. RD_EFLAVOR when rank's
 * memory is not mapped here. */
int rd_rma_shared_query(rd_win_t *w, int rank, void **base, size_t *size, int *disp_unit);
/* Dynamic windows. */
int rd_rma_attach(rd_win_t *w, void *base, size_t size);
int rd_rma_detach(rd_win_t *w, const void *base);
/* Alloc_mem / Free_mem: memory registered with every transport in use. */
int rd_rma_alloc_mem(size_t size, void **ptr);
int rd_rma_free_mem(void *ptr);

/* ---- communication ----
 * target is a rank of w->comm (never MPI_PROC_NULL: the API returns early
 * for it), disp in target disp units. r, when not NULL, is a request of
 * kind RD_REQ_RMA that completes on local completion (Rput, Raccumulate)
 * or when the result is here (Rget, Rget_accumulate); with r NULL the
 * operation completes at the next flush/unlock/fence/complete. Every
 * check the origin can make is made before anything moves: the status
 * says what was wrong, and nothing was sent. */
typedef struct rd_rma_op {
    const void *obuf;            /* origin (Put, Accumulate, Get_accumulate, Fetch_and_op, CAS) */
    size_t ocount;
    rd_datatype_t *odt;
    void *rbuf;                  /* result (Get: the destination; Get_accumulate, FOP, CAS) */
    size_t rcount;
    rd_datatype_t *rdt;
    const void *cbuf;            /* compare (CAS) */
    int target;
    size_t disp;
    size_t tcount;
    rd_datatype_t *tdt;
    rd_op_t *op;                 /* accumulates; NULL for Put/Get */
} rd_rma_op_t;

int rd_rma_put(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r);
int rd_rma_get(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r);
int rd_rma_acc(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r);
int rd_rma_get_acc(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r);
int rd_rma_fetch_op(rd_win_t *w, const rd_rma_op_t *op);
int rd_rma_cas(rd_win_t *w, const rd_rma_op_t *op);

/* Fast paths, for the API layer to try first: a contiguous Put or Get of
 * bytes (> 0) at byte disp * disp_unit + lb of target's window, and a
 * Fetch_and_op of one element of the predefined dt with op (an
 * enum rd_op_kind), when target's window memory is mapped here in a fence
 * or lock_all epoch, and the Put or Get also when target is reached by
 * RDMA in an epoch that covers it. 1: done, with the effect of rd_rma_put, rd_rma_get or
 * rd_rma_fetch_op; 0: nothing was done, the general call must run (it
 * makes every check, so errors are found there). */
int rd_rma_put_fast(rd_win_t *w, int target, size_t disp, ptrdiff_t lb, const void *src,
                    size_t bytes);
int rd_rma_get_fast(rd_win_t *w, int target, size_t disp, ptrdiff_t lb, void *dst,
                    size_t bytes);
int rd_rma_fetch_op_fast(rd_win_t *w, int target, size_t disp, const rd_datatype_t *dt,
                         int op, const void *in, void *out);

/* Notified put (MPIX_Put_notify): a Put whose arrival the target sees
 * with rd_rma_notify_test, carrying tag. */
int rd_rma_put_notify(rd_win_t *w, const rd_rma_op_t *op, int tag, rd_request_t *r);
/* Takes one arrived notification: *flag 1 and *source (rank of w->comm),
 * *tag set; the data of that put is in the window. Polls progress once. */
int rd_rma_notify_test(rd_win_t *w, int *flag, int *source, int *tag);

/* ---- synchronization ----
 * Fence: rd_rma_fence_begin completes this rank's operations of the
 * closing epoch (everything issued is remote-complete and results are
 * here); then the API layer runs a barrier over w->comm (skipped for
 * MPI_MODE_NOPRECEDE with nothing issued); then rd_rma_fence_end opens
 * the next epoch (or none with MPI_MODE_NOSUCCEED). */
int rd_rma_fence_begin(rd_win_t *w, int assert);
int rd_rma_fence_end(rd_win_t *w, int assert);
/* PSCW: group ranks are ranks of w->comm. */
int rd_rma_post(rd_win_t *w, const int *ranks, int n, int assert);
int rd_rma_start(rd_win_t *w, const int *ranks, int n, int assert);
int rd_rma_complete(rd_win_t *w);
int rd_rma_wait(rd_win_t *w);
int rd_rma_test(rd_win_t *w, int *flag);
/* Passive target. */
int rd_rma_lock(rd_win_t *w, int type, int target, int assert);
int rd_rma_unlock(rd_win_t *w, int target);
int rd_rma_lock_all(rd_win_t *w, int assert);
int rd_rma_unlock_all(rd_win_t *w);
/* target -1: every target. local: only local completion (flush_local). */
int rd_rma_flush(rd_win_t *w, int target, int local);
int rd_rma_sync(rd_win_t *w);

/* Called once by the API layer at MPI_Init after p2p (registers the
 * active-message handlers) and at MPI_Finalize. */
int rd_rma_init(const rd_boot_info_t *boot);
void rd_rma_finalize(void);
/* RDMPI_VERBOSE report (paths taken per target kind, op counts). */
void rd_rma_report(char *buf, size_t len);

#endif
