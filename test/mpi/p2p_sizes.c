/*
 * p2p_sizes: message sizes across protocol boundaries (eager / rendezvous
 * limits of every transport): 0, 1, 8, 1 KiB, 16 KiB-1, 16 KiB, 16 KiB+1,
 * 64 KiB, 1 MiB, 4 MiB+3. For each size: a nonblocking ring (Irecv from the
 * left, Isend to the right; at np 1 that is a send to self), blocking
 * Send/Recv and Ssend/Recv between pairs, and a receive into a larger buffer
 * (Get_count reports the message size, the tail of the buffer is untouched).
 * Every payload is verified byte by byte.
 *
 * Usage: p2p_sizes [LARGEST]: with LARGEST (bytes, 1 to 1 GiB), the sizes
 * of the list below LARGEST and then LARGEST itself (under emulation the
 * 4 MiB message costs most of the run; e.g. 1048579 keeps every protocol
 * boundary above and an unaligned tail).
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = { 0, 1, 8, 1024, 16383, 16384, 16385, 65536,
                                1048576, 4194304 + 3 };
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define LARGEST_MAX (1L << 30)
#define TAIL 64
#define TAIL_BYTE 0x5a

static void check_count(MPI_Status *st, size_t n, const char *what)
{
    int got = -1;

    MPI_Get_count(st, MPI_BYTE, &got);
    MT_CHECK(got == (int)n, "%s: Get_count %d, expected %zu", what, got, n);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    int peer = MTest_rank ^ 1;
    size_t use[NSIZES + 1], nuse = 0;

    if (argc > 1) {
        char *end;
        long largest = strtol(argv[1], &end, 10);
        if (*argv[1] == '\0' || *end != '\0' || largest < 1 || largest > LARGEST_MAX) {
            MT_FAIL("usage: p2p_sizes [LARGEST]: LARGEST must be 1 to %ld bytes, not '%s'",
                    LARGEST_MAX, argv[1]);
            return MTest_Finalize();
        }
        for (size_t k = 0; k < NSIZES && sizes[k] < (size_t)largest; k++)
            use[nuse++] = sizes[k];
        use[nuse++] = (size_t)largest;
    } else {
        for (size_t k = 0; k < NSIZES; k++)
            use[nuse++] = sizes[k];
    }
    char *sbuf = MTest_Malloc(use[nuse - 1]);
    char *rbuf = MTest_Malloc(use[nuse - 1] + TAIL);

    for (size_t k = 0; k < nuse; k++) {
        size_t n = use[k];
        char what[64];
        MPI_Request req[2];
        MPI_Status st[2];

        /* ring: Irecv posted before the matching send arrives (mostly) */
        snprintf(what, sizeof what, "ring %zu bytes", n);
        MTest_Fill(sbuf, n, MTest_rank * 100 + k);
        memset(rbuf, 0, n + TAIL);
        MT_OK(MPI_Irecv(rbuf, (int)n, MPI_BYTE, left, 1, MPI_COMM_WORLD, &req[0]));
        MT_OK(MPI_Isend(sbuf, (int)n, MPI_BYTE, right, 1, MPI_COMM_WORLD, &req[1]));
        MT_OK(MPI_Waitall(2, req, st));
        check_count(&st[0], n, what);
        MT_CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 1,
                 "%s: status source %d tag %d, expected %d 1", what,
                 st[0].MPI_SOURCE, st[0].MPI_TAG, left);
        MTest_Verify(rbuf, n, left * 100 + k, what);

        if (peer < MTest_size) {
            int first = MTest_rank < peer;
            /* blocking standard, both directions; receive into a larger buffer */
            snprintf(what, sizeof what, "Send/Recv %zu bytes", n);
            MTest_Fill(sbuf, n, MTest_rank * 100 + k + 50);
            memset(rbuf, TAIL_BYTE, n + TAIL);
            for (int phase = 0; phase < 2; phase++) {
                if ((phase == 0) == first) {
                    MT_OK(MPI_Send(sbuf, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD));
                } else {
                    MT_OK(MPI_Recv(rbuf, (int)(n + TAIL), MPI_BYTE, peer, 2,
                                   MPI_COMM_WORLD, &st[0]));
                    check_count(&st[0], n, what);
                }
            }
            MTest_Verify(rbuf, n, peer * 100 + k + 50, what);
            for (int i = 0; i < TAIL; i++) {
                if ((unsigned char)rbuf[n + i] != TAIL_BYTE) {
                    MT_FAIL("%s: byte %zu past the message was overwritten", what, n + i);
                    break;
                }
            }

            /* synchronous */
            snprintf(what, sizeof what, "Ssend/Recv %zu bytes", n);
            MTest_Fill(sbuf, n, MTest_rank * 100 + k + 70);
            memset(rbuf, 0, n);
            for (int phase = 0; phase < 2; phase++) {
                if ((phase == 0) == first) {
                    MT_OK(MPI_Ssend(sbuf, (int)n, MPI_BYTE, peer, 3, MPI_COMM_WORLD));
                } else {
                    MT_OK(MPI_Recv(rbuf, (int)n, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &st[0]));
                    check_count(&st[0], n, what);
                }
            }
            MTest_Verify(rbuf, n, peer * 100 + k + 70, what);
        }
    }
    free(sbuf);
    free(rbuf);
    return MTest_Finalize();
}
