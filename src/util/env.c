/* Reading RDMPI_* variables from the environment (see env.h). */
#include "util/env.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* Nothing below src/api prints, and a malformed value gives the default:
 * every RDMPI_* variable the library reads is in a table that MPI_Init
 * checks first (api/api_tunables.h), so one never gets this far there. */
long long rd_env_size(const char *name, long long dflt)
{
    const char *s = getenv(name);
    long long v;
    if (!s || !*s)
        return dflt;
    if (rd_env_parse_size(s, &v) != 0)
        return dflt;
    return v;
}

long rd_env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return dflt;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end)
        return dflt;
    return v;
}

const char *rd_env_str(const char *name, const char *dflt)
{
    const char *s = getenv(name);
    return (s && *s) ? s : dflt;
}

int rd_env_bool(const char *name, int dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    if (!strcmp(s, "1") || !strcasecmp(s, "yes") || !strcasecmp(s, "on") || !strcasecmp(s, "true"))
        return 1;
    if (!strcmp(s, "0") || !strcasecmp(s, "no") || !strcasecmp(s, "off") || !strcasecmp(s, "false"))
        return 0;
    return dflt;
}
