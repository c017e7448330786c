/*
 * thread_multiple: with MPI_THREAD_MULTIPLE, two threads per rank communicate
 * at the same time, each on its own MPI_Comm_dup of COMM_WORLD and with the
 * same tags, around a ring (blocking Sendrecv plus Isend/Irecv/Waitall of
 * several sizes). Payloads name their thread, so a message delivered to the
 * other thread's communicator is caught. Skips when MULTIPLE is not provided.
 */
#include "mtest.h"

#include <pthread.h>
#include <stdlib.h>

#define NTHREADS 2
#define ITERS 200

struct worker {
    int id;
    MPI_Comm comm;
    int errs;
};

static void *run(void *arg)
{
    struct worker *w = arg;
    int rank, size;
    static const int sizes[] = { 1, 100, 5000, 70000 };

    MPI_Comm_rank(w->comm, &rank);
    MPI_Comm_size(w->comm, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int maxn = 70000;
    int *out = malloc(maxn * sizeof(int)), *in = malloc(maxn * sizeof(int));

    if (!out || !in) {
        w->errs++;
        goto done;
    }
    for (int it = 0; it < ITERS; it++) {
        int n = sizes[it % 4];
        MPI_Request req[2];
        MPI_Status st;
        /* stamp thread id, sender and iteration into the payload */
        for (int i = 0; i < n; i++)
            out[i] = (w->id << 28) ^ (rank << 20) ^ (it << 8) ^ i;
        for (int i = 0; i < n; i++)
            in[i] = -1;
        if (it & 1) {
            MPI_Irecv(in, n, MPI_INT, left, 7, w->comm, &req[0]);
            MPI_Isend(out, n, MPI_INT, right, 7, w->comm, &req[1]);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        } else {
            MPI_Sendrecv(out, n, MPI_INT, right, 7, in, n, MPI_INT, left, 7,
                         w->comm, &st);
        }
        for (int i = 0; i < n; i++) {
            int want = (w->id << 28) ^ (left << 20) ^ (it << 8) ^ i;
            if (in[i] != want) {
                fprintf(stderr, "[rank %d thread %d] iter %d elem %d: got 0x%x, "
                        "expected 0x%x\n", rank, w->id, it, i, in[i], want);
                w->errs++;
                break;
            }
        }
    }
done:
    free(out);
    free(in);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = MTest_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE);
    struct worker w[NTHREADS];
    pthread_t t[NTHREADS];

    if (provided != MPI_THREAD_MULTIPLE) {
        if (MTest_rank == 0)
            printf("SKIP: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        return MTest_Finalize();
    }
    for (int i = 0; i < NTHREADS; i++) {
        w[i].id = i;
        w[i].errs = 0;
        MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &w[i].comm));
    }
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, run, &w[i]) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        MTest_errs += w[i].errs;
        MT_OK(MPI_Comm_free(&w[i].comm));
    }
    return MTest_Finalize();
}
