/*
 * partitioned: partitioned communication (MPI-4.0 chapter 4) between ranks
 * 0 and 1. The two sides partition the buffer differently; partitions are
 * made ready one by one, by range and by list, out of order and from
 * several threads; MPI_Parrived is polled until the data is there; one
 * request is started several times; sends match receives in the order of
 * their init calls whatever order they start in; a partitioned message
 * never matches an ordinary MPI_ANY_TAG receive; MPI_PROC_NULL; argument
 * errors (partition counts, wildcards, partitions out of range or ready
 * twice, requests of the wrong kind or inactive).
 */
#include "mtest.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define N 4096 /* ints in a whole buffer */

static void fill(int *b, int seed)
{
    for (int i = 0; i < N; i++)
        b[i] = seed * 100000 + i;
}

static int check(const int *b, int seed, const char *what)
{
    for (int i = 0; i < N; i++)
        if (b[i] != seed * 100000 + i) {
            MT_FAIL("%s: element %d is %d, expected %d", what, i, b[i], seed * 100000 + i);
            return 0;
        }
    return 1;
}

/* Rank 0 sends with 8 partitions, ready one by one (backwards), then by
 * range, then by list; rank 1 receives with 4 partitions, polling
 * MPI_Parrived. Three rounds on the same requests. */
static void rounds(int *buf)
{
    MPI_Request r;
    if (MTest_rank == 0) {
        MT_OK(MPI_Psend_init(buf, 8, N / 8, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
        for (int round = 0; round < 3; round++) {
            MT_OK(MPI_Start(&r));
            fill(buf, round + 1);
            if (round == 0) {
                for (int k = 7; k >= 0; k--)
                    MT_OK(MPI_Pready(k, r));
            } else if (round == 1) {
                MT_OK(MPI_Pready_range(4, 7, r));
                MT_OK(MPI_Pready_range(0, 3, r));
            } else {
                int list[8] = { 5, 1, 7, 3, 0, 2, 6, 4 };
                MT_OK(MPI_Pready_list(3, list, r));
                MT_OK(MPI_Pready_list(5, list + 3, r));
            }
            MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
    } else {
        MT_OK(MPI_Precv_init(buf, 4, N / 4, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
        for (int round = 0; round < 3; round++) {
            memset(buf, 0xff, N * sizeof(int));
            MT_OK(MPI_Start(&r));
            for (int k = 0; k < 4; k++) {
                int flag = 0;
                while (!flag)
                    MT_OK(MPI_Parrived(r, k, &flag));
                int *part = buf + k * (N / 4);
                MT_CHECK(part[0] == (round + 1) * 100000 + k * (N / 4),
                         "round %d: partition %d arrived with %d", round, k, part[0]);
            }
            MPI_Status st;
            MT_OK(MPI_Wait(&r, &st));
            int count = -1;
            MT_OK(MPI_Get_count(&st, MPI_INT, &count));
            MT_CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 7 && count == N,
                     "status: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);
            check(buf, round + 1, "rounds");
            int flag = 0;
            MT_OK(MPI_Parrived(r, 0, &flag));
            MT_CHECK(flag, "MPI_Parrived on an inactive request gives false");
        }
    }
    MT_OK(MPI_Request_free(&r));
}

/* Three sends with one tag, started 2, 0, 1; received in init order. Then a
 * partitioned send and an ordinary one: the ordinary MPI_ANY_TAG receive
 * gets the ordinary message. */
static void matching(int (*bufs)[N])
{
    MPI_Request r[3];
    if (MTest_rank == 0) {
        for (int i = 0; i < 3; i++)
            MT_OK(MPI_Psend_init(bufs[i], 2, N / 2, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &r[i]));
        int order[3] = { 2, 0, 1 };
        for (int j = 0; j < 3; j++) {
            int i = order[j];
            MT_OK(MPI_Start(&r[i]));
            fill(bufs[i], 10 + i);
            MT_OK(MPI_Pready_range(0, 1, r[i]));
        }
        MT_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 3; i++)
            MT_OK(MPI_Request_free(&r[i]));

        int one = 99;
        MT_OK(MPI_Psend_init(bufs[0], 1, N, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
        MT_OK(MPI_Start(&r[0]));
        fill(bufs[0], 20);
        MT_OK(MPI_Pready(0, r[0]));
        MT_OK(MPI_Send(&one, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
        MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        MT_OK(MPI_Request_free(&r[0]));
    } else {
        for (int i = 0; i < 3; i++) {
            memset(bufs[i], 0, sizeof(bufs[i]));
            MT_OK(MPI_Precv_init(bufs[i], 4, N / 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &r[i]));
        }
        MT_OK(MPI_Startall(3, r));
        MT_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 3; i++) {
            check(bufs[i], 10 + i, "init order");
            MT_OK(MPI_Request_free(&r[i]));
        }

        int got = 0, count = -1;
        MPI_Status st;
        MT_OK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        MT_OK(MPI_Get_count(&st, MPI_INT, &count));
        MT_CHECK(got == 99 && count == 1, "MPI_ANY_TAG receive got %d (%d ints)", got, count);
        MT_OK(MPI_Precv_init(bufs[0], 1, N, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
        MT_OK(MPI_Start(&r[0]));
        MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        check(bufs[0], 20, "after an ordinary message");
        MT_OK(MPI_Request_free(&r[0]));
    }
}

#define THREADS 4
static MPI_Request thread_req;
static int *thread_buf;

static void *ready_part(void *arg)
{
    int k = (int)(long)arg;
    for (int i = k * (N / THREADS); i < (k + 1) * (N / THREADS); i++)
        thread_buf[i] = 30 * 100000 + i;
    MT_OK(MPI_Pready(k, thread_req));
    return NULL;
}

/* Each of THREADS threads fills and readies one partition while the main
 * thread waits. */
static void threads(int *buf)
{
    if (MTest_rank == 0) {
        pthread_t t[THREADS];
        thread_buf = buf;
        MT_OK(MPI_Psend_init(buf, THREADS, N / THREADS, MPI_INT, 1, 4, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &thread_req));
        MT_OK(MPI_Start(&thread_req));
        for (long k = 0; k < THREADS; k++)
            pthread_create(&t[k], NULL, ready_part, (void *)k);
        MT_OK(MPI_Wait(&thread_req, MPI_STATUS_IGNORE));
        for (int k = 0; k < THREADS; k++)
            pthread_join(t[k], NULL);
        MT_OK(MPI_Request_free(&thread_req));
    } else {
        MPI_Request r;
        memset(buf, 0, N * sizeof(int));
        MT_OK(MPI_Precv_init(buf, 2, N / 2, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
        MT_OK(MPI_Start(&r));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        check(buf, 30, "threads");
        MT_OK(MPI_Request_free(&r));
    }
}

static void expect(int rc, int cls, const char *what)
{
    MT_CHECK(rc != MPI_SUCCESS && MTest_Errclass(rc) == cls, "%s: class %d, expected %d", what,
             rc == MPI_SUCCESS ? 0 : MTest_Errclass(rc), cls);
}

static void errors(int *buf)
{
    MPI_Request s, r, p;
    expect(MPI_Psend_init(buf, 0, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &s),
           MPI_ERR_ARG, "0 partitions");
    expect(MPI_Psend_init(buf, 1, -1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &s),
           MPI_ERR_COUNT, "negative count");
    expect(MPI_Psend_init(buf, 1, 1, MPI_INT, 5, 0, MPI_COMM_SELF, MPI_INFO_NULL, &s),
           MPI_ERR_RANK, "rank 5");
    expect(MPI_Precv_init(buf, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_SELF, MPI_INFO_NULL,
                          &r),
           MPI_ERR_RANK, "MPI_ANY_SOURCE");
    expect(MPI_Precv_init(buf, 1, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_SELF, MPI_INFO_NULL, &r),
           MPI_ERR_TAG, "MPI_ANY_TAG");

    /* to self, on MPI_COMM_SELF */
    MT_OK(MPI_Psend_init(buf, 4, N / 8, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_INFO_NULL, &s));
    MT_OK(MPI_Precv_init(buf + N / 2, 2, N / 4, MPI_INT, 0, 1, MPI_COMM_SELF, MPI_INFO_NULL, &r));
    expect(MPI_Pready(0, s), MPI_ERR_REQUEST, "Pready before MPI_Start");
    MT_OK(MPI_Start(&r));
    MT_OK(MPI_Start(&s));
    expect(MPI_Pready(4, s), MPI_ERR_ARG, "partition 4 of 4");
    expect(MPI_Pready(-1, s), MPI_ERR_ARG, "partition -1");
    expect(MPI_Pready(0, r), MPI_ERR_REQUEST, "Pready on a receive");
    int flag;
    expect(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST, "Parrived on a send");
    expect(MPI_Parrived(r, 2, &flag), MPI_ERR_ARG, "Parrived partition 2 of 2");
    for (int i = 0; i < N / 2; i++)
        buf[i] = 40 * 100000 + i;
    MT_OK(MPI_Pready(1, s));
    expect(MPI_Pready(1, s), MPI_ERR_ARG, "partition ready twice");
    expect(MPI_Pready_range(3, 2, s), MPI_ERR_ARG, "range 3..2");
    int list[3] = { 0, 2, 3 };
    MT_OK(MPI_Pready_list(3, list, s));
    MT_OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < N / 2; i++)
        if (buf[N / 2 + i] != 40 * 100000 + i) {
            MT_FAIL("to self: element %d is %d", i, buf[N / 2 + i]);
            break;
        }
    MT_OK(MPI_Request_free(&s));
    MT_OK(MPI_Request_free(&r));

    /* an ordinary persistent request is not partitioned */
    MT_OK(MPI_Send_init(buf, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &p));
    expect(MPI_Pready(0, p), MPI_ERR_REQUEST, "Pready on MPI_Send_init's request");
    MT_OK(MPI_Request_free(&p));

    /* MPI_PROC_NULL completes at once */
    MT_OK(MPI_Psend_init(buf, 2, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, MPI_INFO_NULL, &s));
    MT_OK(MPI_Start(&s));
    MT_OK(MPI_Pready_range(0, 1, s));
    MT_OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MT_OK(MPI_Request_free(&s));
}

int main(int argc, char **argv)
{
    static int bufs[3][N];
    int provided = MTest_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE);
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    errors(bufs[0]);
    if (MTest_rank < 2 && MTest_size >= 2) {
        rounds(bufs[0]);
        matching(bufs);
        if (provided == MPI_THREAD_MULTIPLE)
            threads(bufs[0]);
    }
    return MTest_Finalize();
}
