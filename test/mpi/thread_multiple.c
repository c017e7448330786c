/*
 * thread_multiple: with MPI_THREAD_MULTIPLE, four threads per rank communicate
 * at the same time, each on its own MPI_Comm_dup of COMM_WORLD and with the
 * same tags, around a ring (blocking Sendrecv plus Isend/Irecv/Waitall of
 * several sizes), then on one communicator they all share, each with its own
 * tags, in bursts of small nonblocking messages. The threads of a rank start
 * each iteration together. Payloads name their thread, so a message
 * delivered to another thread is caught. Prints SKIP (the runner reports
 * SKIP, not PASS) when MULTIPLE is not provided; rdmpi provides it.
 */
#include "mtest.h"

#include <pthread.h>
#include <stdlib.h>

#define NTHREADS 4
#define ITERS 400
#define BURST 64
#define BURSTS 2000

/* The threads of a rank enter each iteration together, so their MPI calls
 * overlap even when the ranks share few CPUs. */
static pthread_barrier_t together;
static MPI_Comm shared;

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
        pthread_barrier_wait(&together);
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
    /* Bursts of small nonblocking messages on one communicator that all
     * threads share, a tag range each: the threads of a rank work on the
     * same matching queues at the same time. */
    for (int it = 0; it < BURSTS; it++) {
        int bin[BURST], bout[BURST];
        MPI_Request req[2 * BURST];
        pthread_barrier_wait(&together);
        for (int i = 0; i < BURST; i++) {
            bin[i] = -1;
            bout[i] = (w->id << 28) ^ (rank << 20) ^ (it << 8) ^ i;
            MPI_Irecv(&bin[i], 1, MPI_INT, left, w->id * BURST + i, shared, &req[i]);
        }
        for (int i = 0; i < BURST; i++)
            MPI_Isend(&bout[i], 1, MPI_INT, right, w->id * BURST + i, shared, &req[BURST + i]);
        MPI_Waitall(2 * BURST, req, MPI_STATUSES_IGNORE);
        for (int i = 0; i < BURST; i++) {
            int want = (w->id << 28) ^ (left << 20) ^ (it << 8) ^ i;
            if (bin[i] != want) {
                fprintf(stderr, "[rank %d thread %d] burst %d message %d: got 0x%x, "
                        "expected 0x%x\n", rank, w->id, it, i, bin[i], want);
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
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &shared));
    pthread_barrier_init(&together, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, run, &w[i]) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        MTest_errs += w[i].errs;
        MT_OK(MPI_Comm_free(&w[i].comm));
    }
    pthread_barrier_destroy(&together);
    MT_OK(MPI_Comm_free(&shared));
    return MTest_Finalize();
}
