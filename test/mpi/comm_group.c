/*
 * comm_group: Comm_group and group queries. Group_size/Group_rank of the
 * world, self and split groups; MPI_GROUP_EMPTY (size 0, rank MPI_UNDEFINED);
 * MPI_UNDEFINED rank for a non-member; Group_translate_ranks (incl.
 * MPI_PROC_NULL and non-members -> MPI_UNDEFINED); Group_compare IDENT,
 * SIMILAR, UNEQUAL; Group_free sets MPI_GROUP_NULL.
 */
#include "mtest.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int np = MTest_size, me = MTest_rank;
    MPI_Group wg, wg2, sg, rg, hg;
    MPI_Comm rev, half;
    int size, rank, res;

    MT_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MT_OK(MPI_Group_size(wg, &size));
    MT_OK(MPI_Group_rank(wg, &rank));
    MT_CHECK(size == np && rank == me, "world group: size %d rank %d", size, rank);
    MT_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg2));
    MT_OK(MPI_Group_compare(wg, wg2, &res));
    MT_CHECK(res == MPI_IDENT, "world group vs world group: %d", res);

    MT_OK(MPI_Comm_group(MPI_COMM_SELF, &sg));
    MT_OK(MPI_Group_size(sg, &size));
    MT_OK(MPI_Group_rank(sg, &rank));
    MT_CHECK(size == 1 && rank == 0, "self group: size %d rank %d", size, rank);
    MT_OK(MPI_Group_compare(wg, sg, &res));
    MT_CHECK(res == (np == 1 ? MPI_IDENT : MPI_UNEQUAL), "world vs self group: %d", res);

    MT_OK(MPI_Group_size(MPI_GROUP_EMPTY, &size));
    MT_OK(MPI_Group_rank(MPI_GROUP_EMPTY, &rank));
    MT_CHECK(size == 0 && rank == MPI_UNDEFINED, "GROUP_EMPTY: size %d rank %d", size, rank);

    /* reversed order: SIMILAR */
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, np - me, &rev));
    MT_OK(MPI_Comm_group(rev, &rg));
    MT_OK(MPI_Group_compare(wg, rg, &res));
    MT_CHECK(res == (np == 1 ? MPI_IDENT : MPI_SIMILAR), "world vs reversed group: %d", res);
    {
        int *in = malloc(np * sizeof(int)), *out = malloc(np * sizeof(int));
        for (int i = 0; i < np; i++)
            in[i] = i;
        MT_OK(MPI_Group_translate_ranks(wg, np, in, rg, out));
        for (int i = 0; i < np; i++)
            MT_CHECK(out[i] == np - 1 - i, "translate world %d -> reversed %d", i, out[i]);
        free(in);
        free(out);
    }

    /* lower half (or the whole world at np 1): non-members translate to UNDEFINED */
    int lower = me < (np + 1) / 2;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, lower, me, &half));
    MT_OK(MPI_Comm_group(half, &hg));
    MT_OK(MPI_Group_size(hg, &size));
    MT_CHECK(size == (lower ? (np + 1) / 2 : np / 2), "half group size %d", size);
    {
        int ranks[3] = { 0, np - 1, MPI_PROC_NULL }, out[3] = { -5, -5, -5 };
        MT_OK(MPI_Group_translate_ranks(wg, 3, ranks, hg, out));
        int want0 = lower ? 0 : MPI_UNDEFINED;
        int want1 = np == 1 ? 0 : (lower ? MPI_UNDEFINED : np / 2 - 1);
        MT_CHECK(out[0] == want0 && out[1] == want1 && out[2] == MPI_PROC_NULL,
                 "translate {0, %d, PROC_NULL} into half: {%d, %d, %d}, expected {%d, %d, "
                 "PROC_NULL}", np - 1, out[0], out[1], out[2], want0, want1);
    }
    MT_OK(MPI_Group_compare(wg, hg, &res));
    MT_CHECK(res == (np == 1 ? MPI_IDENT : MPI_UNEQUAL), "world vs half group: %d", res);
    MT_OK(MPI_Group_compare(hg, MPI_GROUP_EMPTY, &res));
    MT_CHECK(res == MPI_UNEQUAL, "half vs empty group: %d", res);

    MT_OK(MPI_Group_free(&wg));
    MT_CHECK(wg == MPI_GROUP_NULL, "Group_free did not set MPI_GROUP_NULL");
    /* the other handle to the world group still works */
    MT_OK(MPI_Group_size(wg2, &size));
    MT_CHECK(size == np, "world group after freeing a second handle: size %d", size);
    MT_OK(MPI_Group_free(&wg2));
    MT_OK(MPI_Group_free(&sg));
    MT_OK(MPI_Group_free(&rg));
    MT_OK(MPI_Group_free(&hg));
    MT_OK(MPI_Comm_free(&rev));
    MT_OK(MPI_Comm_free(&half));
    return MTest_Finalize();
}
