/* The API layer's tunables and the list of all tables (see api_tunables.h). */
#include "api/api_tunables.h"

#include "boot/boot_tunables.h"
#include "coll/coll_tunables.h"
#include "p2p/p2p_tunables.h"
#include "rma/rma_tunables.h"
#include "transport/shm/shm_tunables.h"
#include "transport/tcp/tcp_tunables.h"
#include "transport/verbs/common/verbs_tunables.h"
#include "transport/verbs/rc/rc_tunables.h"
#include "transport/verbs/ud/ud_tunables.h"
#include "util/status.h"
#include "util/util_tunables.h"

const rd_tunable_t rd_api_tunables[RD_API_T_COUNT] = {
    [RD_API_T_THREAD_LEVEL] = RD_TUNE_STR_F("RDMPI_THREAD_LEVEL",
        NULL, "single,funneled,serialized,multiple", RD_TUN_F_UNSET,
        "thread level MPI_Init asks for, as MPI_Init_thread would (unset: single)"),
    [RD_API_T_ASYNC_PROGRESS] = RD_TUNE_BOOL("RDMPI_ASYNC_PROGRESS", 0,
        "a progress thread polls the transports while the application computes "
        "(makes the library thread-safe whatever level was asked for)"),
    [RD_API_T_WARN_UNSUPPORTED] = RD_TUNE_BOOL("RDMPI_WARN_UNSUPPORTED", 1,
        "the first call of an MPI function rdmpi does not implement prints one line "
        "naming it on stderr, even when the error is returned to the program"),
    [RD_API_T_CRASH_REPORT] = RD_TUNE_BOOL("RDMPI_CRASH_REPORT", 1,
        "a rank killed by SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT prints its rank, host, "
        "signal and backtrace first, and a rank of a job mpirun's --timeout ends prints "
        "where it was blocked (only where the program has no handler of its own)"),
};

const rd_tunable_table_t rd_api_tunables_table = {
    "api", "src/api/init.c, src/api/api.c", rd_api_tunables, RD_API_T_COUNT
};

/* The verbs tables are listed even where verbs is not built: the variables
 * are the same everywhere, and a bad value is an error everywhere. */
const rd_tunable_table_t *const rd_api_all_tunables[] = {
    &rd_api_tunables_table, &rd_coll_tunables_table, &rd_rma_tunables_table,
    &rd_p2p_tunables_table,
    &rd_shm_tunables_table, &rd_tcp_tunables_table, &rd_vb_tunables_table,
    &rd_rc_tunables_table, &rd_ud_tunables_table, &rd_util_tunables_table,
    &rd_boot_tunables_table, NULL,
};

int rd_api_tunables_check(void)
{
    for (size_t i = 0; rd_api_all_tunables[i]; i++) {
        const rd_tunable_table_t *tab = rd_api_all_tunables[i];
        for (size_t k = 0; k < tab->n; k++) {
            const char *s = rd_tunable_getenv(&tab->t[k]);
            if (s && rd_tunable_parse(&tab->t[k], s, NULL) != RD_OK)
                return RD_EINVAL;
        }
    }
    return RD_OK;
}
