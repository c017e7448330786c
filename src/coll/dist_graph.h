/*
 * The edge exchange of MPI_Dist_graph_create: every rank names some edges
 * of the graph (any edges, not only its own), and each rank must learn the
 * edges that start or end at it.
 */
#ifndef RD_COLL_DIST_GRAPH_H
#define RD_COLL_DIST_GRAPH_H

#include "core/comm.h"

/* One rank's neighbours after the exchange. */
typedef struct rd_coll_dg_adj {
    int indegree, outdegree;
    int weighted;              /* some rank gave weights (see dist_graph.c) */
    int *v;                    /* malloc'd: sources[indegree], their weights,
                                * destinations[outdegree], their weights */
} rd_coll_dg_adj_t;

/* Collective over c: this rank gives ne edges as (source, destination,
 * weight) triples of ranks of c (weight 1 each when hasw is 0). On RD_OK,
 * *adj holds this rank's in-edges and out-edges in the order of (giving
 * rank, position); the caller frees adj->v. Lock held. */
int rd_coll_dist_graph_exchange(rd_comm_t *c, int ne, const int *edges, int hasw,
                                rd_coll_dg_adj_t *adj);

#endif
