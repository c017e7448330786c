/*
 * The connection between the head mpirun and its host daemons: the message
 * format, framing over a TCP stream, and packing of the payloads.
 *
 * Every message is a 16-byte header and `len` payload bytes; all integers
 * are little-endian.
 *
 *   0               4       6       8               12              16
 *   +---------------+-------+-------+---------------+---------------+
 *   | magic "RDMH"  |version| type  |      arg      |      len      |
 *   +---------------+-------+-------+---------------+---------------+
 *   | payload (len bytes) ...
 *
 * arg is the rank a message is about, or the fence number; payloads are
 * sequences of u32 and strings (u32 length, the bytes, a NUL).
 *
 *   type     direction      arg     payload
 *   HELLO    daemon->head   host    secret (string), daemon pid (u32)
 *   JOB      head->daemon   -       nspace, cwd, bind, heartbeat timeout
 *                                   (ms), nhosts, host names, np, host of
 *                                   each rank, napps, for each program
 *                                   (in rank order): its np, path, argc,
 *                                   argv, nenv, env; then the job's nenv,
 *                                   env ("VAR=VALUE")
 *   READY    daemon->head   -       -  (PMIx server up, ranks started, the
 *                                   daemon's loop runs: from now on the
 *                                   heartbeat timeout applies)
 *   FENCE    both           number  daemon->head: the host's contribution;
 *                                   head->daemon: all hosts' contributions
 *   OUT      daemon->head   rank    stream (1 or 2), then raw bytes
 *   EXITED   daemon->head   rank    pid, wait status, connected, finalized
 *   ABORT    daemon->head   rank    pid, code (i32 as u32), message
 *   ERROR    daemon->head   -       exit status, message
 *   STOP     head->daemon   -       signal for the ranks (SIGKILL: no grace)
 *   SIGNAL   head->daemon   -       signal to pass on to the ranks, the job
 *                                   going on (SIGUSR1, SIGUSR2, SIGALRM)
 *   DONE     daemon->head   -       -  (every local rank reaped, output sent)
 *   PING     both           -       -  (heartbeat)
 *   STDIN    head->daemon   rank    bytes of mpirun's stdin for the rank
 *                                   (always 0); none: end of input
 *   CREDIT   daemon->head   bytes   closed (u32; 1: rank 0 no longer reads
 *                                   its stdin, send nothing more); arg: how
 *                                   many more STDIN payload bytes the head
 *                                   may send (room freed in the daemon's
 *                                   buffer; at most 64 KiB in all)
 *
 * Stdin flow control: the head sends STDIN bytes only within the credit
 * the daemon granted (the free room of the daemon's buffer for the rank's
 * pipe), so neither side buffers more than that.
 *
 * Version 2: READY, STDIN, CREDIT, and the heartbeat timeout in JOB.
 * Version 3: SIGNAL; the programs of an MPMD job in JOB.
 */
#ifndef RD_MPIRUN_WIRE_H
#define RD_MPIRUN_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define RD_MPIRUN_WIRE_MAGIC 0x484d4452u    /* "RDMH" read as little-endian */
#define RD_MPIRUN_WIRE_VERSION 3
/* Largest payload accepted: bounds the memory a bad peer can make us use. */
#define RD_MPIRUN_WIRE_MAX (256u << 20)

typedef struct __attribute__((packed)) rd_mpirun_wire_hdr {
    uint32_t magic;
    uint16_t version;
    uint16_t type;
    uint32_t arg;
    uint32_t len;
} rd_mpirun_wire_hdr_t;

typedef enum rd_mpirun_msg {
    RD_MPIRUN_MSG_HELLO = 1,
    RD_MPIRUN_MSG_JOB,
    RD_MPIRUN_MSG_FENCE,
    RD_MPIRUN_MSG_OUT,
    RD_MPIRUN_MSG_EXITED,
    RD_MPIRUN_MSG_ABORT,
    RD_MPIRUN_MSG_ERROR,
    RD_MPIRUN_MSG_STOP,
    RD_MPIRUN_MSG_DONE,
    RD_MPIRUN_MSG_PING,
    RD_MPIRUN_MSG_READY,
    RD_MPIRUN_MSG_STDIN,
    RD_MPIRUN_MSG_CREDIT,
    RD_MPIRUN_MSG_SIGNAL,
} rd_mpirun_msg_t;

/* One end of a connection. */
typedef struct rd_mpirun_conn {
    int fd;                 /* -1 when closed */
    char *buf;              /* received bytes not yet consumed */
    size_t len, cap;
    size_t used;            /* bytes of the message returned last by next() */
    long long last_rx;      /* ms (CLOCK_MONOTONIC) of the last bytes received */
    size_t limit;           /* most bytes buffered (header included); 0: any message */
} rd_mpirun_conn_t;

/* Takes a connected socket: sets the send timeout to send_timeout_ms (a
 * peer that stops reading fails our sends instead of blocking us for
 * longer) and TCP_NODELAY. */
void rd_mpirun_conn_init(rd_mpirun_conn_t *c, int fd, long long now_ms, long long send_timeout_ms);

/* Changes the send timeout (the daemon learns the job's from the head). */
void rd_mpirun_conn_set_send_timeout(rd_mpirun_conn_t *c, long long ms);

void rd_mpirun_conn_close(rd_mpirun_conn_t *c);

/* Sends one message. Returns 0, or -1 when the connection is broken. */
int rd_mpirun_conn_send(rd_mpirun_conn_t *c, rd_mpirun_msg_t type, uint32_t arg,
                        const void *payload, size_t len);

/* Reads what the socket holds, up to c->limit bytes buffered. Returns 0,
 * or -1 on end of file or error (errno says which; 0 for end of file,
 * EMSGSIZE past the limit). */
int rd_mpirun_conn_read(rd_mpirun_conn_t *c, long long now_ms);

/* The next whole received message: 1 with *hdr and *payload set (valid
 * until the next call), 0 when none is complete, -1 on a malformed header
 * or one longer than c->limit allows. */
int rd_mpirun_conn_next(rd_mpirun_conn_t *c, rd_mpirun_wire_hdr_t *hdr, const char **payload);

/* Building a payload. On allocation failure err is set and later calls do
 * nothing. */
typedef struct rd_mpirun_pack {
    char *buf;
    size_t len, cap;
    int err;
} rd_mpirun_pack_t;

void rd_mpirun_pack_u32(rd_mpirun_pack_t *p, uint32_t v);
void rd_mpirun_pack_str(rd_mpirun_pack_t *p, const char *s);
void rd_mpirun_pack_bytes(rd_mpirun_pack_t *p, const void *b, size_t n);

/* Reading a payload; err is set (and zeros/NULL returned) past its end. */
typedef struct rd_mpirun_unpack {
    const char *p;
    size_t left;
    int err;
} rd_mpirun_unpack_t;

uint32_t rd_mpirun_unpack_u32(rd_mpirun_unpack_t *u);
/* A NUL-terminated string inside the payload, or NULL. */
const char *rd_mpirun_unpack_str(rd_mpirun_unpack_t *u);

#endif
