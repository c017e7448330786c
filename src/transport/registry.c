/*
 * The transports compiled in, in order of preference: for each peer, p2p
 * uses the first selected transport whose reachable() says yes. shm covers
 * ranks on the same node; the network transports cover the rest.
 */
#include "config.h"

#include "transport/transport.h"

rd_transport_t *const rd_transports[] = {
    &rd_shm_transport,
#ifdef RD_HAVE_VERBS
    &rd_rc_transport,
    &rd_ud_transport,
#endif
    &rd_tcp_transport,
    NULL
};
