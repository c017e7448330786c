/*
 * Requests: one object per nonblocking operation, with one completion path
 * (rd_req_complete) shared by every protocol. Blocking calls are a request
 * plus a wait.
 */
#ifndef RD_CORE_REQUEST_H
#define RD_CORE_REQUEST_H

#include <stddef.h>
#include <stdint.h>


struct rd_comm;
struct rd_datatype;

enum rd_req_kind {
    RD_REQ_SEND,
    RD_REQ_RECV,
    RD_REQ_PERSIST_SEND,   /* Send_init & co.: inactive until Start */
    RD_REQ_PERSIST_RECV,
    RD_REQ_GREQ,           /* generalized request */
    RD_REQ_NBC,            /* nonblocking collective schedule */
    RD_REQ_RMA,            /* Rput & co.: ext is the window (rma completes it) */
    RD_REQ_PERSIST_COLL,   /* Bcast_init & co.: tmp records the arguments, inner runs */
};

enum rd_send_mode {
    RD_MODE_STANDARD,
    RD_MODE_SYNC,
    RD_MODE_READY,
    RD_MODE_BUFFERED,
};

/* Bytes of private state a request carries for the layer that runs its
 * kind (p2p for SEND and RECV); enough for p2p's protocol state, which
 * p2p checks at build time. */
#define RD_REQ_PRIV_SIZE 128

typedef struct rd_request {
    int handle;
    uint8_t kind;              /* enum rd_req_kind */
    uint8_t mode;              /* enum rd_send_mode */
    uint8_t cancelled;
    uint8_t comm_held;         /* persistent: holds a reference on comm, which
                                * rd_req_free drops (MPI_Comm_free may come
                                * first: the request stays usable) */
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
    int peer;                  /* rank in comm (receive: may be MPI_ANY_SOURCE) */
    int tag;
    int peer_world;            /* job rank of the peer, once known */

    /* The private state of the layer that runs this kind of request (p2p:
     * matching, rendezvous progress); zero in a new request. The layer
     * defines its layout and casts; core never looks inside. */
    _Alignas(8) unsigned char priv[RD_REQ_PRIV_SIZE];

    void *tmp;                 /* memory the request owns (a packed copy), freed with it */
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
/* Makes c r's communicator and takes a reference on it, which
 * rd_req_free drops: a request the user holds (nonblocking, persistent, a
 * matched message) keeps its communicator alive past MPI_Comm_free, as
 * the standard wants. Once per request. */
void rd_req_hold_comm(rd_request_t *r, struct rd_comm *c);
/* A request on the caller's stack, for a blocking call that waits for it
 * before returning: no handle, never pooled. rd_req_free releases what it
 * holds and leaves the memory alone. */
void rd_req_init_local(rd_request_t *r, int kind);
/* Marks r complete with internal status err; frees it if the user already let go. */
void rd_req_complete(rd_request_t *r, int err);
/* Drops every pooled request (MPI_Finalize). */
void rd_req_fini(void);

#endif
