/*
 * barrier: MPI_Barrier repeated on COMM_WORLD, a dup, a split and COMM_SELF,
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
    MPI_Comm dup, split;

    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, 0, &split));
    for (int i = 0; i < REPEAT; i++) {
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        MT_OK(MPI_Barrier(i % 2 ? dup : split));
    }
    MT_OK(MPI_Barrier(MPI_COMM_SELF));

    for (int late = 0; late < MTest_size; late++) {
        if (MTest_rank == late) {
            MPI_Request r;
            int flag = 0, dummy;
            MT_OK(MPI_Irecv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, TAG_LEFT, MPI_COMM_WORLD, &r));
            for (int k = 0; k < 20 && !flag; k++) {
                struct timespec ts = { 0, 2000000 };
                nanosleep(&ts, NULL);
                MT_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
            }
            if (flag)
                MT_FAIL("round %d: a rank left the barrier before rank %d entered it",
                        late, late);
            MT_OK(MPI_Barrier(MPI_COMM_WORLD));
            if (MTest_size == 1) {
                /* nobody else: the receive can never match */
                MT_OK(MPI_Cancel(&r));
                MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
                continue;
            }
            /* r takes one of the size-1 messages, Recv the others */
            MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
            for (int k = 2; k < MTest_size; k++)
                MT_OK(MPI_Recv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, TAG_LEFT, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        } else {
            int one = 1;
            MT_OK(MPI_Barrier(MPI_COMM_WORLD));
            MT_OK(MPI_Send(&one, 1, MPI_INT, late, TAG_LEFT, MPI_COMM_WORLD));
        }
    }
    MT_OK(MPI_Comm_free(&dup));
    MT_OK(MPI_Comm_free(&split));
    return MTest_Finalize();
}
