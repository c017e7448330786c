/*
 * async_progress: with RDMPI_ASYNC_PROGRESS=1 a message reaches a rank that
 * computes outside MPI. Rank 0 posts a receive of a rendezvous-size message
 * and then computes without calling MPI, watching the end of its receive
 * buffer; rank 1 sends. Only a progress thread can answer the rendezvous
 * and copy the data while rank 0 computes (the cases run over tcp, where
 * nothing writes a process's memory but itself).
 *
 * The verdict is an ordering, not a time: "on" (the default) passes when
 * the data arrived before rank 0 called MPI again (it computes for at most
 * ASYNC_WAIT_ON_S seconds, ending as soon as the data is there); "off" runs
 * without the thread and passes when nothing arrived during a short
 * computation, which shows that the "on" result is the thread's doing.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MSG_BYTES (4u << 20)
#define TAIL 64            /* bytes watched at the end of the buffer */
#define ASYNC_WAIT_ON_S 30.0
#define ASYNC_WAIT_OFF_S 0.5

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether the watched tail of buf holds the sent pattern (read as the
 * library writes it, from another thread). */
static int tail_arrived(const volatile unsigned char *buf)
{
    for (size_t i = MSG_BYTES - TAIL; i < MSG_BYTES; i++)
        if (buf[i] != MTest_byte(i, 5))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int on = !(argc > 1 && !strcmp(argv[1], "off"));
    unsigned char *buf = malloc(MSG_BYTES);
    if (!buf) {
        MT_FAIL("out of memory");
        return MTest_Finalize();
    }

    if (MTest_rank == 0) {
        /* Every watched byte starts different from what will arrive. */
        for (size_t i = 0; i < MSG_BYTES; i++)
            buf[i] = (unsigned char)~MTest_byte(i, 5);
        MPI_Request r;
        MT_OK(MPI_Irecv(buf, MSG_BYTES, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        /* Compute outside MPI until the data is there or the time is up. */
        double end = now_s() + (on ? ASYNC_WAIT_ON_S : ASYNC_WAIT_OFF_S);
        int arrived = 0;
        volatile double sink = 0;
        while (!(arrived = tail_arrived(buf)) && now_s() < end)
            for (int k = 0; k < 10000; k++)
                sink += k * 0.5;
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MTest_Verify(buf, MSG_BYTES, 5, "received message");
        if (on)
            MT_CHECK(arrived, "the message did not arrive while rank 0 computed outside MPI "
                     "for %.0f s (is RDMPI_ASYNC_PROGRESS=1 set?)", ASYNC_WAIT_ON_S);
        else
            MT_CHECK(!arrived, "the message arrived while rank 0 computed outside MPI "
                     "without a progress thread");
    } else if (MTest_rank == 1) {
        MTest_Fill(buf, MSG_BYTES, 5);
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_Request r;
        MT_OK(MPI_Isend(buf, MSG_BYTES, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    free(buf);
    return MTest_Finalize();
}
