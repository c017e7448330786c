/*
 * Which addresses a rank publishes for the TCP transport, and which of a
 * peer's published addresses it connects to (tcp_addr.c). No sockets here:
 * both work on lists, so the unit test (test/unit/test_tcp_addr) can feed
 * made-up interfaces.
 */
#ifndef RD_TRANSPORT_TCP_TCP_ADDR_H
#define RD_TRANSPORT_TCP_TCP_ADDR_H

#include <ifaddrs.h>

#include "transport/tcp/tcp_wire.h"

/* Fills out[0..max) with the addresses to publish, from the interfaces in
 * ifs (a getifaddrs list) and spec (RDMPI_TCP_IF, or NULL):
 *  - spec: comma-separated interface names or CIDR blocks, in that order;
 *    for a name its IPv4 addresses before its IPv6 ones;
 *  - NULL: every interface that is up and not loopback, IPv4 addresses
 *    before IPv6; if there is none, 127.0.0.1.
 * Link-local IPv6 addresses are never used (a peer cannot know their scope).
 * Returns how many (at least 1), or 0 when spec matches nothing. */
int rd_tcp_addrs_collect(const struct ifaddrs *ifs, const char *spec, rd_tcp_ent_t *out, int max);

/* Which of the peer's n addresses theirs[] to connect to, given ours mine[]
 * (nmine of them); same_node: the peer runs on our node. Remote peer: the
 * first of its addresses that shares a network (prefix) with one of ours,
 * else its first; an address that is also one of ours is skipped (a
 * private bridge such as docker0 has the same address on every host and
 * would lead back to us). Same node: its first. Returns an index < n. */
int rd_tcp_addr_pick(const rd_tcp_ent_t *mine, int nmine, const rd_tcp_ent_t *theirs, int n,
                     int same_node);

/* Is a inside the CIDR block spec[0..len) ("10.0.0.0/8", "fd00::/8")? */
int rd_tcp_in_cidr(const rd_tcp_ent_t *a, const char *spec, size_t len);

#endif
