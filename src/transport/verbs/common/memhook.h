/*
 * Memory-release interception for the registration cache: tells the cache
 * when an address range may stop being the memory it registered.
 *
 * A registration pins physical pages; if the application unmaps a buffer and
 * later gets new memory at the same address, a cached registration would
 * still point at the old pages and an RDMA operation would move stale data.
 * Two measures close that hole, both active only while a registration cache
 * is in use (rd_memhook_enable):
 *
 *  1. glibc's allocator is told never to give memory back to the kernel
 *     (mallopt M_MMAP_MAX = 0: large blocks come from the heap, not from
 *     mmap; M_TRIM_THRESHOLD = -1: the heaps never shrink). free() then never
 *     changes which pages back an address: a freed and reused heap buffer is
 *     the same pinned memory, so its registration stays right. (The same
 *     trade as Open MPI's leave-pinned mode: freed memory stays in the
 *     process.)
 *  2. munmap, mremap, mmap and madvise(MADV_DONTNEED / MADV_FREE /
 *     MADV_REMOVE) called by the application or any library through the
 *     dynamic linker resolve to libmpi's definitions (memhook.c), which make
 *     the system call and record the range; the cache invalidates every
 *     entry overlapping a recorded range before its next lookup.
 *
 * Known limits: memory that glibc unmapped inside free() for a block
 * allocated before MPI_Init (internal calls bypass the dynamic linker), raw
 * system calls, brk/shmdt issued by the application itself. An address
 * reused in those ways is not seen.
 */
#ifndef RD_TRANSPORT_VERBS_COMMON_MEMHOOK_H
#define RD_TRANSPORT_VERBS_COMMON_MEMHOOK_H

#include <stddef.h>
#include <stdint.h>

/* Starts recording released ranges (idempotent); applies the mallopt settings. */
void rd_memhook_enable(void);
/* Stops recording and forgets what was recorded. */
void rd_memhook_disable(void);

/* Calls fn for every range recorded since the last drain; with overflow set
 * (more ranges than the record holds), fn gets (0, SIZE_MAX): everything. */
void rd_memhook_drain(void (*fn)(void *arg, uintptr_t start, size_t len), void *arg);

#endif
