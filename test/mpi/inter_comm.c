/*
 * inter_comm: communicators made from an intercommunicator between two
 * groups of different sizes (A: the first (np + 1) / 3 ranks of
 * MPI_COMM_WORLD, B: the rest). MPI_Comm_split (colors by parity of the
 * local rank, keys reversing the order, MPI_UNDEFINED; MPI_COMM_NULL where
 * a side of a color is empty), MPI_Comm_create (each group drops one of its
 * ranks; an empty group on one side gives MPI_COMM_NULL on both), and
 * MPI_Comm_idup / MPI_Comm_idup_with_info (two at once, with a collective
 * on the parent in between). Each result is checked for its shape (sizes,
 * rank, the world ranks of both groups in order) and then used: an
 * allreduce and point-to-point between the groups. Then argument errors.
 */
#include "mtest.h"

#include <stdlib.h>

static int na, in_a, lrank, lsize, rsize;

/* World rank of local rank r of group A (group_a) or B. */
static int world_of(int group_a, int r)
{
    return group_a ? r : na + r;
}

/* Checks that c is an intercommunicator whose local group is the world
 * ranks lw[0..nl) and remote group rw[0..nr), in order, then uses it. */
static void check_inter(MPI_Comm c, const int *lw, int nl, const int *rw, int nr,
                        const char *what)
{
    int flag = 0, s = -1, rs = -1, r = -1;
    MT_OK(MPI_Comm_test_inter(c, &flag));
    MT_OK(MPI_Comm_size(c, &s));
    MT_OK(MPI_Comm_remote_size(c, &rs));
    MT_OK(MPI_Comm_rank(c, &r));
    MT_CHECK(flag && s == nl && rs == nr, "%s: inter %d size %d remote %d, expected 1 %d %d",
             what, flag, s, rs, nl, nr);
    if (!flag || s != nl || rs != nr)
        return;
    MT_CHECK(r >= 0 && lw[r] == MTest_rank, "%s: rank %d is not world rank %d", what, r,
             MTest_rank);
    MPI_Group g, rg, wg;
    MT_OK(MPI_Comm_group(c, &g));
    MT_OK(MPI_Comm_remote_group(c, &rg));
    MT_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    for (int i = 0; i < nl; i++) {
        int w = -1;
        MPI_Group_translate_ranks(g, 1, &i, wg, &w);
        MT_CHECK(w == lw[i], "%s: local rank %d is world %d, expected %d", what, i, w, lw[i]);
    }
    for (int i = 0; i < nr; i++) {
        int w = -1;
        MPI_Group_translate_ranks(rg, 1, &i, wg, &w);
        MT_CHECK(w == rw[i], "%s: remote rank %d is world %d, expected %d", what, i, w, rw[i]);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);

    /* the sum of the remote world ranks, and a message from each remote
     * rank of the same rank (modulo the remote size) */
    int sum = -1, want = 0;
    for (int i = 0; i < nr; i++)
        want += rw[i];
    MT_OK(MPI_Allreduce(&MTest_rank, &sum, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(sum == want, "%s: allreduce %d, expected %d", what, sum, want);
    MPI_Request *rq = malloc((size_t)(nr + nl) * sizeof(*rq));
    int *got = malloc((size_t)(nr + 1) * sizeof(int)), n = 0;
    for (int i = 0; i < nr; i++)
        MT_OK(MPI_Irecv(&got[i], 1, MPI_INT, i, 5, c, &rq[n++]));
    for (int i = 0; i < nr; i++)
        MT_OK(MPI_Isend(&MTest_rank, 1, MPI_INT, i, 5, c, &rq[n++]));
    MT_OK(MPI_Waitall(n, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < nr; i++)
        MT_CHECK(got[i] == rw[i], "%s: message from remote %d says %d, expected %d", what, i,
                 got[i], rw[i]);
    free(rq);
    free(got);
}

/* The world ranks of group (group_a) members with local rank parity color,
 * in reverse order; returns how many. */
static int parity_members(int group_a, int size, int color, int *w)
{
    int n = 0;
    for (int r = size - 1; r >= 0; r--)
        if (r % 2 == color)
            w[n++] = world_of(group_a, r);
    return n;
}

static void test_split(MPI_Comm ic)
{
    int lw[64], rw[64], color = lrank % 2;
    MPI_Comm c;
    MT_OK(MPI_Comm_split(ic, color, -lrank, &c));
    int nl = parity_members(in_a, lsize, color, lw);
    int nr = parity_members(!in_a, rsize, color, rw);
    if (nr == 0) {
        MT_CHECK(c == MPI_COMM_NULL, "split by parity: no remote rank of color %d, yet a "
                 "communicator", color);
    } else {
        MT_CHECK(c != MPI_COMM_NULL, "split by parity: MPI_COMM_NULL");
        if (c != MPI_COMM_NULL) {
            check_inter(c, lw, nl, rw, nr, "split by parity");
            MT_OK(MPI_Comm_free(&c));
        }
    }

    /* Group B's rank 0 opts out; everyone else takes color 3 in world order. */
    int out = !in_a && lrank == 0;
    MT_OK(MPI_Comm_split(ic, out ? MPI_UNDEFINED : 3, 0, &c));
    nl = nr = 0;
    for (int r = 0; r < lsize; r++)
        if (in_a || r > 0)
            lw[nl++] = world_of(in_a, r);
    for (int r = 0; r < rsize; r++)
        if (!in_a || r > 0)
            rw[nr++] = world_of(!in_a, r);
    if (out || nr == 0 || nl == 0) {
        MT_CHECK(c == MPI_COMM_NULL, "split with MPI_UNDEFINED: expected MPI_COMM_NULL");
    } else {
        MT_CHECK(c != MPI_COMM_NULL, "split with MPI_UNDEFINED: MPI_COMM_NULL");
        if (c != MPI_COMM_NULL) {
            check_inter(c, lw, nl, rw, nr, "split with MPI_UNDEFINED");
            MT_OK(MPI_Comm_free(&c));
        }
    }
}

static void test_create(MPI_Comm ic)
{
    /* A drops its first rank unless it has only one, B its last. */
    MPI_Group g, sub;
    MT_OK(MPI_Comm_group(ic, &g));
    int drop = in_a ? 0 : lsize - 1, lw[64], rw[64], nl = 0, nr = 0;
    int la = in_a ? lsize : rsize, lb = in_a ? rsize : lsize;
    if (in_a && lsize == 1)
        MT_OK(MPI_Group_incl(g, 0, NULL, &sub));
    else
        MT_OK(MPI_Group_excl(g, 1, &drop, &sub));
    /* group A's part keeps ranks 1.. (none when A has one rank), B's 0..lb-2 */
    int a_part[64], b_part[64], nap = 0, nbp = 0;
    for (int r = 1; r < la; r++)
        a_part[nap++] = world_of(1, r);
    for (int r = 0; r < lb - 1; r++)
        b_part[nbp++] = world_of(0, r);
    for (int i = 0; i < (in_a ? nap : nbp); i++)
        lw[nl++] = in_a ? a_part[i] : b_part[i];
    for (int i = 0; i < (in_a ? nbp : nap); i++)
        rw[nr++] = in_a ? b_part[i] : a_part[i];
    MPI_Comm c;
    MT_OK(MPI_Comm_create(ic, sub, &c));
    int member = in_a ? (lsize > 1 && lrank != 0) : lrank != lsize - 1;
    if (!member || nr == 0) {
        MT_CHECK(c == MPI_COMM_NULL, "create: expected MPI_COMM_NULL (member %d, remote %d)",
                 member, nr);
    } else {
        MT_CHECK(c != MPI_COMM_NULL, "create: MPI_COMM_NULL");
        if (c != MPI_COMM_NULL) {
            check_inter(c, lw, nl, rw, nr, "create");
            MT_OK(MPI_Comm_free(&c));
        }
    }
    MT_OK(MPI_Group_free(&sub));

    /* the whole local group on both sides: a copy of ic */
    MT_OK(MPI_Comm_create(ic, g, &c));
    for (int r = 0; r < lsize; r++)
        lw[r] = world_of(in_a, r);
    for (int r = 0; r < rsize; r++)
        rw[r] = world_of(!in_a, r);
    check_inter(c, lw, lsize, rw, rsize, "create with the whole group");
    if (c != MPI_COMM_NULL)
        MT_OK(MPI_Comm_free(&c));
    MT_OK(MPI_Group_free(&g));
}

static void test_idup(MPI_Comm ic)
{
    MPI_Comm c1, c2;
    MPI_Request r[3];
    int lw[64], rw[64], x = MTest_rank, y = -1;
    MT_OK(MPI_Comm_idup(ic, &c1, &r[0]));
    MT_OK(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_MAX, ic, &r[1]));
    MT_OK(MPI_Comm_idup_with_info(ic, MPI_INFO_NULL, &c2, &r[2]));
    MT_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    int want = in_a ? MTest_size - 1 : na - 1;
    MT_CHECK(y == want, "allreduce between the idups: %d, expected %d", y, want);
    for (int i = 0; i < lsize; i++)
        lw[i] = world_of(in_a, i);
    for (int i = 0; i < rsize; i++)
        rw[i] = world_of(!in_a, i);
    int res = -1;
    MT_OK(MPI_Comm_compare(ic, c1, &res));
    MT_CHECK(res == MPI_CONGRUENT, "idup: compare gives %d, expected MPI_CONGRUENT", res);
    check_inter(c1, lw, lsize, rw, rsize, "idup");
    check_inter(c2, lw, lsize, rw, rsize, "idup_with_info");
    MT_OK(MPI_Comm_free(&c1));
    MT_OK(MPI_Comm_free(&c2));
}

static void expect_class(int rc, int cls, const char *what)
{
    int got = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &got);
    MT_CHECK(got == cls, "%s: error class %d, expected %d", what, got, cls);
}

/* Argument errors, found before anything is exchanged: a group with a
 * remote rank, a negative color, split_type (intracommunicators only). */
static void test_errors(MPI_Comm ic)
{
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Group rg;
    MT_OK(MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN));
    MT_OK(MPI_Comm_remote_group(ic, &rg));
    expect_class(MPI_Comm_create(ic, rg, &c), MPI_ERR_GROUP, "create with the remote group");
    MT_OK(MPI_Group_free(&rg));
    expect_class(MPI_Comm_split(ic, -2, 0, &c), MPI_ERR_ARG, "split with color -2");
    expect_class(MPI_Comm_split_type(ic, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c),
                 MPI_ERR_COMM, "split_type on an intercommunicator");
    MT_CHECK(c == MPI_COMM_NULL, "a failed constructor set newcomm");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    na = (MTest_size + 1) / 3;
    in_a = MTest_rank < na;
    MPI_Comm local, ic;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, in_a, MTest_rank, &local));
    MT_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? na : 0, 9, &ic));
    MT_OK(MPI_Comm_rank(ic, &lrank));
    MT_OK(MPI_Comm_size(ic, &lsize));
    MT_OK(MPI_Comm_remote_size(ic, &rsize));
    test_split(ic);
    test_create(ic);
    test_idup(ic);
    test_errors(ic);
    MT_OK(MPI_Comm_free(&ic));
    MT_OK(MPI_Comm_free(&local));
    return MTest_Finalize();
}
