/*
 * TCP transport (tcp.c): rd_tcp_transport, declared with the other
 * transports in transport/transport.h. Wire format in tcp_wire.h, frame
 * parser in tcp_parse.h. Tunables (doc/tunables.md): RDMPI_TCP_IF,
 * RDMPI_TCP_EAGER_MAX, RDMPI_TCP_SENDQ_MAX.
 */
#ifndef RD_TRANSPORT_TCP_TCP_H
#define RD_TRANSPORT_TCP_TCP_H

#include "transport/transport.h"

#endif
