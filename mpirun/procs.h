/*
 * The ranks' processes: fork/exec with the rank's stdio, environment and
 * core binding; signalling; reaping. Each rank leads its own process
 * group, so a signal reaches whatever it started too.
 */
#ifndef RD_MPIRUN_PROCS_H
#define RD_MPIRUN_PROCS_H

#include <sys/types.h>

typedef struct rd_mpirun_proc {
    int rank;
    int local_rank;         /* among the ranks of this host: its core */
    pid_t pid;              /* 0 until started; also its process group */
    int alive;              /* started and not yet reaped */
    int connected;          /* called PMIx_Init */
    int finalized;          /* called PMIx_Finalize */
    int wstatus;            /* from waitpid, once reaped */
} rd_mpirun_proc_t;

/* Finds program the way execvp would (a name without '/' is looked up in
 * PATH). Returns a malloc'ed path, or NULL with a message printed. */
char *rd_mpirun_find_program(const char *program);

/* Starts p's process running path with argv and env, its stdin, stdout
 * and stderr being fds[0..2]. Returns 0, or -1 with a message printed. */
int rd_mpirun_proc_spawn(rd_mpirun_proc_t *p, const char *path, char **argv, char **env,
                         const int fds[3]);

/* Sends sig to the process group of each started proc. */
void rd_mpirun_procs_signal(rd_mpirun_proc_t *procs, int n, int sig);

/* Reaps every exited child without waiting; for each one of procs,
 * records its status, clears alive and calls cb; for any other child
 * (a launch agent) calls other. */
void rd_mpirun_procs_reap(rd_mpirun_proc_t *procs, int n,
                          void (*cb)(rd_mpirun_proc_t *p, void *arg),
                          void (*other)(pid_t pid, int wstatus, void *arg), void *arg);

#endif
