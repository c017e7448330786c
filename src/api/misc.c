/*
 * Functions of mpi.h that do not return an int error code, so the generator
 * of unsupported.c cannot cover them: address arithmetic, and the MPI-IO
 * handle conversions (MPI-IO is not implemented: only MPI_FILE_NULL
 * converts, anything else fails through the file error handler). And
 * MPI_Pcontrol, whose variadic signature the generator could only stub.
 */
#include "api/api.h"

RD_WEAK_ALIAS(MPI_Aint_add)
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return base + disp;
}

RD_WEAK_ALIAS(MPI_Aint_diff)
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return addr1 - addr2;
}

/* MPI_FILE_NULL, the only file there is, converts both ways (Fortran's is 0). */
RD_WEAK_ALIAS(MPI_File_c2f)
MPI_Fint PMPI_File_c2f(MPI_File file)
{
    if (file != MPI_FILE_NULL)
        rd_api_unsupported_file("MPI_File_c2f");
    return 0;
}

RD_WEAK_ALIAS(MPI_File_f2c)
MPI_File PMPI_File_f2c(MPI_Fint file)
{
    if (file != 0)
        rd_api_unsupported_file("MPI_File_f2c");
    return MPI_FILE_NULL;
}

/* The profiling hook of MPI-3.1 14.2.4: with no profiling library between
 * the program and rdmpi there is nothing to switch, and the standard makes
 * the call then a no-op that succeeds (a tool interposing MPI_Pcontrol sees
 * the level and the extra arguments instead). */
RD_WEAK_ALIAS(MPI_Pcontrol)
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
