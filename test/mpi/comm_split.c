/*
 * comm_split: MPI_Comm_split. Several colors (rank % 3) with reversed keys
 * (new rank order follows the key), equal keys (order follows the parent
 * rank), MPI_UNDEFINED color (gives MPI_COMM_NULL), splits of splits, and
 * communication in each piece (payloads carry world ranks, checked through
 * Group_translate_ranks).
 */
#include "mtest.h"

static void check_piece(MPI_Comm c, int expect_size, int expect_rank, const char *what)
{
    int rank = -1, size = -1;

    MT_OK(MPI_Comm_rank(c, &rank));
    MT_OK(MPI_Comm_size(c, &size));
    MT_CHECK(rank == expect_rank && size == expect_size,
             "%s: rank %d size %d, expected %d %d", what, rank, size, expect_rank, expect_size);
    /* ring in the piece; the payload is the world rank */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, w = -1;
    MT_OK(MPI_Sendrecv(&MTest_rank, 1, MPI_INT, right, 0, &w, 1, MPI_INT, left, 0, c,
                       MPI_STATUS_IGNORE));
    MPI_Group g, wg;
    int wl = -1;
    MT_OK(MPI_Comm_group(c, &g));
    MT_OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    MT_OK(MPI_Group_translate_ranks(g, 1, &left, wg, &wl));
    MT_CHECK(w == wl, "%s: left neighbour is world %d, message from %d", what, wl, w);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int np = MTest_size, me = MTest_rank;
    MPI_Comm c, cc;

    /* colors rank % 3, key reversed */
    {
        int color = me % 3, n = 0, pos = 0;
        for (int r = 0; r < np; r++)
            if (r % 3 == color) {
                n++;
                if (r > me)
                    pos++;
            }
        MT_OK(MPI_Comm_split(MPI_COMM_WORLD, color, -me, &c));
        check_piece(c, n, pos, "color rank%3, reversed keys");

        /* split of the split: halves by new rank, equal keys */
        int rank;
        MPI_Comm_rank(c, &rank);
        MT_OK(MPI_Comm_split(c, rank % 2, 7, &cc));
        int n2 = 0, pos2 = 0;
        for (int r = 0; r < n; r++)
            if (r % 2 == rank % 2) {
                n2++;
                if (r < rank)
                    pos2++;
            }
        check_piece(cc, n2, pos2, "split of split");
        MT_OK(MPI_Comm_free(&cc));
        MT_OK(MPI_Comm_free(&c));
    }

    /* equal keys: parent order */
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, 5, 0, &c));
    check_piece(c, np, me, "one color, equal keys");
    MT_OK(MPI_Comm_free(&c));

    /* MPI_UNDEFINED for the last rank (np > 1) */
    {
        int color = (np > 1 && me == np - 1) ? MPI_UNDEFINED : 1;
        MT_OK(MPI_Comm_split(MPI_COMM_WORLD, color, me, &c));
        if (color == MPI_UNDEFINED) {
            MT_CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED color did not give MPI_COMM_NULL");
        } else {
            MT_CHECK(c != MPI_COMM_NULL, "color 1 gave MPI_COMM_NULL");
            if (c != MPI_COMM_NULL) {
                check_piece(c, np > 1 ? np - 1 : 1, me, "all but the last");
                MT_OK(MPI_Comm_free(&c));
            }
        }
    }

    /* every rank its own color */
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, me, 0, &c));
    check_piece(c, 1, 0, "own color");
    {
        int res;
        MT_OK(MPI_Comm_compare(c, MPI_COMM_SELF, &res));
        MT_CHECK(res == MPI_CONGRUENT, "own-color split vs COMM_SELF: %d", res);
    }
    MT_OK(MPI_Comm_free(&c));

    /* split of COMM_SELF */
    MT_OK(MPI_Comm_split(MPI_COMM_SELF, 0, 0, &c));
    check_piece(c, 1, 0, "split of self");
    MT_OK(MPI_Comm_free(&c));
    return MTest_Finalize();
}
