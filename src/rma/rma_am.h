/*
 * The target side of the operations: the active-message handlers that
 * apply PUT, GET, ACC, GET_ACC, FOP and CAS to this rank's window memory
 * and answer the origin (rma_wire.h).
 */
#ifndef RD_RMA_RMA_AM_H
#define RD_RMA_RMA_AM_H

#include <stddef.h>
#include <stdint.h>

#include "core/comm.h"

/* Registers the target handlers (from rd_rma_ops_init) and the progress
 * hook that sends coalesced acknowledgements; rd_rma_am_finalize frees
 * their state (from rd_rma_ops_finalize). */
int rd_rma_am_init(void);
void rd_rma_am_finalize(void);

/* Whether [addr, addr+len) (rma_wire.h's addr: an offset from the window
 * base, an absolute address for a dynamic window) lies inside this rank's
 * part of w; sets *p to where those bytes are here. */
struct rd_win;
int rd_rma_am_local(struct rd_win *w, uint64_t addr, uint64_t len, char **p);

#endif
