/*
 * async_progress: with RDMPI_ASYNC_PROGRESS=1 data reaches a rank that
 * computes outside MPI. Rank 0 posts a receive of a rendezvous-size message
 * (or, with the argument "rma", exposes a window) and then computes without
 * calling MPI, watching the end of its buffer; rank 1 sends (or locks rank
 * 0's window, puts and unlocks: passive target). Only a progress thread can
 * answer the rendezvous or apply the put while rank 0 computes (the cases
 * run over tcp, where nothing writes a process's memory but itself).
 *
 * The verdict is an ordering, not a time: "on" (the default) passes when
 * the data arrived before rank 0 called MPI again (it computes for at most
 * ASYNC_WAIT_ON_S seconds, ending as soon as the data is there); "off" runs
 * without the thread and passes when nothing arrived during a short
 * computation (unless it was there before rank 0 left MPI), which shows
 * that the "on" result is the thread's doing.
 * The arguments are a mode ("p2p" or "rma") and "on" or "off".
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MSG_BYTES (4u << 20)
#define RMA_BYTES (256u << 10) /* many active messages, each applied by the target */
#define TAIL 64            /* bytes watched at the end of the buffer */
#define ASYNC_WAIT_ON_S 30.0
#define ASYNC_WAIT_OFF_S 1.0
/* Rank 1 starts this long after the barrier, so that rank 0 has left MPI
 * by then (data that still reached it inside MPI_Barrier proves nothing). */
#define SENDER_DELAY_NS 200000000L

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether the watched tail of buf holds the sent pattern (read as the
 * library writes it, from another thread). */
static int tail_arrived(const volatile unsigned char *buf, size_t bytes)
{
    for (size_t i = bytes - TAIL; i < bytes; i++)
        if (buf[i] != MTest_byte(i, 5))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int rma = 0, on = 1;
    for (int i = 1; i < argc; i++) {
        rma |= !strcmp(argv[i], "rma");
        on &= strcmp(argv[i], "off") != 0;
    }
    size_t bytes = rma ? RMA_BYTES : MSG_BYTES;
    MPI_Win win = MPI_WIN_NULL;
    unsigned char *buf = malloc(bytes);
    if (!buf) {
        MT_FAIL("out of memory");
        return MTest_Finalize();
    }
    /* A window on ordinary memory: over tcp, puts to it are applied by the
     * target's progress (a Win_allocate window of a rank on this node would
     * be written directly in shared memory). */
    if (rma)
        MT_OK(MPI_Win_create(buf, MTest_rank == 0 ? (MPI_Aint)bytes : 0, 1, MPI_INFO_NULL,
                             MPI_COMM_WORLD, &win));

    if (MTest_rank == 0) {
        /* Every watched byte starts different from what will arrive. */
        for (size_t i = 0; i < bytes; i++)
            buf[i] = (unsigned char)~MTest_byte(i, 5);
        MPI_Request r = MPI_REQUEST_NULL;
        if (!rma)
            MT_OK(MPI_Irecv(buf, (int)bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &r));
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        /* Compute outside MPI until the data is there or the time is up. */
        double end = now_s() + (on ? ASYNC_WAIT_ON_S : ASYNC_WAIT_OFF_S);
        int early = tail_arrived(buf, bytes), arrived = 0;
        volatile double sink = 0;
        while (!(arrived = tail_arrived(buf, bytes)) && now_s() < end)
            for (int k = 0; k < 10000; k++)
                sink += k * 0.5;
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        /* Rank 1's unlock has returned: its put is complete here. */
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        MTest_Verify(buf, bytes, 5, "received data");
        if (on)
            MT_CHECK(arrived, "the data did not arrive while rank 0 computed outside MPI "
                     "for %.0f s (is RDMPI_ASYNC_PROGRESS=1 set?)", ASYNC_WAIT_ON_S);
        else
            MT_CHECK(early || !arrived, "the data arrived while rank 0 computed outside MPI "
                     "without a progress thread");
    } else if (MTest_rank == 1) {
        MTest_Fill(buf, bytes, 5);
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        const struct timespec delay = { 0, SENDER_DELAY_NS };
        nanosleep(&delay, NULL);
        if (rma) {
            MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            MT_OK(MPI_Put(buf, (int)bytes, MPI_BYTE, 0, 0, (int)bytes, MPI_BYTE, win));
            MT_OK(MPI_Win_unlock(0, win));
        } else {
            MPI_Request r;
            MT_OK(MPI_Isend(buf, (int)bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &r));
            MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    } else {
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
        MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    if (rma)
        MT_OK(MPI_Win_free(&win));
    free(buf);
    return MTest_Finalize();
}
