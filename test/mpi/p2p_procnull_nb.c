/*
 * p2p_procnull_nb: a nonblocking receive from MPI_PROC_NULL completes (Test
 * and Wait) with source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 (MPI-3.1
 * 3.11). MPICH 4.0.2 reports source 0 / tag 0 here (listed as xfail=mpich).
 */
#include "mtest.h"

static void check_null_status(MPI_Status *st, const char *what)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    MT_CHECK(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG && count == 0,
             "%s: source %d tag %d count %d, expected PROC_NULL ANY_TAG 0", what,
             st->MPI_SOURCE, st->MPI_TAG, count);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int buf[4] = { 1, 2, 3, 4 };
    MPI_Request r;
    MPI_Status st;
    int flag;

    MT_OK(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    flag = 0;
    while (!flag)
        MT_OK(MPI_Test(&r, &flag, &st));
    check_null_status(&st, "Irecv(PROC_NULL)+Test");
    MT_OK(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    MT_OK(MPI_Wait(&r, &st));
    check_null_status(&st, "Irecv(PROC_NULL)+Wait");
    MT_CHECK(buf[0] == 1 && buf[3] == 4, "receive from PROC_NULL modified the buffer");
    return MTest_Finalize();
}
