/*
 * Bootstrap through the PMIx client API (see boot.h).
 *
 * Only standard PMIx keys are used, so the same code works under rdmpi's
 * mpirun and under any other PMIx server (Slurm's srun --mpi=pmix).
 *
 * Singleton: a process manager that launches a PMIx client always puts
 * PMIX_NAMESPACE in its environment (PMIx_server_setup_fork does). Without
 * it there is no server to talk to, and we do not call PMIx_Init at all:
 * PMIx's own singleton mode would go looking for system-level servers in
 * /tmp and could attach to an unrelated one. Instead the process runs as a
 * job of one, with puts kept in a small local table. (Unless srun started
 * it as one of several tasks: that is srun without --mpi=pmix, an error.)
 */
#include "boot/boot.h"

#include <pmix.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/errdetail.h"
#include "util/status.h"

/* A value a singleton published for itself. */
typedef struct rd_boot_kv {
    struct rd_boot_kv *next;
    char *key;
    size_t len;
    unsigned char val[];
} rd_boot_kv_t;

static struct {
    int initialized;
    int singleton;
    pmix_proc_t self;       /* our PMIx name (valid when !singleton) */
    rd_boot_kv_t *kv;       /* singleton's own puts */
} boot;

/* Job ids go into file names (/dev/shm/rdmpi-<job_id>-...): keep only
 * [A-Za-z0-9._-] and replace everything else by '_'. */
static void make_job_id(char *dst, size_t size, const char *src)
{
    size_t i;
    for (i = 0; i + 1 < size && src[i]; i++) {
        char c = src[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        dst[i] = ok ? c : '_';
    }
    dst[i] = '\0';
}

/* Reads an integer-valued key; PMIx servers differ in the integer type they
 * store (uint32 per the standard, but int and uint16 are seen too). */
static int get_number(const pmix_proc_t *proc, const char *key, long *out)
{
    pmix_value_t *v = NULL;
    int rc = RD_OK;

    pmix_status_t prc = PMIx_Get(proc, key, NULL, 0, &v);
    if (prc != PMIX_SUCCESS || v == NULL) {
        rd_err_detail("PMIx_Get(%s): %s", key, PMIx_Error_string(prc));
        return RD_EBOOT;
    }
    switch (v->type) {
    case PMIX_UINT32: *out = v->data.uint32; break;
    case PMIX_UINT16: *out = v->data.uint16; break;
    case PMIX_UINT8: *out = v->data.uint8; break;
    case PMIX_INT32: *out = v->data.int32; break;
    case PMIX_INT: *out = v->data.integer; break;
    case PMIX_UINT: *out = v->data.uint; break;
    case PMIX_UINT64: *out = (long)v->data.uint64; break;
    case PMIX_INT64: *out = (long)v->data.int64; break;
    case PMIX_SIZE: *out = (long)v->data.size; break;
    case PMIX_PROC_RANK: *out = v->data.rank; break;
    default:
        rd_err_detail("PMIx_Get(%s): not an integer (PMIx type %d)", key, (int)v->type);
        rc = RD_EBOOT;
        break;
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

/* Reads a string-valued key into a malloc'ed copy. */
static char *get_string(const pmix_proc_t *proc, const char *key)
{
    pmix_value_t *v = NULL;
    char *s = NULL;

    pmix_status_t prc = PMIx_Get(proc, key, NULL, 0, &v);
    if (prc != PMIX_SUCCESS || v == NULL) {
        rd_err_detail("PMIx_Get(%s): %s", key, PMIx_Error_string(prc));
        return NULL;
    }
    if (v->type == PMIX_STRING && v->data.string)
        s = strdup(v->data.string);
    PMIX_VALUE_RELEASE(v);
    return s;
}

/* Parses PMIX_LOCAL_PEERS ("0,1,5" — ranges "2-4" accepted too) into a
 * sorted array. Returns the count, or -1 on a malformed list. */
static int parse_peers(const char *s, int **out)
{
    int n = 0, cap = 16;
    int *v = malloc(cap * sizeof(*v));
    const char *p = s;

    if (!v)
        return -1;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi;
        if (end == p || lo < 0)
            goto err;
        hi = lo;
        if (*end == '-') {
            p = end + 1;
            hi = strtol(p, &end, 10);
            if (end == p || hi < lo)
                goto err;
        }
        for (long r = lo; r <= hi; r++) {
            if (n == cap) {
                int *nv = realloc(v, 2 * cap * sizeof(*v));
                if (!nv)
                    goto err;
                v = nv;
                cap *= 2;
            }
            v[n++] = (int)r;
        }
        if (*end == ',')
            end++;
        else if (*end != '\0')
            goto err;
        p = end;
    }
    /* Insertion sort: local peer lists are short and nearly always sorted. */
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
    *out = v;
    return n;
err:
    free(v);
    return -1;
}

static int init_singleton(rd_boot_info_t *info)
{
    info->rank = 0;
    info->size = 1;
    info->local_rank = 0;
    info->local_size = 1;
    info->local_ranks = malloc(sizeof(int));
    if (!info->local_ranks)
        return RD_ENOMEM;
    info->local_ranks[0] = 0;
    info->node_id = 0;
    info->universe_size = 1;
    info->appnum = 0;
    info->singleton = 1;
    snprintf(info->job_id, sizeof(info->job_id), "single-%ld", (long)getpid());
    boot.singleton = 1;
    boot.initialized = 1;
    return RD_OK;
}

/* srun without --mpi=pmix (MpiDefault=none, or pmi2) starts every task with
 * no PMIx server: each would run as a singleton, N copies of a job of one.
 * srun gives each task of a step SLURM_STEP_NUM_TASKS (a batch script's own
 * step has none, and a program run there alone is a real singleton). */
static int srun_without_pmix(void)
{
    const char *n = getenv("SLURM_STEP_NUM_TASKS");
    char *end;
    long tasks;

    if (!n)
        return 0;
    tasks = strtol(n, &end, 10);
    if (end == n || *end != '\0' || tasks <= 1)
        return 0;
    rd_err_detail("started by srun as one of %ld tasks without PMIx: use srun --mpi=pmix "
                  "(or MpiDefault=pmix in slurm.conf)", tasks);
    return 1;
}

int rd_boot_init(rd_boot_info_t *info)
{
    pmix_proc_t wild;
    long v;
    char *peers;
    int rc = RD_EBOOT;

    memset(info, 0, sizeof(*info));
    if (gethostname(info->hostname, sizeof(info->hostname)) != 0)
        strcpy(info->hostname, "localhost");
    info->hostname[sizeof(info->hostname) - 1] = '\0';

    if (getenv("PMIX_NAMESPACE") == NULL)
        return srun_without_pmix() ? RD_EBOOT : init_singleton(info);

    pmix_status_t prc = PMIx_Init(&boot.self, NULL, 0);
    if (prc != PMIX_SUCCESS) {
        rd_err_detail("PMIx_Init (PMIX_NAMESPACE=%s): %s", getenv("PMIX_NAMESPACE"),
                      PMIx_Error_string(prc));
        return RD_EBOOT;
    }
    boot.initialized = 1;
    PMIX_LOAD_PROCID(&wild, boot.self.nspace, PMIX_RANK_WILDCARD);

    info->rank = (int)boot.self.rank;
    if (get_number(&wild, PMIX_JOB_SIZE, &v) != RD_OK || v < 1)
        goto err;
    info->size = (int)v;
    if (get_number(&boot.self, PMIX_LOCAL_RANK, &v) != RD_OK)
        goto err;
    info->local_rank = (int)v;

    peers = get_string(&wild, PMIX_LOCAL_PEERS);
    if (!peers)
        goto err;
    info->local_size = parse_peers(peers, &info->local_ranks);
    free(peers);
    if (info->local_size < 1)
        goto err;
    if (get_number(&wild, PMIX_LOCAL_SIZE, &v) == RD_OK && v != info->local_size)
        goto err;

    /* Any identity unique per node will do; the lowest local rank is one
     * every PMIx server gives us, for servers that do not set PMIX_NODEID. */
    info->node_id = get_number(&boot.self, PMIX_NODEID, &v) == RD_OK ? (int)v : info->local_ranks[0];
    info->universe_size = get_number(&wild, PMIX_UNIV_SIZE, &v) == RD_OK ? (int)v : info->size;
    info->appnum = get_number(&boot.self, PMIX_APPNUM, &v) == RD_OK ? (int)v : 0;

    char *host = get_string(&boot.self, PMIX_HOSTNAME);
    if (host) {
        snprintf(info->hostname, sizeof(info->hostname), "%s", host);
        free(host);
    }
    make_job_id(info->job_id, sizeof(info->job_id), boot.self.nspace);
    return RD_OK;

err:
    free(info->local_ranks);
    info->local_ranks = NULL;
    PMIx_Finalize(NULL, 0);
    boot.initialized = 0;
    return rc;
}

static int singleton_put(const char *key, const void *val, size_t len)
{
    rd_boot_kv_t *kv, **pp;

    /* A second put of the same key replaces the first, as in PMIx. */
    for (pp = &boot.kv; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->key, key) == 0) {
            kv = *pp;
            *pp = kv->next;
            free(kv->key);
            free(kv);
            break;
        }
    }
    kv = malloc(sizeof(*kv) + len);
    if (!kv)
        return RD_ENOMEM;
    kv->key = strdup(key);
    if (!kv->key) {
        free(kv);
        return RD_ENOMEM;
    }
    kv->len = len;
    memcpy(kv->val, val, len);
    kv->next = boot.kv;
    boot.kv = kv;
    return RD_OK;
}

int rd_boot_put(const char *key, const void *val, size_t len)
{
    pmix_value_t v;

    if (!boot.initialized || !key || (!val && len) || strlen(key) > PMIX_MAX_KEYLEN)
        return RD_EINVAL;
    if (boot.singleton)
        return singleton_put(key, val, len);
    memset(&v, 0, sizeof(v));
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)val;  /* PMIx_Put copies the value */
    v.data.bo.size = len;
    pmix_status_t prc = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (prc != PMIX_SUCCESS) {
        rd_err_detail("PMIx_Put(%s, %zu bytes): %s", key, len, PMIx_Error_string(prc));
        return RD_EBOOT;
    }
    return RD_OK;
}

int rd_boot_fence(void)
{
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc;

    if (!boot.initialized)
        return RD_EINVAL;
    if (boot.singleton)
        return RD_OK;
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS) {
        rd_err_detail("PMIx_Commit: %s", PMIx_Error_string(rc));
        return RD_EBOOT;
    }
    /* Collect everything at the fence, so the local server can answer
     * every rd_boot_get without asking other hosts. */
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        rd_err_detail("PMIx_Fence: %s", PMIx_Error_string(rc));
        return RD_EBOOT;
    }
    return RD_OK;
}

static int copy_out(const void *src, size_t srclen, void *buf, size_t *len)
{
    size_t cap = *len;
    *len = srclen;
    if (srclen > cap)
        return RD_ENOMEM;
    if (srclen)
        memcpy(buf, src, srclen);
    return RD_OK;
}

int rd_boot_get(int rank, const char *key, void *buf, size_t *len)
{
    pmix_proc_t proc;
    pmix_info_t info;
    pmix_value_t *v = NULL;
    bool immediate = true;
    pmix_status_t prc;
    int rc;

    if (!boot.initialized || !key || !len || (!buf && *len) || rank < 0)
        return RD_EINVAL;
    if (boot.singleton) {
        if (rank != 0)
            return RD_EINVAL;
        for (rd_boot_kv_t *kv = boot.kv; kv; kv = kv->next)
            if (strcmp(kv->key, key) == 0)
                return copy_out(kv->val, kv->len, buf, len);
        return RD_EINVAL;
    }

    /* PMIX_IMMEDIATE: after a fence that collected the data the local
     * server has every rank's values, so a missing key is an error now;
     * without it the server waits for the key to be posted (a timeout). */
    PMIX_LOAD_PROCID(&proc, boot.self.nspace, (pmix_rank_t)rank);
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &immediate, PMIX_BOOL);
    prc = PMIx_Get(&proc, key, &info, 1, &v);
    PMIX_INFO_DESTRUCT(&info);
    if (prc == PMIX_ERR_NOT_FOUND || prc == PMIX_ERR_BAD_PARAM)
        return RD_EINVAL;
    if (prc != PMIX_SUCCESS || v == NULL) {
        rd_err_detail("PMIx_Get(%s) of rank %d: %s", key, rank, PMIx_Error_string(prc));
        return RD_EBOOT;
    }
    if (v->type == PMIX_BYTE_OBJECT)
        rc = copy_out(v->data.bo.bytes, v->data.bo.size, buf, len);
    else
        rc = RD_EINVAL;    /* somebody else's key, not one rd_boot_put wrote */
    PMIX_VALUE_RELEASE(v);
    return rc;
}

void rd_boot_abort(int code, const char *msg)
{
    if (boot.initialized && !boot.singleton)
        PMIx_Abort(code, msg ? msg : "", NULL, 0);
    /* The server normally kills us before PMIx_Abort returns; if it
     * returns (or there is no server) we end ourselves with the code. */
    _exit(code);
}

int rd_boot_finalize(rd_boot_info_t *info)
{
    int rc = RD_OK;

    if (!boot.initialized)
        return RD_EINVAL;
    if (boot.singleton) {
        while (boot.kv) {
            rd_boot_kv_t *kv = boot.kv;
            boot.kv = kv->next;
            free(kv->key);
            free(kv);
        }
    } else if (PMIx_Finalize(NULL, 0) != PMIX_SUCCESS) {
        rc = RD_EBOOT;
    }
    boot.initialized = 0;
    boot.singleton = 0;
    if (info) {
        free(info->local_ranks);
        info->local_ranks = NULL;
    }
    return rc;
}
