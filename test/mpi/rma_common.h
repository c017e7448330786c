/*
 * rma_common.h: windows of every creation flavor for the rma_* tests
 * (header only). A test writes its checks once against struct rw and runs
 * them on a window from MPI_Win_create, MPI_Win_allocate,
 * MPI_Win_allocate_shared and MPI_Win_create_dynamic (one attached region,
 * displacements from MPI_Get_address). Each window holds n ints; rw_disp
 * gives the target displacement of element i at a rank in the window's
 * displacement units, so the same code serves disp_unit sizeof(int) and the
 * dynamic window's absolute addresses.
 */
#ifndef RMA_COMMON_H
#define RMA_COMMON_H

#include "mtest.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RW_CREATE, RW_ALLOCATE, RW_SHARED, RW_DYNAMIC, RW_NFLAVORS };

struct rw {
    MPI_Win win;
    int flavor;
    int n;              /* ints in this rank's window */
    int *buf;           /* this rank's window memory */
    MPI_Aint *base;     /* per rank: displacement of element 0 */
    int unit;           /* displacement unit in bytes */
    int rank, size;
    MPI_Comm comm;
};

static inline const char *rw_name(int flavor)
{
    static const char *names[] = { "Win_create", "Win_allocate", "Win_allocate_shared",
                                   "Win_create_dynamic" };
    return names[flavor];
}

/* Whether every rank of comm shares memory with every other one (a shared
 * window needs that; across hosts the shared flavor is left out). */
static inline int rw_all_shared(MPI_Comm comm)
{
    MPI_Comm node;
    int size, nsize, all;

    MPI_Comm_size(comm, &size);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nsize);
    MPI_Comm_free(&node);
    all = nsize == size;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, comm);
    return all;
}

/* Opens a window of flavor holding n ints per rank (collective). Returns 0
 * if the flavor cannot be used on comm (shared memory across hosts). */
static inline int rw_open(struct rw *w, int flavor, int n, MPI_Comm comm)
{
    MPI_Aint bytes = (MPI_Aint)n * (MPI_Aint)sizeof(int);

    memset(w, 0, sizeof *w);
    w->flavor = flavor;
    w->n = n;
    w->comm = comm;
    MPI_Comm_rank(comm, &w->rank);
    MPI_Comm_size(comm, &w->size);
    w->base = MTest_Malloc(sizeof(MPI_Aint) * (size_t)w->size);
    w->unit = sizeof(int);
    switch (flavor) {
    case RW_CREATE:
        w->buf = MTest_Malloc((size_t)bytes);
        MT_OK(MPI_Win_create(w->buf, bytes, sizeof(int), MPI_INFO_NULL, comm, &w->win));
        break;
    case RW_ALLOCATE:
        MT_OK(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, comm, &w->buf, &w->win));
        break;
    case RW_SHARED:
        if (!rw_all_shared(comm)) {
            free(w->base);
            return 0;
        }
        MT_OK(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, comm, &w->buf,
                                      &w->win));
        break;
    case RW_DYNAMIC: {
        MPI_Aint a;
        w->unit = 1;
        w->buf = MTest_Malloc((size_t)bytes);
        MT_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        MT_OK(MPI_Win_attach(w->win, w->buf, bytes));
        MT_OK(MPI_Get_address(w->buf, &a));
        MPI_Allgather(&a, 1, MPI_AINT, w->base, 1, MPI_AINT, comm);
        return 1;
    }
    }
    for (int r = 0; r < w->size; r++)
        w->base[r] = 0;
    return 1;
}

/* Displacement of element i of rank's window, in the window's units. */
static inline MPI_Aint rw_disp(const struct rw *w, int rank, int i)
{
    return w->base[rank] + (MPI_Aint)i * (MPI_Aint)(sizeof(int) / (size_t)w->unit);
}

static inline void rw_close(struct rw *w)
{
    if (w->flavor == RW_DYNAMIC)
        MT_OK(MPI_Win_detach(w->win, w->buf));
    MT_OK(MPI_Win_free(&w->win));
    if (w->flavor == RW_CREATE || w->flavor == RW_DYNAMIC)
        free(w->buf);
    free(w->base);
}

/* The value element i of owner's window holds before any access: distinct
 * per rank, element and round, so a stray write shows. */
static inline int rw_initial(int owner, int i, int round)
{
    return -(owner * 100000 + round * 1000 + i + 1);
}

/* Fills this rank's window with rw_initial in an exclusive lock epoch on
 * itself (a local store the other ranks may then access), then a barrier.
 * No other epoch may be open on the window. */
static inline void rw_fill(struct rw *w, int round)
{
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, w->rank, 0, w->win));
    for (int i = 0; i < w->n; i++)
        w->buf[i] = rw_initial(w->rank, i, round);
    MT_OK(MPI_Win_unlock(w->rank, w->win));
    MPI_Barrier(w->comm);
}

/* Copies this rank's window into out in a shared lock epoch on itself (so
 * what other ranks completed before is visible); no other epoch open. */
static inline void rw_read_own(struct rw *w, int *out)
{
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, w->rank, 0, w->win));
    memcpy(out, w->buf, sizeof(int) * (size_t)w->n);
    MT_OK(MPI_Win_unlock(w->rank, w->win));
}

/* Checks got[0..n): elements [lo, hi) must be expect(i), every other one
 * still rw_initial(owner, i, round). Reports the first few mismatches. */
static inline void rw_check(const int *got, int n, int lo, int hi, int (*expect)(int i, void *arg),
                            void *arg, int owner, int round, const char *what)
{
    int bad = 0;
    for (int i = 0; i < n && bad < 4; i++) {
        int want = (i >= lo && i < hi) ? expect(i, arg) : rw_initial(owner, i, round);
        if (got[i] != want) {
            MT_FAIL("%s: element %d of rank %d's window is %d, expected %d (%s)", what, i,
                    owner, got[i], want, (i >= lo && i < hi) ? "written" : "must be untouched");
            bad++;
        }
    }
}

/* A counter in memory every rank of comm maps (a Win_allocate_shared
 * window), that one rank raises and others wait on without any MPI call:
 * it holds a target outside MPI while an origin does what must not need
 * the target's progress. */
struct rw_flag {
    MPI_Win win;
    volatile int *p;
};

/* Opens the flag (collective over comm). Returns 0, with nothing opened,
 * unless every rank of comm shares memory with every other one. */
static inline int rw_flag_open(struct rw_flag *f, MPI_Comm comm)
{
    int rank;
    MPI_Aint size;
    int unit;
    void *mine, *base;

    if (!rw_all_shared(comm))
        return 0;
    MPI_Comm_rank(comm, &rank);
    MT_OK(MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, comm,
                                  &mine, &f->win));
    MT_OK(MPI_Win_shared_query(f->win, 0, &size, &unit, &base));
    f->p = base;
    if (rank == 0)
        *f->p = 0;
    MT_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, f->win));
    MT_OK(MPI_Win_sync(f->win));
    MPI_Barrier(comm);
    return 1;
}

static inline void rw_flag_raise(struct rw_flag *f)
{
    __atomic_fetch_add(f->p, 1, __ATOMIC_SEQ_CST);
}

/* Waits, calling no MPI function, until the flag was raised count times;
 * returns 0 if that took more than limit seconds (then it stops waiting). */
static inline int rw_flag_wait(struct rw_flag *f, int count, double limit)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (__atomic_load_n(f->p, __ATOMIC_SEQ_CST) < count) {
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 > limit)
            return 0;
    }
    return 1;
}

static inline void rw_flag_close(struct rw_flag *f)
{
    MT_OK(MPI_Win_unlock_all(f->win));
    MT_OK(MPI_Win_free(&f->win));
}

#endif
