/*
 * Distributed graph topologies (MPI-3.1 7.5.4, 7.5.5):
 * MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create (whose edges each
 * rank learns from the others through coll/dist_graph.h) and the neighbour
 * queries. The block (topo.h) holds sources[indegree], their weights,
 * destinations[outdegree] and their weights (1 each when unweighted).
 */
#include "api/topo.h"

#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "api/info.h"
#include "coll/dist_graph.h"

static int *dg_sources(rd_api_topo_t *t) { return t->v; }
static int *dg_sweights(rd_api_topo_t *t) { return t->v + t->a; }
static int *dg_dests(rd_api_topo_t *t) { return t->v + 2 * (size_t)t->a; }
static int *dg_dweights(rd_api_topo_t *t) { return t->v + 2 * (size_t)t->a + t->b; }

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
static int create_all(rd_comm_t *c, rd_api_topo_t *t, MPI_Comm *out, const char *fn)
{
    return rd_api_topo_create_first(c, c->size, t, out, fn);
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
    if ((err = rd_api_topo_check_old(comm_old, comm_dist_graph, &c, fn)) ||
        (err = check_info_arg(c, info, fn)))
        return err;
    int weighted = sourceweights != MPI_UNWEIGHTED;
    if (weighted != (destweights != MPI_UNWEIGHTED))
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "sourceweights and destweights must both be MPI_UNWEIGHTED or "
                            "neither");
    if (weighted && ((indegree > 0 && !sourceweights) || (outdegree > 0 && !destweights)))
        return rd_api_topo_null_arg(c, "sourceweights or destweights", fn);
    if ((err = check_neighbors(c, indegree, sources, weighted ? sourceweights : NULL, "sources",
                               fn)) ||
        (err = check_neighbors(c, outdegree, destinations, weighted ? destweights : NULL,
                               "destinations", fn)))
        return err;
    rd_api_topo_t *t = rd_api_topo_new(MPI_DIST_GRAPH, indegree, outdegree,
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

/* This rank's topology from the edges every rank gave (ne triples of
 * source, destination, weight). Lock held; returns an internal status. */
static int exchange(rd_comm_t *c, int ne, const int *edges, int hasw, rd_api_topo_t **out)
{
    rd_coll_dg_adj_t adj;
    *out = NULL;
    int rc = rd_coll_dist_graph_exchange(c, ne, edges, hasw, &adj);
    if (rc != RD_OK)
        return rc;
    /* The exchange's layout is the block's (topo.h). */
    size_t n = 2 * ((size_t)adj.indegree + (size_t)adj.outdegree);
    rd_api_topo_t *t = rd_api_topo_new(MPI_DIST_GRAPH, adj.indegree, adj.outdegree, n);
    if (t) {
        t->weighted = adj.weighted;
        memcpy(t->v, adj.v, n * sizeof(int));
        *out = t;
    }
    free(adj.v);
    return t ? RD_OK : RD_ENOMEM;
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
    if ((err = rd_api_topo_check_old(comm_old, comm_dist_graph, &c, fn)) ||
        (err = check_info_arg(c, info, fn)))
        return err;
    if (n < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "n = %d is negative", n);
    if (n > 0 && (!sources || !degrees))
        return rd_api_topo_null_arg(c, "sources or degrees", fn);
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
        return rd_api_topo_null_arg(c, "weights", fn);
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
    rd_api_topo_t *t;
    rd_api_lock();
    int rc = exchange(c, ne, edges, hasw, &t);
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
    return rd_api_comm_out(c, rc, nc, comm_dist_graph, fn);
}

RD_WEAK_ALIAS(MPI_Dist_graph_neighbors_count)
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    static const char fn[] = "MPI_Dist_graph_neighbors_count";
    rd_comm_t *c;
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_DIST_GRAPH, &c, &t, fn)))
        return err;
    if (!indegree || !outdegree || !weighted)
        return rd_api_topo_null_arg(c, "indegree, outdegree or weighted", fn);
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
    rd_api_topo_t *t;
    int err;
    if ((err = rd_api_topo_check(comm, MPI_DIST_GRAPH, &c, &t, fn)))
        return err;
    if (maxindegree < 0 || maxoutdegree < 0)
        return rd_api_error(c, MPI_ERR_ARG, fn, "maxindegree = %d, maxoutdegree = %d: negative",
                            maxindegree, maxoutdegree);
    int in = t->a < maxindegree ? t->a : maxindegree;
    int out = t->b < maxoutdegree ? t->b : maxoutdegree;
    if ((in > 0 && !sources) || (out > 0 && !destinations))
        return rd_api_topo_null_arg(c, "sources or destinations", fn);
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
