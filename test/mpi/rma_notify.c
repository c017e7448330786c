/*
 * rma_notify: notified puts (MPIX_Put_notify, MPIX_Win_notify_wait,
 * MPIX_Win_notify_test; rdmpi's extension, RDMPI_HAVE_PUT_NOTIFY). Every
 * rank but the target sends MSGS notified puts, each into its own slot of
 * the target's window, with tag = message number + a per-origin offset.
 * The target waits for each notification: the source and tag are right,
 * each origin's tags arrive in order, and the slot's data is complete
 * when its notification is seen. A second round with MPIX_Win_notify_test
 * polling and a derived target datatype; afterwards no notification is
 * left. Every rank is the target once.
 *
 * Then bursts longer than a target's notification ring, on a window of
 * each creation flavor (rma_common.h), every rank the target in turn.
 * Each rank, the target among them, sends BURST notified puts of two ints
 * (its rank, the message number) to the target, each into a slot of its
 * own, the tag the message number. Two ways of consuming:
 *  - "after a barrier": the target sends its own burst and enters
 *    MPI_Barrier before taking any notification, so the ring fills while
 *    the origins are still sending (they must ask the target to drain it
 *    and wait, the target's progress inside the barrier draining it);
 *    then it takes everything with MPIX_Win_notify_wait;
 *  - "while sending": the target polls with MPIX_Win_notify_test while
 *    the origins send, slots being reused lap after lap.
 * The same checks, and nothing left over at the end. With node peers a
 * target receives from itself and from ranks that store into its memory
 * through its ring, and by messages from the others (Win_create and
 * dynamic windows, ranks on other hosts): the testlist checks the ways
 * taken with RDMPI_VERBOSE's counters. Without the extension (another
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
        /* Each message its own origin buffer: a put may read it until the
         * next flush_local, every 7 messages. */
        int v[MSGS][SL];
        MT_OK(MPI_Win_lock_all(0, win));
        for (int m = 0; m < MSGS; m++) {
            for (int k = 0; k < SL; k++)
                v[m][k] = value(rank, m, k);
            if (vec == MPI_DATATYPE_NULL)
                MT_OK(MPIX_Put_notify(v[m], SL, MPI_INT, target, slot(rank, m), SL, MPI_INT,
                                      tag_of(rank, m), win));
            else    /* the same slot described by a derived target datatype */
                MT_OK(MPIX_Put_notify(v[m], SL, MPI_INT, target, slot(rank, m), 1, vec,
                                      tag_of(rank, m), win));
            if (m % 7 == 6)
                MT_OK(MPI_Win_flush_local(target, win));
        }
        MT_OK(MPI_Win_unlock_all(win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

#define BURST 301       /* more than two laps of a 128-slot ring, not a multiple */

static int burst_slot(int origin, int msg)
{
    return (origin * BURST + msg) * 2;
}

/* Messages [from, to) of this rank's burst to target. Each message has its
 * own origin buffer: a put's origin buffer may be read until the put
 * completes (the round's flush), so it must not change before. */
static void burst_send(struct rw *w, int target, int from, int to)
{
    static int v[BURST][2];
    for (int m = from; m < to; m++) {
        v[m][0] = w->rank;
        v[m][1] = m;
        MT_OK(MPIX_Put_notify(v[m], 2, MPI_INT, target,
                              rw_disp(w, target, burst_slot(w->rank, m)), 2, MPI_INT, m, w->win));
    }
}

/* Takes one notification (waiting, or polling with test) and checks it:
 * 0 once a check failed. */
static int burst_take(struct rw *w, int *next, int use_test, const char *what)
{
    int src = -1, tag = -1, flag = 0;
    if (use_test) {
        while (!flag)
            MT_OK(MPIX_Win_notify_test(w->win, &flag, &src, &tag));
    } else {
        MT_OK(MPIX_Win_notify_wait(w->win, &src, &tag));
    }
    if (src < 0 || src >= w->size) {
        MT_FAIL("%s: a notification from source %d", what, src);
        return 0;
    }
    if (tag != next[src]) {
        MT_FAIL("%s: notification %d from rank %d has tag %d (out of order or lost)", what,
                next[src], src, tag);
        return 0;
    }
    MT_OK(MPI_Win_sync(w->win));
    const int *d = &w->buf[burst_slot(src, tag)];
    if (d[0] != src || d[1] != tag) {
        MT_FAIL("%s: at the notification of message %d from rank %d its slot holds (%d, %d)",
                what, tag, src, d[0], d[1]);
        return 0;
    }
    next[src]++;
    return 1;
}

static void burst_round(struct rw *w, int target, int while_sending)
{
    char what[96];
    snprintf(what, sizeof what, "%s, target %d, %s", rw_name(w->flavor), target,
             while_sending ? "taken while sending" : "taken after a barrier");
    int *next = calloc((size_t)w->size, sizeof(int));
    long total = (long)w->size * BURST, n = 0;
    MT_OK(MPI_Win_lock_all(0, w->win));
    if (w->rank != target || !while_sending) {
        burst_send(w, target, 0, BURST);
    } else {
        /* Its own burst in pieces, taking one notification after each,
         * so that it takes while the others still send. */
        for (int m = 0; m < BURST; m += 3) {
            burst_send(w, target, m, m + 3 < BURST ? m + 3 : BURST);
            if (burst_take(w, next, 1, what))
                n++;
        }
    }
    MT_OK(MPI_Win_flush_all(w->win));
    if (!while_sending || w->rank != target)
        MPI_Barrier(w->comm);
    if (w->rank == target) {
        while (n < total && burst_take(w, next, while_sending, what))
            n++;
        int flag = 1, src, tag;
        MT_OK(MPIX_Win_notify_test(w->win, &flag, &src, &tag));
        MT_CHECK(!flag, "%s: an extra notification from %d with tag %d", what, src, tag);
        if (while_sending)
            MPI_Barrier(w->comm);
    }
    MT_OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(w->comm);
    free(next);
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
    for (int flavor = 0; flavor < RW_NFLAVORS; flavor++) {
        struct rw w;
        if (!rw_open(&w, flavor, size * BURST * 2, MPI_COMM_WORLD))
            continue;
        for (int t = 0; t < size; t++)
            for (int while_sending = 0; while_sending < 2; while_sending++) {
                rw_fill(&w, t * 2 + while_sending);
                burst_round(&w, t, while_sending);
            }
        rw_close(&w);
    }
    return MTest_Finalize();
}

#endif
