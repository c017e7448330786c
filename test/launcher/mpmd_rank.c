/*
 * A rank for the MPMD tests of mpirun: an MPI program (through libmpi,
 * unlike boot_client) that prints what MPI tells it about its place in a
 * job of several programs, and checks that MPI_COMM_WORLD spans them all.
 *
 *   "mpmd <rank> of <size> appnum <MPI_APPNUM or none> arg <argv[1]> env <MPMD_VAR or unset>"
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, flag, *appnum, sum = 0, one = 1;
    const char *var = getenv("MPMD_VAR");
    char app[16] = "none";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    if (flag)
        snprintf(app, sizeof(app), "%d", *appnum);
    /* Every program's ranks take part in one collective over the world. */
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size) {
        fprintf(stderr, "mpmd rank %d: allreduce over MPI_COMM_WORLD gave %d, not %d\n",
                rank, sum, size);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    printf("mpmd %d of %d appnum %s arg %s env %s\n", rank, size, app,
           argc > 1 ? argv[1] : "none", var ? var : "unset");
    MPI_Finalize();
    return 0;
}
