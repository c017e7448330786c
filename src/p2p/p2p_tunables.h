/*
 * Tunables of the p2p layer: transports, progress, rendezvous.
 * Declared once here, read by src/p2p/p2p_init.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_P2P_P2P_TUNABLES_H
#define RD_P2P_P2P_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_P2P_T_TRANSPORTS,
    RD_P2P_T_SPIN_COUNT,
    RD_P2P_T_VERBOSE,
    RD_P2P_T_RNDV,
    RD_P2P_T_RNDV_SPLIT,
    RD_P2P_T_FORGE_IDS,
    RD_P2P_T_COUNT
};

extern const rd_tunable_t rd_p2p_tunables[RD_P2P_T_COUNT];
extern const rd_tunable_table_t rd_p2p_tunables_table;

#endif
