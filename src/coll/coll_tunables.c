/* The coll tunables (see coll_tunables.h). */
#include "coll/coll_tunables.h"


const rd_tunable_t rd_coll_tunables[RD_COLL_T_COUNT] = {
    [RD_COLL_T_BARRIER_SIGNAL] = {
        .name = "RDMPI_BARRIER_SIGNAL", .type = RD_TUN_BOOL,
        .dflt = 1,
        .meaning = "node-local MPI_Barrier through counters in the shm segment (0: "
                   "dissemination)" },
    [RD_COLL_T_BCAST_SHM_MAX] = {
        .name = "RDMPI_BCAST_SHM_MAX", .type = RD_TUN_SIZE,
        .dflt = 1 << 20, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Bcast through the shared areas up to this size (0: off)" },
    [RD_COLL_T_IBCAST_SHM_MAX] = {
        .name = "RDMPI_IBCAST_SHM_MAX", .type = RD_TUN_SIZE,
        .dflt = 1 << 20, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Ibcast through the shared areas up to this size (0: off)" },
    [RD_COLL_T_ALLREDUCE_SHM_MAX] = {
        .name = "RDMPI_ALLREDUCE_SHM_MAX", .type = RD_TUN_SIZE,
        .dflt = 1 << 20, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Allreduce through the shared areas up to this size (0: off)" },
    [RD_COLL_T_ALLREDUCE_SHM_SPLIT_MIN] = {
        .name = "RDMPI_ALLREDUCE_SHM_SPLIT_MIN", .type = RD_TUN_SIZE,
        .dflt = 16 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "from this size each rank reduces one segment of the shared-area allreduce" },
    [RD_COLL_T_ALLTOALL_SHM_MAX] = {
        .name = "RDMPI_ALLTOALL_SHM_MAX", .type = RD_TUN_SIZE,
        .dflt = 16 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Alltoall through the shared areas up to this block size (0: off)" },
    [RD_COLL_T_COLL_SHM_MAX_NP2] = {
        .name = "RDMPI_COLL_SHM_MAX_NP2", .type = RD_TUN_SIZE,
        .dflt = 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "cap of the shared-area limits on a two-rank communicator" },
    [RD_COLL_T_ALLTOALL_CMA_MIN] = {
        .name = "RDMPI_ALLTOALL_CMA_MIN", .type = RD_TUN_SIZE,
        .dflt = 16385, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "single-copy MPI_Alltoall from this block size (0: off)" },
    [RD_COLL_T_BCAST_SCATTER_MIN] = {
        .name = "RDMPI_BCAST_SCATTER_MIN", .type = RD_TUN_SIZE,
        .dflt = 12288, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Bcast: scatter + ring allgather from this size" },
    [RD_COLL_T_BCAST_SCATTER_MIN_PROCS] = {
        .name = "RDMPI_BCAST_SCATTER_MIN_PROCS", .type = RD_TUN_INT,
        .dflt = 8, .min = 0, .max = 2147483647,
        .meaning = "...and only with at least this many ranks" },
    [RD_COLL_T_ALLGATHER_RING_MIN] = {
        .name = "RDMPI_ALLGATHER_RING_MIN", .type = RD_TUN_SIZE,
        .dflt = 512 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Allgather: ring from this many total bytes" },
    [RD_COLL_T_ALLTOALL_BRUCK_MAX] = {
        .name = "RDMPI_ALLTOALL_BRUCK_MAX", .type = RD_TUN_SIZE,
        .dflt = 256, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Alltoall: Bruck up to this block size" },
    [RD_COLL_T_ALLTOALL_SCATTERED_MAX] = {
        .name = "RDMPI_ALLTOALL_SCATTERED_MAX", .type = RD_TUN_SIZE,
        .dflt = 32 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Alltoall: all requests posted at once up to this block size" },
    [RD_COLL_T_ALLREDUCE_RSAG_MIN] = {
        .name = "RDMPI_ALLREDUCE_RSAG_MIN", .type = RD_TUN_SIZE,
        .dflt = 2048, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Allreduce: Rabenseifner from this size (commutative ops)" },
    [RD_COLL_T_ALLREDUCE_RSAG_MIN_NP2] = {
        .name = "RDMPI_ALLREDUCE_RSAG_MIN_NP2", .type = RD_TUN_SIZE,
        .dflt = 256 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "...the same threshold on 2 or 3 ranks" },
    [RD_COLL_T_GATHER_BINOMIAL_MAX] = {
        .name = "RDMPI_GATHER_BINOMIAL_MAX", .type = RD_TUN_SIZE,
        .dflt = 64 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Gather/Scatter: binomial tree up to this many total bytes" },
    [RD_COLL_T_REDUCE_SCATTER_PAIRWISE_MIN] = {
        .name = "RDMPI_REDUCE_SCATTER_PAIRWISE_MIN", .type = RD_TUN_SIZE,
        .dflt = 512 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "MPI_Reduce_scatter: pairwise exchange from this many total bytes" },
};

const rd_tunable_table_t rd_coll_tunables_table = {
    "coll", "src/coll/coll_util.c", rd_coll_tunables, RD_COLL_T_COUNT
};
