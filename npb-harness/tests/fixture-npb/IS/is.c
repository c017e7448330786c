/* Fixture IS: every rank draws its share of 2^TOTAL_KEYS_LOG_2 keys from a
 * generator indexed by the key's global number (so the key set does not
 * depend on the process count), counts them into buckets, and sends the
 * counts to rank 0, which checks them against a serial count. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "npbparams.h"
#include "../common/c_print_results.h"

#define MAX_KEY 2048
#define ITERATIONS 10

static unsigned key_of(unsigned long i)
{
    unsigned long x = i * 2654435761UL + 12345;
    x ^= x >> 13;
    x *= 0x5bd1e995UL;
    x ^= x >> 15;
    return (unsigned)(x % MAX_KEY);
}

int main(int argc, char **argv)
{
    int rank, size;
    long total = 1L << TOTAL_KEYS_LOG_2;
    static long count[MAX_KEY], sum[MAX_KEY], other[MAX_KEY];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long lo = total * rank / size, hi = total * (rank + 1) / size;

    double t0 = MPI_Wtime();
    for (int it = 0; it < ITERATIONS; it++) {
        memset(count, 0, sizeof count);
        for (long i = lo; i < hi; i++)
            count[key_of((unsigned long)i)]++;
    }
    if (rank == 0) {
        memcpy(sum, count, sizeof sum);
        for (int r = 1; r < size; r++) {
            MPI_Recv(other, MAX_KEY, MPI_LONG, r, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            for (int k = 0; k < MAX_KEY; k++)
                sum[k] += other[k];
        }
    } else {
        MPI_Send(count, MAX_KEY, MPI_LONG, 0, 0, MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0;

    if (rank == 0) {
        int ok = 1;
        memset(count, 0, sizeof count);
        for (long i = 0; i < total; i++)
            count[key_of((unsigned long)i)]++;
        for (int k = 0; k < MAX_KEY; k++)
            ok &= count[k] == sum[k];
        double mops = t > 0 ? (double)total * ITERATIONS / t / 1e6 : 0.0;
        c_print_results("IS", CLASS, total, ITERATIONS, size, t, mops,
                        "keys ranked", ok);
    }
    MPI_Finalize();
    return 0;
}
