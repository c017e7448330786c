/*
 * rc_fault: an RC connection that breaks (RDMPI_RC_FAULT) is reported as
 * an MPI error on the operations that need the peer, and the job ends with
 * a non-zero exit and a message naming what failed, never a hang. rdmpi
 * only, over real verbs at np 2 with RDMPI_TRANSPORTS=rc (the rc lines of
 * test/rdma-vm/rdma.testlist, expect=fail-nonzero).
 *
 * The program asks for the fault itself: before MPI_Init it sets
 * RDMPI_RC_FAULT=1:N, so that rank 1 moves its QP to rank 0 into the error
 * state when it sends its message N + 1 to rank 0 (a broken link: rank 1's
 * work requests flush, rank 0's retries run out). Setting it here reaches
 * ranks on other guests too, whose launch passes on only mpirun -x
 * variables. Mode (argv[1]):
 *   loop      (default) MPI_ERRORS_RETURN; ranks 0 and 1 exchange messages
 *             with MPI_Sendrecv until one fails (N = 5: rank 1's sixth).
 *             The rank that sees it (rank 1 at once; rank 0 only when its
 *             retries are exhausted, if the job still runs by then) checks
 *             that the exchange, a send to the peer, a receive from it, a
 *             receive from MPI_ANY_SOURCE and a probe of it all fail with
 *             MPI_ERR_OTHER naming both ranks, prints one line and exits
 *             with 42; mpirun then ends the job.
 *   finalize  ranks 0 and 1 exchange FIN_MSGS messages each way (rank 1
 *             sends exactly FIN_MSGS), then both call MPI_Finalize, rank 0
 *             a second later: rank 1's first message of the closing barrier
 *             breaks the QP (N = FIN_MSGS) while rank 1 is still in the
 *             barrier. Its barrier fails and MPI_Finalize must end the job
 *             with the reason ("the closing barrier failed"): rank 0, in
 *             its own barrier, would otherwise wait for rank 1 (or, once
 *             its retries run out, fail its barrier and exit 0).
 *   finalize-last  the same, but rank 1 calls MPI_Finalize a second after
 *             rank 0, so that rank 0's barrier message has reached it:
 *             rank 1 completes the barrier and its own barrier message is
 *             lost on the broken QP afterwards. Rank 0 waits for it
 *             forever unless rank 1 notices in MPI_Finalize that the
 *             message was not delivered and ends the job ("were not
 *             delivered").
 * A job that ends with exit 0 (nothing failed) or runs into the time limit
 * fails the case. RDMPI_RC_FAULT exists only in a library configured with
 * --enable-fault-injection; built without it, the program prints a
 * "SKIP:" line and exits 77 instead of running (the testlists skip it
 * before that: needs=fault-injection).
 */
#include "config.h"

#include "err_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_REPORTED 42
#define LOOP_FAULT_AFTER 5       /* loop: rank 1's message 6 breaks the QP */
#define LOOP_MAX 1000            /* loop: exchanges before giving up */
#define FIN_MSGS 4               /* finalize: messages before MPI_Finalize */

static int peer;

/* After the first failed exchange (rc): everything that needs the peer fails. */
static void report(int rc, int iter)
{
    char what[64];
    int x = 0;
    snprintf(what, sizeof(what), "MPI_Sendrecv with rank %d (exchange %d)", peer, iter);
    expect_peer_error("rc_fault", rc, what);
    snprintf(what, sizeof(what), "MPI_Send to rank %d", peer);
    expect_peer_error("rc_fault", MPI_Send(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD), what);
    snprintf(what, sizeof(what), "MPI_Recv from rank %d", peer);
    expect_peer_error("rc_fault", MPI_Recv(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                      what);
    expect_peer_error("rc_fault", MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE), "MPI_Recv from MPI_ANY_SOURCE");
    MPI_Status st;
    snprintf(what, sizeof(what), "MPI_Probe of rank %d", peer);
    expect_peer_error("rc_fault", MPI_Probe(peer, 2, MPI_COMM_WORLD, &st), what);
    if (MTest_errs) {
        fprintf(stderr, "rc_fault: rank %d: %d check(s) failed\n", MTest_rank, MTest_errs);
        _exit(1);
    }
    fprintf(stderr, "rc_fault: rank %d: every operation on rank %d failed cleanly; "
            "exiting with %d\n", MTest_rank, peer, EXIT_REPORTED);
    _exit(EXIT_REPORTED);
}

static void loop(void)
{
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    for (int i = 0; i < LOOP_MAX; i++) {
        int out = MTest_rank * LOOP_MAX + i, in = -1;
        int rc = MPI_Sendrecv(&out, 1, MPI_INT, peer, 1, &in, 1, MPI_INT, peer, 1,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            report(rc, i);
        MT_CHECK(in == peer * LOOP_MAX + i, "exchange %d: got %d from rank %d", i, in, peer);
    }
    fprintf(stderr, "rc_fault: rank %d: %d exchanges and no error: the fault never fired\n",
            MTest_rank, LOOP_MAX);
}

static void finalize(int last)
{
    for (int i = 0; i < FIN_MSGS; i++) {
        int out = MTest_rank * 100 + i, in = -1;
        MT_OK(MPI_Sendrecv(&out, 1, MPI_INT, peer, 1, &in, 1, MPI_INT, peer, 1,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(in == peer * 100 + i, "exchange %d: got %d from rank %d", i, in, peer);
    }
    if (MTest_errs) {
        fprintf(stderr, "rc_fault: rank %d: the exchanges before MPI_Finalize failed\n",
                MTest_rank);
        _exit(1);
    }
    if (MTest_rank == (last ? 1 : 0))
        sleep(1);
    fprintf(stderr, "rc_fault: rank %d: calling MPI_Finalize\n", MTest_rank);
    int rc = MPI_Finalize();
    /* Only reached if the closing barrier did not end the job. */
    fprintf(stderr, "rc_fault: rank %d: MPI_Finalize returned %d\n", MTest_rank, rc);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "loop";
    int last = strcmp(mode, "finalize-last") == 0;
    int fin = last || strcmp(mode, "finalize") == 0;
    if (!fin && strcmp(mode, "loop") != 0) {
        fprintf(stderr, "usage: rc_fault [loop|finalize|finalize-last]\n");
        return 2;
    }
#ifndef RD_FAULT_INJECTION
    printf("SKIP: the library was built without --enable-fault-injection, "
           "so RDMPI_RC_FAULT does nothing\n");
    return 77;
#endif
    char knob[32];
    snprintf(knob, sizeof(knob), "1:%d", fin ? FIN_MSGS : LOOP_FAULT_AFTER);
    setenv("RDMPI_RC_FAULT", knob, 1);
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    if (MTest_rank > 1)
        _exit(0);   /* extra ranks play no part */
    peer = 1 - MTest_rank;
    if (fin) {
        finalize(last);
        return 0;
    }
    loop();
    MPI_Finalize();
    return 0;
}
