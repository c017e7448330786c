/*
 * The size syntax of RDMPI_* values ("64K", "1m", "4096"). Tunables are
 * read through their layer's table (util/tunable.h), which uses it.
 */
#ifndef RD_UTIL_ENV_H
#define RD_UTIL_ENV_H

/* Integer with optional K/M/G (or KB/MB/GB) suffix, powers of 1024; returns
 * 0 on success, else nonzero with *out untouched. */
int rd_env_parse_size(const char *s, long long *out);

#endif
