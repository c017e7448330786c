/*
 * Process topologies (MPI-3.1 chapter 7) as the rest of the API layer sees
 * them, and what the topology files (topo_cart.c, topo_graph.c,
 * topo_dist_graph.c) share. A communicator with a topology has c->topo set
 * to MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH and c->topo_data pointing to one
 * malloc'd rd_api_topo_t (rd_comm_release frees it with free()), so a copy
 * is one memcpy.
 */
#ifndef RD_API_TOPO_H
#define RD_API_TOPO_H

#include <stddef.h>

#include "api/api.h"
#include "core/comm.h"

typedef struct rd_api_topo {
    size_t bytes;              /* size of the whole block */
    int kind;                  /* MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH */
    int a, b;                  /* cart: ndims, 0; graph: nnodes, nedges;
                                * dist graph: indegree, outdegree */
    int weighted;              /* dist graph: weights were given */
    int v[];                   /* cart: dims[ndims], periods[ndims]
                                * graph: index[nnodes], edges[nedges]
                                * dist graph: sources[in], source weights[in],
                                *             dests[out], dest weights[out] */
} rd_api_topo_t;

/* Copies from's topology, if it has one, to `to` (MPI_Comm_dup). Returns an
 * internal status (RD_ENOMEM). Lock held. */
int rd_api_topo_copy(const rd_comm_t *from, rd_comm_t *to);

/* A zeroed block of this kind with room for nints ints in v; NULL on ENOMEM. */
rd_api_topo_t *rd_api_topo_new(int kind, int a, int b, size_t nints);

/* Checks without the lock; each returns MPI_SUCCESS or the error handler's
 * code. rd_api_topo_check: MPI initialized and comm carries a topology of
 * this kind (*t). rd_api_topo_check_old: MPI initialized and comm an
 * intracommunicator to build a topology on, out (the output pointer) not
 * NULL. rd_api_topo_null_arg: the error for a NULL argument named what. */
int rd_api_topo_check(MPI_Comm comm, int kind, rd_comm_t **c, rd_api_topo_t **t,
                      const char *fn);
int rd_api_topo_check_old(MPI_Comm comm, void *out, rd_comm_t **c, const char *fn);
int rd_api_topo_null_arg(rd_comm_t *c, const char *what, const char *fn);

/* A new communicator over the first n ranks of c (all of them in order:
 * reorder is ignored), carrying t (consumed). Ranks from n on get
 * MPI_COMM_NULL; n = 0 gives MPI_COMM_NULL everywhere. Collective over c;
 * without the lock. */
int rd_api_topo_create_first(rd_comm_t *c, int n, rd_api_topo_t *t, MPI_Comm *out,
                             const char *fn);

#endif
