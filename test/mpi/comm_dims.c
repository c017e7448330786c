/*
 * comm_dims: MPI_Dims_create. A table of (nnodes, ndims, dims in, dims out)
 * with free and fixed entries, checked against the expected balanced
 * answers (the most balanced factorization, in non-increasing order, as
 * MPICH gives them), then error classes for bad input.
 */
#include "mtest.h"

#include <string.h>

typedef struct dcase {
    int nnodes, ndims;
    int in[5], out[5];
} dcase_t;

static const dcase_t cases[] = {
    { 1, 1, { 0 }, { 1 } },
    { 1, 3, { 0, 0, 0 }, { 1, 1, 1 } },
    { 2, 4, { 0, 0, 0, 0 }, { 2, 1, 1, 1 } },
    { 6, 2, { 0, 0 }, { 3, 2 } },
    { 7, 2, { 0, 0 }, { 7, 1 } },
    { 8, 3, { 0, 0, 0 }, { 2, 2, 2 } },
    { 12, 2, { 0, 0 }, { 4, 3 } },
    { 16, 3, { 0, 0, 0 }, { 4, 2, 2 } },
    { 20, 4, { 0, 0, 0, 0 }, { 5, 2, 2, 1 } },
    { 24, 3, { 0, 0, 0 }, { 4, 3, 2 } },
    { 36, 3, { 0, 0, 0 }, { 4, 3, 3 } },
    { 48, 2, { 0, 0 }, { 8, 6 } },
    { 64, 3, { 0, 0, 0 }, { 4, 4, 4 } },
    { 72, 2, { 0, 0 }, { 9, 8 } },
    { 72, 3, { 0, 0, 0 }, { 6, 4, 3 } },
    { 120, 4, { 0, 0, 0, 0 }, { 5, 4, 3, 2 } },
    { 168, 4, { 0, 0, 0, 0 }, { 7, 4, 3, 2 } },
    { 360, 3, { 0, 0, 0 }, { 10, 6, 6 } },
    { 512, 5, { 0, 0, 0, 0, 0 }, { 4, 4, 4, 4, 2 } },
    { 720, 3, { 0, 0, 0 }, { 10, 9, 8 } },
    { 1024, 3, { 0, 0, 0 }, { 16, 8, 8 } },
    { 1234, 2, { 0, 0 }, { 617, 2 } },
    { 30030, 3, { 0, 0, 0 }, { 35, 33, 26 } },
    /* fixed entries stay; the free ones share the rest */
    { 24, 3, { 0, 3, 0 }, { 4, 3, 2 } },
    { 60, 3, { 2, 0, 0 }, { 2, 6, 5 } },
    { 60, 3, { 0, 0, 5 }, { 4, 3, 5 } },
    { 12, 2, { 3, 4 }, { 3, 4 } },
};

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const dcase_t *t = &cases[i];
        int d[5];
        memcpy(d, t->in, sizeof(d));
        MT_OK(MPI_Dims_create(t->nnodes, t->ndims, d));
        for (int j = 0; j < t->ndims; j++)
            MT_CHECK(d[j] == t->out[j], "Dims_create(%d, %d): dims[%d] = %d, expected %d",
                     t->nnodes, t->ndims, j, d[j], t->out[j]);
    }
    {
        int d[1] = { 0 };
        MT_OK(MPI_Dims_create(1, 0, d));
    }

    int d[3];
    d[0] = 0, d[1] = 0;
    MT_ERRCLASS(MPI_Dims_create(-1, 2, d), MPI_ERR_ARG, "nnodes < 0");
    MT_ERRCLASS(MPI_Dims_create(4, -1, d), MPI_ERR_ARG, "ndims < 0");
    d[0] = 3, d[1] = 0;
    MT_ERRCLASS(MPI_Dims_create(4, 2, d), MPI_ERR_DIMS, "fixed entry does not divide nnodes");
    d[0] = -1, d[1] = 0;
    MT_ERRCLASS(MPI_Dims_create(4, 2, d), MPI_ERR_DIMS, "negative entry");
    return MTest_Finalize();
}
