/* Unpredictable numbers (random.h). */
#include "util/random.h"

#include <stdint.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

uint64_t rd_random64(void)
{
    uint64_t r;
    if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
        return r;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 16) ^
           (uint64_t)(uintptr_t)&r;
}
