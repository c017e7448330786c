/*
 * p2p_modes: the four send modes, blocking and nonblocking, small and large.
 * Standard (Send/Isend), synchronous (Ssend/Issend: an Issend must not
 * complete before its receive is posted), ready (Rsend/Irsend after the
 * receiver says its receive is posted), buffered (Bsend/Ibsend with
 * Buffer_attach; several buffered sends complete before any receive is
 * posted; Buffer_detach returns the attached buffer and size).
 * Ranks pair up (0-1, 2-3, ...); an odd last rank pairs with itself where the
 * mode allows it (np 1 included).
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TAG_DATA 10
#define TAG_GO 11
#define NBUF 4

static const int counts[] = { 0, 1, 100, 40000 };  /* ints: 0 B .. 160 KB */
#define NCOUNTS 4

static void wait_ms(int ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

/* Peer pairs exchange; mode by mode, sender is the lower rank. */
static void standard(int peer, int sender, int n, unsigned seed, int nonblocking)
{
    int *buf = MTest_Malloc(n * sizeof(int) + 1);
    MPI_Status st;

    if (sender) {
        MTest_Fill(buf, n * sizeof(int), seed);
        if (nonblocking) {
            MPI_Request r;
            MT_OK(MPI_Isend(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, &r));
            MT_OK(MPI_Wait(&r, &st));
        } else {
            MT_OK(MPI_Send(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD));
        }
    } else {
        int got = -1;
        memset(buf, 0, n * sizeof(int));
        MT_OK(MPI_Recv(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &got);
        MT_CHECK(got == n, "standard%s: count %d, expected %d", nonblocking ? " (Isend)" : "", got, n);
        MT_CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == TAG_DATA,
                 "standard: status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
        MTest_Verify(buf, n * sizeof(int), seed, nonblocking ? "Isend payload" : "Send payload");
    }
    free(buf);
}

/* Issend stays incomplete until the receiver (told by TAG_GO) posts its receive. */
static void synchronous(int peer, int sender, int n, unsigned seed)
{
    int *buf = MTest_Malloc(n * sizeof(int) + 1);
    int go = 1;

    if (sender) {
        MPI_Request r;
        int flag = 0;
        MTest_Fill(buf, n * sizeof(int), seed);
        MT_OK(MPI_Issend(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, &r));
        for (int i = 0; i < 10 && !flag; i++) {
            MT_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
            wait_ms(2);
        }
        MT_CHECK(!flag, "Issend of %d ints completed before the receive was posted", n);
        MT_OK(MPI_Send(&go, 1, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD));
        if (!flag)
            MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        /* blocking Ssend as well */
        MT_OK(MPI_Ssend(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD));
    } else {
        MT_OK(MPI_Recv(&go, 1, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int k = 0; k < 2; k++) {
            memset(buf, 0, n * sizeof(int));
            MT_OK(MPI_Recv(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MTest_Verify(buf, n * sizeof(int), seed, k ? "Ssend payload" : "Issend payload");
        }
    }
    free(buf);
}

/* Ready mode: the receiver posts, then sends a zero-byte "ready". */
static void ready(int peer, int sender, int n, unsigned seed)
{
    int *buf = MTest_Malloc(n * sizeof(int) + 1);

    if (sender) {
        MTest_Fill(buf, n * sizeof(int), seed);
        MT_OK(MPI_Recv(NULL, 0, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_OK(MPI_Rsend(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD));
        MT_OK(MPI_Recv(NULL, 0, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_Request r;
        MT_OK(MPI_Irsend(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        for (int k = 0; k < 2; k++) {
            MPI_Request r;
            MPI_Status st;
            int got = -1;
            memset(buf, 0, n * sizeof(int));
            MT_OK(MPI_Irecv(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, &r));
            MT_OK(MPI_Send(NULL, 0, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD));
            MT_OK(MPI_Wait(&r, &st));
            MPI_Get_count(&st, MPI_INT, &got);
            MT_CHECK(got == n, "ready: count %d, expected %d", got, n);
            MTest_Verify(buf, n * sizeof(int), seed, k ? "Irsend payload" : "Rsend payload");
        }
    }
    free(buf);
}

/* Buffered: NBUF Bsends plus NBUF Ibsends complete before the receiver posts. */
static void buffered(int peer, int sender, int n, unsigned seed)
{
    int *buf = MTest_Malloc(n * sizeof(int) + 1);
    int go = 1;

    if (sender) {
        int psize = 0, bsize;
        char *bbuf;
        void *det = NULL;
        int detsize = -1;
        MPI_Request r[NBUF];

        MT_OK(MPI_Pack_size(n, MPI_INT, MPI_COMM_WORLD, &psize));
        bsize = 2 * NBUF * (psize + MPI_BSEND_OVERHEAD);
        bbuf = MTest_Malloc(bsize);
        MT_OK(MPI_Buffer_attach(bbuf, bsize));
        for (int k = 0; k < NBUF; k++) {
            MTest_Fill(buf, n * sizeof(int), seed + k);
            MT_OK(MPI_Bsend(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD));
        }
        for (int k = 0; k < NBUF; k++) {
            /* the buffer may be reused right after Bsend returns */
            MTest_Fill(buf, n * sizeof(int), seed + NBUF + k);
            MT_OK(MPI_Ibsend(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, &r[k]));
            MT_OK(MPI_Wait(&r[k], MPI_STATUS_IGNORE));
        }
        memset(buf, 0xee, n * sizeof(int));
        MT_OK(MPI_Send(&go, 1, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD));
        MT_OK(MPI_Buffer_detach(&det, &detsize));
        MT_CHECK(det == bbuf && detsize == bsize,
                 "Buffer_detach returned %p/%d, attached %p/%d", det, detsize,
                 (void *)bbuf, bsize);
        free(bbuf);
    } else {
        MT_OK(MPI_Recv(&go, 1, MPI_INT, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int k = 0; k < 2 * NBUF; k++) {
            memset(buf, 0, n * sizeof(int));
            MT_OK(MPI_Recv(buf, n, MPI_INT, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MTest_Verify(buf, n * sizeof(int), seed + k, "Bsend/Ibsend payload");
        }
    }
    free(buf);
}

/* Bsend to self: the message is buffered, so a later receive finds it. */
static void buffered_self(int n, unsigned seed)
{
    int *buf = MTest_Malloc(n * sizeof(int) + 1);
    int psize = 0, bsize, detsize;
    char *bbuf;
    void *det;

    MT_OK(MPI_Pack_size(n, MPI_INT, MPI_COMM_SELF, &psize));
    bsize = psize + MPI_BSEND_OVERHEAD;
    bbuf = MTest_Malloc(bsize);
    MT_OK(MPI_Buffer_attach(bbuf, bsize));
    MTest_Fill(buf, n * sizeof(int), seed);
    MT_OK(MPI_Bsend(buf, n, MPI_INT, 0, TAG_DATA, MPI_COMM_SELF));
    memset(buf, 0, n * sizeof(int));
    MT_OK(MPI_Recv(buf, n, MPI_INT, 0, TAG_DATA, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    MTest_Verify(buf, n * sizeof(int), seed, "Bsend to self");
    MT_OK(MPI_Buffer_detach(&det, &detsize));
    free(bbuf);
    free(buf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int peer = MTest_rank ^ 1;
    int paired = peer < MTest_size;

    for (int c = 0; c < NCOUNTS; c++) {
        int n = counts[c];
        unsigned seed = 17 * c + 3;
        if (paired) {
            int sender = MTest_rank < peer;
            standard(peer, sender, n, seed, 0);
            standard(peer, sender, n, seed + 1, 1);
            /* and the other direction */
            standard(peer, !sender, n, seed + 2, 1);
            synchronous(peer, sender, n, seed + 3);
            ready(peer, sender, n, seed + 4);
            buffered(peer, sender, n, seed + 5);
        }
        buffered_self(n, seed + 6);
    }
    return MTest_Finalize();
}
