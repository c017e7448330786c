/* mpirun's descriptor limit (see fdlimit.h). */
#include "fdlimit.h"

#include <stdio.h>
#include <sys/resource.h>

/* Descriptors mpirun holds whatever the job: its own stdio, signalfd,
 * eventfd, PMIx's listener and threads, the head's listener and the
 * connections it has not identified yet (RD_MPIRUN_PENDING_MAX). */
#define RD_MPIRUN_FDS_BASE 128
/* For each local rank: stdin, stdout and stderr pipes, its PMIx connection,
 * and room for a connection in PMIx's handshake. */
#define RD_MPIRUN_FDS_PER_RANK 8
/* For each host daemon: its connection and its launch agent's. */
#define RD_MPIRUN_FDS_PER_DAEMON 4

static struct rlimit given;
static int raised;

void rd_mpirun_fdlimit_raise(int nranks, int ndaemons)
{
    rlim_t need = RD_MPIRUN_FDS_BASE + (rlim_t)nranks * RD_MPIRUN_FDS_PER_RANK +
                  (rlim_t)ndaemons * RD_MPIRUN_FDS_PER_DAEMON;
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &given) != 0 || given.rlim_cur == RLIM_INFINITY ||
        given.rlim_cur >= need)
        return;
    rl = given;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
    if (rl.rlim_cur > given.rlim_cur && setrlimit(RLIMIT_NOFILE, &rl) == 0)
        raised = 1;
    if (rl.rlim_cur < need)
        fprintf(stderr, "mpirun: warning: the job needs about %llu file descriptors in mpirun, "
                "the limit is %llu (ulimit -Hn)\n", (unsigned long long)need,
                (unsigned long long)rl.rlim_cur);
}

void rd_mpirun_fdlimit_restore(void)
{
    if (raised)
        setrlimit(RLIMIT_NOFILE, &given);
}
