/*
 * The C side of the mpi_f08 module: what the generated functions of
 * f08-bindings.c (src/fortran/gen-f08.sh) share, and the routines written by
 * hand in f08.c.
 *
 * The module's procedures call C through bind(C) interfaces: every argument
 * by reference except procedures (c_funloc, by value); handles, LOGICAL
 * values and statuses have the representation of the `mpi` module (see
 * fortran.h), so MPI_STATUS(ES)_IGNORE, MPI_BOTTOM and MPI_IN_PLACE are the
 * same COMMON variables and rd_f_status() & co. recognize them; choice
 * buffers and CHARACTER arguments arrive as CFI descriptors
 * (ISO_Fortran_binding.h). ierror is always present here: the module
 * procedure drops it when the caller did not pass one.
 */
#ifndef RD_FORTRAN_F08_H
#define RD_FORTRAN_F08_H

#include "fortran/fortran.h"

#include <ISO_Fortran_binding.h>

/* The object whose error handler reports a buffer the binding refuses. */
enum rd_f08_errobj {
    RD_F08_ERR_NONE, /* MPI_COMM_WORLD's */
    RD_F08_ERR_COMM,
    RD_F08_ERR_WIN,
};

/* The address of the data of choice buffer d: MPI_BOTTOM and MPI_IN_PLACE
 * become C's. */
static inline void *rd_f08_buf(const CFI_cdesc_t *d)
{
    return rd_f_buf(d->base_addr);
}

/* Whether the elements of d follow each other in memory (scalars do). */
int rd_f08_contiguous(const CFI_cdesc_t *d);

/* Describes the noncontiguous array section d, given as the buffer of
 * routine fn with *count elements of *datatype, by a derived datatype: on
 * success *count is 1 and *datatype and *tmp are that type (free it with
 * rd_f08_section_free() once the routine has started: the operation keeps
 * its own reference). The count must cover the section element by element
 * (extent of *datatype = element size, *count = number of elements, or 0);
 * otherwise the error is reported as rd_f08_noncontig() does. */
int rd_f08_section(const CFI_cdesc_t *d, int *count, MPI_Datatype *datatype, MPI_Datatype *tmp,
                   const char *fn, enum rd_f08_errobj obj, MPI_Fint handle);
void rd_f08_section_free(MPI_Datatype *tmp);

/* Reports, through the error handler of the communicator or window handle
 * (obj), that routine fn was given a noncontiguous array section as a buffer
 * it may use after returning; returns the error code (class
 * MPI_ERR_UNSUPPORTED_OPERATION). */
int rd_f08_noncontig(const char *fn, enum rd_f08_errobj obj, MPI_Fint handle);

/* The routines of f08.c the module calls (their bind(C) interfaces are in
 * mpi_f08.f90.in). */
void rd_f08_init(MPI_Fint *ierr);
void rd_f08_init_thread(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr);
void rd_f08_waitany(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                    MPI_Fint *status, MPI_Fint *ierr);
void rd_f08_testany(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                    MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr);
void rd_f08_waitsome(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                     MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr);
void rd_f08_testsome(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                     MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr);

#endif /* RD_FORTRAN_F08_H */
