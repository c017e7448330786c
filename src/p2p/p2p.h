/*
 * Point-to-point: protocols (eager, rendezvous by get, put or copy), per-peer
 * send queues, the receive path from the transports into the matching engine,
 * the active-message registry other layers send their own messages through,
 * the progress engine with its hooks, and node services for src/coll. The
 * API layer starts a request (rd_p2p_start) and waits for it here.
 */
#ifndef RD_P2P_P2P_H
#define RD_P2P_P2P_H

#include <stddef.h>

#include "boot/boot.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/request.h"
#include "p2p/match.h"

/* What a probe reports. */
typedef struct rd_p2p_status {
    int source, tag;
    size_t bytes;
} rd_p2p_status_t;

/* Selects and starts the transports (collective over the job). */
int rd_p2p_init(const rd_boot_info_t *boot);
/* Stops the transports. Call after a barrier, with no operation in flight. */
void rd_p2p_finalize(void);

/* Attaches the matching queues of c->ctx and c->ctx + 1 to c. */
int rd_p2p_attach(rd_comm_t *c);
/* c is gone (its last reference): its queues forget it. Returns 1 if no
 * other communicator uses c->ctx (the id may be retired), else 0 (also for
 * a communicator that was never attached, or after rd_p2p_finalize). */
int rd_p2p_detach(rd_comm_t *c);
/* Frees the matching queues of ctx and ctx + 1, which no communicator uses
 * any more, so that the ids can be reused: RD_OK, or RD_EAGAIN while a
 * receive is still posted in them (MPI lets the receives of a freed
 * communicator complete: try again later). Unexpected messages still
 * queued are dropped and counted (rd_p2p_report_final): MPI requires every
 * message of a communicator to be received before it is freed, so they
 * belong to an erroneous program, and keeping them would hand them to the
 * next communicator that takes the id. A message that arrives after the id
 * is freed is kept as unexpected for whoever takes the id next: p2p cannot
 * tell it from an early message of the next communicator. */
int rd_p2p_ctx_free(uint32_t ctx);

/* A blocking standard send's fast path: if (buf, count, dt) is contiguous,
 * fits the peer's eager limit and nothing is queued for the peer, sends it
 * now with no request and returns RD_OK (the buffer may be reused). Returns
 * RD_EAGAIN when the message needs the full path (rd_p2p_isend), or a
 * negative status. rank is a rank of c's remote group, not MPI_PROC_NULL. */
int rd_p2p_send_now(rd_comm_t *c, const void *buf, size_t count, const struct rd_datatype *dt,
                    int rank, int tag);
/* Starts a send (r->kind RD_REQ_SEND; buf, count, dt, comm, peer, tag, mode
 * set; peer is a rank, not MPI_PROC_NULL). coll selects the collective context.
 * Returns RD_OK or a negative status; completion comes through r->done. */
int rd_p2p_isend(rd_request_t *r, int coll);
/* Starts a receive (r->kind RD_REQ_RECV; peer may be RD_ANY_SOURCE, tag RD_ANY_TAG). */
int rd_p2p_irecv(rd_request_t *r, int coll);

/* rd_p2p_prepare fills r (a fresh RD_REQ_SEND or RD_REQ_RECV request, or a
 * persistent one: rd_req_new or rd_req_init_local) with an operation;
 * rd_p2p_start fills it and starts it: rd_p2p_isend or
 * rd_p2p_irecv by r->kind, in the user context of c (coll 0) or its
 * collective one (coll 1). r takes a reference on dt, which rd_req_free
 * drops. mode is an enum rd_send_mode (receives: RD_MODE_STANDARD). On
 * failure (a negative status) the caller frees r. */
static inline void rd_p2p_prepare(rd_request_t *r, const void *buf, size_t count,
                                  rd_datatype_t *dt, rd_comm_t *c, int peer, int tag, int mode)
{
    r->buf = (void *)buf;
    r->count = count;
    r->dt = dt;
    rd_dt_ref(dt);
    r->comm = c;
    r->peer = peer;
    r->tag = tag;
    r->mode = (uint8_t)mode;
}

static inline int rd_p2p_start(rd_request_t *r, const void *buf, size_t count,
                               rd_datatype_t *dt, rd_comm_t *c, int peer, int tag, int mode,
                               int coll)
{
    rd_p2p_prepare(r, buf, count, dt, c, peer, tag, mode);
    return r->kind == RD_REQ_SEND ? rd_p2p_isend(r, coll) : rd_p2p_irecv(r, coll);
}

/* Probes for a matching unexpected message on c. Sets *flag; fills *st.
 * Returns RD_OK, or, when nothing matches and a sender the probe may be
 * waiting for has failed (src itself, or for RD_ANY_SOURCE any member of
 * c's remote group), that peer's failure status with st->source set to its
 * job rank. */
int rd_p2p_iprobe(rd_comm_t *c, int src, int tag, int *flag, rd_p2p_status_t *st);
/* Like iprobe, but takes the message out of matching: *msg is an opaque
 * handle for rd_p2p_mrecv (NULL when *flag is 0). */
int rd_p2p_improbe(rd_comm_t *c, int src, int tag, int *flag, rd_p2p_status_t *st, void **msg);
/* Receives a message taken by improbe into r (buf, count, dt, comm set). */
int rd_p2p_mrecv(rd_request_t *r, void *msg);

/* Cancels a posted receive; returns 1 if it was cancelled (r completes, cancelled). */
int rd_p2p_cancel_recv(rd_request_t *r);

/* ---- active messages ----
 * Every message between two processes is an active message: a header whose
 * first byte is its type, then an optional payload. Each layer owns a range
 * of types, registers a handler for each type it uses, and lays out the
 * rest of its headers itself (p2p's own: proto.h). On arrival p2p calls the
 * handler registered for the type; a type nobody registered is dropped. */
enum {
    RD_AM_P2P_FIRST = 1,     /* p2p: eager and rendezvous protocols (proto.h) */
    RD_AM_P2P_LAST = 31,
    RD_AM_COLL_FIRST = 32,   /* src/coll */
    RD_AM_COLL_LAST = 63,
    RD_AM_RMA_FIRST = 64,    /* src/rma */
    RD_AM_RMA_LAST = 127,
    RD_AM_TYPES = 256,       /* types are one byte; 128 .. 255 are not assigned */
};
/* Largest header an active message may have: what every transport takes. */
#define RD_P2P_AM_HDR_MAX 80

/* The handler of one message type. The contract:
 *  - peer is the sender's job rank; hdr is hdrlen bytes (hdr[0] is the
 *    type), payload is len bytes (len may be 0, payload then NULL).
 *  - hdr and payload belong to the transport and are valid only until the
 *    handler returns: copy what is needed later. Neither is aligned beyond
 *    what the sender's packed layout gives: use packed structs or memcpy.
 *  - It runs inside transport progress: from rd_progress (and so from any
 *    wait), and, for a message a rank sends to itself, inside the sender's
 *    rd_p2p_am_send / rd_p2p_isend. It must not block, wait or call
 *    rd_progress (that would re-enter the transport delivering it). It may
 *    send (rd_p2p_am_send: RD_EAGAIN is fine, the message is queued),
 *    complete requests (rd_req_complete), allocate memory and start a
 *    transport get/put whose completion comes later from progress.
 *  - Ids in the header come from the wire: validate them before use. */
typedef void (*rd_p2p_am_fn)(int peer, const void *hdr, size_t hdrlen, const void *payload,
                             size_t len);
/* Registers fn for type (in the caller's layer's range). Call after
 * rd_p2p_init and before any peer may send that type (a layer registers at
 * its own init, or in a collective call every peer makes before sending).
 * Registering the same fn again is harmless. Returns RD_OK, or RD_EINVAL
 * (type not in 1 .. RD_AM_TYPES-1, p2p's EAGER, or another fn holds it).
 * rd_p2p_finalize drops every registration. */
int rd_p2p_am_register(int type, rd_p2p_am_fn fn);

/* Tells the owner of a queued active message that it left (RD_OK) or
 * never will (the peer failed: a negative status). Called from progress. */
typedef void (*rd_p2p_am_done_fn)(void *ctx, int status);
/* Sends an active message to job rank peer_world: hdr (hdrlen bytes, 1 ..
 * RD_P2P_AM_HDR_MAX, hdr[0] the type, filled by the caller) and payload
 * (len bytes, at most rd_p2p_am_max(peer_world)). Messages to one peer
 * leave in the order of rd_p2p_am_send and rd_p2p_isend calls. Returns
 *  RD_OK      sent: hdr and payload may be reused; done is never called;
 *  RD_EAGAIN  queued behind earlier messages or a full transport: hdr was
 *             copied, payload must stay valid until done(ctx, status) is
 *             called from a later rd_progress (done may be NULL);
 *  < 0        not sent, done is never called: RD_EINVAL (bad rank or
 *             sizes), RD_EPEER or the status the peer failed with, or a
 *             transport error.
 * The transport may hold a sent message until the next rd_progress. */
int rd_p2p_am_send(int peer_world, const void *hdr, size_t hdrlen, const void *payload,
                   size_t len, rd_p2p_am_done_fn done, void *ctx);
/* rd_p2p_am_send that sends at once or not at all: RD_EAGAIN (nothing
 * queued, done never called) when the transport is full or earlier
 * messages to peer_world wait; otherwise as rd_p2p_am_send's RD_OK or
 * error. For a caller that has another way to move the data. */
int rd_p2p_am_send_now(int peer_world, const void *hdr, size_t hdrlen, const void *payload,
                       size_t len);
/* The largest payload rd_p2p_am_send takes for peer_world: its
 * transport's eager limit, or its larger fragment limit where it has one
 * (transport.h, frag_max: fewer messages per byte of bulk data); 0 when
 * peer_world is unreachable. */
size_t rd_p2p_am_max(int peer_world);

/* Polls every transport and pushes queued sends, then runs the active
 * progress hooks. Returns events handled. */
int rd_progress(void);

/* Progress hooks: work of a higher layer (nonblocking collective
 * schedules, ...) that rd_progress advances, switched on only while there
 * is some, so that an idle engine costs rd_progress nothing. A hook returns
 * the events it handled; it runs inside rd_progress, must not call
 * rd_progress itself (nor wait), and may activate or deactivate any hook,
 * itself included. */
#define RD_PROGRESS_HOOKS_MAX 8
typedef int (*rd_progress_hook_fn)(void);
/* Registers fn, inactive. Returns its id (>= 0; the same id again for an
 * fn already registered) or RD_ENOMEM (RD_PROGRESS_HOOKS_MAX registered).
 * rd_p2p_finalize drops every hook: a layer registers again after the
 * next rd_p2p_init. */
int rd_progress_hook_register(rd_progress_hook_fn fn);
/* From the next rd_progress on, runs (activate) or stops running
 * (deactivate) hook id. Both are cheap and idempotent. */
void rd_progress_hook_activate(int id);
void rd_progress_hook_deactivate(int id);
/* Progresses until r->done. Spins RDMPI_SPIN_COUNT idle polls, then yields the CPU
 * between polls, so that more ranks than cores still make progress. */
void rd_p2p_wait(rd_request_t *r);
/* Called on each idle poll of a wait loop: yields after enough idle polls. */
void rd_p2p_idle(unsigned *idle);

/* Under MPI_THREAD_MULTIPLE the layer above serialises its calls with a
 * lock, held through every wait below it. So that another thread can run
 * its part of a collective that this wait's peers wait for, the wait loops
 * release it between progress passes through the pair the layer above
 * installs here (NULL, NULL: none, the default). A loop that calls
 * rd_p2p_pause must therefore keep nothing across it that another
 * thread's MPI calls may change. */
void rd_p2p_set_yield(void (*unlock)(void), void (*lock)(void));
/* Says that several application threads may call MPI at once
 * (MPI_THREAD_MULTIPLE; a progress thread alone is not that): from then
 * on rd_p2p_threads is 1. */
void rd_p2p_set_threads(void);
/* Between two progress passes of a wait loop, the last of which did n
 * things: lets other threads in (rd_p2p_set_yield) and backs off while
 * nothing moves (rd_p2p_idle); a pass that moved something restarts the
 * spin. */
void rd_p2p_pause(int n, unsigned *idle);
/* rd_p2p_pause without letting other threads in: for the waits of the
 * collectives that run only while rd_p2p_threads is 0 (the shared-memory
 * ones, the node barrier), whose buffers and signals serve every
 * communicator of the process: a rank that raised its level to
 * MPI_THREAD_MULTIPLE after the start keeps them (the choice is the
 * node's), and another thread let in mid-collective could start a second
 * one on the same buffers. */
void rd_p2p_backoff(int n, unsigned *idle);
/* Whether other application threads may run MPI calls, blocking
 * collectives among them, while this one waits (rd_p2p_set_threads). */
int rd_p2p_threads(void);

/* Blocking waits, for node peers that choose between a way that needs
 * this process's progress and one that does not (src/rma's large Gets):
 * a loop that polls progress until something happens brackets itself
 * with rd_p2p_wait_begin and rd_p2p_wait_end (rd_p2p_wait does), nested
 * pairs included. The outermost pair of a thread stores a mark where node
 * peers read it (transport.h, wait_mark), one store each; without a
 * transport that shares memory they do nothing. While such a wait yields
 * the CPU (rd_p2p_idle), each yield stores the mark again: cleared when
 * the yield kept the thread off its CPU for long (other work competes for
 * it, so the rank would answer late), set when it came back soon.
 * rd_p2p_peer_waiting(peer) is job rank peer's mark: 1 while it is in
 * such a wait and gets its CPU back promptly, else 0 (also for a peer
 * that is not on this node). A hint only: the peer may leave its wait at
 * once, and while several of its threads wait, the first that leaves
 * clears the mark. */
void rd_p2p_wait_begin(void);
void rd_p2p_wait_end(void);
int rd_p2p_peer_waiting(int peer);

/* What rd_p2p_wait waits for, for the report of a blocked rank: recv 1
 * for a receive (peer its source, -1 for any), 0 for a send; peer and tag
 * as the communicator comm (its name) numbers them. */
typedef struct rd_p2p_wait_info {
    int recv, peer, tag;
    const char *comm;
} rd_p2p_wait_info_t;
/* Fills *w and returns 1 while the calling thread is in rd_p2p_wait, else
 * 0. Safe in a signal handler that interrupted that wait. */
int rd_p2p_waiting(rd_p2p_wait_info_t *w);

/* Node signals, for src/coll's node barrier: a bare counter per ordered
 * pair of processes that a transport with signals keeps (transport.h,
 * signal; shm: processes on this node). rd_p2p_signals(peer) is 1 when job
 * rank peer is reached through such a transport, else 0 (then the other
 * two must not be called for it). rd_p2p_signal(peer) raises one signal
 * towards peer; rd_p2p_signaled(peer) consumes one that peer raised towards
 * this process and returns 1, or returns 0 when there is none. They carry
 * no data and no order with messages, and never run handlers. */
int rd_p2p_signals(int peer);
void rd_p2p_signal(int peer);
int rd_p2p_signaled(int peer);
/* When every other member of intracommunicator c is reached through one
 * transport that shares memory (transport.h, area; shm: all on this node),
 * sets areas[i] to the shared area of c's rank i (this rank's included) and
 * *len to their size (the same for all) and returns RD_OK; else returns
 * RD_ENOTSUP (every member of c gets the same answer). The areas' layout
 * belongs to the caller (src/coll/coll_shm.h). */
int rd_p2p_node_areas(rd_comm_t *c, void **areas, size_t *len);
/* Single-copy reads between the members of a node-local communicator (one
 * rd_p2p_node_areas answers RD_OK for), when their transport reads peer
 * memory directly (transport.h, get; shm: CMA, probed node-wide at init, so
 * every member gets the same answer). rd_p2p_node_key writes to key (room
 * for RD_P2P_NODE_KEY_MAX bytes) what lets another member read
 * [buf, buf+len) of this process, sets *keylen and *reg (the registration,
 * for rd_p2p_node_key_release) and returns RD_OK, or returns a negative
 * status having done nothing (RD_ENOTSUP: no such transport, or it cannot
 * read). */
#define RD_P2P_NODE_KEY_MAX 32
/* 1 when rd_p2p_node_key and rd_p2p_node_read work on c, else 0. */
int rd_p2p_node_readable(rd_comm_t *c);
int rd_p2p_node_key(rd_comm_t *c, const void *buf, size_t len, void *key, size_t *keylen,
                    void **reg);
/* The key rd_p2p_node_key made with reg will not be used again. */
void rd_p2p_node_key_release(rd_comm_t *c, void *reg);
/* Reads len bytes at addr of c's rank rank (inside memory its
 * rd_p2p_node_key described with key) into local and returns once they are
 * there: RD_OK, RD_EINVAL (a bad key or range) or another negative status. */
int rd_p2p_node_read(rd_comm_t *c, int rank, void *local, uint64_t addr, const void *key,
                     size_t keylen, size_t len);
/* ---- remote memory access, for src/rma ----
 * The transports' RDMA (transport.h: mem_reg, get, put, flush, atomics)
 * through the transport p2p uses for each peer. A registration covers
 * every transport in use that offers remote access, so one handle serves
 * every peer; its keys travel as one opaque blob (rd_p2p_mem_keys) that a
 * peer searches for the key of the transport it uses to reach us
 * (rd_p2p_mem_key_for). */
typedef struct rd_p2p_mem rd_p2p_mem_t;
#define RD_P2P_KEYS_MAX 128  /* largest blob rd_p2p_mem_keys writes */
#define RD_P2P_KEY_MAX 32    /* largest single key (RD_TP_KEY_MAX) */
/* Bits of rd_p2p_rdma_ops (the transport's rdma.ops, transport.h). */
enum { RD_P2P_RDMA_GET = 1, RD_P2P_RDMA_PUT = 2, RD_P2P_RDMA_ATOMIC = 4 };
/* What the transport of job rank peer can do to peer's memory: RD_P2P_RDMA_*
 * bits, 0 for none (and for this process: rma reaches its own memory
 * itself). */
unsigned rd_p2p_rdma_ops(int peer);
/* Largest put to peer whose source may be reused as soon as put returns
 * (transport.h, rdma.inline_max), and largest single get/put (0: no limit). */
size_t rd_p2p_rdma_inline_max(int peer);
size_t rd_p2p_rdma_len_max(int peer);
/* Registers [buf, buf+len) with every transport in use that offers remote
 * access (len 0: an empty handle). RD_OK or the first transport's error
 * (then nothing stays registered). */
int rd_p2p_mem_reg(const void *buf, size_t len, rd_p2p_mem_t **m);
void rd_p2p_mem_dereg(rd_p2p_mem_t *m);
/* Writes m's keys (at most RD_P2P_KEYS_MAX bytes) to buf, sets *len. */
void rd_p2p_mem_keys(const rd_p2p_mem_t *m, void *buf, size_t *len);
/* In a peer's key blob (keys, len bytes), the key for reaching that peer
 * with the transport p2p uses for it: sets *key / *keylen and returns 1,
 * or returns 0 (no key for that transport: use active messages). */
int rd_p2p_mem_key_for(int peer, const void *keys, size_t len, const void **key,
                       size_t *keylen);
/* transport.h's get / put / flush / fetch_add / cswap on peer's transport,
 * with the same contract (done may be NULL except for flush; lmem is this
 * side's rd_p2p_mem_t covering local, or NULL). RD_ENOTSUP when that
 * transport lacks the operation. */
typedef void (*rd_p2p_done_fn)(void *ctx, int status);
int rd_p2p_rdma_get(int peer, void *local, rd_p2p_mem_t *lmem, uint64_t raddr, const void *key,
                    size_t keylen, size_t len, rd_p2p_done_fn done, void *ctx);
int rd_p2p_rdma_put(int peer, const void *local, rd_p2p_mem_t *lmem, uint64_t raddr,
                    const void *key, size_t keylen, size_t len, rd_p2p_done_fn done, void *ctx);
int rd_p2p_rdma_flush(int peer, rd_p2p_done_fn done, void *ctx);
int rd_p2p_rdma_fetch_add(int peer, uint64_t raddr, const void *key, size_t keylen,
                          uint64_t add, uint64_t *result, rd_p2p_done_fn done, void *ctx);
int rd_p2p_rdma_cswap(int peer, uint64_t raddr, const void *key, size_t keylen,
                      uint64_t compare, uint64_t swap, uint64_t *result, rd_p2p_done_fn done,
                      void *ctx);
/* Connects this process to itself through the transport that reaches
 * job rank peer with RDMA atomics (transport.h, loopback), once: from then
 * on rd_p2p_rdma_fetch_add, _cswap and _flush and rd_p2p_mem_key_for also
 * take this process's own rank, through that device, so that atomics on
 * its own memory are atomic with those its peers issue through the same
 * transport. RD_OK, RD_ENOTSUP (no such transport, or it cannot loop back;
 * a second transport is refused too: atomics through two devices are not
 * atomic with each other) or the transport's error. */
int rd_p2p_rdma_loopback(int peer);
/* 1 when RDMA atomics to job rank peer (this process included) go through
 * the transport this process is connected to itself with, else 0. */
int rd_p2p_rdma_loop_same(int peer);
/* A put that also delivers imm to the peer once the bytes are in its
 * memory (transport.h, put_imm; rc: RDMA Write with Immediate): the peer's
 * handler registered with rd_p2p_notify_register is called with (this
 * rank, imm) from its progress. RD_ENOTSUP when peer's transport has no
 * put_imm: the caller then sends its own message after the data. */
int rd_p2p_rdma_put_imm(int peer, const void *local, rd_p2p_mem_t *lmem, uint64_t raddr,
                        const void *key, size_t keylen, size_t len, uint32_t imm,
                        rd_p2p_done_fn done, void *ctx);
typedef void (*rd_p2p_notify_fn)(int peer, uint32_t imm);
void rd_p2p_notify_register(rd_p2p_notify_fn fn);
/* 1 when job rank peer runs on this node (shares memory with this
 * process through the operating system), else 0. */
int rd_p2p_same_node(int peer);
/* Job rank of this process and the job size. */
int rd_p2p_world_rank(void);
int rd_p2p_world_size(void);
/* RDMPI_VERBOSE: whether it is set, and p2p's reports for the API layer to
 * print (p2p itself never prints): what init chose (the transports of the
 * peers, the spin policy), and before finalize which rendezvous paths
 * messages took (the protocol tests check these counters). */
int rd_p2p_verbose(void);
void rd_p2p_report_init(char *buf, size_t len);
void rd_p2p_report_final(char *buf, size_t len);
/* Messages dropped because an id or field from the wire was not valid
 * (request ids: reqid.h): 1 and a warning line in buf if any were, else 0
 * and "". */
int rd_p2p_dropped(char *buf, size_t len);
/* The lowest job rank a transport reported failed, or -1 (for messages). */
int rd_p2p_failed_peer(void);

#endif
