/*
 * libFuzzer target for the TCP frame parser (src/transport/tcp/tcp_parse.c).
 *
 * Input: byte 0 picks the parser's payload limit, byte 1 seeds the chunking
 * and the way payloads are taken; the rest is the byte stream a peer sent.
 * The stream is fed in chunks of 1..64 bytes; each payload goes, by turns,
 * into a malloc'd buffer of exactly its length (so ASan sees any overrun),
 * straight from the input (skip, when it is all there), or through the
 * direct want/wrote path. Checked on every event: the frame's lengths obey
 * tcp_wire.h, consumption never exceeds the input, and an error is final.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transport/tcp/tcp_parse.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void check_frame(const rd_tcp_parser_t *p)
{
    CHECK(p->type >= RD_TCP_F_HELLO && p->type <= RD_TCP_F_BYE);
    CHECK(p->hdrlen <= RD_TCP_HDR_MAX && p->len <= p->len_max);
    if (p->type == RD_TCP_F_MSG)
        CHECK(p->hdrlen >= 1);
    else
        CHECK(p->len == 0);
    if (p->type == RD_TCP_F_HELLO)
        CHECK(p->hdrlen == sizeof(rd_tcp_hello_t));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    static const size_t limits[] = { 0, 1, 64, 4096, 65536, RD_TCP_LEN_LIMIT };
    size_t len_max = limits[data[0] % 6];
    unsigned rng = data[1] * 2654435761u + 1;
    data += 2;
    size = size - 2;

    rd_tcp_parser_t p;
    rd_tcp_parser_init(&p, len_max);
    unsigned char *payload = NULL;
    size_t pos = 0;
    int failed = 0;
    while (pos < size) {
        rng = rng * 1103515245u + 12345u;
        size_t chunk = 1 + (rng >> 16) % 64;
        if (chunk > size - pos)
            chunk = size - pos;
        size_t end = pos + chunk;
        /* A payload being filled may take bytes directly. */
        void *where;
        size_t want = rd_tcp_parser_want(&p, &where);
        if (want && (rng & 0x100)) {
            size_t k = want < end - pos ? want : end - pos;
            memcpy(where, data + pos, k);
            pos += k;
            int ev = rd_tcp_parser_wrote(&p, k);
            CHECK(ev == RD_TCP_PARSE_MORE || ev == RD_TCP_PARSE_FRAME);
            if (ev == RD_TCP_PARSE_FRAME) {
                check_frame(&p);
                free(payload);
                payload = NULL;
            }
            continue;
        }
        while (pos < end) {
            size_t used;
            int ev = rd_tcp_parse(&p, data + pos, end - pos, &used);
            CHECK(used <= end - pos);
            pos += used;
            if (ev == RD_TCP_PARSE_ERROR) {
                CHECK(p.state == RD_TCP_PS_BAD && p.error != RD_TCP_PERR_NONE &&
                      p.error != RD_TCP_PERR_USAGE);
                failed = 1;
                break;
            }
            if (ev == RD_TCP_PARSE_MORE) {
                CHECK(pos == end);
                break;
            }
            check_frame(&p);
            if (ev == RD_TCP_PARSE_FRAME) {
                if (payload) {
                    /* Every byte of an exact-size buffer is readable. */
                    volatile unsigned char s = payload[p.len - 1];
                    (void)s;
                }
                free(payload);
                payload = NULL;
                continue;
            }
            /* HEADER: a payload of p.len > 0 bytes follows. */
            CHECK(p.len > 0);
            rng = rng * 1103515245u + 12345u;
            if ((rng & 0x200) && size - pos >= p.len) {
                pos += p.len;   /* taken in place */
                CHECK(rd_tcp_parser_skip(&p) == 0);
                continue;
            }
            payload = malloc(p.len);
            CHECK(payload != NULL);
            CHECK(rd_tcp_parser_set_dst(&p, payload) == 0);
            if (end < pos)
                end = pos;
        }
        if (failed)
            break;
        if (pos > end)
            continue;   /* a payload taken in place ran past the chunk */
    }
    if (failed) {
        size_t used;
        CHECK(rd_tcp_parse(&p, data, size, &used) == RD_TCP_PARSE_ERROR);
    }
    free(payload);
    return 0;
}
