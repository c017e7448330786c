/* history: writes a client's history as JSON Lines, one record per PUT or
 * GET as it returns, in the format the checker (check.c) and independent
 * checkers read: keys and timestamps as integers, values as zlib's crc32
 * of their bytes. */
#include "history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Slicing-by-8 tables: t[0] is the bytewise table, t[k] advances k more
 * bytes; eight bytes per step instead of one (the crc is computed for
 * every value a client reads or writes while it records a history). */
static uint32_t crc_table[8][256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
        crc_table[0][i] = c;
    }
    for (int k = 1; k < 8; k++)
        for (uint32_t i = 0; i < 256; i++)
            crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^ crc_table[0][crc_table[k - 1][i] & 0xff];
}

uint32_t ramp_crc32(const uint8_t *buf, size_t len)
{
    const uint32_t(*t)[256] = crc_table;
    if (!crc_table[0][1])
        crc_init();
    uint32_t c = 0xffffffffU;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; len >= 8; buf += 8, len -= 8) {
        uint32_t a, b;
        memcpy(&a, buf, 4);
        memcpy(&b, buf + 4, 4);
        a ^= c;
        c = t[7][a & 0xff] ^ t[6][(a >> 8) & 0xff] ^ t[5][(a >> 16) & 0xff] ^ t[4][a >> 24] ^
            t[3][b & 0xff] ^ t[2][(b >> 8) & 0xff] ^ t[1][(b >> 16) & 0xff] ^ t[0][b >> 24];
    }
#endif
    for (size_t i = 0; i < len; i++)
        c = t[0][(c ^ buf[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffU;
}

int ramp_history_open(struct ramp_history *h, const char *dir, int rank)
{
    memset(h, 0, sizeof(*h));
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "rdmpi-ramp: --history %s: mkdir: %s\n", dir, strerror(errno));
        return -1;
    }
    size_t len = strlen(dir) + 64;
    h->path = malloc(len);
    if (!h->path)
        return -1;
    snprintf(h->path, len, "%s/history.%d.jsonl", dir, rank);
    h->f = fopen(h->path, "w");
    if (!h->f) {
        fprintf(stderr, "rdmpi-ramp: %s: %s\n", h->path, strerror(errno));
        free(h->path);
        h->path = NULL;
        return -1;
    }
    return 0;
}

void ramp_history_put(struct ramp_history *h, uint64_t ts, int n, const uint64_t *keys,
                      const uint32_t *crcs)
{
    fprintf(h->f, "{\"op\":\"put\",\"ts\":%llu,\"items\":[", (unsigned long long)ts);
    for (int i = 0; i < n; i++)
        fprintf(h->f, "%s{\"key\":%llu,\"crc\":%u}", i ? "," : "", (unsigned long long)keys[i],
                crcs[i]);
    fputs("]}\n", h->f);
}

void ramp_history_get(struct ramp_history *h, int final, int n, const uint64_t *keys,
                      const uint64_t *ts, const uint32_t *crcs)
{
    fprintf(h->f, "{\"op\":\"get\",%s\"items\":[", final ? "\"final\":true," : "");
    for (int i = 0; i < n; i++)
        fprintf(h->f, "%s{\"key\":%llu,\"ts\":%llu,\"crc\":%u}", i ? "," : "",
                (unsigned long long)keys[i], (unsigned long long)ts[i], crcs[i]);
    fputs("]}\n", h->f);
}

int ramp_history_close(struct ramp_history *h)
{
    int rc = 0;
    int bad = h->f && ferror(h->f);
    if (h->f && (fclose(h->f) != 0 || bad)) {
        fprintf(stderr, "rdmpi-ramp: %s: write failed: %s\n", h->path, strerror(errno));
        rc = -1;
    }
    free(h->path);
    memset(h, 0, sizeof(*h));
    return rc;
}
