/* The rma tunables (see rma_tunables.h). */
#include "rma/rma_tunables.h"

const rd_tunable_t rd_rma_tunables[RD_RMA_T_COUNT] = {
    [RD_RMA_T_GET_CMA_MIN] = RD_TUNE_SIZE("RDMPI_RMA_GET_CMA_MIN", 256 << 10, 0, RD_TUN_SIZE_MAX,
        "a contiguous MPI_Get of this many bytes or more from a node peer's MPI_Win_create "
        "window reads its memory directly (process_vm_readv) instead of through the rings, "
        "unless the target is waiting in MPI (0: off)"),
    [RD_RMA_T_DEV_ATOMICS] = RD_TUNE_BOOL("RDMPI_RMA_DEV_ATOMICS", 1,
        "windows whose ranks all reach each other by RDMA atomics and share no node apply "
        "their 8-byte accumulates and atomics and take their lock words with the device's "
        "atomics, the owner's own through a loopback connection (0: always by messages and "
        "CPU atomics)"),
};

const rd_tunable_table_t rd_rma_tunables_table = {
    "rma", "src/rma/rma_origin.c, src/rma/rma_dev.c", rd_rma_tunables, RD_RMA_T_COUNT
};
