/*
 * rma_atomic64: 8-byte accumulates and atomics from every rank at once,
 * the owner of the words included, on MPI_Win_create and MPI_Win_allocate
 * windows (the flavors whose 8-byte atomics may go by RDMA atomics of the
 * device, doc/rma-operations.md), all in one lock_all epoch:
 *  - a counter hammered with MPI_Fetch_and_op(MPI_SUM) of int64: exact
 *    final value, every fetched value fetched once, each rank's own
 *    fetches increasing;
 *  - one word updated by MPI_Accumulate, MPI_Fetch_and_op and
 *    MPI_Get_accumulate (SUM) mixed: exact final value;
 *  - a double updated by MPI_Fetch_and_op and MPI_Accumulate (SUM, small
 *    whole numbers, so the sum is exact), and a word by MPI_MAX;
 *  - a spin lock from MPI_Compare_and_swap (released with MPI_Accumulate
 *    MPI_REPLACE) guarding a read-modify-write of two words by Get/Put;
 *  - MPI_Get_accumulate(MPI_NO_OP) reads and a vector target datatype.
 * The words live at the last rank, the lock word at rank 0. Iterations:
 * argument 1 (default 40). With RDMPI_VERBOSE=1 the testlists check on
 * the rma line which path the atomics took.
 */
#include "mtest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { COUNTER, MIXED, DSUM, MAXW, LOCKW, DATA0, DATA1, VEC, NWORDS = VEC + 6 };

static int rank, size;

static void zero_own(MPI_Win win, int64_t *buf)
{
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    memset(buf, 0, NWORDS * sizeof(int64_t));
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void counter(MPI_Win win, int iters, const char *name)
{
    int owner = size - 1;
    int64_t one = 1, *mine = MTest_Malloc(sizeof(int64_t) * (size_t)iters);
    for (int i = 0; i < iters; i++) {
        MT_OK(MPI_Fetch_and_op(&one, &mine[i], MPI_INT64_T, owner, COUNTER, MPI_SUM, win));
        MT_OK(MPI_Win_flush(owner, win));
    }
    for (int i = 1; i < iters; i++)
        if (mine[i] <= mine[i - 1]) {
            MT_FAIL("%s: fetch %d gave %lld after %lld: not increasing", name, i,
                    (long long)mine[i], (long long)mine[i - 1]);
            break;
        }
    long long total = (long long)iters * size;
    int64_t *all = rank == 0 ? MTest_Malloc(sizeof(int64_t) * (size_t)total) : NULL;
    MPI_Gather(mine, iters, MPI_INT64_T, all, iters, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        char *seen = calloc((size_t)total, 1);
        int bad = 0;
        for (long long i = 0; i < total && bad < 4; i++) {
            long long v = all[i];
            if (v < 0 || v >= total) {
                MT_FAIL("%s: rank %lld fetched %lld, outside [0, %lld)", name, i / iters, v,
                        total);
                bad++;
            } else if (seen[v]++) {
                MT_FAIL("%s: value %lld fetched twice", name, v);
                bad++;
            }
        }
        free(seen);
        free(all);
    }
    free(mine);
}

static void mixed(MPI_Win win, int iters)
{
    int owner = size - 1;
    int64_t one = 1, old;
    double d1 = 1.0, d2 = 2.0, dold;
    for (int i = 0; i < iters; i++) {
        switch (i % 3) {
        case 0:
            MT_OK(MPI_Accumulate(&one, 1, MPI_INT64_T, owner, MIXED, 1, MPI_INT64_T, MPI_SUM,
                                 win));
            break;
        case 1:
            MT_OK(MPI_Fetch_and_op(&one, &old, MPI_INT64_T, owner, MIXED, MPI_SUM, win));
            break;
        default:
            MT_OK(MPI_Get_accumulate(&one, 1, MPI_INT64_T, &old, 1, MPI_INT64_T, owner, MIXED,
                                     1, MPI_INT64_T, MPI_SUM, win));
            break;
        }
        if (i % 2)
            MT_OK(MPI_Accumulate(&d2, 1, MPI_DOUBLE, owner, DSUM, 1, MPI_DOUBLE, MPI_SUM, win));
        else
            MT_OK(MPI_Fetch_and_op(&d1, &dold, MPI_DOUBLE, owner, DSUM, MPI_SUM, win));
        int64_t v = (int64_t)rank * 1000 + i;
        MT_OK(MPI_Fetch_and_op(&v, &old, MPI_INT64_T, owner, MAXW, MPI_MAX, win));
        MT_OK(MPI_Win_flush(owner, win));
    }
}

static void caslock(MPI_Win win, int iters, const char *name)
{
    int owner = size - 1;
    int64_t me = rank + 1, unlocked = 0, old;
    for (int i = 0; i < iters; i++) {
        do {
            MT_OK(MPI_Compare_and_swap(&me, &unlocked, &old, MPI_INT64_T, 0, LOCKW, win));
            MT_OK(MPI_Win_flush(0, win));
        } while (old != 0);
        int64_t d[2];
        MT_OK(MPI_Get(d, 2, MPI_INT64_T, owner, DATA0, 2, MPI_INT64_T, win));
        MT_OK(MPI_Win_flush(owner, win));
        MT_CHECK(d[1] == 3 * d[0], "%s: inside the lock the words are %lld and %lld: another "
                 "rank's update is half done", name, (long long)d[0], (long long)d[1]);
        d[0] += 1;
        d[1] += 3;
        MT_OK(MPI_Put(d, 2, MPI_INT64_T, owner, DATA0, 2, MPI_INT64_T, win));
        MT_OK(MPI_Win_flush(owner, win));
        MT_OK(MPI_Get_accumulate(&me, 1, MPI_INT64_T, &old, 1, MPI_INT64_T, 0, LOCKW, 1,
                                 MPI_INT64_T, MPI_NO_OP, win));
        MT_OK(MPI_Win_flush(0, win));
        MT_CHECK(old == me, "%s: lock word %lld while I hold it", name, (long long)old);
        MT_OK(MPI_Accumulate(&unlocked, 1, MPI_INT64_T, 0, LOCKW, 1, MPI_INT64_T, MPI_REPLACE,
                             win));
        MT_OK(MPI_Win_flush(0, win));
    }
}

/* Every rank adds (rank + 1) * (j + 1) to element j of a vector of 3
 * elements, every other word, at the last rank, fetching the old values. */
static void vector(MPI_Win win)
{
    int owner = size - 1;
    MPI_Datatype vec;
    int64_t add[3], old[3];
    MPI_Type_vector(3, 1, 2, MPI_INT64_T, &vec);
    MPI_Type_commit(&vec);
    for (int j = 0; j < 3; j++)
        add[j] = (int64_t)(rank + 1) * (j + 1);
    MT_OK(MPI_Get_accumulate(add, 3, MPI_INT64_T, old, 3, MPI_INT64_T, owner, VEC, 1, vec,
                             MPI_SUM, win));
    MT_OK(MPI_Win_flush(owner, win));
    for (int j = 0; j < 3; j++)
        MT_CHECK(old[j] % (j + 1) == 0, "vector: element %d found %lld, not a multiple of %d",
                 j, (long long)old[j], j + 1);
    MPI_Type_free(&vec);
}

static void check(const int64_t *buf, int iters, const char *name)
{
    long long n = (long long)size * iters, tri = (long long)size * (size + 1) / 2;
    double dsum;
    memcpy(&dsum, &buf[DSUM], sizeof(dsum));
    if (rank == size - 1) {
        MT_CHECK(buf[COUNTER] == n, "%s: counter %lld, expected %lld", name,
                 (long long)buf[COUNTER], n);
        MT_CHECK(buf[MIXED] == n, "%s: mixed word %lld, expected %lld", name,
                 (long long)buf[MIXED], n);
        double want = (double)size * ((iters + 1) / 2 * 1.0 + iters / 2 * 2.0);
        MT_CHECK(dsum == want, "%s: double sum %g, expected %g", name, dsum, want);
        MT_CHECK(buf[MAXW] == (int64_t)(size - 1) * 1000 + iters - 1,
                 "%s: max %lld, expected %lld", name, (long long)buf[MAXW],
                 (long long)(size - 1) * 1000 + iters - 1);
        MT_CHECK(buf[DATA0] == n && buf[DATA1] == 3 * n, "%s: locked words %lld %lld, "
                 "expected %lld %lld", name, (long long)buf[DATA0], (long long)buf[DATA1], n,
                 3 * n);
        for (int j = 0; j < 6; j++) {
            long long want_v = j % 2 ? 0 : tri * (j / 2 + 1);
            MT_CHECK(buf[VEC + j] == want_v, "%s: vector word %d is %lld, expected %lld",
                     name, j, (long long)buf[VEC + j], want_v);
        }
    }
    if (rank == 0)
        MT_CHECK(buf[LOCKW] == 0, "%s: lock word %lld at the end", name,
                 (long long)buf[LOCKW]);
}

static void run(int allocate, int iters)
{
    const char *name = allocate ? "Win_allocate" : "Win_create";
    MPI_Aint bytes = NWORDS * sizeof(int64_t);
    int64_t *buf;
    MPI_Win win;
    if (allocate) {
        MT_OK(MPI_Win_allocate(bytes, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &buf,
                               &win));
    } else {
        buf = MTest_Malloc((size_t)bytes);
        MT_OK(MPI_Win_create(buf, bytes, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    }
    zero_own(win, buf);
    MT_OK(MPI_Win_lock_all(0, win));
    counter(win, iters, name);
    mixed(win, iters);
    caslock(win, iters, name);
    vector(win);
    MT_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    check(buf, iters, name);
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_free(&win));
    if (!allocate)
        free(buf);
}

int main(int argc, char **argv)
{
    int iters = 40;
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        iters = atoi(argv[1]);
    run(0, iters);
    run(1, iters);
    return MTest_Finalize();
}
