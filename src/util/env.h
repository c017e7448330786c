/*
 * Plain environment readers. Tunables are read through their layer's table
 * (util/tunable.h), which fails on a bad value; these helpers return the
 * default for a malformed value, for callers not yet reading through a
 * table. rd_env_parse_size is the size syntax both share.
 */
#ifndef RD_UTIL_ENV_H
#define RD_UTIL_ENV_H

#include <stddef.h>

/* Integer with optional K/M/G suffix (powers of 1024). */
long long rd_env_size(const char *name, long long dflt);
/* Plain integer. */
long rd_env_long(const char *name, long dflt);
/* String or dflt when unset/empty. */
const char *rd_env_str(const char *name, const char *dflt);
/* Boolean: 1/0, yes/no, on/off, true/false. */
int rd_env_bool(const char *name, int dflt);

/* Parse a size string ("64K", "1m", "4096"); returns 0 on success. Exposed for tests. */
int rd_env_parse_size(const char *s, long long *out);

#endif
