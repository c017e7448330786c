/* The util tunables (see util_tunables.h). */
#include "util/util_tunables.h"


const rd_tunable_t rd_util_tunables[RD_UTIL_T_COUNT] = {
    [RD_UTIL_T_SCRATCH_CACHE] = RD_TUNE_SIZE("RDMPI_SCRATCH_CACHE", 64LL << 20, 0, RD_TUN_SIZE_MAX,
        "bytes of released temporary buffers kept for reuse"),
};

const rd_tunable_table_t rd_util_tunables_table = {
    "util", "src/util/scratch.c", rd_util_tunables, RD_UTIL_T_COUNT
};
