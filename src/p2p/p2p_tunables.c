/* The p2p tunables (see p2p_tunables.h). */
#include "p2p/p2p_tunables.h"

#include "transport/transport.h"

const rd_tunable_t rd_p2p_tunables[RD_P2P_T_COUNT] = {
    [RD_P2P_T_TRANSPORTS] = RD_TUNE_STR("RDMPI_TRANSPORTS", RD_TRANSPORTS_DEFAULT, NULL,
        "transports to start, comma-separated (shm, rc, ud, tcp)"),
    [RD_P2P_T_SPIN_COUNT] = RD_TUNE_INT_F("RDMPI_SPIN_COUNT", -1, 0, 2147483647, RD_TUN_F_UNSET,
        "idle polls in a blocking call before it yields the CPU; unset: 2000, or 10 "
        "when oversubscribed"),
    [RD_P2P_T_VERBOSE] = RD_TUNE_BOOL("RDMPI_VERBOSE", 0,
        "each rank prints its transports and spin choice at MPI_Init and its "
        "rendezvous counts at MPI_Finalize"),
    [RD_P2P_T_RNDV] = RD_TUNE_STR("RDMPI_RNDV", "auto", "get,put,auto",
        "how rendezvous moves contiguous data: receiver reads, sender writes, or both"),
    [RD_P2P_T_RNDV_SPLIT] = RD_TUNE_SIZE_F("RDMPI_RNDV_SPLIT",
        0, 0, RD_TUN_SIZE_MAX, RD_TUN_F_UNSET,
        "rendezvous from this size are split between a read and a write (0: each "
        "transport's threshold)"),
    [RD_P2P_T_FORGE_IDS] = RD_TUNE_INT_F("RDMPI_P2P_FORGE_IDS", -1, 0, 2147483647,
        RD_TUN_F_UNSET | RD_TUN_F_TEST,
        "test knob RANK: rank RANK sends each ACK, CTS, FIN and PUT_FIN after forged "
        "copies naming no live request of the receiver"),
};

const rd_tunable_table_t rd_p2p_tunables_table = {
    "p2p", "src/p2p/p2p_init.c", rd_p2p_tunables, RD_P2P_T_COUNT
};
