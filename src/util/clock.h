/*
 * The monotonic clock, read one way everywhere: timeouts, retry pacing,
 * MPI_Wtime. CLOCK_MONOTONIC does not jump with the wall clock. Inline, so a
 * reading costs what clock_gettime costs (MPI_Wtime and the UD engine's clock
 * are called often). Signed results: callers subtract them for "time left".
 */
#ifndef RD_UTIL_CLOCK_H
#define RD_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t rd_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline int64_t rd_clock_us(void)
{
    return rd_clock_ns() / 1000;
}

static inline int64_t rd_clock_ms(void)
{
    return rd_clock_ns() / 1000000;
}

static inline double rd_clock_s(void)
{
    return (double)rd_clock_ns() * 1e-9;
}

#endif
