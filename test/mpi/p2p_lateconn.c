/*
 * p2p_lateconn: a second peer connects while the first one's messages are
 * unread (the TCP transport's direct connection, src/transport/tcp).
 *
 * With one connection, the TCP transport reads it directly and raises its
 * SO_RCVLOWAT, which keeps epoll from reporting small arrivals; when a
 * second connection opens, the level must go back down so that what is
 * still unread is reported to epoll. Here rank 0 talks only to rank 1
 * (small and big messages, so both levels are used), then stops calling
 * MPI while rank 1 sends a last burst (small, big, small) and rank 2 sends
 * its first messages ever to rank 0. Rank 0 then receives rank 2's
 * messages first, then rank 1's burst, then a final round trip with each:
 * a level left up would leave rank 1's burst unreported (a hang, caught by
 * the watchdog). Every payload and the per-source order are checked.
 * Needs 3 ranks (others only join the final barrier).
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WARM 200            /* round trips of rank 0 with rank 1 alone */
#define BIG (48 * 1024)     /* above the transport's "big frame" size, eager */
#define TAG_WARM 1
#define TAG_BURST 2
#define TAG_LATE 3
#define TAG_GO 4
#define TAG_FINAL 5

static const int burst_len[] = { 8, 2048, BIG, BIG, 100, 4096, 1 };
#define NBURST ((int)(sizeof burst_len / sizeof burst_len[0]))
static const int late_len[] = { 16, BIG, 3000 };
#define NLATE ((int)(sizeof late_len / sizeof late_len[0]))

static int warm_len(int i)
{
    return i % 10 == 9 ? BIG : 1 + i % 3000;
}

static void recv_check(char *buf, int len, int src, int tag, unsigned seed, const char *what)
{
    MPI_Status st;
    int got = -1;
    MT_OK(MPI_Recv(buf, BIG, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_BYTE, &got);
    MT_CHECK(got == len, "%s: %d bytes, expected %d", what, got, len);
    if (got == len)
        MTest_Verify(buf, (size_t)len, seed, what);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(3);
    char *buf = MTest_Malloc(BIG);
    char what[64];

    if (MTest_rank == 0) {
        for (int i = 0; i < WARM; i++) {
            snprintf(what, sizeof what, "warm-up %d from rank 1", i);
            recv_check(buf, warm_len(i), 1, TAG_WARM, (unsigned)i, what);
            MTest_Fill(buf, (size_t)warm_len(i), (unsigned)i + 7u);
            MT_OK(MPI_Send(buf, warm_len(i), MPI_BYTE, 1, TAG_WARM, MPI_COMM_WORLD));
        }
        /* No MPI calls: rank 1's burst and rank 2's connection pile up. */
        usleep(300 * 1000);
        for (int i = 0; i < NLATE; i++) {
            snprintf(what, sizeof what, "message %d from rank 2", i);
            recv_check(buf, late_len[i], 2, TAG_LATE, 500u + (unsigned)i, what);
        }
        for (int i = 0; i < NBURST; i++) {
            snprintf(what, sizeof what, "burst message %d from rank 1", i);
            recv_check(buf, burst_len[i], 1, TAG_BURST, 100u + (unsigned)i, what);
        }
        for (int p = 1; p <= 2; p++) {
            MTest_Fill(buf, 64, 900u + (unsigned)p);
            MT_OK(MPI_Send(buf, 64, MPI_BYTE, p, TAG_FINAL, MPI_COMM_WORLD));
            snprintf(what, sizeof what, "final reply from rank %d", p);
            recv_check(buf, 64, p, TAG_FINAL, 950u + (unsigned)p, what);
        }
    } else if (MTest_rank == 1) {
        for (int i = 0; i < WARM; i++) {
            MTest_Fill(buf, (size_t)warm_len(i), (unsigned)i);
            MT_OK(MPI_Send(buf, warm_len(i), MPI_BYTE, 0, TAG_WARM, MPI_COMM_WORLD));
            snprintf(what, sizeof what, "warm-up reply %d", i);
            recv_check(buf, warm_len(i), 0, TAG_WARM, (unsigned)i + 7u, what);
        }
        /* Nonblocking: rank 0 takes rank 2's messages first, and a big
         * send may wait for its receive. Rank 2 connects to rank 0 only
         * after the burst is posted. */
        char *bufs[NBURST];
        MPI_Request req[NBURST + 1];
        for (int i = 0; i < NBURST; i++) {
            bufs[i] = MTest_Malloc((size_t)burst_len[i]);
            MTest_Fill(bufs[i], (size_t)burst_len[i], 100u + (unsigned)i);
            MT_OK(MPI_Isend(bufs[i], burst_len[i], MPI_BYTE, 0, TAG_BURST, MPI_COMM_WORLD, &req[i]));
        }
        MT_OK(MPI_Isend(NULL, 0, MPI_BYTE, 2, TAG_GO, MPI_COMM_WORLD, &req[NBURST]));
        MT_OK(MPI_Waitall(NBURST + 1, req, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NBURST; i++)
            free(bufs[i]);
        recv_check(buf, 64, 0, TAG_FINAL, 901u, "final message from rank 0");
        MTest_Fill(buf, 64, 951u);
        MT_OK(MPI_Send(buf, 64, MPI_BYTE, 0, TAG_FINAL, MPI_COMM_WORLD));
    } else if (MTest_rank == 2) {
        MT_OK(MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < NLATE; i++) {
            MTest_Fill(buf, (size_t)late_len[i], 500u + (unsigned)i);
            MT_OK(MPI_Send(buf, late_len[i], MPI_BYTE, 0, TAG_LATE, MPI_COMM_WORLD));
        }
        recv_check(buf, 64, 0, TAG_FINAL, 902u, "final message from rank 0");
        MTest_Fill(buf, 64, 952u);
        MT_OK(MPI_Send(buf, 64, MPI_BYTE, 0, TAG_FINAL, MPI_COMM_WORLD));
    }
    free(buf);
    return MTest_Finalize();
}
