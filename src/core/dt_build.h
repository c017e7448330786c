/*
 * The MPI datatype constructors (MPI-3.1 chapter 4) on top of the node
 * representation of core/datatype.h: each returns a new uncommitted type
 * with its layout and bounds (lb, ub, true bounds) as MPI defines them, or
 * NULL when out of memory. Arguments are already checked by the API layer
 * (counts and block lengths >= 0, valid old types). The caller records the
 * construction with rd_dt_set_contents, which also keeps the old types
 * (whose nodes the new layout shares) alive.
 */
#ifndef RD_CORE_DT_BUILD_H
#define RD_CORE_DT_BUILD_H

#include "core/datatype.h"

/* count blocks of bl elements of old, block i at byte i*stride. */
rd_datatype_t *rd_dt_build_hvector(size_t count, size_t bl, ptrdiff_t stride, rd_datatype_t *old);

/* count blocks, block i of bls[i] (bls NULL: bl) elements of olds[i] (olds NULL:
 * old) at byte disps[i]. With olds of more than one type, the extent is
 * padded to the largest alignment of the old types (MPI_Type_create_struct). */
rd_datatype_t *rd_dt_build_struct(size_t count, const size_t *bls, size_t bl, const ptrdiff_t *disps,
                                  rd_datatype_t *const *olds, rd_datatype_t *old);

/* old with bounds lb and lb + extent. */
rd_datatype_t *rd_dt_build_resized(rd_datatype_t *old, ptrdiff_t lb, ptrdiff_t extent);

/* Same layout and bounds as old (MPI_Type_dup). */
rd_datatype_t *rd_dt_build_dup(rd_datatype_t *old);

/* The subsizes block at starts of an array of sizes, in C (row-major) or
 * Fortran (column-major) order; extent = the whole array. */
rd_datatype_t *rd_dt_build_subarray(int ndims, const int *sizes, const int *subsizes,
                                    const int *starts, int fortran, rd_datatype_t *old);

enum rd_dt_dist { RD_DT_DIST_BLOCK, RD_DT_DIST_CYCLIC, RD_DT_DIST_NONE };
#define RD_DT_DARG_DEFAULT (-1)

/* Process rank's part of an array of gsizes distributed over a grid of psizes
 * processes (row-major process numbering), per dimension BLOCK, CYCLIC(darg)
 * or NONE; extent = the whole array. The caller checked that the grid has
 * size processes, that NONE dimensions have one process and that darg *
 * psize covers gsize for BLOCK. */
rd_datatype_t *rd_dt_build_darray(int size, int rank, int ndims, const int *gsizes,
                                  const int *distribs, const int *dargs, const int *psizes,
                                  int fortran, rd_datatype_t *old);

#endif
