/*
 * p2p_pair_elements: MPI_Get_elements / MPI_Get_elements_x on a status from
 * a receive of the pair types (MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
 * MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT). Each pair holds two basic
 * elements; implementations report either the basic elements (2 per pair,
 * MPICH's intent) or the pairs (Open MPI), so both are accepted; it must not
 * fail. MPICH 4.0.2 as packaged by Debian (built without yaksa) dies with
 * SIGFPE in MPI_Get_elements here: a known MPICH failure.
 */
#include "mtest.h"

#include <string.h>

#define N 5

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    static const struct { MPI_Datatype t; const char *name; } types[] = {
        { MPI_FLOAT_INT, "MPI_FLOAT_INT" }, { MPI_DOUBLE_INT, "MPI_DOUBLE_INT" },
        { MPI_LONG_INT, "MPI_LONG_INT" }, { MPI_2INT, "MPI_2INT" },
        { MPI_SHORT_INT, "MPI_SHORT_INT" },
        { MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT" },
    };
    char sbuf[N * 32], rbuf[N * 32];

    memset(sbuf, 0, sizeof sbuf);
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        MPI_Status st;
        int count = -1, elems = -1;
        MPI_Count elems_x = -1;
        MT_OK(MPI_Sendrecv(sbuf, N, types[k].t, 0, 1, rbuf, N, types[k].t, 0, 1,
                           MPI_COMM_SELF, &st));
        MT_OK(MPI_Get_count(&st, types[k].t, &count));
        MT_CHECK(count == N, "%s: Get_count %d, expected %d", types[k].name, count, N);
        MT_OK(MPI_Get_elements(&st, types[k].t, &elems));
        MT_CHECK(elems == 2 * N || elems == N, "%s: Get_elements %d, expected %d (or %d)",
                 types[k].name, elems, 2 * N, N);
        MT_OK(MPI_Get_elements_x(&st, types[k].t, &elems_x));
        MT_CHECK(elems_x == elems, "%s: Get_elements_x %lld, Get_elements %d",
                 types[k].name, (long long)elems_x, elems);
    }
    return MTest_Finalize();
}
