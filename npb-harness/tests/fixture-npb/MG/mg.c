/* Fixture MG: does not compile, to test the harness's build-failure rows. */
#include <mpi.h>
#include "npbparams.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    this_is_not_c(argc);
    MPI_Finalize()
    return 0;
}
