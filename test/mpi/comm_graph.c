/*
 * comm_graph: graph and distributed graph topologies. MPI_Graph_create with
 * a ring plus a star around node 0 (and a graph smaller than the
 * communicator), Graphdims_get / Graph_get / Graph_neighbors(_count) /
 * Graph_map / Topo_test, messages to each neighbour. Dist_graph_create_adjacent
 * (weighted ring, unweighted), Dist_graph_create where each rank describes
 * edges of another rank and where rank 0 describes them all, neighbour
 * queries (compared as sets: the order is not specified), the topologies surviving Comm_dup, and error classes.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The graph: node i has ring neighbours i +- 1 and, for i > 0, node 0;
 * node 0 has every other node. index/edges built for n nodes. */
static int build_graph(int n, int *index, int *edges)
{
    int e = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0) {
            for (int j = 1; j < n; j++)
                edges[e++] = j;
        } else {
            edges[e++] = 0;
            if (n > 2) {
                int l = (i - 1 + n) % n, r = (i + 1) % n;
                if (l != 0)
                    edges[e++] = l;
                if (r != 0 && r != l)
                    edges[e++] = r;
            }
        }
        index[i] = e;
    }
    return e;
}

static void check_graph(MPI_Comm g, int n, const int *index, const int *edges, int nedges,
                        const char *what)
{
    int st = -1, nn = -1, ne = -1, me;
    MPI_Comm_rank(g, &me);
    MT_OK(MPI_Topo_test(g, &st));
    MT_OK(MPI_Graphdims_get(g, &nn, &ne));
    MT_CHECK(st == MPI_GRAPH && nn == n && ne == nedges, "%s: topo %d nnodes %d nedges %d", what,
             st, nn, ne);
    int *gi = MTest_Malloc((size_t)n * sizeof(int)), *ge = MTest_Malloc((size_t)nedges * sizeof(int) + 1);
    MT_OK(MPI_Graph_get(g, n, nedges, gi, ge));
    MT_CHECK(!memcmp(gi, index, (size_t)n * sizeof(int)) &&
             !memcmp(ge, edges, (size_t)nedges * sizeof(int)), "%s: Graph_get differs", what);
    for (int r = 0; r < n; r++) {
        int cnt = -1, first = r ? index[r - 1] : 0;
        MT_OK(MPI_Graph_neighbors_count(g, r, &cnt));
        MT_CHECK(cnt == index[r] - first, "%s: node %d has %d neighbours, expected %d", what, r,
                 cnt, index[r] - first);
        int nb[64];
        MT_OK(MPI_Graph_neighbors(g, r, 64, nb));
        MT_CHECK(!memcmp(nb, edges + first, (size_t)cnt * sizeof(int)),
                 "%s: neighbours of node %d differ", what, r);
    }
    /* a message to each neighbour; the graph is symmetric */
    int cnt, nb[64], got[64];
    MPI_Request rq[128];
    MPI_Graph_neighbors_count(g, me, &cnt);
    MPI_Graph_neighbors(g, me, 64, nb);
    for (int i = 0; i < cnt; i++) {
        MT_OK(MPI_Irecv(&got[i], 1, MPI_INT, nb[i], 3, g, &rq[i]));
        MT_OK(MPI_Isend(&me, 1, MPI_INT, nb[i], 3, g, &rq[cnt + i]));
    }
    MT_OK(MPI_Waitall(2 * cnt, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < cnt; i++)
        MT_CHECK(got[i] == nb[i], "%s: neighbour %d sent %d", what, nb[i], got[i]);
    free(gi);
    free(ge);
}

/* Dist graph queries: in-neighbours and out-neighbours as sets. */
static void check_dist(MPI_Comm g, int nin, const int *in, const int *inw, int nout,
                       const int *out, const int *outw, int weighted, const char *what)
{
    int i0 = -1, o0 = -1, w0 = -1, st = -1;
    MT_OK(MPI_Topo_test(g, &st));
    MT_OK(MPI_Dist_graph_neighbors_count(g, &i0, &o0, &w0));
    MT_CHECK(st == MPI_DIST_GRAPH && i0 == nin && o0 == nout && !!w0 == weighted,
             "%s: topo %d indegree %d outdegree %d weighted %d, expected %d %d %d", what, st, i0,
             o0, w0, nin, nout, weighted);
    /* no neighbours: nothing to ask (MPICH 4.0 crashes on that call with
     * MPI_WEIGHTS_EMPTY weights) */
    if (i0 != nin || o0 != nout || (nin == 0 && nout == 0))
        return;
    int src[16], sw[16], dst[16], dw[16];
    MT_OK(MPI_Dist_graph_neighbors(g, 16, src, sw, 16, dst, dw));
    /* pair (rank, weight) as rank * 1000 + weight and compare sorted */
    int a[16], b[16];
    for (int k = 0; k < 2; k++) {
        int n = k ? nout : nin;
        const int *er = k ? out : in, *ew = k ? outw : inw, *gr = k ? dst : src, *gw = k ? dw : sw;
        for (int i = 0; i < n; i++) {
            a[i] = er[i] * 1000 + (weighted ? ew[i] : 0);
            b[i] = gr[i] * 1000 + (weighted ? gw[i] : 0);
        }
        qsort(a, (size_t)n, sizeof(int), cmp_int);
        qsort(b, (size_t)n, sizeof(int), cmp_int);
        for (int i = 0; i < n; i++)
            MT_CHECK(a[i] == b[i], "%s: %s-neighbour %d: got %d, expected %d (rank*1000+weight)",
                     what, k ? "out" : "in", i, b[i], a[i]);
    }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int np = MTest_size, me = MTest_rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int index[64], edges[256];

    /* graph over everyone, and its dup */
    {
        MPI_Comm g, d;
        int ne = build_graph(np, index, edges), newrank = -1;
        MT_OK(MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 1, &g));
        check_graph(g, np, index, edges, ne, "graph");
        MT_OK(MPI_Comm_dup(g, &d));
        check_graph(d, np, index, edges, ne, "dup of a graph");
        MT_OK(MPI_Graph_map(MPI_COMM_WORLD, np, index, edges, &newrank));
        MT_CHECK(newrank == me, "Graph_map gave %d", newrank);
        MT_OK(MPI_Comm_free(&d));
        MT_OK(MPI_Comm_free(&g));
    }
    /* a graph on fewer nodes than ranks */
    if (np > 1) {
        MPI_Comm g;
        int n = np - 1, ne = build_graph(n, index, edges), newrank = -1;
        MT_OK(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g));
        MT_OK(MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank));
        if (me < n) {
            MT_CHECK(g != MPI_COMM_NULL && newrank == me, "smaller graph: rank %d map %d", me,
                     newrank);
            if (g != MPI_COMM_NULL) {
                check_graph(g, n, index, edges, ne, "smaller graph");
                MT_OK(MPI_Comm_free(&g));
            }
        } else {
            MT_CHECK(g == MPI_COMM_NULL && newrank == MPI_UNDEFINED,
                     "smaller graph: rank %d outside got a communicator or map %d", me, newrank);
        }
    }

    /* adjacent: directed ring me -> me+1 with weight 10*me + 1, and me -> me+2 */
    {
        MPI_Comm g, d;
        int in[2] = { (me - 1 + np) % np, (me - 2 + 2 * np) % np };
        int out[2] = { (me + 1) % np, (me + 2) % np };
        int inw[2] = { 10 * in[0] + 1, 10 * in[1] + 2 }, outw[2] = { 10 * me + 1, 10 * me + 2 };
        MT_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, inw, 2, out, outw,
                                             MPI_INFO_NULL, 0, &g));
        check_dist(g, 2, in, inw, 2, out, outw, 1, "adjacent, weighted");
        MT_OK(MPI_Comm_dup(g, &d));
        check_dist(d, 2, in, inw, 2, out, outw, 1, "dup of adjacent, weighted");
        /* a message along each out-edge */
        int got[2] = { -1, -1 };
        MPI_Request rq[4];
        for (int i = 0; i < 2; i++) {
            MT_OK(MPI_Irecv(&got[i], 1, MPI_INT, in[i], i, d, &rq[i]));
            MT_OK(MPI_Isend(&me, 1, MPI_INT, out[i], i, d, &rq[2 + i]));
        }
        MT_OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        MT_CHECK(got[0] == in[0] && got[1] == in[1], "adjacent: got %d %d", got[0], got[1]);
        MT_OK(MPI_Comm_free(&d));
        MT_OK(MPI_Comm_free(&g));

        MT_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, in, MPI_UNWEIGHTED, 1, out,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
        check_dist(g, 1, in, NULL, 1, out, NULL, 0, "adjacent, unweighted");
        MT_OK(MPI_Comm_free(&g));

        /* no edges at all */
        MT_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, in, MPI_WEIGHTS_EMPTY, 0, out,
                                             MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g));
        check_dist(g, 0, NULL, NULL, 0, NULL, NULL, 1, "adjacent, no edges");
        MT_OK(MPI_Comm_free(&g));
    }

    /* general: rank r describes the out-edges of rank r+1: (r+1) -> (r+2)
     * and (r+1) -> (r+1) itself, weights source * 10 + 3 and + 4 */
    {
        MPI_Comm g;
        int s = (me + 1) % np, deg = 2, dst[2] = { (me + 2) % np, s };
        int w[2] = { 10 * s + 3, 10 * s + 4 };
        MT_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &s, &deg, dst, w, MPI_INFO_NULL, 0, &g));
        int p = (me - 1 + np) % np;
        int in[2] = { p, me }, inw[2] = { 10 * p + 3, 10 * me + 4 };
        int out[2] = { (me + 1) % np, me }, outw[2] = { 10 * me + 3, 10 * me + 4 };
        check_dist(g, 2, in, inw, 2, out, outw, 1, "Dist_graph_create, weighted");
        MT_OK(MPI_Comm_free(&g));
    }
    /* rank 0 describes every edge: r -> r+1 (unweighted) */
    {
        MPI_Comm g, d;
        int *src = MTest_Malloc((size_t)np * sizeof(int)), *deg = MTest_Malloc((size_t)np * sizeof(int));
        int *dst = MTest_Malloc((size_t)np * sizeof(int));
        for (int r = 0; r < np; r++) {
            src[r] = r;
            deg[r] = 1;
            dst[r] = (r + 1) % np;
        }
        MT_OK(MPI_Dist_graph_create(MPI_COMM_WORLD, me == 0 ? np : 0, src, deg, dst,
                                    MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
        int in = (me - 1 + np) % np, out = (me + 1) % np;
        check_dist(g, 1, &in, NULL, 1, &out, NULL, 0, "Dist_graph_create from rank 0");
        MT_OK(MPI_Comm_dup(g, &d));
        check_dist(d, 1, &in, NULL, 1, &out, NULL, 0, "dup of Dist_graph_create");
        MT_OK(MPI_Comm_free(&d));
        MT_OK(MPI_Comm_free(&g));
        free(src);
        free(deg);
        free(dst);
    }

    /* errors */
    {
        MPI_Comm g;
        int i1[1] = { 1 }, e1[1] = { np + 3 }, s, d, w;
        MT_ERRCLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, i1, e1, 0, &g), MPI_ERR_ARG,
                    "edge to a node that does not exist");
        MT_ERRCLASS(MPI_Graph_create(MPI_COMM_WORLD, np + 1, index, edges, 0, &g), MPI_ERR_ARG,
                    "more nodes than ranks");
        MT_ERRCLASS(MPI_Graphdims_get(MPI_COMM_WORLD, &s, &d), MPI_ERR_TOPOLOGY,
                    "Graphdims_get without a topology");
        MT_ERRCLASS(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &s, &d, &w), MPI_ERR_TOPOLOGY,
                    "Dist_graph_neighbors_count without a topology");
        MT_ERRCLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, i1, MPI_UNWEIGHTED, 0, e1,
                                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g),
                    MPI_ERR_ARG, "negative indegree");
        int ne = build_graph(np, index, edges);
        (void)ne;
        MT_OK(MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &g));
        MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
        MT_ERRCLASS(MPI_Graph_neighbors_count(g, np, &s), MPI_ERR_RANK,
                    "Graph_neighbors_count of rank = nnodes");
        MT_ERRCLASS(MPI_Cartdim_get(g, &s), MPI_ERR_TOPOLOGY, "Cartdim_get on a graph");
        MT_OK(MPI_Comm_free(&g));
    }
    return MTest_Finalize();
}
