/*
 * Requests: one object per nonblocking operation, with one completion path
 * (rd_req_complete) shared by every protocol. Blocking calls are a request
 * plus a wait.
 */
#ifndef RD_CORE_REQUEST_H
#define RD_CORE_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "p2p/match.h"
#include "util/list.h"

struct rd_comm;
struct rd_datatype;

enum rd_req_kind {
    RD_REQ_SEND,
    RD_REQ_RECV,
    RD_REQ_PERSIST_SEND,   /* Send_init & co.: inactive until Start */
    RD_REQ_PERSIST_RECV,
    RD_REQ_GREQ,           /* generalized request */
    RD_REQ_NBC,            /* nonblocking collective schedule */
};

enum rd_send_mode {
    RD_MODE_STANDARD,
    RD_MODE_SYNC,
    RD_MODE_READY,
    RD_MODE_BUFFERED,
};

/* Protocol state of a p2p request (p2p's business; kept here so the request
 * is one allocation). */
enum rd_req_state {
    RD_RS_IDLE,
    RD_RS_POSTED,        /* receive: queued in the matching engine */
    RD_RS_WAIT_ACK,      /* sync eager send: sent, waiting for the match ack */
    RD_RS_WAIT_CTS,      /* rendezvous send: RTS sent, waiting for CTS or FIN */
    RD_RS_STREAMING,     /* rendezvous send: sending fragments after CTS */
    RD_RS_RECV_DATA,     /* rendezvous receive: fragments or a get in flight */
    RD_RS_QUEUED,        /* send: waiting in a per-peer queue for ring space */
};

typedef struct rd_request {
    int handle;
    uint8_t kind;              /* enum rd_req_kind */
    uint8_t mode;              /* enum rd_send_mode */
    uint8_t state;             /* enum rd_req_state */
    uint8_t cancelled;
    uint8_t keyed;             /* rendezvous: transport keys to release (p2p.c) */
    uint8_t counted;           /* rendezvous send: counted in its peer's rndv_sends (p2p.c) */
    volatile int done;         /* set once by rd_req_complete */
    int user_freed;            /* MPI_Request_free while active: free on completion */
    int error;                 /* internal status at completion */

    /* what MPI reports in the status */
    int st_source, st_tag, st_error;
    size_t st_bytes;

    /* the operation */
    void *buf;
    size_t count;
    struct rd_datatype *dt;
    struct rd_comm *comm;
    int peer;                  /* rank in comm (receive: may be RD_ANY_SOURCE) */
    int tag;
    int peer_world;            /* job rank of the peer, once known */

    /* p2p protocol */
    rd_match_elem_t match;     /* posted receive */
    size_t bytes;              /* packed message length (send) / capacity (recv) */
    size_t offset;             /* rendezvous: bytes moved so far */
    size_t key_off, key_len;   /* rendezvous: the part of buf keyed for a peer's put */
    void *tmp;                 /* packed copy for non-contiguous data, or NULL */
    uint64_t remote;           /* rendezvous: the peer's request id */
    int parts;                 /* rendezvous: completions still awaited (get/put halves) */
    rd_list_t link;            /* p2p lists (streaming sends) */
    rd_list_t wait_link;       /* p2p: waiting on a peer that may fail (next NULL: not) */

    /* persistent requests: the active inner request */
    struct rd_request *inner;
    /* buffered send: the bsend buffer segment to release on completion */
    void *bsend_seg;

    /* generalized requests and nonblocking collectives */
    void *ext;

    struct rd_request *next_free;
} rd_request_t;

/* A request from the pool with handle, refs and fields reset. NULL on ENOMEM. */
rd_request_t *rd_req_new(int kind);
/* Returns a completed (or never-started) request to the pool. */
void rd_req_free(rd_request_t *r);
/* A request on the caller's stack, for a blocking call that waits for it
 * before returning: no handle, never pooled. rd_req_free releases what it
 * holds and leaves the memory alone. */
void rd_req_init_local(rd_request_t *r, int kind);
/* Marks r complete with internal status err; frees it if the user already let go. */
void rd_req_complete(rd_request_t *r, int err);
/* Drops every pooled request (MPI_Finalize). */
void rd_req_fini(void);

#endif
