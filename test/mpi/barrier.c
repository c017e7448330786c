/*
 * barrier: MPI_Barrier repeated on COMM_WORLD, a dup, a split, a reversed
 * copy (its rank 0 is the highest world rank) and COMM_SELF, interleaved so
 * that two processes meet on several communicators with different roots,
 * and its synchronisation: in each round one "late" rank posts a receive for
 * "I left the barrier" messages, keeps testing it for a while before
 * entering the barrier, and fails if any arrived then; every other rank sends
 * that message right after its barrier returns. A correct barrier makes the
 * early completion impossible, so the check has no false alarms.
 */
#include "mtest.h"

#include <time.h>

#define REPEAT 50
#define TAG_LEFT 50

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm dup, split, rev;

    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, 0, &split));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, MTest_size - MTest_rank, &rev));
    for (int i = 0; i < REPEAT; i++) {
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        MT_OK(MPI_Barrier(i % 2 ? dup : split));
        MT_OK(MPI_Barrier(rev));
        if (i % 3 == 0)
            MT_OK(MPI_Barrier(rev));
    }
    MT_OK(MPI_Barrier(MPI_COMM_SELF));

    /* Rounds 0..size-1 on COMM_WORLD, then the same on rev, whose rank 0 is
     * another process. Ranks below are ranks of c. */
    for (int late = 0; late < 2 * MTest_size; late++) {
        MPI_Comm c = late < MTest_size ? MPI_COMM_WORLD : rev;
        int lr = late % MTest_size, me;
        MT_OK(MPI_Comm_rank(c, &me));
        if (me == lr) {
            MPI_Request r;
            int flag = 0, dummy;
            MT_OK(MPI_Irecv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, TAG_LEFT, c, &r));
            for (int k = 0; k < 20 && !flag; k++) {
                struct timespec ts = { 0, 2000000 };
                nanosleep(&ts, NULL);
                MT_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
            }
            if (flag)
                MT_FAIL("round %d: a rank left the barrier before rank %d entered it",
                        late, lr);
            MT_OK(MPI_Barrier(c));
            if (MTest_size == 1) {
                /* nobody else: the receive can never match */
                MT_OK(MPI_Cancel(&r));
                MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
                continue;
            }
            /* r takes one of the size-1 messages, Recv the others */
            MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            for (int k = 2; k < MTest_size; k++)
                MT_OK(MPI_Recv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, TAG_LEFT, c,
                               MPI_STATUS_IGNORE));
        } else {
            int one = 1;
            MT_OK(MPI_Barrier(c));
            MT_OK(MPI_Send(&one, 1, MPI_INT, lr, TAG_LEFT, c));
        }
    }
    MT_OK(MPI_Comm_free(&rev));
    MT_OK(MPI_Comm_free(&dup));
    MT_OK(MPI_Comm_free(&split));
    return MTest_Finalize();
}
