/*
 * Starting and ending MPI, and the process-level queries: MPI_Init(_thread),
 * MPI_Finalize, MPI_Abort, MPI_Wtime and friends. The runtime underneath is
 * shared by the world model and the sessions (api/session.c).
 */
#include "config.h"

#include "api/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/ctxid.h"
#include "coll/nbc.h"
#include "p2p/p2p.h"
#include "rma/rma.h"
#include "util/clock.h"
#include "util/errdetail.h"
#include "util/scratch.h"

#include "api/api_tunables.h"
#include "api/async_progress.h"
#include "api/attr.h"
#include "api/comm.h"
#include "api/crash.h"
#include "api/op.h"

/* MPI_COMM_WORLD and MPI_COMM_SELF with fixed context ids 0 and 2. */
static int make_predefined_comms(void)
{
    int n = rd_api.boot.size, me = rd_api.boot.rank;
    int *ranks = malloc((size_t)n * sizeof(int));
    if (!ranks)
        return RD_ENOMEM;
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    rd_group_t *gw = rd_group_new(n, ranks, me);
    rd_group_t *gs = rd_group_new(1, &me, me);
    free(ranks);
    if (!gw || !gs)
        return RD_ENOMEM;
    rd_api.world = rd_comm_new(gw, 0);
    rd_api.self = rd_comm_new(gs, 2);
    rd_group_release(gw);
    rd_group_release(gs);
    if (!rd_api.world || !rd_api.self)
        return RD_ENOMEM;
    rd_coll_ctx_init(4); /* world has ids 0 and 1, self 2 and 3 */
    rd_comm_set_free_hook(rd_api_comm_gone);
    rd_errhandler_t *fatal = rd_api_errh(MPI_ERRORS_ARE_FATAL);
    rd_comm_t *cs[2] = { rd_api.world, rd_api.self };
    int hs[2] = { MPI_COMM_WORLD, MPI_COMM_SELF };
    const char *names[2] = { "MPI_COMM_WORLD", "MPI_COMM_SELF" };
    for (int i = 0; i < 2; i++) {
        if (rd_p2p_attach(cs[i]) != RD_OK)
            return RD_ENOMEM;
        cs[i]->handle = hs[i];
        cs[i]->errh = fatal;
        rd_errh_ref(fatal);
        snprintf(cs[i]->name, sizeof(cs[i]->name), "%s", names[i]);
        rd_handle_builtin_set(RD_OBJ_COMM, hs[i], cs[i]);
    }
    return RD_OK;
}

/* Who uses the runtime: the world model (MPI_Init .. MPI_Finalize) and each
 * session. It starts with the first and ends with the last; it cannot start
 * again once it has ended (the process manager connection is gone). */
enum { WORLD_NEVER, WORLD_ACTIVE, WORLD_DONE };
static int world_state = WORLD_NEVER;
static int users;

/* Whether several application threads may call MPI decides which
 * collectives run (the shared-memory ones and the node barrier decline
 * then: rd_p2p_threads), so every rank that may share such a collective
 * must decide alike, whatever level each asked for. Those are the ranks of
 * one node: each publishes its level before p2p's start, whose closing
 * fence makes it visible, and reads its node peers' afterwards (through
 * the process manager, which every rank reaches whatever transports it
 * uses). A rank that raises its level later (a session) keeps what this
 * decided. */
#define THREADS_KEY "rdmpi-mt"

static int publish_threads(int level)
{
    char mine = level == MPI_THREAD_MULTIPLE ? '1' : '0';
    return rd_boot_put(THREADS_KEY, &mine, 1);
}

static int agree_threads(void)
{
    for (int i = 0; i < rd_api.boot.local_size; i++) {
        char v = '0';
        size_t len = 1;
        int rc = rd_boot_get(rd_api.boot.local_ranks[i], THREADS_KEY, &v, &len);
        if (rc != RD_OK)
            return rc;
        if (v == '1') {
            rd_p2p_set_threads();
            break;
        }
    }
    return RD_OK;
}

/* Starts the runtime at thread level `level` (the caller's lock is not
 * held: nothing runs yet). */
static int runtime_start(int level, const char *fn)
{
    rd_api.thread_level = level;
    rd_api.main_thread = pthread_self();
    rd_api.wtime0 = rd_clock_s();

    int rc = rd_boot_init(&rd_api.boot);
    char detail[RD_ERR_DETAIL_MAX];
    if (rc != RD_OK) {
        rd_err_detail_take(detail, sizeof(detail));
        fprintf(stderr, "rdmpi: %s: cannot connect to the process manager (%s): %s%s%s\n", fn,
                rd_boot_name(), rd_status_str(rc), *detail ? ": " : "", detail);
        exit(1);
    }
    if ((rc = rd_api_tunables_check()) != RD_OK) {
        /* Every rank has the same environment (mpirun refuses such a job
         * before it starts; other launchers do not): rank 0 says it, the
         * others end without repeating it. */
        char msg[256 + RD_ERR_DETAIL_MAX];
        rd_err_detail_take(detail, sizeof(detail));
        snprintf(msg, sizeof(msg), "rdmpi: rank %d: %s failed: %s%s%s", rd_api.boot.rank, fn,
                 rd_status_str(rc), *detail ? ": " : "", detail);
        if (rd_api.boot.rank == 0)
            fprintf(stderr, "%s\n", msg);
        rd_boot_abort(1, msg);
    }
    long long crash_report = 1;
    (void)rd_tunable_int(&rd_api_tunables[RD_API_T_CRASH_REPORT], &crash_report);
    rd_api_crash_init(rd_api.boot.rank, rd_api.boot.hostname, (int)crash_report);
    if ((rc = rd_api_errh_init()) != RD_OK || (rc = rd_api_types_init()) != RD_OK ||
        (rc = rd_api_op_init()) != RD_OK ||
        (rc = rd_api_group_init()) != RD_OK || (rc = publish_threads(level)) != RD_OK ||
        (rc = rd_p2p_init(&rd_api.boot)) != RD_OK ||
        (rc = rd_rma_init(&rd_api.boot)) != RD_OK || (rc = make_predefined_comms()) != RD_OK ||
        (rc = agree_threads()) != RD_OK) {
        char msg[256 + RD_ERR_DETAIL_MAX];
        rd_err_detail_take(detail, sizeof(detail));
        snprintf(msg, sizeof(msg), "rdmpi: rank %d: %s failed: %s%s%s", rd_api.boot.rank, fn,
                 rd_status_str(rc), *detail ? ": " : "", detail);
        fprintf(stderr, "%s\n", msg);
        rd_boot_abort(1, msg);
    }
    /* Failures the layers recovered from while starting (a transport with
     * no device on this node) must not be blamed for a later error. */
    rd_err_detail_clear();
    if (rd_p2p_verbose()) {
        char report[512];
        fprintf(stderr, "rdmpi: rank %d: process manager protocol: %s\n", rd_api.boot.rank,
                rd_boot_name());
        rd_p2p_report_init(report, sizeof(report));
        fprintf(stderr, "%s\n", report);
    }
    rd_api.initialized = 1;
    rd_api.multiple = 0;
    if (level == MPI_THREAD_MULTIPLE)
        rd_api_set_multiple();
    if ((rc = rd_api_async_start()) != RD_OK) {
        char msg[256 + RD_ERR_DETAIL_MAX];
        rd_err_detail_take(detail, sizeof(detail));
        snprintf(msg, sizeof(msg), "rdmpi: rank %d: %s failed: %s%s%s", rd_api.boot.rank, fn,
                 rd_status_str(rc), *detail ? ": " : "", detail);
        fprintf(stderr, "%s\n", msg);
        rd_boot_abort(1, msg);
    }
    return MPI_SUCCESS;
}

int rd_api_runtime_acquire(int required, int *provided, const char *fn)
{
    int level = required;
    if (level > MPI_THREAD_MULTIPLE)
        level = MPI_THREAD_MULTIPLE;
    if (level < MPI_THREAD_SINGLE)
        level = MPI_THREAD_SINGLE;
    if (rd_api.finalized)
        return rd_api_error(NULL, MPI_ERR_OTHER, fn,
                            "the MPI runtime has ended (MPI_Finalize or the last "
                            "MPI_Session_finalize) and cannot start again");
    if (!rd_api.initialized) {
        int rc = runtime_start(level, fn);
        if (rc != MPI_SUCCESS)
            return rc;
    } else if (level > rd_api.thread_level) {
        /* Raising the level is safe: the caller is the only thread inside
         * MPI unless the level already was MPI_THREAD_MULTIPLE. */
        rd_api.thread_level = level;
        if (level == MPI_THREAD_MULTIPLE)
            rd_api_set_multiple();
    }
    rd_api_lock(); /* sessions may start in several threads */
    users++;
    rd_api_unlock();
    if (provided)
        *provided = rd_api.thread_level;
    return MPI_SUCCESS;
}

static int init(int required, int *provided, const char *fn)
{
    if (world_state != WORLD_NEVER)
        return rd_api_error(NULL, MPI_ERR_OTHER, fn,
                            world_state == WORLD_DONE
                                ? "MPI cannot be initialized again after MPI_Finalize"
                                : "MPI is already initialized");
    int err = rd_api_runtime_acquire(required, provided, fn);
    if (err == MPI_SUCCESS)
        world_state = WORLD_ACTIVE;
    return err;
}

int rd_api_default_thread_level(void)
{
    static const int levels[] = { MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                                  MPI_THREAD_MULTIPLE };
    static const char *const names[] = { "single", "funneled", "serialized", "multiple" };
    const char *lvl;
    int required = MPI_THREAD_SINGLE;
    /* A bad value is reported by init's check of every tunable. */
    if (rd_tunable_str(&rd_api_tunables[RD_API_T_THREAD_LEVEL], &lvl) == RD_OK && lvl)
        for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
            if (!strcmp(lvl, names[i]))
                required = levels[i];
    return required;
}

RD_WEAK_ALIAS(MPI_Init)
int PMPI_Init(int *argc, char ***argv)
{
    return init(rd_api_default_thread_level(), NULL, "MPI_Init");
}

RD_WEAK_ALIAS(MPI_Init_thread)
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    static const char fn[] = "MPI_Init_thread";
    if (!provided)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "provided pointer is NULL");
    if (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
        required != MPI_THREAD_SERIALIZED && required != MPI_THREAD_MULTIPLE)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "invalid thread level %d", required);
    return init(required, provided, fn);
}

RD_WEAK_ALIAS(MPI_Finalize)
int PMPI_Finalize(void)
{
    static const char fn[] = "MPI_Finalize";
    if (world_state != WORLD_ACTIVE)
        return rd_api_error(NULL, MPI_ERR_OTHER, fn,
                            world_state == WORLD_DONE ? "called after MPI_Finalize"
                                                      : "called before MPI_Init");
    /* Attributes on MPI_COMM_SELF are deleted first (MPI-3.1 8.7.1); their
     * callbacks may call MPI, so this runs before taking the lock. */
    rd_api_attr_delete_all(rd_api.self);
    world_state = WORLD_DONE;
    return rd_api_runtime_release(fn);
}

int rd_api_runtime_release(const char *fn)
{
    rd_api_lock();
    int left = --users;
    rd_api_unlock();
    if (left > 0)
        return MPI_SUCCESS;
    /* From here the calling thread progresses by itself; the progress
     * thread needs the lock to see its stop, so it is joined before. */
    rd_api_async_stop();
    rd_api_lock();
    /* Buffered sends still in the attached buffer go out first. */
    rd_api_bsend_drain();
    /* No rank leaves while a peer may still read its memory or ring. */
    int rc = rd_coll_barrier(rd_api.world);
    if (rc != RD_OK) {
        /* A peer is lost (or the barrier broke): ranks still in their
         * closing barrier may wait for this one forever, so whatever the
         * error handler, the job ends here with the reason. */
        char msg[256 + RD_ERR_DETAIL_MAX], who[32] = "", detail[RD_ERR_DETAIL_MAX];
        int lost = rd_p2p_failed_peer();
        if (lost >= 0)
            snprintf(who, sizeof(who), ": rank %d", lost);
        rd_err_detail_take(detail, sizeof(detail));
        snprintf(msg, sizeof(msg), "%s: rank %d: the closing barrier failed (%s%s%s%s); ending "
                 "the job so that no rank waits for this one", fn, rd_api.boot.rank,
                 rd_status_str(rc), who, *detail ? ": " : "", detail);
        rd_boot_abort(1, msg);
    }
    char dropped[256];
    if (rd_p2p_dropped(dropped, sizeof(dropped)))
        fprintf(stderr, "%s\n", dropped);
    if (rd_p2p_verbose()) {
        char report[512];
        rd_p2p_report_final(report, sizeof(report));
        fprintf(stderr, "%s\n", report);
        rd_rma_report(report, sizeof(report));
        fprintf(stderr, "%s\n", report);
        rd_api_async_report(report, sizeof(report));
        if (report[0])
            fprintf(stderr, "%s\n", report);
    }
    rd_rma_finalize();
    rd_p2p_finalize();
    rd_scratch_fini();
    rd_nbc_fini();
    rd_api_group_fini();
    rd_api.finalized = 1;
    rd_api_unlock();
    rd_boot_finalize(&rd_api.boot);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Initialized)
int PMPI_Initialized(int *flag)
{
    if (!flag)
        return rd_api_error(NULL, MPI_ERR_ARG, "MPI_Initialized", "flag pointer is NULL");
    *flag = world_state != WORLD_NEVER;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Finalized)
int PMPI_Finalized(int *flag)
{
    if (!flag)
        return rd_api_error(NULL, MPI_ERR_ARG, "MPI_Finalized", "flag pointer is NULL");
    *flag = world_state == WORLD_DONE;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Abort)
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    char msg[256];
    snprintf(msg, sizeof(msg), "rank %d called MPI_Abort with error code %d", rd_api.boot.rank,
             errorcode);
    if (!rd_api.initialized || rd_api.finalized) {
        fprintf(stderr, "rdmpi: %s\n", msg);
        exit(errorcode ? errorcode : 1);
    }
    rd_boot_abort(errorcode, msg);
}

RD_WEAK_ALIAS(MPI_Query_thread)
int PMPI_Query_thread(int *provided)
{
    static const char fn[] = "MPI_Query_thread";
    RD_API_CHECK_INIT(fn);
    if (!provided)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "provided pointer is NULL");
    *provided = rd_api.thread_level;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Is_thread_main)
int PMPI_Is_thread_main(int *flag)
{
    static const char fn[] = "MPI_Is_thread_main";
    RD_API_CHECK_INIT(fn);
    if (!flag)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "flag pointer is NULL");
    *flag = pthread_equal(pthread_self(), rd_api.main_thread);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Wtime)
double PMPI_Wtime(void)
{
    return rd_clock_s() - rd_api.wtime0;
}

RD_WEAK_ALIAS(MPI_Wtick)
double PMPI_Wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

RD_WEAK_ALIAS(MPI_Get_processor_name)
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    static const char fn[] = "MPI_Get_processor_name";
    if (!name || !resultlen)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "name or resultlen is NULL");
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        snprintf(name, MPI_MAX_PROCESSOR_NAME, "localhost");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Get_version)
int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return rd_api_error(NULL, MPI_ERR_ARG, "MPI_Get_version", "NULL argument");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Get_library_version)
int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return rd_api_error(NULL, MPI_ERR_ARG, "MPI_Get_library_version", "NULL argument");
#ifdef RD_HAVE_VERBS
#define RD_BUILT_TRANSPORTS "shm, rc, ud, tcp"
#else
#define RD_BUILT_TRANSPORTS "shm, tcp"
#endif
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "rdmpi %s (MPICH ABI; transports built: %s)", RDMPI_VERSION,
                     RD_BUILT_TRANSPORTS);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}
