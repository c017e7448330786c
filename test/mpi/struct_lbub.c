/*
 * struct_lbub: MPI_LB and MPI_UB in MPI_Type_create_struct (MPI-1 markers,
 * removed in MPI-3.0, kept by MPICH): they add no data and set the lower
 * bound (the least MPI_LB displacement) and the upper bound (the greatest
 * MPI_UB one); a struct of markers only has size 0 (and a bound it has no
 * marker for is 0, so { (LB, 10) } has extent -10, as in MPICH). MPI_Type_get_name knows
 * them.
 */
#include <string.h>

#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Datatype t, only, types[4] = { MPI_LB, MPI_INT, MPI_UB, MPI_LB };
    int bls[4] = { 1, 2, 1, 1 }, size = -1, len = 0;
    MPI_Aint disps[4] = { -4, 0, 20, -2 }, lb, extent;
    char name[MPI_MAX_OBJECT_NAME];
    MT_OK(MPI_Type_create_struct(4, bls, disps, types, &t));
    MT_OK(MPI_Type_commit(&t));
    MT_OK(MPI_Type_size(t, &size));
    MT_OK(MPI_Type_get_extent(t, &lb, &extent));
    MT_CHECK(size == 2 * (int)sizeof(int) && lb == -4 && extent == 24,
             "struct with markers: size %d lb %ld extent %ld", size, (long)lb, (long)extent);
    /* two of them in a row: data at 0 and 24 */
    int buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[8] = { 0 };
    MPI_Sendrecv(buf, 2, t, 0, 0, out, 2, t, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    MT_CHECK(out[0] == 1 && out[1] == 2 && out[6] == 7 && out[7] == 8 && out[2] == 0,
             "data of two structs with markers: %d %d %d %d %d", out[0], out[1], out[2], out[6],
             out[7]);
    MT_OK(MPI_Type_free(&t));
    MPI_Aint d1 = 10;
    int one = 1;
    MT_OK(MPI_Type_create_struct(1, &one, &d1, &types[0], &only));
    MT_OK(MPI_Type_size(only, &size));
    MT_OK(MPI_Type_get_extent(only, &lb, &extent));
    /* the type map { (LB, 10) }: the upper bound stays 0 (as in MPICH) */
    MT_CHECK(size == 0 && lb == 10 && extent == -10, "markers only: size %d lb %ld extent %ld", size,
             (long)lb, (long)extent);
    MT_OK(MPI_Type_free(&only));
    MT_OK(MPI_Type_get_name(MPI_UB, name, &len));
    MT_CHECK(!strcmp(name, "MPI_UB"), "name of MPI_UB: %s", name);
    MT_OK(MPI_Type_get_name(MPI_C_COMPLEX, name, &len));
    MT_CHECK(!strcmp(name, "MPI_C_COMPLEX"), "name of MPI_C_COMPLEX: %s", name);
    return MTest_Finalize();
}
