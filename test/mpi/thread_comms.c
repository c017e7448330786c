/*
 * thread_comms: with MPI_THREAD_MULTIPLE, four threads per rank each build
 * communicators from a parent of their own (MPI_Comm_dup, MPI_Comm_split,
 * MPI_Comm_create, MPI_Comm_create_group, MPI_Intercomm_create and
 * MPI_Intercomm_merge) and run blocking collectives (Allreduce, Bcast,
 * Barrier) on them, all at the same time. The threads of a rank start each
 * step in an order that differs from rank to rank, so one rank's thread
 * blocks in a collective while its peers first serve other threads'
 * communicators: the waits must let those threads in. The new
 * communicators of one rank must have distinct context ids: every thread
 * then sends on each of its communicators, with one tag shared by all, a
 * message naming the thread and the communicator, received with
 * MPI_ANY_SOURCE and MPI_ANY_TAG; a message that reached another
 * communicator is caught. Prints SKIP when MULTIPLE is not provided.
 */
#include "mtest.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define NTHREADS 4
#define ITERS 30
#define NCOMMS 5               /* dup, split, create, create_group, merged intercomm */
#define TAG 3

static int wrank, wsize;

struct worker {
    int id;
    MPI_Comm parent;
    int errs;
};

/* Threads of one rank enter a step in an order of their own: rank r lets
 * thread t wait in proportion to (t + r) mod NTHREADS. */
static void stagger(const struct worker *w, int it)
{
    usleep((useconds_t)(((w->id + wrank + it) % NTHREADS) * 300));
}

static void check_collectives(struct worker *w, MPI_Comm c, int it, const char *what)
{
    int rank, size, sum = 0, mine, v;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    mine = rank + 1000 * w->id + it;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
    if (sum != size * (size - 1) / 2 + size * (1000 * w->id + it)) {
        fprintf(stderr, "rank %d thread %d it %d %s: allreduce %d\n", wrank, w->id, it, what, sum);
        w->errs++;
    }
    int root = it % size;
    v = rank == root ? 77 * w->id + it : -1;
    MPI_Bcast(&v, 1, MPI_INT, root, c);
    if (v != 77 * w->id + it) {
        fprintf(stderr, "rank %d thread %d it %d %s: bcast %d\n", wrank, w->id, it, what, v);
        w->errs++;
    }
    MPI_Barrier(c);
}

/* Each communicator of this thread carries one message to the next rank
 * and one from the previous, all with the same tag: payload (thread,
 * communicator, iteration, sender's world rank). */
static void check_distinct(struct worker *w, MPI_Comm *comms, int it)
{
    int out[NCOMMS][4], in[NCOMMS][4];
    MPI_Request req[2 * NCOMMS];
    MPI_Status st[2 * NCOMMS];
    int n = 0;
    for (int k = 0; k < NCOMMS; k++) {
        int rank, size;
        MPI_Comm_rank(comms[k], &rank);
        MPI_Comm_size(comms[k], &size);
        out[k][0] = w->id;
        out[k][1] = k;
        out[k][2] = it;
        out[k][3] = wrank;
        MPI_Irecv(in[k], 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[k], &req[n++]);
        MPI_Isend(out[k], 4, MPI_INT, (rank + 1) % size, TAG, comms[k], &req[n++]);
    }
    MPI_Waitall(n, req, st);
    for (int k = 0; k < NCOMMS; k++) {
        if (in[k][0] != w->id || in[k][1] != k || in[k][2] != it) {
            fprintf(stderr,
                    "rank %d thread %d it %d: communicator %d got the message of thread %d, "
                    "communicator %d, iteration %d from rank %d\n",
                    wrank, w->id, it, k, in[k][0], in[k][1], in[k][2], in[k][3]);
            w->errs++;
        }
    }
}

static void *run(void *arg)
{
    struct worker *w = arg;
    MPI_Group all;
    MPI_Comm_group(w->parent, &all);
    for (int it = 0; it < ITERS; it++) {
        MPI_Comm c[NCOMMS], half, inter;
        stagger(w, it);
        MPI_Comm_dup(w->parent, &c[0]);
        check_collectives(w, c[0], it, "dup");
        stagger(w, it + 1);
        MPI_Comm_split(w->parent, 0, wsize - wrank, &c[1]);
        check_collectives(w, c[1], it, "split");
        stagger(w, it + 2);
        MPI_Comm_create(c[0], all, &c[2]);
        check_collectives(w, c[2], it, "create");
        stagger(w, it + 3);
        MPI_Comm_create_group(c[1], all, w->id, &c[3]);
        check_collectives(w, c[3], it, "create_group");
        /* Even and odd world ranks, joined by an intercommunicator whose
         * leaders meet over the parent. */
        MPI_Comm_split(c[0], wrank % 2, wrank, &half);
        MPI_Intercomm_create(half, 0, w->parent, wrank % 2 ? 0 : 1, w->id, &inter);
        MPI_Intercomm_merge(inter, wrank % 2, &c[4]);
        check_collectives(w, c[4], it, "merge");
        check_distinct(w, c, it);
        for (int k = 0; k < NCOMMS; k++)
            MPI_Comm_free(&c[k]);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    MPI_Group_free(&all);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = MTest_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE);
    struct worker w[NTHREADS];
    pthread_t th[NTHREADS];

    if (provided != MPI_THREAD_MULTIPLE) {
        if (MTest_rank == 0)
            printf("SKIP: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        return MTest_Finalize();
    }
    MTest_Need_ranks(2);
    wrank = MTest_rank;
    wsize = MTest_size;
    for (int t = 0; t < NTHREADS; t++) {
        w[t].id = t;
        w[t].errs = 0;
        MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &w[t].parent));
    }
    for (int t = 0; t < NTHREADS; t++)
        if (pthread_create(&th[t], NULL, run, &w[t]) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        MTest_errs += w[t].errs;
        MT_OK(MPI_Comm_free(&w[t].parent));
    }
    return MTest_Finalize();
}
