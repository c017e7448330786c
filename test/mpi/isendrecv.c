/*
 * isendrecv: MPI_Isendrecv, MPI_Isendrecv_replace (MPI-4.0 section 3.10.2)
 * and MPI_Ialltoallw, with their _c forms. Isendrecv shifts a ring both ways
 * and matches ordinary MPI_Send / MPI_Recv traffic (the same tags and
 * communicator); its status is the receive's (source, tag, count).
 * Isendrecv_replace swaps a strided buffer in place, from MPI_PROC_NULL too;
 * both complete under MPI_Test, MPI_Waitall and after MPI_Request_free. A
 * collective started while one is pending is not disturbed (they take no
 * collective tag). Ialltoallw exchanges blocks of different types and
 * counts, in place too. Then the argument errors and a truncated receive.
 */
#include "err_common.h"

#include <limits.h>
#include <stdlib.h>

static int n, me;
static MPI_Comm world = MPI_COMM_WORLD;

static void t_isendrecv(void)
{
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int sv[3], rv[4] = { -1, -1, -1, -1 };
    MPI_Request r;
    MPI_Status st;
    for (int i = 0; i < 3; i++)
        sv[i] = 100 * me + i;
    MT_OK(MPI_Isendrecv(sv, 3, MPI_INT, right, 7, rv, 4, MPI_INT, left, 7, world, &r));
    /* a collective in between: the pending call must not take its messages */
    int sum = 0;
    MT_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, world));
    MT_CHECK(sum == n * (n - 1) / 2, "allreduce during Isendrecv: %d", sum);
    MT_OK(MPI_Wait(&r, &st));
    MT_CHECK(r == MPI_REQUEST_NULL, "Isendrecv request not freed by its wait");
    for (int i = 0; i < 3; i++)
        MT_CHECK(rv[i] == 100 * left + i, "Isendrecv [%d]: %d", i, rv[i]);
    MT_CHECK(rv[3] == -1, "Isendrecv wrote past the message");
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 7 && cnt == 3,
             "Isendrecv status: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, cnt);

    /* against plain point-to-point: left sends with MPI_Send, right receives
     * with MPI_Recv, MPI_ANY_SOURCE / MPI_ANY_TAG on our side */
    int x = -1, y = 1000 + me, z = -1;
    MT_OK(MPI_Isendrecv_c(&y, 1, MPI_INT, right, 9, &x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                          world, &r));
    MT_OK(MPI_Sendrecv(&y, 1, MPI_INT, right, 11, &z, 1, MPI_INT, left, 11, world,
                       MPI_STATUS_IGNORE));
    int flag = 0;
    while (!flag)
        MT_OK(MPI_Test(&r, &flag, &st));
    MT_CHECK(x == 1000 + left && z == 1000 + left, "Isendrecv_c: %d, Sendrecv: %d", x, z);
    MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 9, "Isendrecv_c status: %d %d",
             st.MPI_SOURCE, st.MPI_TAG);

    /* MPI_PROC_NULL on both sides */
    x = -5;
    MT_OK(MPI_Isendrecv(&y, 1, MPI_INT, MPI_PROC_NULL, 0, &x, 1, MPI_INT, MPI_PROC_NULL, 0, world,
                        &r));
    MT_OK(MPI_Wait(&r, &st));
    MT_CHECK(x == -5 && st.MPI_SOURCE == MPI_PROC_NULL, "Isendrecv from MPI_PROC_NULL: %d %d", x,
             st.MPI_SOURCE);

    /* freed while active: completes on its own */
    MT_OK(MPI_Isendrecv(&y, 1, MPI_INT, right, 12, &x, 1, MPI_INT, left, 12, world, &r));
    MT_OK(MPI_Request_free(&r));
    MT_OK(MPI_Barrier(world));
}

static void t_replace(void)
{
    int right = (me + 1) % n, left = (me + n - 1) % n;
    /* every other int of 8: a strided type */
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int buf[8], b2[8];
    MPI_Request r[2];
    for (int i = 0; i < 8; i++) {
        buf[i] = 10 * me + i;
        b2[i] = 500 + me;
    }
    MT_OK(MPI_Isendrecv_replace(buf, 1, vec, right, 3, left, 3, world, &r[0]));
    MT_OK(MPI_Isendrecv_replace_c(b2, 2, MPI_INT, left, 4, right, 4, world, &r[1]));
    MT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 8; i++)
        MT_CHECK(buf[i] == (i % 2 ? 10 * me + i : 10 * left + i), "Isendrecv_replace [%d]: %d",
                 i, buf[i]);
    MT_CHECK(b2[0] == 500 + right && b2[1] == 500 + right && b2[2] == 500 + me,
             "Isendrecv_replace_c: %d %d %d", b2[0], b2[1], b2[2]);
    MPI_Status st;
    MT_OK(MPI_Isendrecv_replace(buf, 1, vec, MPI_PROC_NULL, 0, MPI_PROC_NULL, 0, world, &r[0]));
    MT_OK(MPI_Wait(&r[0], &st));
    MT_CHECK(buf[0] == 10 * left && st.MPI_SOURCE == MPI_PROC_NULL,
             "Isendrecv_replace with MPI_PROC_NULL changed the buffer");
    MPI_Type_free(&vec);
}

/* Rank s sends rank d 2 (min(s, d) + 1) ints of value 1000 s + d. */
static void t_ialltoallw(int in_place)
{
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int *scnt = malloc(sizeof(int) * (size_t)n), *sdsp = malloc(sizeof(int) * (size_t)n);
    int *rcnt = malloc(sizeof(int) * (size_t)n), *rdsp = malloc(sizeof(int) * (size_t)n);
    MPI_Count *cs = malloc(sizeof(MPI_Count) * (size_t)n);
    MPI_Count *cr = malloc(sizeof(MPI_Count) * (size_t)n);
    MPI_Aint *as = malloc(sizeof(MPI_Aint) * (size_t)n), *ar = malloc(sizeof(MPI_Aint) * (size_t)n);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)n);
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * (size_t)n);
    int total = 0;
    for (int d = 0; d < n; d++)
        total += 2 * (d + 1) + 2 * (me + 1);
    int *sb = malloc(sizeof(int) * (size_t)total), *rb = malloc(sizeof(int) * (size_t)total);
    int off = 0;
    for (int d = 0; d < n; d++) {
        /* 2k ints each way between me and d; odd ranks describe them as k
         * pairs (the type signatures still match) */
        int k = (me < d ? me : d) + 1;
        st[d] = rt[d] = (me & 1) ? pair : MPI_INT;
        scnt[d] = rcnt[d] = (me & 1) ? k : 2 * k;
        sdsp[d] = rdsp[d] = (int)(off * sizeof(int));
        for (int i = 0; i < 2 * k; i++) {
            sb[off + i] = 1000 * me + d;
            rb[off + i] = in_place ? 1000 * me + d : -1;
        }
        off += 2 * k;
        cs[d] = scnt[d];
        cr[d] = rcnt[d];
        as[d] = sdsp[d];
        ar[d] = rdsp[d];
    }
    MPI_Request r;
    if (in_place)
        MT_OK(MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, rb, rcnt, rdsp, rt, world, &r));
    else if (me & 1)
        MT_OK(MPI_Ialltoallw_c(sb, cs, as, st, rb, cr, ar, rt, world, &r));
    else
        MT_OK(MPI_Ialltoallw(sb, scnt, sdsp, st, rb, rcnt, rdsp, rt, world, &r));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    off = 0;
    for (int s = 0; s < n; s++) {
        int k = (me < s ? me : s) + 1;
        for (int i = 0; i < 2 * k; i++)
            MT_CHECK(rb[off + i] == 1000 * s + me, "Ialltoallw%s from %d [%d]: %d",
                     in_place ? " in place" : "", s, i, rb[off + i]);
        off += 2 * k;
    }
    MPI_Type_free(&pair);
    free(scnt);
    free(sdsp);
    free(rcnt);
    free(rdsp);
    free(cs);
    free(cr);
    free(as);
    free(ar);
    free(st);
    free(rt);
    free(sb);
    free(rb);
}

static void t_errors(void)
{
    int x = 0, y = 0, one = 1, z = 0;
    MPI_Datatype t = MPI_INT;
    MPI_Request r = MPI_REQUEST_NULL;
    MT_ERRCLASS(MPI_Isendrecv(&x, 1, MPI_INT, n, 0, &y, 1, MPI_INT, 0, 0, world, &r), MPI_ERR_RANK,
                "Isendrecv dest = size");
    MT_ERRCLASS(MPI_Isendrecv(&x, 1, MPI_INT, 0, -1, &y, 1, MPI_INT, 0, 0, world, &r),
                MPI_ERR_TAG, "Isendrecv send tag -1");
    MT_ERRCLASS(MPI_Isendrecv(&x, -1, MPI_INT, 0, 0, &y, 1, MPI_INT, 0, 0, world, &r),
                MPI_ERR_COUNT, "Isendrecv count -1");
    MT_ERRCLASS(MPI_Isendrecv(&x, 1, MPI_INT, 0, 0, &y, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r),
                MPI_ERR_COMM, "Isendrecv MPI_COMM_NULL");
    MT_ERRCLASS(MPI_Isendrecv_replace(&x, 1, MPI_DATATYPE_NULL, 0, 0, 0, 0, world, &r),
                MPI_ERR_TYPE, "Isendrecv_replace MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Ialltoallw(&x, &one, &z, &t, &y, &one, &z, &t, MPI_COMM_NULL, &r),
                MPI_ERR_COMM, "Ialltoallw MPI_COMM_NULL");
    int *neg = malloc(sizeof(int) * (size_t)n), *zero = calloc((size_t)n, sizeof(int));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int i = 0; i < n; i++) {
        neg[i] = -1;
        types[i] = MPI_INT;
    }
    MT_ERRCLASS(MPI_Ialltoallw(&x, neg, zero, types, &y, zero, zero, types, world, &r),
                MPI_ERR_COUNT, "Ialltoallw negative send count");
    types[0] = MPI_DATATYPE_NULL;
    MT_ERRCLASS(MPI_Ialltoallw(&x, zero, zero, types, &y, zero, zero, types, world, &r),
                MPI_ERR_TYPE, "Ialltoallw MPI_DATATYPE_NULL");
    /* the receive's truncation is the request's error */
    int big[3] = { 1, 2, 3 }, small = 0;
    MT_OK(MPI_Isendrecv(big, 3, MPI_INT, (me + 1) % n, 20, &small, 1, MPI_INT, (me + n - 1) % n,
                        20, world, &r));
    MT_ERRCLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, "Isendrecv into a short buffer");
#ifdef RDMPI
    MT_ERRCLASS(MPI_Isendrecv_c(&x, (MPI_Count)INT_MAX + 1, MPI_INT, 0, 0, &y, 1, MPI_INT, 0, 0,
                                world, &r),
                MPI_ERR_COUNT, "Isendrecv_c count beyond INT_MAX");
#endif
    MT_CHECK(r == MPI_REQUEST_NULL, "a failed call set the request");
    free(neg);
    free(zero);
    free(types);
    MTest_Check_comm_works(world, "after the errors");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    n = MTest_size;
    me = MTest_rank;
    t_isendrecv();
    t_replace();
    t_ialltoallw(0);
    t_ialltoallw(1);
    errors_return();
    t_errors();
    return MTest_Finalize();
}
