/*
 * The connection to a simple-PMI process manager and what the PMI-1 and
 * PMI-2 back ends share (see boot_pmi_wire.h).
 */
#include "boot/boot_pmi_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/errdetail.h"
#include "util/status.h"

rd_pmiw_t rd_pmiw = { .fd = -1, .rank = -1, .size = -1 };

int rd_pmiw_write(const char *s, size_t len)
{
    while (len > 0) {
        ssize_t n = write(rd_pmiw.fd, s, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rd_err_detail_sys(errno, "PMI: write to the process manager (fd %d)", rd_pmiw.fd);
            return RD_EBOOT;
        }
        s += n;
        len -= (size_t)n;
    }
    return RD_OK;
}

/* Reads more bytes into the buffer. */
static int fill(void)
{
    for (;;) {
        ssize_t n = read(rd_pmiw.fd, rd_pmiw.in + rd_pmiw.in_len,
                         sizeof(rd_pmiw.in) - rd_pmiw.in_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rd_err_detail_sys(errno, "PMI: read from the process manager (fd %d)", rd_pmiw.fd);
            return RD_EBOOT;
        }
        if (n == 0) {
            rd_err_detail("PMI: the process manager closed the connection (fd %d)", rd_pmiw.fd);
            return RD_EBOOT;
        }
        rd_pmiw.in_len += (size_t)n;
        return RD_OK;
    }
}

static void consume(char *out, size_t n, size_t skip)
{
    memcpy(out, rd_pmiw.in, n);
    out[n] = '\0';
    rd_pmiw.in_len -= n + skip;
    memmove(rd_pmiw.in, rd_pmiw.in + n + skip, rd_pmiw.in_len);
}

int rd_pmiw_read_line(char *line)
{
    int st;
    for (;;) {
        char *nl = memchr(rd_pmiw.in, '\n', rd_pmiw.in_len);
        if (nl) {
            consume(line, (size_t)(nl - rd_pmiw.in), 1);
            return RD_OK;
        }
        if (rd_pmiw.in_len == sizeof(rd_pmiw.in)) {
            rd_err_detail("PMI: a line from the process manager is longer than %d bytes",
                          RD_PMIW_MSG_MAX);
            return RD_EBOOT;
        }
        if ((st = fill()) != RD_OK)
            return st;
    }
}

int rd_pmiw_read_n(char *buf, size_t n)
{
    int st;
    if (n >= RD_PMIW_MSG_MAX) {
        rd_err_detail("PMI: a message of %zu bytes from the process manager is longer than %d",
                      n, RD_PMIW_MSG_MAX - 1);
        return RD_EBOOT;
    }
    while (rd_pmiw.in_len < n)
        if ((st = fill()) != RD_OK)
            return st;
    consume(buf, n, 0);
    return RD_OK;
}

int rd_pmiw_field(const char *msg, char sep, const char *key, char *val, size_t cap)
{
    size_t klen = strlen(key);
    const char *p = msg;

    while (*p) {
        while (*p == sep)
            p++;
        const char *end = strchr(p, sep);
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

int rd_pmiw_number(const char *msg, char sep, const char *key, long *out, const char *proto)
{
    char val[32], *end;
    if (rd_pmiw_field(msg, sep, key, val, sizeof(val)) == RD_OK) {
        *out = strtol(val, &end, 10);
        if (end != val && *end == '\0')
            return RD_OK;
    }
    rd_err_detail("%s: no integer %s in \"%.200s\"", proto, key, msg);
    return RD_EBOOT;
}

long rd_pmiw_env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    char *end;
    long v;
    if (!s)
        return dflt;
    v = strtol(s, &end, 10);
    return end == s || *end != '\0' ? dflt : v;
}

/* Connects to PMI_PORT=host:port. With PMI_ID and initack set, PMI-1's
 * handshake follows: the server tells our rank and size. */
static int connect_port(const char *hostport, int initack)
{
    char host[256], line[RD_PMIW_MSG_MAX], req[64];
    const char *colon = strrchr(hostport, ':');
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
    long v;
    int st;

    if (!colon || (size_t)(colon - hostport) >= sizeof(host)) {
        rd_err_detail("PMI: PMI_PORT=%s is not host:port", hostport);
        return RD_EBOOT;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    if ((st = getaddrinfo(host, colon + 1, &hints, &res)) != 0) {
        rd_err_detail("PMI: PMI_PORT=%s: %s", hostport, gai_strerror(st));
        return RD_EBOOT;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        rd_pmiw.fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (rd_pmiw.fd >= 0 && connect(rd_pmiw.fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        if (rd_pmiw.fd >= 0)
            close(rd_pmiw.fd);
        rd_pmiw.fd = -1;
    }
    freeaddrinfo(res);
    if (rd_pmiw.fd < 0) {
        rd_err_detail_sys(errno, "PMI: connect to PMI_PORT=%s", hostport);
        return RD_EBOOT;
    }
    if (!initack || !getenv("PMI_ID"))
        return RD_OK;
    snprintf(req, sizeof(req), "cmd=initack pmiid=%ld\n", rd_pmiw_env_long("PMI_ID", 0));
    if ((st = rd_pmiw_write(req, strlen(req))) != RD_OK || (st = rd_pmiw_read_line(line)) != RD_OK)
        return st;
    if (rd_pmiw_field(line, ' ', "cmd", req, sizeof(req)) != RD_OK || strcmp(req, "initack")) {
        rd_err_detail("PMI-1: sent initack, got \"%.200s\"", line);
        return RD_EBOOT;
    }
    for (int i = 0; i < 3; i++) {   /* cmd=set size=, rank=, debug= in this order */
        if ((st = rd_pmiw_read_line(line)) != RD_OK)
            return st;
        if (rd_pmiw_field(line, ' ', "size", req, sizeof(req)) == RD_OK &&
            rd_pmiw_number(line, ' ', "size", &v, "PMI-1") == RD_OK)
            rd_pmiw.size = (int)v;
        else if (rd_pmiw_field(line, ' ', "rank", req, sizeof(req)) == RD_OK &&
                 rd_pmiw_number(line, ' ', "rank", &v, "PMI-1") == RD_OK)
            rd_pmiw.rank = (int)v;
    }
    return RD_OK;
}

static int open_conn(int initack)
{
    const char *fd = getenv("PMI_FD");

    rd_pmiw.in_len = 0;
    if (!fd)
        return connect_port(getenv("PMI_PORT"), initack);
    rd_pmiw.fd = (int)rd_pmiw_env_long("PMI_FD", -1);
    if (rd_pmiw.fd < 0 || fcntl(rd_pmiw.fd, F_SETFD, FD_CLOEXEC) != 0) {
        rd_err_detail("PMI: PMI_FD=%s is not an open file descriptor", fd);
        rd_pmiw.fd = -1;
        return RD_EBOOT;
    }
    return RD_OK;
}

/* Sends an init line; *rc and *version come from the answer. */
static int init_exchange(int version, int subversion, long *rc, long *server_version,
                         char *reply)
{
    char req[64], cmd[32];
    int st;

    snprintf(req, sizeof(req), "cmd=init pmi_version=%d pmi_subversion=%d\n", version,
             subversion);
    if ((st = rd_pmiw_write(req, strlen(req))) != RD_OK || (st = rd_pmiw_read_line(reply)) != RD_OK)
        return st;
    if (rd_pmiw_field(reply, ' ', "cmd", cmd, sizeof(cmd)) != RD_OK ||
        strcmp(cmd, "response_to_init") != 0) {
        rd_err_detail("PMI: sent init for version %d.%d, got \"%.200s\"", version, subversion,
                      reply);
        return RD_EBOOT;
    }
    if (rd_pmiw_number(reply, ' ', "rc", rc, "PMI") != RD_OK)
        *rc = 0;    /* some servers leave rc out when they agree */
    if (rd_pmiw_number(reply, ' ', "pmi_version", server_version, "PMI") != RD_OK)
        *server_version = version;
    rd_err_detail_clear();
    return RD_OK;
}

int rd_pmiw_connect(int want)
{
    char reply[RD_PMIW_MSG_MAX];
    long rc, v;
    int st;

    rd_pmiw.rank = rd_pmiw.size = -1;
    if ((st = open_conn(want == RD_PMIW_ONLY1)) != RD_OK)
        goto err;
    if (want != RD_PMIW_ONLY1) {
        if ((st = init_exchange(2, 0, &rc, &v, reply)) != RD_OK)
            goto err;
        if (rc == 0 && v == 2) {
            rd_pmiw.version = 2;
            return RD_OK;
        }
        if (want == RD_PMIW_ONLY2) {
            rd_err_detail("PMI: the process manager does not offer PMI-2 (RDMPI_PMI=2): it "
                          "answered \"%.200s\"", reply);
            st = RD_EBOOT;
            goto err;
        }
        if (rc == 0 && v == 1 && getenv("PMI_FD")) {
            rd_pmiw.version = 1;    /* it took our init as PMI-1's */
            return RD_OK;
        }
        /* Ask again for PMI-1: on the same descriptor, or on a new
         * connection that starts with PMI-1's initack. */
        if (!getenv("PMI_FD")) {
            rd_pmiw_close();
            if ((st = open_conn(1)) != RD_OK)
                goto err;
        }
    }
    if ((st = init_exchange(1, 1, &rc, &v, reply)) != RD_OK)
        goto err;
    if (rc != 0) {
        rd_err_detail("PMI: the process manager refused versions 2.0 and 1.1: \"%.200s\"", reply);
        st = RD_EBOOT;
        goto err;
    }
    rd_pmiw.version = 1;
    return RD_OK;

err:
    rd_pmiw_close();
    return st;
}

void rd_pmiw_close(void)
{
    if (rd_pmiw.fd >= 0)
        close(rd_pmiw.fd);
    rd_pmiw.fd = -1;
    rd_pmiw.in_len = 0;
}

/* Parses "(vector,(n0,count,ppn),...)" into node[rank]: each triple gives
 * ppn consecutive ranks to each of count nodes from n0 on, and the triples
 * repeat until every rank has a node. Returns 0, or -1 if malformed. */
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

/* node[rank] from the host names every rank publishes. */
static int nodes_by_hostname(const rd_boot_info_t *info, const rd_boot_ops_t *ops, int *node)
{
    char host[256];
    int st;

    if ((st = ops->put("rdmpi-host", info->hostname, strlen(info->hostname) + 1)) != RD_OK ||
        (st = ops->fence()) != RD_OK)
        return st;
    char (*hosts)[256] = malloc((size_t)info->size * sizeof(*hosts));
    if (!hosts)
        return RD_ENOMEM;
    for (int r = 0; r < info->size; r++) {
        size_t len = sizeof(host);
        if ((st = ops->get(r, "rdmpi-host", host, &len)) != RD_OK) {
            free(hosts);
            if (st != RD_EBOOT)
                rd_err_detail("%s: no host name from rank %d", ops->name, r);
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

int rd_pmiw_set_nodes(rd_boot_info_t *info, const char *mapping, const rd_boot_ops_t *ops)
{
    int st = RD_OK, *node = malloc((size_t)info->size * sizeof(*node));

    if (!node)
        return RD_ENOMEM;
    if ((!mapping || parse_mapping(mapping, info->size, node) != 0) &&
        (st = nodes_by_hostname(info, ops, node)) != RD_OK)
        goto out;
    info->node_id = node[info->rank];
    info->local_size = 0;
    for (int r = 0; r < info->size; r++)
        if (node[r] == info->node_id)
            info->local_size++;
    info->local_ranks = malloc((size_t)info->local_size * sizeof(int));
    if (!info->local_ranks) {
        st = RD_ENOMEM;
        goto out;
    }
    info->local_size = 0;
    for (int r = 0; r < info->size; r++) {
        if (node[r] != info->node_id)
            continue;
        if (r == info->rank)
            info->local_rank = info->local_size;
        info->local_ranks[info->local_size++] = r;
    }
out:
    free(node);
    return st;
}

/* "k@r" or "k@r#i", or RD_EINVAL when it would exceed the server's key length. */
static int chunk_key(const rd_pmiw_kvs_t *kvs, char *out, size_t cap, const char *key, int rank,
                     int chunk)
{
    int n = chunk ? snprintf(out, cap, "%s@%d#%d", key, rank, chunk)
                  : snprintf(out, cap, "%s@%d", key, rank);
    if (n < 0 || (size_t)n >= cap || n >= kvs->keylen_max || strpbrk(key, " =;\n")) {
        rd_err_detail("%s: key %s of rank %d does not fit the process manager's %d characters",
                      kvs->proto, key, rank, kvs->keylen_max);
        return RD_EINVAL;
    }
    return RD_OK;
}

/* Bytes one value holds, leaving room for the "<len>:" header. */
static size_t chunk_bytes(const rd_pmiw_kvs_t *kvs)
{
    size_t n = (size_t)kvs->vallen_max - 1 - 24;
    if (n > RD_PMIW_MSG_MAX / 2)
        n = RD_PMIW_MSG_MAX / 2;
    return n / 2;
}

int rd_pmiw_put_bytes(const rd_pmiw_kvs_t *kvs, int rank, const char *key, const void *val,
                      size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *b = val;
    char text[RD_PMIW_MSG_MAX], k[128];
    size_t per = chunk_bytes(kvs), off = 0;
    int st;

    for (int chunk = 0; chunk == 0 || off < len; chunk++) {
        size_t n = len - off < per ? len - off : per;
        int h = 0;
        if ((st = chunk_key(kvs, k, sizeof(k), key, rank, chunk)) != RD_OK)
            return st;
        if (chunk == 0)
            h = snprintf(text, sizeof(text), "%zu:", len);
        for (size_t i = 0; i < n; i++) {
            text[h++] = hex[b[off + i] >> 4];
            text[h++] = hex[b[off + i] & 15];
        }
        text[h] = '\0';
        off += n;
        if ((st = kvs->put(k, text)) != RD_OK)
            return st;
    }
    return RD_OK;
}

static int unhex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int rd_pmiw_get_bytes(const rd_pmiw_kvs_t *kvs, int rank, const char *key, void *buf,
                      size_t *len)
{
    char k[128], text[RD_PMIW_MSG_MAX];
    unsigned char *b = buf;
    size_t total, off = 0, cap = *len;
    char *p, *end;
    int st;

    if ((st = chunk_key(kvs, k, sizeof(k), key, rank, 0)) != RD_OK ||
        (st = kvs->get(k, text, sizeof(text))) != RD_OK)
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
        if ((st = chunk_key(kvs, k, sizeof(k), key, rank, chunk)) != RD_OK)
            return st;
        if ((st = kvs->get(k, text, sizeof(text))) != RD_OK) {
            if (st == RD_EINVAL)
                rd_err_detail("%s: %s is missing", kvs->proto, k);
            return RD_EBOOT;
        }
        p = text;
    }
bad:
    rd_err_detail("%s: value of %s@%d is malformed", kvs->proto, key, rank);
    return RD_EBOOT;
}
