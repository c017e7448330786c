/*
 * p2p_order: non-overtaking. Every rank (rank 0 included, to itself) sends
 * rank 0 a sequence of messages of mixed sizes (0 B, small eager, 1 KiB,
 * 100 KiB, 300 KiB) with one tag, half with Isend and half with blocking Send
 * (rank 0 to itself: all Isend);
 * rank 0 receives them with MPI_ANY_SOURCE and checks that each sender's
 * messages arrive in send order (the size and payload identify the sequence
 * number). Then interleaved tags: each sender alternates tags A and B; the
 * receiver takes all B first, then all A, each in order; finally the same
 * with MPI_ANY_TAG must give exactly the send order.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define NMSG 40
#define MAXLEN (300 * 1024)
#define TAG_SEQ 1
#define TAG_A 2
#define TAG_B 3

static size_t len_of(int seq)
{
    static const size_t lens[] = { 4, 0, 1024, 100 * 1024, 8, MAXLEN, 16 };
    return lens[seq % 7];
}

static unsigned seed_of(int src, int seq)
{
    return (unsigned)(src * 1000 + seq);
}

/* Non-root senders: in phase 0 the first half goes out with Isend and the
 * second half with blocking Send; with interleaved tags (the receiver takes
 * tag B before tag A) every message is an Isend, since a blocking send of a
 * large tag-A message would wait for the receiver forever. */
static void send_all(int tag_mode, char *bufs)
{
    MPI_Request req[NMSG];
    int nreq = 0;

    for (int i = 0; i < NMSG; i++) {
        char *b = bufs + (size_t)i * MAXLEN;
        int tag = tag_mode ? (i % 2 ? TAG_B : TAG_A) : TAG_SEQ;
        MTest_Fill(b, len_of(i), seed_of(MTest_rank, i));
        if (tag_mode || i < NMSG / 2)
            MT_OK(MPI_Isend(b, (int)len_of(i), MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[nreq++]));
        else
            MT_OK(MPI_Send(b, (int)len_of(i), MPI_BYTE, 0, tag, MPI_COMM_WORLD));
    }
    MT_OK(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
}

/* Receive one message from src (or ANY_SOURCE) with tag; check it is seq next[src]. */
static void recv_one(char *rbuf, int src, int tag, int *next, int step, const char *what)
{
    MPI_Status st;
    int got = -1;

    MT_OK(MPI_Recv(rbuf, MAXLEN, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
    int s = st.MPI_SOURCE;
    if (s < 0 || s >= MTest_size) {
        MT_FAIL("%s: bad source %d", what, s);
        return;
    }
    int seq = next[s];
    MPI_Get_count(&st, MPI_BYTE, &got);
    if (seq >= NMSG || got != (int)len_of(seq)) {
        MT_FAIL("%s: from %d expected message %d of %zu bytes, got %d bytes (tag %d)",
                what, s, seq, seq < NMSG ? len_of(seq) : 0, got, st.MPI_TAG);
    } else {
        MTest_Verify(rbuf, len_of(seq), seed_of(s, seq), what);
        if (tag == MPI_ANY_TAG)
            MT_CHECK(st.MPI_TAG == (seq % 2 ? TAG_B : TAG_A), "%s: message %d tag %d",
                     what, seq, st.MPI_TAG);
    }
    next[s] += step;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    char *bufs = MTest_Malloc((size_t)NMSG * MAXLEN);
    char *rbuf = MTest_Malloc(MAXLEN);
    int *next = calloc(MTest_size, sizeof(int));

    for (int phase = 0; phase < 3; phase++) {
        int tag_mode = phase > 0;
        if (MTest_rank == 0) {
            MPI_Request req[NMSG];
            /* rank 0's own messages go out first, nonblocking, to itself */
            for (int i = 0; i < NMSG; i++) {
                char *b = bufs + (size_t)i * MAXLEN;
                int tag = tag_mode ? (i % 2 ? TAG_B : TAG_A) : TAG_SEQ;
                MTest_Fill(b, len_of(i), seed_of(0, i));
                MT_OK(MPI_Isend(b, (int)len_of(i), MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[i]));
            }
            if (phase == 0) {
                memset(next, 0, MTest_size * sizeof(int));
                for (int i = 0; i < NMSG * MTest_size; i++)
                    recv_one(rbuf, MPI_ANY_SOURCE, TAG_SEQ, next, 1, "ANY_SOURCE order");
            } else if (phase == 1) {
                /* all B (odd sequence numbers) first, then all A */
                for (int s = 0; s < MTest_size; s++)
                    next[s] = 1;
                for (int i = 0; i < NMSG / 2 * MTest_size; i++)
                    recv_one(rbuf, MPI_ANY_SOURCE, TAG_B, next, 2, "tag B order");
                for (int s = 0; s < MTest_size; s++)
                    next[s] = 0;
                for (int s = 0; s < MTest_size; s++)
                    for (int i = 0; i < NMSG / 2; i++)
                        recv_one(rbuf, s, TAG_A, next, 2, "tag A order");
            } else {
                memset(next, 0, MTest_size * sizeof(int));
                for (int s = MTest_size - 1; s >= 0; s--)
                    for (int i = 0; i < NMSG; i++)
                        recv_one(rbuf, s, MPI_ANY_TAG, next, 1, "ANY_TAG order");
            }
            MT_OK(MPI_Waitall(NMSG, req, MPI_STATUSES_IGNORE));
        } else {
            send_all(tag_mode, bufs);
        }
        /* keep phases apart: rank 0 releases the senders */
        if (MTest_rank == 0) {
            for (int s = 1; s < MTest_size; s++)
                MT_OK(MPI_Send(NULL, 0, MPI_BYTE, s, 99, MPI_COMM_WORLD));
        } else {
            MT_OK(MPI_Recv(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
    }
    free(next);
    free(bufs);
    free(rbuf);
    return MTest_Finalize();
}
