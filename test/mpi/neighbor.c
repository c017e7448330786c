/*
 * neighbor: neighbourhood collectives (MPI-3.1 sections 7.6, 7.7) in their
 * blocking, nonblocking (MPI_Ineighbor_*), persistent (MPI_Neighbor_*_init,
 * started twice) and large-count (_c) forms, on
 *   - a periodic ring over all ranks, and rings of 1 and 2 ranks (both
 *     neighbours are the same rank: the block sent towards -1 must arrive
 *     in the receiver's +1 block),
 *   - a non-periodic line (MPI_PROC_NULL at the ends: those blocks are not
 *     written) and a 2-d grid periodic in one dimension,
 *   - a graph ring (MPI_Graph_create) and a weighted distributed graph
 *     whose sources and destinations differ (MPI_Dist_graph_create_adjacent).
 * Each rank's blocks carry (rank, block index, iteration), so a block
 * delivered to the wrong slot or from the wrong neighbour is caught. Then
 * alltoallw at MPI_BOTTOM with addresses as displacements, and the argument
 * errors: no topology, negative count, NULL request.
 */
#include "err_common.h"

#include <stdlib.h>

enum { BLOCKING, NONBLOCKING, PERSISTENT, LARGE, NMODES };
enum { ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW, NOPS };
static const char *mode_name[] = { "blocking", "nonblocking", "persistent", "_c" };
static const char *op_name[] = { "allgather", "allgatherv", "alltoall", "alltoallv",
                                 "alltoallw" };

static int me;

static int code(int rank, int block, int it)
{
    return 10000 * it + 100 * rank + block + 1;
}

/* A communicator with a topology and what its rank expects: srcs[i] is the
 * i-th source and jof[i] the index of the block that source sends to us. */
typedef struct topo {
    MPI_Comm comm;
    int indeg, outdeg;
    int *srcs, *dsts, *jof;
    const char *name;
} topo_t;

/* Runs op in mode on t, twice (iterations 0 and 1), checking each result. */
static void exchange(const topo_t *t, int op, int mode)
{
    int in = t->indeg, out = t->outdeg, nb = 2 * (in > out ? in : out) + 2;
    int *sb = malloc(sizeof(int) * (size_t)nb), *rb = malloc(sizeof(int) * (size_t)nb);
    int *sc = malloc(sizeof(int) * (size_t)nb), *sd = malloc(sizeof(int) * (size_t)nb);
    int *rc = malloc(sizeof(int) * (size_t)nb), *rd = malloc(sizeof(int) * (size_t)nb);
    MPI_Count *csc = malloc(sizeof(MPI_Count) * (size_t)nb);
    MPI_Count *crc = malloc(sizeof(MPI_Count) * (size_t)nb);
    MPI_Aint *asd = malloc(sizeof(MPI_Aint) * (size_t)nb);
    MPI_Aint *ard = malloc(sizeof(MPI_Aint) * (size_t)nb);
    MPI_Aint *esd = malloc(sizeof(MPI_Aint) * (size_t)nb);
    MPI_Aint *erd = malloc(sizeof(MPI_Aint) * (size_t)nb);
    MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * (size_t)nb);
    /* Receive blocks go in reverse order, so displacements matter. */
    for (int i = 0; i < nb; i++) {
        sc[i] = rc[i] = 1;
        csc[i] = crc[i] = 1;
        sd[i] = i;
        asd[i] = (MPI_Aint)(i * sizeof(int));
        rd[i] = i < in ? in - 1 - i : i;
        ard[i] = (MPI_Aint)(rd[i] * sizeof(int));
        esd[i] = sd[i];
        erd[i] = rd[i];
        ty[i] = MPI_INT;
    }
    MPI_Comm c = t->comm;
    int my;
    MPI_Comm_rank(c, &my);
    MPI_Request req = MPI_REQUEST_NULL;
    const MPI_Info ni = MPI_INFO_NULL;
    for (int it = 0; it < 2; it++) {
        for (int j = 0; j < nb; j++) {
            sb[j] = code(my, op == ALLGATHER || op == ALLGATHERV ? 0 : j, it);
            rb[j] = -1;
        }
        if (mode == PERSISTENT && it > 0) {
            MT_OK(MPI_Start(&req));
            MT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            switch (op * NMODES + mode) {
            case ALLGATHER * NMODES + BLOCKING:
                MT_OK(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, c));
                break;
            case ALLGATHER * NMODES + NONBLOCKING:
                MT_OK(MPI_Ineighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, c, &req));
                break;
            case ALLGATHER * NMODES + PERSISTENT:
                MT_OK(MPI_Neighbor_allgather_init(sb, 1, MPI_INT, rb, 1, MPI_INT, c, ni, &req));
                break;
            case ALLGATHER * NMODES + LARGE:
                MT_OK(MPI_Neighbor_allgather_c(sb, 1, MPI_INT, rb, 1, MPI_INT, c));
                break;
            case ALLGATHERV * NMODES + BLOCKING:
                MT_OK(MPI_Neighbor_allgatherv(sb, 1, MPI_INT, rb, rc, rd, MPI_INT, c));
                break;
            case ALLGATHERV * NMODES + NONBLOCKING:
                MT_OK(MPI_Ineighbor_allgatherv(sb, 1, MPI_INT, rb, rc, rd, MPI_INT, c, &req));
                break;
            case ALLGATHERV * NMODES + PERSISTENT:
                MT_OK(MPI_Neighbor_allgatherv_init(sb, 1, MPI_INT, rb, rc, rd, MPI_INT, c, ni,
                                                   &req));
                break;
            case ALLGATHERV * NMODES + LARGE:
                MT_OK(MPI_Ineighbor_allgatherv_c(sb, 1, MPI_INT, rb, crc, erd, MPI_INT, c, &req));
                break;
            case ALLTOALL * NMODES + BLOCKING:
                MT_OK(MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, c));
                break;
            case ALLTOALL * NMODES + NONBLOCKING:
                MT_OK(MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, c, &req));
                break;
            case ALLTOALL * NMODES + PERSISTENT:
                MT_OK(MPI_Neighbor_alltoall_init(sb, 1, MPI_INT, rb, 1, MPI_INT, c, ni, &req));
                break;
            case ALLTOALL * NMODES + LARGE:
                MT_OK(MPI_Neighbor_alltoall_c(sb, 1, MPI_INT, rb, 1, MPI_INT, c));
                break;
            case ALLTOALLV * NMODES + BLOCKING:
                MT_OK(MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, c));
                break;
            case ALLTOALLV * NMODES + NONBLOCKING:
                MT_OK(MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, c, &req));
                break;
            case ALLTOALLV * NMODES + PERSISTENT:
                MT_OK(MPI_Neighbor_alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, c, ni,
                                                  &req));
                break;
            case ALLTOALLV * NMODES + LARGE:
                MT_OK(MPI_Neighbor_alltoallv_c(sb, csc, esd, MPI_INT, rb, crc, erd, MPI_INT, c));
                break;
            case ALLTOALLW * NMODES + BLOCKING:
                MT_OK(MPI_Neighbor_alltoallw(sb, sc, asd, ty, rb, rc, ard, ty, c));
                break;
            case ALLTOALLW * NMODES + NONBLOCKING:
                MT_OK(MPI_Ineighbor_alltoallw(sb, sc, asd, ty, rb, rc, ard, ty, c, &req));
                break;
            case ALLTOALLW * NMODES + PERSISTENT:
                MT_OK(MPI_Neighbor_alltoallw_init(sb, sc, asd, ty, rb, rc, ard, ty, c, ni, &req));
                break;
            case ALLTOALLW * NMODES + LARGE:
                MT_OK(MPI_Ineighbor_alltoallw_c(sb, csc, asd, ty, rb, crc, ard, ty, c, &req));
                break;
            }
            if (mode == PERSISTENT)
                MT_OK(MPI_Start(&req));
            if (req != MPI_REQUEST_NULL)
                MT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        int v = op == ALLGATHERV || op == ALLTOALLV || op == ALLTOALLW;
        for (int i = 0; i < in; i++) {
            int slot = v ? rd[i] : i;
            int want = t->srcs[i] == MPI_PROC_NULL ? -1
                       : code(t->srcs[i], op == ALLGATHER || op == ALLGATHERV ? 0 : t->jof[i], it);
            MT_CHECK(rb[slot] == want, "%s %s %s it %d: block %d (from %d) is %d, want %d",
                     t->name, mode_name[mode], op_name[op], it, i, t->srcs[i], rb[slot], want);
        }
    }
    if (mode == PERSISTENT)
        MT_OK(MPI_Request_free(&req));
    free(sb);
    free(rb);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(csc);
    free(crc);
    free(asd);
    free(ard);
    free(esd);
    free(erd);
    free(ty);
}

static void run_all(const topo_t *t)
{
    for (int op = 0; op < NOPS; op++)
        for (int mode = 0; mode < NMODES; mode++)
            exchange(t, op, mode);
}

static topo_t *topo_alloc(MPI_Comm comm, int in, int out, const char *name)
{
    topo_t *t = calloc(1, sizeof(*t));
    t->comm = comm;
    t->indeg = in;
    t->outdeg = out;
    t->srcs = calloc((size_t)in + 1, sizeof(int));
    t->dsts = calloc((size_t)out + 1, sizeof(int));
    t->jof = calloc((size_t)in + 1, sizeof(int));
    t->name = name;
    return t;
}

static void topo_free(topo_t *t)
{
    MPI_Comm_free(&t->comm);
    free(t->srcs);
    free(t->dsts);
    free(t->jof);
    free(t);
}

/* A cartesian communicator over base; for each dimension the -1 neighbour
 * sends us its +1 block and the other way round. */
static void cart(MPI_Comm base, int nd, const int *dims, const int *periods, const char *name)
{
    MPI_Comm c;
    MT_OK(MPI_Cart_create(base, nd, dims, periods, 0, &c));
    topo_t *t = topo_alloc(c, 2 * nd, 2 * nd, name);
    for (int d = 0; d < nd; d++) {
        MT_OK(MPI_Cart_shift(c, d, 1, &t->srcs[2 * d], &t->srcs[2 * d + 1]));
        t->dsts[2 * d] = t->srcs[2 * d];
        t->dsts[2 * d + 1] = t->srcs[2 * d + 1];
        t->jof[2 * d] = 2 * d + 1;
        t->jof[2 * d + 1] = 2 * d;
    }
    run_all(t);
    topo_free(t);
}

static void graph_ring(int n)
{
    int *index = malloc(sizeof(int) * (size_t)n), *edges = malloc(sizeof(int) * 2 * (size_t)n);
    for (int r = 0; r < n; r++) {
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r + 1) % n;
        edges[2 * r + 1] = (r + n - 1) % n;
    }
    MPI_Comm c;
    MT_OK(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &c));
    int cr, nn;
    MPI_Comm_rank(c, &cr);
    MT_OK(MPI_Graph_neighbors_count(c, cr, &nn));
    topo_t *t = topo_alloc(c, nn, nn, "graph ring");
    MT_OK(MPI_Graph_neighbors(c, cr, nn, t->srcs));
    /* The k-th edge from one source to us carries that source's block for
     * its k-th edge to us (a ring of 1 or 2 nodes has repeated edges). */
    for (int i = 0; i < nn; i++) {
        int theirs[2], k = 0;
        t->dsts[i] = t->srcs[i];
        for (int j = 0; j < i; j++)
            k += t->srcs[j] == t->srcs[i];
        MT_OK(MPI_Graph_neighbors(c, t->srcs[i], 2, theirs));
        t->jof[i] = theirs[0] == cr && k == 0 ? 0 : 1;
    }
    run_all(t);
    topo_free(t);
    free(index);
    free(edges);
}

/* Rank r sends to r+1 and r+2 and receives from r-1 and r-2 (mod n), with
 * weights; the source r-k used its block k-1 for us. */
static void dist_graph(int n)
{
    int srcs[2] = { (me + n - 1) % n, (me + 2 * n - 2) % n };
    int dsts[2] = { (me + 1) % n, (me + 2) % n };
    int sw[2] = { 3, 4 }, dw[2] = { 3, 4 };
    MPI_Comm c;
    MT_OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, sw, 2, dsts, dw, MPI_INFO_NULL,
                                         0, &c));
    topo_t *t = topo_alloc(c, 2, 2, "dist graph");
    int gw[2], gdw[2];
    MT_OK(MPI_Dist_graph_neighbors(c, 2, t->srcs, gw, 2, t->dsts, gdw));
    for (int i = 0; i < 2; i++) {
        MT_CHECK(t->srcs[i] == srcs[i] && gw[i] == sw[i], "dist graph source %d: %d (w %d)", i,
                 t->srcs[i], gw[i]);
        t->jof[i] = i;
    }
    run_all(t);
    topo_free(t);
}

/* MPI_Neighbor_alltoallw from and into MPI_BOTTOM with absolute addresses
 * as displacements, on a periodic ring. */
static void bottom(void)
{
    int dims[1] = { MTest_size }, periods[1] = { 1 }, s[2], r[2] = { -1, -1 }, cnt[2] = { 1, 1 };
    MPI_Aint sa[2], ra[2];
    MPI_Datatype ty[2] = { MPI_INT, MPI_INT };
    MPI_Comm c;
    MT_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c));
    int my, left, right;
    MPI_Comm_rank(c, &my);
    MT_OK(MPI_Cart_shift(c, 0, 1, &left, &right));
    for (int i = 0; i < 2; i++) {
        s[i] = code(my, i, 7);
        MPI_Get_address(&s[i], &sa[i]);
        MPI_Get_address(&r[i], &ra[i]);
    }
    MT_OK(MPI_Neighbor_alltoallw(MPI_BOTTOM, cnt, sa, ty, MPI_BOTTOM, cnt, ra, ty, c));
    MT_CHECK(r[0] == code(left, 1, 7) && r[1] == code(right, 0, 7),
             "alltoallw at MPI_BOTTOM: %d %d, want %d %d", r[0], r[1], code(left, 1, 7),
             code(right, 0, 7));
    MPI_Comm_free(&c);
}

static void errors(void)
{
    int sb[8] = { 0 }, rb[8], one[2] = { 1, 1 }, neg[2] = { -1, -1 }, d[2] = { 0, 1 };
    MPI_Request r;
    MPI_Comm c;
    int dims[1] = { MTest_size }, periods[1] = { 1 };
    MT_ERRCLASS(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_TOPOLOGY, "Neighbor_allgather without a topology");
    MT_ERRCLASS(MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD, &r),
                MPI_ERR_TOPOLOGY, "Ineighbor_alltoall without a topology");
    MT_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MT_ERRCLASS(MPI_Neighbor_alltoall(sb, -1, MPI_INT, rb, 1, MPI_INT, c), MPI_ERR_COUNT,
                "Neighbor_alltoall count -1");
    MT_ERRCLASS(MPI_Neighbor_alltoallv(sb, one, d, MPI_INT, rb, neg, d, MPI_INT, c),
                MPI_ERR_COUNT, "Neighbor_alltoallv negative receive count");
    MT_ERRCLASS(MPI_Neighbor_allgather(sb, 1, MPI_DATATYPE_NULL, rb, 1, MPI_INT, c),
                MPI_ERR_TYPE, "Neighbor_allgather MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Ineighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, c, NULL), MPI_ERR_ARG,
                "Ineighbor_allgather NULL request");
    MT_ERRCLASS(MPI_Neighbor_allgatherv(sb, 1, MPI_INT, rb, NULL, d, MPI_INT, c), MPI_ERR_ARG,
                "Neighbor_allgatherv NULL counts");
    MTest_Check_comm_works(c, "after the neighbourhood collective errors");
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int n = MTest_size;
    me = MTest_rank;
    int dims[2] = { n, 0 }, periods[2] = { 1, 0 };
    cart(MPI_COMM_WORLD, 1, dims, periods, "periodic ring");
    periods[0] = 0;
    cart(MPI_COMM_WORLD, 1, dims, periods, "line");
    /* rings of 1 and 2 ranks */
    dims[0] = 1;
    periods[0] = 1;
    cart(MPI_COMM_SELF, 1, dims, periods, "ring of 1");
    if (n >= 2) {
        MPI_Comm pair;
        MPI_Comm_split(MPI_COMM_WORLD, me / 2, me, &pair);
        int ps;
        MPI_Comm_size(pair, &ps);
        dims[0] = ps;
        cart(pair, 1, dims, periods, ps == 2 ? "ring of 2" : "ring of 1 (odd rank out)");
        MPI_Comm_free(&pair);
    }
    dims[0] = dims[1] = 0;
    MPI_Dims_create(n, 2, dims);
    periods[0] = 1;
    periods[1] = 0;
    cart(MPI_COMM_WORLD, 2, dims, periods, "2-d grid");
    graph_ring(n);
    dist_graph(n);
    bottom();
    errors_return();
    errors();
    return MTest_Finalize();
}
