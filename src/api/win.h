/*
 * What the window entry points share: decoding and checking MPI_Win
 * handles, errors raised on a window (its error handler, not a
 * communicator's), window attributes and info hints. Three files use it:
 *   win.c       creation, free, shared query, attach/detach, Alloc_mem
 *   win_sync.c  fence, PSCW, lock/unlock, flush, sync
 *   rma.c       Put, Get, accumulates, atomics, notified puts
 * and win_errh.c (handles, errors, error handlers), win_attr.c (the
 * object's lifetime, attributes, keyvals, name, group) and win_info.c
 * (hints) implement the object side.
 *
 * Unless a function says "lock held", it must be called without the
 * library lock: error handlers and attribute callbacks are user code that
 * may call MPI, and the others take the lock themselves.
 */
#ifndef RD_API_WIN_H
#define RD_API_WIN_H

#include <mpi.h>

#include "api/api.h"
#include "rma/rma.h"

static inline rd_win_t *rd_api_win(MPI_Win h) { return rd_handle_get(RD_OBJ_WIN, h); }

/* Decodes h into *w; MPI_ERR_WIN (raised on MPI_COMM_WORLD's handler, as
 * MPICH does for an invalid window) when it is not a live window. */
int rd_api_check_win(MPI_Win h, rd_win_t **w, const char *fn);

/* rd_api_error for a window: formats the reason, applies w's error handler
 * (MPI_ERRORS_ARE_FATAL by default, as the standard says for windows) and
 * returns the code for the user. */
int rd_api_win_error(rd_win_t *w, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Same for an internal status from rma (RD_ESYNC -> MPI_ERR_RMA_SYNC ...),
 * with its error detail and this rank in w->comm. */
int rd_api_win_status_error(rd_win_t *w, int status, const char *fn);
/* rd_api_raise for a window: applies w's handler to an existing code. */
int rd_api_win_raise(rd_win_t *w, int code, const char *fn);

/* A new window object for rma's w (w->hints already set by rma): a
 * handle, MPI_ERRORS_ARE_FATAL, empty name and attributes, the hints in
 * effect for MPI_Win_get_info. MPI_SUCCESS or MPI_ERR_NO_MEM (not raised:
 * nothing is left registered). */
int rd_api_win_register(rd_win_t *w);
/* Deletes w's attributes, last set first (delete callbacks run). Returns
 * MPI_SUCCESS or the code of the delete callback that failed (the window
 * then stays). */
int rd_api_win_attr_delete_all(rd_win_t *w);
/* Then, at the end of MPI_Win_free: drops w's handle, error handler
 * reference and info. */
void rd_api_win_unregister(rd_win_t *w);

/* Parses the hints rma acts on from info (MPI_INFO_NULL or an invalid
 * handle: the defaults; the caller checks the handle). Unknown keys and
 * invalid values are ignored, as in MPICH. */
void rd_api_win_hints(MPI_Info info, rd_win_hints_t *h);
/* The info object of the hints in effect for hints h, kept in w->info:
 * its handle, or 0 on ENOMEM. Lock held. */
int rd_api_win_info_new(const rd_win_hints_t *h);

#endif
