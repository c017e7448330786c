/*
 * Command line of mpirun/mpiexec: parsing, --help and --version. The parser
 * is hand-written because MPI launchers take single-dash long options
 * (-np, -genv) that getopt_long cannot express.
 */
#ifndef RD_MPIRUN_OPTIONS_H
#define RD_MPIRUN_OPTIONS_H

#include <stddef.h>

/* Process binding requested with --bind-to. */
typedef enum rd_mpirun_bind {
    RD_MPIRUN_BIND_AUTO,    /* not given: core when there are enough cores
                             * (or the --map-by object when one is given) */
    RD_MPIRUN_BIND_CORE,
    RD_MPIRUN_BIND_NONE,
    RD_MPIRUN_BIND_SOCKET,
    RD_MPIRUN_BIND_NUMA,
    RD_MPIRUN_BIND_HWTHREAD,
} rd_mpirun_bind_t;

/* What the ranks of a host are spread over (--map-by core|socket|numa,
 * ppr:N:resource). */
typedef enum rd_mpirun_obj {
    RD_MPIRUN_OBJ_CORE,
    RD_MPIRUN_OBJ_SOCKET,
    RD_MPIRUN_OBJ_NUMA,
    RD_MPIRUN_OBJ_HWTHREAD,
    RD_MPIRUN_OBJ_NODE,
} rd_mpirun_obj_t;

/* Which of mpirun's environment a rank inherits (MPICH's -envall,
 * -envnone, -envlist; -genv... for every program). */
typedef enum rd_mpirun_envmode {
    RD_MPIRUN_ENV_UNSET,    /* not given: the program follows the job's */
    RD_MPIRUN_ENV_ALL,      /* all of it (the default) */
    RD_MPIRUN_ENV_NONE,     /* none of it */
    RD_MPIRUN_ENV_LIST,     /* only the variables of the list */
} rd_mpirun_envmode_t;

/* What an app owns (rd_mpirun_opts_free frees it). */
#define RD_MPIRUN_APP_OWN_ARRAY 1   /* the argv array */
#define RD_MPIRUN_APP_OWN_WORDS 2   /* the argv strings */

/* One program of the job. Several (MPMD: "a : b", -configfile, --app)
 * share one MPI_COMM_WORLD, each program's ranks following the previous
 * program's; a rank's MPI_APPNUM is its program's index. */
typedef struct rd_mpirun_app {
    int np;                 /* its ranks (-n in its block), default 1 */
    int np_given;
    char **argv;            /* the program and its arguments (NULL-terminated) */
    int own;                /* RD_MPIRUN_APP_OWN_* */
    char **env;             /* "VAR=VALUE" for its ranks only (-env, or -x after ':') */
    int nenv;
    char *path;             /* the program found (malloc'ed), set by the caller */
    rd_mpirun_envmode_t env_mode;   /* -envall, -envnone, -envlist */
    char *env_list;         /* -envlist's "A,B" (malloc'ed) */
} rd_mpirun_app_t;

typedef struct rd_mpirun_opts {
    int np;                 /* ranks of all the programs */
    char **env;             /* "VAR=VALUE" set in every rank (-x, -genv), in order */
    int nenv;
    int tag_output;         /* --tag-output, -l */
    rd_mpirun_envmode_t env_mode;   /* -genvall, -genvnone, -genvlist */
    char *env_list;         /* -genvlist's "A,B" (malloc'ed) */
    const char *wdir;       /* -wdir: where the ranks start */
    const char *output_dir; /* --output-filename: a file per rank and stream */
    long timeout;           /* --timeout seconds, 0 = none */
    rd_mpirun_bind_t bind;  /* --bind-to */
    rd_mpirun_obj_t map_obj;    /* --map-by core|socket|numa|ppr:N:obj */
    int map_given;          /* --map-by named an object (else core, by default) */
    int ppr;                /* ppr:N:obj: N ranks per object, 0 = round-robin */
    int report_bindings;    /* --report-bindings */
    int display_map;        /* --display-map */
    char **hosts;           /* -hosts / -hostfile entries, in order */
    int *slots;             /* slots of each entry */
    int nhosts;
    int ppn;                /* -ppn, --npernode, 0 = per-host slots */
    int map_by_node;        /* --map-by node (else slot) */
    const char *agent;      /* --launch-agent, default "ssh" */
    rd_mpirun_app_t *apps;  /* the programs, in rank order */
    int napps;
} rd_mpirun_opts_t;

/* Most programs in one job. */
#define RD_MPIRUN_APPS_MAX 4096

/* Exit status for usage errors (unknown option, bad value, no program). */
#define RD_MPIRUN_EXIT_USAGE 2

/* Default launch agent: run as "<agent words> HOST command...". */
#define RD_MPIRUN_AGENT_DEFAULT "ssh"

/* Parses argv into *o. Returns 0 to go on and run the job, 1 when --help or
 * --version was printed (exit 0; --info replaces the process with
 * rdmpi_info), RD_MPIRUN_EXIT_USAGE after printing one
 * line on stderr about a usage error, or -1 when out of memory. */
int rd_mpirun_opts_parse(int argc, char **argv, rd_mpirun_opts_t *o);

/* Adds a program to o->apps (zeroed, np 1). Returns it, or NULL when out
 * of memory. */
rd_mpirun_app_t *rd_mpirun_opts_add_app(rd_mpirun_opts_t *o);

/* Appends "name=value" to *env (a NULL-terminated list of *n entries).
 * Returns 0, or -1 when out of memory. */
int rd_mpirun_env_add(char ***env, int *n, const char *name, size_t namelen, const char *value);

/* 1 when the variable "name=..." of mpirun's environment goes to the
 * ranks of app under the -envall/-envnone/-envlist rules (the program's
 * own, else the job's -genv... ones). PMIx's own variables always do. */
int rd_mpirun_env_inherited(const rd_mpirun_opts_t *o, const rd_mpirun_app_t *app,
                            const char *var);

void rd_mpirun_opts_free(rd_mpirun_opts_t *o);

#endif
