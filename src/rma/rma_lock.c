/*
 * Passive-target synchronization (rma.h): Win_lock / Win_unlock, shared
 * and exclusive, Win_lock_all / Win_unlock_all, and the flushes.
 *
 * Every rank has one lock word per window, in its control block
 * (rma_win.h): the number of shared holders, plus RD_RMA_LOCK_EXCL while
 * an exclusive holder has it. An origin that has the target's control
 * block mapped (the target is this process, or runs on this node) takes
 * and releases the lock with C11 atomics on the word, without the
 * target's CPU. Any other origin sends LOCK to the target, whose progress
 * queues the request (FIFO), takes the word on the origin's behalf with
 * the same atomics and answers GRANT; UNLOCK, sent once the origin's
 * operations to it are complete, releases it. Requests that cannot be
 * granted yet are retried by a progress hook that runs only while some
 * window has a waiting request. The queue is FIFO among requests by
 * message; a node peer's atomic acquisition can overtake it (no
 * fairness between the two ways is promised, as MPI promises none).
 *
 * On a window in device-atomics mode (rma_dev.h: no node peers, every
 * rank reached by RDMA atomics, itself through its loopback) every origin,
 * the target itself included, takes and releases the word with the
 * device's atomics instead, without the target's CPU; no LOCK message is
 * sent there, so the target's own CPU atomics never touch the word. On
 * other windows the word stays with CPU atomics: the rc transport's
 * atomics are not atomic with respect to the CPU's on the same word, and
 * node peers take the word with CPU atomics, so it could be held twice.
 */
#include "rma/rma_lock.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rma/rma_dev.h"
#include "rma/rma_sync.h"
#include "util/errdetail.h"
#include "util/status.h"

/* A flush that finds nothing owed polls progress once in this many. */
#define IDLE_POLL 32

/* How an origin holds a target's lock, to release it the same way. */
enum { HOW_NONE = 0, HOW_ATOMIC, HOW_AM, HOW_NOCHECK, HOW_DEV };

/* Windows with a lock request waiting at this target (progress hook). */
static rd_win_t **waiting;
static int nwaiting, capwaiting;
static int hook = -1;
static unsigned long n_atomic, n_am;

void rd_rma_lock_counts(unsigned long *atomic, unsigned long *am)
{
    *atomic = n_atomic;
    *am = n_am;
}

static int try_lock(_Atomic uint64_t *word, int type)
{
    if (type == RD_LOCK_EXCLUSIVE) {
        uint64_t zero = 0;
        return atomic_compare_exchange_strong(word, &zero, RD_RMA_LOCK_EXCL);
    }
    if (atomic_load_explicit(word, memory_order_relaxed) & RD_RMA_LOCK_EXCL)
        return 0;
    if (!(atomic_fetch_add(word, 1) & RD_RMA_LOCK_EXCL))
        return 1;
    atomic_fetch_sub(word, 1);
    return 0;
}

static void unlock_word(_Atomic uint64_t *word, int type)
{
    atomic_fetch_sub(word, type == RD_LOCK_EXCLUSIVE ? RD_RMA_LOCK_EXCL : 1);
}

/* ---- target side ---- */

/* Grants the queued requests that can be granted, in order. Returns how
 * many. */
static int grant(rd_win_t *w)
{
    struct rd_rma_sync *s = w->rma->sync;
    int n = 0;
    while (s->queue && try_lock(&s->ctl->lock, s->queue->type)) {
        rd_rma_lockreq_t *q = s->queue;
        if (!(s->queue = q->next))
            s->queue_tail = &s->queue;
        rd_rma_sync_send(w, q->origin, RD_RMA_AM_GRANT, 0);
        free(q);
        n++;
    }
    return n;
}

static void waiting_remove(rd_win_t *w)
{
    for (int i = 0; i < nwaiting; i++)
        if (waiting[i] == w) {
            waiting[i] = waiting[--nwaiting];
            break;
        }
    if (!nwaiting && hook >= 0)
        rd_progress_hook_deactivate(hook);
}

static void waiting_add(rd_win_t *w)
{
    for (int i = 0; i < nwaiting; i++)
        if (waiting[i] == w)
            return;
    if (nwaiting == capwaiting) {
        int cap = capwaiting ? capwaiting * 2 : 8;
        rd_win_t **t = realloc(waiting, (size_t)cap * sizeof(*t));
        if (!t)
            return;  /* retried at the next UNLOCK this target handles */
        waiting = t;
        capwaiting = cap;
    }
    waiting[nwaiting++] = w;
    if (hook >= 0)
        rd_progress_hook_activate(hook);
}

static int retry_hook(void)
{
    int n = 0;
    for (int i = nwaiting - 1; i >= 0; i--) {
        rd_win_t *w = waiting[i];
        n += grant(w);
        if (!w->rma->sync->queue)
            waiting_remove(w);
    }
    return n;
}

static void after_change(rd_win_t *w)
{
    grant(w);
    if (w->rma->sync->queue)
        waiting_add(w);
    else
        waiting_remove(w);
}

static void on_lock(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)payload, (void)len;
    int r, type;
    rd_win_t *w = rd_rma_sync_incoming(peer, hdr, hdrlen, &r, &type);
    if (!w || (type != RD_LOCK_SHARED && type != RD_LOCK_EXCLUSIVE))
        return;
    struct rd_rma_sync *s = w->rma->sync;
    rd_rma_lockreq_t *q = calloc(1, sizeof(*q));
    if (!q)
        return;  /* the origin waits: nothing better to do without memory */
    q->origin = r;
    q->type = type;
    *s->queue_tail = q;
    s->queue_tail = &q->next;
    after_change(w);
}

static void on_unlock(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)payload, (void)len;
    int r, type;
    rd_win_t *w = rd_rma_sync_incoming(peer, hdr, hdrlen, &r, &type);
    if (!w || (type != RD_LOCK_SHARED && type != RD_LOCK_EXCLUSIVE))
        return;
    unlock_word(&w->rma->sync->ctl->lock, type);
    after_change(w);
}

static void on_grant(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)payload, (void)len;
    int r, type;
    rd_win_t *w = rd_rma_sync_incoming(peer, hdr, hdrlen, &r, &type);
    if (w)
        w->rma->sync->granted[r] = 1;
}

int rd_rma_lock_init(void)
{
    nwaiting = 0;
    n_atomic = n_am = 0;
    hook = rd_progress_hook_register(retry_hook);
    if (hook < 0)
        return hook;
    int rc = rd_p2p_am_register(RD_RMA_AM_LOCK, on_lock);
    if (rc == RD_OK)
        rc = rd_p2p_am_register(RD_RMA_AM_GRANT, on_grant);
    if (rc == RD_OK)
        rc = rd_p2p_am_register(RD_RMA_AM_UNLOCK, on_unlock);
    return rc;
}

void rd_rma_lock_free(rd_win_t *w)
{
    struct rd_rma_sync *s = w->rma->sync;
    waiting_remove(w);
    while (s->queue) {
        rd_rma_lockreq_t *q = s->queue;
        s->queue = q->next;
        free(q);
    }
    s->queue_tail = &s->queue;
}

int rd_rma_lock_held(rd_win_t *w)
{
    return w->rma->sync->nlocked > 0 || w->rma->access == RD_EPOCH_LOCK_ALL;
}

/* ---- origin side ---- */

static int no_locks(rd_win_t *w, const char *fn)
{
    if (!w->hints.no_locks)
        return RD_OK;
    rd_err_detail("%s on a window created with the info hint no_locks=true", fn);
    return RD_ESYNC;
}

/* Starts taking target's lock: with atomics when its word is mapped here
 * (done on return), else by sending LOCK (done when GRANT arrives). */
static int lock_begin(rd_win_t *w, int target, int type)
{
    struct rd_rma_sync *s = w->rma->sync;
    if (w->rma->dev_atomics) {
        int rc = rd_rma_dev_lock(w, target, type);
        if (rc == RD_OK)
            s->how[target] = HOW_DEV;
        return rc;
    }
    if (s->pctl[target]) {
        unsigned idle = 0;
        rd_p2p_wait_begin();
        while (!try_lock(&s->pctl[target]->lock, type))
            rd_rma_poll(&idle);
        rd_p2p_wait_end();
        s->how[target] = HOW_ATOMIC;
        n_atomic++;
        return RD_OK;
    }
    s->granted[target] = 0;
    s->how[target] = HOW_AM;
    n_am++;
    return rd_rma_sync_send(w, target, RD_RMA_AM_LOCK, type);
}

static void lock_wait(rd_win_t *w, int target)
{
    struct rd_rma_sync *s = w->rma->sync;
    unsigned idle = 0;
    if (s->how[target] != HOW_AM)
        return;
    rd_p2p_wait_begin();
    while (!s->granted[target])
        rd_rma_poll(&idle);
    rd_p2p_wait_end();
    s->granted[target] = 0;
}

static int lock_release(rd_win_t *w, int target, int type)
{
    struct rd_rma_sync *s = w->rma->sync;
    int how = s->how[target], rc = RD_OK;
    s->how[target] = HOW_NONE;
    w->rma->peers[target].lock = 0;
    if (how == HOW_ATOMIC) {
        unlock_word(&s->pctl[target]->lock, type);
        /* This process is the target: requests queued behind us may go. */
        if (target == w->comm->rank)
            after_change(w);
    } else if (how == HOW_AM) {
        rc = rd_rma_sync_send(w, target, RD_RMA_AM_UNLOCK, type);
    } else if (how == HOW_DEV) {
        rc = rd_rma_dev_unlock(w, target, type);
    }
    return rc;
}

int rd_rma_lock(rd_win_t *w, int type, int target, int assert)
{
    struct rd_rma_win *rw = w->rma;
    int rc = no_locks(w, "MPI_Win_lock");
    if (rc != RD_OK)
        return rc;
    if (rw->access == RD_EPOCH_PSCW || rw->access == RD_EPOCH_LOCK_ALL) {
        rd_err_detail("MPI_Win_lock inside %s", rw->access == RD_EPOCH_PSCW
                                                    ? "a PSCW access epoch" : "a lock_all epoch");
        return RD_ESYNC;
    }
    if (rw->peers[target].lock) {
        rd_err_detail("rank %d is already locked by this process", target);
        return RD_ESYNC;
    }
    if (assert & RD_MODE_NOCHECK) {
        rw->sync->how[target] = HOW_NOCHECK;
    } else {
        if ((rc = lock_begin(w, target, type)) != RD_OK) {
            rw->sync->how[target] = HOW_NONE;
            return rc;
        }
        lock_wait(w, target);
    }
    rw->peers[target].lock = type;
    rw->sync->nlocked++;
    rw->access = RD_EPOCH_LOCK;
    if (rw->exposure == RD_EPOCH_FENCE)
        rw->exposure = RD_EPOCH_NONE;
    return RD_OK;
}

int rd_rma_unlock(rd_win_t *w, int target)
{
    struct rd_rma_win *rw = w->rma;
    int type = rw->peers[target].lock;
    if (rw->access != RD_EPOCH_LOCK || !type) {
        rd_err_detail("MPI_Win_unlock of rank %d, which this process has not locked%s", target,
                      rw->access == RD_EPOCH_LOCK_ALL ? " (use MPI_Win_unlock_all after "
                                                        "MPI_Win_lock_all)" : "");
        return RD_ESYNC;
    }
    int rc = rd_rma_ops_complete(w, target, 0);
    int r = lock_release(w, target, type);
    if (rc == RD_OK)
        rc = r;
    if (--rw->sync->nlocked == 0)
        rw->access = RD_EPOCH_NONE;
    return rc;
}

int rd_rma_lock_all(rd_win_t *w, int assert)
{
    struct rd_rma_win *rw = w->rma;
    int rc = no_locks(w, "MPI_Win_lock_all"), n = rw->nranks;
    if (rc != RD_OK)
        return rc;
    if (rw->access != RD_EPOCH_NONE && rw->access != RD_EPOCH_FENCE) {
        rd_err_detail("MPI_Win_lock_all inside %s",
                      rw->access == RD_EPOCH_PSCW ? "a PSCW access epoch" : "a lock epoch");
        return RD_ESYNC;
    }
    /* Requests to every AM target leave first, so that their round trips
     * overlap; then the atomics, then the grants. */
    for (int t = 0; t < n; t++) {
        rw->sync->how[t] = HOW_NOCHECK;
        if (!(assert & RD_MODE_NOCHECK) && !rw->sync->pctl[t] && rc == RD_OK)
            rc = lock_begin(w, t, RD_LOCK_SHARED);
    }
    for (int t = 0; t < n && !(assert & RD_MODE_NOCHECK); t++)
        if (rw->sync->pctl[t] && rc == RD_OK)
            rc = lock_begin(w, t, RD_LOCK_SHARED);
    for (int t = 0; t < n; t++) {
        if (rc == RD_OK)
            lock_wait(w, t);
        rw->peers[t].lock = RD_LOCK_SHARED;
    }
    rw->access = RD_EPOCH_LOCK_ALL;
    if (rw->exposure == RD_EPOCH_FENCE)
        rw->exposure = RD_EPOCH_NONE;
    if (rc != RD_OK)
        rd_rma_unlock_all(w);
    return rc;
}

int rd_rma_unlock_all(rd_win_t *w)
{
    struct rd_rma_win *rw = w->rma;
    if (rw->access != RD_EPOCH_LOCK_ALL) {
        rd_err_detail("MPI_Win_unlock_all without MPI_Win_lock_all");
        return RD_ESYNC;
    }
    int rc = rd_rma_ops_complete(w, -1, 0);
    for (int t = 0; t < rw->nranks; t++) {
        int r = lock_release(w, t, RD_LOCK_SHARED);
        if (rc == RD_OK)
            rc = r;
    }
    rw->access = RD_EPOCH_NONE;
    return rc;
}

int rd_rma_flush(rd_win_t *w, int target, int local)
{
    struct rd_rma_win *rw = w->rma;
    if (rw->access != RD_EPOCH_LOCK && rw->access != RD_EPOCH_LOCK_ALL) {
        rd_err_detail("MPI_Win_flush%s outside a passive-target epoch (MPI_Win_lock or "
                      "MPI_Win_lock_all first)", local ? "_local" : "");
        return RD_ESYNC;
    }
    if (target >= 0 && !rw->peers[target].lock) {
        rd_err_detail("MPI_Win_flush%s of rank %d, which this process has not locked",
                      local ? "_local" : "", target);
        return RD_ESYNC;
    }
    if (target >= 0 && rd_rma_ops_idle(&rw->peers[target])) {
        /* Nothing owed (mapped memory only, or already complete): a fence
         * makes the stores visible. Progress still runs when peers reach
         * this rank by messages, and every IDLE_POLL-th time otherwise, so
         * that a rank spinning on flush still serves the messages that can
         * come anyway (accumulates that are not lock-free, point-to-point). */
        atomic_thread_fence(memory_order_seq_cst);
        if (rw->sync->poke || ++rw->sync->idle_flushes % IDLE_POLL == 0)
            rd_progress();
        return RD_OK;
    }
    /* A process spinning on flush (a lock built from Compare_and_swap)
     * still serves the peers whose operations need its progress:
     * rd_rma_ops_complete polls once whatever is owed. */
    return rd_rma_ops_complete(w, target, local);
}
