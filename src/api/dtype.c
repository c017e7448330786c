/*
 * Derived datatypes (MPI-3.1 chapter 4): the constructors, MPI_Type_commit /
 * free / dup (MPI_Type_get_envelope / get_contents are queries, in types.c;
 * MPI_Pack and friends are in pack.c). Each constructor checks its
 * arguments, builds the layout with core/dt_build.h and records its
 * arguments for get_contents (which also keeps the old types alive while
 * the new one shares their layout).
 * The MPI-1 names MPICH still exports (MPI_Type_hvector, MPI_Type_hindexed,
 * MPI_Type_struct) are the same constructors. The large-count (_c) forms
 * (dtype_c.c) share the bodies (api/dtype.h); the types they build record
 * their arguments as large counts, as MPI-4.0 asks.
 */
#include "api/api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/dtype.h"
#include "api/dtype_lbub.h"
#include "api/type_attr.h"
#include "api/type_f90.h"
#include "core/dt_build.h"

/* Checks an old type argument (committed or not, predefined or derived). */
static int check_old(MPI_Datatype h, rd_datatype_t **dt, const char *fn)
{
    if ((*dt = rd_api_dt(h)))
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_TYPE, fn,
                        h == MPI_DATATYPE_NULL ? "oldtype is MPI_DATATYPE_NULL"
                                               : "invalid oldtype handle 0x%x", (unsigned)h);
}

static int check_count(MPI_Count count, const char *what, const char *fn)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative %s %lld", what, (long long)count);
}

/* a * b (in absolute value) stays within what datatype sizes and offsets
 * (ptrdiff_t) can hold; what names the product in the error. */
static int check_fits(MPI_Count a, MPI_Count b, const char *what, const char *fn)
{
    int64_t p;
    if (!__builtin_mul_overflow(a < 0 ? -a : a, b < 0 ? -b : b, &p) && p <= PTRDIFF_MAX)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_COUNT, fn, "%s (%lld times %lld) is more than a datatype "
                        "can describe", what, (long long)a, (long long)b);
}

/* The bytes one element of dt spans or holds, whichever is more. */
static MPI_Count elem_span(const rd_datatype_t *dt)
{
    ptrdiff_t ext = rd_dt_extent(dt);
    MPI_Count e = ext < 0 ? -(MPI_Count)ext : ext;
    return e > (MPI_Count)dt->size ? e : (MPI_Count)dt->size;
}

/* Counts and sizes the layout engine takes as int (the number of blocks of
 * the indexed and struct types, subarray and darray sizes): more is an
 * error. */
static int check_int(long long v, const char *what, MPI_Count i, const char *fn)
{
    if (v >= INT32_MIN && v <= INT32_MAX)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_COUNT, fn, "%s %lld at index %lld is beyond %d, the "
                        "most the datatype engine takes", what, v, (long long)i, INT32_MAX);
}

static inline long long at(rd_api_array_t a, MPI_Count i)
{
    return a.wide ? (long long)((const int64_t *)a.p)[i] : ((const int *)a.p)[i];
}

/* Checks n block lengths of elements of old (each >= 0, and the block
 * within what a datatype can describe; the array present when n > 0). */
static int check_blocklens(MPI_Count n, rd_api_array_t bls, const rd_datatype_t *old,
                           const char *fn)
{
    int err;
    if (n > 0 && !bls.p)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "array_of_blocklengths is NULL");
    for (MPI_Count i = 0; i < n; i++) {
        long long b = at(bls, i);
        if (b < 0)
            return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative blocklength %lld at index %lld",
                                b, (long long)i);
        if (old && (err = check_fits(b, elem_span(old), "a block", fn)))
            return err;
    }
    return MPI_SUCCESS;
}

/* The n (checked, non-negative) block lengths of a as the engine takes
 * them; NULL when out of memory. The caller frees them. */
static size_t *as_sizes(rd_api_array_t a, MPI_Count n)
{
    size_t *s = malloc((size_t)(n ? n : 1) * sizeof(*s));
    for (MPI_Count i = 0; s && i < n; i++)
        s[i] = (size_t)at(a, i);
    return s;
}

static int check_ptr(const void *p, int needed, const char *what, const char *fn)
{
    if (p || !needed)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_ARG, fn, "%s is NULL", what);
}

/* The type behind *datatype, an argument the call also writes (commit, free). */
static int check_inout(const MPI_Datatype *datatype, rd_datatype_t **dt, const char *fn)
{
    if (!datatype)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "datatype pointer is NULL");
    if (!(*dt = rd_api_dt(*datatype)))
        return rd_api_error(NULL, MPI_ERR_TYPE, fn, "invalid datatype handle 0x%x",
                            (unsigned)*datatype);
    return MPI_SUCCESS;
}

/* Records the arguments of a new type dt and gives it a handle; on failure
 * dt is released. Called with the lock held. */
static int publish(rd_datatype_t *dt, int combiner, int ni, const int *ints, int na,
                   const ptrdiff_t *aints, int nt, rd_datatype_t *const *types,
                   MPI_Datatype *out, const char *fn)
{
    if (!dt)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for the new datatype");
    if (rd_dt_set_contents(dt, combiner, ni, ints, na, aints, nt, types) ||
        !(dt->handle = rd_handle_alloc(RD_OBJ_DATATYPE, dt))) {
        rd_dt_release(dt);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for the new datatype");
    }
    *out = dt->handle;
    return MPI_SUCCESS;
}

/* publish for a type built by a large-count (_c) constructor: its
 * arguments are large counts (nc of them), plus ni ints for those of int
 * type. */
static int publish_large(rd_datatype_t *dt, int combiner, int ni, const int *ints, int nc,
                         const int64_t *counts, int nt, rd_datatype_t *const *types,
                         MPI_Datatype *out, const char *fn)
{
    if (dt && rd_dt_set_counts(dt, nc, counts)) {
        rd_dt_release(dt);
        dt = NULL;
    }
    return publish(dt, combiner, ni, ints, 0, NULL, nt, types, out, fn);
}

/* Builds and publishes hvector(count, bl, stride bytes) with the given
 * contents: large counts when nc > 0 (the _c forms), else ints and aints. */
static int make_hvector(MPI_Count count, MPI_Count bl, ptrdiff_t stride, rd_datatype_t *old,
                        int combiner, int ni, const int *ints, int na, const ptrdiff_t *aints,
                        int nc, const int64_t *counts, MPI_Datatype *newtype, const char *fn)
{
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_hvector((size_t)count, (size_t)bl, stride, old);
    int err = nc ? publish_large(dt, combiner, 0, NULL, nc, counts, 1, &old, newtype, fn)
                 : publish(dt, combiner, ni, ints, na, aints, 1, &old, newtype, fn);
    rd_api_unlock();
    return err;
}

/* The checks of the vector family: count blocks of bl elements of old,
 * stride_bytes apart, fit what a datatype can describe. */
static int check_vector(MPI_Count count, MPI_Count bl, MPI_Datatype oldtype, rd_datatype_t **old,
                        MPI_Datatype *newtype, const char *fn)
{
    int err;
    if ((err = check_count(count, "count", fn)) || (err = check_count(bl, "blocklength", fn)) ||
        (err = check_old(oldtype, old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)) ||
        (err = check_fits(bl, elem_span(*old), "a block", fn)) ||
        (err = check_fits(count, bl * elem_span(*old), "the blocks", fn)))
        return err;
    return MPI_SUCCESS;
}

int rd_api_type_contiguous(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                           int large, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_count(count, "count", fn)) ||
        (err = check_vector(1, count, oldtype, &old, newtype, fn)))
        return err;
    int n = (int)count;
    int64_t c = count;
    return make_hvector(1, count, 0, old, MPI_COMBINER_CONTIGUOUS, 1, &n, 0, NULL, large, &c,
                        newtype, fn);
}

RD_WEAK_ALIAS(MPI_Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_contiguous(count, oldtype, newtype, 0, "MPI_Type_contiguous");
}

int rd_api_type_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype, int large, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_vector(count, blocklength, oldtype, &old, newtype, fn)) ||
        (err = check_fits(stride, rd_dt_extent(old), "the stride", fn)) ||
        (err = check_fits(count, stride * rd_dt_extent(old), "the span", fn)))
        return err;
    int ints[3] = { (int)count, (int)blocklength, (int)stride };
    int64_t counts[3] = { count, blocklength, stride };
    return make_hvector(count, blocklength, (ptrdiff_t)stride * rd_dt_extent(old), old,
                        MPI_COMBINER_VECTOR, 3, ints, 0, NULL, large ? 3 : 0, counts, newtype,
                        fn);
}

RD_WEAK_ALIAS(MPI_Type_vector)
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return rd_api_type_vector(count, blocklength, stride, oldtype, newtype, 0, "MPI_Type_vector");
}

int rd_api_type_hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                        MPI_Datatype oldtype, MPI_Datatype *newtype, int large, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_vector(count, blocklength, oldtype, &old, newtype, fn)) ||
        (err = check_fits(count, stride, "the span", fn)))
        return err;
    int ints[2] = { (int)count, (int)blocklength };
    ptrdiff_t aint = stride;
    int64_t counts[3] = { count, blocklength, stride };
    return make_hvector(count, blocklength, stride, old, MPI_COMBINER_HVECTOR, 2, ints, 1, &aint,
                        large ? 3 : 0, counts, newtype, fn);
}

RD_WEAK_ALIAS(MPI_Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return rd_api_type_hvector(count, blocklength, stride, oldtype, newtype, 0,
                               "MPI_Type_create_hvector");
}

RD_WEAK_ALIAS(MPI_Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return rd_api_type_hvector(count, blocklength, stride, oldtype, newtype, 0,
                               "MPI_Type_hvector");
}

/* The indexed family: count blocks of old at displacements given either in
 * elements of old (idisps) or in bytes (adisps); block lengths per block
 * (bls) or one for all (bl). */
int rd_api_type_indexed(MPI_Count count, rd_api_array_t bls, MPI_Count bl,
                        rd_api_array_t idisps, const MPI_Aint *adisps, MPI_Datatype oldtype,
                        MPI_Datatype *newtype, int combiner, int large, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    /* block lengths are checked again once old is known: the blocks must fit */
    if ((err = check_count(count, "count", fn)) || (err = check_count(bl, "blocklength", fn)) ||
        (bls.p && (err = check_blocklens(count, bls, NULL, fn))) ||
        (err = check_ptr(idisps.p ? idisps.p : (const void *)adisps, count > 0,
                         "array_of_displacements", fn)) ||
        (err = check_old(oldtype, &old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)) ||
        (bls.p && (err = check_blocklens(count, bls, old, fn))) ||
        (err = check_fits(bl, elem_span(old), "a block", fn)) ||
        (err = check_int(count, "count", 0, fn)))
        return err;
    if (!bls.p && count > 0 && combiner != MPI_COMBINER_INDEXED_BLOCK &&
        combiner != MPI_COMBINER_HINDEXED_BLOCK)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "array_of_blocklengths is NULL");
    size_t n = (size_t)count;
    ptrdiff_t ext = rd_dt_extent(old);
    for (size_t i = 0; idisps.p && i < n; i++)
        if ((err = check_fits(at(idisps, i), ext, "a displacement", fn)))
            return err;
    /* contents: count, then the block lengths (or the one), then the
     * displacements unless they are addresses of the int form */
    size_t nv = 1 + (bls.p ? n : 1) + (idisps.p || large ? n : 0);
    ptrdiff_t *disps = malloc((n ? n : 1) * sizeof(*disps));
    int64_t *vals = malloc(nv * sizeof(*vals));
    int *ints = malloc(nv * sizeof(*ints));
    size_t *sbls = bls.p ? as_sizes(bls, count) : NULL;
    if (!disps || !vals || !ints || (bls.p && !sbls)) {
        err = rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        disps[i] = idisps.p ? (ptrdiff_t)at(idisps, i) * ext : adisps[i];
    size_t k = 0;
    vals[k++] = count;
    if (bls.p)
        for (size_t i = 0; i < n; i++)
            vals[k++] = at(bls, i);
    else
        vals[k++] = bl;
    for (size_t i = 0; (idisps.p || large) && i < n; i++)
        vals[k++] = idisps.p ? at(idisps, i) : adisps[i];
    for (size_t i = 0; i < k; i++)
        ints[i] = (int)vals[i];
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_struct(n, sbls, (size_t)bl, disps, NULL, old);
    if (large)
        err = publish_large(dt, combiner, 0, NULL, (int)k, vals, 1, &old, newtype, fn);
    else
        err = publish(dt, combiner, (int)k, ints, idisps.p ? 0 : (int)count,
                      idisps.p ? NULL : disps, 1, &old, newtype, fn);
    rd_api_unlock();
out:
    free(disps);
    free(vals);
    free(ints);
    free(sbls);
    return err;
}

/* The int arrays of the MPI-3 forms. */
static rd_api_array_t ia(const int *p)
{
    return (rd_api_array_t){ p, 0 };
}

RD_WEAK_ALIAS(MPI_Type_indexed)
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ia(array_of_blocklengths), 0, ia(array_of_displacements),
                               NULL, oldtype, newtype, MPI_COMBINER_INDEXED, 0,
                               "MPI_Type_indexed");
}

RD_WEAK_ALIAS(MPI_Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ia(array_of_blocklengths), 0, ia(NULL),
                               array_of_displacements, oldtype, newtype, MPI_COMBINER_HINDEXED, 0,
                               "MPI_Type_create_hindexed");
}

RD_WEAK_ALIAS(MPI_Type_hindexed)
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ia(array_of_blocklengths), 0, ia(NULL),
                               array_of_displacements, oldtype, newtype, MPI_COMBINER_HINDEXED, 0,
                               "MPI_Type_hindexed");
}

RD_WEAK_ALIAS(MPI_Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ia(NULL), blocklength, ia(array_of_displacements), NULL,
                               oldtype, newtype, MPI_COMBINER_INDEXED_BLOCK, 0,
                               "MPI_Type_create_indexed_block");
}

RD_WEAK_ALIAS(MPI_Type_create_hindexed_block)
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ia(NULL), blocklength, ia(NULL), array_of_displacements,
                               oldtype, newtype, MPI_COMBINER_HINDEXED_BLOCK, 0,
                               "MPI_Type_create_hindexed_block");
}

int rd_api_type_struct(MPI_Count count, rd_api_array_t bls, const MPI_Aint *disps,
                       const MPI_Datatype *types, MPI_Datatype *newtype, int large,
                       const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_count(count, "count", fn)) ||
        (err = check_blocklens(count, bls, NULL, fn)) ||
        (err = check_ptr(disps, count > 0, "array_of_displacements", fn)) ||
        (err = check_ptr(types, count > 0, "array_of_types", fn)) ||
        (err = check_ptr(newtype, 1, "newtype", fn)) || (err = check_int(count, "count", 0, fn)))
        return err;
    size_t n = (size_t)count;
    rd_datatype_t **olds = malloc((n ? n : 1) * sizeof(*olds));
    int *ints = malloc((n + 1) * sizeof(*ints));
    /* contents of the _c form: count, the block lengths, the displacements */
    int64_t *vals = malloc((2 * n + 1) * sizeof(*vals));
    size_t *sbls = as_sizes(bls, count);
    if (!olds || !ints || !vals || !sbls) {
        err = rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n && !err; i++) {
        if (!(olds[i] = rd_api_dt(types[i])))
            err = rd_api_error(NULL, MPI_ERR_TYPE, fn, "invalid type 0x%x at index %zu",
                               (unsigned)types[i], i);
        else
            err = check_fits(at(bls, i), elem_span(olds[i]), "a block", fn);
    }
    if (!err) {
        vals[0] = count;
        for (size_t i = 0; i < n; i++) {
            vals[1 + i] = at(bls, i);
            vals[n + 1 + i] = disps[i];
        }
        for (size_t i = 0; i <= n; i++)
            ints[i] = (int)vals[i];
        rd_api_lock();
        rd_datatype_t *dt = rd_api_build_struct_lbub(n, sbls, disps, types, olds);
        if (large)
            err = publish_large(dt, MPI_COMBINER_STRUCT, 0, NULL, (int)(2 * n + 1), vals,
                                (int)n, olds, newtype, fn);
        else
            err = publish(dt, MPI_COMBINER_STRUCT, (int)n + 1, ints, (int)n, disps, (int)n, olds,
                          newtype, fn);
        rd_api_unlock();
    }
out:
    free(olds);
    free(ints);
    free(vals);
    free(sbls);
    return err;
}

RD_WEAK_ALIAS(MPI_Type_create_struct)
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return rd_api_type_struct(count, ia(array_of_blocklengths), array_of_displacements,
                              array_of_types, newtype, 0, "MPI_Type_create_struct");
}

RD_WEAK_ALIAS(MPI_Type_struct)
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return rd_api_type_struct(count, ia(array_of_blocklengths), array_of_displacements,
                              array_of_types, newtype, 0, "MPI_Type_struct");
}

static int check_order(int order, const char *fn)
{
    if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_ARG, fn,
                        "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
}

int rd_api_type_subarray(int ndims, rd_api_array_t sizes, rd_api_array_t subsizes,
                         rd_api_array_t starts, int order, MPI_Datatype oldtype,
                         MPI_Datatype *newtype, int large, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if (ndims <= 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "ndims %d is not positive", ndims);
    if ((err = check_ptr(sizes.p, 1, "array_of_sizes", fn)) ||
        (err = check_ptr(subsizes.p, 1, "array_of_subsizes", fn)) ||
        (err = check_ptr(starts.p, 1, "array_of_starts", fn)) ||
        (err = check_order(order, fn)) || (err = check_old(oldtype, &old, fn)) ||
        (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    for (int d = 0; d < ndims; d++) {
        long long sz = at(sizes, d), sub = at(subsizes, d), st = at(starts, d);
        if (sz <= 0)
            return rd_api_error(NULL, MPI_ERR_ARG, fn, "size %lld of dimension %d is not positive",
                                sz, d);
        if (sub <= 0 || sub > sz)
            return rd_api_error(NULL, MPI_ERR_ARG, fn,
                                "subsize %lld of dimension %d is not in 1..%lld", sub, d, sz);
        if (st < 0 || st > sz - sub)
            return rd_api_error(NULL, MPI_ERR_ARG, fn,
                                "start %lld of dimension %d is not in 0..%lld (size %lld, "
                                "subsize %lld)", st, d, sz - sub, sz, sub);
        if ((err = check_int(sz, "size", d, fn)))
            return err;
    }
    /* contents: ndims, sizes, subsizes, starts, order; the _c form keeps
     * ndims and order as ints and the rest as large counts */
    int ni = 3 * ndims + 2;
    int *ints = malloc((size_t)ni * sizeof(*ints));
    int64_t *vals = malloc((size_t)ni * sizeof(*vals));
    if (!ints || !vals) {
        free(ints);
        free(vals);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    ints[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        vals[d] = at(sizes, d);
        vals[ndims + d] = at(subsizes, d);
        vals[2 * ndims + d] = at(starts, d);
    }
    for (int i = 0; i < 3 * ndims; i++)
        ints[1 + i] = (int)vals[i];
    ints[ni - 1] = order;
    int pair[2] = { ndims, order };
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_subarray(ndims, ints + 1, ints + 1 + ndims,
                                             ints + 1 + 2 * ndims, order == MPI_ORDER_FORTRAN,
                                             old);
    if (large)
        err = publish_large(dt, MPI_COMBINER_SUBARRAY, 2, pair, 3 * ndims, vals, 1, &old,
                            newtype, fn);
    else
        err = publish(dt, MPI_COMBINER_SUBARRAY, ni, ints, 0, NULL, 1, &old, newtype, fn);
    rd_api_unlock();
    free(ints);
    free(vals);
    return err;
}

RD_WEAK_ALIAS(MPI_Type_create_subarray)
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return rd_api_type_subarray(ndims, ia(array_of_sizes), ia(array_of_subsizes),
                                ia(array_of_starts), order, oldtype, newtype, 0,
                                "MPI_Type_create_subarray");
}

/* Checks darray's per-dimension arguments; distribs converted to core's enum
 * and default dargs to RD_DT_DARG_DEFAULT into dist / darg. */
static int check_darray(int size, int ndims, const int *gsizes, const int *distribs,
                        const int *dargs, const int *psizes, int *dist, int *darg, const char *fn)
{
    long long procs = 1;
    for (int d = 0; d < ndims; d++) {
        int g = gsizes[d], p = psizes[d], a = dargs[d];
        if (g <= 0)
            return rd_api_error(NULL, MPI_ERR_ARG, fn, "gsize %d of dimension %d is not positive",
                                g, d);
        if (p <= 0)
            return rd_api_error(NULL, MPI_ERR_ARG, fn, "psize %d of dimension %d is not positive",
                                p, d);
        if (a != MPI_DISTRIBUTE_DFLT_DARG && a <= 0)
            return rd_api_error(NULL, MPI_ERR_ARG, fn, "darg %d of dimension %d is not positive",
                                a, d);
        darg[d] = a == MPI_DISTRIBUTE_DFLT_DARG ? RD_DT_DARG_DEFAULT : a;
        switch (distribs[d]) {
        case MPI_DISTRIBUTE_BLOCK:
            dist[d] = RD_DT_DIST_BLOCK;
            if (a != MPI_DISTRIBUTE_DFLT_DARG && (long long)a * p < g)
                return rd_api_error(NULL, MPI_ERR_ARG, fn,
                                    "block darg %d times %d processes does not cover gsize %d "
                                    "in dimension %d", a, p, g, d);
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            dist[d] = RD_DT_DIST_CYCLIC;
            break;
        case MPI_DISTRIBUTE_NONE:
            dist[d] = RD_DT_DIST_NONE;
            if (p != 1)
                return rd_api_error(NULL, MPI_ERR_ARG, fn,
                                    "dimension %d is MPI_DISTRIBUTE_NONE but has %d processes",
                                    d, p);
            break;
        default:
            return rd_api_error(NULL, MPI_ERR_ARG, fn, "invalid distribution %d in dimension %d",
                                distribs[d], d);
        }
        procs *= p;
    }
    if (procs != size)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "the process grid has %lld processes, size is %d", procs, size);
    return MPI_SUCCESS;
}

int rd_api_type_darray(int size, int rank, int ndims, rd_api_array_t gsizes,
                       const int array_of_distribs[], const int array_of_dargs[],
                       const int array_of_psizes[], int order, MPI_Datatype oldtype,
                       MPI_Datatype *newtype, int large, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if (size <= 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "size %d is not positive", size);
    if (rank < 0 || rank >= size)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "rank %d is not in 0..%d", rank, size - 1);
    if (ndims <= 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "ndims %d is not positive", ndims);
    if ((err = check_ptr(gsizes.p, 1, "array_of_gsizes", fn)) ||
        (err = check_ptr(array_of_distribs, 1, "array_of_distribs", fn)) ||
        (err = check_ptr(array_of_dargs, 1, "array_of_dargs", fn)) ||
        (err = check_ptr(array_of_psizes, 1, "array_of_psizes", fn)) ||
        (err = check_order(order, fn)) || (err = check_old(oldtype, &old, fn)) ||
        (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    for (int d = 0; d < ndims; d++)
        if ((err = check_int(at(gsizes, d), "gsize", d, fn)))
            return err;
    /* contents: size, rank, ndims, gsizes, distribs, dargs, psizes, order;
     * the _c form has the gsizes as large counts (vals) and not in ints */
    int ni = 4 * ndims + 4;
    int *ints = malloc((size_t)(ni + 3 * ndims) * sizeof(*ints));
    int64_t *vals = malloc((size_t)ndims * sizeof(*vals));
    if (!ints || !vals) {
        free(ints);
        free(vals);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    int *dist = ints + ni, *darg = dist + ndims, *gs = darg + ndims;
    for (int d = 0; d < ndims; d++)
        gs[d] = (int)(vals[d] = at(gsizes, d));
    if ((err = check_darray(size, ndims, gs, array_of_distribs, array_of_dargs,
                            array_of_psizes, dist, darg, fn))) {
        free(ints);
        free(vals);
        return err;
    }
    int k = 0;
    ints[k++] = size;
    ints[k++] = rank;
    ints[k++] = ndims;
    size_t nb = (size_t)ndims * sizeof(int);
    if (!large) {
        memcpy(ints + k, gs, nb);
        k += ndims;
    }
    memcpy(ints + k, array_of_distribs, nb);
    memcpy(ints + k + ndims, array_of_dargs, nb);
    memcpy(ints + k + 2 * ndims, array_of_psizes, nb);
    k += 3 * ndims;
    ints[k++] = order;
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_darray(size, rank, ndims, gs, dist, darg,
                                           array_of_psizes, order == MPI_ORDER_FORTRAN, old);
    if (large)
        err = publish_large(dt, MPI_COMBINER_DARRAY, k, ints, ndims, vals, 1, &old, newtype,
                            fn);
    else
        err = publish(dt, MPI_COMBINER_DARRAY, k, ints, 0, NULL, 1, &old, newtype, fn);
    rd_api_unlock();
    free(ints);
    free(vals);
    return err;
}

RD_WEAK_ALIAS(MPI_Type_create_darray)
int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    return rd_api_type_darray(size, rank, ndims, ia(array_of_gsizes), array_of_distribs,
                              array_of_dargs, array_of_psizes, order, oldtype, newtype, 0,
                              "MPI_Type_create_darray");
}

int rd_api_type_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                        MPI_Datatype *newtype, int large, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_old(oldtype, &old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    ptrdiff_t aints[2] = { lb, extent };
    int64_t counts[2] = { lb, extent };
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_resized(old, lb, extent);
    if (large)
        err = publish_large(dt, MPI_COMBINER_RESIZED, 0, NULL, 2, counts, 1, &old, newtype, fn);
    else
        err = publish(dt, MPI_COMBINER_RESIZED, 0, NULL, 2, aints, 1, &old, newtype, fn);
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    return rd_api_type_resized(oldtype, lb, extent, newtype, 0, "MPI_Type_create_resized");
}

RD_WEAK_ALIAS(MPI_Type_dup)
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_dup";
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_old(oldtype, &old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_dup(old);
    if (dt)
        dt->committed = old->committed; /* a duplicate keeps the committed state */
    err = publish(dt, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old, newtype, fn);
    rd_api_unlock();
    if (err)
        return err;
    /* The attributes follow through their copy callbacks (MPI-3.1 6.7.4);
     * if one fails there is no new type. */
    if ((err = rd_api_type_attr_copy(old, dt, fn))) {
        rd_api_lock();
        rd_dt_release(dt);
        rd_api_unlock();
        *newtype = MPI_DATATYPE_NULL;
    }
    return err;
}

RD_WEAK_ALIAS(MPI_Type_commit)
int PMPI_Type_commit(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_commit";
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_inout(datatype, &dt, fn)))
        return err;
    dt->committed = 1;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_free)
int PMPI_Type_free(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_free";
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_inout(datatype, &dt, fn)))
        return err;
    if (dt->builtin)
        return rd_api_error(NULL, MPI_ERR_TYPE, fn, "%s is predefined and cannot be freed", dt->name);
    if (rd_api_dt_is_f90(dt))
        return rd_api_error(NULL, MPI_ERR_TYPE, fn,
                            "a type returned by MPI_Type_create_f90_* is predefined and cannot "
                            "be freed");
    /* Its attributes go now, whoever still holds the type (MPI-3.1 6.7.4);
     * a failing delete callback leaves the type as it is. */
    if ((err = rd_api_type_attr_delete_all(dt, fn)))
        return err;
    rd_api_lock();
    /* Operations still using it, and types built from it, hold their own
     * references (MPI-3.1 4.1.9): it goes when the last one does. */
    rd_dt_release(dt);
    rd_api_unlock();
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
