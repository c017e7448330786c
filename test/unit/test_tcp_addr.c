/*
 * Unit tests of the TCP transport's address choice (src/transport/tcp/
 * tcp_addr.c): what a rank publishes from made-up interface lists (with and
 * without RDMPI_TCP_IF), and which of a peer's addresses it connects to
 * (the one on a network we share, never one of our own on a remote peer).
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "transport/tcp/tcp_addr.h"

/* A made-up interface list: up to 8 entries, linked in order. */
typedef struct fake_if {
    struct ifaddrs ifa;
    struct sockaddr_storage addr, mask;
    char name[16];
} fake_if_t;

static fake_if_t fifs[8];
static int nfifs;

/* Adds interface name with address text/prefix (IPv4 or IPv6). */
static void fake_add(const char *name, const char *text, int prefix, unsigned flags)
{
    fake_if_t *f = &fifs[nfifs];
    memset(f, 0, sizeof(*f));
    snprintf(f->name, sizeof(f->name), "%s", name);
    if (strchr(text, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&f->addr, *m = (struct sockaddr_in6 *)&f->mask;
        a->sin6_family = m->sin6_family = AF_INET6;
        inet_pton(AF_INET6, text, &a->sin6_addr);
        for (int i = 0; i < prefix; i++)
            m->sin6_addr.s6_addr[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&f->addr, *m = (struct sockaddr_in *)&f->mask;
        a->sin_family = m->sin_family = AF_INET;
        inet_pton(AF_INET, text, &a->sin_addr);
        m->sin_addr.s_addr = prefix ? htonl(~0u << (32 - prefix)) : 0;
    }
    f->ifa.ifa_name = f->name;
    f->ifa.ifa_flags = flags;
    f->ifa.ifa_addr = (struct sockaddr *)&f->addr;
    f->ifa.ifa_netmask = (struct sockaddr *)&f->mask;
    if (nfifs > 0)
        fifs[nfifs - 1].ifa.ifa_next = &f->ifa;
    nfifs++;
}

static struct ifaddrs *fake_list(void)
{
    return nfifs ? &fifs[0].ifa : NULL;
}

/* An entry from text/prefix. */
static rd_tcp_ent_t ent(const char *text, int prefix)
{
    rd_tcp_ent_t e;
    memset(&e, 0, sizeof(e));
    e.family = strchr(text, ':') ? 6 : 4;
    e.prefix = (uint8_t)prefix;
    inet_pton(e.family == 4 ? AF_INET : AF_INET6, text, e.addr);
    return e;
}

static int ent_is(const rd_tcp_ent_t *e, const char *text, int prefix)
{
    rd_tcp_ent_t want = ent(text, prefix);
    return e->family == want.family && e->prefix == want.prefix &&
           memcmp(e->addr, want.addr, 16) == 0;
}

static void hosts_two_nets(void)
{
    nfifs = 0;
    fake_add("lo", "127.0.0.1", 8, IFF_UP | IFF_LOOPBACK);
    fake_add("eth0", "10.1.0.5", 16, IFF_UP);
    fake_add("ib0", "192.168.7.5", 24, IFF_UP);
    fake_add("eth0", "fe80::1", 64, IFF_UP);        /* link-local: never */
    fake_add("eth0", "fd00:1::5", 64, IFF_UP);
    fake_add("down0", "172.20.0.5", 16, 0);         /* down: never */
}

static void test_collect_default(void)
{
    hosts_two_nets();
    rd_tcp_ent_t out[RD_TCP_ADDRS_MAX];
    int n = rd_tcp_addrs_collect(fake_list(), NULL, out, RD_TCP_ADDRS_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT(ent_is(&out[0], "10.1.0.5", 16));
    CU_ASSERT(ent_is(&out[1], "192.168.7.5", 24));
    CU_ASSERT(ent_is(&out[2], "fd00:1::5", 64));
    /* Bounded. */
    CU_ASSERT_EQUAL(rd_tcp_addrs_collect(fake_list(), NULL, out, 2), 2);
}

static void test_collect_loopback_only(void)
{
    nfifs = 0;
    fake_add("lo", "127.0.0.1", 8, IFF_UP | IFF_LOOPBACK);
    rd_tcp_ent_t out[RD_TCP_ADDRS_MAX];
    CU_ASSERT_EQUAL_FATAL(rd_tcp_addrs_collect(fake_list(), NULL, out, RD_TCP_ADDRS_MAX), 1);
    CU_ASSERT(ent_is(&out[0], "127.0.0.1", 8));
    nfifs = 0;
    CU_ASSERT_EQUAL_FATAL(rd_tcp_addrs_collect(NULL, NULL, out, RD_TCP_ADDRS_MAX), 1);
    CU_ASSERT(ent_is(&out[0], "127.0.0.1", 8));
}

static void test_collect_spec(void)
{
    hosts_two_nets();
    rd_tcp_ent_t out[RD_TCP_ADDRS_MAX];
    /* Order of the spec; a name's IPv4 before its IPv6. */
    int n = rd_tcp_addrs_collect(fake_list(), "ib0,eth0", out, RD_TCP_ADDRS_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT(ent_is(&out[0], "192.168.7.5", 24));
    CU_ASSERT(ent_is(&out[1], "10.1.0.5", 16));
    CU_ASSERT(ent_is(&out[2], "fd00:1::5", 64));
    n = rd_tcp_addrs_collect(fake_list(), "fd00::/8", out, RD_TCP_ADDRS_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT(ent_is(&out[0], "fd00:1::5", 64));
    n = rd_tcp_addrs_collect(fake_list(), "lo", out, RD_TCP_ADDRS_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT(ent_is(&out[0], "127.0.0.1", 8));
    CU_ASSERT_EQUAL(rd_tcp_addrs_collect(fake_list(), "10.2.0.0/16", out, RD_TCP_ADDRS_MAX), 0);
    CU_ASSERT_EQUAL(rd_tcp_addrs_collect(fake_list(), "eth9", out, RD_TCP_ADDRS_MAX), 0);
    CU_ASSERT_EQUAL(rd_tcp_addrs_collect(fake_list(), "down0", out, RD_TCP_ADDRS_MAX), 0);
    CU_ASSERT_EQUAL(rd_tcp_addrs_collect(fake_list(), "10.0.0.0/x", out, RD_TCP_ADDRS_MAX), 0);
}

static void test_cidr(void)
{
    rd_tcp_ent_t a = ent("10.1.2.3", 16);
    CU_ASSERT(rd_tcp_in_cidr(&a, "10.0.0.0/8", 10));
    CU_ASSERT(rd_tcp_in_cidr(&a, "10.1.2.3/32", 11));
    CU_ASSERT(rd_tcp_in_cidr(&a, "0.0.0.0/0", 9));
    CU_ASSERT(!rd_tcp_in_cidr(&a, "10.2.0.0/16", 11));
    CU_ASSERT(!rd_tcp_in_cidr(&a, "10.0.0.0/33", 11));
    CU_ASSERT(!rd_tcp_in_cidr(&a, "10.0.0.0", 8));
    CU_ASSERT(!rd_tcp_in_cidr(&a, "fd00::/8", 8));
    rd_tcp_ent_t b = ent("fd00:1::5", 64);
    CU_ASSERT(rd_tcp_in_cidr(&b, "fd00::/8", 8));
    CU_ASSERT(!rd_tcp_in_cidr(&b, "fe00::/8", 8));
}

static void test_pick(void)
{
    /* Two hosts on a management net (10.1/16) and a data net (192.168.7/24);
     * the peer lists its management address first. */
    rd_tcp_ent_t mine[] = { ent("192.168.7.5", 24), ent("172.17.0.1", 16) };
    rd_tcp_ent_t theirs[] = { ent("172.17.0.1", 16), ent("10.1.0.6", 16),
                              ent("192.168.7.6", 24) };
    CU_ASSERT_EQUAL(rd_tcp_addr_pick(mine, 2, theirs, 3, 0), 2);
    /* No shared network: its first address that is not also ours (the
     * docker0-like 172.17.0.1 would lead back to us). */
    rd_tcp_ent_t only_mgmt[] = { ent("192.168.9.5", 24), ent("172.17.0.1", 16) };
    CU_ASSERT_EQUAL(rd_tcp_addr_pick(only_mgmt, 2, theirs, 3, 0), 1);
    /* Same node: the first, whatever it is. */
    CU_ASSERT_EQUAL(rd_tcp_addr_pick(mine, 2, theirs, 3, 1), 0);
    /* IPv6 networks match by prefix too, never across families. */
    rd_tcp_ent_t mine6[] = { ent("fd00:2::1", 64) };
    rd_tcp_ent_t theirs6[] = { ent("10.1.0.6", 16), ent("fd00:1::6", 64), ent("fd00:2::6", 64) };
    CU_ASSERT_EQUAL(rd_tcp_addr_pick(mine6, 1, theirs6, 3, 0), 2);
    /* Every address of the peer is also ours: the first. */
    CU_ASSERT_EQUAL(rd_tcp_addr_pick(theirs, 3, theirs, 3, 0), 0);
    /* One address: that one. */
    CU_ASSERT_EQUAL(rd_tcp_addr_pick(mine, 2, theirs + 1, 1, 0), 0);
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "collect: default", test_collect_default },
        { "collect: loopback only", test_collect_loopback_only },
        { "collect: RDMPI_TCP_IF", test_collect_spec },
        { "cidr", test_cidr },
        { "pick", test_pick },
    };
    return rd_unit_run("tcp_addr", tests, RD_UNIT_COUNT(tests));
}
