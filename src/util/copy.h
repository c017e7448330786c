/*
 * Copies into shared memory that another core reads next: shm ring records
 * and the collectives' publications.
 *
 * From 1 KiB up, on x86-64 CPUs with fast string moves (ERMS), this uses
 * rep movsb instead of memcpy. glibc's memcpy takes a vector loop up to
 * about 2 KiB (its rep_movsb_threshold) and rep movsb above; written by the
 * vector loop, the lines cost the reading core more. np=2 MPI_Bcast of
 * 2 KiB (the reader copying out of the writer's lines): 1.12 us with
 * memcpy, 0.96 us with rep movsb; 1.5 KiB 1.0 -> 0.85 us. At 1 KiB and
 * below, memcpy is as fast or faster.
 */
#ifndef RD_UTIL_COPY_H
#define RD_UTIL_COPY_H

#include <stddef.h>
#include <string.h>

/* Nonzero when rep movsb is the better copy into shared lines (set once,
 * before main, from CPUID). */
extern int rd_copy_erms;

#define RD_COPY_REP_MIN 1025

static inline void rd_copy_shared(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
    if (n >= RD_COPY_REP_MIN && rd_copy_erms) {
        __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
        return;
    }
#endif
    memcpy(dst, src, n);
}

#endif
