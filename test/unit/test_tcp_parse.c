/*
 * Unit tests of the TCP frame parser (src/transport/tcp/tcp_parse.c): frames
 * whole and byte by byte, payloads copied, taken in place or written
 * directly, and every malformed frame header rejected with the right reason.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "transport/tcp/tcp_parse.h"
#include "util/status.h"

static size_t frame(unsigned char *p, int type, int version, size_t hdrlen, size_t len)
{
    rd_tcp_frame_t f = { (uint8_t)type, (uint8_t)version, (uint16_t)hdrlen, (uint32_t)len };
    memcpy(p, &f, sizeof(f));
    return sizeof(f);
}

/* A MSG frame: hdrlen bytes of 'h', len bytes counting from seed. */
static size_t msg(unsigned char *p, size_t hdrlen, size_t len, unsigned seed)
{
    size_t n = frame(p, RD_TCP_F_MSG, RD_TCP_WIRE_VERSION, hdrlen, len);
    memset(p + n, 'h', hdrlen);
    n += hdrlen;
    for (size_t i = 0; i < len; i++)
        p[n + i] = (unsigned char)(seed + i);
    return n + len;
}

static void test_whole_frames(void)
{
    unsigned char in[256], dst[64];
    size_t n = msg(in, 24, 40, 3);
    n += frame(in + n, RD_TCP_F_BYE, RD_TCP_WIRE_VERSION, 0, 0);
    rd_tcp_parser_t p;
    rd_tcp_parser_init(&p, 1024);
    size_t used, off = 0;
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in, n, &used), RD_TCP_PARSE_HEADER);
    off += used;
    CU_ASSERT_EQUAL(off, RD_TCP_FRAME_LEN + 24);
    CU_ASSERT_EQUAL(p.type, RD_TCP_F_MSG);
    CU_ASSERT_EQUAL(p.hdrlen, 24);
    CU_ASSERT_EQUAL(p.len, 40);
    CU_ASSERT_EQUAL(((const unsigned char *)rd_tcp_parser_hdr(&p))[23], 'h');
    CU_ASSERT_EQUAL(rd_tcp_parser_set_dst(&p, dst), RD_OK);
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in + off, n - off, &used), RD_TCP_PARSE_FRAME);
    off += used;
    for (int i = 0; i < 40; i++)
        CU_ASSERT_EQUAL(dst[i], (unsigned char)(3 + i));
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in + off, n - off, &used), RD_TCP_PARSE_FRAME);
    off += used;
    CU_ASSERT_EQUAL(p.type, RD_TCP_F_BYE);
    CU_ASSERT_EQUAL(off, n);
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in + off, 0, &used), RD_TCP_PARSE_MORE);
    CU_ASSERT_EQUAL(used, 0);
}

/* The same stream fed one byte at a time gives the same frames. */
static void test_byte_by_byte(void)
{
    unsigned char in[512], dst[128];
    size_t n = 0;
    rd_tcp_hello_t h = { RD_TCP_HELLO_MAGIC, 1, 2, 0, { 9 } };
    n += frame(in, RD_TCP_F_HELLO, RD_TCP_WIRE_VERSION, sizeof(h), 0);
    memcpy(in + n, &h, sizeof(h));
    n += sizeof(h);
    n += msg(in + n, 1, 0, 0);
    n += msg(in + n, RD_TCP_HDR_MAX, 100, 7);
    n += frame(in + n, RD_TCP_F_ACK, RD_TCP_WIRE_VERSION, 0, 0);
    static const int want[] = { RD_TCP_F_HELLO, RD_TCP_F_MSG, RD_TCP_F_MSG, RD_TCP_F_ACK };
    int got = 0;
    rd_tcp_parser_t p;
    rd_tcp_parser_init(&p, 1024);
    for (size_t i = 0; i < n; i++) {
        size_t used;
        int ev = rd_tcp_parse(&p, in + i, 1, &used);
        CU_ASSERT_EQUAL(used, 1);
        if (ev == RD_TCP_PARSE_HEADER) {
            CU_ASSERT_EQUAL(p.len, 100);
            CU_ASSERT_EQUAL(rd_tcp_parser_set_dst(&p, dst), RD_OK);
        } else if (ev == RD_TCP_PARSE_FRAME) {
            CU_ASSERT_FATAL(got < 4);
            CU_ASSERT_EQUAL(p.type, want[got]);
            if (got == 0)
                CU_ASSERT_EQUAL(memcmp(rd_tcp_parser_hdr(&p), &h, sizeof(h)), 0);
            if (got == 2)
                CU_ASSERT_EQUAL(dst[99], (unsigned char)(7 + 99));
            got++;
        } else {
            CU_ASSERT_EQUAL(ev, RD_TCP_PARSE_MORE);
        }
    }
    CU_ASSERT_EQUAL(got, 4);
}

/* skip: the caller takes the payload in place; want/wrote: it reads the
 * rest of a payload directly into dst. */
static void test_skip_and_direct(void)
{
    unsigned char in[256], dst[64];
    size_t n = msg(in, 8, 30, 1);
    size_t n2 = msg(in + n, 8, 50, 2);
    rd_tcp_parser_t p;
    rd_tcp_parser_init(&p, 1024);
    size_t used;
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in, n + n2, &used), RD_TCP_PARSE_HEADER);
    CU_ASSERT_EQUAL(rd_tcp_parser_skip(&p), RD_OK);
    size_t off = used + 30;
    void *where;
    CU_ASSERT_EQUAL(rd_tcp_parser_want(&p, &where), 0);
    /* Second frame: header plus 10 payload bytes through parse, 40 direct. */
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in + off, RD_TCP_FRAME_LEN + 8 + 10, &used), RD_TCP_PARSE_HEADER);
    off += used;
    CU_ASSERT_EQUAL(rd_tcp_parser_set_dst(&p, dst), RD_OK);
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in + off, 10, &used), RD_TCP_PARSE_MORE);
    off += used;
    CU_ASSERT_EQUAL(rd_tcp_parser_want(&p, &where), 40);
    CU_ASSERT_PTR_EQUAL(where, dst + 10);
    memcpy(where, in + off, 25);
    CU_ASSERT_EQUAL(rd_tcp_parser_wrote(&p, 25), RD_TCP_PARSE_MORE);
    CU_ASSERT_EQUAL(rd_tcp_parser_want(&p, &where), 15);
    memcpy(where, in + off + 25, 15);
    CU_ASSERT_EQUAL(rd_tcp_parser_wrote(&p, 15), RD_TCP_PARSE_FRAME);
    for (int i = 0; i < 50; i++)
        CU_ASSERT_EQUAL(dst[i], (unsigned char)(2 + i));
    /* Writing more than wanted is misuse. */
    CU_ASSERT_EQUAL(rd_tcp_parser_wrote(&p, 1), RD_TCP_PARSE_ERROR);
}

/* One bad header -> ERROR with the reason, and the error sticks. */
static void expect_bad(int type, int version, size_t hdrlen, size_t len, int why)
{
    unsigned char in[64];
    memset(in, 0, sizeof(in));
    frame(in, type, version, hdrlen, len);
    rd_tcp_parser_t p;
    rd_tcp_parser_init(&p, 4096);
    size_t used;
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in, sizeof(in), &used), RD_TCP_PARSE_ERROR);
    CU_ASSERT_EQUAL(p.error, why);
    CU_ASSERT_EQUAL(used, RD_TCP_FRAME_LEN);
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in, sizeof(in), &used), RD_TCP_PARSE_ERROR);
}

static void test_rejects(void)
{
    expect_bad(RD_TCP_F_MSG, 0, 24, 0, RD_TCP_PERR_VERSION);
    expect_bad(RD_TCP_F_MSG, RD_TCP_WIRE_VERSION + 1, 24, 0, RD_TCP_PERR_VERSION);
    expect_bad(0, RD_TCP_WIRE_VERSION, 0, 0, RD_TCP_PERR_TYPE);
    expect_bad(99, RD_TCP_WIRE_VERSION, 0, 0, RD_TCP_PERR_TYPE);
    expect_bad(RD_TCP_F_MSG, RD_TCP_WIRE_VERSION, 0, 10, RD_TCP_PERR_LENGTH);
    expect_bad(RD_TCP_F_MSG, RD_TCP_WIRE_VERSION, RD_TCP_HDR_MAX + 1, 0, RD_TCP_PERR_LENGTH);
    expect_bad(RD_TCP_F_MSG, RD_TCP_WIRE_VERSION, 24, 4097, RD_TCP_PERR_LENGTH);
    expect_bad(RD_TCP_F_MSG, RD_TCP_WIRE_VERSION, 24, 0xffffffffu, RD_TCP_PERR_LENGTH);
    expect_bad(RD_TCP_F_HELLO, RD_TCP_WIRE_VERSION, sizeof(rd_tcp_hello_t) - 1, 0, RD_TCP_PERR_LENGTH);
    expect_bad(RD_TCP_F_HELLO, RD_TCP_WIRE_VERSION, sizeof(rd_tcp_hello_t), 1, RD_TCP_PERR_LENGTH);
    expect_bad(RD_TCP_F_ACK, RD_TCP_WIRE_VERSION, 1, 0, RD_TCP_PERR_LENGTH);
    expect_bad(RD_TCP_F_BYE, RD_TCP_WIRE_VERSION, 0, 1, RD_TCP_PERR_LENGTH);
    /* The limit is what init says, never above RD_TCP_LEN_LIMIT. */
    rd_tcp_parser_t p;
    rd_tcp_parser_init(&p, (size_t)1 << 40);
    CU_ASSERT_EQUAL(p.len_max, RD_TCP_LEN_LIMIT);
}

/* Feeding on without a destination after HEADER is a usage error. */
static void test_usage(void)
{
    unsigned char in[64];
    size_t n = msg(in, 4, 8, 0);
    rd_tcp_parser_t p;
    rd_tcp_parser_init(&p, 64);
    size_t used;
    CU_ASSERT_EQUAL(rd_tcp_parser_skip(&p), RD_EINVAL);
    rd_tcp_parser_init(&p, 64);
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in, n, &used), RD_TCP_PARSE_HEADER);
    CU_ASSERT_EQUAL(rd_tcp_parse(&p, in + used, n - used, &used), RD_TCP_PARSE_ERROR);
    CU_ASSERT_EQUAL(p.error, RD_TCP_PERR_USAGE);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "whole frames", test_whole_frames },
        { "byte by byte", test_byte_by_byte },
        { "payload in place and read directly", test_skip_and_direct },
        { "bad versions, types and lengths", test_rejects },
        { "misuse", test_usage },
    };
    return rd_unit_run("tcp_parse", tests, RD_UNIT_COUNT(tests));
}
