/*
 * Tunables of src/boot: which simple PMI protocol to speak.
 * Declared once here, read by src/boot/boot.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_BOOT_BOOT_TUNABLES_H
#define RD_BOOT_BOOT_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_BOOT_T_PMI,
    RD_BOOT_T_COUNT
};

extern const rd_tunable_t rd_boot_tunables[RD_BOOT_T_COUNT];
extern const rd_tunable_table_t rd_boot_tunables_table;

#endif
