/*
 * Address choice of the TCP transport (see tcp_addr.h): what a rank
 * publishes, and which of a peer's addresses it connects to. The route to a
 * peer usually leaves through the interface on the peer's network, so the
 * peer address sharing a prefix with one of ours is the one to use; hosts
 * with a management network and a fast data network then talk over the
 * network they share, without RDMPI_TCP_IF.
 */
#include "transport/tcp/tcp_addr.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static int addr_len(const rd_tcp_ent_t *e)
{
    return e->family == 4 ? 4 : 16;
}

/* Do a and b agree on their first bits bits? */
static int prefix_equal(const uint8_t *a, const uint8_t *b, int bits)
{
    for (int i = 0; i < bits; i++) {
        unsigned m = 0x80u >> (i % 8);
        if ((a[i / 8] & m) != (b[i / 8] & m))
            return 0;
    }
    return 1;
}

int rd_tcp_in_cidr(const rd_tcp_ent_t *a, const char *spec, size_t len)
{
    char buf[INET6_ADDRSTRLEN + 8];
    if (len >= sizeof(buf))
        return 0;
    memcpy(buf, spec, len);
    buf[len] = '\0';
    char *slash = strchr(buf, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    char *end;
    long bits = strtol(slash + 1, &end, 10);
    uint8_t net[16];
    int fam = strchr(buf, ':') ? 6 : 4;
    if (fam != a->family || inet_pton(fam == 4 ? AF_INET : AF_INET6, buf, net) != 1)
        return 0;
    if (*end || end == slash + 1 || bits < 0 || bits > 8 * addr_len(a))
        return 0;
    return prefix_equal(a->addr, net, (int)bits);
}

/* Number of leading one bits of a netmask of n bytes. */
static int mask_bits(const uint8_t *m, int n)
{
    int bits = 0;
    for (int i = 0; i < n; i++)
        for (unsigned b = 0x80; b; b >>= 1) {
            if (!(m[i] & b))
                return bits;
            bits++;
        }
    return bits;
}

/* ifa as an entry; 0 if it has no usable address. */
static int entry_of(const struct ifaddrs *ifa, rd_tcp_ent_t *e)
{
    if (!ifa->ifa_addr || !(ifa->ifa_flags & IFF_UP))
        return 0;
    memset(e, 0, sizeof(*e));
    const struct sockaddr *sa = ifa->ifa_addr, *nm = ifa->ifa_netmask;
    if (sa->sa_family == AF_INET) {
        e->family = 4;
        memcpy(e->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        e->prefix = nm && nm->sa_family == AF_INET
                        ? (uint8_t)mask_bits((const uint8_t *)&((const struct sockaddr_in *)nm)->sin_addr, 4)
                        : 32;
        return 1;
    }
    if (sa->sa_family != AF_INET6)
        return 0;
    const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
    if (IN6_IS_ADDR_LINKLOCAL(a6))
        return 0;
    e->family = 6;
    memcpy(e->addr, a6, 16);
    e->prefix = nm && nm->sa_family == AF_INET6
                    ? (uint8_t)mask_bits((const uint8_t *)&((const struct sockaddr_in6 *)nm)->sin6_addr, 16)
                    : 128;
    return 1;
}

static int same_addr(const rd_tcp_ent_t *a, const rd_tcp_ent_t *b)
{
    return a->family == b->family && memcmp(a->addr, b->addr, (size_t)addr_len(a)) == 0;
}

/* Appends e unless it is there already or out is full. */
static void add(rd_tcp_ent_t *out, int *n, int max, const rd_tcp_ent_t *e)
{
    for (int i = 0; i < *n; i++)
        if (same_addr(&out[i], e))
            return;
    if (*n < max)
        out[(*n)++] = *e;
}

int rd_tcp_addrs_collect(const struct ifaddrs *ifs, const char *spec, rd_tcp_ent_t *out, int max)
{
    int n = 0;
    rd_tcp_ent_t e;
    if (spec) {
        for (const char *p = spec; *p;) {
            size_t len = strcspn(p, ",");
            int cidr = memchr(p, '/', len) != NULL;
            for (int fam = 4; fam <= 6; fam += 2)
                for (const struct ifaddrs *ifa = ifs; ifa; ifa = ifa->ifa_next) {
                    if (!entry_of(ifa, &e) || e.family != fam)
                        continue;
                    int hit = cidr ? rd_tcp_in_cidr(&e, p, len)
                                   : strlen(ifa->ifa_name) == len &&
                                         strncmp(ifa->ifa_name, p, len) == 0;
                    if (hit)
                        add(out, &n, max, &e);
                }
            p += len;
            if (*p == ',')
                p++;
        }
        return n;
    }
    for (int fam = 4; fam <= 6; fam += 2)
        for (const struct ifaddrs *ifa = ifs; ifa; ifa = ifa->ifa_next)
            if (!(ifa->ifa_flags & IFF_LOOPBACK) && entry_of(ifa, &e) && e.family == fam)
                add(out, &n, max, &e);
    if (n == 0 && max > 0) {
        memset(&out[0], 0, sizeof(out[0]));
        out[0].family = 4;
        out[0].prefix = 8;
        uint32_t lo = htonl(INADDR_LOOPBACK);
        memcpy(out[0].addr, &lo, 4);
        n = 1;
    }
    return n;
}

int rd_tcp_addr_pick(const rd_tcp_ent_t *mine, int nmine, const rd_tcp_ent_t *theirs, int n,
                     int same_node)
{
    if (same_node || n <= 1)
        return 0;
    int first_foreign = -1;
    for (int i = 0; i < n; i++) {
        int ours = 0;
        for (int j = 0; j < nmine && !ours; j++)
            ours = same_addr(&mine[j], &theirs[i]);
        if (ours)
            continue;
        if (first_foreign < 0)
            first_foreign = i;
        for (int j = 0; j < nmine; j++) {
            int bits = mine[j].prefix < theirs[i].prefix ? mine[j].prefix : theirs[i].prefix;
            if (mine[j].family == theirs[i].family && bits > 0 &&
                prefix_equal(mine[j].addr, theirs[i].addr, bits))
                return i;
        }
    }
    return first_foreign >= 0 ? first_foreign : 0;
}
