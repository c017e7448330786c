/*
 * Bootstrap: what a rank learns from its process manager, behind one
 * interface with one back end per protocol: PMIx (rdmpi's mpirun, Slurm's
 * srun --mpi=pmix) and MPICH's simple wire protocols PMI-2 and PMI-1
 * (Slurm's srun --mpi=pmi2; MPICH's Hydra: mpiexec.hydra, mpirun.mpich). Started with no process manager at all
 * (./a.out), a rank runs as a singleton job of size 1; started by a launcher
 * rdmpi cannot talk to, rd_boot_init fails and its detail says which
 * launcher it looks like and what to use instead.
 */
#ifndef RD_BOOT_BOOT_H
#define RD_BOOT_BOOT_H

#include <stddef.h>

typedef struct rd_boot_info {
    int rank;               /* rank in the job (MPI_COMM_WORLD) */
    int size;               /* number of ranks in the job */
    int local_rank;         /* index of this rank among those on its node */
    int local_size;         /* ranks on this node */
    int *local_ranks;       /* job ranks on this node, ascending, local_size of them */
    int node_id;            /* this node within the job: equal for the ranks of one
                             * node, different between nodes (PMIX_NODEID, else the
                             * lowest job rank on the node); hosts that share
                             * /dev/shm (network namespaces) tell nodes apart by it */
    int universe_size;      /* PMIX_UNIV_SIZE, or size */
    int appnum;             /* PMIX_APPNUM, or 0 */
    int singleton;          /* 1 when no process manager was found */
    char job_id[64];        /* unique per job, usable in file names ([A-Za-z0-9._-]) */
    char hostname[256];
} rd_boot_info_t;

/* Connects to the process manager and fills *info, and takes the job key
 * (below) out of the environment. Returns RD_OK or RD_EBOOT. */
int rd_boot_init(rd_boot_info_t *info);

/* The protocol rd_boot_init chose (after it: "PMIx", "PMI-2", "PMI-1", or
 * "none found" for a singleton), or would try ("PMI-2 or PMI-1" before the
 * process manager has answered). */
const char *rd_boot_name(void);

/* The signal mpirun sends each rank of a job that timed out, before it
 * ends the job, to ask where the rank is blocked (src/api/crash.c answers
 * on stderr). SIGURG's default action is to ignore it, so a program
 * without rdmpi (a wrapper script, a shell) is not disturbed; mpirun
 * forwards no SIGURG of its own. (Its user includes <signal.h>.) */
#define RD_BOOT_WHERE_SIGNAL SIGURG

/* The job key: a secret rdmpi's mpirun makes for each job and hands to
 * every rank of it in its environment, never through the key-value store
 * (ranks on other hosts get it from their host daemon, which received it
 * over its authenticated connection to the head). RD_BOOT_JOB_KEY_ENV
 * holds it as 2 * RD_BOOT_JOB_KEY_LEN lowercase hex digits; rd_boot_init
 * takes it out of the environment (the digits overwritten, the variable
 * unset), so the program's child processes and environment dumps do not
 * carry it. */
#define RD_BOOT_JOB_KEY_LEN 16
#define RD_BOOT_JOB_KEY_ENV "RDMPI_JOB_KEY"

/* After rd_boot_init: copies the job key to key and returns 1, or returns
 * 0 when the launcher gave none (srun, Hydra, a singleton); a layer that
 * needs a secret then makes its own and publishes it with rd_boot_put,
 * which only that launcher's ranks can read. */
int rd_boot_job_key(unsigned char key[RD_BOOT_JOB_KEY_LEN]);

/* Publishes a value under key for the other ranks (visible after rd_boot_fence). */
int rd_boot_put(const char *key, const void *val, size_t len);

/* Collective over all ranks of the job: commits puts and waits for every rank. */
int rd_boot_fence(void);

/* Reads a value that rank published. *len: in, the buffer size; out, the value's size.
 * Returns RD_OK, RD_EINVAL if the key is unknown, RD_ENOMEM if buf is too small. */
int rd_boot_get(int rank, const char *key, void *buf, size_t *len);

/* Asks the process manager to end the whole job with this exit code; does not return. */
void rd_boot_abort(int code, const char *msg) __attribute__((noreturn));

/* Disconnects from the process manager; info's arrays are freed. */
int rd_boot_finalize(rd_boot_info_t *info);

#endif
