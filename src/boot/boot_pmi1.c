/*
 * Bootstrap back end speaking the PMI-1 simple wire protocol (see
 * boot_backend.h), the one MPICH's Hydra (mpiexec.hydra, mpirun.mpich)
 * offers its ranks, so that Hydra starts real rdmpi jobs.
 *
 * The process manager hands us a connected socket in PMI_FD (or a host:port
 * in PMI_PORT, with our id in PMI_ID). Every request and reply is one line
 * of space-separated key=value pairs, "cmd=<name>" first:
 *
 *   -> cmd=init pmi_version=1 pmi_subversion=1
 *   <- cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
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
 * length. So rank r's value for key k is stored hex-encoded as "<len>:<hex>"
 * under "k@r", and a value longer than one PMI value continues under
 * "k@r#1", "k@r#2", ...
 *
 * Which ranks share a node comes from Hydra's PMI_process_mapping
 * ("(vector,(node,nodes,ranks-per-node),...)", MPICH's format); without it
 * every rank publishes its host name and the ranks of one host are a node.
 */
#include "boot/boot_backend.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/errdetail.h"
#include "util/status.h"

#define PMI1_LINE_MAX 4096      /* longest line we send or accept */

static struct {
    int fd;
    char kvsname[256];
    int keylen_max;
    int vallen_max;
    int rank;
    int size;
    char in[PMI1_LINE_MAX];     /* bytes read but not consumed yet */
    size_t in_len;
    /* One request and its reply at a time: transports read peers' addresses
     * lazily, from any thread under MPI_THREAD_MULTIPLE. */
    pthread_mutex_t lock;
} pmi = { .fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER };

static int write_all(const char *s, size_t len)
{
    while (len > 0) {
        ssize_t n = write(pmi.fd, s, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rd_err_detail_sys(errno, "PMI-1: write to the process manager (fd %d)", pmi.fd);
            return RD_EBOOT;
        }
        s += n;
        len -= (size_t)n;
    }
    return RD_OK;
}

/* Reads one line (without its '\n') into line[PMI1_LINE_MAX]. */
static int read_line(char *line)
{
    for (;;) {
        char *nl = memchr(pmi.in, '\n', pmi.in_len);
        if (nl) {
            size_t n = (size_t)(nl - pmi.in);
            memcpy(line, pmi.in, n);
            line[n] = '\0';
            pmi.in_len -= n + 1;
            memmove(pmi.in, nl + 1, pmi.in_len);
            return RD_OK;
        }
        if (pmi.in_len == sizeof(pmi.in)) {
            rd_err_detail("PMI-1: a line from the process manager is longer than %d bytes",
                          PMI1_LINE_MAX);
            return RD_EBOOT;
        }
        ssize_t n = read(pmi.fd, pmi.in + pmi.in_len, sizeof(pmi.in) - pmi.in_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rd_err_detail_sys(errno, "PMI-1: read from the process manager (fd %d)", pmi.fd);
            return RD_EBOOT;
        }
        if (n == 0) {
            rd_err_detail("PMI-1: the process manager closed the connection (fd %d)", pmi.fd);
            return RD_EBOOT;
        }
        pmi.in_len += (size_t)n;
    }
}

/* Finds key's value in a reply line; copies it to val[cap]. */
static int field(const char *line, const char *key, char *val, size_t cap)
{
    size_t klen = strlen(key);
    const char *p = line;

    while (*p) {
        while (*p == ' ')
            p++;
        const char *end = strchr(p, ' ');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            n -= klen + 1;
            if (n >= cap)
                return RD_ENOMEM;
            memcpy(val, p + klen + 1, n);
            val[n] = '\0';
            return RD_OK;
        }
        p += n;
    }
    return RD_EINVAL;
}

/* Sends a request line and reads the reply, which must be cmd=<expect>.
 * Returns RD_EINVAL when the reply carries an rc other than 0 (get's "key
 * not found"), RD_EBOOT when the exchange itself fails. */
static int request(const char *req, const char *expect, char *reply)
{
    char cmd[64], rc[16];
    int st;

    if ((st = write_all(req, strlen(req))) != RD_OK || (st = read_line(reply)) != RD_OK)
        return st;
    if (field(reply, "cmd", cmd, sizeof(cmd)) != RD_OK || strcmp(cmd, expect) != 0) {
        rd_err_detail("PMI-1: sent %.*s, expected cmd=%s, got \"%.200s\"",
                      (int)strcspn(req, "\n"), req, expect, reply);
        return RD_EBOOT;
    }
    if (field(reply, "rc", rc, sizeof(rc)) == RD_OK && strcmp(rc, "0") != 0)
        return RD_EINVAL;
    return RD_OK;
}

static int number(const char *reply, const char *key, long *out)
{
    char val[32], *end;
    if (field(reply, key, val, sizeof(val)) != RD_OK)
        goto bad;
    *out = strtol(val, &end, 10);
    if (end == val || *end != '\0')
        goto bad;
    return RD_OK;
bad:
    rd_err_detail("PMI-1: no integer %s in \"%.200s\"", key, reply);
    return RD_EBOOT;
}

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    char *end;
    long v;
    if (!s)
        return dflt;
    v = strtol(s, &end, 10);
    return end == s || *end != '\0' ? dflt : v;
}

/* PMI_PORT=host:port: connect, then (with PMI_ID) learn rank and size from
 * the initack handshake instead of the environment. */
static int connect_port(const char *hostport)
{
    char host[256], reply[PMI1_LINE_MAX], req[64];
    const char *colon = strrchr(hostport, ':');
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
    long v;
    int st;

    if (!colon || (size_t)(colon - hostport) >= sizeof(host)) {
        rd_err_detail("PMI-1: PMI_PORT=%s is not host:port", hostport);
        return RD_EBOOT;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    if ((st = getaddrinfo(host, colon + 1, &hints, &res)) != 0) {
        rd_err_detail("PMI-1: PMI_PORT=%s: %s", hostport, gai_strerror(st));
        return RD_EBOOT;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        pmi.fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (pmi.fd >= 0 && connect(pmi.fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        if (pmi.fd >= 0)
            close(pmi.fd);
        pmi.fd = -1;
    }
    freeaddrinfo(res);
    if (pmi.fd < 0) {
        rd_err_detail_sys(errno, "PMI-1: connect to PMI_PORT=%s", hostport);
        return RD_EBOOT;
    }
    if (!getenv("PMI_ID"))
        return RD_OK;
    snprintf(req, sizeof(req), "cmd=initack pmiid=%ld\n", env_long("PMI_ID", 0));
    if ((st = request(req, "initack", reply)) != RD_OK)
        return st;
    for (int i = 0; i < 3; i++) {   /* cmd=set size=, rank=, debug= in this order */
        if ((st = read_line(reply)) != RD_OK)
            return st;
        if (field(reply, "size", req, sizeof(req)) == RD_OK && number(reply, "size", &v) == RD_OK)
            pmi.size = (int)v;
        else if (field(reply, "rank", req, sizeof(req)) == RD_OK &&
                 number(reply, "rank", &v) == RD_OK)
            pmi.rank = (int)v;
    }
    return RD_OK;
}

/* Parses MPICH's "(vector,(n0,count,ppn),...)" into node[rank]: each triple
 * gives ppn consecutive ranks to each of count nodes from n0 on, and the
 * triples repeat until every rank has a node. Returns 0, or -1 if malformed. */
static int parse_mapping(const char *s, int size, int *node)
{
    int nb = 0, blk[64][3], rank = 0;
    const char *p = s;

    if (strncmp(p, "(vector,", 8) != 0)
        return -1;
    p += 8;
    while (*p == '(' && nb < 64) {
        if (sscanf(p, "(%d,%d,%d)", &blk[nb][0], &blk[nb][1], &blk[nb][2]) != 3 ||
            blk[nb][0] < 0 || blk[nb][1] < 1 || blk[nb][2] < 1)
            return -1;
        nb++;
        p = strchr(p, ')');
        if (!p)
            return -1;
        p++;
        if (*p == ',')
            p++;
    }
    if (nb == 0 || *p != ')')
        return -1;
    while (rank < size)
        for (int b = 0; b < nb && rank < size; b++)
            for (int n = 0; n < blk[b][1] && rank < size; n++)
                for (int k = 0; k < blk[b][2] && rank < size; k++)
                    node[rank++] = blk[b][0] + n;
    return 0;
}

static int pmi1_put(const char *key, const void *val, size_t len);
static int pmi1_fence(void);
static int pmi1_get(int rank, const char *key, void *buf, size_t *len);

/* node[rank] from the host names every rank publishes: the lowest rank on
 * a host names its node. */
static int nodes_by_hostname(const rd_boot_info_t *info, int *node)
{
    char host[256];
    int st;

    if ((st = pmi1_put("rdmpi-host", info->hostname, strlen(info->hostname) + 1)) != RD_OK ||
        (st = pmi1_fence()) != RD_OK)
        return st;
    char (*hosts)[256] = malloc((size_t)info->size * sizeof(*hosts));
    if (!hosts)
        return RD_ENOMEM;
    for (int r = 0; r < info->size; r++) {
        size_t len = sizeof(host);
        if ((st = pmi1_get(r, "rdmpi-host", host, &len)) != RD_OK) {
            free(hosts);
            if (st != RD_EBOOT)
                rd_err_detail("PMI-1: no host name from rank %d", r);
            return RD_EBOOT;
        }
        host[sizeof(host) - 1] = '\0';
        strcpy(hosts[r], host);
        node[r] = r;
        for (int q = 0; q < r; q++)
            if (strcmp(hosts[q], host) == 0) {
                node[r] = node[q];
                break;
            }
    }
    free(hosts);
    return RD_OK;
}

static int pmi1_init(rd_boot_info_t *info)
{
    char reply[PMI1_LINE_MAX], map[PMI1_LINE_MAX];
    const char *fd = getenv("PMI_FD");
    long v;
    int st = RD_EBOOT, *node = NULL;

    pmi.rank = (int)env_long("PMI_RANK", 0);
    pmi.size = (int)env_long("PMI_SIZE", 1);
    pmi.in_len = 0;
    if (fd) {
        pmi.fd = (int)env_long("PMI_FD", -1);
        if (pmi.fd < 0 || fcntl(pmi.fd, F_SETFD, FD_CLOEXEC) != 0) {
            rd_err_detail("PMI-1: PMI_FD=%s is not an open file descriptor", fd);
            pmi.fd = -1;
            return RD_EBOOT;
        }
    } else if ((st = connect_port(getenv("PMI_PORT"))) != RD_OK) {
        goto err;
    }
    st = RD_EBOOT;
    if ((st = request("cmd=init pmi_version=1 pmi_subversion=1\n", "response_to_init", reply)) != RD_OK) {
        if (st == RD_EINVAL)
            rd_err_detail("PMI-1: the process manager refused version 1.1: \"%.200s\"", reply);
        st = RD_EBOOT;
        goto err;
    }
    if (request("cmd=get_maxes\n", "maxes", reply) != RD_OK ||
        number(reply, "keylen_max", &v) != RD_OK)
        goto err;
    pmi.keylen_max = (int)v;
    if (number(reply, "vallen_max", &v) != RD_OK)
        goto err;
    pmi.vallen_max = (int)v;
    if (pmi.vallen_max < 64 || pmi.keylen_max < 16) {
        rd_err_detail("PMI-1: the process manager's limits (keys %d, values %d characters) "
                      "are too small", pmi.keylen_max, pmi.vallen_max);
        goto err;
    }
    if (request("cmd=get_my_kvsname\n", "my_kvsname", reply) != RD_OK ||
        field(reply, "kvsname", pmi.kvsname, sizeof(pmi.kvsname)) != RD_OK) {
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

    node = malloc((size_t)info->size * sizeof(*node));
    if (!node) {
        st = RD_ENOMEM;
        goto err;
    }
    snprintf(reply, sizeof(reply), "cmd=get kvsname=%s key=PMI_process_mapping\n", pmi.kvsname);
    if (request(reply, "get_result", reply) != RD_OK ||
        field(reply, "value", map, sizeof(map)) != RD_OK ||
        parse_mapping(map, info->size, node) != 0) {
        rd_err_detail_clear();
        if ((st = nodes_by_hostname(info, node)) != RD_OK)
            goto err;
    }
    info->node_id = node[info->rank];
    for (int r = 0; r < info->size; r++)
        if (node[r] == info->node_id)
            info->local_size++;
    info->local_ranks = malloc((size_t)info->local_size * sizeof(int));
    if (!info->local_ranks) {
        st = RD_ENOMEM;
        goto err;
    }
    info->local_size = 0;
    for (int r = 0; r < info->size; r++) {
        if (node[r] != info->node_id)
            continue;
        if (r == info->rank)
            info->local_rank = info->local_size;
        info->local_ranks[info->local_size++] = r;
    }
    free(node);
    rd_boot_set_job_id(info, pmi.kvsname);
    return RD_OK;

err:
    free(node);
    if (pmi.fd >= 0)
        close(pmi.fd);
    pmi.fd = -1;
    return st;
}

/* "k@r" or "k@r#i", or RD_EINVAL when it would exceed the server's key length. */
static int pmi_key(char *out, size_t cap, const char *key, int rank, int chunk)
{
    int n = chunk ? snprintf(out, cap, "%s@%d#%d", key, rank, chunk)
                  : snprintf(out, cap, "%s@%d", key, rank);
    if (n < 0 || (size_t)n >= cap || n >= pmi.keylen_max || strpbrk(key, " =\n")) {
        rd_err_detail("PMI-1: key %s of rank %d does not fit the process manager's %d characters",
                      key, rank, pmi.keylen_max);
        return RD_EINVAL;
    }
    return RD_OK;
}

/* Hex digits one PMI value holds, leaving room for the "<len>:" header. */
static size_t chunk_chars(void)
{
    size_t n = (size_t)pmi.vallen_max - 1 - 24;
    if (n > PMI1_LINE_MAX / 2)
        n = PMI1_LINE_MAX / 2;
    return n & ~(size_t)1;
}

static int put_locked(const char *key, const void *val, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *b = val;
    char req[PMI1_LINE_MAX], reply[PMI1_LINE_MAX], k[128];
    size_t per = chunk_chars() / 2, off = 0;
    int st;

    for (int chunk = 0; chunk == 0 || off < len; chunk++) {
        size_t n = len - off < per ? len - off : per;
        if ((st = pmi_key(k, sizeof(k), key, pmi.rank, chunk)) != RD_OK)
            return st;
        int h = snprintf(req, sizeof(req), "cmd=put kvsname=%s key=%s value=", pmi.kvsname, k);
        if (chunk == 0)
            h += snprintf(req + h, sizeof(req) - (size_t)h, "%zu:", len);
        if ((size_t)h + 2 * n + 2 > sizeof(req))
            return RD_EINTERN;
        for (size_t i = 0; i < n; i++) {
            req[h++] = hex[b[off + i] >> 4];
            req[h++] = hex[b[off + i] & 15];
        }
        req[h++] = '\n';
        req[h] = '\0';
        off += n;
        if ((st = request(req, "put_result", reply)) != RD_OK) {
            if (st == RD_EINVAL)
                rd_err_detail("PMI-1: put of %s refused: \"%.200s\"", k, reply);
            return RD_EBOOT;
        }
    }
    return RD_OK;
}

static int fence_locked(void)
{
    char reply[PMI1_LINE_MAX];
    return request("cmd=barrier_in\n", "barrier_out", reply);
}

static int unhex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Reads one chunk's text (hex, after the header for chunk 0) into out. */
static int get_chunk(const char *k, char *out, size_t cap)
{
    char req[PMI1_LINE_MAX], reply[PMI1_LINE_MAX];
    int st;

    snprintf(req, sizeof(req), "cmd=get kvsname=%s key=%s\n", pmi.kvsname, k);
    if ((st = request(req, "get_result", reply)) != RD_OK)
        return st;      /* RD_EINVAL: no such key */
    if (field(reply, "value", out, cap) != RD_OK) {
        rd_err_detail("PMI-1: no value for %s in \"%.200s\"", k, reply);
        return RD_EBOOT;
    }
    return RD_OK;
}

static int get_locked(int rank, const char *key, void *buf, size_t *len)
{
    char k[128], text[PMI1_LINE_MAX];
    unsigned char *b = buf;
    size_t total, off = 0, cap = *len;
    char *p, *end;
    int st;

    if (rank >= pmi.size)
        return RD_EINVAL;
    if ((st = pmi_key(k, sizeof(k), key, rank, 0)) != RD_OK ||
        (st = get_chunk(k, text, sizeof(text))) != RD_OK)
        return st;
    total = strtoul(text, &end, 10);
    if (end == text || *end != ':')
        return RD_EINVAL;   /* somebody else's key, not one rd_boot_put wrote */
    *len = total;
    if (total > cap)
        return RD_ENOMEM;
    p = end + 1;
    for (int chunk = 1;; chunk++) {
        for (; p[0] && p[1] && off < total; p += 2) {
            int hi = unhex(p[0]), lo = unhex(p[1]);
            if (hi < 0 || lo < 0)
                goto bad;
            b[off++] = (unsigned char)(hi << 4 | lo);
        }
        if (off == total)
            return RD_OK;
        if (*p)
            goto bad;
        if ((st = pmi_key(k, sizeof(k), key, rank, chunk)) != RD_OK)
            return st;
        if ((st = get_chunk(k, text, sizeof(text))) != RD_OK) {
            if (st == RD_EINVAL)
                rd_err_detail("PMI-1: %s is missing", k);
            return RD_EBOOT;
        }
        p = text;
    }
bad:
    rd_err_detail("PMI-1: value of %s@%d is malformed", key, rank);
    return RD_EBOOT;
}

static int pmi1_put(const char *key, const void *val, size_t len)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = put_locked(key, val, len);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int pmi1_fence(void)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = fence_locked();
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

static int pmi1_get(int rank, const char *key, void *buf, size_t *len)
{
    pthread_mutex_lock(&pmi.lock);
    int rc = get_locked(rank, key, buf, len);
    pthread_mutex_unlock(&pmi.lock);
    return rc;
}

/* Not under the lock: abort may come from a thread that holds it. */
static void pmi1_abort(int code, const char *msg)
{
    char req[64];
    (void)msg;      /* the caller printed it; PMI-1's abort carries no text */
    snprintf(req, sizeof(req), "cmd=abort exitcode=%d\n", code);
    if (pmi.fd >= 0)
        (void)write_all(req, strlen(req));
}

static int pmi1_finalize(void)
{
    char reply[PMI1_LINE_MAX];
    pthread_mutex_lock(&pmi.lock);
    int st = request("cmd=finalize\n", "finalize_ack", reply);
    close(pmi.fd);
    pmi.fd = -1;
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
