/*
 * p2p's start and end (see p2p.h): reads its tunables, selects a transport
 * per peer from RDMPI_TRANSPORTS, initializes the transports in the same
 * order on every rank, chooses how long waits spin, and registers p2p's own
 * active-message handlers; finalize undoes it all.
 */
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "p2p/p2p_impl.h"
#include "p2p/p2p_tunables.h"
#include "util/errdetail.h"

rd_p2p_state_t rd_p2p;

int rd_p2p_world_rank(void) { return rd_p2p.rank; }
int rd_p2p_world_size(void) { return rd_p2p.size; }

int rd_p2p_name_listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* RDMPI_TRANSPORTS must name only known transports: a typo would otherwise
 * silently leave peers unreachable. A known one this build lacks (rc or ud
 * built --without-verbs) is skipped: its peers go to the next one listed. */
static int check_transport_names(const char *list)
{
    static const char *const known = "shm,tcp,rc,ud";
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char name[16];
        if (len > 0) {
            snprintf(name, sizeof(name), "%.*s", (int)len, p);
            if (len >= sizeof(name) || !rd_p2p_name_listed(known, name)) {
                rd_err_detail("RDMPI_TRANSPORTS=%s: unknown transport \"%.*s\" (known: %s)",
                              list, (int)len, p, known);
                return RD_EINVAL;
            }
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return RD_OK;
}

/* CPUs this process may run on (its affinity mask), else online CPUs. */
static int own_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int spin_cpus;              /* the count spin_policy went by */
static const char *spin_cpus_what;  /* where that count came from */

/* How long a waiting rank polls before it yields its CPU, from the CPUs
 * the ranks of this node may use between them (what = where that count
 * comes from, for RDMPI_VERBOSE). Spinning pays off only while every rank
 * here has a CPU of its own; when ranks share CPUs, a spinning rank burns
 * the time slice its peer needs to answer (np=4 on 2 cores: allreduce
 * 100-190 us with 2000 polls, 7-11 us with 10). Counting online CPUs is
 * not enough: ranks under taskset, a container's cpuset or a batch
 * allocation may be limited to fewer. forced: RDMPI_SPIN_COUNT, or -1. */
static void spin_policy(const rd_boot_info_t *boot, int cpus, const char *what, long forced)
{
    long spin = forced >= 0 ? forced : boot->local_size > cpus ? 10 : 2000;
    rd_p2p.spin = spin > 0 ? (unsigned)spin : 1;
    /* A split rendezvous waits for the sender's half: not worth it when the
     * sender may have to wait for a CPU first. */
    rd_p2p.split_cpus = boot->local_size <= cpus;
    spin_cpus = cpus;
    spin_cpus_what = what;
}

int rd_p2p_verbose(void) { return rd_p2p.verbose; }

void rd_p2p_report_init(char *buf, size_t len)
{
    char peers[256];
    size_t off = 0;
    peers[0] = 0;
    for (int i = 0; i < rd_p2p.ninited; i++) {
        int n = 0;
        for (int peer = 0; peer < rd_p2p.size; peer++)
            n += rd_p2p.peers[peer].tp == rd_p2p.inited[i];
        if (n && off < sizeof(peers))
            off += (size_t)snprintf(peers + off, sizeof(peers) - off, " %s %d", rd_p2p.inited[i]->name, n);
    }
    snprintf(buf, len,
             "rdmpi: rank %d: peers by transport:%s; %d local rank(s) on %d CPU(s) (%s): %s, %u polls before yielding",
             rd_p2p.rank, peers[0] ? peers : " none", rd_p2p.local_size, spin_cpus, spin_cpus_what,
             rd_p2p.local_size > spin_cpus ? "ranks share CPUs" : "a CPU per rank", rd_p2p.spin);
}

/* The second line lets the protocol tests check which path a knob chose. */
void rd_p2p_report_final(char *buf, size_t len)
{
    snprintf(buf, len,
             "rdmpi: rank %d: rendezvous received by direct read: %lu whole, %lu split\n"
             "rdmpi: rank %d: rendezvous received otherwise: %lu written by the sender, %lu streamed\n"
             "rdmpi: rank %d: one-sided RDMA: %lu puts, %lu gets",
             rd_p2p.rank, rd_p2p.reads_whole, rd_p2p.reads_split, rd_p2p.rank, rd_p2p.puts_whole,
             rd_p2p.streamed, rd_p2p.rank, rd_p2p.rdma_puts, rd_p2p.rdma_gets);
    size_t n = strlen(buf);
    if (rd_p2p.unexp_dropped && n < len)
        snprintf(buf + n, len - n,
                 "\nrdmpi: rank %d: %lu unexpected messages dropped when their communicator "
                 "was freed (never received: an error of the program)",
                 rd_p2p.rank, rd_p2p.unexp_dropped);
}

int rd_p2p_dropped(char *buf, size_t len)
{
    if (!rd_p2p.bad_ids && !rd_p2p.malformed) {
        if (len)
            buf[0] = 0;
        return 0;
    }
    snprintf(buf, len,
             "rdmpi: rank %d: warning: %lu message(s) dropped that named no live request of "
             "this rank (forged, corrupted or stale ids), %lu with fields out of range",
             rd_p2p.rank, rd_p2p.bad_ids, rd_p2p.malformed);
    return 1;
}

int rd_p2p_init(const rd_boot_info_t *boot)
{
    static rd_tp_env_t env;
    rd_p2p.rank = boot->rank;
    rd_p2p.size = boot->size;
    /* Until the transports know better (spin_policy), as if every rank
     * here could use this rank's CPUs. */
    const rd_tunable_t *t = rd_p2p_tunables;
    long long spin_forced, split_min, verbose, forge;
    const char *rndv, *want;
    int rc;
    if ((rc = rd_tunable_int(&t[RD_P2P_T_SPIN_COUNT], &spin_forced)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_P2P_T_RNDV_SPLIT], &split_min)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_P2P_T_VERBOSE], &verbose)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_P2P_T_FORGE_IDS], &forge)) != RD_OK ||
        (rc = rd_tunable_str(&t[RD_P2P_T_RNDV], &rndv)) != RD_OK ||
        (rc = rd_tunable_str(&t[RD_P2P_T_TRANSPORTS], &want)) != RD_OK ||
        (rc = check_transport_names(want)) != RD_OK)
        return rc;
    rd_p2p.local_size = boot->local_size;
    rd_p2p.verbose = (int)verbose;
#ifdef RD_FAULT_INJECTION
    rd_p2p.forge = forge == boot->rank;
#else
    if (forge >= 0) {
        rd_err_detail("RDMPI_P2P_FORGE_IDS needs a library configured with "
                      "--enable-fault-injection");
        return RD_EINVAL;
    }
#endif
    spin_policy(boot, own_cpus(), "this rank's CPUs", (long)spin_forced);
    rd_p2p.split_min = (size_t)split_min;
    /* The table admits only these three words. */
    rd_p2p.rndv = strcmp(rndv, "get") == 0 ? RNDV_GET : strcmp(rndv, "put") == 0 ? RNDV_PUT
                                                                                  : RNDV_AUTO;
    rd_list_init(&rd_p2p.busy_peers);
    rd_list_init(&rd_p2p.streaming);
    rd_p2p_am_init();
    rd_reqid_init(&rd_p2p.ids);
    rd_p2p_send_register();
    rd_p2p_rndv_register();
    rd_p2p.peers = calloc(boot->size, sizeof(peer_t));
    if (!rd_p2p.peers)
        return RD_ENOMEM;
    rd_p2p.on_node = calloc(boot->size, 1);
    if (!rd_p2p.on_node)
        return RD_ENOMEM;
    for (int i = 0; i < boot->local_size; i++)
        rd_p2p.on_node[boot->local_ranks[i]] = 1;
    for (int i = 0; i < boot->size; i++) {
        rd_list_init(&rd_p2p.peers[i].sendq);
        rd_list_init(&rd_p2p.peers[i].busy_link);
        rd_list_init(&rd_p2p.peers[i].waiting);
    }

    env.boot = boot;
    env.recv = rd_p2p_on_message;
    env.claim = rd_p2p_on_claim;
    env.claimed = rd_p2p_on_claimed;
    env.peer_failed = rd_p2p_on_peer_failed;
    env.notified = rd_p2p_on_notified;
    rd_self_set_recv(rd_p2p_on_message, boot->rank);
    /* Every rank goes through the transports in the same order, so
     * collective inits line up, and fences in place of those it does not
     * use (RDMPI_TRANSPORTS may differ between ranks); then one fence
     * publishes what they put. */
    int fence = 0;
    for (int i = 0; rd_transports[i]; i++) {
        rd_transport_t *tp = rd_transports[i];
        fence |= tp->fence_after_init;
        if (!rd_p2p_name_listed(want, tp->name)) {
            for (int k = 0; k < tp->init_fences; k++)
                if ((rc = rd_boot_fence()) != RD_OK)
                    return rc;
            continue;
        }
        if ((rc = tp->init(&env)) != RD_OK)
            return rc;
        rd_p2p.inited[rd_p2p.ninited++] = tp;
        if (tp->msg.hdr_max < RD_HDR_MAX) {
            rd_err_detail("transport %s accepts headers of %zu bytes, p2p needs %zu "
                          "(RD_TP_HDR_MAX is %d)", tp->name, tp->msg.hdr_max,
                          (size_t)RD_HDR_MAX, RD_TP_HDR_MAX);
            return RD_EINTERN;
        }
    }
    if (fence && (rc = rd_boot_fence()) != RD_OK)
        return rc;
    for (int i = 0; i < rd_p2p.ninited; i++)
        if (rd_p2p.inited[i]->node.cpus > 0) {
            spin_policy(boot, rd_p2p.inited[i]->node.cpus, "the node's ranks' CPUs",
                        (long)spin_forced);
            break;
        }
    size_t scratch = 0;
    for (int i = 0; i < rd_p2p.ninited; i++) {
        const rd_transport_t *tp = rd_p2p.inited[i];
        int used = 0;
        for (int peer = 0; peer < boot->size; peer++)
            if (peer != boot->rank && !rd_p2p.peers[peer].tp && tp->reachable(peer)) {
                rd_p2p.peers[peer].tp = tp;
                rd_p2p.peers[peer].track = tp->fail.reports != 0;
                used = 1;
            }
        /* Only transports that carry some peer are polled: an idle network
         * transport must not cost the shared-memory fast path a syscall. */
        if (used)
            rd_p2p.active[rd_p2p.nactive++] = tp;
        if (used && tp->wait_mark && !rd_p2p.marker)
            rd_p2p.marker = tp;
        if (used && tp->watch)
            rd_p2p.recv_check = 1;
        if (frag_max(tp) > scratch)
            scratch = frag_max(tp);
    }
    rd_p2p.peers[boot->rank].tp = &rd_self_transport;
    if (rd_self_transport.msg.eager_max > scratch)
        scratch = rd_self_transport.msg.eager_max;
    rd_p2p.scratch = malloc(scratch);
    rd_p2p.scratch_len = scratch;
    if (!rd_p2p.scratch)
        return RD_ENOMEM;
    return rd_p2p_reach_check(want);
}

void rd_p2p_finalize(void)
{
    for (int i = rd_p2p.ninited - 1; i >= 0; i--)
        rd_p2p.inited[i]->finalize();
    rd_p2p.nactive = rd_p2p.ninited = 0;
    for (uint32_t c = 0; c < rd_p2p.nqueues; c++) {
        rd_match_q_t *q = rd_p2p.queues[c];
        if (!q)
            continue;
        /* Unreceived messages are the application's error; free their copies. */
        while (!rd_list_empty(&q->unexp_all)) {
            rd_match_elem_t *e = rd_list_entry(q->unexp_all.next, rd_match_elem_t, all_link);
            rd_match_take(q, e);
            free(rd_container_of(e, unexp_t, match));
        }
        rd_match_q_destroy(q);
        free(q);
    }
    free(rd_p2p.queues);
    free(rd_p2p.peers);
    free(rd_p2p.on_node);
    free(rd_p2p.scratch);
    rd_reqid_fini(&rd_p2p.ids);
    memset(&rd_p2p, 0, sizeof(rd_p2p)); /* hooks too: they register again at the next init */
}
