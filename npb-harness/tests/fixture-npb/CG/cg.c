/* Fixture CG: a benchmark that never passes, to test the harness's failure
 * rows. Class S runs and reports a wrong result (UNSUCCESSFUL); class W
 * never finishes (for --timeout); class A crashes. */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>
#include "npbparams.h"
#include "../common/c_print_results.h"

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (CLASS == 'W')
        for (;;)
            sleep(1);
    if (CLASS == 'A')
        abort();
    double t0 = MPI_Wtime(), x = 0;
    for (int i = 1; i < 1000000; i++)
        x += 1.0 / i;
    double t = MPI_Wtime() - t0;
    if (rank == 0)
        c_print_results("CG", CLASS, 1000000, 1, size, t, t > 0 ? 1 / t : 0,
                        "floating point", x < 0 /* never */);
    MPI_Finalize();
    return 0;
}
