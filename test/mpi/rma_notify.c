/*
 * rma_notify: notified puts (MPIX_Put_notify, MPIX_Win_notify_wait,
 * MPIX_Win_notify_test; rdmpi's extension, RDMPI_HAVE_PUT_NOTIFY). Every
 * rank but the target sends MSGS notified puts, each into its own slot of
 * the target's window, with tag = message number + a per-origin offset.
 * The target waits for each notification: the source and tag are right,
 * each origin's tags arrive in order, and the slot's data is complete
 * when its notification is seen. A second round with MPIX_Win_notify_test
 * polling and a derived target datatype; afterwards no notification is
 * left. Every rank is the target once. Without the extension (another
 * MPI) the program reports SKIP; rdmpi must have it.
 */
#include "rma_common.h"

#include <stdlib.h>

#ifndef RDMPI_HAVE_PUT_NOTIFY

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
#ifdef RDMPI
    MT_FAIL("rdmpi's mpi.h does not define RDMPI_HAVE_PUT_NOTIFY");
#else
    if (MTest_rank == 0)
        printf("SKIP: no notified puts in this MPI (RDMPI_HAVE_PUT_NOTIFY undefined)\n");
#endif
    return MTest_Finalize();
}

#else

#define MSGS 60
#define SL 5            /* ints per slot */

static int rank, size;

static int slot(int origin, int msg)
{
    return (origin * MSGS + msg) * SL;
}

static int value(int origin, int msg, int k)
{
    return origin * 100000 + msg * 10 + k;
}

static int tag_of(int origin, int msg)
{
    return origin * 1000 + msg;
}

/* Target side: receives (size - 1) * MSGS notifications, checks each. */
static void receive_all(MPI_Win win, int *buf, int use_test, const char *what)
{
    int *next = calloc((size_t)size, sizeof(int));
    long total = (long)(size - 1) * MSGS;

    for (long n = 0; n < total; n++) {
        int src = -1, tag = -1, flag = 0;
        if (use_test) {
            while (!flag)
                MT_OK(MPIX_Win_notify_test(win, &flag, &src, &tag));
        } else {
            MT_OK(MPIX_Win_notify_wait(win, &src, &tag));
        }
        if (src < 0 || src >= size || src == rank) {
            MT_FAIL("%s: notification %ld from source %d", what, n, src);
            break;
        }
        int msg = next[src]++;
        if (tag != tag_of(src, msg)) {
            MT_FAIL("%s: notification %d from rank %d has tag %d, expected %d (in order)", what,
                    msg, src, tag, tag_of(src, msg));
            break;
        }
        MT_OK(MPI_Win_sync(win));
        for (int k = 0; k < SL; k++)
            if (buf[slot(src, msg) + k] != value(src, msg, k)) {
                MT_FAIL("%s: at the notification of message %d from rank %d, int %d of its slot "
                        "is %d, expected %d", what, msg, src, k, buf[slot(src, msg) + k],
                        value(src, msg, k));
                break;
            }
    }
    int flag = 1, src, tag;
    MT_OK(MPIX_Win_notify_test(win, &flag, &src, &tag));
    MT_CHECK(!flag, "%s: an extra notification from %d with tag %d", what, src, tag);
    free(next);
}

static void round_for(MPI_Win win, int *buf, int target, int use_test, MPI_Datatype vec)
{
    char what[64];
    snprintf(what, sizeof what, "target %d, %s", target, use_test ? "notify_test" :
             "notify_wait");
    if (rank == target) {
        MT_OK(MPI_Win_lock_all(0, win));
        receive_all(win, buf, use_test, what);
        MT_OK(MPI_Win_unlock_all(win));
    } else {
        int v[SL * 2];
        MT_OK(MPI_Win_lock_all(0, win));
        for (int m = 0; m < MSGS; m++) {
            for (int k = 0; k < SL; k++) {
                v[k] = value(rank, m, k);
                v[SL + k] = -1;
            }
            if (vec == MPI_DATATYPE_NULL)
                MT_OK(MPIX_Put_notify(v, SL, MPI_INT, target, slot(rank, m), SL, MPI_INT,
                                      tag_of(rank, m), win));
            else    /* the same slot described by a derived target datatype */
                MT_OK(MPIX_Put_notify(v, SL, MPI_INT, target, slot(rank, m), 1, vec,
                                      tag_of(rank, m), win));
            if (m % 7 == 6)
                MT_OK(MPI_Win_flush_local(target, win));
        }
        MT_OK(MPI_Win_unlock_all(win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Win win;
    int *buf;
    MPI_Datatype vec;

    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    rank = MTest_rank;
    size = MTest_size;
    MPI_Aint n = (MPI_Aint)size * MSGS * SL;
    MT_OK(MPI_Win_allocate(n * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                           &buf, &win));
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (MPI_Aint i = 0; i < n; i++)
        buf[i] = -1;
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    /* A target type of SL ints as SL blocks of one (a derived type). */
    MPI_Type_vector(SL, 1, 1, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int t = 0; t < size; t++)
        round_for(win, buf, t, 0, MPI_DATATYPE_NULL);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (MPI_Aint i = 0; i < n; i++)
        buf[i] = -1;
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    round_for(win, buf, size - 1, 1, vec);
    MPI_Type_free(&vec);
    MT_OK(MPI_Win_free(&win));
    return MTest_Finalize();
}

#endif
