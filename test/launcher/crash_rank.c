/*
 * A rank for the tests of a rank's own reports (crash.sh, timeout.sh):
 *   crash_rank segv|bus|fpe|abort R   rank R crashes that way in crash_here()
 *                                     once every rank is past MPI_Init
 *   crash_rank hang R                 rank R waits in MPI_Recv (tag 42) for a
 *                                     message rank R+1 never sends, the
 *                                     others in MPI_Barrier, until mpirun's
 *                                     --timeout ends the job
 * "mark=..." arguments (the tests' process mark) are skipped. Built with
 * -rdynamic so that the backtraces name crash_here.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

volatile int zero = 0;

void __attribute__((noinline)) crash_here(const char *how);
void __attribute__((noinline)) crash_here(const char *how)
{
    if (strcmp(how, "segv") == 0) {
        *(volatile int *)(uintptr_t)zero = 1;
    } else if (strcmp(how, "bus") == 0) {
        /* A page of a file past its end: SIGBUS on access. */
        FILE *f = tmpfile();
        char *p = f ? mmap(NULL, 4096, PROT_READ, MAP_SHARED, fileno(f), 0) : MAP_FAILED;
        if (p != MAP_FAILED)
            printf("%d\n", p[0]);
    } else if (strcmp(how, "fpe") == 0) {
        volatile int num = 7;
        printf("%d\n", num / zero);
    } else if (strcmp(how, "abort") == 0) {
        abort();
    }
    fprintf(stderr, "crash_rank: %s did not crash\n", how);
    exit(5);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3) {
        fprintf(stderr, "usage: crash_rank segv|bus|fpe|abort|hang RANK\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int who = atoi(argv[2]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(argv[1], "hang") == 0) {
        int v;
        if (rank == who)
            MPI_Recv(&v, 1, MPI_INT, (who + 1) % size, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == who) {
        crash_here(argv[1]);
    } else {
        /* The others wait for mpirun to end the job. */
        for (;;)
            pause();
    }
    MPI_Finalize();
    return 0;
}
