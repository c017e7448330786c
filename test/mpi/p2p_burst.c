/*
 * p2p_burst: bursts of sends to the same peers with no progress between
 * them (the pattern a transport may batch, tcp's coalescing). Rank 0 sends
 * windows of W messages, message i to rank 1 + i % (np - 1), all with one
 * tag: mostly MPI_Isend, every 7th a blocking MPI_Send, then one Waitall;
 * each receiver pre-posts Irecvs for the first half of its messages,
 * receives the rest with blocking MPI_Recv, waits, checks, and answers
 * with a small acknowledgement (osu_bw's pattern). One window per size,
 * from 0 B across tcp's thresholds (16 KiB held back, 64 KiB eager) to
 * 200 KiB, then windows with every message a different size. Length and
 * content of each message must match its place in the send order
 * (non-overtaking).
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define W 64
#define TAG 5
#define TAG_ACK 6
#define MAXLEN (200 * 1024)

static const size_t sizes[] = { 0, 1, 8, 100, 1000, 4096, 16383, 16384, 16385,
                                40000, 65535, 65536, 65537, MAXLEN };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* Length of message i of window w (windows past NSIZES mix the sizes). */
static size_t len_of(int w, int i)
{
    if (w < (int)NSIZES)
        return sizes[w];
    return sizes[(size_t)(i * 5 + w) % NSIZES];
}

static unsigned char byte_of(int w, int i, size_t j)
{
    return (unsigned char)(w * 131 + i * 7 + (int)j);
}

int main(int argc, char **argv)
{
    int rank, size;
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MTest_Need_ranks(2);
    int nrecv = size - 1;
    int nwin = (int)NSIZES + 4;
    unsigned char **buf = malloc(W * sizeof(*buf));
    MT_CHECK(buf != NULL, "out of memory");
    for (int i = 0; i < W; i++) {
        buf[i] = malloc(MAXLEN);
        MT_CHECK(buf[i] != NULL, "out of memory");
    }
    MPI_Request reqs[W];
    for (int w = 0; w < nwin; w++) {
        if (rank == 0) {
            int nreq = 0;
            for (int i = 0; i < W; i++) {
                size_t len = len_of(w, i);
                for (size_t j = 0; j < len; j++)
                    buf[i][j] = byte_of(w, i, j);
                int dst = 1 + i % nrecv;
                if (i % 7 == 6)
                    MT_OK(MPI_Send(buf[i], (int)len, MPI_BYTE, dst, TAG, MPI_COMM_WORLD));
                else
                    MT_OK(MPI_Isend(buf[i], (int)len, MPI_BYTE, dst, TAG, MPI_COMM_WORLD,
                                    &reqs[nreq++]));
            }
            MT_OK(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
            for (int r = 1; r < size; r++) {
                int ack;
                MT_OK(MPI_Recv(&ack, 1, MPI_INT, r, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                MT_CHECK(ack == w, "window %d: ack %d from rank %d", w, ack, r);
            }
        } else {
            /* My messages: i = rank - 1, rank - 1 + nrecv, ... */
            int mine[W], n = 0;
            for (int i = rank - 1; i < W; i += nrecv)
                mine[n++] = i;
            int pre = n / 2;
            for (int k = 0; k < pre; k++)
                MT_OK(MPI_Irecv(buf[k], MAXLEN, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &reqs[k]));
            MPI_Status st[W];
            for (int k = pre; k < n; k++)
                MT_OK(MPI_Recv(buf[k], MAXLEN, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &st[k]));
            MT_OK(MPI_Waitall(pre, reqs, st));
            for (int k = 0; k < n; k++) {
                int i = mine[k], got;
                size_t len = len_of(w, i);
                MPI_Get_count(&st[k], MPI_BYTE, &got);
                MT_CHECK(got == (int)len, "window %d, message %d: %d bytes, want %zu "
                         "(out of order?)", w, i, got, len);
                for (size_t j = 0; j < len; j++)
                    MT_CHECK(buf[k][j] == byte_of(w, i, j),
                             "window %d, message %d: byte %zu is %d, want %d", w, i, j,
                             buf[k][j], byte_of(w, i, j));
            }
            MT_OK(MPI_Send(&w, 1, MPI_INT, 0, TAG_ACK, MPI_COMM_WORLD));
        }
    }
    for (int i = 0; i < W; i++)
        free(buf[i]);
    free(buf);
    return MTest_Finalize();
}
