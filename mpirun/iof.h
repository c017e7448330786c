/*
 * I/O forwarding: every rank's stdout and stderr come to mpirun through
 * pipes and are written to mpirun's own stdout and stderr a whole line at a
 * time, so lines of different ranks never mix (optionally tagged with the
 * rank); mpirun's stdin goes to rank 0, the other ranks read /dev/null.
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

/* nranks: the job's ranks (indexes of rd_mpirun_iof_setup_rank). stdin_rank0:
 * whether rank 0 runs here and gets our stdin (else every rank reads
 * /dev/null). sink: NULL to write to our own stdout/stderr. */
int rd_mpirun_iof_init(int nranks, int tag_output, int stdin_rank0,
                       rd_mpirun_iof_sink_t sink, void *sink_arg);

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
