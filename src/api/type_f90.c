/*
 * Datatypes chosen by size or by Fortran precision and range:
 * MPI_Type_match_size (MPI-3.1 17.1.9) and MPI_Type_create_f90_integer /
 * _real / _complex (17.1.9, "parameterized types").
 *
 * MPI_Type_match_size returns the first predefined type of the class whose
 * size matches, C types first, as MPICH does. The f90 constructors return a
 * type for each distinct (p, r) asked for: the same layout as the predefined
 * type of the smallest kind that satisfies them, with the MPI_COMBINER_F90_*
 * envelope the standard gives it. Such a type is predefined in the standard's
 * sense (it cannot be freed), so each is made once and kept in a small cache
 * for the rest of the job, which also makes repeated calls return the same
 * handle, as MPICH's do.
 */
#include "api/type_f90.h"

#include <stdio.h>
#include <stdlib.h>

#include "api/api.h"

#include "core/dt_build.h"

/* The kinds of gfortran on x86-64 with their decimal precision and range
 * (PRECISION / RANGE intrinsics), smallest first: what SELECTED_INT_KIND and
 * SELECTED_REAL_KIND pick from. REAL16 is rdmpi's long double (x87
 * extended). */
static const struct kind {
    int p, r;
    MPI_Datatype real, complex;
} real_kinds[] = {
    { 6, 37, MPI_REAL4, MPI_COMPLEX8 },
    { 15, 307, MPI_REAL8, MPI_COMPLEX16 },
    { 18, 4931, MPI_REAL16, MPI_COMPLEX32 },
};

static const struct int_kind {
    int r;
    MPI_Datatype type;
} int_kinds[] = {
    { 2, MPI_INTEGER1 },
    { 4, MPI_INTEGER2 },
    { 9, MPI_INTEGER4 },
    { 18, MPI_INTEGER8 },
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- MPI_Type_match_size ---- */

static const MPI_Datatype match_real[] = { MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE };
static const MPI_Datatype match_integer[] = { MPI_SIGNED_CHAR, MPI_SHORT, MPI_INT, MPI_LONG,
                                              MPI_LONG_LONG };
static const MPI_Datatype match_complex[] = { MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                                              MPI_C_LONG_DOUBLE_COMPLEX };

RD_WEAK_ALIAS(MPI_Type_match_size)
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_match_size";
    const MPI_Datatype *cand;
    size_t n;
    const char *cls;
    RD_API_CHECK_INIT(fn);
    if (!datatype)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "datatype pointer is NULL");
    switch (typeclass) {
    case MPI_TYPECLASS_REAL:
        cand = match_real, n = NELEMS(match_real), cls = "MPI_TYPECLASS_REAL";
        break;
    case MPI_TYPECLASS_INTEGER:
        cand = match_integer, n = NELEMS(match_integer), cls = "MPI_TYPECLASS_INTEGER";
        break;
    case MPI_TYPECLASS_COMPLEX:
        cand = match_complex, n = NELEMS(match_complex), cls = "MPI_TYPECLASS_COMPLEX";
        break;
    default:
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "invalid typeclass %d: use MPI_TYPECLASS_REAL, _INTEGER or _COMPLEX",
                            typeclass);
    }
    for (size_t i = 0; i < n; i++) {
        rd_datatype_t *dt = rd_api_dt(cand[i]);
        if (dt && dt->size == (size_t)size) {
            *datatype = cand[i];
            return MPI_SUCCESS;
        }
    }
    return rd_api_error(NULL, MPI_ERR_ARG, fn, "no predefined type of class %s has size %d", cls,
                        size);
}

/* ---- parameterized types ---- */

/* Made types, by combiner and (p, r); kept until the job ends. */
typedef struct f90_type {
    int combiner, p, r;
    MPI_Datatype handle;
    struct f90_type *next;
} f90_type_t;

static f90_type_t *f90_cache;

/* The type with combiner and parameters (p, r) laid out as base: the cached
 * one, or a new one (lock held). */
static int f90_type(int combiner, int p, int r, MPI_Datatype base, MPI_Datatype *out,
                    const char *fn)
{
    for (f90_type_t *t = f90_cache; t; t = t->next)
        if (t->combiner == combiner && t->p == p && t->r == r) {
            *out = t->handle;
            return MPI_SUCCESS;
        }
    f90_type_t *t = malloc(sizeof(*t));
    rd_datatype_t *dt = t ? rd_dt_build_dup(rd_api_dt(base)) : NULL;
    /* The envelope holds the arguments only (MPI-3.1 4.1.13): r alone for
     * integers; the layout is the builtin's, which lives for the job. */
    int ints[2] = { combiner == MPI_COMBINER_F90_INTEGER ? r : p, r };
    int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    if (!dt || rd_dt_set_contents(dt, combiner, ni, ints, 0, NULL, 0, NULL) ||
        !(dt->handle = rd_handle_alloc(RD_OBJ_DATATYPE, dt))) {
        if (dt)
            rd_dt_release(dt);
        free(t);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for the new datatype");
    }
    dt->committed = 1;
    snprintf(dt->name, sizeof(dt->name), "%s", rd_api_dt(base)->name);
    *t = (f90_type_t){ combiner, p, r, dt->handle, f90_cache };
    f90_cache = t;
    *out = t->handle;
    return MPI_SUCCESS;
}

int rd_api_dt_is_f90(const rd_datatype_t *dt)
{
    return !dt->builtin && (dt->combiner == MPI_COMBINER_F90_INTEGER ||
                            dt->combiner == MPI_COMBINER_F90_REAL ||
                            dt->combiner == MPI_COMBINER_F90_COMPLEX);
}

/* The real kind of the smallest precision >= p and range >= r (either may be
 * MPI_UNDEFINED: no requirement), or NULL. */
static const struct kind *real_kind(int p, int r)
{
    for (size_t i = 0; i < NELEMS(real_kinds); i++)
        if ((p == MPI_UNDEFINED || p <= real_kinds[i].p) &&
            (r == MPI_UNDEFINED || r <= real_kinds[i].r))
            return &real_kinds[i];
    return NULL;
}

static int create_real(int p, int r, int complex, MPI_Datatype *newtype, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (!newtype)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "newtype pointer is NULL");
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "p and r are both MPI_UNDEFINED");
    if ((p != MPI_UNDEFINED && p < 0) || (r != MPI_UNDEFINED && r < 0))
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative precision %d or range %d", p, r);
    const struct kind *k = real_kind(p, r);
    if (!k)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "no real kind has precision %d and range %d (the largest has %d "
                            "and %d)", p, r, real_kinds[NELEMS(real_kinds) - 1].p,
                            real_kinds[NELEMS(real_kinds) - 1].r);
    rd_api_lock();
    int err = f90_type(complex ? MPI_COMBINER_F90_COMPLEX : MPI_COMBINER_F90_REAL, p, r,
                       complex ? k->complex : k->real, newtype, fn);
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Type_create_f90_real)
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return create_real(p, r, 0, newtype, "MPI_Type_create_f90_real");
}

RD_WEAK_ALIAS(MPI_Type_create_f90_complex)
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return create_real(p, r, 1, newtype, "MPI_Type_create_f90_complex");
}

RD_WEAK_ALIAS(MPI_Type_create_f90_integer)
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_f90_integer";
    RD_API_CHECK_INIT(fn);
    if (!newtype)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "newtype pointer is NULL");
    if (r < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative range %d", r);
    for (size_t i = 0; i < NELEMS(int_kinds); i++)
        if (r <= int_kinds[i].r) {
            rd_api_lock();
            int err = f90_type(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, int_kinds[i].type,
                               newtype, fn);
            rd_api_unlock();
            return err;
        }
    return rd_api_error(NULL, MPI_ERR_ARG, fn,
                        "no integer kind has range %d (the largest has %d)", r,
                        int_kinds[NELEMS(int_kinds) - 1].r);
}
