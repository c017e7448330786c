/*
 * Tunables: every RDMPI_* environment variable is declared once, in its
 * layer's table (a <name>_tunables.c beside the code), with its type,
 * default, accepted range and a one-line meaning. The same table is read by
 * the layer, printed by rdmpi_info and checked against doc/tunables.md by
 * `make check`.
 *
 * One rule for bad values: a value that does not parse, or lies outside the
 * accepted range, or is not one of the listed choices, is an error. The
 * accessor returns RD_EINVAL and records the detail (util/errdetail.h) naming
 * the variable, the value and what is accepted; the layer's init fails with
 * it, and MPI_Init stops with that text. An unset or empty variable is the
 * default.
 */
#ifndef RD_UTIL_TUNABLE_H
#define RD_UTIL_TUNABLE_H

#include <stddef.h>

typedef enum rd_tunable_type {
    RD_TUN_BOOL,    /* 1/0, yes/no, on/off, true/false */
    RD_TUN_INT,     /* a whole number (may be negative) */
    RD_TUN_SIZE,    /* bytes: a whole number with an optional K/M/G suffix (powers of 1024) */
    RD_TUN_REAL,    /* a decimal number */
    RD_TUN_STR,     /* free text, or one of choices when the table lists them */
} rd_tunable_type_t;

enum {
    RD_TUN_F_TEST = 1 << 0,     /* for tests only: rdmpi_info shows it with --all */
    RD_TUN_F_UNSET = 1 << 1,    /* no fixed default: unset, the layer decides at run
                                 * time (numbers read as dflt, outside min..max) */
    RD_TUN_F_TOOL = 1 << 2,     /* read by a script or the launcher, not the library */
};

/* The largest size any table accepts where nothing smaller is needed (1 TiB). */
#define RD_TUN_SIZE_MAX ((double)(1LL << 40))

typedef struct rd_tunable {
    const char *name;           /* "RDMPI_SHM_EAGER_MAX" */
    rd_tunable_type_t type;
    double dflt;                /* default of numbers and booleans */
    const char *dflt_str;       /* default of RD_TUN_STR (NULL: unset) */
    double min, max;            /* accepted range of numbers (both 0: any) */
    const char *choices;        /* RD_TUN_STR: accepted words, "get,put,auto" (exact
                                 * case); NULL: any */
    const char *meaning;        /* one line */
    unsigned flags;
} rd_tunable_t;

/* One table entry each, so that a table reads one variable per line or two.
 * Numbers: name, default, min, max, meaning; booleans: name, default,
 * meaning; strings: name, default (NULL: unset), choices (NULL: any),
 * meaning. The _F forms take the RD_TUN_F_* flags before the meaning. */
#define RD_TUNE_NUM_F(ty, n, d, lo, hi, fl, m) \
    { .name = (n), .type = (ty), .dflt = (d), .min = (lo), .max = (hi), .meaning = (m), \
      .flags = (fl) }
#define RD_TUNE_SIZE(n, d, lo, hi, m) RD_TUNE_NUM_F(RD_TUN_SIZE, n, d, lo, hi, 0, m)
#define RD_TUNE_INT(n, d, lo, hi, m) RD_TUNE_NUM_F(RD_TUN_INT, n, d, lo, hi, 0, m)
#define RD_TUNE_SIZE_F(n, d, lo, hi, fl, m) RD_TUNE_NUM_F(RD_TUN_SIZE, n, d, lo, hi, fl, m)
#define RD_TUNE_INT_F(n, d, lo, hi, fl, m) RD_TUNE_NUM_F(RD_TUN_INT, n, d, lo, hi, fl, m)
#define RD_TUNE_REAL_F(n, d, lo, hi, fl, m) RD_TUNE_NUM_F(RD_TUN_REAL, n, d, lo, hi, fl, m)
#define RD_TUNE_BOOL(n, d, m) RD_TUNE_NUM_F(RD_TUN_BOOL, n, d, 0, 0, 0, m)
#define RD_TUNE_STR_F(n, d, ch, fl, m) \
    { .name = (n), .type = RD_TUN_STR, .dflt_str = (d), .choices = (ch), .meaning = (m), \
      .flags = (fl) }
#define RD_TUNE_STR(n, d, ch, m) RD_TUNE_STR_F(n, d, ch, 0, m)

/* One layer's table, for listing (rdmpi_info, the doc check). */
typedef struct rd_tunable_table {
    const char *layer;          /* "shm", "p2p", ... */
    const char *file;           /* where the layer reads them ("src/transport/shm/shm.c") */
    const rd_tunable_t *t;
    size_t n;
} rd_tunable_table_t;

/* Readers: *out gets the variable's value, or the default when it is unset
 * or empty. RD_OK, or RD_EINVAL with the detail recorded (see above). The
 * type must match the table's (BOOL, INT and SIZE read with rd_tunable_int). */
int rd_tunable_int(const rd_tunable_t *t, long long *out);
int rd_tunable_real(const rd_tunable_t *t, double *out);
/* NULL when unset and without a default. */
int rd_tunable_str(const rd_tunable_t *t, const char **out);

/* Parses text as t's type and checks it against t's range or choices: the
 * one rule every reader applies. RD_OK with *num (numbers, booleans) set, or
 * RD_EINVAL with the detail recorded. */
int rd_tunable_parse(const rd_tunable_t *t, const char *text, double *num);

/* The value in the environment, or NULL when unset or empty. */
const char *rd_tunable_getenv(const rd_tunable_t *t);

/* The default as the user would write it ("4K", "auto", "unset"), into buf. */
void rd_tunable_default_text(const rd_tunable_t *t, char *buf, size_t len);

/* What t accepts, in words ("a size from 64 to 1M"), into buf. */
void rd_tunable_accepted(const rd_tunable_t *t, char *buf, size_t len);

/* Name of a type ("size"). */
const char *rd_tunable_type_name(rd_tunable_type_t type);

#endif
