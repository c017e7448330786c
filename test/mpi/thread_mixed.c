/*
 * thread_mixed: ranks ask for different thread levels (even ranks of the
 * launch MPI_THREAD_MULTIPLE, odd ones MPI_THREAD_SINGLE; the rank comes
 * from the launcher's PMI_RANK), as MPI allows. Which collective
 * algorithms run depends on whether application threads may call MPI
 * concurrently, so every rank must choose alike: collectives on
 * MPI_COMM_WORLD and on a duplicate (Bcast of 1 MiB from two roots,
 * Allreduce, Reduce, Allgather, Barrier) must give the right data and
 * not hang, which they do only when the choice is the job's, not each
 * rank's.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)
#define N 4096

static void run(MPI_Comm c)
{
    int rank, size;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    char *big = malloc(BIG);
    int *a = malloc(N * sizeof(int)), *b = malloc(N * sizeof(int));
    int *all = malloc((size_t)size * sizeof(int));
    for (int root = 0; root < size; root += size - 1 > 0 ? size - 1 : 1) {
        for (int i = 0; i < BIG; i++)
            big[i] = rank == root ? (char)(i * 7 + root) : 0;
        MT_OK(MPI_Bcast(big, BIG, MPI_CHAR, root, c));
        int bad = 0;
        for (int i = 0; i < BIG; i++)
            bad += big[i] != (char)(i * 7 + root);
        MT_CHECK(bad == 0, "Bcast from %d: %d wrong bytes", root, bad);
        if (size == 1)
            break;
    }
    for (int i = 0; i < N; i++)
        a[i] = rank + i;
    MT_OK(MPI_Allreduce(a, b, N, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < N; i++)
        if (b[i] != size * (size - 1) / 2 + size * i) {
            MT_FAIL("Allreduce element %d: %d, expected %d", i, b[i],
                    size * (size - 1) / 2 + size * i);
            break;
        }
    MT_OK(MPI_Reduce(a, b, N, MPI_INT, MPI_MAX, 0, c));
    if (rank == 0)
        MT_CHECK(b[N - 1] == size - 1 + N - 1, "Reduce MAX: %d", b[N - 1]);
    MT_OK(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, c));
    for (int i = 0; i < size; i++)
        MT_CHECK(all[i] == i, "Allgather slot %d: %d", i, all[i]);
    for (int i = 0; i < 20; i++)
        MT_OK(MPI_Barrier(c));
    free(big);
    free(a);
    free(b);
    free(all);
}

int main(int argc, char **argv)
{
    const char *r = getenv("PMI_RANK");
    int want = r && atoi(r) % 2 == 0 ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
    int provided = MTest_Init_thread(&argc, &argv, want);
    MT_CHECK(provided >= want, "asked for level %d, provided %d", want, provided);
    run(MPI_COMM_WORLD);
    MPI_Comm dup;
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    run(dup);
    MT_OK(MPI_Comm_free(&dup));
    return MTest_Finalize();
}
