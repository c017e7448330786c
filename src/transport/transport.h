/*
 * The transport interface: the only way the p2p layer talks to a network.
 *
 * A transport moves opaque byte messages (a small header chosen by p2p plus a
 * payload) between ranks of the job, and calls back into p2p when one
 * arrives. It never sees an MPI object. One ops table per transport
 * (shm/, later tcp/ and verbs/); p2p picks one per peer at init.
 *
 * Ordering: messages from one sender to one receiver over one transport are
 * delivered in the order send() accepted them.
 *
 * Rendezvous: a transport that can read a peer's memory directly (CMA for shm,
 * RDMA Read for verbs) sets RD_TP_CAP_GET and implements mem_key() and get().
 * p2p falls back to streaming fragments with send() when it cannot.
 */
#ifndef RD_TRANSPORT_TRANSPORT_H
#define RD_TRANSPORT_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "boot/boot.h"

/* Upcall on arrival. hdr/payload point into transport memory and are valid
 * only during the call; p2p copies what it keeps. The upcall may call send()
 * and get() of any transport, but never progress(). */
typedef void (*rd_tp_recv_fn)(int peer, const void *hdr, size_t hdrlen,
                              const void *payload, size_t len);

/* Completion of a get(): status is RD_OK or a negative rd_status. */
typedef void (*rd_tp_done_fn)(void *ctx, int status);

/* Optional early-arrival upcalls, for a transport that learns a message's
 * header before its payload (tcp). claim is asked when the header of a
 * message with len > 0 payload bytes has arrived and the payload has not:
 * it returns where the len bytes may be written (they then go straight
 * there, e.g. into a posted receive's buffer) and sets *token, or returns
 * NULL, and the message then arrives later through recv as usual. After a
 * non-NULL claim the transport writes exactly len bytes there and calls
 * claimed(token, RD_OK) once all are in (or a negative status if the
 * connection failed first); recv is not called for that message. Same
 * rules as recv: no progress() from inside. A transport that never calls
 * them pays nothing for them. */
typedef void *(*rd_tp_claim_fn)(int peer, const void *hdr, size_t hdrlen, size_t len,
                                void **token);
typedef void (*rd_tp_claimed_fn)(void *token, int status);

/* Optional failure upcall, for a transport that can tell a peer is gone
 * (RD_TP_CAP_FAILS; tcp: the connection ended without the peer's goodbye,
 * or the peer's listening socket refuses). status is the negative
 * rd_status operations needing that peer end with (RD_EPEER). Called at
 * most once per peer, from progress() only (same rules as recv); from then
 * on send() to that peer returns status. NULL: the transport ends the job
 * instead (rd_boot_abort). */
typedef void (*rd_tp_failed_fn)(int peer, int status);

/* What p2p hands a transport at init. */
typedef struct rd_tp_env {
    const rd_boot_info_t *boot;  /* rank, size, local ranks, job id */
    rd_tp_recv_fn recv;          /* arrival upcall */
    rd_tp_claim_fn claim;        /* optional (NULL: not offered) */
    rd_tp_claimed_fn claimed;    /* set whenever claim is */
    rd_tp_failed_fn peer_failed; /* optional (NULL: abort the job instead) */
} rd_tp_env_t;

enum {
    RD_TP_CAP_GET = 1 << 0,      /* get() reads peer memory directly (single copy) */
    RD_TP_CAP_PUT = 1 << 1,      /* put() writes peer memory directly */
    RD_TP_CAP_FAILS = 1 << 2,    /* reports a peer's failure (env->peer_failed) */
};

/* Largest key mem_key() may produce. */
#define RD_TP_KEY_MAX 32

/* Largest header any layer above passes to send(): every transport sets
 * hdr_max to at least this, and sizes its buffers for it; p2p's largest
 * header (rd_msg_hdr_t, p2p/proto.h) must fit. */
#define RD_TP_HDR_MAX 80

typedef struct rd_transport {
    const char *name;            /* "shm", "tcp", "rc", ... */
    /* caps and eager_max may depend on what init finds (a CMA probe, a
     * device's limits, RDMPI_* settings): they are final once init returns,
     * and p2p reads them only after that. */
    unsigned caps;               /* RD_TP_CAP_* */
    size_t hdr_max;              /* largest header send() accepts */
    size_t eager_max;            /* largest eager message: p2p sends bigger ones by rendezvous */
    /* Largest payload of one rendezvous DATA fragment when p2p streams
     * (no get/put), at least eager_max; 0 means eager_max. Bigger
     * fragments than eager messages cost fewer calls per byte (tcp), while
     * eager messages stay small enough to be copied on arrival. send()
     * accepts payloads up to the larger of the two. */
    size_t frag_max;
    /* Smallest rendezvous message p2p splits, with RD_TP_CAP_GET and
     * RD_TP_CAP_PUT, between the receiver's get of the first half and the
     * sender's put of the second, so that both sides copy at once; 0: never
     * split. RDMPI_RNDV_SPLIT overrides it for every transport. */
    size_t split_min;
    /* Set by init when it published addresses with rd_boot_put: p2p then
     * calls rd_boot_fence once after every init, and only after that fence
     * calls reachable() (which may rd_boot_get what peers published). A
     * transport that connects lazily needs no fence of its own. */
    int fence_after_init;
    /* Set by init of a transport that knows the ranks of this node (shm):
     * how many CPUs they may run on between them (the union of their
     * affinity masks); 0 when unknown. p2p spins only while that is at
     * least the number of local ranks. */
    int node_cpus;

    /* Collective over all ranks: every rank calls init of the same transports
     * in the same order, so init may publish addresses and call rd_boot_fence.
     * A transport that finds nothing to work with (no device) returns RD_OK
     * and answers reachable() with 0. */
    int (*init)(const rd_tp_env_t *env);
    void (*finalize)(void);

    /* Nonzero if this transport can reach job rank peer (never called for self). */
    int (*reachable)(int peer);

    /* Sends hdr (hdrlen <= hdr_max) and payload (len <= eager_max, or
     * frag_max when that is larger) to peer.
     * Returns RD_OK once both are copied or queued by the transport (the
     * caller may reuse its buffers), RD_EAGAIN when it has no room now
     * (nothing was taken; retry after progress), or a negative rd_status. */
    int (*send)(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);

    /* Optional (NULL when send() never holds a message back). A transport
     * may hold back a small message that send() accepted, to write a burst
     * of them with one system call; it writes them out at its next
     * progress() at the latest, or when flush() is called. p2p calls flush
     * after a blocking send, which returns to the application without
     * progress. Cheap when nothing is held; never calls the upcalls. */
    void (*flush)(void);

    /* Optional (RD_TP_CAP_FAILS; else NULL): p2p waits for a message only
     * peer can send. A transport that sees failures only on a connection
     * may open one now, so that a peer that died before ever sending to us
     * is still noticed (its listening socket refuses). Cheap when there is
     * nothing to do; never calls the upcalls. */
    void (*watch)(int peer);

    /* Polls for arrivals and completions, calling the upcalls. Returns the
     * number of events handled (0 when idle), or a negative rd_status. */
    int (*progress)(void);

    /* Rendezvous (RD_TP_CAP_GET / RD_TP_CAP_PUT; NULL otherwise). mem_key
     * describes local memory [buf, buf+len) so that a peer can read or write
     * it; key is opaque; *keylen is the room at key on entry (at least
     * RD_TP_KEY_MAX) and the key's length on return. get reads len bytes at
     * remote_addr (inside the memory that key describes, on peer) into
     * local; put writes len bytes from local to remote_addr. Each calls
     * done(ctx, status) exactly once, possibly before returning; a bad
     * argument is returned instead (done is then not called). Upcalls may
     * call get and put. */
    int (*mem_key)(const void *buf, size_t len, void *key, size_t *keylen);
    /* Optional (NULL when keys hold nothing): the key mem_key made for
     * exactly [buf, buf+len) will not be used again (the rendezvous it
     * served is over), so the transport may drop what backs it (verbs: the
     * registration's reference in the pin-down cache). */
    void (*mem_release)(const void *buf, size_t len);
    int (*get)(int peer, void *local, uint64_t remote_addr, const void *key,
               size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
    int (*put)(int peer, const void *local, uint64_t remote_addr, const void *key,
               size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
    /* Optional (NULL when the transport has no memory both sides poll; shm
     * has): a bare counter per ordered pair of ranks. signal(peer) raises
     * one signal towards peer; signaled(peer) returns 1 and consumes one
     * signal if peer has raised more than this rank consumed so far, else
     * 0. Both are cheap (a store, a load), never call upcalls, and carry no
     * data and no order with send(). p2p's barrier uses them. */
    void (*signal)(int peer);
    int (*signaled)(int peer);
    /* Optional (NULL when the transport shares no memory between
     * processes; shm does): memory every process this transport reaches
     * on this node maps. area(rank, &len) returns where this process sees
     * the area that job rank rank owns (rank may be this process; len
     * bytes, zero at init, the same len for every rank), or NULL when the
     * transport has none for rank. The transport never reads or writes
     * an area: its layout belongs to the caller (p2p hands it to src/coll,
     * coll_shm.h). */
    void *(*area)(int rank, size_t *len);
} rd_transport_t;

/* Transports compiled in (defined by each transport; init may settle caps
 * and eager_max, so the tables are not const). */
extern rd_transport_t rd_shm_transport;
extern rd_transport_t rd_tcp_transport;
extern rd_transport_t rd_rc_transport;
extern rd_transport_t rd_ud_transport;

/* All of them in order of preference, NULL-terminated (registry.c). */
extern rd_transport_t *const rd_transports[];

/* Default for RDMPI_TRANSPORTS: shm on a node, the best network between. */
#define RD_TRANSPORTS_DEFAULT "shm,rc,tcp"

#endif
