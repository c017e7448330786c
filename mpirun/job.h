/*
 * One job from start to end: starts the ranks of this host, runs the event
 * loop (rank exits, PMIx events, mpirun's signals, output, the timeout,
 * the connections between the head mpirun and its host daemons) and
 * decides when and how the job ends and with which exit status.
 *
 * The head (the mpirun the user started) decides; a host daemon (mpirun
 * --rd-daemon on another host) runs the ranks of its host and reports
 * everything to the head: output, rank exits, aborts, fence data.
 */
#ifndef RD_MPIRUN_JOB_H
#define RD_MPIRUN_JOB_H

#include "hosts.h"
#include "options.h"
#include "wire.h"

/* Grace between SIGTERM (or a forwarded signal) and SIGKILL, in ms. */
#define RD_MPIRUN_KILL_GRACE_MS 500
/* How long output may still arrive after the last rank exited, in ms. */
#define RD_MPIRUN_DRAIN_MS 2000
/* How long a rank that exited with 0 may take to be reported as finalized
 * (the report comes from PMIx's thread) before it counts as a failure. */
#define RD_MPIRUN_FINALIZE_GRACE_MS 300
/* Exit status when --timeout ends the job (as timeout(1)). */
#define RD_MPIRUN_EXIT_TIMEOUT 124
/* When the timeout comes, how long the ranks have to say where they are
 * blocked (RD_BOOT_WHERE_SIGNAL) before the job is ended, in ms. */
#define RD_MPIRUN_WHERE_WAIT_MS 2000
/* Heartbeat between head and daemons: a message at least this often... */
#define RD_MPIRUN_PING_MS 1000
/* ...and a connection silent for this long (RDMPI_HEARTBEAT_TIMEOUT, in
 * seconds) is lost. Generous: a loaded machine can delay a process's
 * loop by a second or more, and a false alarm kills the whole job. */
#define RD_MPIRUN_HEARTBEAT_TIMEOUT_S 20
#define RD_MPIRUN_HEARTBEAT_TIMEOUT_MIN_S 2
#define RD_MPIRUN_HEARTBEAT_TIMEOUT_MAX_S 86400
/* How long a host daemon may take from its launch to running its ranks
 * (connecting back, starting its PMIx server, forking), or the heartbeat
 * timeout if that is longer; the heartbeat timeout applies once it said
 * READY. */
#define RD_MPIRUN_LAUNCH_TIMEOUT_MS 60000
/* After the job, how long launch agents get to exit before SIGKILL. */
#define RD_MPIRUN_AGENT_GRACE_MS 3000

/* What the head needs to start and reach its host daemons. */
typedef struct rd_mpirun_head_cfg {
    const char *agent;      /* --launch-agent */
    const char *self_exe;   /* this mpirun, as the remote hosts run it */
    int lfd;                /* listening socket */
    int port;
    const char *addrs;      /* our addresses, for the daemons */
    const char *secret;
    const char *nspace;
    long long heartbeat_ms; /* rd_mpirun_heartbeat_timeout_ms() */
} rd_mpirun_head_cfg_t;

/* The heartbeat timeout in ms: RDMPI_HEARTBEAT_TIMEOUT seconds (read here
 * only; the head passes it to the daemons), default
 * RD_MPIRUN_HEARTBEAT_TIMEOUT_S. Sets *ms and returns 0, or prints one line
 * naming the variable and its range and returns RD_MPIRUN_EXIT_USAGE. */
int rd_mpirun_heartbeat_timeout_ms(long long *ms);

/* Signals mpirun handles in its loop; blocked before any thread starts:
 * every signal whose default action would end mpirun, except those it
 * was started with ignored. */
int rd_mpirun_job_block_signals(void);

/* 1 for the signals passed on to the ranks without ending the job
 * (SIGUSR1, SIGUSR2, SIGALRM). */
int rd_mpirun_job_signal_forwarded(int sig);

/* The signal the ranks get when mpirun receives sig, which stops the
 * job: SIGINT, SIGTERM and SIGHUP themselves, SIGTERM for the others. */
int rd_mpirun_job_signal_for_ranks(int sig);

/* Head: runs the job of plan (ranks of host plan->self here, each
 * running its program of o->apps, whose paths are set; the other hosts'
 * through daemons started as head says, head NULL when every rank is
 * here). Returns mpirun's exit status. Every rank process and agent is
 * gone on return. */
int rd_mpirun_job_run(const rd_mpirun_opts_t *o, const rd_mpirun_plan_t *plan,
                      const rd_mpirun_head_cfg_t *head);

/* Host daemon: runs the ranks of host plan->self, reporting to the head
 * over conn (its JOB message already read; heartbeat_ms from it). Returns
 * the daemon's exit status. */
int rd_mpirun_job_run_daemon(const rd_mpirun_opts_t *o, const rd_mpirun_plan_t *plan,
                             rd_mpirun_conn_t *conn, long long heartbeat_ms);

#endif
