/*
 * The TCP frame parser: bytes in, frames out (tcp_wire.h). Incremental (a
 * frame may arrive one byte at a time), bounds-checked, and free of socket
 * code, so it is unit-tested and fuzzed on its own.
 *
 * The caller feeds bytes with rd_tcp_parse(), which consumes them up to the
 * next event:
 *   RD_TCP_PARSE_MORE    every byte was consumed; feed more
 *   RD_TCP_PARSE_HEADER  a frame's header and upper header are complete and a
 *                        payload (len > 0) follows. Before feeding on, the
 *                        caller either gives a destination for the payload
 *                        with rd_tcp_parser_set_dst() (len bytes, then written
 *                        by rd_tcp_parse or directly, see want/wrote), or takes
 *                        the whole payload from its own input and calls
 *                        rd_tcp_parser_skip()
 *   RD_TCP_PARSE_FRAME   a whole frame is there: type, hdr(), payload at dst
 *   RD_TCP_PARSE_ERROR   a bad frame (p->error says why); sticky
 * Frames without payload go straight to RD_TCP_PARSE_FRAME.
 */
#ifndef RD_TRANSPORT_TCP_TCP_PARSE_H
#define RD_TRANSPORT_TCP_TCP_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "transport/tcp/tcp_wire.h"

enum {
    RD_TCP_PARSE_MORE = 0,
    RD_TCP_PARSE_HEADER = 1,
    RD_TCP_PARSE_FRAME = 2,
    RD_TCP_PARSE_ERROR = 3,
};

/* Why a frame was rejected. */
enum {
    RD_TCP_PERR_NONE = 0,
    RD_TCP_PERR_VERSION,      /* version is not RD_TCP_WIRE_VERSION */
    RD_TCP_PERR_TYPE,         /* unknown frame type */
    RD_TCP_PERR_LENGTH,       /* hdrlen or len not allowed for the type */
    RD_TCP_PERR_USAGE,        /* the caller broke the protocol above */
};

enum rd_tcp_parse_state {
    RD_TCP_PS_HEAD,           /* collecting frame header + upper header */
    RD_TCP_PS_NEED_DST,       /* HEADER returned: waiting for set_dst/skip */
    RD_TCP_PS_PAYLOAD,        /* copying payload into dst */
    RD_TCP_PS_DONE,           /* FRAME returned: the next byte starts a frame */
    RD_TCP_PS_BAD,
};

typedef struct rd_tcp_parser {
    int state;                /* enum rd_tcp_parse_state */
    int error;                /* RD_TCP_PERR_* once state is BAD */
    size_t len_max;           /* largest MSG payload accepted */
    size_t have;              /* HEAD: bytes in head[]; PAYLOAD: bytes at dst */
    uint8_t type;             /* decoded frame header, valid from HEADER on */
    size_t hdrlen, len;
    unsigned char *dst;
    unsigned char head[RD_TCP_FRAME_LEN + RD_TCP_HDR_MAX];
} rd_tcp_parser_t;

/* len_max: largest MSG payload accepted (at most RD_TCP_LEN_LIMIT). */
void rd_tcp_parser_init(rd_tcp_parser_t *p, size_t len_max);

/* Consumes bytes of in[0, n) up to the next event; *used is set to how many. */
int rd_tcp_parse(rd_tcp_parser_t *p, const void *in, size_t n, size_t *used);

/* The upper header of the current frame (hdrlen bytes), valid from HEADER. */
static inline const void *rd_tcp_parser_hdr(const rd_tcp_parser_t *p)
{
    return p->head + RD_TCP_FRAME_LEN;
}

/* After HEADER: the payload goes to dst (p->len bytes of room). */
int rd_tcp_parser_set_dst(rd_tcp_parser_t *p, void *dst);
/* After HEADER: the caller took the payload out of its input itself; the
 * frame is finished (no FRAME event follows). */
int rd_tcp_parser_skip(rd_tcp_parser_t *p);

/* While copying a payload: how many bytes are still missing, and where the
 * next one goes (so a reader can put socket data there directly). 0 in any
 * other state. */
size_t rd_tcp_parser_want(const rd_tcp_parser_t *p, void **where);
/* n bytes (at most want) were written at the place want gave. Returns FRAME
 * when the payload is complete, MORE otherwise, ERROR on misuse. */
int rd_tcp_parser_wrote(rd_tcp_parser_t *p, size_t n);

#endif
