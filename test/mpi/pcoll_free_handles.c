/*
 * pcoll_free_handles: the datatypes and the operation given to a persistent
 * collective's init call may be freed while the request exists (MPI-4.0
 * 5.13, 4.1.9): every later MPI_Start still uses them. Covers a derived
 * datatype and a user operation (MPI_Allreduce_init), per-rank datatype
 * arrays (MPI_Alltoallw_init) and a broadcast of a derived type.
 */
#include <stdlib.h>

#include "mtest.h"

#define ROUNDS 3

/* Pairs of ints: the sum of the first ones, the maximum of the second ones
 * (no built-in operation does both). */
static void pairsum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++) {
        b[2 * i] += a[2 * i];
        if (a[2 * i + 1] > b[2 * i + 1])
            b[2 * i + 1] = a[2 * i + 1];
    }
}

static void allreduce(void)
{
    MPI_Datatype pair;
    MPI_Op op;
    MPI_Request req;
    int in[4], out[4];
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(pairsum, 1, &op);
    MT_OK(MPI_Allreduce_init(in, out, 2, pair, op, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    MT_OK(MPI_Type_free(&pair));
    MT_OK(MPI_Op_free(&op));
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 4; i++)
            in[i] = MTest_rank + round + i;
        MT_OK(MPI_Start(&req));
        MT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        int n = MTest_size;
        for (int i = 0; i < 4; i++) {
            int want = i % 2 ? n - 1 + round + i : n * (n - 1) / 2 + n * (round + i);
            MT_CHECK(out[i] == want, "round %d out[%d] = %d, want %d", round, i, out[i], want);
        }
    }
    MT_OK(MPI_Request_free(&req));
}

static void alltoallw(void)
{
    int n = MTest_size;
    int *sbuf = malloc(2 * n * sizeof(int)), *rbuf = malloc(2 * n * sizeof(int));
    int *cnt = malloc(n * sizeof(int)), *disp = malloc(n * sizeof(int));
    MPI_Datatype *types = malloc(n * sizeof(MPI_Datatype));
    MPI_Request req;
    for (int i = 0; i < n; i++) {
        cnt[i] = 1;
        disp[i] = 2 * i * (int)sizeof(int);
        MPI_Type_contiguous(2, MPI_INT, &types[i]);
        MPI_Type_commit(&types[i]);
    }
    MT_OK(MPI_Alltoallw_init(sbuf, cnt, disp, types, rbuf, cnt, disp, types, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req));
    for (int i = 0; i < n; i++)
        MT_OK(MPI_Type_free(&types[i]));
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 2 * n; i++) {
            sbuf[i] = 1000 * MTest_rank + 10 * round + i;
            rbuf[i] = -1;
        }
        MT_OK(MPI_Start(&req));
        MT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int r = 0; r < n; r++)
            for (int k = 0; k < 2; k++) {
                int want = 1000 * r + 10 * round + 2 * MTest_rank + k;
                MT_CHECK(rbuf[2 * r + k] == want, "round %d from %d [%d] = %d, want %d", round,
                         r, k, rbuf[2 * r + k], want);
            }
    }
    MT_OK(MPI_Request_free(&req));
    free(sbuf);
    free(rbuf);
    free(cnt);
    free(disp);
    free(types);
}

static void bcast(void)
{
    MPI_Datatype vec;
    MPI_Request req;
    int buf[6];
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MT_OK(MPI_Bcast_init(buf, 1, vec, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    MT_OK(MPI_Type_free(&vec));
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < 6; i++)
            buf[i] = MTest_rank == 0 ? 100 * round + i : -1;
        MT_OK(MPI_Start(&req));
        MT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        for (int i = 0; i < 6; i++) {
            int want = i % 2 == 0 || MTest_rank == 0 ? 100 * round + i : -1;
            MT_CHECK(buf[i] == want, "round %d buf[%d] = %d, want %d", round, i, buf[i], want);
        }
    }
    MT_OK(MPI_Request_free(&req));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    allreduce();
    alltoallw();
    bcast();
    return MTest_Finalize();
}
