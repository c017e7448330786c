/*
 * Process topologies (MPI-3.1 chapter 7): what the three kinds share (the
 * block hanging off the communicator, its copy, the argument checks,
 * creating the new communicator) and MPI_Topo_test. Cartesian topologies and
 * MPI_Dims_create are in topo_cart.c, graph topologies in topo_graph.c,
 * distributed graph topologies in topo_dist_graph.c; neighborhood
 * collectives in neighbor.c.
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

#include "api/comm.h"

rd_api_topo_t *rd_api_topo_new(int kind, int a, int b, size_t nints)
{
    size_t bytes = sizeof(rd_api_topo_t) + nints * sizeof(int);
    rd_api_topo_t *t = calloc(1, bytes);
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
    const rd_api_topo_t *t = from->topo_data;
    if (!from->topo || !t)
        return RD_OK;
    rd_api_topo_t *copy = malloc(t->bytes);
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

int rd_api_topo_check(MPI_Comm comm, int kind, rd_comm_t **c, rd_api_topo_t **t,
                      const char *fn)
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

int rd_api_topo_check_old(MPI_Comm comm, void *out, rd_comm_t **c, const char *fn)
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

int rd_api_topo_null_arg(rd_comm_t *c, const char *what, const char *fn)
{
    return rd_api_error(c, MPI_ERR_ARG, fn, "%s is NULL", what);
}

int rd_api_topo_create_first(rd_comm_t *c, int n, rd_api_topo_t *t, MPI_Comm *out,
                             const char *fn)
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
    return rd_api_comm_out(c, rc, nc, out, fn);
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
        return rd_api_topo_null_arg(c, "status", fn);
    *status = c->topo ? c->topo : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

