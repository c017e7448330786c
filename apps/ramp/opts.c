/* opts: rdmpi-ramp's options. Every option is checked here, against the
 * others and the job's size, so that a bad run stops with one line before
 * any rank does work. */
#include "opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

/* mpi.h says whether rdmpi's notified puts exist */
#ifdef RDMPI_HAVE_PUT_NOTIFY
#define RAMP_MAILBOX_DEFAULT RAMP_MB_NOTIFY
#else
#define RAMP_MAILBOX_DEFAULT RAMP_MB_FLUSH
#endif

static const char *const method_names[] = { "rpc", "plus", "star", "s2pl" };

const char *ramp_method_name(enum ramp_method m)
{
    return method_names[m];
}

static void usage(void)
{
    printf("usage: mpirun -np N rdmpi-ramp [options]\n"
           "RAMP-Fast transactional key-value store: the first S ranks are servers,\n"
           "the others clients running a YCSB-style workload.\n\n"
           "  --method M          rpc (two-sided GET/PUT), plus (GET+/PUT+ mailboxes written\n"
           "                      with one-sided puts), star (GET*: one-sided reads of\n"
           "                      committed items, PUT+), s2pl (strict two-phase locking\n"
           "                      over rpc); default rpc\n"
           "  --mailbox notify|flush  how plus and star make a message visible: one notified\n"
           "                      put (rdmpi's MPIX_Put_notify; the default where it exists)\n"
           "                      or the body, a flush, then the indicator\n"
           "  --window allocate|create  plus's and star's windows: MPI_Win_allocate (default)\n"
           "                      or MPI_Win_create on malloc'd memory\n"
           "  --servers S         server ranks (default 1)\n"
           "  --concurrency C     transactions each client runs at once (default 1)\n"
           "  --reads PCT         percent of transactions that are reads (default 50)\n"
           "  --keys K            key space (default 1000)\n"
           "  --value-size B      bytes per value (default 1024)\n"
           "  --txn-size N        keys per transaction (default 8)\n"
           "  --dist uniform|zipfian  key distribution (zipfian constant 0.99)\n"
           "  --txns N            transactions per client (default 1000)\n"
           "  --seconds S         run for S seconds instead of a count\n"
           "  --seed N            workload seed (default 1)\n"
           "  --prepare-delay-us U  wait U us between the PREPAREs' acks and COMMIT\n"
           "  --commit-stagger-us U  test knob: wait U us after a PUT's first COMMIT\n"
           "                      before the others (widens the window of fractured reads)\n"
           "  --history DIR       write DIR/history.<rank>.jsonl per client\n"
           "  --check             check Read Atomic isolation on the history at the end\n"
           "  --check-only        only check the history already in --history DIR\n"
           "  --csv FILE          append the summary as a CSV row\n"
           "  --no-second-round   debug: GETs skip RAMP's second round (fractured reads)\n"
           "  --verbose           per-rank details on stderr\n"
           "  --help              this text\n");
}

/* Parses a whole decimal number in [lo, hi]. */
static int num(const char *opt, const char *s, long lo, long hi, long *out, int print)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        if (print)
            fprintf(stderr, "rdmpi-ramp: --%s %s: expected a whole number from %ld to %ld\n",
                    opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

enum {
    O_METHOD = 1, O_MAILBOX, O_WINDOW, O_SERVERS, O_CONC, O_READS, O_KEYS, O_VSIZE, O_TSIZE, O_DIST,
    O_TXNS, O_SECONDS, O_SEED, O_DELAY, O_STAGGER, O_HISTORY, O_CHECK, O_CHECK_ONLY, O_CSV,
    O_NOSECOND, O_VERBOSE, O_HELP
};

static const struct option long_opts[] = {
    { "method", required_argument, NULL, O_METHOD },
    { "mailbox", required_argument, NULL, O_MAILBOX },
    { "window", required_argument, NULL, O_WINDOW },
    { "servers", required_argument, NULL, O_SERVERS },
    { "concurrency", required_argument, NULL, O_CONC },
    { "reads", required_argument, NULL, O_READS },
    { "keys", required_argument, NULL, O_KEYS },
    { "value-size", required_argument, NULL, O_VSIZE },
    { "txn-size", required_argument, NULL, O_TSIZE },
    { "dist", required_argument, NULL, O_DIST },
    { "txns", required_argument, NULL, O_TXNS },
    { "seconds", required_argument, NULL, O_SECONDS },
    { "seed", required_argument, NULL, O_SEED },
    { "prepare-delay-us", required_argument, NULL, O_DELAY },
    { "commit-stagger-us", required_argument, NULL, O_STAGGER },
    { "history", required_argument, NULL, O_HISTORY },
    { "check", no_argument, NULL, O_CHECK },
    { "check-only", no_argument, NULL, O_CHECK_ONLY },
    { "csv", required_argument, NULL, O_CSV },
    { "no-second-round", no_argument, NULL, O_NOSECOND },
    { "verbose", no_argument, NULL, O_VERBOSE },
    { "help", no_argument, NULL, O_HELP },
    { NULL, 0, NULL, 0 },
};

#define BAD(...) do { if (print) fprintf(stderr, "rdmpi-ramp: " __VA_ARGS__); return -1; } while (0)

int ramp_opts_parse(struct ramp_opts *o, int argc, char **argv, int nranks, int print)
{
    long v;
    char *end;
    memset(o, 0, sizeof(*o));
    o->method = RAMP_RPC;
    o->mailbox = RAMP_MAILBOX_DEFAULT;
    o->servers = 1;
    o->concurrency = 1;
    o->reads = 50;
    o->keys = 1000;
    o->value_size = 1024;
    o->txn_size = 8;
    o->dist = RAMP_UNIFORM;
    o->txns = 1000;
    o->seed = 1;

    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
        switch (c) {
        case O_METHOD: {
            int found = -1;
            for (int i = 0; i < 4; i++)
                if (strcmp(optarg, method_names[i]) == 0)
                    found = i;
            if (found < 0)
                BAD("unknown method '%s' (rpc, plus, star or s2pl)\n", optarg);
            o->method = (enum ramp_method)found;
            break;
        }
        case O_MAILBOX:
            if (strcmp(optarg, "flush") == 0)
                o->mailbox = RAMP_MB_FLUSH;
            else if (strcmp(optarg, "notify") == 0) {
#ifdef RDMPI_HAVE_PUT_NOTIFY
                o->mailbox = RAMP_MB_NOTIFY;
#else
                BAD("--mailbox notify needs rdmpi's MPIX_Put_notify, which this MPI lacks\n");
#endif
            } else
                BAD("--mailbox %s: expected notify or flush\n", optarg);
            break;
        case O_WINDOW:
            if (strcmp(optarg, "allocate") == 0)
                o->window = RAMP_WIN_ALLOCATE;
            else if (strcmp(optarg, "create") == 0)
                o->window = RAMP_WIN_CREATE;
            else
                BAD("--window %s: expected allocate or create\n", optarg);
            break;
        case O_SERVERS:
            if (num("servers", optarg, 1, 1 << 20, &v, print))
                return -1;
            o->servers = (int)v;
            break;
        case O_CONC:
            if (num("concurrency", optarg, 1, 256, &v, print))
                return -1;
            o->concurrency = (int)v;
            break;
        case O_READS:
            if (num("reads", optarg, 0, 100, &v, print))
                return -1;
            o->reads = (int)v;
            break;
        case O_KEYS:
            if (num("keys", optarg, 1, 1L << 26, &v, print))
                return -1;
            o->keys = (uint64_t)v;
            break;
        case O_VSIZE:
            if (num("value-size", optarg, 1, 1 << 20, &v, print))
                return -1;
            o->value_size = (int)v;
            break;
        case O_TSIZE:
            if (num("txn-size", optarg, 1, 64, &v, print))
                return -1;
            o->txn_size = (int)v;
            break;
        case O_DIST:
            if (strcmp(optarg, "uniform") == 0)
                o->dist = RAMP_UNIFORM;
            else if (strcmp(optarg, "zipfian") == 0)
                o->dist = RAMP_ZIPFIAN;
            else
                BAD("--dist %s: expected uniform or zipfian\n", optarg);
            break;
        case O_TXNS:
            if (num("txns", optarg, 1, 1L << 40, &v, print))
                return -1;
            o->txns = v;
            o->seconds = 0;
            break;
        case O_SECONDS:
            errno = 0;
            o->seconds = strtod(optarg, &end);
            if (errno || end == optarg || *end || !(o->seconds > 0))
                BAD("--seconds %s: expected a positive number\n", optarg);
            o->txns = 0;
            break;
        case O_SEED:
            if (num("seed", optarg, 0, 1L << 62, &v, print))
                return -1;
            o->seed = (uint64_t)v;
            break;
        case O_DELAY:
            if (num("prepare-delay-us", optarg, 0, 10000000, &v, print))
                return -1;
            o->prepare_delay_us = (double)v;
            break;
        case O_STAGGER:
            if (num("commit-stagger-us", optarg, 0, 10000000, &v, print))
                return -1;
            o->commit_stagger_us = (double)v;
            break;
        case O_HISTORY: o->history = optarg; break;
        case O_CHECK: o->check = 1; break;
        case O_CHECK_ONLY: o->check = o->check_only = 1; break;
        case O_CSV: o->csv = optarg; break;
        case O_NOSECOND: o->no_second_round = 1; break;
        case O_VERBOSE: o->verbose = 1; break;
        case O_HELP:
            if (print)
                usage();
            return 1;
        default:
            BAD("unknown or incomplete option '%s' (see --help)\n", argv[optind - 1]);
        }
    }
    if (optind < argc)
        BAD("unexpected argument '%s' (see --help)\n", argv[optind]);
    if (o->check && !o->history)
        BAD("--check needs --history DIR (it checks the files written there)\n");
    if (o->check_only)
        return 0;
    if (o->servers >= nranks)
        BAD("--servers %d leaves no client among %d ranks (need more ranks than servers)\n",
            o->servers, nranks);
    if (o->keys < (uint64_t)o->txn_size)
        BAD("--keys %llu is smaller than --txn-size %d: a transaction touches distinct keys\n",
            (unsigned long long)o->keys, o->txn_size);
    if (nranks - o->servers > 65535)
        BAD("%d clients: at most 65535 (a timestamp keeps the client id in 16 bits)\n",
            nranks - o->servers);
    return 0;
}
