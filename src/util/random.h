/*
 * Unpredictable numbers for names other users must not guess (shared
 * memory segments): the kernel's random source, without blocking.
 */
#ifndef RD_UTIL_RANDOM_H
#define RD_UTIL_RANDOM_H

#include <stdint.h>

/* 64 random bits from getrandom. Before the kernel's pool is ready (early
 * boot) it mixes the clock, the pid and an address instead: still hard to
 * guess, and the callers' O_EXCL with retries keeps a guess from costing
 * more than a try. */
uint64_t rd_random64(void);

#endif
