/*
 * lc_coll: the large-count (_c) collectives, blocking and nonblocking, give
 * the results of their int forms: every rank-block and v-variant with
 * MPI_Count counts and MPI_Aint displacements (including MPI_IN_PLACE),
 * the reductions with a predefined op and with a large-count user op
 * (MPI_Op_create_c), and MPI_Reduce_local_c. Counts or displacements
 * beyond what the collective layer takes are errors naming the function,
 * never truncated.
 */
#include "mtest.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define B 5 /* elements per rank-block */

static int rank, size;
static MPI_Count lens_seen; /* largest length the user op was called with */

/* A sum through a large-count user function (created as non-commutative,
 * so the collectives take their ordered paths). */
static void user_op(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    const int *a = in;
    int *b = inout;
    for (MPI_Count i = 0; i < *len; i++)
        b[i] += a[i];
    if (*len > lens_seen)
        lens_seen = *len;
}

/* Whether the library is rdmpi, whose internals bound some counts (int
 * counts per rank in the v-collectives, int block lengths in the datatype
 * engine, spans of at most PTRDIFF_MAX bytes): beyond them a call fails
 * there, where MPICH goes ahead. */
static int rdmpi_limits(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(v, &n);
    return strstr(v, "rdmpi") != NULL;
}

static int val(int r, int i)
{
    return 1000 * r + i;
}

/* Runs the blocking (nb == 0) or nonblocking form of each collective. */
static int done(int err, MPI_Request *r, int nb)
{
    if (err == MPI_SUCCESS && nb)
        err = MPI_Wait(r, MPI_STATUS_IGNORE);
    return err;
}

static void rank_blocks(int nb)
{
    int n = size * B, *sb = MTest_Malloc(n * sizeof(int)), *rb = MTest_Malloc(n * sizeof(int));
    MPI_Request r;
    const char *tag = nb ? "nonblocking" : "blocking";

    for (int i = 0; i < B; i++)
        sb[i] = rank == 1 % size ? val(7, i) : -1;
    MT_OK(done(nb ? MPI_Ibcast_c(sb, B, MPI_INT, 1 % size, MPI_COMM_WORLD, &r)
                  : MPI_Bcast_c(sb, B, MPI_INT, 1 % size, MPI_COMM_WORLD), &r, nb));
    for (int i = 0; i < B; i++)
        MT_CHECK(sb[i] == val(7, i), "%s Bcast_c: element %d is %d", tag, i, sb[i]);

    for (int i = 0; i < B; i++)
        sb[i] = val(rank, i);
    memset(rb, 0, n * sizeof(int));
    MT_OK(done(nb ? MPI_Igather_c(sb, B, MPI_INT, rb, B, MPI_INT, 0, MPI_COMM_WORLD, &r)
                  : MPI_Gather_c(sb, B, MPI_INT, rb, B, MPI_INT, 0, MPI_COMM_WORLD), &r, nb));
    for (int i = 0; rank == 0 && i < n; i++)
        MT_CHECK(rb[i] == val(i / B, i % B), "%s Gather_c: element %d is %d", tag, i, rb[i]);

    memset(rb, 0, n * sizeof(int));
    MT_OK(done(nb ? MPI_Iallgather_c(sb, B, MPI_INT, rb, B, MPI_INT, MPI_COMM_WORLD, &r)
                  : MPI_Allgather_c(sb, B, MPI_INT, rb, B, MPI_INT, MPI_COMM_WORLD), &r, nb));
    for (int i = 0; i < n; i++)
        MT_CHECK(rb[i] == val(i / B, i % B), "%s Allgather_c: element %d is %d", tag, i, rb[i]);

    for (int i = 0; i < n; i++)
        sb[i] = val(rank, i);
    MT_OK(done(nb ? MPI_Iscatter_c(sb, B, MPI_INT, rb, B, MPI_INT, 0, MPI_COMM_WORLD, &r)
                  : MPI_Scatter_c(sb, B, MPI_INT, rb, B, MPI_INT, 0, MPI_COMM_WORLD), &r, nb));
    for (int i = 0; i < B; i++)
        MT_CHECK(rb[i] == val(0, rank * B + i), "%s Scatter_c: element %d is %d", tag, i, rb[i]);

    MT_OK(done(nb ? MPI_Ialltoall_c(sb, B, MPI_INT, rb, B, MPI_INT, MPI_COMM_WORLD, &r)
                  : MPI_Alltoall_c(sb, B, MPI_INT, rb, B, MPI_INT, MPI_COMM_WORLD), &r, nb));
    for (int i = 0; i < n; i++)
        MT_CHECK(rb[i] == val(i / B, rank * B + i % B), "%s Alltoall_c: element %d is %d", tag,
                 i, rb[i]);
    free(sb);
    free(rb);
}

/* v-variants: rank j's block has j + 1 elements, placed in reverse rank
 * order with a gap of one element. */
static void v_blocks(int nb)
{
    MPI_Count *cnt = MTest_Malloc(size * sizeof(MPI_Count));
    MPI_Aint *dsp = MTest_Malloc(size * sizeof(MPI_Aint));
    MPI_Count total = 0;
    for (int j = size - 1; j >= 0; j--) {
        cnt[j] = j + 1;
        dsp[j] = total;
        total += j + 2;
    }
    int *sb = MTest_Malloc(total * sizeof(int)), *rb = MTest_Malloc(total * sizeof(int));
    MPI_Request r;
    const char *tag = nb ? "nonblocking" : "blocking";
    for (int i = 0; i < rank + 1; i++)
        sb[i] = val(rank, i);

    memset(rb, 0xff, total * sizeof(int));
    MT_OK(done(nb ? MPI_Igatherv_c(sb, rank + 1, MPI_INT, rb, cnt, dsp, MPI_INT, 0,
                                   MPI_COMM_WORLD, &r)
                  : MPI_Gatherv_c(sb, rank + 1, MPI_INT, rb, cnt, dsp, MPI_INT, 0,
                                  MPI_COMM_WORLD), &r, nb));
    for (int j = 0; rank == 0 && j < size; j++)
        for (int i = 0; i < j + 1; i++)
            MT_CHECK(rb[dsp[j] + i] == val(j, i), "%s Gatherv_c: rank %d element %d is %d", tag,
                     j, i, rb[dsp[j] + i]);

    memset(rb, 0xff, total * sizeof(int));
    MT_OK(done(nb ? MPI_Iallgatherv_c(sb, rank + 1, MPI_INT, rb, cnt, dsp, MPI_INT,
                                      MPI_COMM_WORLD, &r)
                  : MPI_Allgatherv_c(sb, rank + 1, MPI_INT, rb, cnt, dsp, MPI_INT,
                                     MPI_COMM_WORLD), &r, nb));
    for (int j = 0; j < size; j++)
        for (int i = 0; i < j + 1; i++)
            MT_CHECK(rb[dsp[j] + i] == val(j, i), "%s Allgatherv_c: rank %d element %d is %d",
                     tag, j, i, rb[dsp[j] + i]);

    for (int i = 0; i < total; i++)
        sb[i] = val(rank, i);
    MT_OK(done(nb ? MPI_Iscatterv_c(sb, cnt, dsp, MPI_INT, rb, rank + 1, MPI_INT, 0,
                                    MPI_COMM_WORLD, &r)
                  : MPI_Scatterv_c(sb, cnt, dsp, MPI_INT, rb, rank + 1, MPI_INT, 0,
                                   MPI_COMM_WORLD), &r, nb));
    for (int i = 0; i < rank + 1; i++)
        MT_CHECK(rb[i] == val(0, dsp[rank] + i), "%s Scatterv_c: element %d is %d", tag, i,
                 rb[i]);

    /* alltoallv: rank j sends j + 1 elements to everyone, receives per cnt */
    MPI_Count *scnt = MTest_Malloc(size * sizeof(MPI_Count));
    MPI_Aint *sdsp = MTest_Malloc(size * sizeof(MPI_Aint));
    for (int j = 0; j < size; j++) {
        scnt[j] = rank + 1;
        sdsp[j] = (MPI_Aint)j * (rank + 1);
    }
    int *sa = MTest_Malloc(size * (rank + 1) * sizeof(int));
    for (int i = 0; i < size * (rank + 1); i++)
        sa[i] = val(rank, i);
    memset(rb, 0xff, total * sizeof(int));
    MT_OK(done(nb ? MPI_Ialltoallv_c(sa, scnt, sdsp, MPI_INT, rb, cnt, dsp, MPI_INT,
                                     MPI_COMM_WORLD, &r)
                  : MPI_Alltoallv_c(sa, scnt, sdsp, MPI_INT, rb, cnt, dsp, MPI_INT,
                                    MPI_COMM_WORLD), &r, nb));
    for (int j = 0; j < size; j++)
        for (int i = 0; i < j + 1; i++)
            MT_CHECK(rb[dsp[j] + i] == val(j, rank * (j + 1) + i),
                     "%s Alltoallv_c: from rank %d element %d is %d", tag, j, i, rb[dsp[j] + i]);

    if (!nb) {
        /* alltoallw: the same exchange, displacements in bytes */
        MPI_Aint *sb_dsp = MTest_Malloc(size * sizeof(MPI_Aint));
        MPI_Aint *rb_dsp = MTest_Malloc(size * sizeof(MPI_Aint));
        MPI_Datatype *ty = MTest_Malloc(size * sizeof(MPI_Datatype));
        for (int j = 0; j < size; j++) {
            sb_dsp[j] = sdsp[j] * (MPI_Aint)sizeof(int);
            rb_dsp[j] = dsp[j] * (MPI_Aint)sizeof(int);
            ty[j] = MPI_INT;
        }
        memset(rb, 0xff, total * sizeof(int));
        MT_OK(MPI_Alltoallw_c(sa, scnt, sb_dsp, ty, rb, cnt, rb_dsp, ty, MPI_COMM_WORLD));
        for (int j = 0; j < size; j++)
            for (int i = 0; i < j + 1; i++)
                MT_CHECK(rb[dsp[j] + i] == val(j, rank * (j + 1) + i),
                         "Alltoallw_c: from rank %d element %d is %d", j, i, rb[dsp[j] + i]);
        free(sb_dsp);
        free(rb_dsp);
        free(ty);
    }
    free(sa);
    free(scnt);
    free(sdsp);
    free(sb);
    free(rb);
    free(cnt);
    free(dsp);
}

static void reductions(int nb, MPI_Op op, const char *opname)
{
    int n = size * B, sb[n], rb[n];
    MPI_Request r;
    const char *tag = nb ? "nonblocking" : "blocking";
    /* the expected sum over ranks lo..hi of element i */
#define FOLD(lo, hi, i, out)                                                               \
    do {                                                                                   \
        out = 0;                                                                           \
        for (int q_ = (lo); q_ <= (hi); q_++)                                              \
            out += val(q_, i);                                                             \
    } while (0)
    for (int i = 0; i < n; i++)
        sb[i] = val(rank, i);

    memset(rb, 0, sizeof(rb));
    MT_OK(done(nb ? MPI_Ireduce_c(sb, rb, n, MPI_INT, op, 0, MPI_COMM_WORLD, &r)
                  : MPI_Reduce_c(sb, rb, n, MPI_INT, op, 0, MPI_COMM_WORLD), &r, nb));
    for (int i = 0, want; rank == 0 && i < n; i++) {
        FOLD(0, size - 1, i, want);
        MT_CHECK(rb[i] == want, "%s Reduce_c(%s): element %d is %d, expected %d", tag, opname,
                 i, rb[i], want);
    }
    memcpy(rb, sb, sizeof(rb));
    MT_OK(done(nb ? MPI_Iallreduce_c(MPI_IN_PLACE, rb, n, MPI_INT, op, MPI_COMM_WORLD, &r)
                  : MPI_Allreduce_c(MPI_IN_PLACE, rb, n, MPI_INT, op, MPI_COMM_WORLD), &r, nb));
    for (int i = 0, want; i < n; i++) {
        FOLD(0, size - 1, i, want);
        MT_CHECK(rb[i] == want, "%s Allreduce_c(%s): element %d is %d, expected %d", tag,
                 opname, i, rb[i], want);
    }
    MT_OK(done(nb ? MPI_Iscan_c(sb, rb, n, MPI_INT, op, MPI_COMM_WORLD, &r)
                  : MPI_Scan_c(sb, rb, n, MPI_INT, op, MPI_COMM_WORLD), &r, nb));
    for (int i = 0, want; i < n; i++) {
        FOLD(0, rank, i, want);
        MT_CHECK(rb[i] == want, "%s Scan_c(%s): element %d is %d, expected %d", tag, opname, i,
                 rb[i], want);
    }
    MT_OK(done(nb ? MPI_Iexscan_c(sb, rb, n, MPI_INT, op, MPI_COMM_WORLD, &r)
                  : MPI_Exscan_c(sb, rb, n, MPI_INT, op, MPI_COMM_WORLD), &r, nb));
    for (int i = 0, want; rank > 0 && i < n; i++) {
        FOLD(0, rank - 1, i, want);
        MT_CHECK(rb[i] == want, "%s Exscan_c(%s): element %d is %d, expected %d", tag, opname,
                 i, rb[i], want);
    }
    MT_OK(done(nb ? MPI_Ireduce_scatter_block_c(sb, rb, B, MPI_INT, op, MPI_COMM_WORLD, &r)
                  : MPI_Reduce_scatter_block_c(sb, rb, B, MPI_INT, op, MPI_COMM_WORLD), &r, nb));
    for (int i = 0, want; i < B; i++) {
        FOLD(0, size - 1, rank * B + i, want);
        MT_CHECK(rb[i] == want, "%s Reduce_scatter_block_c(%s): element %d is %d, expected %d",
                 tag, opname, i, rb[i], want);
    }
    /* reduce_scatter: rank j gets j + 1 elements */
    MPI_Count *cnt = MTest_Malloc(size * sizeof(MPI_Count));
    int off = 0;
    for (int j = 0; j < size; j++) {
        cnt[j] = j + 1;
        if (j < rank)
            off += j + 1;
    }
    MT_OK(done(nb ? MPI_Ireduce_scatter_c(sb, rb, cnt, MPI_INT, op, MPI_COMM_WORLD, &r)
                  : MPI_Reduce_scatter_c(sb, rb, cnt, MPI_INT, op, MPI_COMM_WORLD), &r, nb));
    for (int i = 0, want; i < rank + 1; i++) {
        FOLD(0, size - 1, off + i, want);
        MT_CHECK(rb[i] == want, "%s Reduce_scatter_c(%s): element %d is %d, expected %d", tag,
                 opname, i, rb[i], want);
    }
    free(cnt);
#undef FOLD
}

static void local(MPI_Op op)
{
    int a[B], b[B];
    for (int i = 0; i < B; i++) {
        a[i] = 10 + i;
        b[i] = i;
    }
    lens_seen = 0;
    MT_OK(MPI_Reduce_local_c(a, b, B, MPI_INT, op));
    for (int i = 0; i < B; i++)
        MT_CHECK(b[i] == 10 + 2 * i, "Reduce_local_c: element %d is %d", i, b[i]);
    MT_CHECK(lens_seen == B, "the user op saw length %lld, expected %d", (long long)lens_seen, B);
}

static void errors(void)
{
    int x[8] = { 0 };
    MPI_Count *cnt = MTest_Malloc(size * sizeof(MPI_Count));
    MPI_Aint *dsp = MTest_Malloc(size * sizeof(MPI_Aint));
    MPI_Request r;
    for (int j = 0; j < size; j++) {
        cnt[j] = 1;
        dsp[j] = j;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_ERRCLASS(MPI_Bcast_c(x, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
                "Bcast_c with a negative count");
    MT_ERRCLASS(MPI_Iallreduce_c(x, x + 4, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r),
                MPI_ERR_COUNT, "Iallreduce_c with a negative count");
    if (!rdmpi_limits())
        goto out;
    /* the collective layer takes int counts per rank: more is an error */
    cnt[size - 1] = (MPI_Count)INT_MAX + 1;
    MT_ERRCLASS(MPI_Alltoallv_c(x, cnt, dsp, MPI_INT, x + 4, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_COUNT, "Alltoallv_c with a count above INT_MAX");
    MT_ERRCLASS(MPI_Iallgatherv_c(x, 1, MPI_INT, x + 4, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &r),
                MPI_ERR_COUNT, "Iallgatherv_c with a count above INT_MAX");
    cnt[size - 1] = 1;
    dsp[size - 1] = (MPI_Aint)INT_MAX * 4;
    MT_ERRCLASS(MPI_Allgatherv_c(x, 1, MPI_INT, x + 4, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_ARG, "Allgatherv_c with a displacement above INT_MAX");
    cnt[0] = -1;
    dsp[size - 1] = size - 1;
    MT_ERRCLASS(MPI_Reduce_scatter_c(x, x + 4, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                MPI_ERR_COUNT, "Reduce_scatter_c with a negative count");
out:
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(cnt);
    free(dsp);
    MTest_Check_comm_works(MPI_COMM_WORLD, "after the argument errors");
}

int main(int argc, char **argv)
{
    MPI_Op op;
    MTest_Init(&argc, &argv);
    rank = MTest_rank;
    size = MTest_size;
    MT_OK(MPI_Op_create_c(user_op, 0, &op));
    for (int nb = 0; nb < 2; nb++) {
        rank_blocks(nb);
        v_blocks(nb);
        reductions(nb, MPI_SUM, "MPI_SUM");
        reductions(nb, op, "user op");
    }
    local(op);
    MT_OK(MPI_Op_free(&op));
    errors();
    return MTest_Finalize();
}
