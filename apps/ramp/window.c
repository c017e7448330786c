/* window: the methods' windows, allocated by MPI or created on our own
 * memory as --window says; every one is zeroed before any rank may
 * write to it and stays in one lock_all epoch for the run. */
#include "window.h"

#include <stdlib.h>
#include <string.h>

int ramp_window_new(struct ramp_window *w, const struct ramp_opts *o, size_t bytes,
                    int disp_unit, MPI_Comm comm)
{
    int rc;
    memset(w, 0, sizeof(*w));
    if (o->window == RAMP_WIN_CREATE) {
        w->base = calloc(bytes ? bytes : 1, 1);
        if (!w->base)
            return MPI_ERR_NO_MEM;
        w->created = 1;
        rc = MPI_Win_create(w->base, (MPI_Aint)bytes, disp_unit, MPI_INFO_NULL, comm, &w->win);
    } else {
        rc = MPI_Win_allocate((MPI_Aint)bytes, disp_unit, MPI_INFO_NULL, comm, &w->base, &w->win);
        if (rc == MPI_SUCCESS)
            memset(w->base, 0, bytes);
    }
    if (rc != MPI_SUCCESS) {
        if (w->created)
            free(w->base);
        return rc;
    }
    MPI_Barrier(comm);  /* every window is clear before anyone writes */
    return MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win);
}

void ramp_window_free(struct ramp_window *w)
{
    MPI_Win_unlock_all(w->win);
    MPI_Win_free(&w->win);
    if (w->created)
        free(w->base);
    w->base = NULL;
}
