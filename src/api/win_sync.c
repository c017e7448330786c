/*
 * Window synchronization entry points: MPI_Win_fence, the PSCW calls
 * (Win_post, Win_start, Win_complete, Win_wait, Win_test), passive target
 * (Win_lock, Win_unlock, Win_lock_all, Win_unlock_all, the flushes) and
 * Win_sync. rma does the work; this file checks arguments, translates
 * groups into ranks of the window, and runs fence's barrier (coll).
 *
 * Known limit: the blocking calls (start waiting for POSTs, wait, lock
 * waiting for its grant, flushes) wait with the library lock held, as
 * the internal collectives do, so with MPI_THREAD_MULTIPLE they block the
 * process's other threads until they return.
 */
#include "api/win.h"

#include <stdlib.h>

#include "coll/coll.h"

#define MODE_ALL (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | \
                  MPI_MODE_NOSUCCEED)

static int check_assert(rd_win_t *w, int assert, int allowed, const char *fn)
{
    if (assert & ~allowed)
        return rd_api_win_error(w, MPI_ERR_ASSERT, fn, "assert 0x%x has bits this call does "
                                "not take (0x%x)", (unsigned)assert, (unsigned)(assert & ~allowed));
    return MPI_SUCCESS;
}

static int check_rank(rd_win_t *w, int rank, const char *fn)
{
    if (rank >= 0 && rank < w->comm->size)
        return MPI_SUCCESS;
    return rd_api_win_error(w, MPI_ERR_RANK, fn, "rank %d is not in the window's group of %d",
                            rank, w->comm->size);
}

/* The window of a synchronization call with its assert checked against
 * allowed (lock not held): MPI_SUCCESS and *w, or the error raised. */
static int sync_win(MPI_Win win, int assert, int allowed, rd_win_t **w, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, w, fn)))
        return err;
    return check_assert(*w, assert, allowed, fn);
}

/* The result of an rma call, lock held before: unlocks and raises. */
static int done(rd_win_t *w, int rc, const char *fn)
{
    rd_api_unlock();
    return rc == RD_OK ? MPI_SUCCESS : rd_api_win_status_error(w, rc, fn);
}

/* ---- fence ---- */

/* The barrier is skipped only when no epoch closes and none opens. */
RD_WEAK_ALIAS(MPI_Win_fence)
int PMPI_Win_fence(int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_fence";
    rd_win_t *w;
    int err = sync_win(win, assert, MODE_ALL, &w, fn);
    if (err)
        return err;
    rd_api_lock();
    int rc = rd_rma_fence_begin(w, assert);
    if (rc == RD_ESYNC)
        return done(w, rc, fn);
    if ((assert & (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)) !=
        (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)) {
        int br = rd_coll_barrier(w->comm);
        if (rc == RD_OK)
            rc = br;
    }
    int er = rd_rma_fence_end(w, assert);
    return done(w, rc != RD_OK ? rc : er, fn);
}

/* ---- PSCW ---- */

/* Ranks of w's communicator of the members of group h (*ranks malloc'ed). */
static int group_ranks(rd_win_t *w, MPI_Group h, int **ranks, int *n, const char *fn)
{
    rd_group_t *g = rd_api_group(h);
    if (!g)
        return rd_api_win_error(w, MPI_ERR_GROUP, fn, h == MPI_GROUP_NULL
                                ? "group is MPI_GROUP_NULL" : "invalid group handle 0x%x",
                                (unsigned)h);
    int *r = malloc((size_t)(g->size ? g->size : 1) * sizeof(*r));
    if (!r)
        return rd_api_win_error(w, MPI_ERR_NO_MEM, fn, "out of memory for a group of %d",
                                g->size);
    for (int i = 0; i < g->size; i++)
        if ((r[i] = rd_group_rank_of(w->comm->group, g->world[i])) < 0) {
            free(r);
            return rd_api_win_error(w, MPI_ERR_GROUP, fn, "rank %d of the group (MPI_COMM_WORLD "
                                    "rank %d) is not in the window's group", i, g->world[i]);
        }
    *ranks = r;
    *n = g->size;
    return MPI_SUCCESS;
}

static int post_or_start(MPI_Group group, int assert, MPI_Win win, int post, const char *fn)
{
    rd_win_t *w;
    int err, *ranks = NULL, n = 0;
    if ((err = sync_win(win, assert, post ? MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT
                                          : MPI_MODE_NOCHECK, &w, fn)) ||
        (err = group_ranks(w, group, &ranks, &n, fn)))
        return err;
    rd_api_lock();
    int rc = post ? rd_rma_post(w, ranks, n, assert) : rd_rma_start(w, ranks, n, assert);
    free(ranks);
    return done(w, rc, fn);
}

RD_WEAK_ALIAS(MPI_Win_post)
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    return post_or_start(group, assert, win, 1, "MPI_Win_post");
}

RD_WEAK_ALIAS(MPI_Win_start)
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    return post_or_start(group, assert, win, 0, "MPI_Win_start");
}

/* The calls that take only the window. */
enum { W_COMPLETE, W_WAIT, W_UNLOCK_ALL, W_FLUSH_ALL, W_FLUSH_LOCAL_ALL, W_SYNC };

static int on_window(MPI_Win win, int what, const char *fn)
{
    rd_win_t *w;
    int err = sync_win(win, 0, 0, &w, fn);
    if (err)
        return err;
    rd_api_lock();
    int rc;
    switch (what) {
    case W_COMPLETE: rc = rd_rma_complete(w); break;
    case W_WAIT: rc = rd_rma_wait(w); break;
    case W_UNLOCK_ALL: rc = rd_rma_unlock_all(w); break;
    case W_FLUSH_ALL: rc = rd_rma_flush(w, -1, 0); break;
    case W_FLUSH_LOCAL_ALL: rc = rd_rma_flush(w, -1, 1); break;
    default: rc = rd_rma_sync(w); break;
    }
    return done(w, rc, fn);
}

RD_WEAK_ALIAS(MPI_Win_complete)
int PMPI_Win_complete(MPI_Win win)
{
    return on_window(win, W_COMPLETE, "MPI_Win_complete");
}

RD_WEAK_ALIAS(MPI_Win_wait)
int PMPI_Win_wait(MPI_Win win)
{
    return on_window(win, W_WAIT, "MPI_Win_wait");
}

RD_WEAK_ALIAS(MPI_Win_test)
int PMPI_Win_test(MPI_Win win, int *flag)
{
    static const char fn[] = "MPI_Win_test";
    rd_win_t *w;
    int err = sync_win(win, 0, 0, &w, fn);
    if (err)
        return err;
    if (!flag)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "flag pointer is NULL");
    rd_api_lock();
    return done(w, rd_rma_test(w, flag), fn);
}

/* ---- passive target ---- */

RD_WEAK_ALIAS(MPI_Win_lock)
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_lock";
    rd_win_t *w;
    int err = sync_win(win, assert, MPI_MODE_NOCHECK, &w, fn);
    if (err)
        return err;
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        return rd_api_win_error(w, MPI_ERR_LOCKTYPE, fn, "lock_type %d is neither "
                                "MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", lock_type);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if ((err = check_rank(w, rank, fn)))
        return err;
    rd_api_lock();
    return done(w, rd_rma_lock(w, lock_type == MPI_LOCK_SHARED ? RD_LOCK_SHARED
                                                               : RD_LOCK_EXCLUSIVE, rank, assert),
                fn);
}

/* The calls that take a rank and the window. */
enum { R_UNLOCK, R_FLUSH, R_FLUSH_LOCAL };

static int on_rank(int rank, MPI_Win win, int what, const char *fn)
{
    rd_win_t *w;
    int err = sync_win(win, 0, 0, &w, fn);
    if (err)
        return err;
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if ((err = check_rank(w, rank, fn)))
        return err;
    rd_api_lock();
    int rc = what == R_UNLOCK ? rd_rma_unlock(w, rank)
                              : rd_rma_flush(w, rank, what == R_FLUSH_LOCAL);
    return done(w, rc, fn);
}

RD_WEAK_ALIAS(MPI_Win_unlock)
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    return on_rank(rank, win, R_UNLOCK, "MPI_Win_unlock");
}

/* Flush checks in a few compares (a live window, a rank of its group),
 * the detailed ones in on_rank otherwise. */
RD_WEAK_ALIAS(MPI_Win_flush)
int PMPI_Win_flush(int rank, MPI_Win win)
{
    rd_win_t *w = rd_api_win(win);
    if (!__builtin_expect(w && rd_api.initialized && !rd_api.finalized &&
                              (unsigned)rank < (unsigned)w->comm->size, 1))
        return on_rank(rank, win, R_FLUSH, "MPI_Win_flush");
    rd_api_lock();
    return done(w, rd_rma_flush(w, rank, 0), "MPI_Win_flush");
}

RD_WEAK_ALIAS(MPI_Win_flush_local)
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    return on_rank(rank, win, R_FLUSH_LOCAL, "MPI_Win_flush_local");
}

RD_WEAK_ALIAS(MPI_Win_lock_all)
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    static const char fn[] = "MPI_Win_lock_all";
    rd_win_t *w;
    int err = sync_win(win, assert, MPI_MODE_NOCHECK, &w, fn);
    if (err)
        return err;
    rd_api_lock();
    return done(w, rd_rma_lock_all(w, assert), fn);
}

RD_WEAK_ALIAS(MPI_Win_unlock_all)
int PMPI_Win_unlock_all(MPI_Win win)
{
    return on_window(win, W_UNLOCK_ALL, "MPI_Win_unlock_all");
}

RD_WEAK_ALIAS(MPI_Win_flush_all)
int PMPI_Win_flush_all(MPI_Win win)
{
    return on_window(win, W_FLUSH_ALL, "MPI_Win_flush_all");
}

RD_WEAK_ALIAS(MPI_Win_flush_local_all)
int PMPI_Win_flush_local_all(MPI_Win win)
{
    return on_window(win, W_FLUSH_LOCAL_ALL, "MPI_Win_flush_local_all");
}

RD_WEAK_ALIAS(MPI_Win_sync)
int PMPI_Win_sync(MPI_Win win)
{
    return on_window(win, W_SYNC, "MPI_Win_sync");
}
