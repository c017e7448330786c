/* mpirun's command line (see options.h and doc/mpirun.md). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "options.h"

#include "hosts.h"

#include <errno.h>
#include <limits.h>
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* Upper bounds of numeric options. Local ranks are 16-bit in PMIx. */
#define RD_MPIRUN_NP_MAX 65535
/* Seconds; keeps the millisecond deadline arithmetic far from overflow. */
#define RD_MPIRUN_TIMEOUT_MAX 100000000L

static const char usage_text[] =
    "Usage: mpirun [options] program [args...]\n"
    "       mpirun [options] [-n N] [-env VAR VALUE] prog1 [args] : [-n N] prog2 [args] ...\n"
    "       mpirun [options] -configfile FILE   (or --app FILE)\n"
    "       mpiexec ... (the same)\n"
    "\n"
    "Starts N copies of program as the ranks of one MPI job, on this host or on\n"
    "the hosts given. Several programs separated by ':' (MPMD) share one\n"
    "MPI_COMM_WORLD, numbered in the order given; MPI_APPNUM is a rank's\n"
    "program's index (0, 1, ...).\n"
    "\n"
    "Options:\n"
    "  -n N, -np N, --np N     number of ranks to start (default 1)\n"
    "  -x VAR                  export VAR, with its value in mpirun's environment\n"
    "  -x VAR=VALUE            set VAR to VALUE in every rank\n"
    "  -genv VAR VALUE         set VAR to VALUE in every rank\n"
    "  -env VAR VALUE          set VAR to VALUE in the ranks of this program\n"
    "                          (-n, -env and -x are a program's own options\n"
    "                          after ':')\n"
    "  -genvall, -envall       pass mpirun's environment to the ranks (the default)\n"
    "  -genvnone, -envnone     pass none of it (only -genv/-env/-x variables)\n"
    "  -genvlist A,B, -envlist A,B\n"
    "                          pass only the variables A, B, ... of it\n"
    "                          (-genv...: every program; -env...: this program)\n"
    "  -wdir DIR, --wdir DIR   start the ranks in DIR (also -wd; a relative\n"
    "                          program name is found from there)\n"
    "  -configfile FILE, --app FILE\n"
    "                          the programs, one per line: \"[-n N] [-env VAR\n"
    "                          VALUE] program [args]\" ('#' starts a comment)\n"
    "  --tag-output, -l        prefix every output line with \"[rank] \"\n"
    "  --output-filename DIR   each rank's stdout and stderr to the files\n"
    "                          DIR/1/rank.N/stdout and .../stderr instead\n"
    "  --timeout SECONDS       end the job after SECONDS (exit status 124),\n"
    "                          each rank first printing the MPI call it is\n"
    "                          blocked in; MPIEXEC_TIMEOUT=SECONDS in the\n"
    "                          environment does the same when --timeout is\n"
    "                          not given\n"
    "  --bind-to core|none     bind each rank to one core (round-robin when\n"
    "                          ranks outnumber cores), or not at all (default:\n"
    "                          core when there are at least as many cores as\n"
    "                          ranks or every core gets the same number of\n"
    "                          ranks, none otherwise; with --map-by OBJ, OBJ)\n"
    "  --bind-to socket|numa|hwthread\n"
    "                          bind each rank to the socket, NUMA node or\n"
    "                          hardware thread of its place (hwloc)\n"
    "  --map-by core|socket|numa\n"
    "                          spread a host's ranks round-robin over its\n"
    "                          cores (default), sockets or NUMA nodes\n"
    "  --map-by ppr:N:RES      N ranks on each RES (node, socket, numa, core,\n"
    "                          hwthread) of every host: N x RES ranks per host\n"
    "  --report-bindings       say on stderr where each rank is bound\n"
    "  --display-map           say on stderr which host each rank runs on\n"
    "  -hosts H1,H2,...        run on these hosts (H:N gives H N slots); also\n"
    "                          --host, -H\n"
    "  -hostfile FILE          hosts from FILE, one per line: \"host:N\" or\n"
    "                          \"host [slots=N]\"; also -f, -machinefile\n"
    "  -ppn N, --npernode N    N ranks per host (sets every host's slots)\n"
    "  --map-by slot|node      fill each host's slots in turn (slot, the default),\n"
    "                          or one rank per host in turn (node)\n"
    "  --launch-agent CMD      start remote daemons as \"CMD HOST command...\"\n"
    "                          (default ssh)\n"
    "                          -n defaults to the hosts' slots when hosts are given\n"
    "  --oversubscribe, --allow-run-as-root\n"
    "                          accepted and ignored: rdmpi never refuses more\n"
    "                          ranks than cores, nor to run as root\n"
    "  -h, --help              print this help and exit\n"
    "  -V, --version           print the version and exit\n"
    "  --info [--all] [--json] run rdmpi_info: what is built, what this machine\n"
    "                          offers, every RDMPI_* tunable (its exit status)\n"
    "  --                      end of options: the next word is the program\n"
    "\n"
    "Long options also take the form --option=VALUE.\n"
    "The exit status is the first non-zero exit status of a rank, 128+N when a\n"
    "rank was killed by signal N, the code given to MPI_Abort, or 2 for a usage\n"
    "error. SIGUSR1, SIGUSR2 and SIGALRM sent to mpirun are passed on to the\n"
    "ranks; any other signal stops the job. RDMPI_* variables are checked\n"
    "before the job starts: an unknown name gets a warning naming the closest\n"
    "known one, a bad value stops mpirun (status 2). See doc/mpirun.md and\n"
    "doc/tunables.md for details.\n";

/* mpirun --info: becomes rdmpi_info, installed beside mpirun (or, in the
 * build tree, in src/info), else found on PATH. Returns only on failure. */
static int run_info(char **args)
{
    char self[PATH_MAX], path[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof(path), "%s/rdmpi_info", self);
            execv(path, args);
            snprintf(path, sizeof(path), "%s/../src/info/rdmpi_info", self);
            execv(path, args);
        }
    }
    execvp("rdmpi_info", args);
    fprintf(stderr, "mpirun: --info: cannot run rdmpi_info: %s\n", strerror(errno));
    return RD_MPIRUN_EXIT_USAGE;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mpirun: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see mpirun --help)\n");
    return RD_MPIRUN_EXIT_USAGE;
}

/* Parses a decimal integer in [lo, hi]; returns 0 on success. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int valid_var_name(const char *s, size_t len)
{
    if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    return 1;
}

int rd_mpirun_env_add(char ***env, int *n, const char *name, size_t namelen, const char *value)
{
    char **nenv = realloc(*env, (*n + 2) * sizeof(*nenv));
    if (!nenv)
        return -1;
    *env = nenv;
    if (asprintf(&nenv[*n], "%.*s=%s", (int)namelen, name, value) < 0)
        return -1;
    nenv[++*n] = NULL;
    return 0;
}

rd_mpirun_app_t *rd_mpirun_opts_add_app(rd_mpirun_opts_t *o)
{
    rd_mpirun_app_t *a = realloc(o->apps, (size_t)(o->napps + 1) * sizeof(*a));
    if (!a)
        return NULL;
    o->apps = a;
    a += o->napps++;
    memset(a, 0, sizeof(*a));
    a->np = 1;
    return a;
}

/* -x VAR or -x VAR=VALUE, into *env. */
static int opt_export(char ***env, int *nenv, const char *arg)
{
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const char *value;

    if (!valid_var_name(arg, len))
        return usage_error("-x: '%s' is not a valid variable name", arg);
    if (eq)
        return rd_mpirun_env_add(env, nenv, arg, len, eq + 1) ? -1 : 0;
    value = getenv(arg);
    if (!value) {
        fprintf(stderr, "mpirun: warning: -x %s: not set in mpirun's environment, not exported\n", arg);
        return 0;
    }
    return rd_mpirun_env_add(env, nenv, arg, len, value) ? -1 : 0;
}

/*
 * Matches argv[*i] against an option taking a value. names is a
 * NULL-terminated list of spellings ("-np", "--np"); spellings starting
 * with "--" also accept "--name=value". On a match *val is the value (taken
 * from the next word when needed, advancing *i) and 1 is returned; 0 when
 * argv[*i] is not this option; -1 when the value is missing.
 */
static int match_valued(int argc, char **argv, int *i, const char *const *names, const char **val)
{
    const char *a = argv[*i];

    for (; *names; names++) {
        size_t n = strlen(*names);
        if (strncmp(a, *names, n) != 0)
            continue;
        if (a[n] == '=' && (*names)[1] == '-') {
            *val = a + n + 1;
            return 1;
        }
        if (a[n] != '\0')
            continue;
        if (*i + 1 >= argc)
            return -1;
        *val = argv[++*i];
        return 1;
    }
    return 0;
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* -n N of a program; a is the option as written, m match_valued's result. */
static int opt_np(rd_mpirun_app_t *app, const char *a, int m, const char *val)
{
    long v;

    if (m < 0)
        return usage_error("option '%s' needs a number of ranks", a);
    if (parse_long(val, 1, RD_MPIRUN_NP_MAX, &v))
        return usage_error("bad number of ranks '%s' (expected 1 to 65535)", val);
    app->np = (int)v;
    app->np_given = 1;
    return 0;
}

/* -genv / -env VAR VALUE at w[*i], into *env. */
static int opt_env_pair(char ***env, int *nenv, int n, char **w, int *i)
{
    const char *a = w[*i];

    if (*i + 2 >= n)
        return usage_error("option '%s' needs a variable name and a value", a);
    if (!valid_var_name(w[*i + 1], strlen(w[*i + 1]))) {
        char msg[512];
        snprintf(msg, sizeof(msg), "%s: '%s' is not a valid variable name", a, w[*i + 1]);
        return usage_error("%s", msg);
    }
    if (rd_mpirun_env_add(env, nenv, w[*i + 1], strlen(w[*i + 1]), w[*i + 2]))
        return -1;
    *i += 2;
    return 0;
}

/* -envall / -envnone / -envlist A,B at w[*i] (also -genv... with the
 * same meaning for every program) into *mode and *list. Returns 0 when
 * done, 1 when w[*i] is none of them, or a usage error. */
static int opt_env_mode(rd_mpirun_envmode_t *mode, char **list, int n, char **w, int *i)
{
    const char *a = w[*i] + (w[*i][1] == '-');     /* "--envall" as "-envall" */

    if (!strncmp(a, "-g", 2))
        a += 2;
    else
        a += 1;
    if (!strcmp(a, "envall")) {
        *mode = RD_MPIRUN_ENV_ALL;
    } else if (!strcmp(a, "envnone")) {
        *mode = RD_MPIRUN_ENV_NONE;
    } else if (!strcmp(a, "envlist")) {
        const char *v = *i + 1 < n ? w[*i + 1] : NULL;
        if (!v || !*v)
            return usage_error("option '%s' needs a list of variable names (A,B,...)", w[*i]);
        for (const char *p = v; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
            if (!valid_var_name(p, strcspn(p, ","))) {
                char msg[512];
                snprintf(msg, sizeof(msg), "%s: bad variable list '%s'", w[*i], v);
                return usage_error("%s", msg);
            }
        }
        free(*list);
        if (!(*list = strdup(v)))
            return -1;
        *mode = RD_MPIRUN_ENV_LIST;
        ++*i;
    } else {
        return 1;
    }
    return 0;
}

/* 1 for -envall, -envnone, -envlist (not the -genv... forms). */
static int is_local_env_mode(const char *a)
{
    a += a[1] == '-';
    return !strcmp(a, "-envall") || !strcmp(a, "-envnone") || !strcmp(a, "-envlist");
}

/* 1 for -genvall, -genvnone, -genvlist. */
static int is_global_env_mode(const char *a)
{
    a += a[1] == '-';
    return !strcmp(a, "-genvall") || !strcmp(a, "-genvnone") || !strcmp(a, "-genvlist");
}

int rd_mpirun_env_inherited(const rd_mpirun_opts_t *o, const rd_mpirun_app_t *app,
                            const char *var)
{
    rd_mpirun_envmode_t mode = app->env_mode ? app->env_mode : o->env_mode;
    const char *list = app->env_mode ? app->env_list : o->env_list;
    size_t len = strcspn(var, "=");

    /* PMIX_MCA_gds=hash and the like: mpirun's choices for PMIx. */
    if (mode == RD_MPIRUN_ENV_UNSET || mode == RD_MPIRUN_ENV_ALL || !strncmp(var, "PMIX_", 5))
        return 1;
    if (mode == RD_MPIRUN_ENV_NONE || !list)
        return 0;
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
        if (strcspn(p, ",") == len && !strncmp(p, var, len))
            return 1;
    return 0;
}

/* An object of the topology as --map-by and ppr name it. */
static int parse_obj(const char *s, rd_mpirun_obj_t *t)
{
    static const struct { const char *name; rd_mpirun_obj_t t; } objs[] = {
        { "core", RD_MPIRUN_OBJ_CORE }, { "socket", RD_MPIRUN_OBJ_SOCKET },
        { "package", RD_MPIRUN_OBJ_SOCKET }, { "numa", RD_MPIRUN_OBJ_NUMA },
        { "hwthread", RD_MPIRUN_OBJ_HWTHREAD }, { "node", RD_MPIRUN_OBJ_NODE },
    };
    for (size_t k = 0; k < sizeof(objs) / sizeof(objs[0]); k++)
        if (!strcmp(s, objs[k].name)) {
            *t = objs[k].t;
            return 0;
        }
    return -1;
}

/* --map-by slot|node (across hosts), core|socket|numa (within a host), or
 * ppr:N:resource (N ranks on each resource of every host). */
static int opt_map_by(rd_mpirun_opts_t *o, const char *val)
{
    rd_mpirun_obj_t t;
    long v;

    if (!strcmp(val, "slot")) {
        o->map_by_node = 0;
    } else if (!strcmp(val, "node")) {
        o->map_by_node = 1;
    } else if (!strncmp(val, "ppr:", 4)) {
        char num[16];
        const char *colon = strchr(val + 4, ':');
        size_t len = colon ? (size_t)(colon - val - 4) : 0;
        if (!colon || len == 0 || len >= sizeof(num))
            return usage_error("bad --map-by '%s' (expected ppr:N:resource, resource one of "
                               "node, socket, numa, core, hwthread)", val);
        memcpy(num, val + 4, len);
        num[len] = '\0';
        if (parse_long(num, 1, RD_MPIRUN_NP_MAX, &v) || parse_obj(colon + 1, &t))
            return usage_error("bad --map-by '%s' (expected ppr:N:resource, N from 1 to 65535, "
                               "resource one of node, socket, numa, core, hwthread)", val);
        o->ppr = (int)v;
        o->map_obj = t;
        o->map_given = 1;
    } else if (parse_obj(val, &t) == 0 && t != RD_MPIRUN_OBJ_HWTHREAD && t != RD_MPIRUN_OBJ_NODE) {
        o->ppr = 0;
        o->map_obj = t;
        o->map_given = 1;
    } else {
        return usage_error("bad --map-by '%s' (expected slot, node, core, socket, numa or "
                           "ppr:N:resource)", val);
    }
    return 0;
}

/*
 * One program block after a ':' or one line of a -configfile/--app file:
 * its own options (-n, -env, -x), then the program and its arguments;
 * w[n] is NULL. own says what of w the block takes over (RD_MPIRUN_APP_OWN_*,
 * freed with the options even on an error). where ("after ':'", "in FILE
 * line N") goes into error messages.
 */
static int parse_block(rd_mpirun_opts_t *o, char **w, int n, int own, const char *where)
{
    rd_mpirun_app_t *app = rd_mpirun_opts_add_app(o);
    char msg[512];
    const char *val;
    int k, m, rc;

    if (!app) {
        if (own & RD_MPIRUN_APP_OWN_WORDS)
            for (k = 0; k < n; k++)
                free(w[k]);
        if (own & RD_MPIRUN_APP_OWN_ARRAY)
            free(w);
        return -1;
    }
    app->argv = w;
    app->own = own;
    for (k = 0; k < n && w[k][0] == '-' && w[k][1] != '\0'; k++) {
        const char *a = w[k];
        if (!strcmp(a, "--")) {
            k++;
            break;
        }
        if ((m = match_valued(n, w, &k, NAMES("-n", "-np", "--np", "--n"), &val)) != 0)
            rc = opt_np(app, a, m, val);
        else if (!strcmp(a, "-env") || !strcmp(a, "--env"))
            rc = opt_env_pair(&app->env, &app->nenv, n, w, &k);
        else if ((m = match_valued(n, w, &k, NAMES("-x"), &val)) != 0)
            rc = m < 0 ? usage_error("option '%s' needs a variable name", a)
                       : opt_export(&app->env, &app->nenv, val);
        else if (is_local_env_mode(a))
            rc = opt_env_mode(&app->env_mode, &app->env_list, n, w, &k);
        else {
            snprintf(msg, sizeof(msg), "option '%s' %s: a program's own options are -n, -env, "
                     "-x, -envall, -envnone and -envlist; the others go before the first "
                     "program", a, where);
            return usage_error("%s", msg);
        }
        if (rc != 0)
            return rc;
    }
    if (k >= n) {
        snprintf(msg, sizeof(msg), "no program to run given %s", where);
        return usage_error("%s", msg);
    }
    if (!(own & RD_MPIRUN_APP_OWN_ARRAY)) {
        app->argv = w + k;
        return 0;
    }
    /* Keep the array's start, which is what gets freed. */
    if (own & RD_MPIRUN_APP_OWN_WORDS)
        for (int d = 0; d < k; d++)
            free(w[d]);
    memmove(w, w + k, (size_t)(n - k + 1) * sizeof(*w));
    return 0;
}

/* -configfile FILE (MPICH) / --app FILE (Open MPI): one program block per
 * line, words separated by blanks; '#' starts a comment. */
static int parse_app_file(rd_mpirun_opts_t *o, const char *opt, const char *path)
{
    char *line = NULL, msg[PATH_MAX + 64], *save, *word;
    size_t cap = 0;
    int lineno = 0, blocks = 0, rc = 0;
    FILE *f = fopen(path, "r");

    if (!f) {
        snprintf(msg, sizeof(msg), "%s: cannot read '%s': %s", opt, path, strerror(errno));
        return usage_error("%s", msg);
    }
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        char **w = NULL;
        int n = 0;
        lineno++;
        for (word = strtok_r(line, " \t\r\n", &save); word && word[0] != '#';
             word = strtok_r(NULL, " \t\r\n", &save)) {
            char **nw = realloc(w, (size_t)(n + 2) * sizeof(*w));
            if (!nw || !(nw[n] = strdup(word))) {
                w = nw ? nw : w;
                rc = -1;
                break;
            }
            w = nw;
            w[++n] = NULL;
        }
        if (rc != 0 || n == 0) {
            for (int k = 0; k < n; k++)
                free(w[k]);
            free(w);
            continue;
        }
        if (o->napps >= RD_MPIRUN_APPS_MAX) {
            for (int k = 0; k < n; k++)
                free(w[k]);
            free(w);
            rc = usage_error("%s", "more than 4096 programs");
            break;
        }
        snprintf(msg, sizeof(msg), "in %s line %d", path, lineno);
        rc = parse_block(o, w, n, RD_MPIRUN_APP_OWN_ARRAY | RD_MPIRUN_APP_OWN_WORDS, msg);
        blocks++;
    }
    free(line);
    fclose(f);
    if (rc == 0 && blocks == 0) {
        snprintf(msg, sizeof(msg), "%s: no program in '%s'", opt, path);
        return usage_error("%s", msg);
    }
    return rc;
}

/* The words from the program on: the first program's words end at the
 * first ':', which starts the next program's block, and so on. */
static int split_blocks(rd_mpirun_opts_t *o, int argc, char **argv, int i)
{
    int end = i, rc;

    while (end < argc && strcmp(argv[end], ":") != 0)
        end++;
    if (end == i)
        return usage_error("%s", "no program to run given before ':'");
    o->apps[0].argv = &argv[i];
    while (end < argc) {
        int start = end + 1;
        argv[end] = NULL;           /* the ':' ends the previous program's words */
        for (end = start; end < argc && strcmp(argv[end], ":") != 0; end++)
            ;
        if (end < argc)
            argv[end] = NULL;
        if (o->napps >= RD_MPIRUN_APPS_MAX)
            return usage_error("%s", "more than 4096 programs");
        if ((rc = parse_block(o, &argv[start], end - start, 0, "after ':'")) != 0)
            return rc;
    }
    return 0;
}

int rd_mpirun_opts_parse(int argc, char **argv, rd_mpirun_opts_t *o)
{
    int i, m, rc;
    const char *val;
    long v;

    const char *app_file = NULL;

    memset(o, 0, sizeof(*o));
    o->np = 1;
    o->bind = RD_MPIRUN_BIND_AUTO;
    o->agent = RD_MPIRUN_AGENT_DEFAULT;
    /* The first program's options come with the job's. */
    if (!rd_mpirun_opts_add_app(o))
        return -1;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (a[0] != '-' || a[1] == '\0')
            break;                          /* the program */
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "-help")) {
            fputs(usage_text, stdout);
            return 1;
        }
        if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("mpirun (rdmpi) %s\nPMIx: %s\n", PACKAGE_VERSION, PMIx_Get_version());
            return 1;
        }
        if (!strcmp(a, "--info") || !strcmp(a, "-info")) {
            argv[i] = (char *)"rdmpi_info";   /* its argv: the words after --info */
            return run_info(argv + i);
        }
        if (!strcmp(a, "--tag-output") || !strcmp(a, "-tag-output") || !strcmp(a, "-l")) {
            o->tag_output = 1;
            continue;
        }
        /* Open MPI's; rdmpi never refuses either case. */
        if (!strcmp(a, "--oversubscribe") || !strcmp(a, "-oversubscribe") ||
            !strcmp(a, "--allow-run-as-root") || !strcmp(a, "-allow-run-as-root"))
            continue;
        if (is_local_env_mode(a) || is_global_env_mode(a)) {
            if (is_global_env_mode(a))
                rc = opt_env_mode(&o->env_mode, &o->env_list, argc, argv, &i);
            else
                rc = opt_env_mode(&o->apps[0].env_mode, &o->apps[0].env_list, argc, argv, &i);
            if (rc != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-wdir", "--wdir", "-wd", "--wd"), &val)) != 0) {
            if (m < 0 || !*val)
                return usage_error("option '%s' needs a directory", a);
            o->wdir = val;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("--output-filename", "-output-filename"), &val)) != 0) {
            if (m < 0 || !*val)
                return usage_error("option '%s' needs a directory", a);
            o->output_dir = val;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-n", "-np", "--np", "--n"), &val)) != 0) {
            if ((rc = opt_np(&o->apps[0], a, m, val)) != 0)
                return rc;
            continue;
        }
        if (!strcmp(a, "-env") || !strcmp(a, "--env")) {
            if ((rc = opt_env_pair(&o->apps[0].env, &o->apps[0].nenv, argc, argv, &i)) != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-configfile", "--configfile", "--app", "-app"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a file name", a);
            if (app_file)
                return usage_error("%s", "only one -configfile or --app file per job");
            app_file = a;
            if ((rc = parse_app_file(o, a, val)) != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("--timeout", "-timeout"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a number of seconds", a);
            if (parse_long(val, 1, RD_MPIRUN_TIMEOUT_MAX, &v))
                return usage_error("bad --timeout '%s' (expected a positive number of seconds)", val);
            o->timeout = v;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("--bind-to", "-bind-to"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs core, socket, numa, hwthread or none", a);
            if (!strcmp(val, "core"))
                o->bind = RD_MPIRUN_BIND_CORE;
            else if (!strcmp(val, "none"))
                o->bind = RD_MPIRUN_BIND_NONE;
            else if (!strcmp(val, "socket") || !strcmp(val, "package"))
                o->bind = RD_MPIRUN_BIND_SOCKET;
            else if (!strcmp(val, "numa"))
                o->bind = RD_MPIRUN_BIND_NUMA;
            else if (!strcmp(val, "hwthread"))
                o->bind = RD_MPIRUN_BIND_HWTHREAD;
            else
                return usage_error("bad --bind-to '%s' (expected core, socket, numa, hwthread "
                                   "or none)", val);
            continue;
        }
        if (!strcmp(a, "--report-bindings") || !strcmp(a, "-report-bindings")) {
            o->report_bindings = 1;
            continue;
        }
        if (!strcmp(a, "--display-map") || !strcmp(a, "-display-map")) {
            o->display_map = 1;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-x"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a variable name", a);
            if ((rc = opt_export(&o->env, &o->nenv, val)) != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-hosts", "--hosts", "-host", "--host", "-H"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a list of hosts", a);
            if ((rc = rd_mpirun_hosts_parse_list(val, &o->hosts, &o->slots, &o->nhosts)) != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-hostfile", "--hostfile", "-f", "-machinefile", "--machinefile"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a file name", a);
            if ((rc = rd_mpirun_hosts_parse_file(val, &o->hosts, &o->slots, &o->nhosts)) != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-ppn", "--ppn", "--npernode", "-npernode"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a number of ranks per host", a);
            if (parse_long(val, 1, RD_MPIRUN_NP_MAX, &v))
                return usage_error("bad -ppn '%s' (expected 1 to 65535)", val);
            o->ppn = (int)v;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("--map-by", "-map-by"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs slot, node, core, socket, numa or "
                                   "ppr:N:resource", a);
            if ((rc = opt_map_by(o, val)) != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("--launch-agent", "-launch-agent", "-launcher-exec", "--launcher-exec"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a command", a);
            if (val[strspn(val, " \t")] == '\0')
                return usage_error("%s", "--launch-agent: empty command");
            o->agent = val;
            continue;
        }
        if (!strcmp(a, "-genv") || !strcmp(a, "--genv")) {
            if ((rc = opt_env_pair(&o->env, &o->nenv, argc, argv, &i)) != 0)
                return rc;
            continue;
        }
        return usage_error("unknown option '%s'", a);
    }

    if (app_file) {
        /* The file's programs replace the command line's. */
        if (i < argc)
            return usage_error("%s: give the programs either in the file or on the command "
                               "line", app_file);
        if (o->apps[0].np_given || o->apps[0].nenv || o->apps[0].env_mode)
            return usage_error("%s: -n, -env and -envall/-envnone/-envlist belong in the "
                               "file's lines", app_file);
        free(o->apps[0].env);
        memmove(o->apps, o->apps + 1, (size_t)--o->napps * sizeof(*o->apps));
    } else if (i >= argc) {
        return usage_error("%s", "no program to run given");
    } else if ((rc = split_blocks(o, argc, argv, i)) != 0) {
        return rc;
    }
    /* MPICH's variable, for job scripts written for mpiexec.hydra; the
     * option, being more specific, wins. */
    if (!o->timeout && (val = getenv("MPIEXEC_TIMEOUT")) != NULL && *val) {
        if (parse_long(val, 1, RD_MPIRUN_TIMEOUT_MAX, &v))
            return usage_error("bad MPIEXEC_TIMEOUT '%s' in the environment (expected a "
                               "positive number of seconds)", val);
        o->timeout = v;
    }
    /* One program without -n: the hosts' slots (or -ppn per host) say
     * how many. */
    if (o->napps == 1 && !o->apps[0].np_given && o->nhosts > 0) {
        long total = 0;
        for (int h = 0; h < o->nhosts; h++)
            total += o->ppn > 0 ? o->ppn : o->slots[h];
        if (total > RD_MPIRUN_NP_MAX)
            return usage_error("%s", "the hosts' slots add up to more than 65535 ranks; give -n");
        o->apps[0].np = (int)total;
    }
    long total = 0;
    for (int k = 0; k < o->napps; k++)
        total += o->apps[k].np;
    if (total > RD_MPIRUN_NP_MAX)
        return usage_error("%s", "the programs' ranks add up to more than 65535");
    o->np = (int)total;
    return 0;
}

void rd_mpirun_opts_free(rd_mpirun_opts_t *o)
{
    for (int k = 0; k < o->napps; k++) {
        rd_mpirun_app_t *app = &o->apps[k];
        for (int e = 0; e < app->nenv; e++)
            free(app->env[e]);
        free(app->env);
        if (app->own & RD_MPIRUN_APP_OWN_WORDS)
            for (int w = 0; app->argv[w]; w++)
                free(app->argv[w]);
        if (app->own & RD_MPIRUN_APP_OWN_ARRAY)
            free(app->argv);
        free(app->path);
        free(app->env_list);
    }
    free(o->apps);
    o->apps = NULL;
    o->napps = 0;
    for (int i = 0; i < o->nenv; i++)
        free(o->env[i]);
    free(o->env);
    o->env = NULL;
    o->nenv = 0;
    free(o->env_list);
    o->env_list = NULL;
    for (int h = 0; h < o->nhosts; h++)
        free(o->hosts[h]);
    free(o->hosts);
    free(o->slots);
    o->hosts = NULL;
    o->slots = NULL;
    o->nhosts = 0;
}
