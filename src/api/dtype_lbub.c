/*
 * MPI_LB and MPI_UB in a struct type (MPI-1, removed in MPI-3.0; MPICH keeps
 * them, and programs and MPICH's tests still use them): they add no data but
 * set the struct's bounds. Kept apart from the constructors of dtype.c.
 */
#include "api/api.h"

#include <stdlib.h>

#include "api/dtype_lbub.h"
#include "core/dt_build.h"

/* rd_dt_build_struct, where MPI_LB and MPI_UB entries (MPI-1, removed in
 * MPI-3.0; MPICH keeps them) add no data but set the lower bound (the least
 * MPI_LB displacement) and the upper bound (the greatest MPI_UB one). Lock
 * held; NULL on ENOMEM. */
rd_datatype_t *rd_api_build_struct_lbub(size_t n, const size_t *bls, const MPI_Aint *disps,
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
    size_t *kbls = malloc((n ? n : 1) * sizeof(*kbls));
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

