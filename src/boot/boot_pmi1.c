/*
 * Bootstrap back end speaking the PMI-1 simple wire protocol (see
 * boot_backend.h), the one MPICH's Hydra (mpiexec.hydra, mpirun.mpich)
 * offers its ranks, so that Hydra starts real rdmpi jobs.
 *
 * The connection (PMI_FD, or PMI_PORT with PMI_ID) and the init exchange
 * are boot_pmi_wire.c's, which picks this back end when the process
 * manager does not offer PMI-2. Every request and reply is one line of
 * space-separated key=value pairs, "cmd=<name>" first:
 *
 *   -> cmd=get_maxes             <- cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024
 *   -> cmd=get_my_kvsname        <- cmd=my_kvsname kvsname=kvs_123_0
 *   -> cmd=get_appnum            <- cmd=appnum appnum=0
 *   -> cmd=put kvsname=K key=k value=v   <- cmd=put_result rc=0 msg=success
 *   -> cmd=barrier_in            <- cmd=barrier_out   (when every rank is in)
 *   -> cmd=get kvsname=K key=k   <- cmd=get_result rc=0 msg=success value=v
 *   -> cmd=finalize              <- cmd=finalize_ack
 *   -> cmd=abort exitcode=N      (no reply: the job ends)
 *
 * PMI-1 has one key space for the whole job and text values without spaces,
 * of at most vallen_max characters; rd_boot_put's values are bytes of any
 * length, stored as boot_pmi_wire.h describes.
 *
 * Which ranks share a node comes from Hydra's PMI_process_mapping
 * ("(vector,(node,nodes,ranks-per-node),...)", MPICH's format); without it
 * every rank publishes its host name and the ranks of one host are a node.
 */
#include "boot/boot_backend.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot_pmi_wire.h"
#include "util/errdetail.h"
#include "util/status.h"

static struct {
    char kvsname[256];
    int rank;
    int size;
    rd_pmiw_kvs_t kvs;
    /* One request and its reply at a time: transports read peers' addresses
     * lazily, from any thread under MPI_THREAD_MULTIPLE. */
    pthread_mutex_t lock;
} pmi = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Sends a request line and reads the reply, which must be cmd=<expect>.
 * Returns RD_EINVAL when the reply carries an rc other than 0 (get's "key
 * not found"), RD_EBOOT when the exchange itself fails. */
static int request(const char *req, const char *expect, char *reply)
{
    char cmd[64], rc[16];
    int st;

    if ((st = rd_pmiw_write(req, strlen(req))) != RD_OK || (st = rd_pmiw_read_line(reply)) != RD_OK)
        return st;
    if (rd_pmiw_field(reply, ' ', "cmd", cmd, sizeof(cmd)) != RD_OK || strcmp(cmd, expect) != 0) {
        rd_err_detail("PMI-1: sent %.*s, expected cmd=%s, got \"%.200s\"",
                      (int)strcspn(req, "\n"), req, expect, reply);
        return RD_EBOOT;
    }
    if (rd_pmiw_field(reply, ' ', "rc", rc, sizeof(rc)) == RD_OK && strcmp(rc, "0") != 0)
        return RD_EINVAL;
    return RD_OK;
}

static int number(const char *reply, const char *key, long *out)
{
    return rd_pmiw_number(reply, ' ', key, out, "PMI-1");
}

static int put_text(const char *key, const char *text)
{
    char req[RD_PMIW_MSG_MAX], reply[RD_PMIW_MSG_MAX];
    int n = snprintf(req, sizeof(req), "cmd=put kvsname=%s key=%s value=%s\n", pmi.kvsname, key,
                     text);
    if (n < 0 || (size_t)n >= sizeof(req))
        return RD_EINTERN;
    int st = request(req, "put_result", reply);
    if (st == RD_EINVAL)
        rd_err_detail("PMI-1: put of %s refused: \"%.200s\"", key, reply);
    return st == RD_OK ? RD_OK : RD_EBOOT;
}

static int get_text(const char *key, char *text, size_t cap)
{
    char req[RD_PMIW_MSG_MAX], reply[RD_PMIW_MSG_MAX];
    int st;

    snprintf(req, sizeof(req), "cmd=get kvsname=%s key=%s\n", pmi.kvsname, key);
    if ((st = request(req, "get_result", reply)) != RD_OK)
        return st;      /* RD_EINVAL: no such key */
    if (rd_pmiw_field(reply, ' ', "value", text, cap) != RD_OK) {
        rd_err_detail("PMI-1: no value for %s in \"%.200s\"", key, reply);
        return RD_EBOOT;
    }
    return RD_OK;
}

static int pmi1_init(rd_boot_info_t *info)
{
    char reply[RD_PMIW_MSG_MAX], map[RD_PMIW_MSG_MAX];
    long v;
    int st = RD_EBOOT;

    pmi.rank = rd_pmiw.rank >= 0 ? rd_pmiw.rank : (int)rd_pmiw_env_long("PMI_RANK", 0);
    pmi.size = rd_pmiw.size >= 0 ? rd_pmiw.size : (int)rd_pmiw_env_long("PMI_SIZE", 1);
    pmi.kvs = (rd_pmiw_kvs_t){ .proto = "PMI-1", .put = put_text, .get = get_text };
    if (request("cmd=get_maxes\n", "maxes", reply) != RD_OK ||
        number(reply, "keylen_max", &v) != RD_OK)
        goto err;
    pmi.kvs.keylen_max = (int)v;
    if (number(reply, "vallen_max", &v) != RD_OK)
        goto err;
    pmi.kvs.vallen_max = (int)v;
    if (pmi.kvs.vallen_max < 64 || pmi.kvs.keylen_max < 16) {
        rd_err_detail("PMI-1: the process manager's limits (keys %d, values %d characters) "
                      "are too small", pmi.kvs.keylen_max, pmi.kvs.vallen_max);
        goto err;
    }
    if (request("cmd=get_my_kvsname\n", "my_kvsname", reply) != RD_OK ||
        rd_pmiw_field(reply, ' ', "kvsname", pmi.kvsname, sizeof(pmi.kvsname)) != RD_OK) {
        rd_err_detail("PMI-1: no kvsname in \"%.200s\"", reply);
        goto err;
    }
    info->appnum = request("cmd=get_appnum\n", "appnum", reply) == RD_OK &&
                   number(reply, "appnum", &v) == RD_OK ? (int)v : 0;
    info->universe_size = request("cmd=get_universe_size\n", "universe_size", reply) == RD_OK &&
                          number(reply, "size", &v) == RD_OK && v > 0 ? (int)v : 0;
    rd_err_detail_clear();  /* appnum and universe size are optional */
    if (pmi.size < 1 || pmi.rank < 0 || pmi.rank >= pmi.size) {
        rd_err_detail("PMI-1: rank %d of %d is not a rank of the job", pmi.rank, pmi.size);
        goto err;
    }
    info->rank = pmi.rank;
    info->size = pmi.size;
    if (info->universe_size < info->size)
        info->universe_size = info->size;

    snprintf(reply, sizeof(reply), "cmd=get kvsname=%s key=PMI_process_mapping\n", pmi.kvsname);
    int mapped = request(reply, "get_result", reply) == RD_OK &&
                 rd_pmiw_field(reply, ' ', "value", map, sizeof(map)) == RD_OK;
    rd_err_detail_clear();
    if ((st = rd_pmiw_set_nodes(info, mapped ? map : NULL, &rd_boot_pmi1_ops)) != RD_OK)
        goto err;
    rd_boot_set_job_id(info, pmi.kvsname);
    return RD_OK;

err:
    rd_pmiw_close();
    return st;
}

static int pmi1_put(const char *key, const void *val, size_t len)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = rd_pmiw_put_bytes(&pmi.kvs, pmi.rank, key, val, len);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int pmi1_fence(void)
{
    char reply[RD_PMIW_MSG_MAX];
    pthread_mutex_lock(&pmi.lock);
    int rc = request("cmd=barrier_in\n", "barrier_out", reply);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int pmi1_get(int rank, const char *key, void *buf, size_t *len)
{
    if (rank >= pmi.size)
        return RD_EINVAL;
    pthread_mutex_lock(&pmi.lock);
    int rc = rd_pmiw_get_bytes(&pmi.kvs, rank, key, buf, len);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

/* Not under the lock: abort may come from a thread that holds it. */
static void pmi1_abort(int code, const char *msg)
{
    char req[64];
    (void)msg;      /* the caller printed it; PMI-1's abort carries no text */
    snprintf(req, sizeof(req), "cmd=abort exitcode=%d\n", code);
    if (rd_pmiw.fd >= 0)
        (void)rd_pmiw_write(req, strlen(req));
}

static int pmi1_finalize(void)
{
    char reply[RD_PMIW_MSG_MAX];
    pthread_mutex_lock(&pmi.lock);
    int st = request("cmd=finalize\n", "finalize_ack", reply);
    rd_pmiw_close();
    pthread_mutex_unlock(&pmi.lock);
    return st;
}

const rd_boot_ops_t rd_boot_pmi1_ops = {
    .name = "PMI-1",
    .init = pmi1_init,
    .put = pmi1_put,
    .fence = pmi1_fence,
    .get = pmi1_get,
    .abort = pmi1_abort,
    .finalize = pmi1_finalize,
};
