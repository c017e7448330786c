/*
 * pcoll: persistent collectives (MPI-4.0 section 5.13). Every *_init request
 * is started several times with new data each time and its results checked;
 * the request stays allocated and inactive between starts (a wait on it
 * returns at once with an empty status) until MPI_Request_free. MPI_Startall
 * mixes persistent collectives with persistent point-to-point requests;
 * ranks may start them in different orders (they match by init order); and
 * completion by MPI_Test, MPI_Testall and MPI_Waitall works as for those.
 * The _c forms give the same results as the int ones. Argument errors are
 * reported at init (invalid root, count, datatype, op, info, request
 * pointer; a neighbourhood collective without a topology), starting an
 * active request and freeing an active one fail with MPI_ERR_REQUEST.
 */
#include "err_common.h"

#include <limits.h>
#include <stdlib.h>

#define ITERS 3

static int n, me;
static MPI_Comm world = MPI_COMM_WORLD;

/* The value rank r contributes at element i in iteration it. */
static int val(int r, int i, int it)
{
    return 1000 * it + 10 * r + i + 1;
}

/* Starts r and completes it with MPI_Test (by_test) or MPI_Wait; the
 * request must still be there afterwards, inactive. */
static void run(MPI_Request *r, int by_test, const char *what)
{
    MT_OK(MPI_Start(r));
    if (by_test) {
        int flag = 0;
        while (!flag)
            MT_OK(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
    } else {
        MT_OK(MPI_Wait(r, MPI_STATUS_IGNORE));
    }
    MT_CHECK(*r != MPI_REQUEST_NULL, "%s: the persistent request was freed by its completion",
             what);
}

static void done(MPI_Request *r, const char *what)
{
    MPI_Status st;
    /* inactive: returns at once with an empty status */
    MT_OK(MPI_Wait(r, &st));
    MT_CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG,
             "%s: inactive wait gave source %d tag %d", what, st.MPI_SOURCE, st.MPI_TAG);
    MT_OK(MPI_Request_free(r));
    MT_CHECK(*r == MPI_REQUEST_NULL, "%s: MPI_Request_free left the handle set", what);
}

static void t_barrier_bcast(void)
{
    MPI_Request rb, rc;
    int buf[5], root = n - 1;
    MPI_Count five = 5;
    MT_OK(MPI_Barrier_init(world, MPI_INFO_NULL, &rb));
    MT_OK(MPI_Bcast_init_c(buf, five, MPI_INT, root, world, MPI_INFO_NULL, &rc));
    for (int it = 0; it < ITERS; it++) {
        run(&rb, it & 1, "Barrier_init");
        for (int i = 0; i < 5; i++)
            buf[i] = me == root ? val(root, i, it) : -1;
        run(&rc, it & 1, "Bcast_init_c");
        for (int i = 0; i < 5; i++)
            MT_CHECK(buf[i] == val(root, i, it), "Bcast it %d [%d]: %d", it, i, buf[i]);
    }
    done(&rb, "Barrier_init");
    done(&rc, "Bcast_init_c");
}

static void t_rooted(void)
{
    int root = n / 2, sb[2], *rb = malloc(sizeof(int) * 2 * (size_t)n);
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    int *all = malloc(sizeof(int) * 2 * (size_t)n), rv[2];
    for (int i = 0; i < n; i++) {
        counts[i] = 1 + (i & 1);
        displs[i] = 2 * (n - 1 - i); /* blocks in reverse order */
    }
    MPI_Request g, gv, s, sv;
    MT_OK(MPI_Gather_init(sb, 2, MPI_INT, rb, 2, MPI_INT, root, world, MPI_INFO_NULL, &g));
    MT_OK(MPI_Gatherv_init(sb, counts[me], MPI_INT, rb, counts, displs, MPI_INT, root, world,
                           MPI_INFO_NULL, &gv));
    MT_OK(MPI_Scatter_init(all, 2, MPI_INT, rv, 2, MPI_INT, root, world, MPI_INFO_NULL, &s));
    MT_OK(MPI_Scatterv_init(all, counts, displs, MPI_INT, rv, counts[me], MPI_INT, root, world,
                            MPI_INFO_NULL, &sv));
    /* the arrays were copied at init */
    for (int i = 0; i < n; i++)
        counts[i] = displs[i] = -7;
    for (int it = 0; it < ITERS; it++) {
        sb[0] = val(me, 0, it);
        sb[1] = val(me, 1, it);
        for (int i = 0; i < 2 * n; i++)
            rb[i] = -1;
        run(&g, 0, "Gather_init");
        for (int r = 0; me == root && r < n; r++)
            for (int i = 0; i < 2; i++)
                MT_CHECK(rb[2 * r + i] == val(r, i, it), "Gather it %d from %d [%d]: %d", it, r,
                         i, rb[2 * r + i]);
        for (int i = 0; i < 2 * n; i++)
            rb[i] = -1;
        run(&gv, 1, "Gatherv_init");
        for (int r = 0; me == root && r < n; r++)
            for (int i = 0; i < 1 + (r & 1); i++)
                MT_CHECK(rb[2 * (n - 1 - r) + i] == val(r, i, it), "Gatherv it %d from %d [%d]: %d",
                         it, r, i, rb[2 * (n - 1 - r) + i]);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < 2; i++)
                all[2 * r + i] = me == root ? val(r, i, it) : -1;
        rv[0] = rv[1] = -1;
        run(&s, 0, "Scatter_init");
        MT_CHECK(rv[0] == val(me, 0, it) && rv[1] == val(me, 1, it), "Scatter it %d: %d %d", it,
                 rv[0], rv[1]);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < 2; i++)
                all[2 * (n - 1 - r) + i] = me == root ? val(r, i, it) : -1;
        rv[0] = rv[1] = -1;
        run(&sv, 1, "Scatterv_init");
        for (int i = 0; i < 1 + (me & 1); i++)
            MT_CHECK(rv[i] == val(me, i, it), "Scatterv it %d [%d]: %d", it, i, rv[i]);
    }
    done(&g, "Gather_init");
    done(&gv, "Gatherv_init");
    done(&s, "Scatter_init");
    done(&sv, "Scatterv_init");
    free(rb);
    free(counts);
    free(displs);
    free(all);
}

static void t_all(void)
{
    int *sb = malloc(sizeof(int) * 2 * (size_t)n), *rb = malloc(sizeof(int) * 8 * (size_t)n);
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    MPI_Count *cc = malloc(sizeof(MPI_Count) * (size_t)n);
    MPI_Aint *cd = malloc(sizeof(MPI_Aint) * (size_t)n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
    int *wd = malloc(sizeof(int) * (size_t)n), *wd2 = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        sc[i] = 1;
        sd[i] = i;
        cc[i] = 1;
        cd[i] = i;
        types[i] = MPI_INT;
        wd[i] = (int)(i * sizeof(int));
        wd2[i] = (int)((n - 1 - i) * sizeof(int));
    }
    MPI_Request ag, agv, a2a, a2av, a2aw;
    MT_OK(MPI_Allgather_init(sb, 2, MPI_INT, rb, 2, MPI_INT, world, MPI_INFO_NULL, &ag));
    MT_OK(MPI_Allgatherv_init_c(sb, 1, MPI_INT, rb, cc, cd, MPI_INT, world, MPI_INFO_NULL, &agv));
    MT_OK(MPI_Alltoall_init(sb, 1, MPI_INT, rb, 1, MPI_INT, world, MPI_INFO_NULL, &a2a));
    MT_OK(MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rb, sc, sd, MPI_INT, world, MPI_INFO_NULL,
                             &a2av));
    /* receive blocks in reverse order */
    MT_OK(MPI_Alltoallw_init(sb, sc, wd, types, rb, sc, wd2, types, world, MPI_INFO_NULL, &a2aw));
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < 2 * n; i++)
            sb[i] = val(me, i, it);
        for (int i = 0; i < 8 * n; i++)
            rb[i] = -1;
        run(&ag, 0, "Allgather_init");
        for (int r = 0; r < n; r++)
            MT_CHECK(rb[2 * r] == val(r, 0, it) && rb[2 * r + 1] == val(r, 1, it),
                     "Allgather it %d from %d", it, r);
        run(&agv, 1, "Allgatherv_init_c");
        for (int r = 0; r < n; r++)
            MT_CHECK(rb[r] == val(r, 0, it), "Allgatherv it %d from %d: %d", it, r, rb[r]);
        for (int i = 0; i < n; i++)
            sb[i] = val(me, i, it);
        run(&a2a, 0, "Alltoall_init");
        for (int r = 0; r < n; r++)
            MT_CHECK(rb[r] == val(r, me, it), "Alltoall it %d from %d: %d", it, r, rb[r]);
        for (int i = 0; i < n; i++)
            rb[i] = -1;
        run(&a2av, 1, "Alltoallv_init");
        for (int r = 0; r < n; r++)
            MT_CHECK(rb[r] == val(r, me, it), "Alltoallv it %d from %d: %d", it, r, rb[r]);
        for (int i = 0; i < n; i++)
            rb[i] = -1;
        run(&a2aw, 0, "Alltoallw_init");
        for (int r = 0; r < n; r++)
            MT_CHECK(rb[n - 1 - r] == val(r, me, it), "Alltoallw it %d from %d: %d", it, r,
                     rb[n - 1 - r]);
    }
    done(&ag, "Allgather_init");
    done(&agv, "Allgatherv_init_c");
    done(&a2a, "Alltoall_init");
    done(&a2av, "Alltoallv_init");
    done(&a2aw, "Alltoallw_init");
    free(sb);
    free(rb);
    free(sc);
    free(sd);
    free(cc);
    free(cd);
    free(types);
    free(wd);
    free(wd2);
}

static void t_reductions(void)
{
    int sb[3], rb[3], ip[3], *rcounts = malloc(sizeof(int) * (size_t)n);
    int *big = malloc(sizeof(int) * 2 * (size_t)n);
    for (int i = 0; i < n; i++)
        rcounts[i] = 2;
    MPI_Request red, ar, arip, scan, exscan, rs, rsb;
    MT_OK(MPI_Reduce_init(sb, rb, 3, MPI_INT, MPI_SUM, 0, world, MPI_INFO_NULL, &red));
    MT_OK(MPI_Allreduce_init_c(sb, rb, 3, MPI_INT, MPI_MAX, world, MPI_INFO_NULL, &ar));
    MT_OK(MPI_Allreduce_init(MPI_IN_PLACE, ip, 3, MPI_INT, MPI_SUM, world, MPI_INFO_NULL, &arip));
    MT_OK(MPI_Scan_init(sb, rb, 3, MPI_INT, MPI_SUM, world, MPI_INFO_NULL, &scan));
    MT_OK(MPI_Exscan_init(sb, rb, 3, MPI_INT, MPI_SUM, world, MPI_INFO_NULL, &exscan));
    MT_OK(MPI_Reduce_scatter_init(big, rb, rcounts, MPI_INT, MPI_SUM, world, MPI_INFO_NULL, &rs));
    MT_OK(MPI_Reduce_scatter_block_init(big, rb, 2, MPI_INT, MPI_SUM, world, MPI_INFO_NULL, &rsb));
    for (int it = 0; it < ITERS; it++) {
        int sum[3] = { 0 }, pre[3] = { 0 };
        for (int i = 0; i < 3; i++) {
            sb[i] = val(me, i, it);
            ip[i] = sb[i];
            for (int r = 0; r < n; r++)
                sum[i] += val(r, i, it);
            for (int r = 0; r < me; r++)
                pre[i] += val(r, i, it);
        }
        rb[0] = rb[1] = rb[2] = -1;
        run(&red, 0, "Reduce_init");
        for (int i = 0; me == 0 && i < 3; i++)
            MT_CHECK(rb[i] == sum[i], "Reduce it %d [%d]: %d, want %d", it, i, rb[i], sum[i]);
        run(&ar, 1, "Allreduce_init_c");
        for (int i = 0; i < 3; i++)
            MT_CHECK(rb[i] == val(n - 1, i, it), "Allreduce(MAX) it %d [%d]: %d", it, i, rb[i]);
        run(&arip, 0, "Allreduce_init in place");
        for (int i = 0; i < 3; i++)
            MT_CHECK(ip[i] == sum[i], "Allreduce in place it %d [%d]: %d", it, i, ip[i]);
        run(&scan, 1, "Scan_init");
        for (int i = 0; i < 3; i++)
            MT_CHECK(rb[i] == pre[i] + sb[i], "Scan it %d [%d]: %d", it, i, rb[i]);
        run(&exscan, 0, "Exscan_init");
        for (int i = 0; me > 0 && i < 3; i++)
            MT_CHECK(rb[i] == pre[i], "Exscan it %d [%d]: %d", it, i, rb[i]);
        for (int i = 0; i < 2 * n; i++)
            big[i] = val(me, i, it);
        run(&rs, 1, "Reduce_scatter_init");
        for (int i = 0; i < 2; i++) {
            int want = 0;
            for (int r = 0; r < n; r++)
                want += val(r, 2 * me + i, it);
            MT_CHECK(rb[i] == want, "Reduce_scatter it %d [%d]: %d, want %d", it, i, rb[i], want);
        }
        rb[0] = rb[1] = -1;
        run(&rsb, 0, "Reduce_scatter_block_init");
        for (int i = 0; i < 2; i++) {
            int want = 0;
            for (int r = 0; r < n; r++)
                want += val(r, 2 * me + i, it);
            MT_CHECK(rb[i] == want, "Reduce_scatter_block it %d [%d]: %d", it, i, rb[i]);
        }
    }
    done(&red, "Reduce_init");
    done(&ar, "Allreduce_init_c");
    done(&arip, "Allreduce_init in place");
    done(&scan, "Scan_init");
    done(&exscan, "Exscan_init");
    done(&rs, "Reduce_scatter_init");
    done(&rsb, "Reduce_scatter_block_init");
    free(rcounts);
    free(big);
}

/* The other _c forms, one element per rank and block, started twice. */
static void t_large(void)
{
    size_t N = (size_t)n;
    int *sb = malloc(sizeof(int) * N), *rb = malloc(sizeof(int) * N), one, got;
    MPI_Count *cnt = malloc(sizeof(MPI_Count) * N);
    MPI_Aint *dsp = malloc(sizeof(MPI_Aint) * N), *bdsp = malloc(sizeof(MPI_Aint) * N);
    MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * N);
    for (int i = 0; i < n; i++) {
        cnt[i] = 1;
        dsp[i] = n - 1 - i; /* reverse order */
        bdsp[i] = (MPI_Aint)((size_t)(n - 1 - i) * sizeof(int));
        ty[i] = MPI_INT;
    }
    enum { GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLTOALL, ALLTOALLV, ALLTOALLW, REDUCE,
           REDSCAT, REDSCAT_BLOCK, SCAN, EXSCAN, NCASES };
    MPI_Request r[NCASES];
    MPI_Info ni = MPI_INFO_NULL;
    int root = n - 1;
    MT_OK(MPI_Gather_init_c(&one, 1, MPI_INT, rb, 1, MPI_INT, root, world, ni, &r[GATHER]));
    MT_OK(MPI_Gatherv_init_c(&one, 1, MPI_INT, rb, cnt, dsp, MPI_INT, root, world, ni,
                             &r[GATHERV]));
    MT_OK(MPI_Scatter_init_c(sb, 1, MPI_INT, &got, 1, MPI_INT, root, world, ni, &r[SCATTER]));
    MT_OK(MPI_Scatterv_init_c(sb, cnt, dsp, MPI_INT, &got, 1, MPI_INT, root, world, ni,
                              &r[SCATTERV]));
    MT_OK(MPI_Allgather_init_c(&one, 1, MPI_INT, rb, 1, MPI_INT, world, ni, &r[ALLGATHER]));
    MT_OK(MPI_Alltoall_init_c(sb, 1, MPI_INT, rb, 1, MPI_INT, world, ni, &r[ALLTOALL]));
    MT_OK(MPI_Alltoallv_init_c(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, world, ni,
                               &r[ALLTOALLV]));
    MT_OK(MPI_Alltoallw_init_c(sb, cnt, bdsp, ty, rb, cnt, bdsp, ty, world, ni, &r[ALLTOALLW]));
    MT_OK(MPI_Reduce_init_c(&one, &got, 1, MPI_INT, MPI_SUM, root, world, ni, &r[REDUCE]));
    MT_OK(MPI_Reduce_scatter_init_c(sb, &got, cnt, MPI_INT, MPI_SUM, world, ni, &r[REDSCAT]));
    MT_OK(MPI_Reduce_scatter_block_init_c(sb, &got, 1, MPI_INT, MPI_SUM, world, ni,
                                          &r[REDSCAT_BLOCK]));
    MT_OK(MPI_Scan_init_c(&one, &got, 1, MPI_INT, MPI_SUM, world, ni, &r[SCAN]));
    MT_OK(MPI_Exscan_init_c(&one, &got, 1, MPI_INT, MPI_SUM, world, ni, &r[EXSCAN]));
    for (int it = 0; it < 2; it++) {
        for (int k = 0; k < NCASES; k++) {
            one = val(me, 0, it);
            got = -1;
            for (int i = 0; i < n; i++) {
                sb[i] = val(me, i, it);
                rb[i] = -1;
            }
            run(&r[k], it, "a _c form");
            for (int i = 0; i < n; i++) {
                int rev = n - 1 - i, sum = 0;
                for (int q = 0; q < n; q++)
                    sum += val(q, me, it);
                switch (k) {
                case GATHER:
                case ALLGATHER:
                    if (k == ALLGATHER || me == root)
                        MT_CHECK(rb[i] == val(i, 0, it), "case %d it %d [%d]: %d", k, it, i,
                                 rb[i]);
                    break;
                case GATHERV:
                    if (me == root)
                        MT_CHECK(rb[rev] == val(i, 0, it), "Gatherv_init_c it %d [%d]: %d", it,
                                 i, rb[rev]);
                    break;
                case SCATTER:
                    MT_CHECK(got == val(root, me, it), "Scatter_init_c it %d: %d", it, got);
                    break;
                case SCATTERV:
                    MT_CHECK(got == val(root, n - 1 - me, it), "Scatterv_init_c it %d: %d", it,
                             got);
                    break;
                case ALLTOALL:
                    MT_CHECK(rb[i] == val(i, me, it), "Alltoall_init_c it %d [%d]: %d", it, i,
                             rb[i]);
                    break;
                case ALLTOALLV:
                case ALLTOALLW:
                    /* block i goes to rank n-1-i and lands at n-1-source */
                    MT_CHECK(rb[rev] == val(i, n - 1 - me, it), "case %d it %d [%d]: %d", k, it,
                             i, rb[rev]);
                    break;
                case REDSCAT:
                case REDSCAT_BLOCK:
                    MT_CHECK(got == sum, "case %d it %d: %d, want %d", k, it, got, sum);
                    break;
                }
            }
            int sum = 0;
            for (int q = 0; q < n; q++)
                sum += val(q, 0, it);
            if (k == REDUCE && me == root)
                MT_CHECK(got == sum, "Reduce_init_c it %d: %d, want %d", it, got, sum);
            int pre = 0;
            for (int q = 0; q < me; q++)
                pre += val(q, 0, it);
            if (k == SCAN)
                MT_CHECK(got == pre + one, "Scan_init_c it %d: %d", it, got);
            if (k == EXSCAN && me > 0)
                MT_CHECK(got == pre, "Exscan_init_c it %d: %d", it, got);
        }
    }
    for (int k = 0; k < NCASES; k++)
        MT_OK(MPI_Request_free(&r[k]));
    free(sb);
    free(rb);
    free(cnt);
    free(dsp);
    free(bdsp);
    free(ty);
}

/* MPI_Startall over a persistent allreduce and a persistent ring exchange;
 * MPI_Waitall and MPI_Testall complete them. */
static void t_startall(void)
{
    int a = 0, s = 0, rv = -1, rsum = 0;
    int right = (me + 1) % n, left = (me + n - 1) % n;
    MPI_Request req[3];
    MT_OK(MPI_Recv_init(&rv, 1, MPI_INT, left, 5, world, &req[0]));
    MT_OK(MPI_Allreduce_init(&a, &rsum, 1, MPI_INT, MPI_SUM, world, MPI_INFO_NULL, &req[1]));
    MT_OK(MPI_Send_init(&s, 1, MPI_INT, right, 5, world, &req[2]));
    for (int it = 0; it < 4; it++) {
        a = val(me, 0, it);
        s = val(me, 1, it);
        rv = rsum = -1;
        MT_OK(MPI_Startall(3, req));
        if (it & 1) {
            int flag = 0;
            while (!flag)
                MT_OK(MPI_Testall(3, req, &flag, MPI_STATUSES_IGNORE));
        } else {
            MT_OK(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
        }
        int want = 0;
        for (int r = 0; r < n; r++)
            want += val(r, 0, it);
        MT_CHECK(rsum == want, "Startall it %d: allreduce %d, want %d", it, rsum, want);
        MT_CHECK(rv == val(left, 1, it), "Startall it %d: received %d from %d", it, rv, left);
    }
    for (int i = 0; i < 3; i++)
        MT_OK(MPI_Request_free(&req[i]));
}

/* Persistent collectives match in the order of their init calls: ranks
 * start them in different orders, and a blocking collective in between
 * does not disturb them. */
static void t_order(void)
{
    int a = -1, b = -1, sum = 0;
    MPI_Request req[3];
    MT_OK(MPI_Bcast_init(&a, 1, MPI_INT, 0, world, MPI_INFO_NULL, &req[0]));
    MT_OK(MPI_Barrier_init(world, MPI_INFO_NULL, &req[1]));
    MT_OK(MPI_Bcast_init(&b, 1, MPI_INT, n - 1, world, MPI_INFO_NULL, &req[2]));
    for (int it = 0; it < ITERS; it++) {
        a = me == 0 ? val(0, 0, it) : -1;
        b = me == n - 1 ? val(n - 1, 1, it) : -1;
        if (me % 2 == 0) {
            for (int i = 0; i < 3; i++)
                MT_OK(MPI_Start(&req[i]));
        } else {
            MPI_Request rev[3] = { req[2], req[1], req[0] };
            MT_OK(MPI_Startall(3, rev));
        }
        MT_OK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, world));
        MT_OK(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
        MT_CHECK(a == val(0, 0, it) && b == val(n - 1, 1, it) && sum == n * (n - 1) / 2,
                 "started out of order, it %d: a %d b %d sum %d", it, a, b, sum);
    }
    for (int i = 0; i < 3; i++)
        MT_OK(MPI_Request_free(&req[i]));
}

static void t_errors(void)
{
    int buf[4] = { 0 }, rb[4];
    MPI_Request r = MPI_REQUEST_NULL;
    MT_ERRCLASS(MPI_Bcast_init(buf, 1, MPI_INT, n, world, MPI_INFO_NULL, &r), MPI_ERR_ROOT,
                "Bcast_init root = size");
    MT_ERRCLASS(MPI_Bcast_init(buf, -1, MPI_INT, 0, world, MPI_INFO_NULL, &r), MPI_ERR_COUNT,
                "Bcast_init count -1");
    MT_ERRCLASS(MPI_Bcast_init(buf, 1, MPI_DATATYPE_NULL, 0, world, MPI_INFO_NULL, &r),
                MPI_ERR_TYPE, "Bcast_init MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &r), MPI_ERR_COMM,
                "Barrier_init MPI_COMM_NULL");
    MT_ERRCLASS(MPI_Allreduce_init(buf, rb, 1, MPI_INT, MPI_OP_NULL, world, MPI_INFO_NULL, &r),
                MPI_ERR_OP, "Allreduce_init MPI_OP_NULL");
    MT_ERRCLASS(MPI_Barrier_init(world, MPI_INFO_NULL, NULL), MPI_ERR_ARG,
                "Barrier_init NULL request");
#ifdef RDMPI
    /* MPICH 4.0.2 checks none of these at init. */
    MT_ERRCLASS(MPI_Barrier_init(world, (MPI_Info)GARBAGE_INT, &r), MPI_ERR_INFO,
                "Barrier_init garbage info");
    MT_ERRCLASS(MPI_Neighbor_allgather_init(buf, 1, MPI_INT, rb, 1, MPI_INT, world,
                                            MPI_INFO_NULL, &r),
                MPI_ERR_TOPOLOGY, "Neighbor_allgather_init without a topology");
    MT_ERRCLASS(MPI_Bcast_init_c(buf, (MPI_Count)INT_MAX + 1, MPI_INT, 0, world, MPI_INFO_NULL,
                                 &r),
                MPI_ERR_COUNT, "Bcast_init_c count beyond INT_MAX");
    MT_CHECK(r == MPI_REQUEST_NULL, "a failed init set the request");

    /* Starting an active request, freeing an active one. */
    MT_OK(MPI_Allreduce_init(buf, rb, 1, MPI_INT, MPI_SUM, world, MPI_INFO_NULL, &r));
    MT_OK(MPI_Start(&r));
    MT_ERRCLASS(MPI_Start(&r), MPI_ERR_REQUEST, "Start of an active persistent collective");
    MT_ERRCLASS(MPI_Request_free(&r), MPI_ERR_REQUEST,
                "Request_free of an active persistent collective");
    MT_CHECK(r != MPI_REQUEST_NULL, "a failed Request_free cleared the handle");
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK(rb[0] == 0, "Allreduce after the errors: %d", rb[0]);
    MT_OK(MPI_Request_free(&r));
#endif
    MTest_Check_comm_works(world, "after the persistent collective errors");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    n = MTest_size;
    me = MTest_rank;
    t_barrier_bcast();
    t_rooted();
    t_all();
    t_reductions();
    t_large();
    t_startall();
    t_order();
    errors_return();
    t_errors();
    return MTest_Finalize();
}
