/*
 * TCP receiving: reads a connection until its socket is empty and turns
 * the bytes into frames (tcp_parse.c) and upcalls. Each readable socket
 * is drained into its own parser state, so no socket waits behind another
 * and a full socket never deadlocks. A message whose payload is already
 * in the read buffer goes to p2p straight from there; one whose payload
 * is still on its way is offered to p2p (claim) as soon as its header is
 * in, and when a posted receive matches, the payload is read from the
 * socket directly into the user buffer. Which connection is read when is
 * progress's business (tcp_poll.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "transport/tcp/tcp_int.h"
#include "util/list.h"
#include "util/status.h"

/* The read buffer's share of a read after a big frame: a frame header and
 * the largest upper header. */
#define RD_TCP_PEEK (RD_TCP_FRAME_LEN + RD_TCP_HDR_MAX)
/* Reads from one socket per pass before the others get their turn. */
#define RD_TCP_READS_PER_PASS 8

/* A whole frame is in. Returns -1 if c was closed. */
static int on_frame(conn_t *c, const void *payload)
{
    const rd_tcp_parser_t *ps = &c->ps;
    if (c->state != C_UP)
        return rd_tcp_on_handshake(c);
    if (ps->type == RD_TCP_F_MSG) {
        if (c->claimed) {
            c->claimed = 0;
            rd_tcp.env.claimed(c->token, RD_OK);
        } else if (!rd_tcp.finalizing) {
            rd_tcp.env.recv(c->peer, rd_tcp_parser_hdr(ps), ps->hdrlen, payload, ps->len);
        }
        return c->state == C_CLOSED ? -1 : 0;
    }
    if (ps->type == RD_TCP_F_BYE) {
        rd_tcp.peers[c->peer].bye = 1;
        return 0;
    }
    rd_tcp_peer_lost(c, "protocol error");
    return -1;
}

/* A MSG header whose payload is not all in the read buffer: claim it for a
 * posted receive, or assemble it. Returns -1 if c was closed. */
static int payload_dst(conn_t *c)
{
    size_t len = c->ps.len;
    void *dst = NULL;
    if (rd_tcp.env.claim && !rd_tcp.finalizing) {
        dst = rd_tcp.env.claim(c->peer, rd_tcp_parser_hdr(&c->ps), c->ps.hdrlen, len, &c->token);
        c->claimed = dst != NULL;
    }
    if (!dst) {
        if (c->asm_cap < len) {
            void *b = realloc(c->asm_buf, len);
            if (!b) {
                rd_tcp_peer_lost(c, "out of memory");
                return -1;
            }
            c->asm_buf = b;
            c->asm_cap = len;
        }
        dst = c->asm_buf;
    }
    rd_tcp_parser_set_dst(&c->ps, dst);
    return 0;
}

/* Runs the parser over rx[0, n). Returns -1 if c was closed. */
static int parse_buf(conn_t *c, const unsigned char *rx, size_t n, int *events)
{
    size_t off = 0;
    while (off < n) {
        size_t used;
        int ev = rd_tcp_parse(&c->ps, rx + off, n - off, &used);
        off += used;
        switch (ev) {
        case RD_TCP_PARSE_MORE:
            break;
        case RD_TCP_PARSE_HEADER:
            if (c->state != C_UP) {
                rd_tcp_peer_lost(c, "protocol error");
                return -1;
            }
            if (n - off >= c->ps.len) {
                /* All there: p2p reads it from the buffer. */
                if (!rd_tcp.finalizing)
                    rd_tcp.env.recv(c->peer, rd_tcp_parser_hdr(&c->ps), c->ps.hdrlen, rx + off,
                                    c->ps.len);
                off += c->ps.len;
                rd_tcp_parser_skip(&c->ps);
                (*events)++;
                if (c->state == C_CLOSED)
                    return -1;   /* the upcall's send found the peer gone */
            } else if (payload_dst(c) != 0) {
                return -1;
            }
            break;
        case RD_TCP_PARSE_FRAME:
            (*events)++;
            if (on_frame(c, c->ps.dst) != 0)
                return -1;
            break;
        default:
            if (c->state == C_WAIT_HELLO)
                rd_tcp_conn_close(c);
            else
                rd_tcp_peer_lost(c, "bad frame");
            return -1;
        }
    }
    return 0;
}

/* Drains c: reads until the socket is empty, payloads that are still
 * missing going straight to their destination. */
int rd_tcp_conn_read(conn_t *c)
{
    int events = 0;
    for (int reads = 0;; reads++) {
        if (reads == RD_TCP_READS_PER_PASS) {
            /* Others' turn; edge-triggered epoll will not tell us again. */
            if (rd_list_empty(&c->ready))
                rd_list_push_back(&rd_tcp.ready, &c->ready);
            return events;
        }
        struct iovec iov[2];
        int k = 0;
        void *where;
        size_t want = rd_tcp_parser_want(&c->ps, &where);
        if (want) {
            iov[k].iov_base = where;
            iov[k++].iov_len = want;
        }
        /* ps.len: the payload of the frame being read or, between frames,
         * of the last one. */
        size_t rxlen = c->ps.len >= RD_TCP_BIG ? RD_TCP_PEEK : sizeof(rd_tcp.rx);
        iov[k].iov_base = rd_tcp.rx;
        iov[k++].iov_len = rxlen;
        size_t asked = want + rxlen;
        ssize_t n = readv(c->fd, iov, k);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return events;
        if (n <= 0) {
            if (c->state == C_WAIT_HELLO || (c->state == C_UP && rd_tcp.peers[c->peer].bye))
                rd_tcp_conn_close(c);
            else
                rd_tcp_peer_lost(c, n == 0 ? "end of file" : strerror(errno));
            return events;
        }
        size_t direct = (size_t)n < want ? (size_t)n : want;
        if (direct) {
            if (rd_tcp_parser_wrote(&c->ps, direct) == RD_TCP_PARSE_FRAME) {
                events++;
                if (on_frame(c, c->ps.dst) != 0)
                    return events;
            }
        }
        if ((size_t)n > direct && parse_buf(c, rd_tcp.rx, (size_t)n - direct, &events) != 0)
            return events;
        if ((size_t)n < asked)
            break;   /* short read: the socket is empty */
    }
    if (!rd_list_empty(&c->ready)) {
        rd_list_remove(&c->ready);
        rd_list_init(&c->ready);
    }
    return events;
}
