/*
 * Command line of mpirun/mpiexec: parsing, --help and --version. The parser
 * is hand-written because MPI launchers take single-dash long options
 * (-np, -genv) that getopt_long cannot express.
 */
#ifndef RD_MPIRUN_OPTIONS_H
#define RD_MPIRUN_OPTIONS_H

/* Process binding requested with --bind-to. */
typedef enum rd_mpirun_bind {
    RD_MPIRUN_BIND_AUTO,    /* not given: core when there are enough cores */
    RD_MPIRUN_BIND_CORE,
    RD_MPIRUN_BIND_NONE,
} rd_mpirun_bind_t;

typedef struct rd_mpirun_opts {
    int np;                 /* ranks to start (-n/-np), default 1 */
    char **env;             /* "VAR=VALUE" set in every rank (-x, -genv), in order */
    int nenv;
    int tag_output;         /* --tag-output */
    long timeout;           /* --timeout seconds, 0 = none */
    rd_mpirun_bind_t bind;  /* --bind-to */
    int np_given;           /* -n was given (else hosts' slots decide) */
    char **hosts;           /* -hosts / -hostfile entries, in order */
    int *slots;             /* slots of each entry */
    int nhosts;
    int ppn;                /* -ppn, 0 = per-host slots */
    int map_by_node;        /* --map-by node (else slot) */
    const char *agent;      /* --launch-agent, default "ssh" */
    char **argv;            /* the program and its arguments (NULL-terminated) */
} rd_mpirun_opts_t;

/* Exit status for usage errors (unknown option, bad value, no program). */
#define RD_MPIRUN_EXIT_USAGE 2

/* Default launch agent: run as "<agent words> HOST command...". */
#define RD_MPIRUN_AGENT_DEFAULT "ssh"

/* Parses argv into *o. Returns 0 to go on and run the job, 1 when --help or
 * --version was printed (exit 0; --info replaces the process with
 * rdmpi_info), RD_MPIRUN_EXIT_USAGE after printing one
 * line on stderr about a usage error, or -1 when out of memory. */
int rd_mpirun_opts_parse(int argc, char **argv, rd_mpirun_opts_t *o);

void rd_mpirun_opts_free(rd_mpirun_opts_t *o);

#endif
