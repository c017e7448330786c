/*
 * The mpi_f08 routines whose C side is not generated (f08-bindings.c, by
 * gen-f08.sh): MPI_Init and MPI_Init_thread (no argc/argv in Fortran), the
 * routines returning 1-based indices, and the helpers the generated
 * functions share: contiguity of a buffer, the datatype describing an array
 * section, the error refusing one. Conventions: see f08.h.
 */
#include "fortran/f08.h"

#include <pthread.h>
#include <stdio.h>

int rd_f08_contiguous(const CFI_cdesc_t *d)
{
    CFI_index_t sm = (CFI_index_t)d->elem_len;
    int i;

    for (i = 0; i < d->rank; i++) {
        if (d->dim[i].extent <= 1)
            continue;
        if (d->dim[i].sm != sm)
            return 0;
        sm *= d->dim[i].extent;
    }
    return 1;
}

/* One error code with its message per routine that refused a buffer, so that
 * repeated failures do not use up the codes MPI_Add_error_code can make. */
#define RD_F08_ERRCODES_MAX 32
static struct {
    const char *fn;
    int code;
} errcodes[RD_F08_ERRCODES_MAX];
static int nerrcodes;
static pthread_mutex_t errcodes_lock = PTHREAD_MUTEX_INITIALIZER;

static int noncontig_code(const char *fn)
{
    char msg[MPI_MAX_ERROR_STRING];
    int i, code = MPI_ERR_UNSUPPORTED_OPERATION;

    pthread_mutex_lock(&errcodes_lock);
    for (i = 0; i < nerrcodes; i++) {
        if (errcodes[i].fn == fn) {
            code = errcodes[i].code;
            goto out;
        }
    }
    if (nerrcodes == RD_F08_ERRCODES_MAX ||
        PMPI_Add_error_code(MPI_ERR_UNSUPPORTED_OPERATION, &code) != MPI_SUCCESS)
        goto out;
    snprintf(msg, sizeof(msg),
             "%s (mpi_f08): this noncontiguous array section cannot be its buffer (only "
             "point-to-point and MPI_Put/Get/Rput/Rget take one, with one datatype per "
             "element); pass a contiguous array",
             fn);
    PMPI_Add_error_string(code, msg);
    errcodes[nerrcodes].fn = fn;
    errcodes[nerrcodes].code = code;
    nerrcodes++;
out:
    pthread_mutex_unlock(&errcodes_lock);
    return code;
}

int rd_f08_noncontig(const char *fn, enum rd_f08_errobj obj, MPI_Fint handle)
{
    int code = noncontig_code(fn);

    switch (obj) {
    case RD_F08_ERR_COMM:
        PMPI_Comm_call_errhandler((MPI_Comm)handle, code);
        break;
    case RD_F08_ERR_WIN:
        PMPI_Win_call_errhandler((MPI_Win)handle, code);
        break;
    case RD_F08_ERR_NONE:
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
        break;
    }
    return code;
}

int rd_f08_section(const CFI_cdesc_t *d, int *count, MPI_Datatype *datatype, MPI_Datatype *tmp,
                   const char *fn, enum rd_f08_errobj obj, MPI_Fint handle)
{
    MPI_Datatype t = *datatype, v;
    MPI_Aint lb, extent;
    CFI_index_t n = 1;
    int i;

    for (i = 0; i < d->rank; i++)
        n *= d->dim[i].extent;
    if (*count == 0 || n == 0)
        return MPI_SUCCESS;
    if (PMPI_Type_get_extent(*datatype, &lb, &extent) != MPI_SUCCESS ||
        extent != (MPI_Aint)d->elem_len || (CFI_index_t)*count != n)
        return rd_f08_noncontig(fn, obj, handle);
    /* Innermost dimension first: each level repeats the one below it. */
    for (i = 0; i < d->rank; i++) {
        if (PMPI_Type_create_hvector((int)d->dim[i].extent, 1, (MPI_Aint)d->dim[i].sm, t, &v) !=
            MPI_SUCCESS) {
            if (t != *datatype)
                PMPI_Type_free(&t);
            return rd_f08_noncontig(fn, obj, handle);
        }
        if (t != *datatype)
            PMPI_Type_free(&t);
        t = v;
    }
    PMPI_Type_commit(&t);
    *datatype = *tmp = t;
    *count = 1;
    return MPI_SUCCESS;
}

void rd_f08_section_free(MPI_Datatype *tmp)
{
    if (*tmp != MPI_DATATYPE_NULL)
        PMPI_Type_free(tmp);
}

void rd_f08_init(MPI_Fint *ierr)
{
    *ierr = PMPI_Init(NULL, NULL);
}

void rd_f08_init_thread(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    *ierr = PMPI_Init_thread(NULL, NULL, *required, provided);
}

static MPI_Fint index_to_fortran(int i)
{
    return i == MPI_UNDEFINED ? i : i + 1;
}

void rd_f08_waitany(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                    MPI_Fint *status, MPI_Fint *ierr)
{
    int i = MPI_UNDEFINED;

    *ierr = PMPI_Waitany(*count, requests, &i, rd_f_status(status));
    if (*ierr == MPI_SUCCESS)
        *index = index_to_fortran(i);
}

void rd_f08_testany(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                    MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
    int i = MPI_UNDEFINED, f = 0;

    *ierr = PMPI_Testany(*count, requests, &i, &f, rd_f_status(status));
    if (*ierr == MPI_SUCCESS) {
        *index = index_to_fortran(i);
        *flag = rd_f_logical(f);
    }
}

static void indices_to_fortran(int outcount, MPI_Fint *indices)
{
    int i;

    for (i = 0; outcount != MPI_UNDEFINED && i < outcount; i++)
        indices[i]++;
}

void rd_f08_waitsome(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                     MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
    *ierr = PMPI_Waitsome(*incount, requests, outcount, indices, rd_f_statuses(statuses));
    if (*ierr == MPI_SUCCESS)
        indices_to_fortran(*outcount, indices);
}

void rd_f08_testsome(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                     MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
    *ierr = PMPI_Testsome(*incount, requests, outcount, indices, rd_f_statuses(statuses));
    if (*ierr == MPI_SUCCESS)
        indices_to_fortran(*outcount, indices);
}
