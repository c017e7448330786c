/* Per-thread error detail (see errdetail.h). */
#include "util/errdetail.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static __thread char detail[RD_ERR_DETAIL_MAX];

void rd_err_detail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
}

void rd_err_detail_sys(int errnum, const char *fmt, ...)
{
    char ebuf[128];
    /* The GNU strerror_r: thread-safe, returns the text (maybe not in ebuf). */
    const char *etext = strerror_r(errnum, ebuf, sizeof(ebuf));
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof(detail))
        snprintf(detail + n, sizeof(detail) - (size_t)n, ": %s", etext);
}

size_t rd_err_detail_take(char *buf, size_t len)
{
    size_t n = strlen(detail);
    if (len == 0)
        return 0;
    if (n >= len)
        n = len - 1;
    memcpy(buf, detail, n);
    buf[n] = '\0';
    detail[0] = '\0';
    return n;
}

const char *rd_err_detail_peek(void)
{
    return detail;
}

void rd_err_detail_clear(void)
{
    detail[0] = '\0';
}
