/*
 * The Fortran bindings that do not map mechanically onto their C function,
 * and the pieces every binding shares: the COMMON blocks of mpif.h and the
 * CHARACTER conversions. The mechanical bindings are generated into
 * bindings.c by gen-bindings.sh, which skips every routine named here in an
 * RD_F_NAMES line. Conventions: see fortran.h.
 */
#include "fortran/fortran.h"

#include <stdlib.h>
#include <string.h>

/* Aligned as gfortran aligns COMMON blocks, which the mpi_f08 module of
 * this library declares too (the linker warns about a smaller alignment). */
#define RD_F_COMMON __attribute__((aligned(16)))
struct rd_f_priv1 mpipriv1_ RD_F_COMMON;
struct rd_f_priv2 mpipriv2_ RD_F_COMMON;
struct rd_f_privc mpiprivc_ RD_F_COMMON;
MPI_Fint mpifcmb5_ RD_F_COMMON;
MPI_Fint mpifcmb9_ RD_F_COMMON;

char *rd_f_str_in(const char *s, size_t len)
{
    char *c;

    while (len > 0 && s[len - 1] == ' ')
        len--;
    c = malloc(len + 1);
    if (c == NULL)
        return NULL;
    memcpy(c, s, len);
    c[len] = '\0';
    return c;
}

char *rd_f_str_tmp(size_t len)
{
    size_t size = len > MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING;
    char *c = malloc(size + 1);

    if (c != NULL)
        c[0] = '\0';
    return c;
}

void rd_f_str_out(const char *c, char *s, size_t len)
{
    size_t n = strlen(c);

    if (n > len)
        n = len;
    memcpy(s, c, n);
    memset(s + n, ' ', len - n);
}

/* ------------------------------------------------------------------------
 * Environment. MPI_INIT has no argc/argv in Fortran; MPI_WTIME and
 * MPI_WTICK are the only functions.
 * ------------------------------------------------------------------------ */

RD_F_EXPORT void pmpi_init_(MPI_Fint *ierr)
{
    *ierr = PMPI_Init(NULL, NULL);
}
RD_F_NAMES(mpi_init, MPI_INIT)

RD_F_EXPORT void pmpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    *ierr = PMPI_Init_thread(NULL, NULL, *required, provided);
}
RD_F_NAMES(mpi_init_thread, MPI_INIT_THREAD)

RD_F_EXPORT double pmpi_wtime_(void)
{
    return PMPI_Wtime();
}
RD_F_NAMES(mpi_wtime, MPI_WTIME)

RD_F_EXPORT double pmpi_wtick_(void)
{
    return PMPI_Wtick();
}
RD_F_NAMES(mpi_wtick, MPI_WTICK)

RD_F_EXPORT void pmpi_pcontrol_(MPI_Fint *level, MPI_Fint *ierr)
{
    *ierr = PMPI_Pcontrol(*level);
}
RD_F_NAMES(mpi_pcontrol, MPI_PCONTROL)

RD_F_EXPORT MPI_Aint pmpi_aint_add_(MPI_Aint *base, MPI_Aint *disp)
{
    return PMPI_Aint_add(*base, *disp);
}
RD_F_NAMES(mpi_aint_add, MPI_AINT_ADD)

RD_F_EXPORT MPI_Aint pmpi_aint_diff_(MPI_Aint *addr1, MPI_Aint *addr2)
{
    return PMPI_Aint_diff(*addr1, *addr2);
}
RD_F_NAMES(mpi_aint_diff, MPI_AINT_DIFF)

/* The buffer address is meaningless in Fortran: only the size comes back. */
RD_F_EXPORT void pmpi_buffer_detach_(void *buffer_addr, MPI_Fint *size, MPI_Fint *ierr)
{
    void *addr;

    *ierr = PMPI_Buffer_detach(&addr, size);
}
RD_F_NAMES(mpi_buffer_detach, MPI_BUFFER_DETACH)

/* ------------------------------------------------------------------------
 * Completion: Fortran request indices start at 1.
 * ------------------------------------------------------------------------ */

RD_F_EXPORT void pmpi_waitany_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                               MPI_Fint *status, MPI_Fint *ierr)
{
    int i;

    *ierr = PMPI_Waitany(*count, requests, &i, rd_f_status(status));
    if (*ierr == MPI_SUCCESS)
        *index = i == MPI_UNDEFINED ? i : i + 1;
}
RD_F_NAMES(mpi_waitany, MPI_WAITANY)

RD_F_EXPORT void pmpi_testany_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                               MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
    int i, f;

    *ierr = PMPI_Testany(*count, requests, &i, &f, rd_f_status(status));
    if (*ierr == MPI_SUCCESS) {
        *index = i == MPI_UNDEFINED ? i : i + 1;
        *flag = rd_f_logical(f);
    }
}
RD_F_NAMES(mpi_testany, MPI_TESTANY)

static void indices_to_fortran(int outcount, MPI_Fint *indices)
{
    int i;

    if (outcount == MPI_UNDEFINED)
        return;
    for (i = 0; i < outcount; i++)
        indices[i]++;
}

RD_F_EXPORT void pmpi_waitsome_(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                                MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
    *ierr = PMPI_Waitsome(*incount, requests, outcount, indices, rd_f_statuses(statuses));
    if (*ierr == MPI_SUCCESS)
        indices_to_fortran(*outcount, indices);
}
RD_F_NAMES(mpi_waitsome, MPI_WAITSOME)

RD_F_EXPORT void pmpi_testsome_(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                                MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
    *ierr = PMPI_Testsome(*incount, requests, outcount, indices, rd_f_statuses(statuses));
    if (*ierr == MPI_SUCCESS)
        indices_to_fortran(*outcount, indices);
}
RD_F_NAMES(mpi_testsome, MPI_TESTSOME)

/* ------------------------------------------------------------------------
 * MPI-1 datatype routines. In Fortran their addresses, extents and
 * displacements are default INTEGERs, not INTEGER(MPI_ADDRESS_KIND), so they
 * are converted and passed to the MPI-2 routines that replaced them (the
 * same operations with MPI_Aint arguments).
 * ------------------------------------------------------------------------ */

RD_F_EXPORT void pmpi_address_(void *location, MPI_Fint *address, MPI_Fint *ierr)
{
    MPI_Aint a;

    *ierr = PMPI_Get_address(rd_f_buf(location), &a);
    if (*ierr == MPI_SUCCESS)
        *address = (MPI_Fint)a;
}
RD_F_NAMES(mpi_address, MPI_ADDRESS)

RD_F_EXPORT void pmpi_type_extent_(MPI_Fint *datatype, MPI_Fint *extent, MPI_Fint *ierr)
{
    MPI_Aint lb, ext;

    *ierr = PMPI_Type_get_extent(*datatype, &lb, &ext);
    if (*ierr == MPI_SUCCESS)
        *extent = (MPI_Fint)ext;
}
RD_F_NAMES(mpi_type_extent, MPI_TYPE_EXTENT)

RD_F_EXPORT void pmpi_type_lb_(MPI_Fint *datatype, MPI_Fint *displacement, MPI_Fint *ierr)
{
    MPI_Aint lb, ext;

    *ierr = PMPI_Type_get_extent(*datatype, &lb, &ext);
    if (*ierr == MPI_SUCCESS)
        *displacement = (MPI_Fint)lb;
}
RD_F_NAMES(mpi_type_lb, MPI_TYPE_LB)

RD_F_EXPORT void pmpi_type_ub_(MPI_Fint *datatype, MPI_Fint *displacement, MPI_Fint *ierr)
{
    MPI_Aint lb, ext;

    *ierr = PMPI_Type_get_extent(*datatype, &lb, &ext);
    if (*ierr == MPI_SUCCESS)
        *displacement = (MPI_Fint)(lb + ext);
}
RD_F_NAMES(mpi_type_ub, MPI_TYPE_UB)

RD_F_EXPORT void pmpi_type_hvector_(MPI_Fint *count, MPI_Fint *blocklength, MPI_Fint *stride,
                                    MPI_Fint *oldtype, MPI_Fint *newtype, MPI_Fint *ierr)
{
    *ierr = PMPI_Type_create_hvector(*count, *blocklength, *stride, *oldtype, newtype);
}
RD_F_NAMES(mpi_type_hvector, MPI_TYPE_HVECTOR)

/* Widen n INTEGER displacements; NULL if out of memory. */
static MPI_Aint *widen(int n, const MPI_Fint *displs)
{
    MPI_Aint *a = malloc((n > 0 ? (size_t)n : 1) * sizeof(*a));
    int i;

    if (a == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        a[i] = displs[i];
    return a;
}

RD_F_EXPORT void pmpi_type_hindexed_(MPI_Fint *count, MPI_Fint *blocklengths,
                                     MPI_Fint *displacements, MPI_Fint *oldtype,
                                     MPI_Fint *newtype, MPI_Fint *ierr)
{
    MPI_Aint *d = widen(*count, displacements);

    if (d == NULL) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    *ierr = PMPI_Type_create_hindexed(*count, blocklengths, d, *oldtype, newtype);
    free(d);
}
RD_F_NAMES(mpi_type_hindexed, MPI_TYPE_HINDEXED)

RD_F_EXPORT void pmpi_type_struct_(MPI_Fint *count, MPI_Fint *blocklengths,
                                   MPI_Fint *displacements, MPI_Fint *types,
                                   MPI_Fint *newtype, MPI_Fint *ierr)
{
    MPI_Aint *d = widen(*count, displacements);

    if (d == NULL) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    *ierr = PMPI_Type_create_struct(*count, blocklengths, d, types, newtype);
    free(d);
}
RD_F_NAMES(mpi_type_struct, MPI_TYPE_STRUCT)

/* argc/argv are C's: Fortran has no arguments to describe. */
RD_F_EXPORT void pmpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierr)
{
    *ierr = PMPI_Info_create_env(0, NULL, info);
}
RD_F_NAMES(mpi_info_create_env, MPI_INFO_CREATE_ENV)

/* MPI_F_SYNC_REG(buf) only has to be an external call the compiler cannot
 * see through, so that buf is stored to and reloaded from memory. */
RD_F_EXPORT void pmpi_f_sync_reg_(void *buf)
{
}
RD_F_NAMES(mpi_f_sync_reg, MPI_F_SYNC_REG)
