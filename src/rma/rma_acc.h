/*
 * Applying accumulate operations to window memory, element by element and
 * atomically as MPI requires of concurrent accumulates: the one function
 * every CPU path uses, the origin on a mapped window (SHM path) and the
 * target for an active message, so that both agree.
 */
#ifndef RD_RMA_RMA_ACC_H
#define RD_RMA_RMA_ACC_H

#include <stddef.h>

#include "core/datatype.h"
#include "core/op.h"
#include "rma/rma_wire.h"

/* The basic kind an accumulate on dt works on (enum rd_basic): dt's own,
 * or the one every type dt was built from shares; MPI_BYTE counts as
 * uint8, MPI_CHAR as int8. RD_BASIC_NONE when there is none (only MPI_REPLACE and MPI_NO_OP
 * then apply, on plain bytes). */
int rd_rma_dt_basic(const rd_datatype_t *dt);
/* Packed bytes of one element of kind k (1 for RD_BASIC_NONE). */
size_t rd_rma_basic_size(int k);
/* 1 when elements of kind k are updated with lock-free CPU atomics (1, 2,
 * 4 or 8 bytes, not a pair), so that an origin on this node may apply
 * them in the target's memory itself; else 0: only the target applies
 * them, in its progress, one message at a time. */
int rd_rma_acc_atomic(int k);

/* Applies op (enum rd_op_kind) to the target bytes at base that runs
 * b[0..nb) describe (nb 0: one run of len bytes) with len packed bytes
 * from in, elements of kind k; old, when not NULL, receives the values
 * found before (len packed bytes). Atomic per element for atomic kinds;
 * for the others the caller keeps applications apart. RD_OK or RD_ENOMEM. */
int rd_rma_acc_apply(int op, int k, char *base, const rd_rma_block_t *b, size_t nb, size_t len,
                     const void *in, void *old);
/* rd_rma_acc_apply on memory that no other process maps (a Win_create or
 * dynamic window, a Win_allocate window in private memory), applied by its
 * owner's progress one message at a time: nobody else can update these
 * bytes meanwhile, so whole runs go through the reduction kernels instead
 * of one atomic per element. */
int rd_rma_acc_apply_private(int op, int k, char *base, const rd_rma_block_t *b, size_t nb,
                             size_t len, const void *in, void *old);
/* One element of kind k (rd_rma_acc_atomic) at t, updated with op from
 * in (not read for RD_OP_NO_OP); old, when not NULL, receives the value
 * found. */
void rd_rma_acc_one(int op, int k, void *t, const void *in, void *old);
/* Compare_and_swap of one element of kind k at t: old receives the value
 * found; swap is stored when it equals cmp. */
void rd_rma_acc_cas(int k, void *t, const void *cmp, const void *swap, void *old);

#endif
