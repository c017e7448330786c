/* The coll tunables (see coll_tunables.h). */
#include "coll/coll_tunables.h"


const rd_tunable_t rd_coll_tunables[RD_COLL_T_COUNT] = {
    [RD_COLL_T_BARRIER_SIGNAL] = RD_TUNE_BOOL("RDMPI_BARRIER_SIGNAL", 1,
        "node-local MPI_Barrier through counters in the shm segment (0: "
        "dissemination)"),
    [RD_COLL_T_BCAST_SHM_MAX] = RD_TUNE_SIZE("RDMPI_BCAST_SHM_MAX", 1 << 20, 0, RD_TUN_SIZE_MAX,
        "MPI_Bcast through the shared areas up to this size (0: off)"),
    [RD_COLL_T_IBCAST_SHM_MAX] = RD_TUNE_SIZE("RDMPI_IBCAST_SHM_MAX", 1 << 20, 0, RD_TUN_SIZE_MAX,
        "MPI_Ibcast through the shared areas up to this size (0: off)"),
    [RD_COLL_T_ALLREDUCE_SHM_MAX] = RD_TUNE_SIZE("RDMPI_ALLREDUCE_SHM_MAX",
        1 << 20, 0, RD_TUN_SIZE_MAX,
        "MPI_Allreduce through the shared areas up to this size (0: off)"),
    [RD_COLL_T_ALLREDUCE_SHM_SPLIT_MIN] = RD_TUNE_SIZE("RDMPI_ALLREDUCE_SHM_SPLIT_MIN",
        16 * 1024, 0, RD_TUN_SIZE_MAX,
        "from this size each rank reduces one segment of the shared-area allreduce"),
    [RD_COLL_T_ALLTOALL_SHM_MAX] = RD_TUNE_SIZE("RDMPI_ALLTOALL_SHM_MAX",
        16 * 1024, 0, RD_TUN_SIZE_MAX,
        "MPI_Alltoall through the shared areas up to this block size (0: off)"),
    [RD_COLL_T_COLL_SHM_MAX_NP2] = RD_TUNE_SIZE("RDMPI_COLL_SHM_MAX_NP2", 1024, 0, RD_TUN_SIZE_MAX,
        "cap of the shared-area limits on a two-rank communicator"),
    [RD_COLL_T_ALLTOALL_CMA_MIN] = RD_TUNE_SIZE("RDMPI_ALLTOALL_CMA_MIN", 16385, 0, RD_TUN_SIZE_MAX,
        "single-copy MPI_Alltoall from this block size (0: off)"),
    [RD_COLL_T_BCAST_SCATTER_MIN] = RD_TUNE_SIZE("RDMPI_BCAST_SCATTER_MIN",
        12288, 0, RD_TUN_SIZE_MAX,
        "MPI_Bcast: scatter + ring allgather from this size"),
    [RD_COLL_T_BCAST_SCATTER_MIN_PROCS] = RD_TUNE_INT("RDMPI_BCAST_SCATTER_MIN_PROCS",
        8, 0, 2147483647,
        "...and only with at least this many ranks"),
    [RD_COLL_T_ALLGATHER_RING_MIN] = RD_TUNE_SIZE("RDMPI_ALLGATHER_RING_MIN",
        512 * 1024, 0, RD_TUN_SIZE_MAX,
        "MPI_Allgather: ring from this many total bytes"),
    [RD_COLL_T_ALLTOALL_BRUCK_MAX] = RD_TUNE_SIZE("RDMPI_ALLTOALL_BRUCK_MAX",
        256, 0, RD_TUN_SIZE_MAX,
        "MPI_Alltoall: Bruck up to this block size"),
    [RD_COLL_T_ALLTOALL_SCATTERED_MAX] = RD_TUNE_SIZE("RDMPI_ALLTOALL_SCATTERED_MAX",
        32 * 1024, 0, RD_TUN_SIZE_MAX,
        "MPI_Alltoall: all requests posted at once up to this block size"),
    [RD_COLL_T_ALLREDUCE_RSAG_MIN] = RD_TUNE_SIZE("RDMPI_ALLREDUCE_RSAG_MIN",
        2048, 0, RD_TUN_SIZE_MAX,
        "MPI_Allreduce: Rabenseifner from this size (commutative ops)"),
    [RD_COLL_T_ALLREDUCE_RSAG_MIN_NP2] = RD_TUNE_SIZE("RDMPI_ALLREDUCE_RSAG_MIN_NP2",
        256 * 1024, 0, RD_TUN_SIZE_MAX,
        "...the same threshold on 2 or 3 ranks"),
    [RD_COLL_T_GATHER_BINOMIAL_MAX] = RD_TUNE_SIZE("RDMPI_GATHER_BINOMIAL_MAX",
        64 * 1024, 0, RD_TUN_SIZE_MAX,
        "MPI_Gather/Scatter: binomial tree up to this many total bytes"),
    [RD_COLL_T_REDUCE_SCATTER_PAIRWISE_MIN] = RD_TUNE_SIZE("RDMPI_REDUCE_SCATTER_PAIRWISE_MIN",
        512 * 1024, 0, RD_TUN_SIZE_MAX,
        "MPI_Reduce_scatter: pairwise exchange from this many total bytes"),
};

const rd_tunable_table_t rd_coll_tunables_table = {
    "coll", "src/coll/coll_util.c", rd_coll_tunables, RD_COLL_T_COUNT
};
