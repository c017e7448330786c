/*
 * Reaching the other hosts: the head's listening socket and the addresses
 * it can be reached at, the job secret, the launch agent that starts a
 * host daemon ("AGENT HOST mpirun --rd-daemon ..."), and the daemon's
 * connection back to the head.
 */
#ifndef RD_MPIRUN_LAUNCH_H
#define RD_MPIRUN_LAUNCH_H

#include <sys/types.h>

/* The hidden first argument that makes mpirun a host daemon:
 * mpirun --rd-daemon PORT ADDRESSES HOST, the job secret on its stdin */
#define RD_MPIRUN_DAEMON_ARG "--rd-daemon"
/* Hex digits of the job secret (128 bits). */
#define RD_MPIRUN_SECRET_LEN 32
/* How long a daemon tries each of the head's addresses, in ms. */
#define RD_MPIRUN_CONNECT_TIMEOUT_MS 5000

/* Listens on a free TCP port on addr (numeric), or on every address when
 * addr is NULL. Returns the socket and sets *port, or -1 with a message
 * printed. */
int rd_mpirun_listen(const char *addr, int *port);

/* The one address of this host that the routes to all n hosts leave from
 * (malloc'ed): where their daemons will connect to. NULL when a name does
 * not resolve here or the routes leave from different addresses. */
char *rd_mpirun_daemon_source(const char *const *hosts, int n);

/* This host's addresses, comma-separated, loopback last (malloc'ed), or
 * NULL with a message printed. */
char *rd_mpirun_addresses(void);

/* Fills secret with RD_MPIRUN_SECRET_LEN random hex digits and a NUL.
 * Returns 0, or -1 with a message printed. */
int rd_mpirun_make_secret(char *secret);

/* Starts "agent host self --rd-daemon port addrs hostidx", the agent
 * split at blanks, in its own process group with stdout to our stderr and
 * on its stdin one line, the secret, then end of file. Returns its pid,
 * or -1 with a message printed. */
pid_t rd_mpirun_spawn_agent(const char *agent, const char *host, const char *self,
                            int port, const char *addrs, int hostidx, const char *secret);

/* In a daemon: reads the job secret (RD_MPIRUN_SECRET_LEN + 1 bytes)
 * from stdin, waiting at most RD_MPIRUN_CONNECT_TIMEOUT_MS, and puts
 * /dev/null in its place. Returns 0, or -1 with a message printed. */
int rd_mpirun_read_secret(char *secret);

/* In a daemon: connects to the first of the comma-separated addresses
 * that answers on port. Returns the socket, or -1 with a message printed. */
int rd_mpirun_connect_head(const char *addrs, int port);

#endif
