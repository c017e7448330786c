/*
 * Derived datatypes (MPI-3.1 chapter 4): the constructors, MPI_Type_commit /
 * free / dup, MPI_Type_get_envelope / get_contents, and MPI_Pack / Unpack /
 * Pack_size. Each constructor checks its arguments, builds the layout with
 * core/dt_build.h and records its arguments for get_contents (which also
 * keeps the old types alive while the new one shares their layout).
 * The MPI-1 names MPICH still exports (MPI_Type_hvector, MPI_Type_hindexed,
 * MPI_Type_struct) are the same constructors.
 */
#include "api/api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static int check_count(int count, const char *what, const char *fn)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative %s %d", what, count);
}

/* Checks n block lengths (each >= 0; the array present when n > 0). */
static int check_blocklens(int n, const int *bls, const char *fn)
{
    if (n > 0 && !bls)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "array_of_blocklengths is NULL");
    for (int i = 0; i < n; i++)
        if (bls[i] < 0)
            return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative blocklength %d at index %d",
                                bls[i], i);
    return MPI_SUCCESS;
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

/* Builds and publishes hvector(count, bl, stride bytes) with the given contents. */
static int make_hvector(int count, int bl, ptrdiff_t stride, rd_datatype_t *old, int combiner,
                        int ni, const int *ints, int na, const ptrdiff_t *aints,
                        MPI_Datatype *newtype, const char *fn)
{
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_hvector((size_t)count, (size_t)bl, stride, old);
    int err = publish(dt, combiner, ni, ints, na, aints, 1, &old, newtype, fn);
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_contiguous";
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_count(count, "count", fn)) || (err = check_old(oldtype, &old, fn)) ||
        (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    return make_hvector(1, count, 0, old, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, newtype,
                        fn);
}

RD_WEAK_ALIAS(MPI_Type_vector)
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_vector";
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_count(count, "count", fn)) ||
        (err = check_count(blocklength, "blocklength", fn)) ||
        (err = check_old(oldtype, &old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    int ints[3] = { count, blocklength, stride };
    return make_hvector(count, blocklength, (ptrdiff_t)stride * rd_dt_extent(old), old,
                        MPI_COMBINER_VECTOR, 3, ints, 0, NULL, newtype, fn);
}

static int hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                   MPI_Datatype *newtype, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_count(count, "count", fn)) ||
        (err = check_count(blocklength, "blocklength", fn)) ||
        (err = check_old(oldtype, &old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    int ints[2] = { count, blocklength };
    ptrdiff_t aint = stride;
    return make_hvector(count, blocklength, stride, old, MPI_COMBINER_HVECTOR, 2, ints, 1, &aint,
                        newtype, fn);
}

RD_WEAK_ALIAS(MPI_Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return hvector(count, blocklength, stride, oldtype, newtype, "MPI_Type_create_hvector");
}

RD_WEAK_ALIAS(MPI_Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return hvector(count, blocklength, stride, oldtype, newtype, "MPI_Type_hvector");
}

/* The indexed family: count blocks of old at displacements given either in
 * elements of old (idisps) or in bytes (adisps); block lengths per block
 * (bls) or one for all (bl). */
static int indexed(int count, const int *bls, int bl, const int *idisps, const MPI_Aint *adisps,
                   MPI_Datatype oldtype, MPI_Datatype *newtype, int combiner, const char *fn)
{
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_count(count, "count", fn)) || (err = check_count(bl, "blocklength", fn)) ||
        (bls && (err = check_blocklens(count, bls, fn))) ||
        (err = check_ptr(idisps ? (const void *)idisps : (const void *)adisps, count > 0,
                         "array_of_displacements", fn)) ||
        (err = check_old(oldtype, &old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    if (!bls && count > 0 && combiner != MPI_COMBINER_INDEXED_BLOCK && combiner != MPI_COMBINER_HINDEXED_BLOCK)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "array_of_blocklengths is NULL");
    size_t n = (size_t)count;
    ptrdiff_t *disps = malloc((n ? n : 1) * sizeof(*disps));
    /* contents: count, then the block lengths (or the one), then int displacements */
    int ni = 1 + (bls ? count : 1) + (idisps ? count : 0);
    int *ints = malloc((size_t)ni * sizeof(*ints));
    if (!disps || !ints) {
        free(disps);
        free(ints);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    ptrdiff_t ext = rd_dt_extent(old);
    for (size_t i = 0; i < n; i++)
        disps[i] = idisps ? (ptrdiff_t)idisps[i] * ext : adisps[i];
    int k = 0;
    ints[k++] = count;
    if (bls)
        for (int i = 0; i < count; i++)
            ints[k++] = bls[i];
    else
        ints[k++] = bl;
    if (idisps)
        for (int i = 0; i < count; i++)
            ints[k++] = idisps[i];
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_struct(n, bls, (size_t)bl, disps, NULL, old);
    err = publish(dt, combiner, ni, ints, idisps ? 0 : count, idisps ? NULL : disps, 1, &old,
                  newtype, fn);
    rd_api_unlock();
    free(disps);
    free(ints);
    return err;
}

RD_WEAK_ALIAS(MPI_Type_indexed)
int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return indexed(count, array_of_blocklengths, 0, array_of_displacements, NULL, oldtype,
                   newtype, MPI_COMBINER_INDEXED, "MPI_Type_indexed");
}

RD_WEAK_ALIAS(MPI_Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return indexed(count, array_of_blocklengths, 0, NULL, array_of_displacements, oldtype,
                   newtype, MPI_COMBINER_HINDEXED, "MPI_Type_create_hindexed");
}

RD_WEAK_ALIAS(MPI_Type_hindexed)
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed(count, array_of_blocklengths, 0, NULL, array_of_displacements, oldtype,
                   newtype, MPI_COMBINER_HINDEXED, "MPI_Type_hindexed");
}

RD_WEAK_ALIAS(MPI_Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed(count, NULL, blocklength, array_of_displacements, NULL, oldtype, newtype,
                   MPI_COMBINER_INDEXED_BLOCK, "MPI_Type_create_indexed_block");
}

RD_WEAK_ALIAS(MPI_Type_create_hindexed_block)
int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed(count, NULL, blocklength, NULL, array_of_displacements, oldtype, newtype,
                   MPI_COMBINER_HINDEXED_BLOCK, "MPI_Type_create_hindexed_block");
}

/* rd_dt_build_struct, where MPI_LB and MPI_UB entries (MPI-1, removed in
 * MPI-3.0; MPICH keeps them) add no data but set the lower bound (the least
 * MPI_LB displacement) and the upper bound (the greatest MPI_UB one). Lock
 * held; NULL on ENOMEM. */
static rd_datatype_t *build_struct_lbub(size_t n, const int *bls, const MPI_Aint *disps,
                                        const MPI_Datatype *types, rd_datatype_t **olds)
{
    int has_lb = 0, has_ub = 0;
    ptrdiff_t lb = 0, ub = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (types[i] == MPI_LB) {
            lb = !has_lb || disps[i] < lb ? disps[i] : lb;
            has_lb = 1;
        } else if (types[i] == MPI_UB) {
            ub = !has_ub || disps[i] > ub ? disps[i] : ub;
            has_ub = 1;
        }
    }
    if (!has_lb && !has_ub)
        return rd_dt_build_struct(n, bls, 0, disps, olds, NULL);
    int *kbls = malloc((n ? n : 1) * sizeof(*kbls));
    ptrdiff_t *kdisps = malloc((n ? n : 1) * sizeof(*kdisps));
    rd_datatype_t **kolds = malloc((n ? n : 1) * sizeof(*kolds));
    rd_datatype_t *data = NULL, *dt = NULL;
    if (kbls && kdisps && kolds) {
        for (size_t i = 0; i < n; i++)
            if (types[i] != MPI_LB && types[i] != MPI_UB) {
                kbls[k] = bls[i];
                kdisps[k] = disps[i];
                kolds[k++] = olds[i];
            }
        data = rd_dt_build_struct(k, kbls, 0, kdisps, kolds, NULL);
    }
    if (data) {
        if (has_lb)
            data->lb = lb;
        if (has_ub)
            data->ub = ub;
        rd_dt_set_root(data, data->root); /* contiguity follows the new extent */
        dt = data;
    }
    free(kbls);
    free(kdisps);
    free(kolds);
    return dt;
}

static int type_struct(int count, const int *bls, const MPI_Aint *disps, const MPI_Datatype *types,
                       MPI_Datatype *newtype, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_count(count, "count", fn)) || (err = check_blocklens(count, bls, fn)) ||
        (err = check_ptr(disps, count > 0, "array_of_displacements", fn)) ||
        (err = check_ptr(types, count > 0, "array_of_types", fn)) ||
        (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    size_t n = (size_t)count;
    rd_datatype_t **olds = malloc((n ? n : 1) * sizeof(*olds));
    int *ints = malloc((n + 1) * sizeof(*ints));
    if (!olds || !ints) {
        free(olds);
        free(ints);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    for (int i = 0; i < count && !err; i++)
        if (!(olds[i] = rd_api_dt(types[i])))
            err = rd_api_error(NULL, MPI_ERR_TYPE, fn, "invalid type 0x%x at index %d",
                               (unsigned)types[i], i);
    if (!err) {
        ints[0] = count;
        memcpy(ints + 1, bls, n * sizeof(*ints));
        rd_api_lock();
        rd_datatype_t *dt = build_struct_lbub(n, bls, disps, types, olds);
        err = publish(dt, MPI_COMBINER_STRUCT, count + 1, ints, count, disps, count, olds,
                      newtype, fn);
        rd_api_unlock();
    }
    free(olds);
    free(ints);
    return err;
}

RD_WEAK_ALIAS(MPI_Type_create_struct)
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return type_struct(count, array_of_blocklengths, array_of_displacements, array_of_types,
                       newtype, "MPI_Type_create_struct");
}

RD_WEAK_ALIAS(MPI_Type_struct)
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return type_struct(count, array_of_blocklengths, array_of_displacements, array_of_types,
                       newtype, "MPI_Type_struct");
}

static int check_order(int order, const char *fn)
{
    if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_ARG, fn,
                        "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
}

RD_WEAK_ALIAS(MPI_Type_create_subarray)
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_subarray";
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if (ndims <= 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "ndims %d is not positive", ndims);
    if ((err = check_ptr(array_of_sizes, 1, "array_of_sizes", fn)) ||
        (err = check_ptr(array_of_subsizes, 1, "array_of_subsizes", fn)) ||
        (err = check_ptr(array_of_starts, 1, "array_of_starts", fn)) ||
        (err = check_order(order, fn)) || (err = check_old(oldtype, &old, fn)) ||
        (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    for (int d = 0; d < ndims; d++) {
        int sz = array_of_sizes[d], sub = array_of_subsizes[d], st = array_of_starts[d];
        if (sz <= 0)
            return rd_api_error(NULL, MPI_ERR_ARG, fn, "size %d of dimension %d is not positive",
                                sz, d);
        if (sub <= 0 || sub > sz)
            return rd_api_error(NULL, MPI_ERR_ARG, fn,
                                "subsize %d of dimension %d is not in 1..%d", sub, d, sz);
        if (st < 0 || st > sz - sub)
            return rd_api_error(NULL, MPI_ERR_ARG, fn,
                                "start %d of dimension %d is not in 0..%d (size %d, subsize %d)",
                                st, d, sz - sub, sz, sub);
    }
    int ni = 3 * ndims + 2;
    int *ints = malloc((size_t)ni * sizeof(*ints));
    if (!ints)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    ints[0] = ndims;
    memcpy(ints + 1, array_of_sizes, (size_t)ndims * sizeof(int));
    memcpy(ints + 1 + ndims, array_of_subsizes, (size_t)ndims * sizeof(int));
    memcpy(ints + 1 + 2 * ndims, array_of_starts, (size_t)ndims * sizeof(int));
    ints[ni - 1] = order;
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_subarray(ndims, array_of_sizes, array_of_subsizes,
                                             array_of_starts, order == MPI_ORDER_FORTRAN, old);
    err = publish(dt, MPI_COMBINER_SUBARRAY, ni, ints, 0, NULL, 1, &old, newtype, fn);
    rd_api_unlock();
    free(ints);
    return err;
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

RD_WEAK_ALIAS(MPI_Type_create_darray)
int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_darray";
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if (size <= 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "size %d is not positive", size);
    if (rank < 0 || rank >= size)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "rank %d is not in 0..%d", rank, size - 1);
    if (ndims <= 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "ndims %d is not positive", ndims);
    if ((err = check_ptr(array_of_gsizes, 1, "array_of_gsizes", fn)) ||
        (err = check_ptr(array_of_distribs, 1, "array_of_distribs", fn)) ||
        (err = check_ptr(array_of_dargs, 1, "array_of_dargs", fn)) ||
        (err = check_ptr(array_of_psizes, 1, "array_of_psizes", fn)) ||
        (err = check_order(order, fn)) || (err = check_old(oldtype, &old, fn)) ||
        (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    int ni = 4 * ndims + 4;
    int *ints = malloc((size_t)(ni + 2 * ndims) * sizeof(*ints));
    if (!ints)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    int *dist = ints + ni, *darg = dist + ndims;
    if ((err = check_darray(size, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                            array_of_psizes, dist, darg, fn))) {
        free(ints);
        return err;
    }
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    size_t nb = (size_t)ndims * sizeof(int);
    memcpy(ints + 3, array_of_gsizes, nb);
    memcpy(ints + 3 + ndims, array_of_distribs, nb);
    memcpy(ints + 3 + 2 * ndims, array_of_dargs, nb);
    memcpy(ints + 3 + 3 * ndims, array_of_psizes, nb);
    ints[ni - 1] = order;
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_darray(size, rank, ndims, array_of_gsizes, dist, darg,
                                           array_of_psizes, order == MPI_ORDER_FORTRAN, old);
    err = publish(dt, MPI_COMBINER_DARRAY, ni, ints, 0, NULL, 1, &old, newtype, fn);
    rd_api_unlock();
    free(ints);
    return err;
}

RD_WEAK_ALIAS(MPI_Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_create_resized";
    rd_datatype_t *old;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_old(oldtype, &old, fn)) || (err = check_ptr(newtype, 1, "newtype", fn)))
        return err;
    ptrdiff_t aints[2] = { lb, extent };
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_build_resized(old, lb, extent);
    err = publish(dt, MPI_COMBINER_RESIZED, 0, NULL, 2, aints, 1, &old, newtype, fn);
    rd_api_unlock();
    return err;
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
    rd_api_lock();
    /* Operations still using it, and types built from it, hold their own
     * references (MPI-3.1 4.1.9): it goes when the last one does. */
    rd_dt_release(dt);
    rd_api_unlock();
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_get_envelope)
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    static const char fn[] = "MPI_Type_get_envelope";
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_old(datatype, &dt, fn)))
        return err;
    if (!num_integers || !num_addresses || !num_datatypes || !combiner)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "an output pointer is NULL");
    *num_integers = dt->ni;
    *num_addresses = dt->na;
    *num_datatypes = dt->nt;
    *combiner = dt->builtin ? MPI_COMBINER_NAMED : dt->combiner;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_get_contents)
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    static const char fn[] = "MPI_Type_get_contents";
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_old(datatype, &dt, fn)))
        return err;
    if (dt->builtin)
        return rd_api_error(NULL, MPI_ERR_TYPE, fn,
                            "%s is predefined (MPI_COMBINER_NAMED): it has no contents", dt->name);
    if (max_integers < dt->ni || max_addresses < dt->na || max_datatypes < dt->nt)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "the arrays hold %d/%d/%d entries, the type needs %d/%d/%d",
                            max_integers, max_addresses, max_datatypes, dt->ni, dt->na, dt->nt);
    if ((dt->ni && !array_of_integers) || (dt->na && !array_of_addresses) ||
        (dt->nt && !array_of_datatypes))
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "an output array is NULL");
    if (dt->ni)
        memcpy(array_of_integers, dt->ints, (size_t)dt->ni * sizeof(int));
    for (int i = 0; i < dt->na; i++)
        array_of_addresses[i] = dt->aints[i];
    rd_api_lock();
    /* Derived types come back as new references the caller frees (MPI-3.1 4.1.13). */
    for (int i = 0; i < dt->nt; i++) {
        rd_dt_ref(dt->types[i]);
        array_of_datatypes[i] = dt->types[i]->handle;
    }
    rd_api_unlock();
    return MPI_SUCCESS;
}

static int check_pack(int count, MPI_Datatype datatype, MPI_Comm comm, rd_datatype_t **dt,
                      rd_comm_t **c, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)) || (err = rd_api_check_count(*c, count, fn)) ||
        (err = rd_api_check_dt(*c, datatype, dt, fn)))
        return err;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    static const char fn[] = "MPI_Pack_size";
    rd_datatype_t *dt;
    rd_comm_t *c;
    int err = check_pack(incount, datatype, comm, &dt, &c, fn);
    if (err)
        return err;
    if (!size)
        return rd_api_error(c, MPI_ERR_ARG, fn, "size pointer is NULL");
    long long n = (long long)incount * (long long)dt->size;
    if (n > INT32_MAX)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "packed size %lld does not fit in an int", n);
    *size = (int)n;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    static const char fn[] = "MPI_Pack";
    rd_datatype_t *dt;
    rd_comm_t *c;
    int err = check_pack(incount, datatype, comm, &dt, &c, fn);
    if (err || (err = rd_api_check_buf(c, inbuf, incount, dt, fn)))
        return err;
    if (!position || *position < 0 || (!outbuf && outsize > 0))
        return rd_api_error(c, MPI_ERR_ARG, fn, "invalid position or output buffer");
    size_t bytes = (size_t)incount * dt->size;
    if ((size_t)*position + bytes > (size_t)(outsize < 0 ? 0 : outsize))
        return rd_api_error(c, MPI_ERR_TRUNCATE, fn,
                            "%zu packed bytes do not fit at position %d of a %d-byte buffer",
                            bytes, *position, outsize);
    rd_dt_pack(inbuf, (size_t)incount, dt, 0, (char *)outbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Unpack";
    rd_datatype_t *dt;
    rd_comm_t *c;
    int err = check_pack(outcount, datatype, comm, &dt, &c, fn);
    if (err || (err = rd_api_check_buf(c, outbuf, outcount, dt, fn)))
        return err;
    if (!position || *position < 0 || (!inbuf && insize > 0))
        return rd_api_error(c, MPI_ERR_ARG, fn, "invalid position or input buffer");
    size_t bytes = (size_t)outcount * dt->size;
    if ((size_t)*position + bytes > (size_t)(insize < 0 ? 0 : insize))
        return rd_api_error(c, MPI_ERR_TRUNCATE, fn,
                            "unpacking %zu bytes at position %d overruns the %d-byte input",
                            bytes, *position, insize);
    rd_dt_unpack(outbuf, (size_t)outcount, dt, 0, (const char *)inbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}
