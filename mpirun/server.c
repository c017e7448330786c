/* mpirun's PMIx server and the hand-off of its callbacks (see server.h). */
#include "server.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "pmix_gate.h"

/* How long teardown waits for PMIx's thread, in seconds. */
#define RD_MPIRUN_SERVER_STOP_S 5

static struct {
    int initialized;        /* PMIx_server_init succeeded */
    int registered;         /* the job's nspace is registered */
    char nspace[PMIX_MAX_NSLEN + 1];
    char hostname[256];
    int efd;                /* eventfd: events queued */
    pthread_mutex_t lock;   /* protects the queue */
    rd_mpirun_event_t *head, *tail;
} srv = { .efd = -1, .lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- Hand-off from PMIx's thread to the main loop ---------------------- */

static rd_mpirun_event_t *event_new(rd_mpirun_event_type_t type, const pmix_proc_t *proc)
{
    rd_mpirun_event_t *ev = calloc(1, sizeof(*ev));
    if (ev) {
        ev->type = type;
        ev->rank = proc ? (int)proc->rank : -1;
    }
    return ev;
}

static void event_post(rd_mpirun_event_t *ev)
{
    uint64_t one = 1;

    pthread_mutex_lock(&srv.lock);
    if (srv.tail)
        srv.tail->next = ev;
    else
        srv.head = ev;
    srv.tail = ev;
    pthread_mutex_unlock(&srv.lock);
    /* Cannot fail short of a counter overflow; a lost wakeup would only
     * delay the event to the next one. */
    if (write(srv.efd, &one, sizeof(one)) < 0)
        perror("mpirun: eventfd");
}

rd_mpirun_event_t *rd_mpirun_server_next(void)
{
    rd_mpirun_event_t *ev;
    uint64_t n;

    /* Reset the counter first: an event posted after this read writes it
     * again, so none is missed. */
    if (read(srv.efd, &n, sizeof(n)) < 0) {
        /* EAGAIN: nothing new signalled; the queue may still hold events. */
    }
    pthread_mutex_lock(&srv.lock);
    ev = srv.head;
    if (ev) {
        srv.head = ev->next;
        if (!srv.head)
            srv.tail = NULL;
        ev->next = NULL;
    }
    pthread_mutex_unlock(&srv.lock);
    return ev;
}

int rd_mpirun_server_fd(void)
{
    return srv.efd;
}

/* ---- Server module: called on PMIx's progress thread --------------------- */

/* Connected and finalized are answered at once (PMIX_OPERATION_SUCCEEDED)
 * but only after the event is queued: the rank cannot go on, and so cannot
 * exit, before the main loop can see that it finalized. */
static pmix_status_t answer_after_post(rd_mpirun_event_type_t type, const pmix_proc_t *proc)
{
    rd_mpirun_event_t *ev = event_new(type, proc);
    if (!ev)
        return PMIX_ERR_NOMEM;
    event_post(ev);
    return PMIX_OPERATION_SUCCEEDED;
}

/* Every client must have come through the gate (pmix_gate.h); one more
 * client than the gate admitted means PMIx accepted it some other way,
 * and nobody checked whose it is: refused, loudly. */
static pmix_status_t on_connected(const pmix_proc_t *proc, void *obj,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    static unsigned long clients;

    if (++clients > rd_mpirun_pmix_gate_admitted()) {
        fprintf(stderr, "mpirun: a PMIx client (rank %u) connected without passing mpirun's "
                "check of its owner; refused (is this OpenPMIx version supported?)\n",
                (unsigned)proc->rank);
        clients--;
        return PMIX_ERR_NO_PERMISSIONS;
    }
    return answer_after_post(RD_MPIRUN_EV_CONNECTED, proc);
}

static pmix_status_t on_finalized(const pmix_proc_t *proc, void *obj,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return answer_after_post(RD_MPIRUN_EV_FINALIZED, proc);
}

/* The whole job ends whatever procs[] names: MPI_Abort may end more
 * processes than asked, and one job is all mpirun runs. */
static pmix_status_t on_abort(const pmix_proc_t *proc, void *obj, int status, const char msg[],
                              pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    rd_mpirun_event_t *ev = event_new(RD_MPIRUN_EV_ABORT, proc);
    if (!ev)
        return PMIX_ERR_NOMEM;
    ev->status = status;
    ev->msg = strdup(msg ? msg : "");
    if (!ev->msg) {
        free(ev);
        return PMIX_ERR_NOMEM;
    }
    ev->op_cb = cbfunc;
    ev->cbdata = cbdata;
    event_post(ev);
    return PMIX_SUCCESS;
}

static pmix_status_t on_fence(const pmix_proc_t procs[], size_t nprocs,
                              const pmix_info_t info[], size_t ninfo,
                              char *data, size_t ndata,
                              pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    rd_mpirun_event_t *ev = event_new(RD_MPIRUN_EV_FENCE, NULL);
    if (!ev)
        return PMIX_ERR_NOMEM;
    /* data belongs to PMIx and only lives until we return. */
    if (ndata) {
        ev->data = malloc(ndata);
        if (!ev->data) {
            free(ev);
            return PMIX_ERR_NOMEM;
        }
        memcpy(ev->data, data, ndata);
        ev->ndata = ndata;
    }
    ev->modex_cb = cbfunc;
    ev->cbdata = cbdata;
    event_post(ev);
    return PMIX_SUCCESS;
}

/* Ranks always fence with PMIX_COLLECT_DATA (src/boot), after which every
 * server holds every rank's data; PMIx only asks here for the data of a
 * rank on another host that was not collected, which rdmpi never needs. */
static pmix_status_t on_direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                     pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

static pmix_server_module_t module = {
    .client_connected = on_connected,
    .client_finalized = on_finalized,
    .abort = on_abort,
    .fence_nb = on_fence,
    .direct_modex = on_direct_modex,
};

/* ---- Completion, on the main thread ------------------------------------ */

static void release_fence_data(void *cbdata)
{
    free(cbdata);
}

void rd_mpirun_server_fence_result(rd_mpirun_event_t *ev, char *data, size_t len)
{
    /* PMIx releases data through release_fence_data when done with it. */
    ev->modex_cb(PMIX_SUCCESS, data, len, ev->cbdata, release_fence_data, data);
    free(ev->msg);
    free(ev->data);
    free(ev);
}

void rd_mpirun_server_complete(rd_mpirun_event_t *ev)
{
    switch (ev->type) {
    case RD_MPIRUN_EV_FENCE:
        /* Not answered here: an empty result unblocks the ranks. */
        ev->modex_cb(PMIX_ERR_TIMEOUT, NULL, 0, ev->cbdata, NULL, NULL);
        break;
    case RD_MPIRUN_EV_ABORT:
        if (ev->op_cb)
            ev->op_cb(PMIX_SUCCESS, ev->cbdata);
        break;
    case RD_MPIRUN_EV_CONNECTED:
    case RD_MPIRUN_EV_FINALIZED:
        break;
    }
    free(ev->msg);
    free(ev->data);
    free(ev);
}

/* ---- Setup and teardown ------------------------------------------------ */

/* Waits for a PMIx operation that reports through a pmix_op_cbfunc_t. */
typedef struct op_wait {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    pmix_status_t status;
} op_wait_t;

#define OP_WAIT_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS }

static void op_done(pmix_status_t status, void *cbdata)
{
    op_wait_t *w = cbdata;
    pthread_mutex_lock(&w->lock);
    w->status = status;
    w->done = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

static pmix_status_t op_wait(op_wait_t *w)
{
    pthread_mutex_lock(&w->lock);
    while (!w->done)
        pthread_cond_wait(&w->cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
    return w->status;
}

/* Fire and forget: for requests whose outcome changes nothing for us. The
 * main loop must never wait on PMIx's thread once ranks run: a rank can
 * die holding a lock PMIx's thread needs. */
static void op_ignore(pmix_status_t status, void *cbdata)
{
}

int rd_mpirun_server_init(const char *tmpdir, const char *nspace, const char *hostname)
{
    pmix_info_t *info;
    bool no = false;
    pmix_status_t rc;
    size_t n = 0;

    snprintf(srv.nspace, sizeof(srv.nspace), "%s", nspace);
    snprintf(srv.hostname, sizeof(srv.hostname), "%s", hostname);

    srv.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (srv.efd < 0) {
        perror("mpirun: eventfd");
        return -1;
    }

    /* Everything PMIx writes goes to our private directory, and we serve
     * only our own ranks: no system-wide or tool rendezvous points. */
    PMIX_INFO_CREATE(info, 5);
    PMIX_INFO_LOAD(&info[n], PMIX_HOSTNAME, srv.hostname, PMIX_STRING); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_SERVER_SYSTEM_SUPPORT, &no, PMIX_BOOL); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_SERVER_TOOL_SUPPORT, &no, PMIX_BOOL); n++;
    rc = PMIx_server_init(&module, info, n);
    PMIX_INFO_FREE(info, 5);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mpirun: PMIx_server_init failed: %s\n", PMIx_Error_string(rc));
        return -1;
    }
    srv.initialized = 1;
    return 0;
}

/* Fills one pmix_info_t with a data array it takes ownership of. */
static void load_array(pmix_info_t *info, const char *key, pmix_data_array_t *arr)
{
    PMIX_LOAD_KEY(info->key, key);
    info->value.type = PMIX_DATA_ARRAY;
    info->value.data.darray = arr;
}

/* Per-rank data: PMIx requires PMIX_RANK first in each array. */
static pmix_data_array_t *rank_info(const rd_mpirun_plan_t *plan, int rank)
{
    pmix_data_array_t *arr;
    pmix_info_t *pi;
    pmix_rank_t r = (pmix_rank_t)rank;
    uint16_t lr = (uint16_t)plan->local_rank[rank];
    uint32_t appnum = (uint32_t)plan->app_of[rank], node = (uint32_t)plan->host_of[rank];
    pmix_rank_t app_rank = (pmix_rank_t)plan->app_rank[rank];
    size_t n = 0;

    PMIX_DATA_ARRAY_CREATE(arr, 8, PMIX_INFO);
    if (!arr)
        return NULL;
    pi = arr->array;
    PMIX_INFO_LOAD(&pi[n], PMIX_RANK, &r, PMIX_PROC_RANK); n++;
    PMIX_INFO_LOAD(&pi[n], PMIX_LOCAL_RANK, &lr, PMIX_UINT16); n++;
    PMIX_INFO_LOAD(&pi[n], PMIX_NODE_RANK, &lr, PMIX_UINT16); n++;
    PMIX_INFO_LOAD(&pi[n], PMIX_APP_RANK, &app_rank, PMIX_PROC_RANK); n++;
    PMIX_INFO_LOAD(&pi[n], PMIX_GLOBAL_RANK, &r, PMIX_PROC_RANK); n++;
    PMIX_INFO_LOAD(&pi[n], PMIX_APPNUM, &appnum, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&pi[n], PMIX_HOSTNAME, plan->hosts[node].name, PMIX_STRING); n++;
    PMIX_INFO_LOAD(&pi[n], PMIX_NODEID, &node, PMIX_UINT32); n++;
    return arr;
}

/* The node map's input: the host names, comma-separated. */
static char *host_list(const rd_mpirun_plan_t *plan)
{
    size_t len = 1;
    char *s;

    for (int h = 0; h < plan->nhosts; h++)
        len += strlen(plan->hosts[h].name) + 1;
    s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int h = 0; h < plan->nhosts; h++) {
        if (h)
            strcat(s, ",");
        strcat(s, plan->hosts[h].name);
    }
    return s;
}

/* The proc map's input: each host's ranks, hosts separated by ';'. */
static char *proc_list(const rd_mpirun_plan_t *plan)
{
    size_t cap = (size_t)plan->np * 7 + (size_t)plan->nhosts + 1, len = 0;
    char *s = malloc(cap);

    if (!s)
        return NULL;
    s[0] = '\0';
    for (int h = 0; h < plan->nhosts; h++) {
        char *ranks = rd_mpirun_plan_ranks_of(plan, h);
        if (!ranks) {
            free(s);
            return NULL;
        }
        len += (size_t)snprintf(s + len, cap - len, h ? ";%s" : "%s", ranks);
        free(ranks);
    }
    return s;
}

int rd_mpirun_server_register_job(const rd_mpirun_plan_t *plan)
{
    op_wait_t w = OP_WAIT_INIT;
    pmix_info_t *info = NULL;
    char *peers = NULL, *hosts = NULL, *procs = NULL, *nodemap = NULL, *procmap = NULL;
    int np = plan->np, self = plan->self;
    uint32_t unp = (uint32_t)np, napps = (uint32_t)plan->napps, zero = 0;
    uint32_t nnodes = (uint32_t)plan->nhosts, nlocal = (uint32_t)plan->hosts[self].nranks;
    uint32_t nodeid = (uint32_t)self;
    pmix_rank_t leader = 0;
    bool yes = true;
    size_t n = 0, ninfo = 17 + (size_t)np;
    pmix_status_t rc;
    int ret = -1;

    peers = rd_mpirun_plan_ranks_of(plan, self);
    hosts = host_list(plan);
    procs = proc_list(plan);
    if (!peers || !hosts || !procs)
        goto out;
    for (int r = np - 1; r >= 0; r--)
        if (plan->host_of[r] == self)
            leader = (pmix_rank_t)r;
    if ((rc = PMIx_generate_regex(hosts, &nodemap)) != PMIX_SUCCESS ||
        (rc = PMIx_generate_ppn(procs, &procmap)) != PMIX_SUCCESS) {
        fprintf(stderr, "mpirun: PMIx cannot encode the job map: %s\n", PMIx_Error_string(rc));
        goto out;
    }

    PMIX_INFO_CREATE(info, ninfo);
    if (!info)
        goto out;
    PMIX_INFO_LOAD(&info[n], PMIX_JOBID, srv.nspace, PMIX_STRING); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_JOB_SIZE, &unp, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_UNIV_SIZE, &unp, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_MAX_PROCS, &unp, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_JOB_NUM_APPS, &napps, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_APPNUM, &zero, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_NUM_NODES, &nnodes, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_NODE_MAP, nodemap, PMIX_REGEX); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_PROC_MAP, procmap, PMIX_REGEX); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_HOSTNAME, srv.hostname, PMIX_STRING); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_NODEID, &nodeid, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_LOCAL_SIZE, &nlocal, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_NODE_SIZE, &nlocal, PMIX_UINT32); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_LOCAL_PEERS, peers, PMIX_STRING); n++;
    PMIX_INFO_LOAD(&info[n], PMIX_LOCALLDR, &leader, PMIX_PROC_RANK); n++;
    /* We remove the session directory ourselves. */
    PMIX_INFO_LOAD(&info[n], PMIX_TDIR_RMCLEAN, &yes, PMIX_BOOL); n++;
    for (int r = 0; r < np; r++) {
        pmix_data_array_t *arr = rank_info(plan, r);
        if (!arr)
            goto out;
        load_array(&info[n++], PMIX_PROC_INFO_ARRAY, arr);
    }

    rc = PMIx_server_register_nspace(srv.nspace, plan->hosts[self].nranks, info, n, op_done, &w);
    if (rc == PMIX_SUCCESS)
        rc = op_wait(&w);
    else if (rc == PMIX_OPERATION_SUCCEEDED)
        rc = PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mpirun: PMIx_server_register_nspace failed: %s\n", PMIx_Error_string(rc));
        goto out;
    }
    srv.registered = 1;
    ret = 0;
out:
    if (info)
        PMIX_INFO_FREE(info, ninfo);
    free(peers);
    free(hosts);
    free(procs);
    free(nodemap);
    free(procmap);
    return ret;
}

int rd_mpirun_server_setup_rank(int rank, char ***env)
{
    op_wait_t w = OP_WAIT_INIT;
    pmix_proc_t proc;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, srv.nspace, (pmix_rank_t)rank);
    rc = PMIx_server_register_client(&proc, geteuid(), getegid(), NULL, op_done, &w);
    if (rc == PMIX_SUCCESS)
        rc = op_wait(&w);
    else if (rc == PMIX_OPERATION_SUCCEEDED)
        rc = PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mpirun: PMIx_server_register_client(rank %d) failed: %s\n",
                rank, PMIx_Error_string(rc));
        return -1;
    }
    rc = PMIx_server_setup_fork(&proc, env);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "mpirun: PMIx_server_setup_fork(rank %d) failed: %s\n",
                rank, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

void rd_mpirun_server_rank_gone(int rank)
{
    pmix_proc_t proc;

    if (!srv.registered)
        return;
    PMIX_LOAD_PROCID(&proc, srv.nspace, (pmix_rank_t)rank);
    PMIx_server_deregister_client(&proc, op_ignore, NULL);
}

static void *finalize_thread(void *arg)
{
    op_wait_t *w = arg;

    PMIx_server_finalize();
    op_done(PMIX_SUCCESS, w);
    return NULL;
}

/* PMIx_server_finalize, given RD_MPIRUN_SERVER_STOP_S: after a client it
 * refused in the middle of its handshake, OpenPMIx 4.2 waits forever in
 * it for a lock its own thread never releases. Returns whether it
 * returned; if not, its thread is left behind, to end with the process. */
static int finalize_bounded(void)
{
    /* Static: the thread may outlive this call. */
    static op_wait_t w = OP_WAIT_INIT;
    struct timespec until;
    pthread_t t;
    int stuck = 0;

    if (pthread_create(&t, NULL, finalize_thread, &w) != 0) {
        PMIx_server_finalize();
        return 1;
    }
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += RD_MPIRUN_SERVER_STOP_S;
    pthread_mutex_lock(&w.lock);
    while (!w.done && !stuck)
        stuck = pthread_cond_timedwait(&w.cond, &w.lock, &until) == ETIMEDOUT;
    pthread_mutex_unlock(&w.lock);
    if (stuck) {
        pthread_detach(t);
        return 0;
    }
    pthread_join(t, NULL);
    return 1;
}

void rd_mpirun_server_finalize(void)
{
    /* Static: PMIx may still call back after we gave up waiting. */
    static op_wait_t w = OP_WAIT_INIT;
    rd_mpirun_event_t *ev;
    int stuck = 0;

    if (srv.registered) {
        struct timespec until;
        PMIx_server_deregister_nspace(srv.nspace, op_done, &w);
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += RD_MPIRUN_SERVER_STOP_S;
        pthread_mutex_lock(&w.lock);
        while (!w.done && !stuck)
            stuck = pthread_cond_timedwait(&w.cond, &w.lock, &until) == ETIMEDOUT;
        pthread_mutex_unlock(&w.lock);
        srv.registered = 0;
    }
    /* A PMIx thread that cannot even deregister the job would hang
     * PMIx_server_finalize too; our caller removes PMIx's files anyway. */
    if (stuck) {
        fprintf(stderr, "mpirun: the PMIx server does not respond; not waiting for it\n");
        return;
    }
    if (srv.initialized && !finalize_bounded()) {
        fprintf(stderr, "mpirun: the PMIx server does not stop; not waiting for it\n");
        return;
    }
    srv.initialized = 0;
    /* PMIx's thread is gone: whatever it queued is ours to free. */
    while ((ev = srv.head) != NULL) {
        srv.head = ev->next;
        free(ev->msg);
        free(ev->data);
        free(ev);
    }
    srv.tail = NULL;
    if (srv.efd >= 0) {
        close(srv.efd);
        srv.efd = -1;
    }
}
