/*
 * The origin side of Put, Get, the accumulates and the atomics (rma.h's
 * rd_rma_put ... rd_rma_cas), and what notified puts reuse of it.
 */
#ifndef RD_RMA_RMA_ORIGIN_H
#define RD_RMA_RMA_ORIGIN_H

#include "rma/rma_impl.h"

/* How rd_rma_put_via moved the data. */
enum rd_rma_via { RD_RMA_VIA_NONE, RD_RMA_VIA_LOCAL, RD_RMA_VIA_RDMA, RD_RMA_VIA_AM };

/* rd_rma_put, saying how the data went (*via): LOCAL (copied into mapped
 * memory: there now), RDMA (there after a flush), AM (there when its
 * messages are handled, in order with later messages to the target), or
 * NONE (nothing to move). */
int rd_rma_put_via(rd_win_t *w, const rd_rma_op_t *op, rd_request_t *r, int *via);

/* Reads the origin's tunables (rma_tunables.h), from rd_rma_ops_init. */
int rd_rma_origin_init(void);

/* The checks every operation makes before anything moves (epoch, target
 * range for windows whose size the origin knows): RD_OK with *tdata the
 * target address of the first data byte (rma_wire.h's addr) and *bytes
 * the bytes at the target, or the status saying what was wrong. */
int rd_rma_check(rd_win_t *w, const rd_rma_op_t *op, uint64_t *tdata, size_t *bytes);

#endif
