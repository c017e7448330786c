/*
 * The state of one job, shared by the files that run it (private to
 * mpirun's job: job.c, loop.c, ranks.c, fence.c, head.c, uplink.c), and
 * the exit policy that moves it from RUNNING to STOPPING and decides the
 * exit status (job_state.c). One struct, so that every part of the job
 * sees the same deadlines and the same first failure.
 *
 * States: RUNNING until the first failure (a rank killed by a signal, a rank
 * that connected to PMIx and exited without finalizing, MPI_Abort, the
 * timeout, a signal to mpirun, a lost host daemon); then STOPPING: the
 * ranks' process groups got SIGTERM (or the signal mpirun received) and get
 * SIGKILL when the grace runs out; the head tells every daemon to do the
 * same with its ranks. Either way the loop ends once every rank is reaped,
 * their output is drained, and (on the head) every daemon is done or gone.
 * The first failure decides the exit status; without one it is the first
 * non-zero exit status of a rank.
 */
#ifndef RD_MPIRUN_JOB_STATE_H
#define RD_MPIRUN_JOB_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hosts.h"
#include "job.h"
#include "options.h"
#include "procs.h"
#include "server.h"
#include "wire.h"

/* Connections accepted and not yet identified by their HELLO; when all
 * are taken, a new one replaces the oldest. */
#define RD_MPIRUN_PENDING_MAX 64
/* How long an accepted connection may take to say HELLO, in ms. */
#define RD_MPIRUN_HELLO_MS 5000
/* Most bytes a connection may send before its HELLO is accepted: a HELLO
 * and room to spare (its secret is 32 digits). */
#define RD_MPIRUN_HELLO_BYTES 256

typedef enum rd_mpirun_job_state {
    RD_MPIRUN_JOB_RUNNING,
    RD_MPIRUN_JOB_STOPPING,
} rd_mpirun_job_state_t;

/* A host daemon, as the head sees it. */
typedef enum rd_mpirun_remote_state {
    RD_MPIRUN_REMOTE_LAUNCHED,        /* agent started, not connected yet */
    RD_MPIRUN_REMOTE_STARTING,        /* connected, job sent, starting its ranks */
    RD_MPIRUN_REMOTE_UP,              /* said READY: running its ranks */
    RD_MPIRUN_REMOTE_DONE,            /* said DONE: all its ranks ended */
    RD_MPIRUN_REMOTE_GONE,            /* failed or lost */
} rd_mpirun_remote_state_t;

typedef struct rd_mpirun_remote {
    int host;               /* index in the plan */
    pid_t agent;            /* launch agent, 0 once reaped */
    rd_mpirun_remote_state_t state;
    rd_mpirun_conn_t conn;
    long long launched_at;
    /* An agent that exited with status 0 while its daemon's connection
     * was open (its last messages may still be on the way): judged at
     * the end of that connection, or after the heartbeat timeout. */
    pid_t exited_agent;
    long long exited_at;
} rd_mpirun_remote_t;

typedef struct rd_mpirun_pending {
    rd_mpirun_conn_t conn;
    long long since;
} rd_mpirun_pending_t;

typedef struct rd_mpirun_job {
    const rd_mpirun_opts_t *opts;
    const rd_mpirun_plan_t *plan;
    int is_daemon;
    rd_mpirun_proc_t *procs;    /* np entries; ours are those of host plan->self */
    int np;
    int alive;              /* ranks started and not reaped */
    rd_mpirun_job_state_t state;
    int exit_status;        /* decided by the first failure */
    int first_nonzero;      /* first non-zero exit status of a rank */
    int sfd;                /* signalfd */
    long long timeout_at;   /* ms deadlines on CLOCK_MONOTONIC; 0 = none */
    int where_asked;        /* the timeout came: the ranks were asked where they are */
    long long kill_at;
    long long drain_at;
    long long ping_at;
    long long agents_kill_at;
    long long heartbeat_ms; /* silence after which a connection is lost */
    int local_over;         /* our ranks are reaped and their output drained */
    /* head */
    const rd_mpirun_head_cfg_t *head;
    rd_mpirun_remote_t *rem;
    int nrem;
    rd_mpirun_pending_t pend[RD_MPIRUN_PENDING_MAX];
    /* daemon */
    rd_mpirun_conn_t *up;   /* to the head; fd -1 once lost */
    /* the fence in flight */
    rd_mpirun_event_t *fence_ev;    /* our server's, waiting for the result */
    uint32_t fence_seq;
    char **fence_part;              /* head: each host's contribution */
    size_t *fence_len;
    int fence_have;
} rd_mpirun_job_t;

static inline const char *rd_mpirun_job_host(const rd_mpirun_job_t *j, int h)
{
    return j->plan->hosts[h].name;
}

/* A daemon connected to the head (messages can be sent to it). */
static inline int rd_mpirun_remote_connected(const rd_mpirun_remote_t *r)
{
    return r->state == RD_MPIRUN_REMOTE_STARTING || r->state == RD_MPIRUN_REMOTE_UP;
}

/* Stops our own ranks: sig to their process groups, SIGKILL after the
 * grace. Only the first call (while RUNNING) does anything. */
void rd_mpirun_job_stop_local(rd_mpirun_job_t *j, int sig);

/* Ends the job after its first failure (head): says why once, sends sig
 * to every rank's process group, here and through the daemons. Later
 * failures are consequences of this one and are not reported. */
void rd_mpirun_job_fail(rd_mpirun_job_t *j, int status, int sig, const char *why);

/* A failure here: the head ends the job, a daemon reports it to the head
 * (which decides) and stops its ranks. */
void rd_mpirun_job_fail_or_report(rd_mpirun_job_t *j, int status, const char *why);

/* Head: a rank's process ended (here or on another host) with wait status
 * st; a failure ends the job, a non-zero exit of a finalized rank becomes
 * the exit status if nothing fails. */
void rd_mpirun_job_rank_ended(rd_mpirun_job_t *j, int rank, long pid, int st, int connected,
                              int finalized);

/* Head: a rank called MPI_Abort (here or on another host). */
void rd_mpirun_job_rank_aborted(rd_mpirun_job_t *j, int rank, long pid, int code, const char *msg);

/* The exit status once the loop is over. */
int rd_mpirun_job_status(const rd_mpirun_job_t *j);

#endif
