/* The list of every tunable table (see all_tunables.h). */
#include "info/all_tunables.h"

#include "api/api_tunables.h"
#include "mpirun/mpirun_tunables.h"
#include "wrappers/wrapper_tunables.h"

/* Variables of the test harnesses, declared so that exporting them (as
 * their instructions say) is not taken for a misspelt tunable. */
static const rd_tunable_t test_tunables[] = {
    RD_TUNE_STR_F("RDMPI_MPICH_SRC", NULL, NULL, RD_TUN_F_TEST | RD_TUN_F_TOOL | RD_TUN_F_UNSET,
        "where MPICH's sources (or its release tarball) are, for make check-mpich"),
    RD_TUNE_STR_F("RDMPI_VM_DROP", NULL, NULL, RD_TUN_F_TEST | RD_TUN_F_TOOL | RD_TUN_F_UNSET,
        "directory the RDMA virtual machines of the test harness share"),
};

static const rd_tunable_table_t test_tunables_table = {
    "tests", "test/mpich/check-mpich.sh, test/rdma-vm/run-in-vm.sh", test_tunables,
    sizeof(test_tunables) / sizeof(test_tunables[0])
};

static const rd_tunable_table_t *const tool_tables[] = {
    &rd_mpirun_tunables_table, &rd_wrapper_tunables_table, &test_tunables_table, NULL,
};

const rd_tunable_list_t rd_all_tunables[] = { rd_api_all_tunables, tool_tables, NULL };
