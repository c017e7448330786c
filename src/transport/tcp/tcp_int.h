/*
 * The TCP transport's internal interface: the state its files share (one
 * struct rd_tcp), its connections and peers, and what each file offers
 * the others. tcp.h is what the rest of the tree sees; only the files of
 * src/transport/tcp include this one (tcp.c has the map of them).
 */
#ifndef RD_TRANSPORT_TCP_TCP_INT_H
#define RD_TRANSPORT_TCP_TCP_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "transport/tcp/tcp_addr.h"
#include "transport/tcp/tcp_parse.h"
#include "transport/tcp/tcp_wire.h"
#include "transport/transport.h"
#include "util/list.h"

/* Read buffer shared by all connections (each drain leaves it empty). */
#define RD_TCP_RXBUF 65536
/* Big payloads (at least this many bytes) take no copy on either side when
 * they can avoid it. Send: one is never queued behind other bytes (send()
 * says RD_EAGAIN and the caller keeps it; only the unsent tail of a
 * partial write is copied), unless RDMPI_TCP_COALESCE_MAX makes it small
 * enough to hold back. Receive: one makes the next read small
 * (RD_TCP_PEEK into the read buffer): big frames tend to follow big
 * frames, and reading only up to the next header lets that one's payload
 * go straight to its destination instead of through the read buffer. */
#define RD_TCP_BIG (32 * 1024)

enum conn_state {
    C_CONNECTING,     /* outgoing: connect() in progress */
    C_HELLO_SENT,     /* outgoing: HELLO sent, waiting for ACK or NACK */
    C_WAIT_HELLO,     /* incoming: accepted, waiting for HELLO */
    C_UP,             /* authenticated: carries the peer's messages */
    C_CLOSED,         /* fd closed; freed at the end of progress */
};

/* Bytes queued for a peer: whole frames, or the unsent tail of one. */
typedef struct out {
    rd_list_t link;
    size_t len, off;
    size_t cap;                /* room at data (later frames are appended) */
    unsigned char data[];
} out_t;

typedef struct conn {
    int fd;
    int state;                 /* enum conn_state */
    int peer;                  /* job rank; -1 for an incoming one before HELLO */
    unsigned char ctl[RD_TCP_FRAME_LEN + sizeof(rd_tcp_hello_t)];  /* HELLO/ACK/NACK */
    size_t ctl_len, ctl_off;   /* written before any queued data */
    rd_tcp_parser_t ps;
    unsigned char *asm_buf;    /* payload assembly when p2p did not claim it */
    size_t asm_cap;
    int claimed;               /* the current payload goes where claim said */
    void *token;
    rd_list_t link;            /* in rd_tcp.conns or rd_tcp.dead */
    rd_list_t ready;           /* in rd_tcp.ready while not drained */
    rd_list_t wait;            /* C_WAIT_HELLO: in rd_tcp.hello_wait (deadline order) */
    long deadline;             /* C_WAIT_HELLO: closed at this time (rd_clock_ms) */
    unsigned mss;              /* C_UP: TCP_MAXSEG, read when it is first read directly */
} conn_t;

typedef struct tpeer {
    conn_t *conn;              /* outgoing attempt or the UP connection */
    rd_list_t q;               /* out_t, in send order */
    size_t qbytes;
    int have_addr;             /* addr fetched from PMIx */
    int bye;                   /* the peer sent BYE (it is finalizing) or is gone */
    int bye_queued;            /* finalize: our BYE is in q */
    int failed;                /* gone without a BYE: sends fail */
    int fail_report;           /* failed, p2p not told yet */
    int fail_status;           /* failed: the status p2p is told (RD_EPEER: it is gone) */
    long retry_at;             /* NACKed: connect again at this time (in rd_tcp.retry) */
    rd_list_t retry;           /* in rd_tcp.retry while armed */
    unsigned gen;              /* rd_tcp.gen of our last direct write to it */
    int held;                  /* q holds frames held back (in rd_tcp.held) */
    rd_list_t held_link;
    rd_tcp_addr_t addr;
    uint8_t key[RD_TCP_KEY_LEN];   /* without a job key: the key it published */
} tpeer_t;

struct rd_tcp_state {
    rd_tp_env_t env;
    int rank, size;
    int ep;                    /* epoll set */
    int lfd[RD_TCP_ADDRS_MAX]; /* listening sockets: one per published address */
    int nlfd;
    tpeer_t *peers;
    rd_list_t conns, dead;
    rd_list_t ready;           /* readable connections left for the next pass */
    rd_tcp_addr_t me;          /* what this rank published */
    int job_key;               /* key is the job key (boot.h), shared by every rank */
    uint8_t key[RD_TCP_KEY_LEN];   /* our HELLOs carry it (tcp_wire.h) */
    size_t sendq_max;
    size_t coalesce_max;       /* largest payload held back; 0: none */
    unsigned gen;              /* bumped by every progress call */
    rd_list_t held;            /* tpeer_t with frames held back */
    int finalizing;
    int in_progress;
    int nfail_report;          /* peers with fail_report set */
    rd_list_t hello_wait;      /* accepted, no HELLO yet: oldest first */
    int npending;              /* length of hello_wait */
    long starved_at;           /* accept() first found no descriptor (rd_clock_ms), 0: not */
    rd_list_t retry;           /* tpeer_t NACKed, waiting for the peer's connection */
    int nconns;                /* length of conns */
    unsigned direct_polls;     /* progress calls since the last epoll pass */
    conn_t *lowat;             /* the connection with SO_RCVLOWAT raised, if any */
    int lowat_val;             /* ...and its SO_RCVLOWAT */
    int ack_lowat;             /* RDMPI_TCP_ACK_LOWAT; 0: never raised */
    int ack_lowat_big;         /* RDMPI_TCP_ACK_LOWAT_BIG */
    unsigned small_run;        /* small frames read since the last big one */
    int64_t gap_ns;            /* RDMPI_TCP_READ_GAP_NS */
    int64_t read_at;           /* direct reads wait until then (rd_clock_ns); 0: none */
    unsigned char rx[RD_TCP_RXBUF];
};

/* The library is built with -fvisibility=hidden, which covers definitions
 * only: declared hidden here too, the state and the functions the files
 * share are reached directly (PC-relative, as static ones are), not
 * through the GOT. */
#pragma GCC visibility push(hidden)

/* The transport's state and ops table (tcp.c); send() reads frag_max. */
extern struct rd_tcp_state rd_tcp;
extern rd_transport_t rd_tcp_transport;

/* ---- tcp_conn.c: connections and a peer's failure ---- */
/* Records why call (which makes a descriptor) failed for the connection
 * with peer (-1: one a peer opened to us, -2: all of them): an exhausted
 * descriptor table is named, with its limit, so that the user knows what
 * to raise. */
void rd_tcp_no_descriptor(int err, const char *call, int peer);
/* The listening sockets, one on each of our addresses (only those: never
 * the wildcard), all on one port: fds[0..n) and *port (network byte
 * order). Returns n, or -1 with the reason recorded. */
int rd_tcp_listen(const rd_tcp_addr_t *me, int *fds, uint16_t *port);
/* Accepts every pending connection (the listening socket is readable). */
void rd_tcp_accept_all(void);
/* Fetches what peer published (its address, and its key when the job has
 * no job key); 0 if it published nothing usable. */
int rd_tcp_fetch_addr(int peer);
/* Opens the connection to peer and queues its HELLO. */
int rd_tcp_connect(int peer);
/* Closes c now; its memory goes at rd_tcp_free_dead(). */
void rd_tcp_conn_close(conn_t *c);
/* c ended (what says how): a retry, or its peer failed. */
void rd_tcp_peer_lost(conn_t *c, const char *what);
/* A whole frame on a connection that is not up; -1 if c was closed. */
int rd_tcp_on_handshake(conn_t *c);
/* HELLO deadlines and retries that are due (call while any is armed). */
void rd_tcp_run_timers(void);
/* Tells p2p about the peers that failed since the last call. */
void rd_tcp_report_failures(void);
/* The transport's watch(). */
void rd_tcp_watch(int peer);

/* Frees the connections closed since the last call (at the end of a
 * progress pass, when no epoll event can point at them any more); on
 * every progress call, so inline. */
static inline void rd_tcp_free_dead(void)
{
    while (!rd_list_empty(&rd_tcp.dead)) {
        conn_t *c = rd_list_entry(rd_tcp.dead.next, conn_t, link);
        rd_list_remove(&c->link);
        free(c->asm_buf);
        free(c);
    }
}

/* ---- tcp_send.c: queues, held bursts, writev ---- */
/* Writes c's control frame, then (once up) its peer's queue, until done
 * or the socket is full; -1 if c failed. */
int rd_tcp_conn_flush(conn_t *c);
/* Queues a frame for p (all but its first skip bytes), bypassing the bound. */
int rd_tcp_enqueue(tpeer_t *p, const rd_tcp_frame_t *f, const void *hdr, size_t hdrlen,
                   const void *payload, size_t len, size_t skip);
/* Drops what is queued for p. */
void rd_tcp_queue_drop(tpeer_t *p);
/* Writes out every held burst. */
void rd_tcp_flush_held(void);
/* The transport's send() and push(). */
int rd_tcp_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
void rd_tcp_push(void);

/* ---- tcp_recv.c: read, parse, claim ---- */
/* Drains c (at most RD_TCP_READS_PER_PASS reads, then c waits in
 * rd_tcp.ready); returns the frames completed. */
int rd_tcp_conn_read(conn_t *c);

/* ---- tcp_poll.c: epoll, the direct connection, SO_RCVLOWAT, read gap ---- */
/* SO_RCVLOWAT of c to v, a direct level, or back to 1 (v = 0). */
void rd_tcp_set_lowat(conn_t *c, int v);
/* One pass over the ready sockets; timeout_ms as for epoll_wait. Returns
 * the frames completed. */
int rd_tcp_poll_once(int timeout_ms);
/* The transport's progress(). */
int rd_tcp_progress(void);

#pragma GCC visibility pop

#endif
