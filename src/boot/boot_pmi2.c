/*
 * Bootstrap back end speaking the PMI-2 wire protocol (see boot_backend.h),
 * which Slurm's srun --mpi=pmi2 and MPICH's Hydra offer their ranks.
 *
 * The connection (PMI_FD, or PMI_PORT with PMI_ID) and the init exchange
 * that agrees on version 2 are boot_pmi_wire.c's. After it every message,
 * either way, is a 6-character decimal length (space-padded) followed by
 * that many characters of "key=value;" pairs, "cmd=<name>;" first:
 *
 *   -> cmd=fullinit;pmijobid=J;pmirank=R;threaded=FALSE;
 *   <- cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=R;size=N;appnum=A;...
 *   -> cmd=job-getid;              <- cmd=job-getid-response;jobid=J;rc=0;
 *   -> cmd=info-getjobattr;key=K;  <- cmd=info-getjobattr-response;found=TRUE;value=V;rc=0;
 *   -> cmd=kvs-put;key=K;value=V;  <- cmd=kvs-put-response;rc=0;
 *   -> cmd=kvs-fence;              <- cmd=kvs-fence-response;rc=0;
 *   -> cmd=kvs-get;jobid=J;srcid=R;key=K;
 *                                  <- cmd=kvs-get-response;found=TRUE;value=V;rc=0;
 *   -> cmd=finalize;               <- cmd=finalize-response;rc=0;
 *   -> cmd=abort;isworld=TRUE;msg=M;   (no reply: the job ends)
 *
 * Values may not hold ';' and are at most 1024 characters (MPICH's and
 * Slurm's PMI2_MAX_VALLEN), keys 64; rd_boot_put's values are stored as
 * boot_pmi_wire.h describes.
 *
 * kvs-fence publishes this rank's puts but need not wait for the others
 * (Hydra answers it at once; a get of a key not there yet waits until every
 * rank has fenced). rd_boot_fence is a barrier, so it follows kvs-fence
 * with a get of a key nobody puts, which returns once every rank is in.
 */
#include "boot/boot_backend.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot_pmi_wire.h"
#include "util/errdetail.h"
#include "util/status.h"

#define PMI2_KEYLEN_MAX 64      /* PMI2_MAX_KEYLEN, '\0' included */
#define PMI2_VALLEN_MAX 1024    /* PMI2_MAX_VALLEN, '\0' included */
#define PMI2_BARRIER_KEY "rdmpi-barrier-nobody-puts"

static struct {
    char jobid[256];
    int rank;
    int size;
    rd_pmiw_kvs_t kvs;
    /* One request and its reply at a time (see boot_pmi1.c). */
    pthread_mutex_t lock;
} pmi = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Sends one message: the length field, then text (which must not hold
 * the length itself). */
static int send_msg(const char *text)
{
    char len[8];
    size_t n = strlen(text);
    int st;

    if (n >= RD_PMIW_MSG_MAX || n > 999999)
        return RD_EINTERN;
    snprintf(len, sizeof(len), "%-6zu", n);
    if ((st = rd_pmiw_write(len, 6)) != RD_OK)
        return st;
    return rd_pmiw_write(text, n);
}

static int recv_msg(char *reply)
{
    char len[8], *end;
    long n;
    int st;

    if ((st = rd_pmiw_read_n(len, 6)) != RD_OK)
        return st;
    n = strtol(len, &end, 10);
    while (*end == ' ')
        end++;
    if (end == len || *end != '\0' || n < 0) {
        rd_err_detail("PMI-2: a message from the process manager starts with \"%s\", not its "
                      "length", len);
        return RD_EBOOT;
    }
    return rd_pmiw_read_n(reply, (size_t)n);
}

static int field(const char *reply, const char *key, char *val, size_t cap)
{
    return rd_pmiw_field(reply, ';', key, val, cap);
}

/* Sends req (a complete "cmd=...;" text) and reads the reply, which must be
 * cmd=<expect>. Returns RD_EINVAL when the reply carries an rc other than
 * 0, RD_EBOOT when the exchange itself fails. */
static int request(const char *req, const char *expect, char *reply)
{
    char cmd[64], rc[16];
    int st;

    if ((st = send_msg(req)) != RD_OK || (st = recv_msg(reply)) != RD_OK)
        return st;
    if (field(reply, "cmd", cmd, sizeof(cmd)) != RD_OK || strcmp(cmd, expect) != 0) {
        rd_err_detail("PMI-2: sent %.*s, expected cmd=%s, got \"%.200s\"",
                      (int)strcspn(req, ";"), req, expect, reply);
        return RD_EBOOT;
    }
    if (field(reply, "rc", rc, sizeof(rc)) == RD_OK && strcmp(rc, "0") != 0)
        return RD_EINVAL;
    return RD_OK;
}

/* A reply's found=TRUE value; RD_EINVAL when found=FALSE. */
static int found_value(const char *reply, const char *what, char *val, size_t cap)
{
    char found[8];
    if (field(reply, "found", found, sizeof(found)) != RD_OK || strcmp(found, "TRUE") != 0)
        return RD_EINVAL;
    if (field(reply, "value", val, cap) != RD_OK) {
        rd_err_detail("PMI-2: no value for %s in \"%.200s\"", what, reply);
        return RD_EBOOT;
    }
    return RD_OK;
}

/* A job attribute (info-getjobattr), or RD_EINVAL when the server has none. */
static int job_attr(const char *key, char *val, size_t cap)
{
    char req[128], reply[RD_PMIW_MSG_MAX];
    int st;

    snprintf(req, sizeof(req), "cmd=info-getjobattr;key=%s;", key);
    if ((st = request(req, "info-getjobattr-response", reply)) != RD_OK)
        return st;
    return found_value(reply, key, val, cap);
}

static int put_text(const char *key, const char *text)
{
    char req[RD_PMIW_MSG_MAX], reply[RD_PMIW_MSG_MAX];
    int n = snprintf(req, sizeof(req), "cmd=kvs-put;key=%s;value=%s;", key, text);
    if (n < 0 || (size_t)n >= sizeof(req))
        return RD_EINTERN;
    int st = request(req, "kvs-put-response", reply);
    if (st == RD_EINVAL)
        rd_err_detail("PMI-2: put of %s refused: \"%.200s\"", key, reply);
    return st == RD_OK ? RD_OK : RD_EBOOT;
}

/* The key's value from whichever rank put it (srcid names rank r of
 * "k@r", a hint the servers may use). */
static int get_text(const char *key, char *text, size_t cap)
{
    char req[RD_PMIW_MSG_MAX], reply[RD_PMIW_MSG_MAX];
    const char *at = strrchr(key, '@');
    int st;

    snprintf(req, sizeof(req), "cmd=kvs-get;jobid=%s;srcid=%d;key=%s;", pmi.jobid,
             at ? atoi(at + 1) : -1, key);
    if ((st = request(req, "kvs-get-response", reply)) != RD_OK) {
        if (st == RD_EINVAL)
            rd_err_detail("PMI-2: get of %s failed: \"%.200s\"", key, reply);
        return RD_EBOOT;
    }
    return found_value(reply, key, text, cap);
}

static int fullinit(rd_boot_info_t *info)
{
    char req[512], reply[RD_PMIW_MSG_MAX];
    const char *jobid = getenv("PMI_JOBID");
    const char *id = getenv("PMI_ID") ? "PMI_ID" : "PMI_RANK";
    long v;
    int n, st;

    n = snprintf(req, sizeof(req), "cmd=fullinit;");
    if (jobid && !strpbrk(jobid, ";=") && strlen(jobid) < 128)
        n += snprintf(req + n, sizeof(req) - (size_t)n, "pmijobid=%s;", jobid);
    snprintf(req + n, sizeof(req) - (size_t)n, "pmirank=%ld;threaded=FALSE;",
             rd_pmiw_env_long(id, 0));
    if ((st = request(req, "fullinit-response", reply)) != RD_OK) {
        if (st == RD_EINVAL)
            rd_err_detail("PMI-2: fullinit refused: \"%.200s\"", reply);
        return RD_EBOOT;
    }
    if (rd_pmiw_number(reply, ';', "rank", &v, "PMI-2") != RD_OK)
        return RD_EBOOT;
    pmi.rank = (int)v;
    if (rd_pmiw_number(reply, ';', "size", &v, "PMI-2") != RD_OK)
        return RD_EBOOT;
    pmi.size = (int)v;
    /* Slurm answers appnum=-1: it does not know it. */
    info->appnum = rd_pmiw_number(reply, ';', "appnum", &v, "PMI-2") == RD_OK && v > 0 ? (int)v
                                                                                    : 0;
    rd_err_detail_clear();
    return RD_OK;
}

static int pmi2_init(rd_boot_info_t *info)
{
    char reply[RD_PMIW_MSG_MAX], val[RD_PMIW_MSG_MAX];
    int st;

    pmi.kvs = (rd_pmiw_kvs_t){ .proto = "PMI-2", .keylen_max = PMI2_KEYLEN_MAX,
                               .vallen_max = PMI2_VALLEN_MAX, .put = put_text, .get = get_text };
    if ((st = fullinit(info)) != RD_OK)
        goto err;
    st = RD_EBOOT;
    if (pmi.size < 1 || pmi.rank < 0 || pmi.rank >= pmi.size) {
        rd_err_detail("PMI-2: rank %d of %d is not a rank of the job", pmi.rank, pmi.size);
        goto err;
    }
    info->rank = pmi.rank;
    info->size = pmi.size;
    if (request("cmd=job-getid;", "job-getid-response", reply) != RD_OK ||
        field(reply, "jobid", pmi.jobid, sizeof(pmi.jobid)) != RD_OK) {
        rd_err_detail("PMI-2: no jobid in \"%.200s\"", reply);
        goto err;
    }
    info->universe_size = job_attr("universeSize", val, sizeof(val)) == RD_OK ? atoi(val) : 0;
    if (info->universe_size < info->size)
        info->universe_size = info->size;
    int mapped = job_attr("PMI_process_mapping", val, sizeof(val)) == RD_OK;
    rd_err_detail_clear();  /* both attributes are optional */
    if ((st = rd_pmiw_set_nodes(info, mapped ? val : NULL, &rd_boot_pmi2_ops)) != RD_OK)
        goto err;
    rd_boot_set_job_id(info, pmi.jobid);
    return RD_OK;

err:
    rd_pmiw_close();
    return st;
}

static int pmi2_put(const char *key, const void *val, size_t len)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = rd_pmiw_put_bytes(&pmi.kvs, pmi.rank, key, val, len);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int fence_locked(void)
{
    char reply[RD_PMIW_MSG_MAX], val[RD_PMIW_MSG_MAX];
    int st;

    if ((st = request("cmd=kvs-fence;", "kvs-fence-response", reply)) != RD_OK) {
        if (st == RD_EINVAL)
            rd_err_detail("PMI-2: kvs-fence failed: \"%.200s\"", reply);
        return RD_EBOOT;
    }
    st = get_text(PMI2_BARRIER_KEY, val, sizeof(val));
    return st == RD_EINVAL ? RD_OK : st == RD_OK ? RD_EINTERN : st;
}

static int pmi2_fence(void)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = fence_locked();
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int pmi2_get(int rank, const char *key, void *buf, size_t *len)
{
    if (rank >= pmi.size)
        return RD_EINVAL;
    pthread_mutex_lock(&pmi.lock);
    int rc = rd_pmiw_get_bytes(&pmi.kvs, rank, key, buf, len);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

/* Not under the lock: abort may come from a thread that holds it. The exit
 * code does not travel in PMI-2's abort: the caller exits with it. Under
 * MPICH's Hydra (HYDI_CONTROL_FD is its proxy's) PMI-1's abort line goes
 * instead: Hydra reads either wire format on a connection, its 4.0 server
 * does not know PMI-2's abort (it fails the job with status 255), and
 * PMI-1's carries the exit code Hydra then ends the job with. */
static void pmi2_abort(int code, const char *msg)
{
    char text[512];
    int n;

    if (getenv("HYDI_CONTROL_FD")) {
        n = snprintf(text, sizeof(text), "cmd=abort exitcode=%d\n", code);
        if (rd_pmiw.fd >= 0)
            (void)rd_pmiw_write(text, (size_t)n);
        return;
    }
    n = snprintf(text, sizeof(text), "cmd=abort;isworld=TRUE;msg=");
    for (const char *p = msg ? msg : ""; *p && n < (int)sizeof(text) - 2; p++)
        text[n++] = *p == ';' || *p == '\n' ? ' ' : *p;
    text[n++] = ';';
    text[n] = '\0';
    if (rd_pmiw.fd >= 0)
        (void)send_msg(text);
}

static int pmi2_finalize(void)
{
    char reply[RD_PMIW_MSG_MAX];
    pthread_mutex_lock(&pmi.lock);
    int st = request("cmd=finalize;", "finalize-response", reply);
    rd_pmiw_close();
    pthread_mutex_unlock(&pmi.lock);
    return st;
}

const rd_boot_ops_t rd_boot_pmi2_ops = {
    .name = "PMI-2",
    .init = pmi2_init,
    .put = pmi2_put,
    .fence = pmi2_fence,
    .get = pmi2_get,
    .abort = pmi2_abort,
    .finalize = pmi2_finalize,
};
