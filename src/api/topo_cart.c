/*
 * Cartesian topologies (MPI-3.1 7.5.1 - 7.5.5, 7.5.7): MPI_Dims_create,
 * MPI_Cart_create and the queries, shifts, sub-grids and maps on them. The
 * block (topo.h) holds dims[ndims] and periods[ndims]; ranks are laid out
 * in row-major order, the last dimension varying fastest.
 */
#include "api/topo.h"

#include <stdlib.h>
#include <string.h>

#include "api/comm.h"

/* ---- MPI_Dims_create ----
 * The free dimensions get the factorization of nnodes / (product of the
 * fixed ones) that is most balanced: smallest difference between the largest
 * and smallest factor, then largest smallest factor, then smallest sum (the
 * order MPICH's choices follow too), in non-increasing order. A search over
 * non-increasing factorizations drawn from the divisors of the number: the
 * largest factor rises from the k-th root, the others fall from it, and both
 * stop once the difference cannot beat the best one found, so large node
 * counts take a few thousand steps rather than one per candidate factor. */

typedef struct dims_search {
    int k;                     /* free dimensions */
    int *cur, *best;
    const int *divs;           /* the divisors of the number to split, ascending */
    int ndivs;
    int found;
    long long bdiff, bsum, bmin;
} dims_search_t;

/* d^e >= m, without overflow. */
static int pow_at_least(long long d, int e, long long m)
{
    long long p = 1;
    for (int i = 0; i < e; i++) {
        p *= d;
        if (p >= m)
            return 1;
    }
    return p >= m;
}

/* The largest x with x^e <= m (e >= 1, m >= 1). */
static long long root_floor(long long m, int e)
{
    long long lo = 1, hi = m;
    while (lo < hi) {
        long long mid = lo + (hi - lo + 1) / 2;
        if (pow_at_least(mid, e, m + 1))
            hi = mid - 1;
        else
            lo = mid;
    }
    return lo;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The divisors of m in ascending order, in a new array (*n of them); NULL
 * when out of memory. No number below 2^31 has more than 1600. */
static int *divisors(int m, int *n)
{
    int *d = malloc(1600 * sizeof(int));
    if (!d)
        return NULL;
    d[0] = 1;
    *n = 1;
    int rest = m;
    for (int p = 2; rest > 1; p++) {
        if ((long long)p * p > rest)
            p = rest; /* what is left is prime */
        if (rest % p)
            continue;
        int have = *n;
        long long pk = 1;
        while (rest % p == 0) {
            rest /= p;
            pk *= p;
            for (int i = 0; i < have; i++)
                d[(*n)++] = (int)(d[i] * pk);
        }
    }
    qsort(d, (size_t)*n, sizeof(int), cmp_int);
    return d;
}

static void dims_search(dims_search_t *s, int m, int i, int maxv, long long sum)
{
    if (i == s->k - 1) {
        if (m > maxv)
            return;
        s->cur[i] = m;
        long long diff = s->cur[0] - m, tot = sum + m;
        if (!s->found || diff < s->bdiff || (diff == s->bdiff && m > s->bmin) ||
            (diff == s->bdiff && m == s->bmin && tot < s->bsum)) {
            s->found = 1;
            s->bdiff = diff;
            s->bsum = tot;
            s->bmin = m;
            memcpy(s->best, s->cur, (size_t)s->k * sizeof(int));
        }
        return;
    }
    int left = s->k - i;       /* factors still to choose, this one included */
    if (i == 0) {
        /* The largest factor, upwards from the k-th root: the smallest factor
         * is at most the (k-1)-th root of what the largest leaves, so the
         * difference only grows from there on. */
        for (int j = 0; j < s->ndivs; j++) {
            int d = s->divs[j];
            if (!pow_at_least(d, left, m))
                continue;
            if (s->found && d - root_floor(m / d, left - 1) > s->bdiff)
                break;
            s->cur[0] = d;
            dims_search(s, m / d, 1, d, d);
        }
        return;
    }
    for (int j = s->ndivs - 1; j >= 0; j--) {
        int d = s->divs[j];
        if (d > m || d > maxv)
            continue;
        /* The rest are at most d each, so they must be able to reach m / d;
         * smaller d only gets further from it. */
        if (!pow_at_least(d, left, m))
            break;
        /* The smallest factor will be at most d: the difference cannot beat
         * the best one any more, and smaller d only widens it. */
        if (s->found && s->cur[0] - d > s->bdiff)
            break;
        if (m % d)
            continue;
        s->cur[i] = d;
        dims_search(s, m / d, i + 1, d, sum + d);
    }
}

RD_WEAK_ALIAS(MPI_Dims_create)
int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    static const char fn[] = "MPI_Dims_create";
    RD_API_CHECK_INIT(fn);
    if (nnodes <= 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "nnodes = %d: it must be positive", nnodes);
    if (ndims < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "ndims = %d is negative", ndims);
    if (ndims > 0 && !dims)
        return rd_api_topo_null_arg(NULL, "dims", fn);
    int m = nnodes, k = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return rd_api_error(NULL, MPI_ERR_DIMS, fn,
                                "dims[%d] = %d is negative (0 means: choose it)", i, dims[i]);
        if (dims[i] == 0) {
            k++;
        } else if (m % dims[i]) {
            return rd_api_error(NULL, MPI_ERR_DIMS, fn,
                                "nnodes = %d is not a multiple of the product of the "
                                "non-zero entries of dims",
                                nnodes);
        } else {
            m /= dims[i];
        }
    }
    if (k == 0) {
        if (m != 1)
            return rd_api_error(NULL, MPI_ERR_DIMS, fn,
                                "every entry of dims is fixed and their product is not nnodes = %d",
                                nnodes);
        return MPI_SUCCESS;
    }
    dims_search_t s = { .k = k };
    s.cur = malloc(2 * (size_t)k * sizeof(int));
    int *divs = s.cur ? divisors(m, &s.ndivs) : NULL;
    if (!divs) {
        free(s.cur);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    s.best = s.cur + k;
    s.divs = divs;
    dims_search(&s, m, 0, m, 0);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = s.best[j++];
    free(divs);
    free(s.cur);
    return MPI_SUCCESS;
}

/* ---- Cartesian topologies ---- */

static int *cart_dims(rd_api_topo_t *t) { return t->v; }
static int *cart_periods(rd_api_topo_t *t) { return t->v + t->a; }

/* Coordinates of rank r (row-major: the last dimension varies fastest). */
static void cart_coords(rd_api_topo_t *t, int r, int *coords)
{
    for (int i = t->a - 1; i >= 0; i--) {
        coords[i] = r % cart_dims(t)[i];
        r /= cart_dims(t)[i];
    }
}

/* Checks ndims / dims / periods of Cart_create and Cart_map and returns the
 * number of grid points in *n (capped just above limit). */
static int check_grid(rd_comm_t *c, int ndims, const int dims[], const int periods[],
                      int limit, int *n, const char *fn)
{
    if (ndims < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "ndims = %d is negative", ndims);
    if (ndims > 0 && (!dims || !periods))
        return rd_api_topo_null_arg(c, "dims or periods", fn);
    long long prod = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return rd_api_error(c, MPI_ERR_DIMS, fn, "dims[%d] = %d: dimensions must be positive",
                                i, dims[i]);
        prod *= dims[i];
        if (prod > limit)
            prod = (long long)limit + 1;
    }
    if (prod > limit)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "the grid has more points than the communicator's %d ranks", limit);
    *n = (int)prod;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Cart_create)
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    static const char fn[] = "MPI_Cart_create";
    rd_comm_t *c;
    int err, n;
    (void)reorder;
    if ((err = rd_api_topo_check_old(comm_old, comm_cart, &c, fn)) ||
        (err = check_grid(c, ndims, dims, periods, c->size, &n, fn)))
        return err;
    rd_api_topo_t *t = rd_api_topo_new(MPI_CART, ndims, 0, 2 * (size_t)ndims);
    if (!t)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < ndims; i++) {
        cart_dims(t)[i] = dims[i];
        cart_periods(t)[i] = periods[i] != 0;
    }
    return rd_api_topo_create_first(c, n, t, comm_cart, fn);
}

RD_WEAK_ALIAS(MPI_Cartdim_get)
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    static const char fn[] = "MPI_Cartdim_get";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!ndims)
        return rd_api_topo_null_arg(c, "ndims", fn);
    *ndims = t->a;
    return MPI_SUCCESS;
}

/* Fills the first maxdims entries (fewer than ndims is not an error). */
RD_WEAK_ALIAS(MPI_Cart_get)
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    static const char fn[] = "MPI_Cart_get";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (maxdims < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxdims = %d is negative", maxdims);
    int n = maxdims < t->a ? maxdims : t->a;
    if (n > 0 && (!dims || !periods || !coords))
        return rd_api_topo_null_arg(c, "dims, periods or coords", fn);
    int *mine = malloc(((size_t)t->a + 1) * sizeof(int));
    if (!mine)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    cart_coords(t, c->rank, mine);
    for (int i = 0; i < n; i++) {
        dims[i] = cart_dims(t)[i];
        periods[i] = cart_periods(t)[i];
        coords[i] = mine[i];
    }
    free(mine);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Cart_rank)
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    static const char fn[] = "MPI_Cart_rank";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!rank || (t->a > 0 && !coords))
        return rd_api_topo_null_arg(c, "coords or rank", fn);
    int r = 0;
    for (int i = 0; i < t->a; i++) {
        int d = cart_dims(t)[i], x = coords[i];
        if (cart_periods(t)[i])
            x = (x % d + d) % d;
        else if (x < 0 || x >= d)
            return rd_api_error(c, MPI_ERR_ARG, fn,
                                "coords[%d] = %d is outside 0..%d of a non-periodic dimension", i,
                                x, d - 1);
        r = r * d + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Cart_coords)
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    static const char fn[] = "MPI_Cart_coords";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (rank < 0 || rank >= c->size)
        return rd_api_error(c, MPI_ERR_RANK, fn, "rank %d is outside 0..%d", rank, c->size - 1);
    if (maxdims < t->a)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxdims = %d is less than ndims = %d", maxdims,
                            t->a);
    if (t->a > 0 && !coords)
        return rd_api_topo_null_arg(c, "coords", fn);
    cart_coords(t, rank, coords);
    return MPI_SUCCESS;
}

/* Neighbours disp steps away along direction; MPI_PROC_NULL past the edge
 * of a non-periodic dimension. */
RD_WEAK_ALIAS(MPI_Cart_shift)
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    static const char fn[] = "MPI_Cart_shift";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!rank_source || !rank_dest)
        return rd_api_topo_null_arg(c, "rank_source or rank_dest", fn);
    if (direction < 0 || direction >= t->a)
        return rd_api_error(c, MPI_ERR_ARG, fn, "direction %d is outside 0..%d", direction,
                            t->a - 1);
    int *co = malloc((size_t)t->a * sizeof(int));
    if (!co)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    cart_coords(t, c->rank, co);
    int d = cart_dims(t)[direction], x = co[direction];
    int out[2];
    for (int j = 0; j < 2; j++) {
        /* j = 0: source (x - disp), j = 1: destination (x + disp). */
        long long y = (long long)x + (j ? disp : -(long long)disp);
        if (cart_periods(t)[direction]) {
            y = (y % d + d) % d;
        } else if (y < 0 || y >= d) {
            out[j] = MPI_PROC_NULL;
            continue;
        }
        co[direction] = (int)y;
        int r = 0;
        for (int i = 0; i < t->a; i++)
            r = r * cart_dims(t)[i] + co[i];
        out[j] = r;
    }
    free(co);
    *rank_source = out[0];
    *rank_dest = out[1];
    return MPI_SUCCESS;
}

/* Every rank knows the whole grid, so each one computes its slice (the
 * ranks that share its coordinates in the dropped dimensions, in rank order,
 * which is row-major order of the kept ones) without an exchange. */
RD_WEAK_ALIAS(MPI_Cart_sub)
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Cart_sub";
    rd_comm_t *c, *nc = NULL;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!newcomm || (t->a > 0 && !remain_dims))
        return rd_api_topo_null_arg(c, "remain_dims or newcomm", fn);
    int nd = t->a, kept = 0;
    for (int i = 0; i < nd; i++)
        kept += remain_dims[i] != 0;
    rd_api_topo_t *sub = rd_api_topo_new(MPI_CART, kept, 0, 2 * (size_t)kept);
    int *mine = malloc(2 * ((size_t)nd + 1) * sizeof(int));
    int *world = malloc((size_t)c->size * sizeof(int));
    int rc = RD_ENOMEM;
    rd_api_lock();
    if (!sub || !mine || !world)
        goto out;
    for (int i = 0, j = 0; i < nd; i++)
        if (remain_dims[i]) {
            cart_dims(sub)[j] = cart_dims(t)[i];
            cart_periods(sub)[j++] = cart_periods(t)[i];
        }
    int *other = mine + nd + 1, n = 0;
    cart_coords(t, c->rank, mine);
    for (int r = 0; r < c->size; r++) {
        cart_coords(t, r, other);
        /* Nothing kept: one 0-dimensional grid, of rank 0 alone, and
         * MPI_COMM_NULL elsewhere (as MPI_Cart_create with ndims 0; MPICH
         * does the same). */
        int same = kept > 0 || r == 0;
        for (int i = 0; i < nd && same && kept > 0; i++)
            same = remain_dims[i] || other[i] == mine[i];
        if (same)
            world[n++] = c->group->world[r];
    }
    rd_group_t *g = rd_group_new(n, world, rd_api.boot.rank);
    if (!g)
        goto out;
    rc = rd_api_comm_create_from(c, g, &nc);
    rd_group_release(g);
    if (nc) {
        nc->topo = MPI_CART;
        nc->topo_data = sub;
        sub = NULL;
    }
out:
    rd_api_unlock();
    free(sub);
    free(mine);
    free(world);
    return rd_api_comm_out(c, rc, nc, newcomm, fn);
}

RD_WEAK_ALIAS(MPI_Cart_map)
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    static const char fn[] = "MPI_Cart_map";
    rd_comm_t *c;
    int err, n;
    if ((err = rd_api_topo_check_old(comm, newrank, &c, fn)) ||
        (err = check_grid(c, ndims, dims, periods, c->size, &n, fn)))
        return err;
    *newrank = c->rank < n ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
