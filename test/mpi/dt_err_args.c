/*
 * dt_err_args: invalid subarray and darray arguments give MPI_ERR_ARG (a
 * subsize larger than the size, a start past the end, a bad order, a process
 * grid that does not match size, a NONE dimension over several processes),
 * and MPI_Pack into too small a buffer gives MPI_ERR_TRUNCATE.
 * MPICH 4.0.2 (Debian) checks none of these: it returns MPI_SUCCESS for the
 * subarrays and the Pack, and divides by zero in darray; hence xfail=mpich.
 */
#include "err_common.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int sizes[2] = { 4, 4 }, subs[2] = { 2, 5 }, starts[2] = { 0, 0 };
    MT_ERRCLASS(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG, "subarray subsize 5 > size 4");
    subs[1] = 2;
    starts[0] = 3;
    MT_ERRCLASS(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG, "subarray start 3 + subsize 2 > size 4");
    starts[0] = 0;
    MT_ERRCLASS(MPI_Type_create_subarray(2, sizes, subs, starts, 99, MPI_INT, &t), MPI_ERR_ARG,
                "subarray order 99");
    MT_ERRCLASS(MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG, "subarray ndims 0");
    int g[2] = { 8, 8 }, dist[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK };
    int darg[2] = { MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG }, p[2] = { 2, 3 };
    MT_ERRCLASS(MPI_Type_create_darray(4, 0, 2, g, dist, darg, p, MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG, "darray grid of 6 for size 4");
    p[1] = 2;
    dist[1] = MPI_DISTRIBUTE_NONE;
    MT_ERRCLASS(MPI_Type_create_darray(4, 0, 2, g, dist, darg, p, MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG, "darray NONE over 2 processes");
    dist[1] = MPI_DISTRIBUTE_BLOCK;
    darg[0] = 3;
    MT_ERRCLASS(MPI_Type_create_darray(4, 0, 2, g, dist, darg, p, MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG, "darray block of 3 x 2 processes < 8");
    MT_CHECK(t == MPI_DATATYPE_NULL, "a failed constructor set newtype");

    double src[30] = { 0 };
    char out[200];
    int pos = 0;
    MT_OK(MPI_Type_vector(10, 1, 3, MPI_DOUBLE, &t));
    MT_OK(MPI_Type_commit(&t));
    MT_ERRCLASS(MPI_Pack(src, 1, t, out, 60, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                "MPI_Pack of 80 bytes into 60");
    MT_CHECK(pos == 0, "a failed MPI_Pack moved position to %d", pos);
    MT_OK(MPI_Type_free(&t));
    MTest_Check_comm_works(MPI_COMM_WORLD, "after datatype argument errors");
    return MTest_Finalize();
}
