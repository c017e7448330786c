/* The p2p tunables (see p2p_tunables.h). */
#include "p2p/p2p_tunables.h"

#include "transport/transport.h"

const rd_tunable_t rd_p2p_tunables[RD_P2P_T_COUNT] = {
    [RD_P2P_T_TRANSPORTS] = {
        .name = "RDMPI_TRANSPORTS", .type = RD_TUN_STR, .dflt_str = RD_TRANSPORTS_DEFAULT,
        .meaning = "transports to start, comma-separated (shm, rc, ud, tcp)" },
    [RD_P2P_T_SPIN_COUNT] = {
        .name = "RDMPI_SPIN_COUNT", .type = RD_TUN_INT,
        .dflt = -1, .min = 0, .max = 2147483647,
        .meaning = "idle polls in a blocking call before it yields the CPU; unset: 2000, or 10 "
                   "when oversubscribed", .flags = RD_TUN_F_UNSET },
    [RD_P2P_T_VERBOSE] = {
        .name = "RDMPI_VERBOSE", .type = RD_TUN_BOOL,
        .dflt = 0,
        .meaning = "each rank prints its transports and spin choice at MPI_Init and its "
                   "rendezvous counts at MPI_Finalize" },
    [RD_P2P_T_RNDV] = {
        .name = "RDMPI_RNDV", .type = RD_TUN_STR,
        .dflt_str = "auto", .choices = "get,put,auto",
        .meaning = "how rendezvous moves contiguous data: receiver reads, sender writes, or both" },
    [RD_P2P_T_RNDV_SPLIT] = {
        .name = "RDMPI_RNDV_SPLIT", .type = RD_TUN_SIZE,
        .dflt = 0, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "rendezvous from this size are split between a read and a write (0: each "
                   "transport's threshold)", .flags = RD_TUN_F_UNSET },
};

const rd_tunable_table_t rd_p2p_tunables_table = {
    "p2p", "src/p2p/p2p_init.c", rd_p2p_tunables, RD_P2P_T_COUNT
};
