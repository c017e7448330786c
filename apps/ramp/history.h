/* history: the JSON Lines record of what a client's transactions wrote
 * and read (DIR/history.<rank>.jsonl), which the checker, ours or an
 * independent one, reads back. */
#ifndef RAMP_HISTORY_H
#define RAMP_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* zlib's crc32 (the IEEE polynomial, reflected) of len bytes. */
uint32_t ramp_crc32(const uint8_t *buf, size_t len);

struct ramp_history {
    FILE *f;
    char *path;
};

/* Creates dir if needed and opens dir/history.<rank>.jsonl for writing.
 * Returns 0, or -1 after printing why to stderr. */
int ramp_history_open(struct ramp_history *h, const char *dir, int rank);
/* {"op":"put","ts":T,"items":[{"key":K,"crc":C},...]} */
void ramp_history_put(struct ramp_history *h, uint64_t ts, int n, const uint64_t *keys,
                      const uint32_t *crcs);
/* {"op":"get",["final":true,]"items":[{"key":K,"ts":T,"crc":C},...]} */
void ramp_history_get(struct ramp_history *h, int final, int n, const uint64_t *keys,
                      const uint64_t *ts, const uint32_t *crcs);
/* Returns 0, or -1 after printing why (a write failed). */
int ramp_history_close(struct ramp_history *h);

#endif
