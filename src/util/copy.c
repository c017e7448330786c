/* See copy.h. */
#include "util/copy.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

int rd_copy_erms;

/* Runs when libmpi is loaded: CPUID leaf 7, EBX bit 9 is ERMS (enhanced
 * rep movsb/stosb). */
__attribute__((constructor)) static void copy_detect(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        rd_copy_erms = (b >> 9) & 1;
#endif
}
