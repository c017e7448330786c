/*
 * Shipping a target datatype: (count, dt) flattened into the byte runs it
 * covers, in packed order, and a cursor that cuts those runs into the
 * pieces one message carries. Every derived type (contiguous, vector,
 * indexed, struct, subarray, resized) is a tree of datatype.h nodes, so one
 * walk serves them all; the target needs no datatype, only the runs.
 */
#ifndef RD_RMA_RMA_DTYPE_H
#define RD_RMA_RMA_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "core/datatype.h"
#include "rma/rma_wire.h"

typedef struct rd_rma_flat {
    rd_rma_block_t *b;           /* runs, offsets from the first data byte (buf + true_lb) */
    size_t n, cap;
    size_t bytes;                /* sum of the lengths: count * dt->size */
} rd_rma_flat_t;

/* Flattens count elements of dt (adjacent runs merged). RD_OK or RD_ENOMEM. */
int rd_rma_flatten(size_t count, const rd_datatype_t *dt, rd_rma_flat_t *f);
void rd_rma_flat_free(rd_rma_flat_t *f);

/* count elements of dt at buf (bytes of data) as one contiguous buffer:
 * buf's own bytes when they are contiguous, else a malloc'd copy stored
 * in *copy (the caller frees it): packed from buf when pack is 1, left for
 * results the caller unpacks when it is 0. NULL only out of memory. */
void *rd_rma_contig_view(const void *buf, size_t count, const rd_datatype_t *dt, size_t bytes,
                         int pack, void **copy);

/* A position in a flattened list: run i, bytes in of it already taken. */
typedef struct rd_rma_cursor {
    const rd_rma_flat_t *f;
    size_t i;
    uint64_t in;
} rd_rma_cursor_t;

/* Takes the next piece for one message: runs (written to out, at most
 * room / sizeof(rd_rma_block_t) of them together with their bytes: each
 * run costs its descriptor and its data in room) covering at most left
 * bytes, the total a multiple of elem. Returns the runs written, with
 * *bytes their total; 0 runs when not even one element fits room. */
size_t rd_rma_cursor_take(rd_rma_cursor_t *c, size_t room, size_t left, size_t elem,
                          rd_rma_block_t *out, size_t *bytes);

#endif
