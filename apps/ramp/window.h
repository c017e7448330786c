/* window: how the methods' windows are made, MPI_Win_allocate (the
 * default: node peers reach the memory by loads and stores) or
 * MPI_Win_create on malloc'd memory (--window create: one-sided
 * operations between node peers then go through the target's MPI
 * progress, a different path, and what many programs do). */
#ifndef RAMP_WINDOW_H
#define RAMP_WINDOW_H

#include <stddef.h>
#include <mpi.h>

#include "opts.h"

struct ramp_window {
    MPI_Win win;
    void *base;
    int created;    /* base is ours to free */
};

/* Collective over comm: a window of bytes bytes (zeroed) with disp_unit,
 * in a lock_all epoch once every rank's memory is zeroed. Returns
 * MPI_SUCCESS or an MPI error code. */
int ramp_window_new(struct ramp_window *w, const struct ramp_opts *o, size_t bytes,
                    int disp_unit, MPI_Comm comm);
void ramp_window_free(struct ramp_window *w);

#endif
