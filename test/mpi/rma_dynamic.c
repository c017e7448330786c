/*
 * rma_dynamic: MPI_Win_create_dynamic with MPI_Win_attach/detach. Each
 * rank attaches two separate regions (an int array and a struct), publishes
 * their MPI_Get_address values, and every rank puts into and gets from
 * every other rank's regions at displacements computed with MPI_Aint_add
 * (a struct member, the middle of the array). Then each rank detaches the
 * array, attaches a new one of another size and the exchange repeats on
 * the new addresses; a region attached after the others' epochs began is
 * reached after a barrier. Around each written range nothing changes.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

struct rec {
    double d;
    int tag;
    int vals[5];
    long tail;
};

static int arr_value(int origin, int i, int round)
{
    return round * 100000 + origin * 100 + i;
}

/* Every rank puts 3 ints at element 4 + 3 * origin of each target's array
 * and writes its rank into vals[origin % 5] of the struct (only origin <
 * 5 do, so slots stay disjoint); then checks its own regions. */
static void exchange(MPI_Win win, int *arr, int n, struct rec *rec, int round)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Aint a_arr, a_rec, mine[2];
    MPI_Aint *addr = MTest_Malloc(sizeof(MPI_Aint) * 2 * (size_t)size);

    for (int i = 0; i < n; i++)
        arr[i] = -1 - i;
    rec->d = 2.5;
    rec->tag = -3;
    for (int i = 0; i < 5; i++)
        rec->vals[i] = -10 - i;
    rec->tail = 1234567L;
    MPI_Get_address(arr, &a_arr);
    MPI_Get_address(rec, &a_rec);
    mine[0] = a_arr;
    mine[1] = a_rec;
    MPI_Allgather(mine, 2, MPI_AINT, addr, 2, MPI_AINT, MPI_COMM_WORLD);

    MT_OK(MPI_Win_lock_all(0, win));
    for (int t = 0; t < size; t++) {
        int src[3], back[3] = { 0, 0, 0 };
        for (int i = 0; i < 3; i++)
            src[i] = arr_value(rank, i, round);
        MPI_Aint d = MPI_Aint_add(addr[2 * t], (MPI_Aint)sizeof(int) * (4 + 3 * rank));
        MT_OK(MPI_Put(src, 3, MPI_INT, t, d, 3, MPI_INT, win));
        if (rank < 5) {
            struct rec probe;
            MPI_Aint dv = MPI_Aint_add(addr[2 * t + 1], (MPI_Aint)((char *)&probe.vals[rank] -
                                                                  (char *)&probe));
            MT_OK(MPI_Put(&rank, 1, MPI_INT, t, dv, 1, MPI_INT, win));
        }
        MT_OK(MPI_Win_flush(t, win));
        MT_OK(MPI_Get(back, 3, MPI_INT, t, d, 3, MPI_INT, win));
        MT_OK(MPI_Win_flush(t, win));
        for (int i = 0; i < 3; i++)
            MT_CHECK(back[i] == src[i], "round %d: get back from rank %d element %d: %d, "
                     "expected %d", round, t, 4 + 3 * rank + i, back[i], src[i]);
    }
    MT_OK(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    for (int i = 0; i < n; i++) {
        int o = (i - 4) / 3;
        int want = (i >= 4 && o < size) ? arr_value(o, (i - 4) % 3, round) : -1 - i;
        if (arr[i] != want) {
            MT_FAIL("round %d: array element %d is %d, expected %d", round, i, arr[i], want);
            break;
        }
    }
    for (int i = 0; i < 5; i++) {
        int want = i < size ? i : -10 - i;
        MT_CHECK(rec->vals[i] == want, "round %d: struct vals[%d] is %d, expected %d", round, i,
                 rec->vals[i], want);
    }
    MT_CHECK(rec->d == 2.5 && rec->tag == -3 && rec->tail == 1234567L,
             "round %d: struct members around vals changed", round);
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
    free(addr);
}

int main(int argc, char **argv)
{
    MPI_Win win;
    int flavor = -1, flag = 0;
    int *flavorp;

    MTest_Init(&argc, &argv);
    if (MTest_size > 20) {
        MT_FAIL("at most 20 ranks");
        return MTest_Finalize();
    }
    MT_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MT_OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavorp, &flag));
    if (flag)
        flavor = *flavorp;
    MT_CHECK(flag && flavor == MPI_WIN_FLAVOR_DYNAMIC, "create flavor %d, expected "
             "MPI_WIN_FLAVOR_DYNAMIC", flavor);

    /* Nothing attached yet: epochs without any access are fine. */
    MT_OK(MPI_Win_fence(0, win));
    MT_OK(MPI_Win_fence(0, win));

    int n = 4 + 3 * MTest_size + 6;
    int *arr = MTest_Malloc(sizeof(int) * (size_t)n);
    struct rec *rec = MTest_Malloc(sizeof *rec);
    MT_OK(MPI_Win_attach(win, arr, sizeof(int) * (MPI_Aint)n));
    MT_OK(MPI_Win_attach(win, rec, sizeof *rec));
    MPI_Barrier(MPI_COMM_WORLD);
    exchange(win, arr, n, rec, 1);

    /* A new array instead of the old one (other size, other address). */
    MT_OK(MPI_Win_detach(win, arr));
    int n2 = n + 40;
    int *arr2 = MTest_Malloc(sizeof(int) * (size_t)n2);
    free(arr);
    MT_OK(MPI_Win_attach(win, arr2, sizeof(int) * (MPI_Aint)n2));
    MPI_Barrier(MPI_COMM_WORLD);
    exchange(win, arr2, n2, rec, 2);

    MT_OK(MPI_Win_detach(win, arr2));
    MT_OK(MPI_Win_detach(win, rec));
    MT_OK(MPI_Win_free(&win));
    free(arr2);
    free(rec);
    return MTest_Finalize();
}
