/*
 * Bootstrap back end through the PMIx client API (see boot_backend.h).
 *
 * Only standard PMIx keys are used, so the same code works under rdmpi's
 * mpirun and under any other PMIx server (Slurm's srun --mpi=pmix). boot.c
 * chooses it only when PMIX_NAMESPACE is set (see there why).
 */
#include "boot/boot_backend.h"

#include <pmix.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/errdetail.h"
#include "util/status.h"

/* Our PMIx name. */
static pmix_proc_t self;
/* The handler of the server's loss, once registered (PMIx's reference). */
static pmix_status_t lost_ref;

/* The PMIx server closed our connection without our finalizing: the
 * launcher is gone (mpirun killed, the job torn down). Nothing can stop
 * this process any more, and a rank polling for its peers would spin
 * forever, so it exits at once; there is nobody left to tell. Runs in
 * PMIx's thread, where _exit is as safe as anywhere. */
static void lost_server(size_t id, pmix_status_t status, const pmix_proc_t *source,
                        pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                        pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)status;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    (void)cbfunc;
    (void)cbdata;
    _exit(1);
}

static int pmix_finalize(void);

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

static int pmix_init(rd_boot_info_t *info)
{
    pmix_proc_t wild;
    long v;
    char *peers;
    int rc = RD_EBOOT;

    pmix_status_t prc = PMIx_Init(&self, NULL, 0);
    if (prc != PMIX_SUCCESS) {
        rd_err_detail("PMIx_Init (PMIX_NAMESPACE=%s): %s", getenv("PMIX_NAMESPACE"),
                      PMIx_Error_string(prc));
        return RD_EBOOT;
    }
    PMIX_LOAD_PROCID(&wild, self.nspace, PMIX_RANK_WILDCARD);
    /* Without a cbfunc, registering blocks and returns the reference. */
    pmix_status_t lost = PMIX_ERR_LOST_CONNECTION;
    lost_ref = PMIx_Register_event_handler(&lost, 1, NULL, 0, lost_server, NULL, NULL);

    info->rank = (int)self.rank;
    if (get_number(&wild, PMIX_JOB_SIZE, &v) != RD_OK || v < 1)
        goto err;
    info->size = (int)v;
    if (get_number(&self, PMIX_LOCAL_RANK, &v) != RD_OK)
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
    info->node_id = get_number(&self, PMIX_NODEID, &v) == RD_OK ? (int)v : info->local_ranks[0];
    info->universe_size = get_number(&wild, PMIX_UNIV_SIZE, &v) == RD_OK ? (int)v : info->size;
    info->appnum = get_number(&self, PMIX_APPNUM, &v) == RD_OK ? (int)v : 0;

    char *host = get_string(&self, PMIX_HOSTNAME);
    if (host) {
        snprintf(info->hostname, sizeof(info->hostname), "%s", host);
        free(host);
    }
    rd_boot_set_job_id(info, self.nspace);
    return RD_OK;

err:
    free(info->local_ranks);
    info->local_ranks = NULL;
    pmix_finalize();
    return rc;
}

static int pmix_put(const char *key, const void *val, size_t len)
{
    pmix_value_t v;

    if (strlen(key) > PMIX_MAX_KEYLEN)
        return RD_EINVAL;
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

static int pmix_fence(void)
{
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc;

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

static int pmix_get(int rank, const char *key, void *buf, size_t *len)
{
    pmix_proc_t proc;
    pmix_info_t info;
    pmix_value_t *v = NULL;
    bool immediate = true;
    pmix_status_t prc;
    int rc;

    /* PMIX_IMMEDIATE: after a fence that collected the data the local
     * server has every rank's values, so a missing key is an error now;
     * without it the server waits for the key to be posted (a timeout). */
    PMIX_LOAD_PROCID(&proc, self.nspace, (pmix_rank_t)rank);
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
        rc = rd_boot_copy_out(v->data.bo.bytes, v->data.bo.size, buf, len);
    else
        rc = RD_EINVAL;    /* somebody else's key, not one rd_boot_put wrote */
    PMIX_VALUE_RELEASE(v);
    return rc;
}

/* The server normally kills us before PMIx_Abort returns. */
static void pmix_abort(int code, const char *msg)
{
    PMIx_Abort(code, msg ? msg : "", NULL, 0);
}

static int pmix_finalize(void)
{
    /* Our own disconnection is no loss. */
    if (lost_ref > 0)
        PMIx_Deregister_event_handler((size_t)lost_ref, NULL, NULL);
    lost_ref = 0;
    return PMIx_Finalize(NULL, 0) == PMIX_SUCCESS ? RD_OK : RD_EBOOT;
}

const rd_boot_ops_t rd_boot_pmix_ops = {
    .name = "PMIx",
    .init = pmix_init,
    .put = pmix_put,
    .fence = pmix_fence,
    .get = pmix_get,
    .abort = pmix_abort,
    .finalize = pmix_finalize,
};
