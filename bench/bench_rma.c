/*
 * One-sided plumbing of the RMA benchmarks (see bench_rma.h): making and
 * freeing the window of each kind, epochs, and the error reports. Nothing
 * here runs inside a timed loop except bench_rma_fail, on an error.
 */
#include "bench_rma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The running benchmark, for error messages. */
static const bench_info_t *rma_info;

static const char *prog_name(void)
{
    return rma_info ? rma_info->name : "bench";
}

/* "<fn>: not supported by this MPI library: <message>" or "<fn>: <message>"
 * into line; returns 1 if the error says the operation is unsupported. */
static int describe(int rc, const char *fn, char *line, size_t len)
{
    char text[MPI_MAX_ERROR_STRING];
    int cls = MPI_ERR_OTHER, n = 0;

    MPI_Error_class(rc, &cls);
    if (MPI_Error_string(rc, text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof(text), "error code %d", rc);
    text[strcspn(text, "\r\n")] = '\0';
    if (cls == MPI_ERR_UNSUPPORTED_OPERATION) {
        snprintf(line, len, "%s: not supported by this MPI library: %s", fn,
                 text);
        return 1;
    }
    snprintf(line, len, "%s: %s", fn, text);
    return 0;
}

void bench_rma_fail(int rc, const char *fn)
{
    char line[MPI_MAX_ERROR_STRING + 128];
    int rank = 0, unsupported = describe(rc, fn, line, sizeof(line));

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "%s: rank %d: %s\n", prog_name(), rank, line);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, unsupported ? BENCH_EXIT_UNSUPPORTED : 1);
}

/* After the window calls: if any rank failed, the lowest one says why, and
 * every rank finalizes and exits (they all got here, so MPI still works). */
static void agree_or_exit(int rc, const char *fn, int rank)
{
    char line[MPI_MAX_ERROR_STRING + 128] = "";
    int nprocs, mine, first, status, worst;

    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    status = rc == MPI_SUCCESS ? 0 : 1;
    if (rc != MPI_SUCCESS && describe(rc, fn, line, sizeof(line)))
        status = BENCH_EXIT_UNSUPPORTED;
    mine = rc == MPI_SUCCESS ? nprocs : rank;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (first == nprocs)
        return;
    if (rank == first) {
        fprintf(stderr, "%s: rank %d: %s\n", prog_name(), rank, line);
        fflush(stderr);
    }
    MPI_Finalize();
    exit(worst);
}

void bench_win_open(const bench_info_t *info, const bench_opts_t *o,
                    size_t bytes, bench_win_t *w)
{
    MPI_Group world;
    MPI_Aint mine = 0, all[2];
    const char *fn = "MPI_Win_allocate";
    int rc = MPI_SUCCESS;

    rma_info = info;
    memset(w, 0, sizeof(*w));
    w->win = MPI_WIN_NULL;
    w->bytes = bytes;
    w->sync = o->sync;
    w->kind = o->win_kind;
    MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
    w->peer = 1 - w->rank;

    /* Errors of window creation go to the communicator's handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    switch (w->kind) {
    case BENCH_WIN_ALLOCATE:
        rc = MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL,
                              MPI_COMM_WORLD, &w->base, &w->win);
        break;
    case BENCH_WIN_CREATE:
        fn = "MPI_Win_create";
        w->own_mem = w->base = bench_alloc(bytes);
        rc = MPI_Win_create(w->base, (MPI_Aint)bytes, 1, MPI_INFO_NULL,
                            MPI_COMM_WORLD, &w->win);
        break;
    case BENCH_WIN_DYNAMIC:
        fn = "MPI_Win_create_dynamic";
        w->own_mem = w->base = bench_alloc(bytes);
        rc = MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
        break;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rc == MPI_SUCCESS) {
        fn = "MPI_Win_set_errhandler";
        rc = MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
    }
    if (rc == MPI_SUCCESS && w->kind == BENCH_WIN_DYNAMIC && bytes > 0) {
        fn = "MPI_Win_attach";
        rc = MPI_Win_attach(w->win, w->base, (MPI_Aint)bytes);
    }
    agree_or_exit(rc, fn, w->rank);

    /* A dynamic window is addressed by the target's absolute addresses. */
    if (w->kind == BENCH_WIN_DYNAMIC) {
        MPI_Get_address(w->base, &mine);
        MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
        w->peer_base = all[w->peer];
    }
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &w->peer, &w->peer_group);
    MPI_Group_free(&world);

    /* bench_alloc wrote the program's memory; the library's is new. */
    if (w->kind == BENCH_WIN_ALLOCATE && bytes > 0) {
        bench_win_local_begin(w);
        memset(w->base, 0xa5, bytes);
        bench_win_local_end(w);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

void bench_win_close(bench_win_t *w)
{
    if (w->kind == BENCH_WIN_DYNAMIC && w->bytes > 0)
        bench_rma_ok(MPI_Win_detach(w->win, w->base), "MPI_Win_detach");
    bench_rma_ok(MPI_Win_free(&w->win), "MPI_Win_free");
    MPI_Group_free(&w->peer_group);
    free(w->own_mem);
    w->own_mem = NULL;
    w->base = NULL;
}

void bench_rma_begin(bench_win_t *w)
{
    switch (w->sync) {
    case BENCH_SYNC_FLUSH:
        if (w->rank == 0)
            bench_rma_ok(MPI_Win_lock_all(0, w->win), "MPI_Win_lock_all");
        break;
    case BENCH_SYNC_FENCE:
        bench_rma_ok(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win),
                     "MPI_Win_fence");
        break;
    case BENCH_SYNC_LOCK:
    case BENCH_SYNC_PSCW:
        break;
    }
}

void bench_rma_end(bench_win_t *w)
{
    switch (w->sync) {
    case BENCH_SYNC_FLUSH:
        if (w->rank == 0)
            bench_rma_ok(MPI_Win_unlock_all(w->win), "MPI_Win_unlock_all");
        break;
    case BENCH_SYNC_FENCE:
        bench_rma_ok(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win),
                     "MPI_Win_fence");
        break;
    case BENCH_SYNC_LOCK:
    case BENCH_SYNC_PSCW:
        break;
    }
}

void bench_win_local_begin(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w->rank, 0, w->win),
                 "MPI_Win_lock");
}

void bench_win_local_end(bench_win_t *w)
{
    bench_rma_ok(MPI_Win_unlock(w->rank, w->win), "MPI_Win_unlock");
}

int bench_rma_latency_origin(const bench_win_t *w)
{
    return w->rank == 0 || !bench_rma_passive(w);
}

int bench_rma_latency_target(const bench_win_t *w)
{
    return w->rank == 1 || !bench_rma_passive(w);
}

double bench_rma_latency_us(const bench_win_t *w, double t, int n)
{
    int ops = bench_rma_passive(w) ? n : 2 * n;

    return t * 1e6 / ops;
}
