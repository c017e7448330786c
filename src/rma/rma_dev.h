/*
 * Device atomics: windows whose 8-byte accumulates and atomics are all
 * applied by the RDMA device (rc's fetch-add and compare-and-swap), and
 * whose lock words it takes, the owner's own included, through a
 * connection of its device to itself. CPU atomics and the device's are
 * not atomic with each other, so a window takes this mode only when every
 * rank agrees at creation that no access needs the CPU's
 * (doc/rma-operations.md, "Device atomics"); then an atomic costs one
 * RDMA atomic and no target CPU.
 */
#ifndef RD_RMA_RMA_DEV_H
#define RD_RMA_RMA_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "rma/rma_acc.h"
#include "rma/rma_impl.h"

/* Reads RDMPI_RMA_DEV_ATOMICS (from rd_rma_ops_init). */
int rd_rma_dev_init(void);

/* Whether this rank can keep w in device mode (its part of the collective
 * decision, published in its descriptor): the mode is on, w is a
 * Win_create or Win_allocate window of two ranks or more, none of them on
 * this node, each reached by RDMA atomics through the one transport this
 * process also reaches itself with (connected at the first such window).
 * Called once w's memory is registered. When it can, its lock word is
 * registered too and desc (len bytes, at least RD_RMA_DEV_DESC) receives
 * what peers need to reach it. */
#define RD_RMA_DEV_DESC (8 + 1 + RD_P2P_KEY_MAX)
int rd_rma_dev_local(rd_win_t *w, void *desc, size_t len);

/* Once every descriptor is here: all is 1 when every rank answered
 * rd_rma_dev_local with 1, descs(r) is rank r's desc. Puts w in device mode
 * then (this rank's own keys taken from its registrations); RD_OK, or
 * RD_EINTERN when a target lacks a key (the creation fails on every
 * rank). */
int rd_rma_dev_connect(rd_win_t *w, int all, const void *(*descs)(const void *, int),
                       const void *arg);
/* Ends the registration of this rank's lock word (window free). */
void rd_rma_dev_free(rd_win_t *w);

/* Passive-target lock of target's lock word (rma_win.h: shared holders,
 * plus RD_RMA_LOCK_EXCL) on a window in device mode, with the device's
 * atomics, its own included: taking it retries (with progress) until it
 * holds; release waits for its atomic. RD_OK or the transport's error. */
int rd_rma_dev_lock(rd_win_t *w, int target, int type);
int rd_rma_dev_unlock(rd_win_t *w, int target, int type);

/* Whether accumulates of kind k on w go by device atomics (those of 8-byte
 * lock-free kinds on a window in device mode). */
static inline int rd_rma_dev_takes(const rd_win_t *w, int k)
{
    return w->rma->dev_atomics && rd_rma_acc_atomic(k) && rd_rma_basic_size(k) == 8;
}

/* What rd_rma_dev_acc, _fetch_op and _cas return, having issued nothing,
 * for target elements that are not 8-byte aligned in the target's memory:
 * the device never reaches those, so the caller's usual path (the same
 * for every access to that address) keeps them consistent. */
#define RD_RMA_DEV_USUAL 100

/* Accumulate (get 0) or Get_accumulate (get 1) of elements of kind k
 * (rd_rma_dev_takes) at tdata, bytes long, checked by the caller; r as
 * rd_rma_acc's. Each element is one fetch-add (integer MPI_SUM,
 * MPI_NO_OP) or a compare-and-swap loop around the reduction kernel.
 * RD_RMA_DEV_USUAL when no element is 8-byte aligned; RD_ENOTSUP (nothing
 * issued) when some are and some are not. */
int rd_rma_dev_acc(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r, int get, int k,
                   uint64_t tdata, size_t bytes);
/* Fetch_and_op and Compare_and_swap of one element of kind k at tdata;
 * RD_RMA_DEV_USUAL for a misaligned element. */
int rd_rma_dev_fetch_op(rd_win_t *w, const rd_rma_op_t *op, int k, uint64_t tdata);
int rd_rma_dev_cas(rd_win_t *w, const rd_rma_op_t *op, uint64_t tdata);

/* RDMPI_VERBOSE: windows in device mode, fetch-adds and compare-and-swaps
 * issued by operations, atomics on lock words. */
void rd_rma_dev_counts(unsigned long *windows, unsigned long *fadd, unsigned long *cswap,
                       unsigned long *lock);

#endif
