/* Parsing the values of RDMPI_* variables (see env.h). */
#include "util/env.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

int rd_env_parse_size(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno || v < 0)
        return -1;
    long long mult = 1;
    switch (tolower((unsigned char)*end)) {
    case '\0': break;
    case 'k': mult = 1LL << 10; end++; break;
    case 'm': mult = 1LL << 20; end++; break;
    case 'g': mult = 1LL << 30; end++; break;
    default: return -1;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0')
        return -1;
    if (v > LLONG_MAX / mult)
        return -1;
    *out = v * mult;
    return 0;
}
