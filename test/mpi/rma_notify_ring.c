/*
 * rma_notify_ring: notified puts in bursts longer than a target's
 * notification ring (rdmpi's MPIX_ extension, RDMPI_HAVE_PUT_NOTIFY), on
 * a window of each creation flavor (rma_common.h), every rank the target
 * in turn. Each rank, the target among them, sends BURST notified puts
 * of two ints (its rank, the message number) to the target, each into a
 * slot of its own, the tag the message number. Two ways of consuming:
 *  - "after a barrier": the target sends its own burst and enters
 *    MPI_Barrier before taking any notification, so the ring fills while
 *    the origins are still sending (they must ask the target to drain it
 *    and wait, the target's progress inside the barrier draining it);
 *    then it takes everything with MPIX_Win_notify_wait;
 *  - "while sending": the target polls with MPIX_Win_notify_test while
 *    the origins send, slots being reused lap after lap.
 * For each notification: a source that exists, each source's tags in
 * order, the slot's data complete when its notification is seen; at the
 * end nothing is left over. With node peers a target receives from
 * itself and from ranks that store into its memory through its ring, and
 * by messages from the others (Win_create and dynamic windows, ranks on
 * other hosts, RDMPI_TRANSPORTS=tcp): the testlist checks the ways taken
 * with RDMPI_VERBOSE's counters. Without the extension (another MPI) the
 * program reports SKIP; rdmpi must have it.
 */
#include "rma_common.h"

#include <stdio.h>
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

#define BURST 301       /* more than two laps of a 128-slot ring, not a multiple */

static int slot(int origin, int msg)
{
    return (origin * BURST + msg) * 2;
}

static void send_burst(struct rw *w, int target)
{
    for (int m = 0; m < BURST; m++) {
        int v[2] = { w->rank, m };
        MT_OK(MPIX_Put_notify(v, 2, MPI_INT, target, rw_disp(w, target, slot(w->rank, m)), 2,
                              MPI_INT, m, w->win));
    }
}

/* Takes one notification (waiting, or polling with test) and checks it:
 * 0 once a check failed. */
static int take_one(struct rw *w, int *next, int use_test, const char *what)
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
    const int *d = &w->buf[slot(src, tag)];
    if (d[0] != src || d[1] != tag) {
        MT_FAIL("%s: at the notification of message %d from rank %d its slot holds (%d, %d)",
                what, tag, src, d[0], d[1]);
        return 0;
    }
    next[src]++;
    return 1;
}

static void round_for(struct rw *w, int target, int while_sending)
{
    char what[96];
    snprintf(what, sizeof what, "%s, target %d, %s", rw_name(w->flavor), target,
             while_sending ? "taken while sending" : "taken after a barrier");
    int *next = calloc((size_t)w->size, sizeof(int));
    long total = (long)w->size * BURST, n = 0;
    MT_OK(MPI_Win_lock_all(0, w->win));
    if (w->rank != target) {
        send_burst(w, target);
    } else if (while_sending) {
        /* Its own burst in pieces between takes: a burst sent whole would
         * only be drained by this rank itself. */
        for (int m = 0; m < BURST; m++) {
            int v[2] = { w->rank, m };
            MT_OK(MPIX_Put_notify(v, 2, MPI_INT, target, rw_disp(w, target, slot(target, m)),
                                  2, MPI_INT, m, w->win));
            if (m % 3 == 2 && n < total && take_one(w, next, 1, what))
                n++;
        }
    } else {
        send_burst(w, target);
    }
    MT_OK(MPI_Win_flush_all(w->win));
    if (!while_sending || w->rank != target)
        MPI_Barrier(w->comm);
    if (w->rank == target) {
        while (n < total && take_one(w, next, while_sending, what))
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
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    for (int flavor = 0; flavor < RW_NFLAVORS; flavor++) {
        struct rw w;
        if (!rw_open(&w, flavor, MTest_size * BURST * 2, MPI_COMM_WORLD))
            continue;
        for (int t = 0; t < w.size; t++)
            for (int while_sending = 0; while_sending < 2; while_sending++) {
                rw_fill(&w, t * 2 + while_sending);
                round_for(&w, t, while_sending);
            }
        rw_close(&w);
    }
    return MTest_Finalize();
}

#endif
