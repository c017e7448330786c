/* The verbs tunables (see verbs_tunables.h). */
#include "transport/verbs/common/verbs_tunables.h"


const rd_tunable_t rd_vb_tunables[RD_VB_T_COUNT] = {
    [RD_VB_T_IB_DEVICE] = RD_TUNE_STR_F("RDMPI_IB_DEVICE", NULL, NULL, RD_TUN_F_UNSET,
        "RDMA device by name (ibv_devices); unset: the one nearest the rank's cores"),
    [RD_VB_T_IB_GID_INDEX] = RD_TUNE_INT_F("RDMPI_IB_GID_INDEX", -1, 0, 65535, RD_TUN_F_UNSET,
        "GID table index on the active port; unset: RoCE v2 with an IPv4-mapped "
        "address first"),
    [RD_VB_T_RCACHE] = RD_TUNE_BOOL("RDMPI_RCACHE", 1,
        "pin-down registration cache for rendezvous buffers"),
    [RD_VB_T_RCACHE_ENTRIES] = RD_TUNE_INT("RDMPI_RCACHE_ENTRIES", 1024, 0, 1 << 30,
        "most registrations kept in the cache"),
    [RD_VB_T_RCACHE_BYTES] = RD_TUNE_SIZE("RDMPI_RCACHE_BYTES", 1LL << 30, 0, RD_TUN_SIZE_MAX,
        "most bytes kept registered by the cache"),
    [RD_VB_T_RC_TIMEOUT] = RD_TUNE_INT("RDMPI_RC_TIMEOUT", 14, 1, 31,
        "RC QP ack timeout exponent: a try waits 4.096 us x 2^value, 7 tries"),
};

const rd_tunable_table_t rd_vb_tunables_table = {
    "verbs", "src/transport/verbs/common/verbs.c", rd_vb_tunables, RD_VB_T_COUNT
};
