/*
 * Scratch memory for temporary buffers that are needed again on the next
 * call (collective accumulators and staging buffers). glibc returns large
 * freed blocks to the kernel, so a fresh 1 MiB buffer costs 256 page faults
 * every call; measured on MPI_Allreduce of 1 MiB that was 60% of its time.
 * This keeps a few released blocks (RDMPI_SCRATCH_CACHE bytes in all) for
 * reuse. Callers hold the library lock, as every collective does.
 */
#ifndef RD_UTIL_SCRATCH_H
#define RD_UTIL_SCRATCH_H

#include <stddef.h>

/* At least n bytes (max_align_t aligned), or NULL. */
void *rd_scratch_get(size_t n);
/* Gives p (from rd_scratch_get, or NULL) back. */
void rd_scratch_put(void *p);
/* Frees every cached block (MPI_Finalize). */
void rd_scratch_fini(void);

#endif
