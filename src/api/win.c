/*
 * Window creation and destruction: MPI_Win_create, Win_allocate,
 * Win_allocate_shared, Win_create_dynamic (and their large-count forms),
 * Win_free, Win_shared_query, Win_attach / Win_detach, and MPI_Alloc_mem /
 * MPI_Free_mem.
 *
 * Creation is collective and never leaves a member waiting: the window
 * keeps a private duplicate of the communicator; every member runs every
 * collective step (descriptor allgather, the agreement on the outcome)
 * even when its own part failed, marking its descriptor failed, and then
 * all members return the same error. Argument errors are local, as in
 * every MPI library: they return before the first collective step.
 */
#include "api/win.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "api/info.h"
#include "coll/coll.h"
#include "util/errdetail.h"

/* The outcome every member agrees on: its own status, or the first failed
 * member's. */
static int agree(rd_comm_t *c, int rc)
{
    int *all = malloc((size_t)c->size * sizeof(*all));
    if (!all)
        return RD_ENOMEM;
    int32_t mine = rc;
    int cr = rd_coll_allgather_bytes(c, &mine, sizeof(mine), all);
    int out = rc;
    for (int r = 0; r < c->size && cr == RD_OK && out == RD_OK; r++)
        if (all[r] < 0) {
            out = all[r];
            rd_err_detail("window creation failed at rank %d of the communicator (%s)", r,
                          rd_status_str(all[r]));
        }
    free(all);
    return cr != RD_OK ? cr : out;
}

/* The collective part of creation, lock held: on success *out is the
 * window (not yet registered with the API). Buffers come in one
 * allocation made before the first collective step; only its failure
 * (a few KiB per member) leaves this rank out of the steps. */
static int build(rd_comm_t *c, int flavor, void *base, size_t size, int disp_unit,
                 const rd_win_hints_t *hints, rd_win_t **out)
{
    rd_comm_t *wc;
    *out = NULL;
    int rc = rd_api_comm_create_from(c, c->group, &wc);
    if (rc != RD_OK)
        return rc;
    size_t n = (size_t)wc->size;
    unsigned char *block =
        malloc((n + 1) * RD_RMA_DESC_MAX + n * (sizeof(uint64_t) + sizeof(size_t)));
    if (!block) {
        rd_err_detail("window creation: out of memory for the descriptors of %zu ranks", n);
        rd_api_comm_destroy(wc);
        return RD_ENOMEM;
    }
    unsigned char *descs = block, *mine = block + n * RD_RMA_DESC_MAX;
    uint64_t *all = (uint64_t *)(void *)(mine + RD_RMA_DESC_MAX);
    size_t *sizes = (size_t *)(void *)(all + n);
    if (flavor == RD_WIN_SHARED) {
        /* Every member learns every size: rank 0 sizes the segment. */
        uint64_t sz = size;
        rc = rd_coll_allgather_bytes(wc, &sz, sizeof(sz), all);
        for (size_t r = 0; r < n; r++)
            sizes[r] = (size_t)all[r];
    }
    rd_win_t *w = NULL;
    if (rc == RD_OK)
        rc = rd_rma_win_new(wc, flavor, base, size, disp_unit, hints, sizes, &w, mine);
    else
        rd_rma_desc_fail(mine, rc);
    int cr = rd_coll_allgather_bytes(wc, mine, RD_RMA_DESC_MAX, descs);
    if (rc == RD_OK)
        rc = cr;
    if (rc == RD_OK)
        rc = rd_rma_win_connect(w, descs);
    rc = agree(wc, rc);
    if (rc == RD_OK)
        rd_rma_win_ready(w);
    free(block);
    if (rc != RD_OK) {
        rd_rma_win_destroy(w);
        rd_api_comm_destroy(wc);
        return rc;
    }
    *out = w;
    return RD_OK;
}

/* Checks the arguments every creation has, then creates. baseptr: where
 * ALLOCATE and SHARED windows return their memory, else NULL. */
static int create(int flavor, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                  MPI_Comm comm, void *baseptr, MPI_Win *win, const char *fn)
{
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = rd_api_check_intra(c, fn)))
        return err;
    if (!win)
        return rd_api_error(c, MPI_ERR_ARG, fn, "win pointer is NULL");
    if (size < 0)
        return rd_api_error(c, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
    if (disp_unit <= 0 || disp_unit > INT_MAX)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "disp_unit %ld is not a positive int (it must be > 0)",
                            (long)disp_unit);
    if ((flavor == RD_WIN_ALLOCATE || flavor == RD_WIN_SHARED) && !baseptr)
        return rd_api_error(c, MPI_ERR_ARG, fn, "baseptr is NULL");
    if (flavor == RD_WIN_CREATE && size > 0 && !base)
        return rd_api_error(c, MPI_ERR_ARG, fn, "base is NULL for a window of %ld bytes",
                            (long)size);
    if (info != MPI_INFO_NULL && !rd_api_info(info))
        return rd_api_error(c, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    rd_win_hints_t hints;
    rd_api_win_hints(info, &hints);
    rd_win_t *w;
    rd_api_lock();
    int rc = build(c, flavor, base, (size_t)size, (int)disp_unit, &hints, &w);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    if ((err = rd_api_win_register(w)) != MPI_SUCCESS) {
        rd_api_lock();
        rd_comm_t *wc = w->comm;
        rd_rma_win_destroy(w);
        rd_api_comm_destroy(wc);
        rd_api_unlock();
        return rd_api_error(c, err, fn, "out of memory for the window object");
    }
    if (baseptr)
        *(void **)baseptr = w->base;
    *win = w->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Win_create)
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
    return create(RD_WIN_CREATE, base, size, disp_unit, info, comm, NULL, win, "MPI_Win_create");
}

RD_WEAK_ALIAS(MPI_Win_create_c)
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, MPI_Win *win)
{
    return create(RD_WIN_CREATE, base, size, disp_unit, info, comm, NULL, win,
                  "MPI_Win_create_c");
}

RD_WEAK_ALIAS(MPI_Win_allocate)
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win)
{
    return create(RD_WIN_ALLOCATE, NULL, size, disp_unit, info, comm, baseptr, win,
                  "MPI_Win_allocate");
}

RD_WEAK_ALIAS(MPI_Win_allocate_c)
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win)
{
    return create(RD_WIN_ALLOCATE, NULL, size, disp_unit, info, comm, baseptr, win,
                  "MPI_Win_allocate_c");
}

RD_WEAK_ALIAS(MPI_Win_allocate_shared)
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    return create(RD_WIN_SHARED, NULL, size, disp_unit, info, comm, baseptr, win,
                  "MPI_Win_allocate_shared");
}

RD_WEAK_ALIAS(MPI_Win_allocate_shared_c)
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win)
{
    return create(RD_WIN_SHARED, NULL, size, disp_unit, info, comm, baseptr, win,
                  "MPI_Win_allocate_shared_c");
}

RD_WEAK_ALIAS(MPI_Win_create_dynamic)
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return create(RD_WIN_DYNAMIC, NULL, 0, 1, info, comm, NULL, win, "MPI_Win_create_dynamic");
}

/* Collective: the barrier makes sure no member still accesses this
 * rank's window memory when it is released. An open epoch is refused
 * before anything happens (the window stays usable). */
RD_WEAK_ALIAS(MPI_Win_free)
int PMPI_Win_free(MPI_Win *win)
{
    static const char fn[] = "MPI_Win_free";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if (!win)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "win pointer is NULL");
    if ((err = rd_api_check_win(*win, &w, fn)))
        return err;
    rd_api_lock();
    int rc = rd_rma_win_free_check(w);
    rd_api_unlock();
    if (rc == RD_ESYNC)
        return rd_api_win_status_error(w, rc, fn);
    if ((err = rd_api_win_attr_delete_all(w)) != MPI_SUCCESS)
        return err;
    rd_api_lock();
    rd_comm_t *wc = w->comm;
    int br = rd_coll_barrier(wc);
    rd_api_unlock();
    if (rc == RD_OK)
        rc = br;
    rd_api_win_unregister(w);
    rd_api_lock();
    rd_rma_win_destroy(w);
    rd_api_comm_destroy(wc);
    rd_api_unlock();
    *win = MPI_WIN_NULL;
    if (rc != RD_OK)
        return rd_api_status_error(rd_api.world, rc, fn);
    return MPI_SUCCESS;
}

static int shared_query(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                        void *baseptr, const char *fn)
{
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->comm->size))
        return rd_api_win_error(w, MPI_ERR_RANK, fn, "rank %d is not in the window's group "
                                "of %d", rank, w->comm->size);
    if (!size || !disp_unit || !baseptr)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "an output pointer is NULL");
    void *b;
    size_t sz;
    int du;
    rd_api_lock();
    int rc = rd_rma_shared_query(w, rank, &b, &sz, &du);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_win_status_error(w, rc, fn);
    *size = (MPI_Aint)sz;
    *disp_unit = du;
    *(void **)baseptr = b;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Win_shared_query)
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPI_Aint du;
    int err = shared_query(win, rank, size, &du, baseptr, "MPI_Win_shared_query");
    if (err == MPI_SUCCESS)
        *disp_unit = (int)du;
    return err;
}

RD_WEAK_ALIAS(MPI_Win_shared_query_c)
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    return shared_query(win, rank, size, disp_unit, baseptr, "MPI_Win_shared_query_c");
}

RD_WEAK_ALIAS(MPI_Win_attach)
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    static const char fn[] = "MPI_Win_attach";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (size < 0)
        return rd_api_win_error(w, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
    if (size > 0 && !base)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "base is NULL");
    rd_api_lock();
    int rc = rd_rma_attach(w, base, (size_t)size);
    rd_api_unlock();
    return rc == RD_OK ? MPI_SUCCESS : rd_api_win_status_error(w, rc, fn);
}

RD_WEAK_ALIAS(MPI_Win_detach)
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    static const char fn[] = "MPI_Win_detach";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    rd_api_lock();
    int rc = rd_rma_detach(w, base);
    rd_api_unlock();
    return rc == RD_OK ? MPI_SUCCESS : rd_api_win_status_error(w, rc, fn);
}

/* Memory registered with every transport that offers remote access, so
 * that windows over it need no registration of their own on the way. */
RD_WEAK_ALIAS(MPI_Alloc_mem)
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    static const char fn[] = "MPI_Alloc_mem";
    RD_API_CHECK_INIT(fn);
    if (size < 0)
        return rd_api_error(NULL, MPI_ERR_SIZE, fn, "size %ld is negative", (long)size);
    if (!baseptr)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "baseptr is NULL");
    if (info != MPI_INFO_NULL && !rd_api_info(info))
        return rd_api_error(NULL, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    void *p;
    rd_api_lock();
    int rc = rd_rma_alloc_mem((size_t)size, &p);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "cannot allocate %ld bytes", (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Free_mem)
int PMPI_Free_mem(void *base)
{
    static const char fn[] = "MPI_Free_mem";
    RD_API_CHECK_INIT(fn);
    if (!base)
        return MPI_SUCCESS;
    rd_api_lock();
    int rc = rd_rma_free_mem(base);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_error(NULL, MPI_ERR_BASE, fn, "invalid base");
    return MPI_SUCCESS;
}
