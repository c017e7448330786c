/*
 * lc_p2p: the large-count (_c) point-to-point functions move the same data
 * as their int forms: blocking sends in every mode, nonblocking ones,
 * Sendrecv(_replace), matched receives, persistent requests and the
 * buffered-send buffer; MPI_Get_count_c / Get_elements_c read the status;
 * a negative count, a NULL buffer and a count whose bytes overflow what a
 * buffer can address are errors naming the _c function.
 */
#include "mtest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N 1000

/* Whether the library is rdmpi, whose internals bound some counts (int
 * counts per rank in the v-collectives, int block lengths in the datatype
 * engine, spans of at most PTRDIFF_MAX bytes): beyond them a call fails
 * there, where MPICH goes ahead. */
static int rdmpi_limits(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(v, &n);
    return strstr(v, "rdmpi") != NULL;
}

static void check_count(const MPI_Status *st, MPI_Count want, const char *what)
{
    MPI_Count n = -1, e = -1;
    MT_OK(MPI_Get_count_c(st, MPI_INT, &n));
    MT_OK(MPI_Get_elements_c(st, MPI_INT, &e));
    MT_CHECK(n == want && e == want, "%s: count %lld, elements %lld, expected %lld", what,
             (long long)n, (long long)e, (long long)want);
}

/* Rank 0 sends buf with seed to rank 1 by the call sending, rank 1
 * receives it with MPI_Recv_c and checks it. */
static void exchange(int rank, int seed, const char *what,
                     int (*sending)(const void *, MPI_Count, MPI_Datatype, int, int, MPI_Comm))
{
    int buf[N];
    MPI_Status st;
    if (rank == 0) {
        MTest_Fill(buf, sizeof(buf), seed);
        MT_OK(sending(buf, N, MPI_INT, 1, seed, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MT_OK(MPI_Recv_c(buf, N, MPI_INT, 0, seed, MPI_COMM_WORLD, &st));
        MTest_Verify(buf, sizeof(buf), seed, what);
        check_count(&st, N, what);
    }
}

/* Ready sends need the receive posted first. */
static void ready(int rank)
{
    int buf[N];
    MPI_Request r;
    if (rank == 1) {
        MT_OK(MPI_Irecv_c(buf, N, MPI_INT, 0, 5, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Send_c(NULL, 0, MPI_INT, 0, 6, MPI_COMM_WORLD));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MTest_Verify(buf, sizeof(buf), 5, "Rsend_c");
        MT_OK(MPI_Irecv_c(buf, N, MPI_INT, 0, 7, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Send_c(NULL, 0, MPI_INT, 0, 6, MPI_COMM_WORLD));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MTest_Verify(buf, sizeof(buf), 7, "Irsend_c");
    } else if (rank == 0) {
        MTest_Fill(buf, sizeof(buf), 5);
        MT_OK(MPI_Recv_c(NULL, 0, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Rsend_c(buf, N, MPI_INT, 1, 5, MPI_COMM_WORLD));
        MTest_Fill(buf, sizeof(buf), 7);
        MT_OK(MPI_Recv_c(NULL, 0, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Irsend_c(buf, N, MPI_INT, 1, 7, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
}

static void nonblocking(int rank)
{
    int bufs[3][N];
    MPI_Request r[3];
    MPI_Status st[3];
    if (rank == 0) {
        for (int i = 0; i < 3; i++)
            MTest_Fill(bufs[i], sizeof(bufs[i]), 20 + i);
        MT_OK(MPI_Isend_c(bufs[0], N, MPI_INT, 1, 20, MPI_COMM_WORLD, &r[0]));
        MT_OK(MPI_Issend_c(bufs[1], N, MPI_INT, 1, 21, MPI_COMM_WORLD, &r[1]));
        MT_OK(MPI_Ibsend_c(bufs[2], N, MPI_INT, 1, 22, MPI_COMM_WORLD, &r[2]));
        MT_OK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    } else if (rank == 1) {
        for (int i = 0; i < 3; i++)
            MT_OK(MPI_Irecv_c(bufs[i], N, MPI_INT, 0, 20 + i, MPI_COMM_WORLD, &r[i]));
        MT_OK(MPI_Waitall(3, r, st));
        for (int i = 0; i < 3; i++) {
            MTest_Verify(bufs[i], sizeof(bufs[i]), 20 + i, "Isend_c/Issend_c/Ibsend_c");
            check_count(&st[i], N, "Irecv_c");
        }
    }
}

static void sendrecv(int rank)
{
    int peer = 1 - rank, out[N], in[N];
    MPI_Status st;
    MTest_Fill(out, sizeof(out), 30 + rank);
    MT_OK(MPI_Sendrecv_c(out, N, MPI_INT, peer, 30, in, N, MPI_INT, peer, 30, MPI_COMM_WORLD,
                         &st));
    MTest_Verify(in, sizeof(in), 30 + peer, "Sendrecv_c");
    check_count(&st, N, "Sendrecv_c");
    MTest_Fill(out, sizeof(out), 40 + rank);
    MT_OK(MPI_Sendrecv_replace_c(out, N, MPI_INT, peer, 40, peer, 40, MPI_COMM_WORLD, &st));
    MTest_Verify(out, sizeof(out), 40 + peer, "Sendrecv_replace_c");
    check_count(&st, N, "Sendrecv_replace_c");
}

static void matched(int rank)
{
    int buf[N];
    MPI_Status st;
    if (rank == 0) {
        MTest_Fill(buf, sizeof(buf), 50);
        MT_OK(MPI_Send_c(buf, N, MPI_INT, 1, 50, MPI_COMM_WORLD));
        MTest_Fill(buf, sizeof(buf), 51);
        MT_OK(MPI_Send_c(buf, N / 2, MPI_INT, 1, 51, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Message m;
        MPI_Request r;
        MT_OK(MPI_Mprobe(0, 50, MPI_COMM_WORLD, &m, &st));
        check_count(&st, N, "Mprobe");
        MT_OK(MPI_Mrecv_c(buf, N, MPI_INT, &m, &st));
        MTest_Verify(buf, sizeof(buf), 50, "Mrecv_c");
        MT_OK(MPI_Mprobe(0, 51, MPI_COMM_WORLD, &m, &st));
        MT_OK(MPI_Imrecv_c(buf, N, MPI_INT, &m, &r));
        MT_OK(MPI_Wait(&r, &st));
        MTest_Verify(buf, sizeof(int) * (N / 2), 51, "Imrecv_c");
        check_count(&st, N / 2, "Imrecv_c");
    }
}

static void persistent(int rank)
{
    int bufs[4][N] = { { 0 } };
    MPI_Request r[4];
    if (rank == 0) {
        MT_OK(MPI_Send_init_c(bufs[0], N, MPI_INT, 1, 60, MPI_COMM_WORLD, &r[0]));
        MT_OK(MPI_Ssend_init_c(bufs[1], N, MPI_INT, 1, 61, MPI_COMM_WORLD, &r[1]));
        MT_OK(MPI_Bsend_init_c(bufs[2], N, MPI_INT, 1, 62, MPI_COMM_WORLD, &r[2]));
        MT_OK(MPI_Rsend_init_c(bufs[3], N, MPI_INT, 1, 63, MPI_COMM_WORLD, &r[3]));
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 4; i++)
                MTest_Fill(bufs[i], sizeof(bufs[i]), 60 + i + round);
            /* the ready send only once rank 1 posted its receives */
            MT_OK(MPI_Recv_c(NULL, 0, MPI_INT, 1, 64, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MT_OK(MPI_Startall(4, r));
            MT_OK(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
        }
    } else if (rank == 1) {
        for (int i = 0; i < 4; i++)
            MT_OK(MPI_Recv_init_c(bufs[i], N, MPI_INT, 0, 60 + i, MPI_COMM_WORLD, &r[i]));
        for (int round = 0; round < 2; round++) {
            MT_OK(MPI_Startall(4, r));
            MT_OK(MPI_Send_c(NULL, 0, MPI_INT, 0, 64, MPI_COMM_WORLD));
            MT_OK(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
            for (int i = 0; i < 4; i++)
                MTest_Verify(bufs[i], sizeof(bufs[i]), 60 + i + round, "persistent _c");
        }
    }
    for (int i = 0; rank < 2 && i < 4; i++)
        MT_OK(MPI_Request_free(&r[i]));
}

static void errors(void)
{
    int x = 0;
    MPI_Request r;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_ERRCLASS(MPI_Send_c(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
                "Send_c with a negative count");
    MT_ERRCLASS(MPI_Irecv_c(&x, -5, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT,
                "Irecv_c with a negative count");
    MT_ERRCLASS(MPI_Send_c(NULL, 3, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                "Send_c from a NULL buffer");
    /* 2^62 doubles are more bytes than a buffer can address */
    if (rdmpi_limits())
        MT_ERRCLASS(MPI_Recv_c(&x, (MPI_Count)1 << 62, MPI_DOUBLE, MPI_PROC_NULL, 0,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                    MPI_ERR_COUNT, "Recv_c of 2^62 doubles");
    MT_ERRCLASS(MPI_Send_init_c(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT,
                "Send_init_c with a negative count");
    MT_ERRCLASS(MPI_Buffer_attach_c(&x, -1), MPI_ERR_ARG, "Buffer_attach_c of a negative size");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MTest_Check_comm_works(MPI_COMM_WORLD, "after the argument errors");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int rank = MTest_rank;
    MPI_Count bsize = 4 * (N * sizeof(int) + MPI_BSEND_OVERHEAD);
    char *bbuf = MTest_Malloc((size_t)bsize);
    MT_OK(MPI_Buffer_attach_c(bbuf, bsize));
    exchange(rank, 1, "Send_c", MPI_Send_c);
    exchange(rank, 2, "Ssend_c", MPI_Ssend_c);
    exchange(rank, 3, "Bsend_c", MPI_Bsend_c);
    ready(rank);
    nonblocking(rank);
    if (rank < 2)
        sendrecv(rank);
    matched(rank);
    persistent(rank);
    void *got;
    MPI_Count gsize;
    MT_OK(MPI_Buffer_detach_c(&got, &gsize));
    MT_CHECK(got == bbuf && gsize == bsize, "Buffer_detach_c gave %p, %lld; expected %p, %lld",
             got, (long long)gsize, (void *)bbuf, (long long)bsize);
    free(bbuf);
    errors();
    return MTest_Finalize();
}
