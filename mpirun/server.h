/*
 * mpirun's PMIx server: the OpenPMIx server library serves the ranks'
 * PMIx client calls, and calls us back for what needs the host's help
 * (connect, finalize, abort, fence).
 *
 * Those callbacks run on PMIx's progress thread. They do no work there:
 * each becomes an rd_mpirun_event_t on a mutex-protected queue, and an
 * eventfd wakes mpirun's main loop, which handles the event and, when
 * PMIx waits for an answer, completes it with rd_mpirun_server_complete.
 */
#ifndef RD_MPIRUN_SERVER_H
#define RD_MPIRUN_SERVER_H

#include <pmix.h>
#include <pmix_server.h>
#include <stddef.h>

#include "hosts.h"

typedef enum rd_mpirun_event_type {
    RD_MPIRUN_EV_CONNECTED,     /* rank called PMIx_Init */
    RD_MPIRUN_EV_FINALIZED,     /* rank called PMIx_Finalize */
    RD_MPIRUN_EV_ABORT,         /* rank called PMIx_Abort: status, msg */
    RD_MPIRUN_EV_FENCE,         /* every local rank entered a fence: data */
} rd_mpirun_event_type_t;

typedef struct rd_mpirun_event {
    struct rd_mpirun_event *next;
    rd_mpirun_event_type_t type;
    int rank;                   /* the rank concerned; -1 for a fence */
    int status;                 /* ABORT: the exit code asked for */
    char *msg;                  /* ABORT: the message, never NULL */
    char *data;                 /* FENCE: the local ranks' contribution */
    size_t ndata;
    /* PMIx's continuation, called by rd_mpirun_server_complete. */
    pmix_op_cbfunc_t op_cb;
    pmix_modex_cbfunc_t modex_cb;
    void *cbdata;
} rd_mpirun_event_t;

/* Starts the PMIx server with its rendezvous files in tmpdir; hostname is
 * this host's name in the job (PMIx's node name). Returns 0, or -1 with a
 * message printed. */
int rd_mpirun_server_init(const char *tmpdir, const char *nspace, const char *hostname);

/* Describes the whole job to the server (sizes, node and proc maps, each
 * rank's host, node id and local rank) as plan places it, this server
 * serving the ranks of host plan->self. Returns 0, or -1 with a message
 * printed. */
int rd_mpirun_server_register_job(const rd_mpirun_plan_t *plan);

/* Registers rank with the server and adds to *env (a malloc'ed,
 * NULL-terminated array, as PMIx's argv helpers use) what the rank needs
 * to connect back. Returns 0, or -1 with a message printed. */
int rd_mpirun_server_setup_rank(int rank, char ***env);

/* A rank's process is gone: the server forgets it. */
void rd_mpirun_server_rank_gone(int rank);

/* File descriptor that becomes readable when events are queued. */
int rd_mpirun_server_fd(void);

/* Next queued event, or NULL. The caller passes it to
 * rd_mpirun_server_complete when done. */
rd_mpirun_event_t *rd_mpirun_server_next(void);

/* Answers PMIx for ev and frees ev; not for a fence. */
void rd_mpirun_server_complete(rd_mpirun_event_t *ev);

/* Completes a fence: data (malloc'ed, len bytes; now PMIx's) is every
 * host's contribution, concatenated. Frees ev. */
void rd_mpirun_server_fence_result(rd_mpirun_event_t *ev, char *data, size_t len);

/* Deregisters the job and stops the server; safe after a failed init. */
void rd_mpirun_server_finalize(void);

#endif
