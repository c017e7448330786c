/*
 * rma_req: the request-based operations in passive-target epochs.
 * MPI_Rput completes locally at MPI_Wait (the origin buffer may then be
 * overwritten, the target still gets the old contents once flushed);
 * MPI_Rget's buffer holds the data when MPI_Wait returns (no flush);
 * MPI_Raccumulate from every rank (MPI_Waitall) sums exactly;
 * MPI_Rget_accumulate fetches and adds; many requests completed with
 * MPI_Test polling and MPI_Waitall; requests on a Win_create window under
 * MPI_Win_lock as well as a Win_allocate window under lock_all.
 */
#include "rma_common.h"

#define N 96
#define MANY 32

static void run(int flavor)
{
    struct rw w;
    MPI_Request req, reqs[MANY];
    int buf[8], back[8], got[N];

    if (!rw_open(&w, flavor, N, MPI_COMM_WORLD))
        return;
    int right = (w.rank + 1) % w.size, left = (w.rank + w.size - 1) % w.size;
    rw_fill(&w, 4);

    /* Rput: local completion, the buffer reused, remote after flush. */
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w.win));
    for (int i = 0; i < 8; i++)
        buf[i] = 100 * w.rank + i;
    MT_OK(MPI_Rput(buf, 8, MPI_INT, right, rw_disp(&w, right, 8), 8, MPI_INT, w.win, &req));
    MT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_CHECK(req == MPI_REQUEST_NULL, "%s: Rput request not freed by MPI_Wait", rw_name(flavor));
    for (int i = 0; i < 8; i++)
        buf[i] = -9;
    MT_OK(MPI_Win_flush(right, w.win));
    /* Rget: data there at MPI_Wait. */
    MT_OK(MPI_Rget(back, 8, MPI_INT, right, rw_disp(&w, right, 8), 8, MPI_INT, w.win, &req));
    MT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < 8; i++)
        MT_CHECK(back[i] == 100 * w.rank + i, "%s: Rget after Rput, element %d: %d, expected "
                 "%d", rw_name(flavor), 8 + i, back[i], 100 * w.rank + i);
    MT_OK(MPI_Win_unlock(right, w.win));

    /* Many Rputs of one int each into the right neighbour, Test polling. */
    int vals[MANY], done = 0;
    MT_OK(MPI_Win_lock_all(0, w.win));
    for (int i = 0; i < MANY; i++) {
        vals[i] = 7000 + 10 * w.rank + i;
        MT_OK(MPI_Rput(&vals[i], 1, MPI_INT, right, rw_disp(&w, right, 32 + i), 1, MPI_INT,
                       w.win, &reqs[i]));
    }
    while (!done) {
        done = 1;
        for (int i = 0; i < MANY; i++) {
            int flag = 0;
            if (reqs[i] == MPI_REQUEST_NULL)
                continue;
            MT_OK(MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE));
            done &= flag;
        }
    }
    MT_OK(MPI_Win_flush_all(w.win));
    /* Raccumulate: every rank adds (rank + 1) to element 0 of each target;
     * Rget_accumulate adds 1000 to element 1 of rank 0 and fetches it. */
    int one = w.rank + 1, thousand = 1000, fetched = -1;
    MPI_Request *acc = MTest_Malloc(sizeof(MPI_Request) * ((size_t)w.size + 1));
    for (int t = 0; t < w.size; t++)
        MT_OK(MPI_Raccumulate(&one, 1, MPI_INT, t, rw_disp(&w, t, 0), 1, MPI_INT, MPI_SUM,
                              w.win, &acc[t]));
    MT_OK(MPI_Rget_accumulate(&thousand, 1, MPI_INT, &fetched, 1, MPI_INT, 0, rw_disp(&w, 0, 1),
                              1, MPI_INT, MPI_SUM, w.win, &acc[w.size]));
    MT_OK(MPI_Waitall(w.size + 1, acc, MPI_STATUSES_IGNORE));
    int base1 = rw_initial(0, 1, 4);
    MT_CHECK(fetched >= base1 && fetched < base1 + 1000 * w.size && (fetched - base1) % 1000 == 0,
             "%s: Rget_accumulate fetched %d, expected %d + a multiple of 1000 below %d",
             rw_name(flavor), fetched, base1, 1000 * w.size);
    MT_OK(MPI_Win_unlock_all(w.win));
    free(acc);
    MPI_Barrier(MPI_COMM_WORLD);

    rw_read_own(&w, got);
    int sum = w.size * (w.size + 1) / 2;
    MT_CHECK(got[0] == rw_initial(w.rank, 0, 4) + sum, "%s: Raccumulate: element 0 is %d, "
             "expected %d", rw_name(flavor), got[0], rw_initial(w.rank, 0, 4) + sum);
    if (w.rank == 0)
        MT_CHECK(got[1] == rw_initial(0, 1, 4) + 1000 * w.size, "%s: Rget_accumulate: element 1 "
                 "is %d, expected %d", rw_name(flavor), got[1],
                 rw_initial(0, 1, 4) + 1000 * w.size);
    for (int i = 2; i < N; i++) {
        int want = rw_initial(w.rank, i, 4);
        if (i >= 8 && i < 16)
            want = 100 * left + i - 8;
        else if (i >= 32 && i < 32 + MANY)
            want = 7000 + 10 * left + i - 32;
        if (got[i] != want) {
            MT_FAIL("%s: element %d is %d, expected %d", rw_name(flavor), i, got[i], want);
            break;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f);
    return MTest_Finalize();
}
