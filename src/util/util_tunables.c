/* The util tunables (see util_tunables.h). */
#include "util/util_tunables.h"


const rd_tunable_t rd_util_tunables[RD_UTIL_T_COUNT] = {
    [RD_UTIL_T_SCRATCH_CACHE] = {
        .name = "RDMPI_SCRATCH_CACHE", .type = RD_TUN_SIZE,
        .dflt = 64LL << 20, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "bytes of released temporary buffers kept for reuse" },
};

const rd_tunable_table_t rd_util_tunables_table = {
    "util", "src/util/scratch.c", rd_util_tunables, RD_UTIL_T_COUNT
};
