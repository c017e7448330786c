/* Reading tunables through their tables, with one rule for bad values
 * (see tunable.h). */
#include "util/tunable.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/env.h"
#include "util/errdetail.h"
#include "util/status.h"

const char *rd_tunable_type_name(rd_tunable_type_t type)
{
    switch (type) {
    case RD_TUN_BOOL: return "bool";
    case RD_TUN_INT: return "int";
    case RD_TUN_SIZE: return "size";
    case RD_TUN_REAL: return "real";
    case RD_TUN_STR: return "string";
    }
    return "?";
}

const char *rd_tunable_getenv(const rd_tunable_t *t)
{
    const char *s = getenv(t->name);
    return (s && *s) ? s : NULL;
}

/* A size in the unit the user would write: 1048576 -> "1M", 16385 -> "16385". */
static void size_text(double v, char *buf, size_t len)
{
    static const char suffix[] = "GMK";
    long long n = (long long)v;
    for (int i = 0; i < 3; i++) {
        long long unit = 1LL << (10 * (3 - i));
        if (n != 0 && n % unit == 0) {
            snprintf(buf, len, "%lld%c", n / unit, suffix[i]);
            return;
        }
    }
    snprintf(buf, len, "%lld", n);
}

static void number_text(const rd_tunable_t *t, double v, char *buf, size_t len)
{
    if (t->type == RD_TUN_SIZE)
        size_text(v, buf, len);
    else if (t->type == RD_TUN_REAL)
        snprintf(buf, len, "%g", v);
    else
        snprintf(buf, len, "%lld", (long long)v);
}

void rd_tunable_accepted(const rd_tunable_t *t, char *buf, size_t len)
{
    char lo[32], hi[32];
    switch (t->type) {
    case RD_TUN_BOOL:
        snprintf(buf, len, "1/0, yes/no, on/off or true/false");
        return;
    case RD_TUN_STR:
        if (t->choices)
            snprintf(buf, len, "one of %s", t->choices);
        else
            snprintf(buf, len, "any text");
        return;
    default:
        break;
    }
    const char *what = t->type == RD_TUN_SIZE ? "a size (K/M/G suffixes)"
                       : t->type == RD_TUN_REAL ? "a number" : "a whole number";
    if (t->min == 0 && t->max == 0) {
        snprintf(buf, len, "%s", what);
        return;
    }
    number_text(t, t->min, lo, sizeof(lo));
    number_text(t, t->max, hi, sizeof(hi));
    snprintf(buf, len, "%s from %s to %s", what, lo, hi);
}

/* The word w is one of the comma-separated choices. */
static int is_choice(const char *choices, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = choices; *p;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k == n && strncmp(p, w, n) == 0)
            return 1;
        p += k + (e != NULL);
    }
    return 0;
}

static int parse_bool(const char *s, double *num)
{
    static const char *const yes[] = { "1", "yes", "on", "true" };
    static const char *const no[] = { "0", "no", "off", "false" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (!strcasecmp(s, yes[i])) {
            *num = 1;
            return 0;
        }
        if (!strcasecmp(s, no[i])) {
            *num = 0;
            return 0;
        }
    }
    return -1;
}

static int parse_number(const rd_tunable_t *t, const char *s, double *num)
{
    char *end;
    errno = 0;
    if (t->type == RD_TUN_SIZE) {
        long long v;
        if (rd_env_parse_size(s, &v) != 0)
            return -1;
        *num = (double)v;
        return 0;
    }
    if (t->type == RD_TUN_REAL) {
        double v = strtod(s, &end);
        if (end == s || *end || errno || !isfinite(v))
            return -1;
        *num = v;
        return 0;
    }
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno)
        return -1;
    *num = (double)v;
    return 0;
}

int rd_tunable_parse(const rd_tunable_t *t, const char *text, double *num)
{
    char acc[96];
    double v = 0;
    int bad;
    switch (t->type) {
    case RD_TUN_BOOL:
        bad = parse_bool(text, &v);
        break;
    case RD_TUN_STR:
        bad = t->choices && !is_choice(t->choices, text);
        break;
    default:
        bad = parse_number(t, text, &v) != 0 ||
              (!(t->min == 0 && t->max == 0) && (v < t->min || v > t->max));
        break;
    }
    if (bad) {
        rd_tunable_accepted(t, acc, sizeof(acc));
        rd_err_detail("%s=\"%s\" is not valid: expected %s", t->name, text, acc);
        return RD_EINVAL;
    }
    if (num)
        *num = v;
    return RD_OK;
}

void rd_tunable_default_text(const rd_tunable_t *t, char *buf, size_t len)
{
    if (t->flags & RD_TUN_F_UNSET)
        snprintf(buf, len, "unset");
    else if (t->type == RD_TUN_STR)
        snprintf(buf, len, "%s", t->dflt_str ? t->dflt_str : "unset");
    else
        number_text(t, t->dflt, buf, len);
}

int rd_tunable_int(const rd_tunable_t *t, long long *out)
{
    const char *s = rd_tunable_getenv(t);
    double v = t->dflt;
    int rc = s ? rd_tunable_parse(t, s, &v) : RD_OK;
    if (rc == RD_OK)
        *out = (long long)v;
    return rc;
}

int rd_tunable_real(const rd_tunable_t *t, double *out)
{
    const char *s = rd_tunable_getenv(t);
    double v = t->dflt;
    int rc = s ? rd_tunable_parse(t, s, &v) : RD_OK;
    if (rc == RD_OK)
        *out = v;
    return rc;
}

int rd_tunable_str(const rd_tunable_t *t, const char **out)
{
    const char *s = rd_tunable_getenv(t);
    if (!s) {
        *out = t->dflt_str;
        return RD_OK;
    }
    int rc = rd_tunable_parse(t, s, NULL);
    *out = rc == RD_OK ? s : t->dflt_str;
    return rc;
}
