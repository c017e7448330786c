/* Fixture DT: NUM_SOURCES source ranks each send an array to one sink rank
 * (graph "BH": sources -> sink), which reduces them to a checksum checked
 * by rank 0. Like NPB's DT it needs the graph name as its argument and at
 * least one process per graph node. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "npbparams.h"
#include "../common/c_print_results.h"

#define LEN 4096
#define ROUNDS 50

int main(int argc, char **argv)
{
    int rank, size, nodes = NUM_SOURCES + 1, sink = NUM_SOURCES;
    static double buf[LEN];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || strcmp(argv[1], "BH") != 0) {
        if (rank == 0)
            fprintf(stderr, "** Usage: mpirun -np N dt.S.x BH\n");
        MPI_Finalize();
        return 1;
    }
    if (size < nodes) {
        if (rank == 0)
            fprintf(stderr, "** Number of MPI processes = %d, nodes in the "
                    "graph = %d\n", size, nodes);
        MPI_Finalize();
        return 1;
    }

    double t0 = MPI_Wtime(), checksum = 0;
    for (int round = 0; round < ROUNDS; round++) {
        if (rank < NUM_SOURCES) {
            for (int i = 0; i < LEN; i++)
                buf[i] = rank + 1 + i % 7;
            MPI_Send(buf, LEN, MPI_DOUBLE, sink, round, MPI_COMM_WORLD);
        } else if (rank == sink) {
            for (int s = 0; s < NUM_SOURCES; s++) {
                MPI_Recv(buf, LEN, MPI_DOUBLE, s, round, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                for (int i = 0; i < LEN; i++)
                    checksum += buf[i];
            }
        }
    }
    if (rank == sink && sink != 0)
        MPI_Send(&checksum, 1, MPI_DOUBLE, 0, ROUNDS, MPI_COMM_WORLD);
    if (rank == 0 && sink != 0)
        MPI_Recv(&checksum, 1, MPI_DOUBLE, sink, ROUNDS, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double t = MPI_Wtime() - t0;

    if (rank == 0) {
        double expect = 0; /* sum over sources s and i of s + 1 + i % 7 */
        for (int s = 0; s < NUM_SOURCES; s++)
            for (int i = 0; i < LEN; i++)
                expect += s + 1 + i % 7;
        expect *= ROUNDS;
        double bytes = (double)NUM_SOURCES * LEN * sizeof(double) * ROUNDS;
        c_print_results("DT", CLASS, LEN, ROUNDS, size, t,
                        t > 0 ? bytes / t / 1e6 : 0.0, "bytes transmitted",
                        checksum == expect);
    }
    MPI_Finalize();
    return 0;
}
