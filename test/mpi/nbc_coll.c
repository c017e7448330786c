/*
 * nbc_coll: every nonblocking collective against a locally computed
 * reference, on COMM_WORLD, on a split (even / odd ranks) and on a
 * communicator with the ranks in reverse order, for several counts (zero,
 * small, and large enough for the rendezvous protocol), with every root and
 * the MPI_IN_PLACE variants. Reductions use MPI_SUM, MPI_MAX and a
 * non-commutative user operation (composition of affine maps on MPI_2INT),
 * which catches any reordering of operands. A derived type (a strided
 * vector) goes through Ibcast, Igather and Ialltoall.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static const int counts[] = { 0, 1, 7, 20000 };
#define NCOUNTS ((int)(sizeof(counts) / sizeof(counts[0])))

static int val(int rank, int i)
{
    return rank * 1000 + i % 997 + 1;
}

static void fill(int *b, int n, int rank)
{
    for (int i = 0; i < n; i++)
        b[i] = val(rank, i);
}

static void wait1(MPI_Request *r)
{
    MT_OK(MPI_Wait(r, MPI_STATUS_IGNORE));
    MT_CHECK(*r == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
}

static int check_ints(const int *got, const int *want, int n, const char *what, int a, int b)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            MT_FAIL("%s (%d, %d): element %d is %d, expected %d", what, a, b, i, got[i], want[i]);
            return 0;
        }
    return 1;
}

/* ---- the non-commutative operation: f(x) = a x + b, (u op v) = u o v ---- */
typedef struct { int a, b; } affine_t;

static affine_t compose(affine_t u, affine_t v)
{
    affine_t r;
    r.a = (int)((unsigned)u.a * (unsigned)v.a);
    r.b = (int)((unsigned)u.a * (unsigned)v.b + (unsigned)u.b);
    return r;
}

static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    affine_t *u = in, *v = inout;
    (void)dt;
    for (int i = 0; i < *len; i++)
        v[i] = compose(u[i], v[i]);
}

static affine_t aff(int rank, int i)
{
    affine_t f = { 2 * rank + 3 + i % 5, rank - i % 7 };
    return f;
}

static void test_bcast_barrier(MPI_Comm comm, int me, int n)
{
    for (int c = 0; c < NCOUNTS; c++) {
        int cnt = counts[c];
        int *buf = MTest_Malloc(sizeof(int) * (size_t)(cnt + 1));
        int *want = MTest_Malloc(sizeof(int) * (size_t)(cnt + 1));
        for (int root = 0; root < n; root++) {
            MPI_Request r;
            fill(want, cnt, root);
            if (me == root)
                fill(buf, cnt, root);
            else
                memset(buf, 0, sizeof(int) * (size_t)cnt);
            MT_OK(MPI_Ibcast(buf, cnt, MPI_INT, root, comm, &r));
            wait1(&r);
            check_ints(buf, want, cnt, "Ibcast (count, root)", cnt, root);
        }
        free(buf);
        free(want);
    }
    MPI_Request r;
    MT_OK(MPI_Ibarrier(comm, &r));
    wait1(&r);
}

static void test_reduce(MPI_Comm comm, int me, int n)
{
    for (int c = 0; c < NCOUNTS; c++) {
        int cnt = counts[c];
        size_t sz = sizeof(int) * (size_t)(cnt + 1);
        int *s = MTest_Malloc(sz), *rb = MTest_Malloc(sz), *sum = MTest_Malloc(sz);
        int *mx = MTest_Malloc(sz);
        for (int i = 0; i < cnt; i++) {
            sum[i] = 0;
            mx[i] = 0;
            for (int k = 0; k < n; k++) {
                sum[i] += val(k, i);
                mx[i] = val(k, i) > mx[i] ? val(k, i) : mx[i];
            }
        }
        MPI_Request r;
        for (int root = 0; root < n; root++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                fill(s, cnt, me);
                memset(rb, 0, sz);
                if (inplace && me == root) {
                    fill(rb, cnt, me);
                    MT_OK(MPI_Ireduce(MPI_IN_PLACE, rb, cnt, MPI_INT, MPI_SUM, root, comm, &r));
                } else {
                    MT_OK(MPI_Ireduce(s, rb, cnt, MPI_INT, MPI_SUM, root, comm, &r));
                }
                wait1(&r);
                if (me == root)
                    check_ints(rb, sum, cnt, "Ireduce SUM (count, root)", cnt, root);
            }
        }
        for (int inplace = 0; inplace < 2; inplace++) {
            fill(s, cnt, me);
            if (inplace) {
                fill(rb, cnt, me);
                MT_OK(MPI_Iallreduce(MPI_IN_PLACE, rb, cnt, MPI_INT, MPI_MAX, comm, &r));
            } else {
                MT_OK(MPI_Iallreduce(s, rb, cnt, MPI_INT, MPI_MAX, comm, &r));
            }
            wait1(&r);
            check_ints(rb, mx, cnt, "Iallreduce MAX (count, inplace)", cnt, inplace);
            if (inplace) {
                fill(rb, cnt, me);
                MT_OK(MPI_Iallreduce(MPI_IN_PLACE, rb, cnt, MPI_INT, MPI_SUM, comm, &r));
            } else {
                MT_OK(MPI_Iallreduce(s, rb, cnt, MPI_INT, MPI_SUM, comm, &r));
            }
            wait1(&r);
            check_ints(rb, sum, cnt, "Iallreduce SUM (count, inplace)", cnt, inplace);
        }
        /* prefix sums */
        for (int i = 0; i < cnt; i++) {
            sum[i] = 0;
            for (int k = 0; k < me; k++)
                sum[i] += val(k, i);
        }
        for (int inplace = 0; inplace < 2; inplace++) {
            fill(s, cnt, me);
            fill(rb, cnt, me);
            MT_OK(MPI_Iexscan(inplace ? MPI_IN_PLACE : s, rb, cnt, MPI_INT, MPI_SUM, comm, &r));
            wait1(&r);
            if (me > 0)
                check_ints(rb, sum, cnt, "Iexscan SUM (count, inplace)", cnt, inplace);
            for (int i = 0; i < cnt; i++)
                sum[i] += val(me, i);
            fill(rb, cnt, me);
            MT_OK(MPI_Iscan(inplace ? MPI_IN_PLACE : s, rb, cnt, MPI_INT, MPI_SUM, comm, &r));
            wait1(&r);
            check_ints(rb, sum, cnt, "Iscan SUM (count, inplace)", cnt, inplace);
            for (int i = 0; i < cnt; i++)
                sum[i] -= val(me, i);
        }
        free(s);
        free(rb);
        free(sum);
        free(mx);
    }
}

static int check_aff(const affine_t *got, const affine_t *want, int n, const char *what, int a)
{
    for (int i = 0; i < n; i++)
        if (got[i].a != want[i].a || got[i].b != want[i].b) {
            MT_FAIL("%s (%d): element %d is (%d,%d), expected (%d,%d)", what, a, i, got[i].a,
                    got[i].b, want[i].a, want[i].b);
            return 0;
        }
    return 1;
}

static void test_noncommutative(MPI_Comm comm, int me, int n)
{
    MPI_Op op;
    MT_OK(MPI_Op_create(affine_op, 0, &op));
    for (int c = 0; c < NCOUNTS; c++) {
        int cnt = counts[c] > 3000 ? 3000 : counts[c];
        affine_t *s = MTest_Malloc(sizeof(affine_t) * (size_t)(cnt + 1));
        affine_t *rb = MTest_Malloc(sizeof(affine_t) * (size_t)(cnt + 1));
        affine_t *all = MTest_Malloc(sizeof(affine_t) * (size_t)(cnt + 1));
        affine_t *pre = MTest_Malloc(sizeof(affine_t) * (size_t)(cnt + 1));
        for (int i = 0; i < cnt; i++) {
            s[i] = aff(me, i);
            all[i] = aff(0, i);
            for (int k = 1; k < n; k++)
                all[i] = compose(all[i], aff(k, i));
            pre[i] = aff(0, i);
            for (int k = 1; k <= me; k++)
                pre[i] = compose(pre[i], aff(k, i));
        }
        MPI_Request r;
        for (int root = 0; root < n; root++) {
            MT_OK(MPI_Ireduce(s, rb, cnt, MPI_2INT, op, root, comm, &r));
            wait1(&r);
            if (me == root)
                check_aff(rb, all, cnt, "Ireduce non-commutative (root)", root);
        }
        MT_OK(MPI_Iallreduce(s, rb, cnt, MPI_2INT, op, comm, &r));
        wait1(&r);
        check_aff(rb, all, cnt, "Iallreduce non-commutative (count)", cnt);
        MT_OK(MPI_Iscan(s, rb, cnt, MPI_2INT, op, comm, &r));
        wait1(&r);
        check_aff(rb, pre, cnt, "Iscan non-commutative (count)", cnt);
        free(s);
        free(rb);
        free(all);
        free(pre);
    }
    /* MPI_Op_free while a reduction using op is in flight is allowed. */
    affine_t x = aff(me, 1), y;
    MPI_Request r;
    MT_OK(MPI_Iallreduce(&x, &y, 1, MPI_2INT, op, comm, &r));
    MT_OK(MPI_Op_free(&op));
    wait1(&r);
}

static void test_reduce_scatter(MPI_Comm comm, int me, int n)
{
    int blk = 5;
    int *rc = MTest_Malloc(sizeof(int) * (size_t)n);
    int total = 0, off = 0;
    for (int k = 0; k < n; k++) {
        rc[k] = k + 1;
        if (k < me)
            off += rc[k];
        total += rc[k];
    }
    int big = total > blk * n ? total : blk * n;
    int *s = MTest_Malloc(sizeof(int) * (size_t)big), *rb = MTest_Malloc(sizeof(int) * (size_t)big);
    int want[64];
    MPI_Request r;
    for (int inplace = 0; inplace < 2; inplace++) {
        fill(s, blk * n, me);
        fill(rb, blk * n, me);
        MT_OK(MPI_Ireduce_scatter_block(inplace ? MPI_IN_PLACE : s, rb, blk, MPI_INT, MPI_SUM,
                                        comm, &r));
        wait1(&r);
        for (int i = 0; i < blk; i++) {
            want[i] = 0;
            for (int k = 0; k < n; k++)
                want[i] += val(k, me * blk + i);
        }
        check_ints(rb, want, blk, "Ireduce_scatter_block (inplace)", inplace, 0);
        fill(s, total, me);
        fill(rb, total, me);
        MT_OK(MPI_Ireduce_scatter(inplace ? MPI_IN_PLACE : s, rb, rc, MPI_INT, MPI_SUM, comm,
                                  &r));
        wait1(&r);
        for (int i = 0; i < rc[me]; i++) {
            want[i] = 0;
            for (int k = 0; k < n; k++)
                want[i] += val(k, off + i);
        }
        check_ints(rb, want, rc[me], "Ireduce_scatter (inplace)", inplace, 0);
    }
    free(rc);
    free(s);
    free(rb);
}

/* Rooted data movement: gather(v), scatter(v). Rank k's block has
 * cnt + k elements (v) or cnt (plain); v blocks are laid out with gaps,
 * in reverse rank order. */
static void test_rooted(MPI_Comm comm, int me, int n)
{
    for (int c = 0; c < NCOUNTS; c++) {
        int cnt = counts[c] > 3000 ? 3000 : counts[c];
        int *rcounts = MTest_Malloc(sizeof(int) * (size_t)n);
        int *displs = MTest_Malloc(sizeof(int) * (size_t)n);
        int span = 0;
        for (int k = n - 1; k >= 0; k--) {
            rcounts[k] = cnt + k;
            displs[k] = span + 2;
            span += rcounts[k] + 2;
        }
        int full = span > cnt * n ? span : cnt * n;
        int *big = MTest_Malloc(sizeof(int) * (size_t)(full + 1));
        int *mine = MTest_Malloc(sizeof(int) * (size_t)(cnt + n + 1));
        MPI_Request r;
        for (int root = 0; root < n; root++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                int ip = inplace && me == root;
                /* Igather */
                fill(mine, cnt, me);
                memset(big, 0, sizeof(int) * (size_t)full);
                if (ip)
                    fill(big + me * cnt, cnt, me);
                MT_OK(MPI_Igather(ip ? MPI_IN_PLACE : mine, cnt, MPI_INT, big, cnt, MPI_INT,
                                  root, comm, &r));
                wait1(&r);
                if (me == root)
                    for (int k = 0; k < n; k++) {
                        fill(mine, cnt, k);
                        check_ints(big + k * cnt, mine, cnt, "Igather (root, from)", root, k);
                    }
                /* Igatherv */
                fill(mine, cnt + me, me);
                memset(big, 0, sizeof(int) * (size_t)full);
                if (ip)
                    fill(big + displs[me], rcounts[me], me);
                MT_OK(MPI_Igatherv(ip ? MPI_IN_PLACE : mine, cnt + me, MPI_INT, big, rcounts,
                                   displs, MPI_INT, root, comm, &r));
                wait1(&r);
                if (me == root)
                    for (int k = 0; k < n; k++) {
                        fill(mine, cnt + k, k);
                        check_ints(big + displs[k], mine, cnt + k, "Igatherv (root, from)", root,
                                   k);
                    }
                /* Iscatter: block k holds val(k, i) */
                if (me == root)
                    for (int k = 0; k < n; k++)
                        fill(big + k * cnt, cnt, k);
                memset(mine, 0, sizeof(int) * (size_t)(cnt + n));
                MT_OK(MPI_Iscatter(big, cnt, MPI_INT, ip ? MPI_IN_PLACE : mine, cnt, MPI_INT,
                                   root, comm, &r));
                wait1(&r);
                if (!ip) {
                    int *want = MTest_Malloc(sizeof(int) * (size_t)(cnt + 1));
                    fill(want, cnt, me);
                    check_ints(mine, want, cnt, "Iscatter (root, inplace)", root, inplace);
                    free(want);
                }
                /* Iscatterv */
                if (me == root)
                    for (int k = 0; k < n; k++)
                        fill(big + displs[k], rcounts[k], k);
                memset(mine, 0, sizeof(int) * (size_t)(cnt + n));
                MT_OK(MPI_Iscatterv(big, rcounts, displs, MPI_INT, ip ? MPI_IN_PLACE : mine,
                                    cnt + me, MPI_INT, root, comm, &r));
                wait1(&r);
                if (!ip) {
                    int *want = MTest_Malloc(sizeof(int) * (size_t)(cnt + n));
                    fill(want, cnt + me, me);
                    check_ints(mine, want, cnt + me, "Iscatterv (root, inplace)", root, inplace);
                    free(want);
                }
            }
        }
        free(rcounts);
        free(displs);
        free(big);
        free(mine);
    }
}

/* Allgather(v), alltoall(v). */
static void test_all(MPI_Comm comm, int me, int n)
{
    for (int c = 0; c < NCOUNTS; c++) {
        int cnt = counts[c] > 5000 ? 5000 : counts[c];
        int *rcounts = MTest_Malloc(sizeof(int) * (size_t)n);
        int *displs = MTest_Malloc(sizeof(int) * (size_t)n);
        int span = 0;
        for (int k = n - 1; k >= 0; k--) {
            rcounts[k] = cnt + k;
            displs[k] = span + 1;
            span += rcounts[k] + 1;
        }
#ifndef RDMPI
        /* MPICH 4.0.2's (I)allgatherv on one rank ignores displs[0]. */
        if (n == 1)
            displs[0] = 0;
#endif
        int full = (span > cnt * n ? span : cnt * n) + 1;
        int *rb = MTest_Malloc(sizeof(int) * (size_t)full);
        int *sb = MTest_Malloc(sizeof(int) * (size_t)full);
        int *want = MTest_Malloc(sizeof(int) * (size_t)(cnt + n + 1));
        MPI_Request r;
        for (int inplace = 0; inplace < 2; inplace++) {
            /* Iallgather */
            fill(sb, cnt, me);
            memset(rb, 0, sizeof(int) * (size_t)full);
            if (inplace)
                fill(rb + me * cnt, cnt, me);
            MT_OK(MPI_Iallgather(inplace ? MPI_IN_PLACE : sb, cnt, MPI_INT, rb, cnt, MPI_INT,
                                 comm, &r));
            wait1(&r);
            for (int k = 0; k < n; k++) {
                fill(want, cnt, k);
                check_ints(rb + k * cnt, want, cnt, "Iallgather (inplace, from)", inplace, k);
            }
            /* Iallgatherv */
            fill(sb, cnt + me, me);
            memset(rb, 0, sizeof(int) * (size_t)full);
            if (inplace)
                fill(rb + displs[me], rcounts[me], me);
            MT_OK(MPI_Iallgatherv(inplace ? MPI_IN_PLACE : sb, cnt + me, MPI_INT, rb, rcounts,
                                  displs, MPI_INT, comm, &r));
            wait1(&r);
            for (int k = 0; k < n; k++) {
                fill(want, cnt + k, k);
                check_ints(rb + displs[k], want, cnt + k, "Iallgatherv (inplace, from)", inplace,
                           k);
            }
            /* Ialltoall: block for rank k holds val(me * 16 + k, i) */
            int *buf = inplace ? rb : sb;
            for (int k = 0; k < n; k++)
                fill(buf + k * cnt, cnt, me * 16 + k);
            if (!inplace)
                memset(rb, 0, sizeof(int) * (size_t)full);
            MT_OK(MPI_Ialltoall(inplace ? MPI_IN_PLACE : sb, cnt, MPI_INT, rb, cnt, MPI_INT, comm,
                                &r));
            wait1(&r);
            for (int k = 0; k < n; k++) {
                fill(want, cnt, k * 16 + me);
                check_ints(rb + k * cnt, want, cnt, "Ialltoall (inplace, from)", inplace, k);
            }
            /* Ialltoallv: rank a sends cnt + a + b elements to rank b. */
            int *sc = MTest_Malloc(sizeof(int) * (size_t)n), *sd = MTest_Malloc(sizeof(int) * (size_t)n);
            int *rc = MTest_Malloc(sizeof(int) * (size_t)n), *rd = MTest_Malloc(sizeof(int) * (size_t)n);
            int so = 0, ro = 0;
            for (int k = n - 1; k >= 0; k--) {
                sc[k] = cnt + me + k;
                sd[k] = so;
                so += sc[k] + 1;
                rc[k] = cnt + k + me;
                rd[k] = ro + 1;
                ro += rc[k] + 1;
            }
            int *sv = MTest_Malloc(sizeof(int) * (size_t)(so + 1));
            int *rv = MTest_Malloc(sizeof(int) * (size_t)(ro + 1));
            int *w = MTest_Malloc(sizeof(int) * (size_t)(ro + 1));
            buf = inplace ? rv : sv;
            int *bd = inplace ? rd : sd;
            for (int k = 0; k < n; k++)
                fill(buf + bd[k], sc[k], me * 16 + k);
            if (!inplace)
                memset(rv, 0, sizeof(int) * (size_t)ro);
            MT_OK(MPI_Ialltoallv(inplace ? MPI_IN_PLACE : sv, sc, sd, MPI_INT, rv, rc, rd,
                                 MPI_INT, comm, &r));
            wait1(&r);
            for (int k = 0; k < n; k++) {
                fill(w, rc[k], k * 16 + me);
                check_ints(rv + rd[k], w, rc[k], "Ialltoallv (inplace, from)", inplace, k);
            }
            free(sc);
            free(sd);
            free(rc);
            free(rd);
            free(sv);
            free(rv);
            free(w);
        }
        free(rcounts);
        free(displs);
        free(rb);
        free(sb);
        free(want);
    }
}

/* A strided type: every other int of 2 * k ints. */
static void test_derived(MPI_Comm comm, int me, int n)
{
    enum { K = 300 };
    MPI_Datatype vec;
    MT_OK(MPI_Type_vector(K, 1, 2, MPI_INT, &vec));
    MT_OK(MPI_Type_commit(&vec));
    int *buf = MTest_Malloc(sizeof(int) * 2 * K * (size_t)n);
    int *packed = MTest_Malloc(sizeof(int) * K * (size_t)n);
    MPI_Request r;
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < 2 * K; i++)
            buf[i] = me == root ? (i % 2 ? -1 : val(root, i / 2)) : -2;
        MT_OK(MPI_Ibcast(buf, 1, vec, root, comm, &r));
        wait1(&r);
        for (int i = 0; i < K; i++)
            if (buf[2 * i] != val(root, i) || buf[2 * i + 1] != (me == root ? -1 : -2)) {
                MT_FAIL("Ibcast vector root %d: element %d wrong", root, i);
                break;
            }
    }
    /* Igather: a vector sent, K contiguous ints received (same signature). */
    for (int i = 0; i < 2 * K; i++)
        buf[i] = i % 2 ? -1 : val(me, i / 2);
    MT_OK(MPI_Igather(buf, 1, vec, packed, K, MPI_INT, 0, comm, &r));
    wait1(&r);
    if (me == 0)
        for (int k = 0; k < n; k++)
            for (int i = 0; i < K; i++)
                if (packed[k * K + i] != val(k, i)) {
                    MT_FAIL("Igather vector from %d: element %d is %d", k, i, packed[k * K + i]);
                    k = n;
                    break;
                }
    /* Ialltoall of one vector per rank, the vector resized to 2K ints so
     * that the blocks lie back to back; the gaps must stay untouched. */
    MPI_Datatype vr;
    MT_OK(MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * K * sizeof(int)), &vr));
    MT_OK(MPI_Type_commit(&vr));
    int *sb = MTest_Malloc(sizeof(int) * 2 * K * (size_t)n);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 2 * K; i++)
            sb[k * 2 * K + i] = i % 2 ? -1 : val(me * 16 + k, i / 2);
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < 2 * K * n; i++)
            buf[i] = inplace ? sb[i] : -3;
        MT_OK(MPI_Ialltoall(inplace ? MPI_IN_PLACE : sb, 1, vr, buf, 1, vr, comm, &r));
        wait1(&r);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < K; i++)
                if (buf[k * 2 * K + 2 * i] != val(k * 16 + me, i) ||
                    buf[k * 2 * K + 2 * i + 1] != (inplace ? -1 : -3)) {
                    MT_FAIL("Ialltoall vector (inplace %d) from %d: element %d wrong", inplace, k,
                            i);
                    k = n;
                    break;
                }
    }
    MT_OK(MPI_Type_free(&vr));
    MT_OK(MPI_Type_free(&vec));
    free(buf);
    free(packed);
    free(sb);
}

static void run_all(MPI_Comm comm)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    test_bcast_barrier(comm, me, n);
    test_reduce(comm, me, n);
    test_noncommutative(comm, me, n);
    test_reduce_scatter(comm, me, n);
    test_rooted(comm, me, n);
    test_all(comm, me, n);
    test_derived(comm, me, n);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm split, rev;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, 0, &split));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, MTest_size - MTest_rank, &rev));
    run_all(MPI_COMM_WORLD);
    run_all(split);
    run_all(rev);
    MT_OK(MPI_Comm_free(&split));
    MT_OK(MPI_Comm_free(&rev));
    return MTest_Finalize();
}
