/*
 * misc_status_f08: the status conversions that involve mpi_f08's
 * TYPE(MPI_Status) (MPI_Status_c2f08, f082c, f2f08, f082f, MPI-4.0):
 * C -> Fortran -> f08 -> C and C -> f08 -> Fortran -> C keep every field
 * (a count above 2^32 and the cancelled flag included); the IGNORE values
 * and NULL are MPI_ERR_ARG. MPICH 4.0.2 does not export these functions, so
 * the program is rdmpi's only (only=rdmpi in misc.testlist).
 */
#include "mtest.h"

#include <string.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Count big = (MPI_Count)1 << 33, got = 0;
    int flag = 0;
    /* Conversions: C -> Fortran -> f08 -> C keeps every field. */
    MPI_Status c = { 0 }, back;
    MPI_Fint f[MPI_F_STATUS_SIZE], f2[MPI_F_STATUS_SIZE];
    MPI_F08_status f08;
    c.MPI_SOURCE = 11, c.MPI_TAG = 12, c.MPI_ERROR = MPI_ERR_TAG;
    MPI_Status_set_elements_x(&c, MPI_BYTE, big + 5);
    MPI_Status_set_cancelled(&c, 1);
    MT_OK(MPI_Status_c2f(&c, f));
    MT_OK(MPI_Status_f2f08(f, &f08));
    MT_OK(MPI_Status_f082c(&f08, &back));
    MT_CHECK(memcmp(&c, &back, sizeof c) == 0, "C -> F -> f08 -> C changed the status");
    MT_CHECK(f08.MPI_SOURCE == 11 && f08.MPI_TAG == 12 && f08.MPI_ERROR == MPI_ERR_TAG,
             "f08 fields %d %d %d", f08.MPI_SOURCE, f08.MPI_TAG, f08.MPI_ERROR);
    memset(&back, 0, sizeof back);
    MT_OK(MPI_Status_c2f08(&c, &f08));
    MT_OK(MPI_Status_f082f(&f08, f2));
    MT_OK(MPI_Status_f2c(f2, &back));
    MT_CHECK(memcmp(&c, &back, sizeof c) == 0, "C -> f08 -> F -> C changed the status");
    MT_OK(MPI_Get_elements_x(&back, MPI_BYTE, &got));
    MT_OK(MPI_Test_cancelled(&back, &flag));
    MT_CHECK(got == big + 5 && flag == 1, "converted count %lld cancelled %d", (long long)got,
             flag);
    MT_ERRCLASS(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG, "c2f of MPI_STATUS_IGNORE");
    MT_ERRCLASS(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back), MPI_ERR_ARG,
                "f2c of MPI_F_STATUS_IGNORE");
    MT_ERRCLASS(MPI_Status_f082c(&f08, NULL), MPI_ERR_ARG, "f082c into NULL");
    return MTest_Finalize();
}
