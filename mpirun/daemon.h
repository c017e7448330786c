/*
 * The host daemon: what mpirun becomes when a launch agent starts it on
 * another host as "mpirun --rd-daemon PORT ADDRESSES HOST", the job
 * secret on its stdin. It connects back to the head, receives the job,
 * and runs the ranks of its host (PMIx server, stdio, signals) under the
 * head's direction.
 */
#ifndef RD_MPIRUN_DAEMON_H
#define RD_MPIRUN_DAEMON_H

/* argv[1] is RD_MPIRUN_DAEMON_ARG. Returns the daemon's exit status. */
int rd_mpirun_daemon_main(int argc, char **argv);

#endif
