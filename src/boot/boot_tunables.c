/* The boot tunables (see boot_tunables.h). */
#include "boot/boot_tunables.h"

const rd_tunable_t rd_boot_tunables[RD_BOOT_T_COUNT] = {
    [RD_BOOT_T_PMI] = RD_TUNE_STR("RDMPI_PMI", "auto", "auto,1,2",
        "under a launcher that offers PMI_FD or PMI_PORT: PMI-2 when it answers it, else "
        "PMI-1 (auto), or only that version"),
};

const rd_tunable_table_t rd_boot_tunables_table = {
    "boot", "src/boot/boot.c", rd_boot_tunables, RD_BOOT_T_COUNT
};
