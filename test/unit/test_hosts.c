/*
 * Unit tests of mpirun's host handling (mpirun/hosts.c): the -hosts list
 * and host file parsers, the placement of ranks (--map-by slot|node,
 * -ppn, repeated hosts, oversubscription, hosts left without ranks), a
 * daemon's copy of the plan, and "is this host me". Parse errors print
 * their one line on stderr; the tests check the status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "unit_main.h"

#include "../../mpirun/hosts.h"
#include "../../mpirun/options.h"

typedef struct hostlist {
    char **names;
    int *slots;
    int n;
} hostlist_t;

static void hl_free(hostlist_t *h)
{
    for (int i = 0; i < h->n; i++)
        free(h->names[i]);
    free(h->names);
    free(h->slots);
    memset(h, 0, sizeof(*h));
}

static int parse_list(hostlist_t *h, const char *list)
{
    memset(h, 0, sizeof(*h));
    return rd_mpirun_hosts_parse_list(list, &h->names, &h->slots, &h->n);
}

/* Writes text to a temporary host file and parses it. */
static int parse_file_text(hostlist_t *h, const char *text)
{
    char path[] = "/tmp/test_hosts.XXXXXX";
    int fd = mkstemp(path), rc;

    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    memset(h, 0, sizeof(*h));
    rc = rd_mpirun_hosts_parse_file(path, &h->names, &h->slots, &h->n);
    unlink(path);
    return rc;
}

static void test_list_valid(void)
{
    hostlist_t h;

    CU_ASSERT_EQUAL(parse_list(&h, "a,b:2,c.example.org:65535"), 0);
    CU_ASSERT_EQUAL_FATAL(h.n, 3);
    CU_ASSERT_STRING_EQUAL(h.names[0], "a");
    CU_ASSERT_STRING_EQUAL(h.names[1], "b");
    CU_ASSERT_STRING_EQUAL(h.names[2], "c.example.org");
    CU_ASSERT_EQUAL(h.slots[0], 1);
    CU_ASSERT_EQUAL(h.slots[1], 2);
    CU_ASSERT_EQUAL(h.slots[2], 65535);
    hl_free(&h);

    /* An IPv6 address has several colons and no slot count. */
    CU_ASSERT_EQUAL(parse_list(&h, "fd00::1,10.0.0.2:4,node_1"), 0);
    CU_ASSERT_EQUAL_FATAL(h.n, 3);
    CU_ASSERT_STRING_EQUAL(h.names[0], "fd00::1");
    CU_ASSERT_EQUAL(h.slots[0], 1);
    CU_ASSERT_STRING_EQUAL(h.names[1], "10.0.0.2");
    CU_ASSERT_EQUAL(h.slots[1], 4);
    CU_ASSERT_STRING_EQUAL(h.names[2], "node_1");
    hl_free(&h);
}

static void test_list_invalid(void)
{
    static const char *const bad[] = {
        "", ",", "a,", ",a", "a,,b", "a:", "a:0", "a:-1", "a:65536", "a:2x", "a:1.5",
        "-a", "a b", "a;b", "a/b", "$(reboot)",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        hostlist_t h;
        int rc = parse_list(&h, bad[i]);
        if (rc != RD_MPIRUN_EXIT_USAGE)
            fprintf(stderr, "accepted bad host list '%s'\n", bad[i]);
        CU_ASSERT_EQUAL(rc, RD_MPIRUN_EXIT_USAGE);
        hl_free(&h);
    }
    /* A name longer than any DNS name. */
    char longname[400];
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    hostlist_t h;
    CU_ASSERT_EQUAL(parse_list(&h, longname), RD_MPIRUN_EXIT_USAGE);
    hl_free(&h);
}

static void test_file_valid(void)
{
    hostlist_t h;

    CU_ASSERT_EQUAL(parse_file_text(&h, "# the cluster\n"
                                         "node1\n"
                                         "\n"
                                         "   node2 slots=4   # fat node\n"
                                         "node3\tslots=2\r\n"
                                         "node4 slots=1 slots=3\n"
                                         "   \t\n"), 0);
    CU_ASSERT_EQUAL_FATAL(h.n, 4);
    CU_ASSERT_STRING_EQUAL(h.names[0], "node1");
    CU_ASSERT_EQUAL(h.slots[0], 1);
    CU_ASSERT_STRING_EQUAL(h.names[1], "node2");
    CU_ASSERT_EQUAL(h.slots[1], 4);
    CU_ASSERT_STRING_EQUAL(h.names[2], "node3");
    CU_ASSERT_EQUAL(h.slots[2], 2);
    CU_ASSERT_STRING_EQUAL(h.names[3], "node4");
    CU_ASSERT_EQUAL(h.slots[3], 3);     /* the last slots= wins */
    hl_free(&h);
}

static void test_file_invalid(void)
{
    static const char *const bad[] = {
        "",                         /* no host at all */
        "# only a comment\n\n",
        "node1 slots=0\n",
        "node1 slots=\n",
        "node1 slots=abc\n",
        "node1 cpus=2\n",
        "node1\n-node2\n",
        "node1 slots=2 extra\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        hostlist_t h;
        int rc = parse_file_text(&h, bad[i]);
        if (rc != RD_MPIRUN_EXIT_USAGE)
            fprintf(stderr, "accepted bad host file '%s'\n", bad[i]);
        CU_ASSERT_EQUAL(rc, RD_MPIRUN_EXIT_USAGE);
        hl_free(&h);
    }
    hostlist_t h = { 0 };
    CU_ASSERT_EQUAL(rd_mpirun_hosts_parse_file("/nonexistent/hostfile", &h.names, &h.slots, &h.n),
                    RD_MPIRUN_EXIT_USAGE);
    hl_free(&h);
}

/* Builds a plan over "name:slots" items (no self host among them). */
static int make(rd_mpirun_plan_t *p, int np, const char *list, int ppn, int by_node)
{
    hostlist_t h;
    int rc;

    CU_ASSERT_EQUAL_FATAL(parse_list(&h, list), 0);
    rc = rd_mpirun_plan_make(p, np, h.names, h.slots, h.n, ppn, by_node);
    hl_free(&h);
    return rc;
}

/* The hosts of ranks 0..np-1, as a string of host indexes ("0011"). */
static void expect_map(const rd_mpirun_plan_t *p, const char *hosts, const char *local)
{
    char got[64] = "", gotl[64] = "";
    for (int r = 0; r < p->np && r < 63; r++) {
        got[r] = (char)('0' + p->host_of[r]);
        gotl[r] = (char)('0' + p->local_rank[r]);
    }
    CU_ASSERT_STRING_EQUAL(got, hosts);
    CU_ASSERT_STRING_EQUAL(gotl, local);
}

static void test_map_by_slot(void)
{
    rd_mpirun_plan_t p;

    CU_ASSERT_EQUAL_FATAL(make(&p, 4, "a:2,b:2", 0, 0), 0);
    CU_ASSERT_EQUAL(p.np, 4);
    CU_ASSERT_EQUAL(p.nhosts, 2);
    expect_map(&p, "0011", "0101");
    CU_ASSERT_EQUAL(p.hosts[0].nranks, 2);
    CU_ASSERT_EQUAL(p.hosts[1].nranks, 2);
    CU_ASSERT_EQUAL(p.self, -1);
    rd_mpirun_plan_free(&p);

    /* More ranks than slots: the rounds start over. */
    CU_ASSERT_EQUAL_FATAL(make(&p, 7, "a:1,b:2", 0, 0), 0);
    expect_map(&p, "0110110", "0011232");
    rd_mpirun_plan_free(&p);

    /* -ppn overrides every host's slots. */
    CU_ASSERT_EQUAL_FATAL(make(&p, 6, "a:5,b,c", 2, 0), 0);
    expect_map(&p, "001122", "010101");
    rd_mpirun_plan_free(&p);
}

static void test_map_by_node(void)
{
    rd_mpirun_plan_t p;

    CU_ASSERT_EQUAL_FATAL(make(&p, 6, "a:2,b:2,c:2", 0, 1), 0);
    expect_map(&p, "012012", "000111");
    rd_mpirun_plan_free(&p);

    /* A host with fewer slots drops out of the round when it is full. */
    CU_ASSERT_EQUAL_FATAL(make(&p, 5, "a:1,b:3", 0, 1), 0);
    expect_map(&p, "01110", "00121");
    rd_mpirun_plan_free(&p);
}

static void test_map_merge_and_drop(void)
{
    rd_mpirun_plan_t p;

    /* A host named twice gets the sum of its slots, at its first place. */
    CU_ASSERT_EQUAL_FATAL(make(&p, 4, "a,b,a:2", 0, 0), 0);
    CU_ASSERT_EQUAL_FATAL(p.nhosts, 2);
    CU_ASSERT_STRING_EQUAL(p.hosts[0].name, "a");
    CU_ASSERT_EQUAL(p.hosts[0].slots, 3);
    expect_map(&p, "0001", "0120");
    rd_mpirun_plan_free(&p);

    /* Hosts without a rank are dropped; the others keep their order. */
    CU_ASSERT_EQUAL_FATAL(make(&p, 2, "a:1,b:1,c:1", 0, 0), 0);
    CU_ASSERT_EQUAL_FATAL(p.nhosts, 2);
    CU_ASSERT_STRING_EQUAL(p.hosts[0].name, "a");
    CU_ASSERT_STRING_EQUAL(p.hosts[1].name, "b");
    rd_mpirun_plan_free(&p);

    CU_ASSERT_EQUAL_FATAL(make(&p, 3, "a:4,b:4", 0, 0), 0);
    CU_ASSERT_EQUAL(p.nhosts, 1);
    expect_map(&p, "000", "012");
    char *ranks = rd_mpirun_plan_ranks_of(&p, 0);
    CU_ASSERT_STRING_EQUAL(ranks, "0,1,2");
    free(ranks);
    rd_mpirun_plan_free(&p);
}

static void test_map_self(void)
{
    rd_mpirun_plan_t p;

    /* Only the first name of this host is run by mpirun itself. */
    CU_ASSERT_EQUAL_FATAL(make(&p, 3, "x.invalid,localhost,127.0.0.1", 0, 0), 0);
    CU_ASSERT_EQUAL(p.self, 1);
    CU_ASSERT(!p.hosts[0].local);
    CU_ASSERT(p.hosts[1].local);
    CU_ASSERT(!p.hosts[2].local);
    char *ranks = rd_mpirun_plan_ranks_of(&p, 2);
    CU_ASSERT_STRING_EQUAL(ranks, "2");
    free(ranks);
    rd_mpirun_plan_free(&p);
}

static void test_plan_from_map(void)
{
    static const char *const names[] = { "h0", "h1", "h2" };
    rd_mpirun_plan_t p;

    const int ok[] = { 0, 1, 2, 0, 1 };
    CU_ASSERT_EQUAL_FATAL(rd_mpirun_plan_from_map(&p, 5, names, 3, ok, 1), 0);
    CU_ASSERT_EQUAL(p.self, 1);
    CU_ASSERT(p.hosts[1].local);
    CU_ASSERT_EQUAL(p.hosts[0].nranks, 2);
    CU_ASSERT_EQUAL(p.hosts[2].nranks, 1);
    expect_map(&p, "01201", "00011");
    char *ranks = rd_mpirun_plan_ranks_of(&p, 1);
    CU_ASSERT_STRING_EQUAL(ranks, "1,4");
    free(ranks);
    rd_mpirun_plan_free(&p);

    /* What a bad JOB message could hold is refused. */
    const int empty_host[] = { 0, 0, 2 };
    const int out_of_range[] = { 0, 3, 1 };
    const int negative[] = { 0, -1, 1 };
    CU_ASSERT_EQUAL(rd_mpirun_plan_from_map(&p, 3, names, 3, empty_host, 0), -1);
    CU_ASSERT_EQUAL(rd_mpirun_plan_from_map(&p, 3, names, 3, out_of_range, 0), -1);
    CU_ASSERT_EQUAL(rd_mpirun_plan_from_map(&p, 3, names, 3, negative, 0), -1);
    CU_ASSERT_EQUAL(rd_mpirun_plan_from_map(&p, 3, names, 2, ok, 2), -1);   /* self */
    CU_ASSERT_EQUAL(rd_mpirun_plan_from_map(&p, 0, names, 3, ok, 0), -1);
}

static void test_is_self(void)
{
    char me[RD_MPIRUN_HOST_MAX + 1], first[RD_MPIRUN_HOST_MAX + 1];

    CU_ASSERT(rd_mpirun_host_is_self("localhost"));
    CU_ASSERT(rd_mpirun_host_is_self("127.0.0.1"));
    CU_ASSERT(rd_mpirun_host_is_self("127.1.2.3"));
    CU_ASSERT(rd_mpirun_host_is_self("::1"));
    CU_ASSERT(!rd_mpirun_host_is_self("10.1.2.3"));
    CU_ASSERT(!rd_mpirun_host_is_self("fd00::1"));
    CU_ASSERT(!rd_mpirun_host_is_self("no-such-host.invalid"));
    CU_ASSERT_FATAL(gethostname(me, sizeof(me)) == 0);
    me[sizeof(me) - 1] = '\0';
    CU_ASSERT(rd_mpirun_host_is_self(me));
    /* The first label names the host, and the host with a domain too. */
    snprintf(first, sizeof(first), "%.*s", (int)strcspn(me, "."), me);
    CU_ASSERT(rd_mpirun_host_is_self(first));
    char longer[RD_MPIRUN_HOST_MAX + 32];
    snprintf(longer, sizeof(longer), "%s.cluster.example", first);
    CU_ASSERT(rd_mpirun_host_is_self(longer));
    /* A name that merely starts like ours is another host. */
    snprintf(longer, sizeof(longer), "%sx", first);
    CU_ASSERT(!rd_mpirun_host_is_self(longer));
}

int main(void)
{
    static const rd_unit_test_t tests[] = {
        { "-hosts list: valid", test_list_valid },
        { "-hosts list: invalid", test_list_invalid },
        { "host file: valid", test_file_valid },
        { "host file: invalid", test_file_invalid },
        { "--map-by slot, -ppn, oversubscription", test_map_by_slot },
        { "--map-by node", test_map_by_node },
        { "repeated hosts merged, empty hosts dropped", test_map_merge_and_drop },
        { "this host in the plan", test_map_self },
        { "a daemon's plan from the head's map", test_plan_from_map },
        { "is this host me", test_is_self },
    };
    return rd_unit_run("hosts", tests, RD_UNIT_COUNT(tests));
}
