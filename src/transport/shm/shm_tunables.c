/* The shm tunables (see shm_tunables.h). */
#include "transport/shm/shm_tunables.h"

#include "transport/shm/shm.h"

const rd_tunable_t rd_shm_tunables[RD_SHM_T_COUNT] = {
    [RD_SHM_T_EAGER_MAX] = RD_TUNE_SIZE("RDMPI_SHM_EAGER_MAX",
        RD_SHM_EAGER_MAX_DEFAULT, 0, RD_SHM_EAGER_MAX_LIMIT,
        "largest message sent eagerly through the rings; larger ones use rendezvous"),
    [RD_SHM_T_RING_BYTES] = RD_TUNE_SIZE("RDMPI_SHM_RING_BYTES",
        RD_SHM_RING_BYTES_DEFAULT, 0, RD_SHM_RING_BYTES_LIMIT,
        "bytes per ring, one ring per ordered pair of ranks on a node (rounded up to "
        "a power of two)"),
    [RD_SHM_T_AREA_BYTES] = RD_TUNE_SIZE("RDMPI_SHM_AREA_BYTES",
        RD_SHM_AREA_BYTES_DEFAULT, 0, RD_SHM_AREA_BYTES_LIMIT,
        "bytes of shared area per local rank for the node-local collectives (0: none)"),
    [RD_SHM_T_CMA] = RD_TUNE_BOOL("RDMPI_SHM_CMA", 1,
        "single-copy reads and writes of peer memory (process_vm_readv/writev)"),
};

const rd_tunable_table_t rd_shm_tunables_table = {
    "shm", "src/transport/shm/shm.c", rd_shm_tunables, RD_SHM_T_COUNT
};
