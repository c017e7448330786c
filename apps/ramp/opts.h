/* opts: the command line of rdmpi-ramp, its defaults, --help, and the
 * checks that reject bad input before any work. */
#ifndef RAMP_OPTS_H
#define RAMP_OPTS_H

#include <stdint.h>

enum ramp_method { RAMP_RPC, RAMP_PLUS, RAMP_STAR, RAMP_S2PL };
enum ramp_dist { RAMP_UNIFORM, RAMP_ZIPFIAN };
/* How a GET+/PUT+ message's indicator is made visible after its body. */
enum ramp_mailbox { RAMP_MB_NOTIFY, RAMP_MB_FLUSH };
/* How the methods' windows are made. */
enum ramp_window_kind { RAMP_WIN_ALLOCATE, RAMP_WIN_CREATE };

struct ramp_opts {
    enum ramp_method method;
    enum ramp_mailbox mailbox;
    enum ramp_window_kind window;
    int servers;
    int concurrency;
    int reads;              /* percent of transactions that are GETs */
    uint64_t keys;
    int value_size;
    int txn_size;
    enum ramp_dist dist;
    long txns;              /* per client; 0 when --seconds decides */
    double seconds;
    uint64_t seed;
    double prepare_delay_us;
    double commit_stagger_us;   /* test knob: pause after a PUT's first COMMIT */
    const char *history;    /* directory, or NULL */
    int check;
    int check_only;         /* check the history of an earlier run, no store */
    const char *csv;        /* file, or NULL */
    int no_second_round;    /* debug: GET returns its first round */
    int verbose;
};

const char *ramp_method_name(enum ramp_method m);

/* Parses argv into o. Returns 0 to run, 1 when --help was printed, -1
 * after printing one line naming the problem (to stderr, when print is
 * set). nranks is the job's size, for the checks that need it. */
int ramp_opts_parse(struct ramp_opts *o, int argc, char **argv, int nranks, int print);

#endif
