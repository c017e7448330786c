/* Messages between the head mpirun and its host daemons (see wire.h). */
#include "wire.h"

#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

/* First allocation of a receive buffer. */
#define RD_MPIRUN_WIRE_RBUF 65536

void rd_mpirun_conn_set_send_timeout(rd_mpirun_conn_t *c, long long ms)
{
    struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

void rd_mpirun_conn_init(rd_mpirun_conn_t *c, int fd, long long now_ms, long long send_timeout_ms)
{
    int one = 1;

    memset(c, 0, sizeof(*c));
    c->fd = fd;
    c->last_rx = now_ms;
    rd_mpirun_conn_set_send_timeout(c, send_timeout_ms);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

void rd_mpirun_conn_close(rd_mpirun_conn_t *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    free(c->buf);
    c->buf = NULL;
    c->len = c->cap = c->used = 0;
}

int rd_mpirun_conn_send(rd_mpirun_conn_t *c, rd_mpirun_msg_t type, uint32_t arg,
                        const void *payload, size_t len)
{
    rd_mpirun_wire_hdr_t h = {
        .magic = htole32(RD_MPIRUN_WIRE_MAGIC),
        .version = htole16(RD_MPIRUN_WIRE_VERSION),
        .type = htole16((uint16_t)type),
        .arg = htole32(arg),
        .len = htole32((uint32_t)len),
    };
    struct iovec iov[2] = { { &h, sizeof(h) }, { (void *)payload, len } };
    struct msghdr m = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };

    if (c->fd < 0 || len > RD_MPIRUN_WIRE_MAX)
        return -1;
    while (m.msg_iovlen > 0) {
        ssize_t w = sendmsg(c->fd, &m, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;          /* EAGAIN here is the send timeout */
        while (m.msg_iovlen > 0 && (size_t)w >= m.msg_iov[0].iov_len) {
            w -= (ssize_t)m.msg_iov[0].iov_len;
            m.msg_iov++;
            m.msg_iovlen--;
        }
        if (m.msg_iovlen > 0) {
            m.msg_iov[0].iov_base = (char *)m.msg_iov[0].iov_base + w;
            m.msg_iov[0].iov_len -= (size_t)w;
        }
    }
    return 0;
}

int rd_mpirun_conn_read(rd_mpirun_conn_t *c, long long now_ms)
{
    /* Drop what the last next() handed out before reading more. */
    if (c->used) {
        memmove(c->buf, c->buf + c->used, c->len - c->used);
        c->len -= c->used;
        c->used = 0;
    }
    for (;;) {
        /* Without a limit the buffer grows as messages come; a malformed
         * or too long one is refused by next(). */
        size_t max = c->limit ? c->limit : SIZE_MAX;
        if (c->len >= max) {
            errno = EMSGSIZE;
            return -1;
        }
        if (c->cap - c->len < RD_MPIRUN_WIRE_RBUF / 4 && c->cap < max) {
            size_t ncap = c->cap ? 2 * c->cap : RD_MPIRUN_WIRE_RBUF;
            if (ncap > max)
                ncap = max;
            char *nb = realloc(c->buf, ncap);
            if (!nb) {
                errno = ENOMEM;
                return -1;
            }
            c->buf = nb;
            c->cap = ncap;
        }
        ssize_t r = recv(c->fd, c->buf + c->len, c->cap - c->len, MSG_DONTWAIT);
        if (r > 0) {
            c->len += (size_t)r;
            c->last_rx = now_ms;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (r == 0)
            errno = 0;
        return -1;
    }
}

int rd_mpirun_conn_next(rd_mpirun_conn_t *c, rd_mpirun_wire_hdr_t *hdr, const char **payload)
{
    rd_mpirun_wire_hdr_t h;

    if (c->used) {
        memmove(c->buf, c->buf + c->used, c->len - c->used);
        c->len -= c->used;
        c->used = 0;
    }
    if (c->len < sizeof(h))
        return 0;
    memcpy(&h, c->buf, sizeof(h));
    h.magic = le32toh(h.magic);
    h.version = le16toh(h.version);
    h.type = le16toh(h.type);
    h.arg = le32toh(h.arg);
    h.len = le32toh(h.len);
    if (h.magic != RD_MPIRUN_WIRE_MAGIC || h.version != RD_MPIRUN_WIRE_VERSION ||
        h.len > RD_MPIRUN_WIRE_MAX || (c->limit && h.len > c->limit - sizeof(h)))
        return -1;
    if (c->len - sizeof(h) < h.len)
        return 0;
    *hdr = h;
    *payload = c->buf + sizeof(h);
    c->used = sizeof(h) + h.len;
    return 1;
}

static void pack_grow(rd_mpirun_pack_t *p, size_t n)
{
    if (p->err || p->cap - p->len >= n)
        return;
    size_t ncap = p->cap ? p->cap : 256;
    while (ncap - p->len < n)
        ncap *= 2;
    char *nb = realloc(p->buf, ncap);
    if (!nb) {
        p->err = 1;
        return;
    }
    p->buf = nb;
    p->cap = ncap;
}

void rd_mpirun_pack_bytes(rd_mpirun_pack_t *p, const void *b, size_t n)
{
    pack_grow(p, n);
    if (p->err || n == 0)
        return;
    memcpy(p->buf + p->len, b, n);
    p->len += n;
}

void rd_mpirun_pack_u32(rd_mpirun_pack_t *p, uint32_t v)
{
    uint32_t le = htole32(v);
    rd_mpirun_pack_bytes(p, &le, sizeof(le));
}

void rd_mpirun_pack_str(rd_mpirun_pack_t *p, const char *s)
{
    size_t n = strlen(s);
    rd_mpirun_pack_u32(p, (uint32_t)n);
    rd_mpirun_pack_bytes(p, s, n + 1);
}

uint32_t rd_mpirun_unpack_u32(rd_mpirun_unpack_t *u)
{
    uint32_t v;

    if (u->err || u->left < sizeof(v)) {
        u->err = 1;
        return 0;
    }
    memcpy(&v, u->p, sizeof(v));
    u->p += sizeof(v);
    u->left -= sizeof(v);
    return le32toh(v);
}

const char *rd_mpirun_unpack_str(rd_mpirun_unpack_t *u)
{
    uint32_t n = rd_mpirun_unpack_u32(u);
    const char *s = u->p;

    if (u->err || u->left < (size_t)n + 1 || s[n] != '\0' || memchr(s, '\0', n)) {
        u->err = 1;
        return NULL;
    }
    u->p += n + 1;
    u->left -= (size_t)n + 1;
    return s;
}
