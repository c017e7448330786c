/*
 * comm_basic: Comm_dup, Comm_compare, Comm_free, Comm_set_name/get_name.
 * IDENT (a comm with itself), CONGRUENT (world and its dup; world and self at
 * np 1), SIMILAR (world reordered by a split with reversed keys, np > 1),
 * UNEQUAL (world and self at np > 1, world and a half). Comm_free sets
 * MPI_COMM_NULL. Names: MPI_COMM_WORLD / MPI_COMM_SELF by default, a set
 * name reads back, a name too long is truncated to MPI_MAX_OBJECT_NAME - 1.
 * A dup of a dup communicates; freeing the parent first keeps the child.
 */
#include "mtest.h"

#include <string.h>

static void ring_check(MPI_Comm comm, const char *what)
{
    int rank, size, v, w = -1;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    v = rank;
    MT_OK(MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 0, &w, 1, MPI_INT,
                       (rank + size - 1) % size, 0, comm, MPI_STATUS_IGNORE));
    MT_CHECK(w == (rank + size - 1) % size, "%s: ring got %d", what, w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm dup, dup2, rev, half;
    int res, rank, size, len;
    char name[MPI_MAX_OBJECT_NAME];

    MT_OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res));
    MT_CHECK(res == MPI_IDENT, "compare(world, world) = %d, expected MPI_IDENT", res);
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Comm_rank(dup, &rank));
    MT_OK(MPI_Comm_size(dup, &size));
    MT_CHECK(rank == MTest_rank && size == MTest_size, "dup: rank %d size %d", rank, size);
    MT_OK(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
    MT_CHECK(res == MPI_CONGRUENT, "compare(world, dup) = %d, expected MPI_CONGRUENT", res);
    MT_OK(MPI_Comm_compare(dup, dup, &res));
    MT_CHECK(res == MPI_IDENT, "compare(dup, dup) = %d, expected MPI_IDENT", res);
    MT_OK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &res));
    MT_CHECK(res == (MTest_size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL),
             "compare(world, self) = %d at np %d", res, MTest_size);

    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, MTest_size - MTest_rank, &rev));
    MT_OK(MPI_Comm_rank(rev, &rank));
    MT_CHECK(rank == MTest_size - 1 - MTest_rank, "reversed split: rank %d", rank);
    MT_OK(MPI_Comm_compare(MPI_COMM_WORLD, rev, &res));
    MT_CHECK(res == (MTest_size == 1 ? MPI_CONGRUENT : MPI_SIMILAR),
             "compare(world, reversed) = %d at np %d", res, MTest_size);
    ring_check(rev, "reversed");

    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank < MTest_size / 2, 0, &half));
    MT_OK(MPI_Comm_compare(MPI_COMM_WORLD, half, &res));
    MT_CHECK(res == (MTest_size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL),
             "compare(world, half) = %d at np %d", res, MTest_size);

    /* names */
    MT_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    MT_CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world name '%s' (%d)", name, len);
    MT_OK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    MT_CHECK(strcmp(name, "MPI_COMM_SELF") == 0 && len == 13, "self name '%s' (%d)", name, len);
    MT_OK(MPI_Comm_set_name(dup, "rdmpi test dup"));
    MT_OK(MPI_Comm_get_name(dup, name, &len));
    MT_CHECK(strcmp(name, "rdmpi test dup") == 0 && len == 14, "dup name '%s' (%d)", name, len);
    MT_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    MT_CHECK(strcmp(name, "MPI_COMM_WORLD") == 0, "naming the dup renamed world: '%s'", name);
    MT_OK(MPI_Comm_set_name(MPI_COMM_WORLD, "renamed world"));
    MT_OK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    MT_CHECK(strcmp(name, "renamed world") == 0, "renamed world: '%s'", name);
    MT_OK(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));
    {
        char longname[2 * MPI_MAX_OBJECT_NAME];
        memset(longname, 'x', sizeof longname - 1);
        longname[sizeof longname - 1] = '\0';
        MT_OK(MPI_Comm_set_name(half, longname));
        MT_OK(MPI_Comm_get_name(half, name, &len));
        MT_CHECK(len <= MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len && len > 0,
                 "long name: length %d strlen %zu", len, strlen(name));
    }

    /* dup of a dup, parent freed first */
    MT_OK(MPI_Comm_dup(dup, &dup2));
    MT_OK(MPI_Comm_free(&dup));
    MT_CHECK(dup == MPI_COMM_NULL, "Comm_free did not set MPI_COMM_NULL");
    ring_check(dup2, "dup of dup after parent freed");
    MT_OK(MPI_Comm_compare(MPI_COMM_WORLD, dup2, &res));
    MT_CHECK(res == MPI_CONGRUENT, "compare(world, dup of dup) = %d", res);

    /* many dups */
    {
        MPI_Comm c[20];
        for (int i = 0; i < 20; i++)
            MT_OK(MPI_Comm_dup(i ? c[i - 1] : MPI_COMM_WORLD, &c[i]));
        ring_check(c[19], "20th dup");
        for (int i = 0; i < 20; i++)
            MT_OK(MPI_Comm_free(&c[i]));
    }
    MT_OK(MPI_Comm_free(&dup2));
    MT_OK(MPI_Comm_free(&rev));
    MT_OK(MPI_Comm_free(&half));
    return MTest_Finalize();
}
