/*
 * Graph topologies (MPI-3.1 7.5.3, 7.5.5): MPI_Graph_create and the queries
 * and map on it. The block (topo.h) holds index[nnodes] and edges[nedges]
 * as the user gave them.
 */
#include "api/topo.h"

#include <string.h>

static int *graph_index(rd_api_topo_t *t) { return t->v; }
static int *graph_edges(rd_api_topo_t *t) { return t->v + t->a; }

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
        return rd_api_topo_null_arg(c, "index", fn);
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return rd_api_error(c, MPI_ERR_ARG, fn,
                                "index[%d] = %d: index must be non-negative and non-decreasing",
                                i, index[i]);
    *nedges = nnodes ? index[nnodes - 1] : 0;
    if (*nedges > 0 && !edges)
        return rd_api_topo_null_arg(c, "edges", fn);
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
    if ((err = rd_api_topo_check_old(comm_old, comm_graph, &c, fn)) ||
        (err = check_graph(c, nnodes, index, edges, &nedges, fn)))
        return err;
    rd_api_topo_t *t =
        rd_api_topo_new(MPI_GRAPH, nnodes, nedges, (size_t)nnodes + (size_t)nedges);
    if (!t)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    if (nnodes)
        memcpy(graph_index(t), index, (size_t)nnodes * sizeof(int));
    if (nedges)
        memcpy(graph_edges(t), edges, (size_t)nedges * sizeof(int));
    return rd_api_topo_create_first(c, nnodes, t, comm_graph, fn);
}

RD_WEAK_ALIAS(MPI_Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    static const char fn[] = "MPI_Graphdims_get";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_GRAPH, &c, &t, fn)))
        return err;
    if (!nnodes || !nedges)
        return rd_api_topo_null_arg(c, "nnodes or nedges", fn);
    *nnodes = t->a;
    *nedges = t->b;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    static const char fn[] = "MPI_Graph_get";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_GRAPH, &c, &t, fn)))
        return err;
    if (maxindex < t->a || maxedges < t->b)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "maxindex = %d, maxedges = %d: the graph has %d nodes and %d edges",
                            maxindex, maxedges, t->a, t->b);
    if ((t->a && !index) || (t->b && !edges))
        return rd_api_topo_null_arg(c, "index or edges", fn);
    if (t->a)
        memcpy(index, graph_index(t), (size_t)t->a * sizeof(int));
    if (t->b)
        memcpy(edges, graph_edges(t), (size_t)t->b * sizeof(int));
    return MPI_SUCCESS;
}

/* comm carries a graph topology (*t) with node rank, whose neighbours are
 * edges [*first, *first + *count). */
static int check_node(MPI_Comm comm, int rank, rd_comm_t **c, rd_api_topo_t **t, int *first,
                      int *count, const char *fn)
{
    int err;
    if ((err = rd_api_topo_check(comm, MPI_GRAPH, c, t, fn)))
        return err;
    if (rank < 0 || rank >= (*t)->a)
        return rd_api_error(*c, MPI_ERR_RANK, fn, "rank %d is not a node (0..%d)", rank,
                            (*t)->a - 1);
    *first = rank ? graph_index(*t)[rank - 1] : 0;
    *count = graph_index(*t)[rank] - *first;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    static const char fn[] = "MPI_Graph_neighbors_count";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err, first, count;
    if ((err = check_node(comm, rank, &c, &t, &first, &count, fn)))
        return err;
    if (!nneighbors)
        return rd_api_topo_null_arg(c, "nneighbors", fn);
    *nneighbors = count;
    return MPI_SUCCESS;
}

/* Fills at most maxneighbors entries. */
RD_WEAK_ALIAS(MPI_Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    static const char fn[] = "MPI_Graph_neighbors";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err, first, count;
    if ((err = check_node(comm, rank, &c, &t, &first, &count, fn)))
        return err;
    if (maxneighbors < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxneighbors = %d is negative", maxneighbors);
    int n = count < maxneighbors ? count : maxneighbors;
    if (n > 0 && !neighbors)
        return rd_api_topo_null_arg(c, "neighbors", fn);
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
    if ((err = rd_api_topo_check_old(comm, newrank, &c, fn)) ||
        (err = check_graph(c, nnodes, index, edges, &nedges, fn)))
        return err;
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
