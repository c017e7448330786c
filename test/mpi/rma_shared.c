/*
 * rma_shared: MPI_Win_allocate_shared and MPI_Win_shared_query. Rank r
 * allocates (r + 1) * 16 ints with disp_unit sizeof(int) (rank 1 asks for
 * 0 bytes when there are 3 or more ranks). Every rank queries every
 * segment: size, disp_unit, and by default (contiguous) each segment starts
 * where the previous ends; MPI_PROC_NULL gives the first non-empty one.
 * Each rank then stores straight into its right neighbour's segment through
 * the queried pointer (lock_all + MPI_Win_sync + barrier) and the neighbour
 * sees the stores with local loads and with MPI_Get; a put is seen by a
 * load. With alloc_shared_noncontig the same stores and loads work.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static MPI_Aint seg_ints(int r, int size)
{
    return (r == 1 && size >= 3) ? 0 : (MPI_Aint)(r + 1) * 16;
}

static void run(MPI_Comm comm, int noncontig)
{
    int rank, size, *mine, disp_unit;
    MPI_Win win;
    MPI_Info info = MPI_INFO_NULL;
    const char *how = noncontig ? "noncontig" : "contiguous";

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    MT_OK(MPI_Win_allocate_shared(seg_ints(rank, size) * (MPI_Aint)sizeof(int), sizeof(int), info,
                                  comm, &mine, &win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);

    int **seg = MTest_Malloc(sizeof(int *) * (size_t)size);
    for (int r = 0; r < size; r++) {
        MPI_Aint bytes = -1;
        MT_OK(MPI_Win_shared_query(win, r, &bytes, &disp_unit, &seg[r]));
        MT_CHECK(bytes == seg_ints(r, size) * (MPI_Aint)sizeof(int),
                 "%s: shared_query(%d) size %ld, expected %ld", how, r, (long)bytes,
                 (long)(seg_ints(r, size) * (MPI_Aint)sizeof(int)));
        MT_CHECK(disp_unit == (int)sizeof(int), "%s: shared_query(%d) disp_unit %d", how, r,
                 disp_unit);
        if (r == rank && bytes > 0)
            MT_CHECK(seg[r] == mine, "%s: shared_query of own rank gives %p, allocated %p",
                     how, (void *)seg[r], (void *)mine);
    }
    if (!noncontig) {
        int *next = seg[0] + seg_ints(0, size);
        for (int r = 1; r < size; r++) {
            if (seg_ints(r, size) == 0)
                continue;
            MT_CHECK(seg[r] == next, "contiguous: segment %d at %p, expected %p (end of the "
                     "previous one)", r, (void *)seg[r], (void *)next);
            next = seg[r] + seg_ints(r, size);
        }
    }
    {
        MPI_Aint bytes;
        int *p;
        MT_OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &disp_unit, &p));
        MT_CHECK(p == seg[0] && bytes == seg_ints(0, size) * (MPI_Aint)sizeof(int),
                 "%s: shared_query(MPI_PROC_NULL) gives %p size %ld, expected segment 0 %p",
                 how, (void *)p, (long)bytes, (void *)seg[0]);
    }

    /* Direct stores into the right neighbour's segment. */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MT_OK(MPI_Win_lock_all(0, win));
    for (MPI_Aint i = 0; i < seg_ints(rank, size); i++)
        mine[i] = -1;
    MT_OK(MPI_Win_sync(win));
    MPI_Barrier(comm);
    MT_OK(MPI_Win_sync(win));
    for (MPI_Aint i = 0; i < seg_ints(right, size); i++)
        seg[right][i] = rank * 1000 + (int)i;
    MT_OK(MPI_Win_sync(win));
    MPI_Barrier(comm);
    MT_OK(MPI_Win_sync(win));
    for (MPI_Aint i = 0; i < seg_ints(rank, size); i++)
        if (mine[i] != left * 1000 + (int)i) {
            MT_FAIL("%s: load of element %ld stored by rank %d: %d, expected %d", how, (long)i,
                    left, mine[i], left * 1000 + (int)i);
            break;
        }
    /* The same memory through MPI_Get, and a put seen by a load. */
    if (seg_ints(right, size) > 0) {
        int got[64];
        MPI_Aint n = seg_ints(right, size) < 64 ? seg_ints(right, size) : 64;
        MT_OK(MPI_Get(got, (int)n, MPI_INT, right, 0, (int)n, MPI_INT, win));
        MT_OK(MPI_Win_flush(right, win));
        for (MPI_Aint i = 0; i < n; i++)
            if (got[i] != rank * 1000 + (int)i) {
                MT_FAIL("%s: get of element %ld at rank %d: %d, expected %d", how, (long)i,
                        right, got[i], rank * 1000 + (int)i);
                break;
            }
        int v = 555 + rank;
        MT_OK(MPI_Put(&v, 1, MPI_INT, right, seg_ints(right, size) - 1, 1, MPI_INT, win));
        MT_OK(MPI_Win_flush(right, win));
    }
    MPI_Barrier(comm);
    MT_OK(MPI_Win_sync(win));
    if (seg_ints(rank, size) > 0)
        MT_CHECK(mine[seg_ints(rank, size) - 1] == 555 + left, "%s: load of the put from rank "
                 "%d: %d, expected %d", how, left, mine[seg_ints(rank, size) - 1], 555 + left);
    MT_OK(MPI_Win_unlock_all(win));
    free(seg);
    MT_OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MPI_Comm node;
    int nsize;

    MTest_Init(&argc, &argv);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nsize);
    if (nsize != MTest_size && MTest_rank == 0)
        printf("note: ranks on several hosts, shared windows on each host's ranks\n");
    run(node, 0);
    run(node, 1);
    MPI_Comm_free(&node);
    return MTest_Finalize();
}
