/*
 * Helpers shared by the Fortran bindings (libmpifort): the generated ones in
 * bindings.c (src/fortran/gen-bindings.sh) and the hand-written ones in
 * fortran.c.
 *
 * Conventions of the MPICH Fortran ABI with gfortran, which every binding
 * follows:
 *   - every argument is passed by reference; handles are the same ints as
 *     in C (MPI_Fint), so they need no conversion;
 *   - LOGICAL is a 4-byte int, .TRUE. is 1 and .FALSE. is 0;
 *   - CHARACTER arguments are blank-padded, not NUL-terminated, and their
 *     lengths follow the explicit arguments as hidden size_t values;
 *   - a status is INTEGER(MPI_STATUS_SIZE) with the layout of MPI_Status;
 *   - ierror is the last explicit argument;
 *   - MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE, MPI_UNWEIGHTED and
 *     MPI_WEIGHTS_EMPTY are variables in COMMON blocks (see mpif.h), which
 *     this library defines and recognizes by address.
 * Each routine is defined once as pmpi_name_ and calls the C PMPI_Name; the
 * other spellings compilers use (pmpi_name__, pmpi_name, PMPI_NAME, and the
 * same four without the P) are weak aliases, so a profiling library can
 * interpose on the MPI_ ones (RD_F_NAMES).
 */
#ifndef RD_FORTRAN_FORTRAN_H
#define RD_FORTRAN_FORTRAN_H

#include <mpi.h>
#include <stddef.h>

#define RD_F_EXPORT __attribute__((visibility("default")))

#define RD_F_ALIAS(target, name) \
    extern __typeof__(target) name RD_F_EXPORT __attribute__((weak, alias(#target)));

/* The seven other names of pmpi_<lower>_: lower is mpi_send, upper MPI_SEND. */
#define RD_F_NAMES(lower, upper)       \
    RD_F_ALIAS(p##lower##_, p##lower##__) \
    RD_F_ALIAS(p##lower##_, p##lower)     \
    RD_F_ALIAS(p##lower##_, P##upper)     \
    RD_F_ALIAS(p##lower##_, lower##_)     \
    RD_F_ALIAS(p##lower##_, lower##__)    \
    RD_F_ALIAS(p##lower##_, lower)        \
    RD_F_ALIAS(p##lower##_, upper)

/* The COMMON blocks of mpif.h. Their names and layouts are MPICH's, which
 * MPICH-built Fortran programs refer to. */
struct rd_f_priv1 {
    MPI_Fint bottom, in_place;
    MPI_Fint status_ignore[MPI_F_STATUS_SIZE];
};
struct rd_f_priv2 {
    MPI_Fint statuses_ignore[MPI_F_STATUS_SIZE];
    MPI_Fint errcodes_ignore[1];
};
struct rd_f_privc {
    char argvs_null[1], argv_null[1];
};
extern struct rd_f_priv1 mpipriv1_ RD_F_EXPORT;
extern struct rd_f_priv2 mpipriv2_ RD_F_EXPORT;
extern struct rd_f_privc mpiprivc_ RD_F_EXPORT;
extern MPI_Fint mpifcmb5_ RD_F_EXPORT;  /* MPI_UNWEIGHTED */
extern MPI_Fint mpifcmb9_ RD_F_EXPORT;  /* MPI_WEIGHTS_EMPTY */

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE become C's. */
static inline void *rd_f_buf(const void *buf)
{
    if (buf == &mpipriv1_.bottom)
        return MPI_BOTTOM;
    if (buf == &mpipriv1_.in_place)
        return MPI_IN_PLACE;
    return (void *)buf;
}

static inline MPI_Status *rd_f_status(const MPI_Fint *status)
{
    if (status == mpipriv1_.status_ignore)
        return MPI_STATUS_IGNORE;
    return (MPI_Status *)status;
}

static inline MPI_Status *rd_f_statuses(const MPI_Fint *statuses)
{
    if (statuses == mpipriv2_.statuses_ignore)
        return MPI_STATUSES_IGNORE;
    return (MPI_Status *)statuses;
}

/* Graph edge weights: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY become C's. */
static inline int *rd_f_weights(const MPI_Fint *weights)
{
    if (weights == &mpifcmb5_)
        return MPI_UNWEIGHTED;
    if (weights == &mpifcmb9_)
        return MPI_WEIGHTS_EMPTY;
    return (int *)weights;
}

/* A LOGICAL result. */
static inline MPI_Fint rd_f_logical(int c)
{
    return c ? 1 : 0;
}

/* An input CHARACTER argument as a C string without the trailing blanks;
 * free() it. NULL if out of memory. */
char *rd_f_str_in(const char *s, size_t len);

/* A buffer for a C function to write an output string into, big enough for
 * any MPI string and for len characters; free() it. NULL if out of memory. */
char *rd_f_str_tmp(size_t len);

/* Copy C string c into the CHARACTER argument s of length len, blank-padded
 * (truncated if longer). */
void rd_f_str_out(const char *c, char *s, size_t len);

#endif /* RD_FORTRAN_FORTRAN_H */
