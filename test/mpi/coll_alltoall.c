/*
 * coll_alltoall: MPI_Alltoall (Bruck for short blocks, pairwise for long),
 * MPI_Alltoallv with uneven and zero counts and gaps, MPI_Alltoallw with a
 * different datatype per peer, each also with MPI_IN_PLACE, and alltoall
 * between different send and receive types.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

/* Element i of the block rank `from` sends to rank `to`. */
static int val(int from, int to, int i)
{
    return from * 1000000 + to * 10000 + i;
}

static void alltoall(int n)
{
    int size = MTest_size, me = MTest_rank;
    int *s = MTest_Malloc((size_t)n * (size_t)size * sizeof(int) + 1);
    int *r = MTest_Malloc((size_t)n * (size_t)size * sizeof(int) + 1);
    for (int inplace = 0; inplace < 2; inplace++) {
        int *buf = inplace ? r : s;
        for (int to = 0; to < size; to++)
            for (int i = 0; i < n; i++)
                buf[to * n + i] = val(me, to, i);
        if (!inplace)
            for (int i = 0; i < n * size; i++)
                r[i] = -1;
        MT_OK(MPI_Alltoall(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT,
                           MPI_COMM_WORLD));
        for (int i = 0; i < n * size; i++)
            if (r[i] != val(i / n, me, i % n)) {
                MT_FAIL("Alltoall n=%d inplace=%d: %d is %d, expected %d", n, inplace, i, r[i],
                        val(i / n, me, i % n));
                break;
            }
    }
    free(s);
    free(r);
}

/* Sent as n ints per peer, received as n/2 pairs (MPI_2INT). */
static void alltoall_types(int n)
{
    int size = MTest_size, me = MTest_rank;
    int *s = MTest_Malloc((size_t)n * (size_t)size * sizeof(int));
    int *r = MTest_Malloc((size_t)n * (size_t)size * sizeof(int));
    for (int i = 0; i < n * size; i++) {
        s[i] = val(me, i / n, i % n);
        r[i] = -1;
    }
    MT_OK(MPI_Alltoall(s, n, MPI_INT, r, n / 2, MPI_2INT, MPI_COMM_WORLD));
    for (int i = 0; i < n * size; i++)
        if (r[i] != val(i / n, me, i % n)) {
            MT_FAIL("Alltoall int -> 2int n=%d: %d is %d", n, i, r[i]);
            break;
        }
    free(s);
    free(r);
}

/* Rank `from` sends (from + to) % 4 * 3 ints to rank `to` (zeros included). */
static int vcount(int from, int to)
{
    return (from + to) % 4 * 3;
}

static void alltoallv(int use_w)
{
    int size = MTest_size, me = MTest_rank;
    int *sc = MTest_Malloc((size_t)size * sizeof(int)), *sd = MTest_Malloc((size_t)size * sizeof(int));
    int *rc = MTest_Malloc((size_t)size * sizeof(int)), *rd = MTest_Malloc((size_t)size * sizeof(int));
    MPI_Datatype *st = MTest_Malloc((size_t)size * sizeof(MPI_Datatype));
    MPI_Datatype *rt = MTest_Malloc((size_t)size * sizeof(MPI_Datatype));
    MPI_Datatype three;
    MT_OK(MPI_Type_contiguous(3, MPI_INT, &three));
    MT_OK(MPI_Type_commit(&three));
    int stot = 0, rtot = 0;
    /* Send blocks in reverse peer order, receive blocks in order, with gaps. */
    for (int k = size - 1; k >= 0; k--) {
        sc[k] = vcount(me, k);
        sd[k] = stot + 1;
        stot += sc[k] + 1;
    }
    for (int k = 0; k < size; k++) {
        rc[k] = vcount(k, me);
        rd[k] = rtot + 2;
        rtot += rc[k] + 2;
    }
    int *s = MTest_Malloc((size_t)stot * sizeof(int) + 1), *r = MTest_Malloc((size_t)rtot * sizeof(int) + 1);
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int k = 0; k < size; k++)
            for (int i = 0; i < sc[k]; i++)
                s[sd[k] + i] = val(me, k, i);
        for (int i = 0; i < rtot; i++)
            r[i] = -1;
        if (inplace) /* in place: the receive layout holds what goes out */
            for (int k = 0; k < size; k++)
                for (int i = 0; i < rc[k]; i++)
                    r[rd[k] + i] = val(me, k, i);
        if (!use_w) {
            MT_OK(MPI_Alltoallv(inplace ? MPI_IN_PLACE : s, sc, sd, MPI_INT, r, rc, rd, MPI_INT,
                                MPI_COMM_WORLD));
        } else {
            /* w: byte displacements; odd peers' blocks go as "three ints" units */
            int *scw = MTest_Malloc((size_t)size * sizeof(int)), *sdw = MTest_Malloc((size_t)size * sizeof(int));
            int *rcw = MTest_Malloc((size_t)size * sizeof(int)), *rdw = MTest_Malloc((size_t)size * sizeof(int));
            for (int k = 0; k < size; k++) {
                st[k] = k % 2 ? three : MPI_INT;
                scw[k] = k % 2 ? sc[k] / 3 : sc[k];
                sdw[k] = sd[k] * (int)sizeof(int);
                rt[k] = (k + 1) % 2 ? three : MPI_INT;
                rcw[k] = (k + 1) % 2 ? rc[k] / 3 : rc[k];
                rdw[k] = rd[k] * (int)sizeof(int);
            }
            MT_OK(MPI_Alltoallw(inplace ? MPI_IN_PLACE : s, scw, sdw, st, r, rcw, rdw, rt,
                                MPI_COMM_WORLD));
            free(scw);
            free(sdw);
            free(rcw);
            free(rdw);
        }
        for (int k = 0; k < size; k++) {
            for (int i = 0; i < rc[k]; i++)
                if (r[rd[k] + i] != val(k, me, i)) {
                    MT_FAIL("Alltoall%s inplace=%d: from %d element %d is %d", use_w ? "w" : "v",
                            inplace, k, i, r[rd[k] + i]);
                    break;
                }
            MT_CHECK(r[rd[k] - 1] == -1 && r[rd[k] - 2] == -1, "Alltoallv wrote into a gap");
        }
    }
    MT_OK(MPI_Type_free(&three));
    free(s);
    free(r);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    const int sizes[] = { 0, 1, 10, 64, 100, 3000 };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        alltoall(sizes[i]);
    alltoall_types(2);
    alltoall_types(500);
    alltoallv(0);
    alltoallv(1);
    return MTest_Finalize();
}
