/*
 * MPI datatype constructors (see dt_build.h). Each maps its arguments onto a
 * handful of layout nodes (a vector is two, a subarray or darray a few per
 * dimension) and computes the MPI bounds from the old types' bounds, never
 * from the expanded typemap.
 */
#include "core/dt_build.h"

#include <stdlib.h>

/* Bounds of bl copies of old placed at disp: [*lo, *hi). */
static void block_bounds(const rd_datatype_t *old, size_t bl, ptrdiff_t disp, ptrdiff_t *lo,
                         ptrdiff_t *hi)
{
    ptrdiff_t span = (ptrdiff_t)(bl - 1) * rd_dt_extent(old);
    *lo = disp + old->lb + (span < 0 ? span : 0);
    *hi = disp + old->ub + (span > 0 ? span : 0);
}

/* Merges [lo, hi) into the running bounds of dt (first: nothing merged yet). */
static void merge_bounds(rd_datatype_t *dt, int *first, ptrdiff_t lo, ptrdiff_t hi)
{
    if (*first || lo < dt->lb)
        dt->lb = lo;
    if (*first || hi > dt->ub)
        dt->ub = hi;
    *first = 0;
}

/* Sets the root, or fails (releasing dt) when a node could not be allocated. */
static rd_datatype_t *finish(rd_datatype_t *dt, const rd_dt_node_t *root)
{
    if (!root) {
        rd_dt_release(dt);
        return NULL;
    }
    rd_dt_set_root(dt, root);
    return dt;
}

rd_datatype_t *rd_dt_build_hvector(size_t count, size_t bl, ptrdiff_t stride, rd_datatype_t *old)
{
    rd_datatype_t *dt = rd_dt_new();
    if (!dt)
        return NULL;
    dt->align = old->align;
    if (count && bl) {
        int first = 1;
        ptrdiff_t lo, hi;
        block_bounds(old, bl, 0, &lo, &hi);
        merge_bounds(dt, &first, lo, hi);
        block_bounds(old, bl, (ptrdiff_t)(count - 1) * stride, &lo, &hi);
        merge_bounds(dt, &first, lo, hi);
    }
    const rd_dt_node_t *blk = rd_dt_repeat(dt, old->root, bl, 0, rd_dt_extent(old));
    return finish(dt, rd_dt_repeat(dt, blk, count, 0, stride));
}

rd_datatype_t *rd_dt_build_struct(size_t count, const size_t *bls, size_t bl, const ptrdiff_t *disps,
                                  rd_datatype_t *const *olds, rd_datatype_t *old)
{
    rd_datatype_t *dt = rd_dt_new();
    const rd_dt_node_t **kids = malloc((count ? count : 1) * sizeof(*kids));
    if (!dt || !kids) {
        free(kids);
        rd_dt_release(dt);
        return NULL;
    }
    int first = 1, mixed = 0;
    size_t align = 1;
    for (size_t i = 0; i < count; i++) {
        rd_datatype_t *t = olds ? olds[i] : old;
        size_t n = bls ? bls[i] : bl;
        if (t->align > align)
            align = t->align;
        if (t != (olds ? olds[0] : old))
            mixed = 1;
        kids[i] = rd_dt_repeat(dt, t->root, n, 0, rd_dt_extent(t));
        if (n) {
            ptrdiff_t lo, hi;
            block_bounds(t, n, disps[i], &lo, &hi);
            merge_bounds(dt, &first, lo, hi);
        }
    }
    dt->align = align;
    /* Pad like a C struct, so that an array of them keeps every member aligned.
     * MPICH does this only when the old types differ; so do we. */
    ptrdiff_t ext = rd_dt_extent(dt), a = (ptrdiff_t)align;
    if (mixed && a > 1 && ((ext % a) + a) % a)
        dt->ub += a - ((ext % a) + a) % a;
    const rd_dt_node_t *root = rd_dt_list(dt, (int)count, kids, disps);
    free(kids);
    return finish(dt, root);
}

rd_datatype_t *rd_dt_build_resized(rd_datatype_t *old, ptrdiff_t lb, ptrdiff_t extent)
{
    rd_datatype_t *dt = rd_dt_new();
    if (!dt)
        return NULL;
    dt->align = old->align;
    dt->lb = lb;
    dt->ub = lb + extent;
    return finish(dt, old->root);
}

rd_datatype_t *rd_dt_build_dup(rd_datatype_t *old)
{
    rd_datatype_t *dt = rd_dt_new();
    if (!dt)
        return NULL;
    dt->align = old->align;
    dt->basic = old->basic;
    dt->lb = old->lb;
    dt->ub = old->ub;
    return finish(dt, old->root);
}

/* Dimension i of ndims from the fastest-varying one: the last in C order,
 * the first in Fortran order. */
static inline int dim_of(int i, int ndims, int fortran)
{
    return fortran ? i : ndims - 1 - i;
}

rd_datatype_t *rd_dt_build_subarray(int ndims, const int *sizes, const int *subsizes,
                                    const int *starts, int fortran, rd_datatype_t *old)
{
    rd_datatype_t *dt = rd_dt_new();
    if (!dt)
        return NULL;
    dt->align = old->align;
    const rd_dt_node_t *nd = old->root;
    ptrdiff_t stride = rd_dt_extent(old), disp = 0;
    for (int i = 0; i < ndims; i++) {
        int d = dim_of(i, ndims, fortran);
        nd = rd_dt_repeat(dt, nd, (size_t)subsizes[d], 0, stride);
        disp += (ptrdiff_t)starts[d] * stride;
        stride *= sizes[d];
    }
    dt->lb = 0;
    dt->ub = stride;
    return finish(dt, rd_dt_repeat(dt, nd, 1, disp, 0));
}

/* The local indices of one darray dimension as nodes over child (one slab of
 * the faster dimensions), st bytes apart per index. */
static const rd_dt_node_t *darray_dim(rd_datatype_t *dt, const rd_dt_node_t *child, ptrdiff_t st,
                                      int g, int dist, int darg, int p, int coord)
{
    if (!child)
        return NULL;
    if (dist == RD_DT_DIST_NONE)
        return rd_dt_repeat(dt, child, (size_t)g, 0, st);
    if (dist == RD_DT_DIST_BLOCK) {
        long long b = darg == RD_DT_DARG_DEFAULT ? ((long long)g + p - 1) / p : darg;
        long long s = coord * b, n = g - s < b ? g - s : b;
        return rd_dt_repeat(dt, child, n > 0 ? (size_t)n : 0, (ptrdiff_t)s * st, st);
    }
    /* CYCLIC(k): blocks of k at coord*k, coord*k + p*k, ...; the last may be short */
    long long k = darg == RD_DT_DARG_DEFAULT ? 1 : darg;
    long long first = coord * k, step = (long long)p * k;
    if (first >= g)
        return rd_dt_repeat(dt, child, 0, 0, st);
    long long nb = (g - first + step - 1) / step;
    long long last = first + (nb - 1) * step, lastlen = g - last < k ? g - last : k;
    const rd_dt_node_t *blk = rd_dt_repeat(dt, child, (size_t)k, 0, st);
    if (lastlen == k)
        return rd_dt_repeat(dt, blk, (size_t)nb, (ptrdiff_t)first * st, (ptrdiff_t)step * st);
    const rd_dt_node_t *kids[2] = {
        rd_dt_repeat(dt, blk, (size_t)(nb - 1), (ptrdiff_t)first * st, (ptrdiff_t)step * st),
        rd_dt_repeat(dt, child, (size_t)lastlen, (ptrdiff_t)last * st, st),
    };
    const ptrdiff_t offs[2] = { 0, 0 };
    return rd_dt_list(dt, 2, kids, offs);
}

rd_datatype_t *rd_dt_build_darray(int size, int rank, int ndims, const int *gsizes,
                                  const int *distribs, const int *dargs, const int *psizes,
                                  int fortran, rd_datatype_t *old)
{
    (void)size;
    rd_datatype_t *dt = rd_dt_new();
    if (!dt)
        return NULL;
    dt->align = old->align;
    const rd_dt_node_t *nd = old->root;
    ptrdiff_t stride = rd_dt_extent(old);
    for (int i = 0; i < ndims; i++) {
        int d = dim_of(i, ndims, fortran);
        /* processes are numbered row-major whatever the array order */
        int below = 1;
        for (int j = d + 1; j < ndims; j++)
            below *= psizes[j];
        int coord = (rank / below) % psizes[d];
        nd = darray_dim(dt, nd, stride, gsizes[d], distribs[d], dargs[d], psizes[d], coord);
        stride *= gsizes[d];
    }
    dt->lb = 0;
    dt->ub = stride;
    return finish(dt, nd);
}
