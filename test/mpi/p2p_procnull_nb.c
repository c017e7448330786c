/*
 * p2p_procnull_nb: a nonblocking receive from MPI_PROC_NULL completes (Test
 * and Wait) with source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 (MPI-3.1
 * 3.11). MPICH 4.0.2 reports source 0 / tag 0 here (listed as xfail=mpich).
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int buf[4] = { 1, 2, 3, 4 };
    MPI_Request r;
    MPI_Status st;

    MT_OK(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    for (int flag = 0; !flag;)
        MT_OK(MPI_Test(&r, &flag, &st));
    MTest_Check_null_status(&st, "Irecv(PROC_NULL)+Test");
    MT_OK(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    MT_OK(MPI_Wait(&r, &st));
    MTest_Check_null_status(&st, "Irecv(PROC_NULL)+Wait");
    MT_CHECK(buf[0] == 1 && buf[3] == 4, "receive from PROC_NULL modified the buffer");
    return MTest_Finalize();
}
