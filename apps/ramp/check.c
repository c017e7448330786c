/* check: an independent Read Atomic checker. It reads back the history
 * records, indexes every PUT by timestamp and checks each GET against
 * them: the version read exists with the same crc (no torn or phantom
 * value); no fractured read (if a GET returns key a at timestamp t and
 * transaction t also wrote key b, which the GET read too, its version of
 * b is at least t); every timestamp written once; and the final read
 * returns each key's newest PUT. */
#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Violations printed in full; the rest are only counted. */
#define SHOW 10

struct rec {
    int file;
    long line;
    int put;
    int final;
    uint64_t ts;
    int n;
    uint64_t *keys;
    uint64_t *ts_of;          /* gets: the version read of each key */
    uint32_t *crc;
};

struct checker {
    char **files;
    int nfiles;
    struct rec *recs;
    size_t nrecs, cap;
    struct rec **puts;        /* by ts: open addressing */
    size_t put_mask;
    long violations;
    const char *dir;
};

static void violation(struct checker *k, const struct rec *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));


static void violation(struct checker *k, const struct rec *r, const char *fmt, ...)
{
    if (k->violations++ < SHOW) {
        va_list ap;
        printf("check: %s/%s:%ld: ", k->dir, k->files[r->file], r->line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        putchar('\n');
    }
}

/* A minimal JSON reader for one record per line. */
struct lex {
    const char *p;
};

static void ws(struct lex *l)
{
    while (*l->p == ' ' || *l->p == '\t' || *l->p == '\r' || *l->p == '\n')
        l->p++;
}

static int eat(struct lex *l, char c)
{
    ws(l);
    if (*l->p != c)
        return 0;
    l->p++;
    return 1;
}

/* A string into buf (escapes kept as the escaped character). */
static int str(struct lex *l, char *buf, size_t len)
{
    size_t n = 0;
    if (!eat(l, '"'))
        return -1;
    while (*l->p && *l->p != '"') {
        if (*l->p == '\\' && l->p[1])
            l->p++;
        if (n + 1 < len)
            buf[n++] = *l->p;
        l->p++;
    }
    buf[n] = 0;
    return eat(l, '"') ? 0 : -1;
}

static int num(struct lex *l, uint64_t *v)
{
    ws(l);
    char *end;
    if (*l->p < '0' || *l->p > '9')
        return -1;
    errno = 0;
    *v = strtoull(l->p, &end, 10);
    if (errno || *end == '.' || *end == 'e' || *end == 'E')
        return -1;
    l->p = end;
    return 0;
}

/* Skips any value. */
static int skip(struct lex *l)
{
    char buf[8];
    uint64_t v;
    ws(l);
    if (*l->p == '"')
        return str(l, buf, sizeof(buf));
    if (*l->p == '{' || *l->p == '[') {
        char close = *l->p == '{' ? '}' : ']';
        int obj = *l->p == '{';
        l->p++;
        if (eat(l, close))
            return 0;
        do {
            if (obj && (str(l, buf, sizeof(buf)) || !eat(l, ':')))
                return -1;
            if (skip(l))
                return -1;
        } while (eat(l, ','));
        return eat(l, close) ? 0 : -1;
    }
    if (strncmp(l->p, "true", 4) == 0 || strncmp(l->p, "null", 4) == 0) {
        l->p += 4;
        return 0;
    }
    if (strncmp(l->p, "false", 5) == 0) {
        l->p += 5;
        return 0;
    }
    if (*l->p == '-')
        l->p++;
    return num(l, &v);
}

static int item(struct lex *l, struct rec *r, size_t *cap)
{
    char name[16];
    uint64_t key = UINT64_MAX, ts = UINT64_MAX, crc = UINT64_MAX;
    if (!eat(l, '{'))
        return -1;
    do {
        if (str(l, name, sizeof(name)) || !eat(l, ':'))
            return -1;
        uint64_t *dst = !strcmp(name, "key") ? &key : !strcmp(name, "ts") ? &ts
                        : !strcmp(name, "crc") ? &crc : NULL;
        if (dst ? num(l, dst) : skip(l))
            return -1;
    } while (eat(l, ','));
    if (!eat(l, '}') || key == UINT64_MAX || crc > UINT32_MAX || (!r->put && ts == UINT64_MAX))
        return -1;
    if ((size_t)r->n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        r->keys = realloc(r->keys, *cap * 8);
        r->ts_of = realloc(r->ts_of, *cap * 8);
        r->crc = realloc(r->crc, *cap * 4);
        if (!r->keys || !r->ts_of || !r->crc)
            return -1;
    }
    r->keys[r->n] = key;
    r->ts_of[r->n] = ts;
    r->crc[r->n] = (uint32_t)crc;
    r->n++;
    return 0;
}

static int record(const char *line, struct rec *r)
{
    struct lex l = { line };
    char name[16], op[8] = "";
    size_t cap = 0;
    int have_ts = 0, have_items = 0;
    if (!eat(&l, '{'))
        return -1;
    do {
        if (str(&l, name, sizeof(name)) || !eat(&l, ':'))
            return -1;
        if (!strcmp(name, "op")) {
            if (str(&l, op, sizeof(op)))
                return -1;
            r->put = !strcmp(op, "put");
        } else if (!strcmp(name, "ts")) {
            if (num(&l, &r->ts))
                return -1;
            have_ts = 1;
        } else if (!strcmp(name, "final")) {
            ws(&l);
            r->final = strncmp(l.p, "true", 4) == 0;
            if (skip(&l))
                return -1;
        } else if (!strcmp(name, "items")) {
            /* op comes first in our files; an item's "ts" is read either way */
            if (!eat(&l, '['))
                return -1;
            if (!eat(&l, ']')) {
                do {
                    if (item(&l, r, &cap))
                        return -1;
                } while (eat(&l, ','));
                if (!eat(&l, ']'))
                    return -1;
            }
            have_items = 1;
        } else if (skip(&l)) {
            return -1;
        }
    } while (eat(&l, ','));
    if (!eat(&l, '}') || !have_items || (strcmp(op, "put") && strcmp(op, "get")) ||
        (r->put && !have_ts))
        return -1;
    return 0;
}

static int load_file(struct checker *k, int f)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", k->dir, k->files[f]);
    FILE *in = fopen(path, "r");
    if (!in) {
        printf("check: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t len = 0;
    long no = 0;
    while (getline(&line, &len, in) > 0) {
        no++;
        if (line[strspn(line, " \t\r\n")] == 0)
            continue;
        if (k->nrecs == k->cap) {
            k->cap = k->cap ? k->cap * 2 : 1024;
            k->recs = realloc(k->recs, k->cap * sizeof(*k->recs));
            if (!k->recs)
                goto bad;
        }
        struct rec *r = &k->recs[k->nrecs];
        memset(r, 0, sizeof(*r));
        r->file = f;
        r->line = no;
        if (record(line, r)) {
            printf("check: %s:%ld: not a history record: %.80s", path, no, line);
            goto bad;
        }
        k->nrecs++;
    }
    free(line);
    fclose(in);
    return 0;
bad:
    free(line);
    fclose(in);
    return -1;
}

static size_t slot_of(const struct checker *k, uint64_t ts)
{
    uint64_t h = ts * 0x9e3779b97f4a7c15ULL;
    return (size_t)((h ^ (h >> 29)) & k->put_mask);
}

static struct rec *find_put(const struct checker *k, uint64_t ts)
{
    for (size_t i = slot_of(k, ts);; i = (i + 1) & k->put_mask) {
        if (!k->puts[i] || k->puts[i]->ts == ts)
            return k->puts[i];
    }
}

/* The crc PUT p wrote for key, or -1 when it did not write key. */
static int64_t put_crc(const struct rec *p, uint64_t key)
{
    for (int i = 0; i < p->n; i++)
        if (p->keys[i] == key)
            return p->crc[i];
    return -1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_files(struct checker *k)
{
    DIR *d = opendir(k->dir);
    if (!d) {
        printf("check: %s: %s\n", k->dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, "history.", 8) || n < 7 || strcmp(e->d_name + n - 6, ".jsonl"))
            continue;
        k->files = realloc(k->files, (size_t)(k->nfiles + 1) * sizeof(char *));
        if (!k->files || !(k->files[k->nfiles] = strdup(e->d_name))) {
            closedir(d);
            return -1;
        }
        k->nfiles++;
    }
    closedir(d);
    qsort(k->files, (size_t)k->nfiles, sizeof(char *), by_name);
    if (k->nfiles == 0) {
        printf("check: %s: no history.*.jsonl files\n", k->dir);
        return -1;
    }
    return 0;
}

static void check_get(struct checker *k, const struct rec *g, uint64_t *seen, uint64_t *stamp,
                      uint64_t nkeys, uint64_t gen)
{
    for (int i = 0; i < g->n; i++) {
        if (g->keys[i] < nkeys) {
            seen[g->keys[i]] = g->ts_of[i];
            stamp[g->keys[i]] = gen;
        }
    }
    for (int i = 0; i < g->n; i++) {
        uint64_t key = g->keys[i], t = g->ts_of[i];
        const struct rec *p = find_put(k, t);
        if (!p) {
            violation(k, g, "read key %llu at timestamp %llu, which no PUT wrote",
                      (unsigned long long)key, (unsigned long long)t);
            continue;
        }
        int64_t crc = put_crc(p, key);
        if (crc < 0) {
            violation(k, g, "read key %llu at timestamp %llu, but that PUT did not write it",
                      (unsigned long long)key, (unsigned long long)t);
            continue;
        }
        if ((uint32_t)crc != g->crc[i])
            violation(k, g, "read key %llu at timestamp %llu with crc %u, the PUT wrote crc %u "
                      "(a torn or phantom value)", (unsigned long long)key,
                      (unsigned long long)t, g->crc[i], (uint32_t)crc);
        for (int j = 0; j < p->n; j++) {
            uint64_t b = p->keys[j];
            if (b == key || b >= nkeys || stamp[b] != gen || seen[b] >= t)
                continue;
            violation(k, g, "fractured read: key %llu at timestamp %llu, but key %llu, which "
                      "that transaction also wrote, at older timestamp %llu",
                      (unsigned long long)key, (unsigned long long)t, (unsigned long long)b,
                      (unsigned long long)seen[b]);
        }
    }
}

static long run(struct checker *k)
{
    if (list_files(k))
        return -1;
    for (int f = 0; f < k->nfiles; f++)
        if (load_file(k, f))
            return -1;
    size_t nputs = 0;
    uint64_t nkeys = 0;
    for (size_t i = 0; i < k->nrecs; i++) {
        nputs += k->recs[i].put;
        for (int j = 0; j < k->recs[i].n; j++)
            if (k->recs[i].keys[j] + 1 > nkeys)
                nkeys = k->recs[i].keys[j] + 1;
    }
    size_t cap = 16;
    while (cap < nputs * 2)
        cap *= 2;
    k->puts = calloc(cap, sizeof(*k->puts));
    k->put_mask = cap - 1;
    uint64_t *newest = calloc(nkeys + 1, 8), *seen = calloc(nkeys + 1, 8);
    uint64_t *stamp = calloc(nkeys + 1, 8);
    uint8_t *written = calloc(nkeys + 1, 1);
    if (!k->puts || !newest || !seen || !stamp || !written) {
        printf("check: no memory for %zu PUTs over keys up to %llu\n", nputs,
               (unsigned long long)nkeys);
        free(newest);
        free(seen);
        free(stamp);
        free(written);
        return -1;
    }
    size_t finals = 0, initial = 0, gets = 0;
    for (size_t i = 0; i < k->nrecs; i++) {
        struct rec *r = &k->recs[i];
        if (!r->put)
            continue;
        initial += r->ts == 0;
        struct rec *old = find_put(k, r->ts);
        if (old) {
            violation(k, r, "timestamp %llu written twice (also at %s:%ld)",
                      (unsigned long long)r->ts, k->files[old->file], old->line);
            continue;
        }
        size_t s = slot_of(k, r->ts);
        while (k->puts[s])
            s = (s + 1) & k->put_mask;
        k->puts[s] = r;
        for (int j = 0; j < r->n; j++) {
            if (!written[r->keys[j]] || r->ts > newest[r->keys[j]])
                newest[r->keys[j]] = r->ts;
            written[r->keys[j]] = 1;
        }
    }
    if (initial != 1)
        printf("check: %zu initial loads (timestamp 0) instead of one\n", initial);
    k->violations += initial != 1;
    for (size_t i = 0; i < k->nrecs; i++) {
        struct rec *r = &k->recs[i];
        if (r->put)
            continue;
        gets++;
        check_get(k, r, seen, stamp, nkeys, i + 1);
        if (!r->final)
            continue;
        finals++;
        for (uint64_t key = 0; key < nkeys; key++)
            if (written[key] && stamp[key] != i + 1)
                violation(k, r, "the final read did not read key %llu", (unsigned long long)key);
        for (int j = 0; j < r->n; j++)
            if (r->keys[j] < nkeys && r->ts_of[j] != newest[r->keys[j]])
                violation(k, r, "final read: key %llu at timestamp %llu, its newest PUT is %llu",
                          (unsigned long long)r->keys[j], (unsigned long long)r->ts_of[j],
                          (unsigned long long)newest[r->keys[j]]);
    }
    if (finals != 1) {
        printf("check: %zu final reads instead of one\n", finals);
        k->violations++;
    }
    if (k->violations > SHOW)
        printf("check: ... and %ld more\n", k->violations - SHOW);
    printf("check: %s: %ld violation(s) in %d file(s): %zu PUTs, %zu GETs, %llu keys\n",
           k->violations ? "FAILED" : "ok", k->violations, k->nfiles, nputs, gets,
           (unsigned long long)nkeys);
    free(newest);
    free(seen);
    free(stamp);
    free(written);
    return k->violations;
}

long ramp_check(const char *dir)
{
    struct checker k;
    memset(&k, 0, sizeof(k));
    k.dir = dir;
    long rc = run(&k);
    for (size_t i = 0; i < k.nrecs; i++) {
        free(k.recs[i].keys);
        free(k.recs[i].ts_of);
        free(k.recs[i].crc);
    }
    free(k.recs);
    for (int f = 0; f < k.nfiles; f++)
        free(k.files[f]);
    free(k.files);
    free(k.puts);
    fflush(stdout);
    return rc;
}
