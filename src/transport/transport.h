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
 * Remote memory: a transport that can reach a peer's memory directly (CMA for
 * shm, RDMA for verbs) sets bits in rdma.ops and implements mem_reg(), get(),
 * put() and flush() (and the atomics with RD_TP_RDMA_ATOMIC). p2p's
 * rendezvous falls back to streaming fragments with send() when it cannot.
 *
 * Capabilities are grouped per concern: msg (message limits), rdma, node
 * (node-local shared memory) and fail (failure reporting).
 */
#ifndef RD_TRANSPORT_TRANSPORT_H
#define RD_TRANSPORT_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "util/status.h"

/* Upcall on arrival. hdr/payload point into transport memory and are valid
 * only during the call; p2p copies what it keeps. The upcall may call send()
 * get() and put() of any transport, but never progress(). */
typedef void (*rd_tp_recv_fn)(int peer, const void *hdr, size_t hdrlen,
                              const void *payload, size_t len);

/* Completion of a get(), put(), atomic or flush(): status is RD_OK or a
 * negative rd_status. */
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
 * (fail.reports; tcp: the connection ended without the peer's goodbye,
 * or the peer's listening socket refuses). status is the negative
 * rd_status operations needing that peer end with (RD_EPEER). Called at
 * most once per peer, from progress() only (same rules as recv); from then
 * on send() to that peer returns status. NULL: the transport ends the job
 * instead (rd_boot_abort). */
typedef void (*rd_tp_failed_fn)(int peer, int status);

/* What refusal() says of a peer that reachable() turned down. */
enum {
    RD_TP_REFUSED = 0,           /* both ends use the transport, and it cannot join them */
    RD_TP_ABSENT = 1,            /* the peer does not use the transport */
};

/* What p2p hands a transport at init. */
typedef struct rd_tp_env {
    const rd_boot_info_t *boot;  /* rank, size, local ranks, job id */
    rd_tp_recv_fn recv;          /* arrival upcall */
    rd_tp_claim_fn claim;        /* optional (NULL: not offered) */
    rd_tp_claimed_fn claimed;    /* set whenever claim is */
    rd_tp_failed_fn peer_failed; /* optional (NULL: abort the job instead) */
    void (*notified)(int peer, uint32_t imm); /* put_imm arrival (NULL: none expected) */
} rd_tp_env_t;

/* The largest header send() must accept from p2p: every transport takes
 * headers up to this size (hdr_max >= RD_TP_HDR_MAX), and p2p checks at
 * init that its largest header fits every transport it uses. */
#define RD_TP_HDR_MAX 80

/* Largest remote key mem_reg() may produce. */
#define RD_TP_KEY_MAX 32

/* A registration: local memory [buf, buf+len) that a peer may read, write
 * or update atomically, given the key bytes key[0..keylen). mem_reg fills
 * it; a transport allocates it as the first member of its own record and
 * frees it in mem_dereg. The caller reads the fields and never writes them. */
typedef struct rd_tp_mem {
    const void *buf;
    size_t len;
    size_t keylen;                /* <= RD_TP_KEY_MAX */
    uint8_t key[RD_TP_KEY_MAX];
} rd_tp_mem_t;

/* A registration on the heap for a transport whose key needs nothing
 * freed later (shm, self): [buf, buf+len) with keylen key bytes. RD_OK or
 * RD_ENOMEM; mem_dereg is then free(). */
static inline int rd_tp_mem_new(const void *buf, size_t len, const void *key, size_t keylen,
                                rd_tp_mem_t **mem)
{
    rd_tp_mem_t *m = malloc(sizeof(*m));
    if (!m)
        return RD_ENOMEM;
    m->buf = buf;
    m->len = len;
    m->keylen = keylen;
    memcpy(m->key, key, keylen);
    *mem = m;
    return RD_OK;
}

/* Message limits (every transport). */
typedef struct rd_tp_msg_caps {
    size_t hdr_max;              /* largest header send() accepts (>= RD_TP_HDR_MAX) */
    size_t eager_max;            /* largest eager message: p2p sends bigger ones by rendezvous */
    /* Largest payload of one rendezvous DATA fragment when p2p streams
     * (no get/put), at least eager_max; 0 means eager_max. Bigger
     * fragments than eager messages cost fewer calls per byte (tcp), while
     * eager messages stay small enough to be copied on arrival. send()
     * accepts payloads up to the larger of the two. */
    size_t frag_max;
} rd_tp_msg_caps_t;

/* Bits of rd_tp_rdma_caps_t.ops. */
enum {
    RD_TP_RDMA_GET = 1 << 0,     /* get() reads peer memory directly (single copy) */
    RD_TP_RDMA_PUT = 1 << 1,     /* put() writes peer memory directly */
    RD_TP_RDMA_ATOMIC = 1 << 2,  /* fetch_add() and cswap() on 8 bytes of peer memory */
};

/* Remote memory access limits. ops is 0 (and mem_reg, get, put, flush,
 * fetch_add, cswap are NULL) on a transport without it. */
typedef struct rd_tp_rdma_caps {
    unsigned ops;                /* RD_TP_RDMA_* */
    /* 1 when the target's CPU does the work or must poll for it to finish
     * (none of ours today: CMA and RDMA complete without the target). */
    int target_cpu;
    /* Largest put() whose source the transport copies before returning
     * (the caller may reuse it at once); 0: none. */
    size_t inline_max;
    /* Smallest rendezvous message p2p splits, with RD_TP_RDMA_GET and
     * RD_TP_RDMA_PUT, between the receiver's get of the first half and the
     * sender's put of the second, so that both sides copy at once; 0: never
     * split. RDMPI_RNDV_SPLIT overrides it for every transport. */
    size_t split_min;
    /* Largest len of one get() or put(); 0: no limit. */
    size_t len_max;
} rd_tp_rdma_caps_t;

/* Node-local shared memory (shm): signal, signaled, area, wait_mark and
 * waiting are set, and cpus says how many CPUs the ranks of this node may
 * run on between them (the union of their affinity masks); 0 when
 * unknown. p2p spins only while that is at least the number of local
 * ranks. */
typedef struct rd_tp_node_caps {
    int cpus;
} rd_tp_node_caps_t;

/* Failure reporting: 1 when the transport reports a peer's failure through
 * env->peer_failed (tcp, rc); watch() may then be set. */
typedef struct rd_tp_fail_caps {
    int reports;
} rd_tp_fail_caps_t;

typedef struct rd_transport {
    const char *name;            /* "shm", "tcp", "rc", ... */
    /* The limits may depend on what init finds (a CMA probe, a device's
     * limits, RDMPI_* settings): they are final once init returns, and p2p
     * reads them only after that. */
    rd_tp_msg_caps_t msg;
    rd_tp_rdma_caps_t rdma;
    rd_tp_node_caps_t node;
    rd_tp_fail_caps_t fail;
    /* Set by init when it published addresses with rd_boot_put: p2p then
     * calls rd_boot_fence once after every init, and only after that fence
     * calls reachable() (which may rd_boot_get what peers published). A
     * transport that connects lazily needs no fence of its own. */
    int fence_after_init;
    /* How many times init calls rd_boot_fence itself (shm: 3). A rank whose
     * RDMPI_TRANSPORTS leaves this transport out fences as often in its
     * place, so that fences line up when the variable differs between
     * ranks; the fence after init is made whenever a transport compiled in
     * asks for it, used here or not. */
    int init_fences;

    /* Collective over all ranks: every rank goes through the transports in
     * the same order, calling init of those its RDMPI_TRANSPORTS names and
     * fencing init_fences times for the others, so init may publish
     * addresses and call rd_boot_fence. A transport that finds nothing to
     * work with (no device) returns RD_OK and answers reachable() with 0
     * (and refusal() says why). */
    int (*init)(const rd_tp_env_t *env);
    void (*finalize)(void);

    /* Nonzero if this transport can reach job rank peer (never called for self). */
    int (*reachable)(int peer);

    /* Why reachable(peer) said 0, for the error message that names the
     * peer: writes a phrase to buf ("no RDMA device: ...", "rank 3 is on
     * another node") and returns RD_TP_ABSENT when peer does not use this
     * transport at all (it is not in that rank's RDMPI_TRANSPORTS), else
     * RD_TP_REFUSED. Called after the fence that follows init. */
    int (*refusal)(int peer, char *buf, size_t len);

    /* Sends hdr (hdrlen <= msg.hdr_max) and payload (len <= msg.eager_max,
     * or msg.frag_max when that is larger) to peer.
     * Returns RD_OK once both are copied or queued by the transport (the
     * caller may reuse its buffers), RD_EAGAIN when it has no room now
     * (nothing was taken; retry after progress), or a negative rd_status. */
    int (*send)(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);

    /* Optional (NULL when send() never holds a message back). A transport
     * may hold back a small message that send() accepted, to write a burst
     * of them with one system call; it writes them out at its next
     * progress() at the latest, or when push() is called. p2p calls push
     * after a blocking send, which returns to the application without
     * progress. Cheap when nothing is held; never calls the upcalls. */
    void (*push)(void);

    /* Optional (fail.reports; else NULL): p2p waits for a message only
     * peer can send. A transport that sees failures only on a connection
     * may open one now, so that a peer that died before ever sending to us
     * is still noticed (its listening socket refuses). Cheap when there is
     * nothing to do; never calls the upcalls. */
    void (*watch)(int peer);

    /* Polls for arrivals and completions, calling the upcalls. Returns the
     * number of events handled (0 when idle), or a negative rd_status. */
    int (*progress)(void);

    /* ---- Remote memory access (rdma.ops; NULL when not offered) ----
     *
     * mem_reg registers [buf, buf+len) (len > 0) so that peers may reach
     * it: *mem gets a handle whose key bytes a peer passes to get, put and
     * the atomics. It returns RD_OK, or a negative rd_status (*mem is then
     * untouched). Registering the same memory again is cheap (verbs: the
     * pin-down cache; shm: only the key is built). mem_dereg ends a
     * handle: no peer may use its key any more (verbs: the cache's
     * reference is dropped); the memory itself stays the caller's.
     *
     * get reads len bytes at remote_addr on peer (inside the memory that
     * key describes there) into local; put writes len bytes from local to
     * remote_addr. lmem is a handle of this side covering [local,
     * local+len), or NULL: the transport then registers through its cache
     * or copies. Each calls done(ctx, status) exactly once when the bytes
     * have arrived (get: here; put: in the peer's memory), possibly before
     * returning. done may be NULL: the operation then completes only
     * through flush (a transport may then skip its own completion, rc
     * signals selectively). A bad argument (a key that does not cover the
     * range, an unreachable peer) is returned instead and done is not
     * called. The caller keeps local valid (and, for put, unchanged)
     * until the operation completed, by done or by a flush issued after
     * it, unless put's len is at most rdma.inline_max. Upcalls may call get
     * and put. Order between operations is not kept: only flush says they
     * are done.
     *
     * flush calls done(ctx, status) once every get, put and atomic issued
     * to peer before the call has completed at the peer (rc: the RDMA
     * operations' completions, no round trip to the target's CPU); peer -1
     * flushes every peer. status is RD_OK, or the first error among them
     * that had no done of its own to report it. done is required; it may
     * run before flush returns.
     *
     * Atomics (RD_TP_RDMA_ATOMIC): on the naturally aligned 8 bytes at
     * remote_addr on peer, fetch_add adds add and cswap stores swap if they
     * equal compare; both write the value found there before to *result
     * before done is called (or before a flush completes when done is
     * NULL). *result must stay valid until then. Atomics of one transport
     * are atomic against each other, not against the peer's CPU. */
    int (*mem_reg)(const void *buf, size_t len, rd_tp_mem_t **mem);
    void (*mem_dereg)(rd_tp_mem_t *mem);
    int (*get)(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
               const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
    int (*put)(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
               const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
    int (*flush)(int peer, rd_tp_done_fn done, void *ctx);
    int (*fetch_add)(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                     uint64_t add, uint64_t *result, rd_tp_done_fn done, void *ctx);
    int (*cswap)(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                 uint64_t compare, uint64_t swap, uint64_t *result, rd_tp_done_fn done,
                 void *ctx);
    /* Optional (NULL: not offered): put, and once its bytes are in the
     * peer's memory the peer's env->notified(sender, imm) runs from its
     * progress (rc: RDMA Write with Immediate, the immediate consuming a
     * receive credit like a message). */
    int (*put_imm)(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                   const void *key, size_t keylen, size_t len, uint32_t imm,
                   rd_tp_done_fn done, void *ctx);
    /* Optional (NULL: not offered), with RD_TP_RDMA_ATOMIC: connects the
     * process to itself through its device (rc: a QP connected to another
     * QP of the same device), once; afterwards get, put, the atomics and
     * flush accept the process's own rank as peer and go through the
     * device like a peer's. Atomics the process issues to its own memory
     * this way are atomic with those its peers issue to it, which CPU
     * atomics are not. Returns RD_OK (also when already connected) or a
     * negative rd_status (then the own rank stays refused). */
    int (*loopback)(void);

    /* ---- Node-local shared memory (shm; NULL otherwise) ----
     *
     * A bare counter per ordered pair of ranks. signal(peer) raises
     * one signal towards peer; signaled(peer) returns 1 and consumes one
     * signal if peer has raised more than this rank consumed so far, else
     * 0. Both are cheap (a store, a load), never call upcalls, and carry no
     * data and no order with send(). src/coll's node barrier uses them. */
    void (*signal)(int peer);
    int (*signaled)(int peer);
    /* Memory every process this transport reaches on this node maps.
     * area(rank, &len) returns where this process sees the area that job
     * rank rank owns (rank may be this process; len bytes, zero at init,
     * the same len for every rank), or NULL when the transport has none
     * for rank. The transport never reads or writes an area: its layout
     * belongs to the caller (p2p hands it to src/coll, coll_shm.h). */
    void *(*area)(int rank, size_t *len);
    /* Whether a rank is blocked in a wait that polls progress (p2p's
     * rd_p2p_wait_begin / _end), so that a peer can tell it will answer a
     * message soon: wait_mark(1) says this process now is, wait_mark(0)
     * that it left; waiting(peer) returns the last mark of job rank peer
     * (0 before any). One word per rank on a line of its own that only its
     * owner writes: a store, a load; no upcalls, no order with send(). */
    void (*wait_mark)(int on);
    int (*waiting)(int peer);
} rd_transport_t;

/* Transports compiled in (defined by each transport; init may settle the
 * limits, so the tables are not const). */
extern rd_transport_t rd_shm_transport;
extern rd_transport_t rd_tcp_transport;
extern rd_transport_t rd_rc_transport;
extern rd_transport_t rd_ud_transport;

/* All of them in order of preference, NULL-terminated (registry.c). */
extern rd_transport_t *const rd_transports[];

/* Default for RDMPI_TRANSPORTS: shm on a node, the best network between. */
#define RD_TRANSPORTS_DEFAULT "shm,rc,tcp"

#endif
