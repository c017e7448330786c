/*
 * I/O forwarding: every rank's stdout and stderr come to mpirun through
 * pipes and are written to mpirun's own stdout and stderr a whole line at a
 * time, so lines of different ranks never mix (optionally tagged with the
 * rank); mpirun's stdin goes to rank 0, the other ranks read /dev/null.
 * When rank 0 runs on another host, the head hands stdin to a sender (the
 * connection to that host's daemon) within the credit the daemon grants,
 * and the daemon's iof takes it in (rd_mpirun_iof_stdin_push), writes it to
 * rank 0's pipe and grants the room it freed: neither side ever buffers
 * more than RD_MPIRUN_IOF_LINE_MAX bytes of stdin.
 *
 * The main loop asks for the descriptors to poll (rd_mpirun_iof_fill) and
 * hands back what poll reported (rd_mpirun_iof_handle).
 */
#ifndef RD_MPIRUN_IOF_H
#define RD_MPIRUN_IOF_H

#include <poll.h>
#include <stddef.h>

/* Longest line kept whole; a longer one is written in pieces of this size. */
#define RD_MPIRUN_IOF_LINE_MAX 65536

/* Where a host daemon's output goes instead of its stdout/stderr: each
 * line (or piece of a line) of rank, stream being 1 or 2. */
typedef void (*rd_mpirun_iof_sink_t)(int rank, int stream, const char *data, size_t len, void *arg);

/* Where rank 0's stdin comes from and where ours goes. */
typedef enum rd_mpirun_iof_stdin {
    RD_MPIRUN_STDIN_NONE,       /* every rank here reads /dev/null */
    RD_MPIRUN_STDIN_LOCAL,      /* our stdin to rank 0, which runs here */
    RD_MPIRUN_STDIN_REMOTE,     /* our stdin to rank 0 elsewhere, by stdin_send */
    RD_MPIRUN_STDIN_PUSHED,     /* rank 0 runs here and reads what is pushed */
} rd_mpirun_iof_stdin_t;

typedef struct rd_mpirun_iof_cfg {
    int nranks;             /* the job's ranks (indexes of setup_rank) */
    int tag_output;
    rd_mpirun_iof_stdin_t stdin_mode;
    /* Where output goes; NULL: our own stdout/stderr, or the files under
     * output_dir when set (--output-filename: DIR/1/rank.N/stdout and
     * stderr, N zero-padded to the digits of the job size, as Open MPI
     * names them). */
    rd_mpirun_iof_sink_t out_sink;
    const char *output_dir;
    /* REMOTE: passes on len bytes of our stdin (len 0: end of input). */
    void (*stdin_send)(const char *data, size_t len, void *arg);
    /* PUSHED: n more bytes may be pushed; closed: rank 0 stopped reading. */
    void (*stdin_credit)(size_t n, int closed, void *arg);
    void *arg;              /* for the three callbacks */
} rd_mpirun_iof_cfg_t;

int rd_mpirun_iof_init(const rd_mpirun_iof_cfg_t *cfg);

/* REMOTE: the daemon allows n more bytes; closed: send nothing more. */
void rd_mpirun_iof_stdin_credit(size_t n, int closed);

/* PUSHED: bytes for rank 0's stdin (len 0: end of input). Returns 0, or
 * -1 when they exceed the credit granted. */
int rd_mpirun_iof_stdin_push(const char *data, size_t len);

/* Writes output that arrived from another host as rank's own would be. */
void rd_mpirun_iof_emit(int rank, int stream, const char *data, size_t len);

/* Creates rank's pipes and returns in fds[0..2] the descriptors the child
 * must install as its stdin, stdout and stderr. Returns 0, or -1 with a
 * message printed. */
int rd_mpirun_iof_setup_rank(int rank, int fds[3]);

/* In the parent, after fork: closes the child's ends of rank's pipes. */
void rd_mpirun_iof_forked(int rank);

/* Puts the descriptors to poll in p[0..max-1]; returns how many. */
int rd_mpirun_iof_fill(struct pollfd *p, int max);

/* Handles what poll reported for the n entries rd_mpirun_iof_fill gave. */
void rd_mpirun_iof_handle(const struct pollfd *p, int n);

/* Number of ranks' output pipes not yet at end of file. */
int rd_mpirun_iof_open_outputs(void);

/* Stops forwarding stdin (rank 0 is gone). */
void rd_mpirun_iof_stop_stdin(void);

/* Writes what is buffered, closes every pipe and frees everything. */
void rd_mpirun_iof_fini(void);

#endif
