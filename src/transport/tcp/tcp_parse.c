/* The TCP frame parser (see tcp_parse.h and the format in tcp_wire.h). */
#include "transport/tcp/tcp_parse.h"

#include <endian.h>
#include <string.h>

#include "util/status.h"

void rd_tcp_parser_init(rd_tcp_parser_t *p, size_t len_max)
{
    memset(p, 0, sizeof(*p) - sizeof(p->head));
    p->state = RD_TCP_PS_HEAD;
    p->len_max = len_max < RD_TCP_LEN_LIMIT ? len_max : RD_TCP_LEN_LIMIT;
}

static int fail(rd_tcp_parser_t *p, int why)
{
    p->state = RD_TCP_PS_BAD;
    p->error = why;
    return RD_TCP_PARSE_ERROR;
}

/* Checks a complete frame header; sets type, hdrlen and len. */
static int check_frame(rd_tcp_parser_t *p)
{
    rd_tcp_frame_t f;
    memcpy(&f, p->head, sizeof(f));
    size_t hdrlen = le16toh(f.hdrlen), len = le32toh(f.len);
    if (f.version != RD_TCP_WIRE_VERSION)
        return fail(p, RD_TCP_PERR_VERSION);
    switch (f.type) {
    case RD_TCP_F_HELLO:
        if (hdrlen != sizeof(rd_tcp_hello_t) || len != 0)
            return fail(p, RD_TCP_PERR_LENGTH);
        break;
    case RD_TCP_F_ACK:
    case RD_TCP_F_NACK:
    case RD_TCP_F_BYE:
        if (hdrlen != 0 || len != 0)
            return fail(p, RD_TCP_PERR_LENGTH);
        break;
    case RD_TCP_F_MSG:
        if (hdrlen < 1 || hdrlen > RD_TCP_HDR_MAX || len > p->len_max)
            return fail(p, RD_TCP_PERR_LENGTH);
        break;
    default:
        return fail(p, RD_TCP_PERR_TYPE);
    }
    p->type = f.type;
    p->hdrlen = hdrlen;
    p->len = len;
    return RD_TCP_PARSE_MORE;
}

int rd_tcp_parse(rd_tcp_parser_t *p, const void *in, size_t n, size_t *used)
{
    const unsigned char *src = in;
    size_t pos = 0;
    *used = 0;
    for (;;) {
        switch (p->state) {
        case RD_TCP_PS_DONE:
            p->state = RD_TCP_PS_HEAD;
            p->have = 0;
            p->dst = NULL;
            break;
        case RD_TCP_PS_HEAD: {
            /* The frame header first, then (its length known) the upper header. */
            size_t need = p->have < RD_TCP_FRAME_LEN ? RD_TCP_FRAME_LEN : RD_TCP_FRAME_LEN + p->hdrlen;
            size_t k = need - p->have;
            if (k > n - pos)
                k = n - pos;
            memcpy(p->head + p->have, src + pos, k);
            p->have += k;
            pos += k;
            *used = pos;
            if (p->have < need)
                return RD_TCP_PARSE_MORE;
            if (need == RD_TCP_FRAME_LEN) {
                if (check_frame(p) == RD_TCP_PARSE_ERROR)
                    return RD_TCP_PARSE_ERROR;
                if (p->hdrlen > 0)
                    break;   /* now the upper header */
            }
            p->have = 0;
            if (p->len == 0) {
                p->state = RD_TCP_PS_DONE;
                return RD_TCP_PARSE_FRAME;
            }
            p->state = RD_TCP_PS_NEED_DST;
            return RD_TCP_PARSE_HEADER;
        }
        case RD_TCP_PS_PAYLOAD: {
            size_t k = p->len - p->have;
            if (k > n - pos)
                k = n - pos;
            memcpy(p->dst + p->have, src + pos, k);
            p->have += k;
            pos += k;
            *used = pos;
            if (p->have < p->len)
                return RD_TCP_PARSE_MORE;
            p->state = RD_TCP_PS_DONE;
            return RD_TCP_PARSE_FRAME;
        }
        case RD_TCP_PS_NEED_DST:
            return fail(p, RD_TCP_PERR_USAGE);
        default:
            return RD_TCP_PARSE_ERROR;
        }
        if (pos == n && p->state != RD_TCP_PS_HEAD)
            return RD_TCP_PARSE_MORE;
    }
}

int rd_tcp_parser_set_dst(rd_tcp_parser_t *p, void *dst)
{
    if (p->state != RD_TCP_PS_NEED_DST || !dst) {
        fail(p, RD_TCP_PERR_USAGE);
        return RD_EINVAL;
    }
    p->dst = dst;
    p->have = 0;
    p->state = RD_TCP_PS_PAYLOAD;
    return RD_OK;
}

int rd_tcp_parser_skip(rd_tcp_parser_t *p)
{
    if (p->state != RD_TCP_PS_NEED_DST) {
        fail(p, RD_TCP_PERR_USAGE);
        return RD_EINVAL;
    }
    p->state = RD_TCP_PS_DONE;
    return RD_OK;
}

size_t rd_tcp_parser_want(const rd_tcp_parser_t *p, void **where)
{
    if (p->state != RD_TCP_PS_PAYLOAD) {
        *where = NULL;
        return 0;
    }
    *where = p->dst + p->have;
    return p->len - p->have;
}

int rd_tcp_parser_wrote(rd_tcp_parser_t *p, size_t n)
{
    if (p->state != RD_TCP_PS_PAYLOAD || n > p->len - p->have)
        return fail(p, RD_TCP_PERR_USAGE);
    p->have += n;
    if (p->have < p->len)
        return RD_TCP_PARSE_MORE;
    p->state = RD_TCP_PS_DONE;
    return RD_TCP_PARSE_FRAME;
}
