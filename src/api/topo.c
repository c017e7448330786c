/*
 * Process topologies (MPI-3.1 chapter 7): MPI_Dims_create, Cartesian
 * topologies, graph topologies and distributed graph topologies, and the
 * queries on them. Neighborhood collectives are not here.
 *
 * A topology lives in one block hanging off the communicator (topo.h): a
 * header and one int array whose layout depends on the kind. reorder is
 * accepted and ignored: rank i of the new communicator is rank i of the old
 * one, which the standard allows. Cartesian and graph topologies with fewer
 * nodes than the old communicator's size give MPI_COMM_NULL to the ranks
 * left over.
 */
#include "api/topo.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/info.h"
#include "coll/coll.h"

typedef struct topo {
    size_t bytes;              /* size of the whole block */
    int kind;                  /* MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH */
    int a, b;                  /* cart: ndims, 0; graph: nnodes, nedges;
                                * dist graph: indegree, outdegree */
    int weighted;              /* dist graph: weights were given */
    int v[];                   /* cart: dims[ndims], periods[ndims]
                                * graph: index[nnodes], edges[nedges]
                                * dist graph: sources[in], source weights[in],
                                *             dests[out], dest weights[out] */
} topo_t;

static topo_t *topo_new(int kind, int a, int b, size_t nints)
{
    size_t bytes = sizeof(topo_t) + nints * sizeof(int);
    topo_t *t = calloc(1, bytes);
    if (!t)
        return NULL;
    t->bytes = bytes;
    t->kind = kind;
    t->a = a;
    t->b = b;
    return t;
}

int rd_api_topo_copy(const rd_comm_t *from, rd_comm_t *to)
{
    const topo_t *t = from->topo_data;
    if (!from->topo || !t)
        return RD_OK;
    topo_t *copy = malloc(t->bytes);
    if (!copy)
        return RD_ENOMEM;
    memcpy(copy, t, t->bytes);
    to->topo = from->topo;
    to->topo_data = copy;
    return RD_OK;
}

/* ---- shared checks (lock not held) ---- */

static const char *kind_name(int kind)
{
    switch (kind) {
    case MPI_CART: return "a Cartesian topology";
    case MPI_GRAPH: return "a graph topology";
    case MPI_DIST_GRAPH: return "a distributed graph topology";
    }
    return "no topology";
}

/* MPI initialized, and comm carries a topology of this kind. */
static int check_topo(MPI_Comm comm, int kind, rd_comm_t **c, topo_t **t, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)))
        return err;
    if ((*c)->topo != kind)
        return rd_api_error(*c, MPI_ERR_TOPOLOGY, fn, "the communicator has %s, not %s",
                            kind_name((*c)->topo), kind_name(kind));
    *t = (*c)->topo_data;
    return MPI_SUCCESS;
}

/* MPI initialized, and comm an intracommunicator to build a topology on
 * (out: the output pointer, not NULL). */
static int check_old(MPI_Comm comm, void *out, rd_comm_t **c, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)))
        return err;
    if ((*c)->rgroup)
        return rd_api_error(*c, MPI_ERR_COMM, fn,
                            "topologies cannot be attached to an intercommunicator");
    if (!out)
        return rd_api_error(*c, MPI_ERR_ARG, fn, "output pointer is NULL");
    return MPI_SUCCESS;
}

static int null_arg(rd_comm_t *c, const char *what, const char *fn)
{
    return rd_api_error(c, MPI_ERR_ARG, fn, "%s is NULL", what);
}

/* A new communicator over the first n ranks of c (all of them in order:
 * reorder is ignored), carrying t. Ranks from n on get MPI_COMM_NULL; n = 0
 * gives MPI_COMM_NULL everywhere. t is consumed. */
static int create_first(rd_comm_t *c, int n, topo_t *t, MPI_Comm *out, const char *fn)
{
    rd_group_t *g = NULL;
    rd_comm_t *nc = NULL;
    int rc = RD_OK;
    rd_api_lock();
    if (n > 0 && !(g = rd_group_new(n, c->group->world, rd_api.boot.rank)))
        rc = RD_ENOMEM;
    /* Every rank takes part in the context agreement, members or not. */
    if (rc == RD_OK)
        rc = rd_api_comm_create_from(c, g, &nc);
    rd_group_release(g);
    if (nc) {
        nc->topo = t->kind;
        nc->topo_data = t;
    } else {
        free(t);
    }
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *out = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* ---- MPI_Dims_create ----
 * The free dimensions get the factorization of nnodes / (product of the
 * fixed ones) that is most balanced: smallest difference between the largest
 * and smallest factor, then smallest sum, then largest smallest factor (the
 * order MPICH's choices follow too), in non-increasing order. An exhaustive
 * search over non-increasing factorizations, pruned by the best difference
 * so far: the number of factorizations grows slowly with nnodes. */

typedef struct dims_search {
    int k;                     /* free dimensions */
    int *cur, *best;
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

static void dims_search(dims_search_t *s, int m, int i, int maxv, long long sum)
{
    if (i == s->k - 1) {
        if (m > maxv)
            return;
        s->cur[i] = m;
        long long diff = s->cur[0] - m, tot = sum + m;
        if (!s->found || diff < s->bdiff || (diff == s->bdiff && tot < s->bsum) ||
            (diff == s->bdiff && tot == s->bsum && m > s->bmin)) {
            s->found = 1;
            s->bdiff = diff;
            s->bsum = tot;
            s->bmin = m;
            memcpy(s->best, s->cur, (size_t)s->k * sizeof(int));
        }
        return;
    }
    for (int d = m < maxv ? m : maxv; d >= 1; d--) {
        /* The rest are at most d each, so they must be able to reach m / d;
         * smaller d only gets further from it. */
        if (!pow_at_least(d, s->k - i, m))
            break;
        /* The smallest factor will be at most d: the difference cannot beat
         * the best one any more, and smaller d only widens it. */
        if (i > 0 && s->found && s->cur[0] - d > s->bdiff)
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
        return null_arg(NULL, "dims", fn);
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
    if (!s.cur)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    s.best = s.cur + k;
    dims_search(&s, m, 0, m, 0);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = s.best[j++];
    free(s.cur);
    return MPI_SUCCESS;
}

/* ---- Cartesian topologies ---- */

static int *cart_dims(topo_t *t) { return t->v; }
static int *cart_periods(topo_t *t) { return t->v + t->a; }

/* Coordinates of rank r (row-major: the last dimension varies fastest). */
static void cart_coords(topo_t *t, int r, int *coords)
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
        return null_arg(c, "dims or periods", fn);
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
    if ((err = check_old(comm_old, comm_cart, &c, fn)) ||
        (err = check_grid(c, ndims, dims, periods, c->size, &n, fn)))
        return err;
    topo_t *t = topo_new(MPI_CART, ndims, 0, 2 * (size_t)ndims);
    if (!t)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < ndims; i++) {
        cart_dims(t)[i] = dims[i];
        cart_periods(t)[i] = periods[i] != 0;
    }
    return create_first(c, n, t, comm_cart, fn);
}

RD_WEAK_ALIAS(MPI_Cartdim_get)
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    static const char fn[] = "MPI_Cartdim_get";
    rd_comm_t *c;
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!ndims)
        return null_arg(c, "ndims", fn);
    *ndims = t->a;
    return MPI_SUCCESS;
}

/* Fills the first maxdims entries (fewer than ndims is not an error). */
RD_WEAK_ALIAS(MPI_Cart_get)
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    static const char fn[] = "MPI_Cart_get";
    rd_comm_t *c;
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (maxdims < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxdims = %d is negative", maxdims);
    int n = maxdims < t->a ? maxdims : t->a;
    if (n > 0 && (!dims || !periods || !coords))
        return null_arg(c, "dims, periods or coords", fn);
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
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!rank || (t->a > 0 && !coords))
        return null_arg(c, "coords or rank", fn);
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
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (rank < 0 || rank >= c->size)
        return rd_api_error(c, MPI_ERR_RANK, fn, "rank %d is outside 0..%d", rank, c->size - 1);
    if (maxdims < t->a)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxdims = %d is less than ndims = %d", maxdims,
                            t->a);
    if (t->a > 0 && !coords)
        return null_arg(c, "coords", fn);
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
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!rank_source || !rank_dest)
        return null_arg(c, "rank_source or rank_dest", fn);
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
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_CART, &c, &t, fn)))
        return err;
    if (!newcomm || (t->a > 0 && !remain_dims))
        return null_arg(c, "remain_dims or newcomm", fn);
    int nd = t->a, kept = 0;
    for (int i = 0; i < nd; i++)
        kept += remain_dims[i] != 0;
    topo_t *sub = topo_new(MPI_CART, kept, 0, 2 * (size_t)kept);
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
        int same = 1;
        for (int i = 0; i < nd && same; i++)
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
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Cart_map)
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    static const char fn[] = "MPI_Cart_map";
    rd_comm_t *c;
    int err, n;
    if ((err = check_old(comm, newrank, &c, fn)) ||
        (err = check_grid(c, ndims, dims, periods, c->size, &n, fn)))
        return err;
    *newrank = c->rank < n ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---- graph topologies ---- */

static int *graph_index(topo_t *t) { return t->v; }
static int *graph_edges(topo_t *t) { return t->v + t->a; }

/* Checks a graph description and returns its edge count. */
static int check_graph(rd_comm_t *c, int nnodes, const int index[], const int edges[],
                       int *nedges, const char *fn)
{
    if (nnodes < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "nnodes = %d is negative", nnodes);
    if (nnodes > c->size)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "nnodes = %d is more than the communicator's %d ranks", nnodes,
                            c->size);
    if (nnodes > 0 && !index)
        return null_arg(c, "index", fn);
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return rd_api_error(c, MPI_ERR_ARG, fn,
                                "index[%d] = %d: index must be non-negative and non-decreasing",
                                i, index[i]);
    *nedges = nnodes ? index[nnodes - 1] : 0;
    if (*nedges > 0 && !edges)
        return null_arg(c, "edges", fn);
    for (int j = 0; j < *nedges; j++)
        if (edges[j] < 0 || edges[j] >= nnodes)
            return rd_api_error(c, MPI_ERR_ARG, fn, "edges[%d] = %d is not a node (0..%d)", j,
                                edges[j], nnodes - 1);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Graph_create)
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    static const char fn[] = "MPI_Graph_create";
    rd_comm_t *c;
    int err, nedges;
    (void)reorder;
    if ((err = check_old(comm_old, comm_graph, &c, fn)) ||
        (err = check_graph(c, nnodes, index, edges, &nedges, fn)))
        return err;
    topo_t *t = topo_new(MPI_GRAPH, nnodes, nedges, (size_t)nnodes + (size_t)nedges);
    if (!t)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    if (nnodes)
        memcpy(graph_index(t), index, (size_t)nnodes * sizeof(int));
    if (nedges)
        memcpy(graph_edges(t), edges, (size_t)nedges * sizeof(int));
    return create_first(c, nnodes, t, comm_graph, fn);
}

RD_WEAK_ALIAS(MPI_Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    static const char fn[] = "MPI_Graphdims_get";
    rd_comm_t *c;
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_GRAPH, &c, &t, fn)))
        return err;
    if (!nnodes || !nedges)
        return null_arg(c, "nnodes or nedges", fn);
    *nnodes = t->a;
    *nedges = t->b;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    static const char fn[] = "MPI_Graph_get";
    rd_comm_t *c;
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_GRAPH, &c, &t, fn)))
        return err;
    if (maxindex < t->a || maxedges < t->b)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "maxindex = %d, maxedges = %d: the graph has %d nodes and %d edges",
                            maxindex, maxedges, t->a, t->b);
    if ((t->a && !index) || (t->b && !edges))
        return null_arg(c, "index or edges", fn);
    if (t->a)
        memcpy(index, graph_index(t), (size_t)t->a * sizeof(int));
    if (t->b)
        memcpy(edges, graph_edges(t), (size_t)t->b * sizeof(int));
    return MPI_SUCCESS;
}

/* The neighbours of rank in a graph topology: *first and *count. */
static int graph_node(rd_comm_t *c, topo_t *t, int rank, int *first, int *count,
                      const char *fn)
{
    if (rank < 0 || rank >= t->a)
        return rd_api_error(c, MPI_ERR_RANK, fn, "rank %d is not a node (0..%d)", rank,
                            t->a - 1);
    *first = rank ? graph_index(t)[rank - 1] : 0;
    *count = graph_index(t)[rank] - *first;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    static const char fn[] = "MPI_Graph_neighbors_count";
    rd_comm_t *c;
    topo_t *t;
    int err, first, count;
    if ((err = check_topo(comm, MPI_GRAPH, &c, &t, fn)) ||
        (err = graph_node(c, t, rank, &first, &count, fn)))
        return err;
    if (!nneighbors)
        return null_arg(c, "nneighbors", fn);
    *nneighbors = count;
    return MPI_SUCCESS;
}

/* Fills at most maxneighbors entries. */
RD_WEAK_ALIAS(MPI_Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    static const char fn[] = "MPI_Graph_neighbors";
    rd_comm_t *c;
    topo_t *t;
    int err, first, count;
    if ((err = check_topo(comm, MPI_GRAPH, &c, &t, fn)) ||
        (err = graph_node(c, t, rank, &first, &count, fn)))
        return err;
    if (maxneighbors < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxneighbors = %d is negative", maxneighbors);
    int n = count < maxneighbors ? count : maxneighbors;
    if (n > 0 && !neighbors)
        return null_arg(c, "neighbors", fn);
    if (n > 0)
        memcpy(neighbors, graph_edges(t) + first, (size_t)n * sizeof(int));
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Graph_map)
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                   int *newrank)
{
    static const char fn[] = "MPI_Graph_map";
    rd_comm_t *c;
    int err, nedges;
    if ((err = check_old(comm, newrank, &c, fn)) ||
        (err = check_graph(c, nnodes, index, edges, &nedges, fn)))
        return err;
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Topo_test)
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    static const char fn[] = "MPI_Topo_test";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!status)
        return null_arg(c, "status", fn);
    *status = c->topo ? c->topo : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---- distributed graph topologies ---- */

static int *dg_sources(topo_t *t) { return t->v; }
static int *dg_sweights(topo_t *t) { return t->v + t->a; }
static int *dg_dests(topo_t *t) { return t->v + 2 * (size_t)t->a; }
static int *dg_dweights(topo_t *t) { return t->v + 2 * (size_t)t->a + t->b; }

static int check_info_arg(rd_comm_t *c, MPI_Info info, const char *fn)
{
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    rd_api_lock();
    rd_info_t *o = rd_api_info(info);
    rd_api_unlock();
    if (o)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
}

/* n neighbour ranks of c, with weights unless w is NULL. */
static int check_neighbors(rd_comm_t *c, int n, const int ranks[], const int *w, const char *what,
                           const char *fn)
{
    if (n < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "%s degree %d is negative", what, n);
    if (n > 0 && !ranks)
        return rd_api_error(c, MPI_ERR_ARG, fn, "the %s array is NULL", what);
    if (w && n > 0 && w == MPI_WEIGHTS_EMPTY)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "MPI_WEIGHTS_EMPTY given for %d %s edges", n, what);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= c->size)
            return rd_api_error(c, MPI_ERR_RANK, fn, "%s[%d] = %d is not a rank (0..%d)", what,
                                i, ranks[i], c->size - 1);
        if (w && w[i] < 0)
            return rd_api_error(c, MPI_ERR_ARG, fn, "the weight of %s[%d] is negative (%d)",
                                what, i, w[i]);
    }
    return MPI_SUCCESS;
}

/* A communicator over all of c carrying t (consumed). */
static int create_all(rd_comm_t *c, topo_t *t, MPI_Comm *out, const char *fn)
{
    return create_first(c, c->size, t, out, fn);
}

RD_WEAK_ALIAS(MPI_Dist_graph_create_adjacent)
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    static const char fn[] = "MPI_Dist_graph_create_adjacent";
    rd_comm_t *c;
    int err;
    (void)reorder;
    if ((err = check_old(comm_old, comm_dist_graph, &c, fn)) ||
        (err = check_info_arg(c, info, fn)))
        return err;
    int weighted = sourceweights != MPI_UNWEIGHTED;
    if (weighted != (destweights != MPI_UNWEIGHTED))
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "sourceweights and destweights must both be MPI_UNWEIGHTED or "
                            "neither");
    if (weighted && ((indegree > 0 && !sourceweights) || (outdegree > 0 && !destweights)))
        return null_arg(c, "sourceweights or destweights", fn);
    if ((err = check_neighbors(c, indegree, sources, weighted ? sourceweights : NULL, "sources",
                               fn)) ||
        (err = check_neighbors(c, outdegree, destinations, weighted ? destweights : NULL,
                               "destinations", fn)))
        return err;
    topo_t *t = topo_new(MPI_DIST_GRAPH, indegree, outdegree,
                         2 * ((size_t)indegree + (size_t)outdegree));
    if (!t)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    t->weighted = weighted;
    for (int i = 0; i < indegree; i++) {
        dg_sources(t)[i] = sources[i];
        dg_sweights(t)[i] = weighted ? sourceweights[i] : 1;
    }
    for (int i = 0; i < outdegree; i++) {
        dg_dests(t)[i] = destinations[i];
        dg_dweights(t)[i] = weighted ? destweights[i] : 1;
    }
    return create_all(c, t, comm_dist_graph, fn);
}

/* What each rank contributes to the edge exchange of Dist_graph_create. */
typedef struct dg_head {
    int nedges;
    int weights;               /* weights were given (not MPI_UNWEIGHTED) */
} dg_head_t;

/* Every rank learns every edge: an allgather of the edge counts, then one of
 * the edges, each rank's list padded to the longest. Simple, and O(total
 * edges) memory per rank; a sparse exchange would scale better. Builds the
 * topology of this rank: in-edges and out-edges in the order of (giving
 * rank, position). Lock held; returns an internal status. */
static int dg_exchange(rd_comm_t *c, int ne, const int *edges, int hasw, topo_t **out)
{
    int size = c->size, me = c->rank, rc = RD_ENOMEM;
    dg_head_t mine = { ne, hasw }, *heads = malloc((size_t)size * sizeof(*heads));
    int *all = NULL, *pad = NULL;
    *out = NULL;
    if (!heads)
        goto done;
    if ((rc = rd_coll_allgather_bytes(c, &mine, sizeof(mine), heads)) != RD_OK)
        goto done;
    int longest = 0, weighted = 0, weighted_any = 0;
    for (int r = 0; r < size; r++) {
        if (heads[r].nedges > longest)
            longest = heads[r].nedges;
        if (heads[r].nedges > 0)
            weighted |= heads[r].weights;
        weighted_any |= heads[r].weights;
    }
    if (!longest)
        weighted = weighted_any;
    size_t block = 3 * (size_t)longest;
    rc = RD_ENOMEM;
    all = malloc((size_t)size * block * sizeof(int) + 1);
    pad = calloc(block + 1, sizeof(int));
    if (!all || !pad)
        goto done;
    if (ne)
        memcpy(pad, edges, 3 * (size_t)ne * sizeof(int));
    if (block && (rc = rd_coll_allgather_bytes(c, pad, block * sizeof(int), all)) != RD_OK)
        goto done;
    int in = 0, outd = 0;
    for (int r = 0; r < size; r++)
        for (int j = 0; j < heads[r].nedges; j++) {
            const int *e = all + (size_t)r * block + 3 * (size_t)j;
            in += e[1] == me;
            outd += e[0] == me;
        }
    rc = RD_ENOMEM;
    topo_t *t = topo_new(MPI_DIST_GRAPH, in, outd, 2 * ((size_t)in + (size_t)outd));
    if (!t)
        goto done;
    t->weighted = weighted;
    in = outd = 0;
    for (int r = 0; r < size; r++)
        for (int j = 0; j < heads[r].nedges; j++) {
            const int *e = all + (size_t)r * block + 3 * (size_t)j;
            if (e[1] == me) {
                dg_sources(t)[in] = e[0];
                dg_sweights(t)[in++] = e[2];
            }
            if (e[0] == me) {
                dg_dests(t)[outd] = e[1];
                dg_dweights(t)[outd++] = e[2];
            }
        }
    *out = t;
    rc = RD_OK;
done:
    free(heads);
    free(all);
    free(pad);
    return rc;
}

RD_WEAK_ALIAS(MPI_Dist_graph_create)
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph)
{
    static const char fn[] = "MPI_Dist_graph_create";
    rd_comm_t *c, *nc = NULL;
    int err;
    (void)reorder;
    if ((err = check_old(comm_old, comm_dist_graph, &c, fn)) ||
        (err = check_info_arg(c, info, fn)))
        return err;
    if (n < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "n = %d is negative", n);
    if (n > 0 && (!sources || !degrees))
        return null_arg(c, "sources or degrees", fn);
    int hasw = weights != MPI_UNWEIGHTED, ne = 0;
    if ((err = check_neighbors(c, n, sources, NULL, "sources", fn)))
        return err;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return rd_api_error(c, MPI_ERR_ARG, fn, "degrees[%d] = %d is negative", i,
                                degrees[i]);
        ne += degrees[i];
    }
    if (hasw && ne > 0 && !weights)
        return null_arg(c, "weights", fn);
    if ((err = check_neighbors(c, ne, destinations, hasw ? weights : NULL, "destinations", fn)))
        return err;
    int *edges = malloc((3 * (size_t)ne + 1) * sizeof(int));
    if (!edges)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            edges[3 * k] = sources[i];
            edges[3 * k + 1] = destinations[k];
            edges[3 * k + 2] = hasw ? weights[k] : 1;
        }
    topo_t *t;
    rd_api_lock();
    int rc = dg_exchange(c, ne, edges, hasw, &t);
    if (rc == RD_OK) {
        rc = rd_api_comm_create_from(c, c->group, &nc);
        if (nc) {
            nc->topo = MPI_DIST_GRAPH;
            nc->topo_data = t;
        } else {
            free(t);
        }
    }
    rd_api_unlock();
    free(edges);
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *comm_dist_graph = nc->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Dist_graph_neighbors_count)
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    static const char fn[] = "MPI_Dist_graph_neighbors_count";
    rd_comm_t *c;
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_DIST_GRAPH, &c, &t, fn)))
        return err;
    if (!indegree || !outdegree || !weighted)
        return null_arg(c, "indegree, outdegree or weighted", fn);
    *indegree = t->a;
    *outdegree = t->b;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}

/* Fills at most maxindegree / maxoutdegree entries; weights only when the
 * graph has them and the caller did not pass MPI_UNWEIGHTED. */
RD_WEAK_ALIAS(MPI_Dist_graph_neighbors)
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                              int maxoutdegree, int destinations[], int destweights[])
{
    static const char fn[] = "MPI_Dist_graph_neighbors";
    rd_comm_t *c;
    topo_t *t;
    int err;
    if ((err = check_topo(comm, MPI_DIST_GRAPH, &c, &t, fn)))
        return err;
    if (maxindegree < 0 || maxoutdegree < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxindegree = %d, maxoutdegree = %d: negative",
                            maxindegree, maxoutdegree);
    int in = t->a < maxindegree ? t->a : maxindegree;
    int out = t->b < maxoutdegree ? t->b : maxoutdegree;
    if ((in > 0 && !sources) || (out > 0 && !destinations))
        return null_arg(c, "sources or destinations", fn);
    int sw = t->weighted && sourceweights && sourceweights != MPI_UNWEIGHTED &&
             sourceweights != MPI_WEIGHTS_EMPTY;
    int dw = t->weighted && destweights && destweights != MPI_UNWEIGHTED &&
             destweights != MPI_WEIGHTS_EMPTY;
    for (int i = 0; i < in; i++) {
        sources[i] = dg_sources(t)[i];
        if (sw)
            sourceweights[i] = dg_sweights(t)[i];
    }
    for (int i = 0; i < out; i++) {
        destinations[i] = dg_dests(t)[i];
        if (dw)
            destweights[i] = dg_dweights(t)[i];
    }
    return MPI_SUCCESS;
}
