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
    "       mpiexec [options] program [args...]\n"
    "\n"
    "Starts N copies of program as the ranks of one MPI job, on this host or on\n"
    "the hosts given.\n"
    "\n"
    "Options:\n"
    "  -n N, -np N, --np N     number of ranks to start (default 1)\n"
    "  -x VAR                  export VAR, with its value in mpirun's environment\n"
    "  -x VAR=VALUE            set VAR to VALUE in every rank\n"
    "  -genv VAR VALUE         set VAR to VALUE in every rank\n"
    "  --tag-output            prefix every output line with \"[rank] \"\n"
    "  --timeout SECONDS       end the job after SECONDS (exit status 124);\n"
    "                          MPIEXEC_TIMEOUT=SECONDS in the environment does\n"
    "                          the same when --timeout is not given\n"
    "  --bind-to core|none     bind each rank to one core (round-robin when\n"
    "                          ranks outnumber cores), or not at all (default:\n"
    "                          core when there are at least as many cores as\n"
    "                          ranks or every core gets the same number of\n"
    "                          ranks, none otherwise)\n"
    "  -hosts H1,H2,...        run on these hosts (H:N gives H N slots); also --host\n"
    "  -hostfile FILE          hosts from FILE, one per line: \"host [slots=N]\"\n"
    "  -ppn N                  N ranks per host (sets every host's slots)\n"
    "  --map-by slot|node      fill each host's slots in turn (slot, the default),\n"
    "                          or one rank per host in turn (node)\n"
    "  --launch-agent CMD      start remote daemons as \"CMD HOST command...\"\n"
    "                          (default ssh)\n"
    "                          -n defaults to the hosts' slots when hosts are given\n"
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
    "ranks; any other signal stops the job. See doc/mpirun.md for details.\n";

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

/* Appends "name=value" to the ranks' environment list. */
static int add_env(rd_mpirun_opts_t *o, const char *name, size_t namelen, const char *value)
{
    char **nenv = realloc(o->env, (o->nenv + 2) * sizeof(*nenv));
    if (!nenv)
        return -1;
    o->env = nenv;
    if (asprintf(&o->env[o->nenv], "%.*s=%s", (int)namelen, name, value) < 0)
        return -1;
    o->env[++o->nenv] = NULL;
    return 0;
}

/* -x VAR or -x VAR=VALUE. */
static int opt_export(rd_mpirun_opts_t *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const char *value;

    if (!valid_var_name(arg, len))
        return usage_error("-x: '%s' is not a valid variable name", arg);
    if (eq)
        return add_env(o, arg, len, eq + 1) ? -1 : 0;
    value = getenv(arg);
    if (!value) {
        fprintf(stderr, "mpirun: warning: -x %s: not set in mpirun's environment, not exported\n", arg);
        return 0;
    }
    return add_env(o, arg, len, value) ? -1 : 0;
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

int rd_mpirun_opts_parse(int argc, char **argv, rd_mpirun_opts_t *o)
{
    int i, m, rc;
    const char *val;
    long v;

    memset(o, 0, sizeof(*o));
    o->np = 1;
    o->bind = RD_MPIRUN_BIND_AUTO;
    o->agent = RD_MPIRUN_AGENT_DEFAULT;

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
        if (!strcmp(a, "--tag-output") || !strcmp(a, "-tag-output")) {
            o->tag_output = 1;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-n", "-np", "--np", "--n"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a number of ranks", a);
            if (parse_long(val, 1, RD_MPIRUN_NP_MAX, &v))
                return usage_error("bad number of ranks '%s' (expected 1 to 65535)", val);
            o->np = (int)v;
            o->np_given = 1;
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
                return usage_error("option '%s' needs core or none", a);
            if (!strcmp(val, "core"))
                o->bind = RD_MPIRUN_BIND_CORE;
            else if (!strcmp(val, "none"))
                o->bind = RD_MPIRUN_BIND_NONE;
            else
                return usage_error("bad --bind-to '%s' (expected core or none)", val);
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-x"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a variable name", a);
            if ((rc = opt_export(o, val)) != 0)
                return rc;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("-hosts", "--hosts", "-host", "--host"), &val)) != 0) {
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
        if ((m = match_valued(argc, argv, &i, NAMES("-ppn", "--ppn"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs a number of ranks per host", a);
            if (parse_long(val, 1, RD_MPIRUN_NP_MAX, &v))
                return usage_error("bad -ppn '%s' (expected 1 to 65535)", val);
            o->ppn = (int)v;
            continue;
        }
        if ((m = match_valued(argc, argv, &i, NAMES("--map-by", "-map-by"), &val)) != 0) {
            if (m < 0)
                return usage_error("option '%s' needs slot or node", a);
            if (!strcmp(val, "slot"))
                o->map_by_node = 0;
            else if (!strcmp(val, "node"))
                o->map_by_node = 1;
            else
                return usage_error("bad --map-by '%s' (expected slot or node)", val);
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
            if (i + 2 >= argc)
                return usage_error("option '%s' needs a variable name and a value", a);
            if (!valid_var_name(argv[i + 1], strlen(argv[i + 1])))
                return usage_error("-genv: '%s' is not a valid variable name", argv[i + 1]);
            if (add_env(o, argv[i + 1], strlen(argv[i + 1]), argv[i + 2]))
                return -1;
            i += 2;
            continue;
        }
        return usage_error("unknown option '%s'", a);
    }

    if (i >= argc)
        return usage_error("%s", "no program to run given");
    /* MPICH's variable, for job scripts written for mpiexec.hydra; the
     * option, being more specific, wins. */
    if (!o->timeout && (val = getenv("MPIEXEC_TIMEOUT")) != NULL && *val) {
        if (parse_long(val, 1, RD_MPIRUN_TIMEOUT_MAX, &v))
            return usage_error("bad MPIEXEC_TIMEOUT '%s' in the environment (expected a "
                               "positive number of seconds)", val);
        o->timeout = v;
    }
    o->argv = &argv[i];
    /* Without -n, the hosts' slots (or -ppn per host) say how many. */
    if (!o->np_given && o->nhosts > 0) {
        long total = 0;
        for (int h = 0; h < o->nhosts; h++)
            total += o->ppn > 0 ? o->ppn : o->slots[h];
        if (total > RD_MPIRUN_NP_MAX)
            return usage_error("%s", "the hosts' slots add up to more than 65535 ranks; give -n");
        o->np = (int)total;
    }
    return 0;
}

void rd_mpirun_opts_free(rd_mpirun_opts_t *o)
{
    for (int i = 0; i < o->nenv; i++)
        free(o->env[i]);
    free(o->env);
    o->env = NULL;
    o->nenv = 0;
    for (int h = 0; h < o->nhosts; h++)
        free(o->hosts[h]);
    free(o->hosts);
    free(o->slots);
    o->hosts = NULL;
    o->slots = NULL;
    o->nhosts = 0;
}
