/*
 * comm_intercomm: intercommunicators between two uneven groups of
 * MPI_COMM_WORLD (A: the first (np + 1) / 3 ranks, B: the rest, in reverse
 * order). MPI_Intercomm_create with leaders at local rank 0 and at the last
 * local rank, Comm_test_inter / size / remote_size / remote_group,
 * point-to-point both ways (named and MPI_ANY_SOURCE receives, status
 * source = remote rank), Comm_compare, Comm_dup (traffic kept apart,
 * attributes copied), MPI_Intercomm_merge with every high/low combination,
 * and error classes of misuse.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int na, nb, in_a, lrank, lsize, rsize;

/* World rank of local rank r of group A or B (B is in reverse world order). */
static int world_of(int group_a, int r)
{
    return group_a ? r : MTest_size - 1 - r;
}

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static void check_shape(MPI_Comm ic, const char *what)
{
    int flag = 0, s = -1, rs = -1, r = -1;
    MT_OK(MPI_Comm_test_inter(ic, &flag));
    MT_OK(MPI_Comm_size(ic, &s));
    MT_OK(MPI_Comm_remote_size(ic, &rs));
    MT_OK(MPI_Comm_rank(ic, &r));
    MT_CHECK(flag && s == lsize && rs == rsize && r == lrank,
             "%s: inter %d size %d remote %d rank %d, expected 1 %d %d %d", what, flag, s, rs, r,
             lsize, rsize, lrank);

    /* the remote group, in the other group's order */
    MPI_Group rg, wg;
    MT_OK(MPI_Comm_remote_group(ic, &rg));
    MT_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int gs = -1;
    MPI_Group_size(rg, &gs);
    MT_CHECK(gs == rsize, "%s: remote group size %d, expected %d", what, gs, rsize);
    for (int i = 0; i < rsize && gs == rsize; i++) {
        int w = -1;
        MPI_Group_translate_ranks(rg, 1, &i, wg, &w);
        MT_CHECK(w == world_of(!in_a, i), "%s: remote rank %d is world %d, expected %d", what, i,
                 w, world_of(!in_a, i));
    }
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
}

/* Every rank sends its world rank to every remote rank (tag = receiver's
 * rank) and receives one message from each, by name and by ANY_SOURCE. */
static void check_traffic(MPI_Comm ic, const char *what)
{
    MPI_Request *req = MTest_Malloc(2 * (size_t)rsize * sizeof(MPI_Request));
    int *in = MTest_Malloc((size_t)rsize * sizeof(int));
    int me = MTest_rank;
    for (int j = 0; j < rsize; j++) {
        in[j] = -1;
        MT_OK(MPI_Irecv(&in[j], 1, MPI_INT, j, lrank, ic, &req[j]));
        MT_OK(MPI_Isend(&me, 1, MPI_INT, j, j, ic, &req[rsize + j]));
    }
    MT_OK(MPI_Waitall(2 * rsize, req, MPI_STATUSES_IGNORE));
    for (int j = 0; j < rsize; j++)
        MT_CHECK(in[j] == world_of(!in_a, j), "%s: from remote %d got %d, expected %d", what, j,
                 in[j], world_of(!in_a, j));

    /* ANY_SOURCE: the status names the remote rank */
    for (int j = 0; j < rsize; j++)
        MT_OK(MPI_Isend(&me, 1, MPI_INT, j, 77, ic, &req[j]));
    int *seen = MTest_Malloc((size_t)rsize * sizeof(int) + 1);
    memset(seen, 0, (size_t)rsize * sizeof(int));
    for (int j = 0; j < rsize; j++) {
        int v = -1;
        MPI_Status st;
        MT_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 77, ic, &st));
        if (st.MPI_SOURCE < 0 || st.MPI_SOURCE >= rsize) {
            MT_FAIL("%s: ANY_SOURCE status source %d", what, st.MPI_SOURCE);
            continue;
        }
        seen[st.MPI_SOURCE]++;
        MT_CHECK(v == world_of(!in_a, st.MPI_SOURCE), "%s: source %d sent %d, expected %d",
                 what, st.MPI_SOURCE, v, world_of(!in_a, st.MPI_SOURCE));
    }
    for (int j = 0; j < rsize; j++)
        MT_CHECK(seen[j] == 1, "%s: %d messages from remote %d", what, seen[j], j);
    MT_OK(MPI_Waitall(rsize, req, MPI_STATUSES_IGNORE));
    free(seen);
    free(req);
    free(in);
}

/* Merge with the given high values; first_a: group A comes first. */
static void check_merge(MPI_Comm ic, int high, int first_a, const char *what)
{
    MPI_Comm m;
    int r = -1, s = -1, flag = 1;
    MT_OK(MPI_Intercomm_merge(ic, high, &m));
    MT_OK(MPI_Comm_rank(m, &r));
    MT_OK(MPI_Comm_size(m, &s));
    MT_OK(MPI_Comm_test_inter(m, &flag));
    int expect = (in_a == first_a) ? lrank : rsize + lrank;
    MT_CHECK(!flag && s == MTest_size && r == expect, "%s: inter %d size %d rank %d, expected "
             "0 %d %d", what, flag, s, r, MTest_size, expect);
    MTest_Check_comm_works(m, what);
    MT_OK(MPI_Comm_free(&m));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int np = MTest_size, me = MTest_rank;
    na = (np + 1) / 3;
    nb = np - na;
    in_a = me < na;
    MPI_Comm local, ic, ic2, dup;

    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, !in_a, in_a ? me : -me, &local));
    MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_size(local, &lsize);
    rsize = in_a ? nb : na;
    MT_CHECK(lsize == (in_a ? na : nb), "local size %d", lsize);

    /* leaders: local rank 0 (world 0 in A, world np-1 in B) */
    MT_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? np - 1 : 0, 7, &ic));
    check_shape(ic, "intercomm");
    check_traffic(ic, "intercomm");

    /* leaders: last local rank, over a duplicate of world, another tag */
    MPI_Comm peer;
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &peer));
    MT_OK(MPI_Intercomm_create(local, lsize - 1, peer, in_a ? na : na - 1, 1234, &ic2));
    check_shape(ic2, "intercomm, last-rank leaders");
    check_traffic(ic2, "intercomm, last-rank leaders");

    int cmp = -1;
    MT_OK(MPI_Comm_compare(ic, ic, &cmp));
    MT_CHECK(cmp == MPI_IDENT, "compare(ic, ic) = %d", cmp);
    MT_OK(MPI_Comm_compare(ic, ic2, &cmp));
    MT_CHECK(cmp == MPI_CONGRUENT, "compare(ic, ic2) = %d", cmp);
    MT_OK(MPI_Comm_compare(ic, local, &cmp));
    MT_CHECK(cmp == MPI_UNEQUAL, "compare(ic, local) = %d", cmp);

    /* dup: same shape, separate traffic, attributes copied */
    int key;
    static char base[4];
    MT_OK(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    MT_OK(MPI_Comm_set_attr(ic, key, base));
    MT_OK(MPI_Comm_dup(ic, &dup));
    check_shape(dup, "dup of intercomm");
    MT_OK(MPI_Comm_compare(ic, dup, &cmp));
    MT_CHECK(cmp == MPI_CONGRUENT, "compare(ic, dup) = %d", cmp);
    void *val = NULL;
    int flag = 0;
    MT_OK(MPI_Comm_get_attr(dup, key, &val, &flag));
    MT_CHECK(flag && val == base + 1, "attribute on the dup: flag %d", flag);
    {
        /* the same tag on ic and dup: each receive gets its own (local
         * rank i pairs with remote rank i, where both exist) */
        int a = 1, b = 2, ra = -1, rb = -1;
        MPI_Request rq[2];
        if (lrank < rsize) {
            MT_OK(MPI_Isend(&a, 1, MPI_INT, lrank, 5, ic, &rq[0]));
            MT_OK(MPI_Isend(&b, 1, MPI_INT, lrank, 5, dup, &rq[1]));
            MT_OK(MPI_Recv(&rb, 1, MPI_INT, lrank, 5, dup, MPI_STATUS_IGNORE));
            MT_OK(MPI_Recv(&ra, 1, MPI_INT, lrank, 5, ic, MPI_STATUS_IGNORE));
            MT_CHECK(ra == 1 && rb == 2, "dup isolation: got %d on ic, %d on dup", ra, rb);
            MT_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        }
    }
    check_traffic(dup, "dup of intercomm");

    /* merge: low group first; equal values keep an agreed order */
    check_merge(ic, !in_a, 1, "merge, A low");
    check_merge(ic, in_a, 0, "merge, A high");
    {
        /* both false (or both true): one order, the same on both sides */
        MPI_Comm m;
        int r0 = -1, first = -1;
        MT_OK(MPI_Intercomm_merge(dup, 0, &m));
        MPI_Comm_rank(m, &r0);
        /* the merged rank 0 tells everyone which group came first
         * (point-to-point: collectives are not under test here) */
        if (r0 == 0) {
            first = in_a;
            for (int r = 1; r < MTest_size; r++)
                MT_OK(MPI_Send(&first, 1, MPI_INT, r, 9, m));
        } else {
            MT_OK(MPI_Recv(&first, 1, MPI_INT, 0, 9, m, MPI_STATUS_IGNORE));
        }
        int expect = (in_a == first) ? lrank : rsize + lrank;
        MT_CHECK(r0 == expect, "merge, both low: rank %d, expected %d", r0, expect);
        MT_OK(MPI_Comm_free(&m));
    }

    /* misuse */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    int s = 0;
    MPI_Comm m = MPI_COMM_NULL;
    MT_ERRCLASS(MPI_Intercomm_create(local, lsize, MPI_COMM_WORLD, 0, 3, &m), MPI_ERR_RANK,
                "local_leader out of range");
    MT_ERRCLASS(MPI_Send(&s, 1, MPI_INT, rsize, 0, ic), MPI_ERR_RANK,
                "send to remote rank = remote size");

    MT_OK(MPI_Comm_free(&dup));
    MT_OK(MPI_Comm_free(&ic2));
    MT_OK(MPI_Comm_free(&ic));
    MT_CHECK(ic == MPI_COMM_NULL, "freed intercomm handle not MPI_COMM_NULL");
    MT_OK(MPI_Comm_free_keyval(&key));
    MT_OK(MPI_Comm_free(&peer));
    MTest_Check_comm_works(local, "after freeing the intercommunicators");
    MT_OK(MPI_Comm_free(&local));
    return MTest_Finalize();
}
