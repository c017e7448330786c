/*
 * The hosts of a job and where each rank runs: the host list (-hosts,
 * -hostfile, -ppn), the placement of the ranks on it (--map-by slot|node),
 * which host is the one mpirun runs on, and which program (MPMD) each
 * rank runs.
 */
#ifndef RD_MPIRUN_HOSTS_H
#define RD_MPIRUN_HOSTS_H

/* Longest host name accepted (DNS names are at most 253 bytes). */
#define RD_MPIRUN_HOST_MAX 255

typedef struct rd_mpirun_host {
    char *name;
    int slots;              /* ranks per round of the mapping */
    int nranks;             /* ranks placed here */
    int local;              /* 1 when this is the host mpirun runs on */
} rd_mpirun_host_t;

typedef struct rd_mpirun_plan {
    int np;
    int nhosts;             /* hosts with at least one rank, in list order */
    rd_mpirun_host_t *hosts;
    int *host_of;           /* np entries: rank -> index into hosts */
    int *local_rank;        /* np entries: index of the rank among its host's */
    int self;               /* index of mpirun's own host, -1 when none */
    int napps;              /* programs of the job (MPMD), 0 until set */
    int *app_of;            /* np entries: rank -> its program's index */
    int *app_rank;          /* np entries: index of the rank among its program's */
} rd_mpirun_plan_t;

/* Appends the hosts of a "-hosts" value ("a,b:2,c"; ":N" gives N slots)
 * to *names and *slots. Returns 0, or RD_MPIRUN_EXIT_USAGE after one line on
 * stderr, or -1 when out of memory. */
int rd_mpirun_hosts_parse_list(const char *list, char ***names, int **slots, int *n);

/* Same for a host file: one host per line, "name:N" (MPICH) or
 * "name [slots=N]" (Open MPI), '#' starts a comment, blank lines are
 * ignored. */
int rd_mpirun_hosts_parse_file(const char *path, char ***names, int **slots, int *n);

/* 1 when name designates the host mpirun runs on: "localhost", a loopback
 * address or one of this host's addresses, this host's name (or its first
 * label), the name of the network namespace mpirun runs in (/run/netns/NAME,
 * as ip netns names them), or a name resolving to one of those addresses. */
int rd_mpirun_host_is_self(const char *name);

/* Places np ranks on the n hosts: slots[i] per host and per round (ppn > 0
 * overrides them all), filling each host in turn (by_node = 0) or one rank
 * per host in turn (by_node = 1); when np exceeds the slots, the rounds
 * repeat. Hosts named twice are merged; hosts left without a rank are
 * dropped. Returns 0, or -1 (out of memory). */
int rd_mpirun_plan_make(rd_mpirun_plan_t *plan, int np, char **names, const int *slots, int n,
                        int ppn, int by_node);

/* A host daemon's copy of the head's plan: host names and the host of
 * each rank; self is the daemon's host. Returns 0, or -1 when the map is
 * inconsistent or memory runs out. */
int rd_mpirun_plan_from_map(rd_mpirun_plan_t *plan, int np, const char *const *names, int nhosts,
                            const int *host_of, int self);

/* Gives the ranks to the napps programs in order, app_np[k] ranks to
 * program k (they add up to plan->np). Returns 0, or -1 when they do not
 * add up or memory runs out. */
int rd_mpirun_plan_set_apps(rd_mpirun_plan_t *plan, const int *app_np, int napps);

/* Ranks of host h, ascending, as "r,r,r" (malloc'ed). */
char *rd_mpirun_plan_ranks_of(const rd_mpirun_plan_t *plan, int h);

void rd_mpirun_plan_free(rd_mpirun_plan_t *plan);

#endif
