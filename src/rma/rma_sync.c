/*
 * Active-target synchronization (rma.h): fence and post-start-complete-
 * wait, the epoch check every operation makes, and Win_sync.
 *
 * Fence completes this rank's operations; the barrier the API layer runs
 * between rd_rma_fence_begin and rd_rma_fence_end then means that every
 * operation of the closing epoch, from every origin, is complete.
 * PSCW: Win_post sends POST to each origin of its group; Win_start waits
 * for the POST of each target (MPI allows start to block); Win_complete
 * completes the operations to its targets and sends them COMPLETE;
 * Win_wait / Win_test count the COMPLETEs. POSTs are counted per origin,
 * so that a POST of the next epoch arriving early is kept.
 */
#include "rma/rma_sync.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/errdetail.h"
#include "util/status.h"

int rd_rma_sync_send(rd_win_t *w, int rank, int type, int flags)
{
    rd_rma_hdr_t h = { .type = (uint8_t)type, .flags = (uint8_t)flags, .win = w->rma->id };
    int rc = rd_p2p_am_send(w->rma->peers[rank].world, &h, sizeof(h), NULL, 0, NULL, NULL);
    return rc == RD_EAGAIN ? RD_OK : rc;
}

rd_win_t *rd_rma_sync_incoming(int peer, const void *hdr, size_t hdrlen, int *rank, int *flags)
{
    rd_rma_hdr_t h;
    if (hdrlen < sizeof(h))
        return NULL;
    memcpy(&h, hdr, sizeof(h));
    rd_win_t *w = rd_rma_win_lookup(h.win);
    if (!w || (*rank = rd_rma_rank_of(w, peer)) < 0)
        return NULL;
    *flags = h.flags;
    return w;
}

static void on_post(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)payload, (void)len;
    int r, flags;
    rd_win_t *w = rd_rma_sync_incoming(peer, hdr, hdrlen, &r, &flags);
    if (w)
        w->rma->sync->posts[r]++;
}

static void on_complete(int peer, const void *hdr, size_t hdrlen, const void *payload,
                        size_t len)
{
    (void)payload, (void)len;
    int r, flags;
    rd_win_t *w = rd_rma_sync_incoming(peer, hdr, hdrlen, &r, &flags);
    if (w)
        w->rma->sync->completes++;
}

int rd_rma_sync_init(void)
{
    int rc = rd_p2p_am_register(RD_RMA_AM_POST, on_post);
    if (rc == RD_OK)
        rc = rd_p2p_am_register(RD_RMA_AM_COMPLETE, on_complete);
    return rc;
}

void rd_rma_sync_free(rd_win_t *w)
{
    struct rd_rma_sync *s = w->rma->sync;
    free(s->start_grp);
    free(s->post_grp);
    s->start_grp = s->post_grp = NULL;
}

static const char *epoch_name(int e)
{
    switch (e) {
    case RD_EPOCH_FENCE: return "a fence epoch";
    case RD_EPOCH_PSCW: return "a PSCW epoch";
    case RD_EPOCH_LOCK: return "a lock epoch (MPI_Win_lock)";
    case RD_EPOCH_LOCK_ALL: return "a lock_all epoch";
    default: return "no epoch";
    }
}

int rd_rma_epoch_check(rd_win_t *w, int target)
{
    struct rd_rma_win *rw = w->rma;
    switch (rw->access) {
    case RD_EPOCH_FENCE:
    case RD_EPOCH_LOCK_ALL:
        return RD_OK;
    case RD_EPOCH_PSCW:
        if (rw->peers[target].in_access)
            return RD_OK;
        rd_err_detail("rank %d is not in the group of MPI_Win_start", target);
        return RD_ESYNC;
    case RD_EPOCH_LOCK:
        if (rw->peers[target].lock)
            return RD_OK;
        rd_err_detail("rank %d is not locked by this process (MPI_Win_lock it first)", target);
        return RD_ESYNC;
    default:
        rd_err_detail("no access epoch is open on the window (MPI_Win_fence, MPI_Win_start, "
                      "MPI_Win_lock or MPI_Win_lock_all opens one)");
        return RD_ESYNC;
    }
}

/* ---- fence ---- */

int rd_rma_fence_begin(rd_win_t *w, int assert)
{
    (void)assert;
    struct rd_rma_win *rw = w->rma;
    if (rw->access != RD_EPOCH_NONE && rw->access != RD_EPOCH_FENCE) {
        rd_err_detail("MPI_Win_fence inside %s", epoch_name(rw->access));
        return RD_ESYNC;
    }
    if (rw->exposure == RD_EPOCH_PSCW) {
        rd_err_detail("MPI_Win_fence inside an exposure epoch (MPI_Win_post without "
                      "MPI_Win_wait)");
        return RD_ESYNC;
    }
    return rd_rma_ops_complete(w, -1, 0);
}

int rd_rma_fence_end(rd_win_t *w, int assert)
{
    struct rd_rma_win *rw = w->rma;
    int e = (assert & RD_MODE_NOSUCCEED) ? RD_EPOCH_NONE : RD_EPOCH_FENCE;
    rw->access = rw->exposure = e;
    return RD_OK;
}

/* ---- PSCW ---- */

static int copy_group(const int *ranks, int n, int **out)
{
    int *g = malloc((size_t)(n ? n : 1) * sizeof(*g));
    if (!g) {
        rd_err_detail("out of memory for a group of %d", n);
        return RD_ENOMEM;
    }
    if (n)
        memcpy(g, ranks, (size_t)n * sizeof(*g));
    *out = g;
    return RD_OK;
}

int rd_rma_post(rd_win_t *w, const int *ranks, int n, int assert)
{
    struct rd_rma_win *rw = w->rma;
    struct rd_rma_sync *s = rw->sync;
    if (rw->exposure == RD_EPOCH_PSCW) {
        rd_err_detail("MPI_Win_post while an exposure epoch is open (MPI_Win_wait first)");
        return RD_ESYNC;
    }
    int *g;
    int rc = copy_group(ranks, n, &g);
    if (rc != RD_OK)
        return rc;
    free(s->post_grp);
    s->post_grp = g;
    s->post_n = n;
    rw->exposure = RD_EPOCH_PSCW;
    if (rw->access == RD_EPOCH_FENCE)
        rw->access = RD_EPOCH_NONE;
    /* Start with MPI_MODE_NOCHECK waits for no POST, and the standard
     * requires both sides to give the assert together. */
    if (assert & RD_MODE_NOCHECK)
        return RD_OK;
    for (int i = 0; i < n && rc == RD_OK; i++)
        rc = rd_rma_sync_send(w, ranks[i], RD_RMA_AM_POST, 0);
    return rc;
}

int rd_rma_start(rd_win_t *w, const int *ranks, int n, int assert)
{
    struct rd_rma_win *rw = w->rma;
    struct rd_rma_sync *s = rw->sync;
    if (rw->access != RD_EPOCH_NONE && rw->access != RD_EPOCH_FENCE) {
        rd_err_detail("MPI_Win_start inside %s", epoch_name(rw->access));
        return RD_ESYNC;
    }
    int *g;
    int rc = copy_group(ranks, n, &g);
    if (rc != RD_OK)
        return rc;
    free(s->start_grp);
    s->start_grp = g;
    s->start_n = n;
    if (rw->exposure == RD_EPOCH_FENCE)
        rw->exposure = RD_EPOCH_NONE;
    if (!(assert & RD_MODE_NOCHECK)) {
        unsigned idle = 0;
        rd_p2p_wait_begin();
        for (int i = 0; i < n; i++) {
            while (!s->posts[ranks[i]])
                rd_rma_poll(&idle);
            s->posts[ranks[i]]--;
        }
        rd_p2p_wait_end();
    }
    for (int i = 0; i < n; i++)
        rw->peers[ranks[i]].in_access = 1;
    rw->access = RD_EPOCH_PSCW;
    return RD_OK;
}

int rd_rma_complete(rd_win_t *w)
{
    struct rd_rma_win *rw = w->rma;
    struct rd_rma_sync *s = rw->sync;
    if (rw->access != RD_EPOCH_PSCW) {
        rd_err_detail("MPI_Win_complete without MPI_Win_start (%s is open)",
                      epoch_name(rw->access));
        return RD_ESYNC;
    }
    int rc = RD_OK;
    for (int i = 0; i < s->start_n; i++) {
        int r = rd_rma_ops_complete(w, s->start_grp[i], 0);
        if (rc == RD_OK)
            rc = r;
    }
    for (int i = 0; i < s->start_n; i++) {
        int r = rd_rma_sync_send(w, s->start_grp[i], RD_RMA_AM_COMPLETE, 0);
        if (rc == RD_OK)
            rc = r;
        rw->peers[s->start_grp[i]].in_access = 0;
    }
    rw->access = RD_EPOCH_NONE;
    return rc;
}

static int exposure_check(rd_win_t *w, const char *fn)
{
    if (w->rma->exposure == RD_EPOCH_PSCW)
        return RD_OK;
    rd_err_detail("%s without MPI_Win_post", fn);
    return RD_ESYNC;
}

static void exposure_end(rd_win_t *w)
{
    struct rd_rma_sync *s = w->rma->sync;
    s->completes -= (unsigned)s->post_n;
    w->rma->exposure = RD_EPOCH_NONE;
}

int rd_rma_wait(rd_win_t *w)
{
    struct rd_rma_sync *s = w->rma->sync;
    int rc = exposure_check(w, "MPI_Win_wait");
    if (rc != RD_OK)
        return rc;
    unsigned idle = 0;
    rd_p2p_wait_begin();
    while (s->completes < (unsigned)s->post_n)
        rd_rma_poll(&idle);
    rd_p2p_wait_end();
    exposure_end(w);
    return RD_OK;
}

int rd_rma_test(rd_win_t *w, int *flag)
{
    struct rd_rma_sync *s = w->rma->sync;
    int rc = exposure_check(w, "MPI_Win_test");
    if (rc != RD_OK)
        return rc;
    rd_progress();
    *flag = s->completes >= (unsigned)s->post_n;
    if (*flag)
        exposure_end(w);
    return RD_OK;
}

/* Unified memory model: the window's public and private copies are one;
 * Win_sync orders this process's loads and stores, and progresses once
 * when peers reach this window through messages, so that a loop polling
 * window memory with Win_sync sees their puts arrive. */
int rd_rma_sync(rd_win_t *w)
{
    if (w->rma->sync->poke)
        rd_progress();
    atomic_thread_fence(memory_order_seq_cst);
    return RD_OK;
}
