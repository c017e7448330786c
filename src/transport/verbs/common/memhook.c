/*
 * Memory-release interception (see memhook.h). The interposed functions run
 * in any thread and possibly in signal handlers: they never allocate, and
 * record ranges in a fixed array under a spin lock held for a few stores.
 */
#include "transport/verbs/common/memhook.h"

#include <malloc.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RD_MEMHOOK_SLOTS 64      /* ranges recorded between two drains */

#define RD_EXPORT __attribute__((visibility("default")))

static struct {
    atomic_int enabled;
    atomic_flag lock;
    atomic_uint count;           /* recorded ranges (fast emptiness check) */
    int overflow;
    struct { uintptr_t start; size_t len; } r[RD_MEMHOOK_SLOTS];
} hook = { .lock = ATOMIC_FLAG_INIT };

static void note(const void *addr, size_t len)
{
    if (!atomic_load_explicit(&hook.enabled, memory_order_relaxed) || len == 0)
        return;
    while (atomic_flag_test_and_set_explicit(&hook.lock, memory_order_acquire))
        ;
    unsigned n = atomic_load_explicit(&hook.count, memory_order_relaxed);
    if (n < RD_MEMHOOK_SLOTS) {
        hook.r[n].start = (uintptr_t)addr;
        hook.r[n].len = len;
    } else {
        hook.overflow = 1;
    }
    atomic_store_explicit(&hook.count, n + 1, memory_order_relaxed);
    atomic_flag_clear_explicit(&hook.lock, memory_order_release);
}

void rd_memhook_enable(void)
{
    if (atomic_exchange(&hook.enabled, 1))
        return;
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, -1);
}

void rd_memhook_disable(void)
{
    atomic_store(&hook.enabled, 0);
    while (atomic_flag_test_and_set_explicit(&hook.lock, memory_order_acquire))
        ;
    atomic_store_explicit(&hook.count, 0, memory_order_relaxed);
    hook.overflow = 0;
    atomic_flag_clear_explicit(&hook.lock, memory_order_release);
}

void rd_memhook_drain(void (*fn)(void *arg, uintptr_t start, size_t len), void *arg)
{
    if (atomic_load_explicit(&hook.count, memory_order_acquire) == 0)
        return;
    struct { uintptr_t start; size_t len; } r[RD_MEMHOOK_SLOTS];
    while (atomic_flag_test_and_set_explicit(&hook.lock, memory_order_acquire))
        ;
    unsigned n = atomic_load_explicit(&hook.count, memory_order_relaxed);
    int overflow = hook.overflow;
    if (n > RD_MEMHOOK_SLOTS)
        n = RD_MEMHOOK_SLOTS;
    for (unsigned i = 0; i < n; i++) {
        r[i].start = hook.r[i].start;
        r[i].len = hook.r[i].len;
    }
    atomic_store_explicit(&hook.count, 0, memory_order_relaxed);
    hook.overflow = 0;
    atomic_flag_clear_explicit(&hook.lock, memory_order_release);
    if (overflow) {
        fn(arg, 0, SIZE_MAX);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        fn(arg, r[i].start, r[i].len);
}

/* ---- the interposed functions (exported from libmpi.so) ---- */

RD_EXPORT int munmap(void *addr, size_t len)
{
    note(addr, len);
    return (int)syscall(SYS_munmap, addr, len);
}

RD_EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
    void *want = NULL;
    if (flags & MREMAP_FIXED) {
        va_list ap;
        va_start(ap, flags);
        want = va_arg(ap, void *);
        va_end(ap);
    }
    note(old, old_len);
    void *p = (void *)syscall(SYS_mremap, old, old_len, new_len, flags, want);
    if (p != MAP_FAILED)
        note(p, new_len);
    return p;
}

RD_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    void *p = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED)
        note(p, len);
    return p;
}

RD_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return mmap(addr, len, prot, flags, fd, off);
}

RD_EXPORT int madvise(void *addr, size_t len, int advice)
{
    if (advice == MADV_DONTNEED || advice == MADV_FREE || advice == MADV_REMOVE)
        note(addr, len);
    return (int)syscall(SYS_madvise, addr, len, advice);
}
