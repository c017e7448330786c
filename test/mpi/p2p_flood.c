/*
 * p2p_flood: unexpected-message floods. Every rank sends NMSG messages to
 * every rank (itself included) with Isend, mostly 8 bytes with every 100th
 * 64 KiB; then, after a barrier so that the messages pile up in the
 * unexpected queues, receives them: first the messages with odd sequence
 * numbers (their own tag) source by source, highest source first, then the
 * even ones with MPI_ANY_SOURCE. Per source and tag the sequence numbers
 * must ascend, and big payloads are verified.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define NMSG 1000
#define BIG 65536
#define TAG_EVEN 1
#define TAG_ODD 2

static int len_of(int seq)
{
    return seq % 100 == 99 ? BIG : 8;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int np = MTest_size;
    int nsend = NMSG * np;
    MPI_Request *req = MTest_Malloc(nsend * sizeof(MPI_Request));
    int (*hdr)[2] = MTest_Malloc(nsend * sizeof *hdr);
    char **bigs = calloc(nsend, sizeof(char *));
    char *rbuf = MTest_Malloc(BIG);
    int *next = MTest_Malloc(np * 2 * sizeof(int));

    for (int d = 0; d < np; d++) {
        for (int i = 0; i < NMSG; i++) {
            int k = d * NMSG + i;
            void *b = hdr[k];
            hdr[k][0] = MTest_rank;
            hdr[k][1] = i;
            if (len_of(i) == BIG) {
                /* (source, sequence) first, then a pattern of the source */
                bigs[k] = MTest_Malloc(BIG);
                memcpy(bigs[k], hdr[k], sizeof hdr[k]);
                MTest_Fill(bigs[k] + sizeof hdr[k], BIG - sizeof hdr[k], 77 + MTest_rank);
                b = bigs[k];
            }
            MT_OK(MPI_Isend(b, len_of(i), MPI_BYTE, d, i % 2 ? TAG_ODD : TAG_EVEN,
                            MPI_COMM_WORLD, &req[k]));
        }
    }
    MT_OK(MPI_Barrier(MPI_COMM_WORLD));

    for (int s = 0; s < np; s++) {
        next[2 * s] = 0;
        next[2 * s + 1] = 1;
    }
    for (int pass = 0; pass < 2; pass++) {
        int tag = pass == 0 ? TAG_ODD : TAG_EVEN;
        for (int r = 0; r < NMSG / 2 * np; r++) {
            int src = pass == 0 ? np - 1 - r / (NMSG / 2) : MPI_ANY_SOURCE;
            MPI_Status st;
            int got = -1, h[2];
            MT_OK(MPI_Recv(rbuf, BIG, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st));
            MPI_Get_count(&st, MPI_BYTE, &got);
            memcpy(h, rbuf, sizeof h);
            int s = st.MPI_SOURCE;
            if (s < 0 || s >= np || (src != MPI_ANY_SOURCE && s != src)) {
                MT_FAIL("receive from %d: status source %d", src, s);
                break;
            }
            int *want = &next[2 * s + (tag == TAG_ODD)];
            if (h[0] != s || h[1] != *want || got != len_of(*want)) {
                MT_FAIL("from %d tag %d: got (src %d, seq %d, %d bytes), expected seq %d "
                        "of %d bytes", s, tag, h[0], h[1], got, *want, len_of(*want));
                if (MTest_errs > 10)
                    MPI_Abort(MPI_COMM_WORLD, 1);
            } else if (got == BIG) {
                MTest_Verify(rbuf + sizeof h, BIG - sizeof h, 77 + s, "64 KiB flood payload");
            }
            *want += 2;
        }
    }
    MT_OK(MPI_Waitall(nsend, req, MPI_STATUSES_IGNORE));
    for (int k = 0; k < nsend; k++)
        free(bigs[k]);
    free(bigs);
    free(req);
    free(hdr);
    free(rbuf);
    free(next);
    return MTest_Finalize();
}
