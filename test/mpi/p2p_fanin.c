/*
 * p2p_fanin: one receiver flooded by every other rank (flow control).
 *
 * Rank 0 posts nothing while every other rank Isends NMSG messages to it:
 * mostly small (0..120 bytes, tag TAG_SMALL), every BIG_EVERY-th one of
 * BIG bytes (tag TAG_BIG, above every transport's eager limit, so it goes
 * by rendezvous), then one TAG_DONE message. Rank 0 first receives the
 * TAG_DONE message of each sender: because of non-overtaking, by then the
 * whole flood of that sender has arrived and sits in the unexpected queue,
 * so a transport that only returns credits (or ring slots) when a receive
 * is matched deadlocks here, and one that overruns its buffers loses data.
 * Then rank 0 receives the big messages source by source (highest first)
 * and the small ones with MPI_ANY_SOURCE, and checks per source and tag
 * that the sequence numbers ascend without gaps and that payloads are intact.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define NMSG 1000
#define BIG_EVERY 50
#define BIG (256 * 1024)
#define SMALL_MAX 120
#define TAG_SMALL 11
#define TAG_BIG 12
#define TAG_DONE 13

static int is_big(int seq)
{
    return seq % BIG_EVERY == BIG_EVERY - 1;
}

static int len_of(int seq)
{
    return is_big(seq) ? BIG : seq % (SMALL_MAX + 1);
}

/* The first 8 bytes carry (source, sequence) when the message has room for
 * them; the rest is the pattern of seed source * 1000 + seq % 97. */
static void make_msg(char *buf, int src, int seq)
{
    int len = len_of(seq);
    int h[2] = { src, seq };
    MTest_Fill(buf, len, (unsigned)(src * 1000 + seq % 97));
    if (len >= (int)sizeof h)
        memcpy(buf, h, sizeof h);
}

static void check_msg(const char *buf, int got, int src, int seq, int tag)
{
    int len = len_of(seq);
    if (got != len) {
        MT_FAIL("from %d tag %d: message %d has %d bytes, expected %d", src, tag, seq, got,
                len);
        return;
    }
    char *want = MTest_Malloc(len ? len : 1);
    make_msg(want, src, seq);
    if (memcmp(want, buf, len) != 0) {
        int h[2] = { -1, -1 };
        if (len >= (int)sizeof h)
            memcpy(h, buf, sizeof h);
        MT_FAIL("from %d tag %d: message %d (%d bytes) corrupt or out of order "
                "(header says src %d seq %d)", src, tag, seq, len, h[0], h[1]);
    }
    free(want);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int np = MTest_size;

    if (MTest_rank != 0) {
        MPI_Request *req = MTest_Malloc((NMSG + 1) * sizeof(MPI_Request));
        char **bufs = MTest_Malloc(NMSG * sizeof(char *));
        for (int i = 0; i < NMSG; i++) {
            int len = len_of(i);
            bufs[i] = MTest_Malloc(len ? len : 1);
            make_msg(bufs[i], MTest_rank, i);
            MT_OK(MPI_Isend(bufs[i], len, MPI_BYTE, 0, is_big(i) ? TAG_BIG : TAG_SMALL,
                            MPI_COMM_WORLD, &req[i]));
        }
        int done = NMSG;
        MT_OK(MPI_Isend(&done, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, &req[NMSG]));
        MT_OK(MPI_Waitall(NMSG + 1, req, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NMSG; i++)
            free(bufs[i]);
        free(bufs);
        free(req);
        return MTest_Finalize();
    }

    /* Receiver: the DONE messages first, so everything else piles up. */
    for (int s = 1; s < np; s++) {
        int n = -1;
        MT_OK(MPI_Recv(&n, 1, MPI_INT, s, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(n == NMSG, "DONE from %d says %d messages, expected %d", s, n, NMSG);
    }
    char *rbuf = MTest_Malloc(BIG);
    int *next = MTest_Malloc(np * sizeof(int));

    /* The rendezvous-sized ones, per source, highest source first. */
    for (int s = np - 1; s >= 1; s--) {
        for (int seq = BIG_EVERY - 1; seq < NMSG; seq += BIG_EVERY) {
            MPI_Status st;
            int got = -1;
            MT_OK(MPI_Recv(rbuf, BIG, MPI_BYTE, s, TAG_BIG, MPI_COMM_WORLD, &st));
            MPI_Get_count(&st, MPI_BYTE, &got);
            check_msg(rbuf, got, s, seq, TAG_BIG);
        }
    }
    /* The small ones in arrival order across sources. */
    int nsmall = NMSG - NMSG / BIG_EVERY;
    for (int s = 0; s < np; s++)
        next[s] = 0;
    for (int r = 0; r < nsmall * (np - 1); r++) {
        MPI_Status st;
        int got = -1;
        MT_OK(MPI_Recv(rbuf, SMALL_MAX, MPI_BYTE, MPI_ANY_SOURCE, TAG_SMALL, MPI_COMM_WORLD,
                       &st));
        MPI_Get_count(&st, MPI_BYTE, &got);
        int s = st.MPI_SOURCE;
        if (s < 1 || s >= np) {
            MT_FAIL("small message from impossible source %d", s);
            break;
        }
        while (is_big(next[s]))
            next[s]++;
        check_msg(rbuf, got, s, next[s], TAG_SMALL);
        next[s]++;
        if (MTest_errs > 10)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* Nothing else may be pending from anyone. */
    /* Nothing else of the flood may be pending (the senders' MTest_Finalize
     * messages use another tag). */
    static const int tags[] = { TAG_SMALL, TAG_BIG, TAG_DONE };
    for (int s = 1; s < np; s++) {
        for (int t = 0; t < 3; t++) {
            int flag = 1;
            MT_OK(MPI_Iprobe(s, tags[t], MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
            MT_CHECK(!flag, "an extra message with tag %d from %d is pending", tags[t], s);
        }
    }
    free(rbuf);
    free(next);
    return MTest_Finalize();
}
