/*
 * Raw performance of the shm transport, without p2p on top: forks two ranks
 * sharing the fake process manager, pins them to CPUs 0 and 1 when there are
 * two, and prints
 *   - round-trip / 2 latency of an 8-byte payload with a 32-byte header
 *     (the receiver answers from its main loop, as an MPI_Recv + MPI_Send
 *     would, not from the upcall);
 *   - streaming bandwidth of eager messages (the receiver copies each
 *     payload out of the ring into a user buffer, as p2p does);
 *   - CMA get() bandwidth at 1 MiB and 16 MiB.
 * A measuring tool, not a test: nothing here decides pass or fail.
 * Usage: shm_pingpong [iterations]   (RDMPI_SHM_* tunables apply)
 */
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake_boot.h"
#include "transport/transport.h"
#include "util/status.h"

#define PP_HDR 32

static const rd_transport_t *tp;
static volatile long rx_count;
static volatile size_t rx_bytes;
static unsigned char *rx_user;          /* where the receiver copies payloads */
static unsigned char rx_hdr[64];

static void on_recv(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)peer;
    memcpy(rx_hdr, hdr, hdrlen);
    if (len)
        memcpy(rx_user, payload, len);
    rx_bytes += len;
    rx_count++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void send_blocking(int peer, const void *hdr, size_t hdrlen, const void *p, size_t len)
{
    int rc;
    while ((rc = tp->send(peer, hdr, hdrlen, p, len)) == RD_EAGAIN)
        tp->progress();
    if (rc != RD_OK) {
        fprintf(stderr, "send failed: %d\n", rc);
        exit(1);
    }
}

static void wait_count(long n)
{
    while (rx_count < n)
        tp->progress();
}

/* Ten rounds; the best and the median round are printed, since the machine
 * may be shared with other work. */
static void latency(int rank, long iters)
{
    unsigned char hdr[PP_HDR] = { 0 }, buf[8] = { 0 };
    int peer = 1 - rank;
    long round = iters / 10 > 0 ? iters / 10 : 1;
    double us[10];
    rx_count = 0;
    for (int k = -1; k < 10; k++) {             /* round -1 warms up */
        double t0 = now();
        long base = rx_count;
        for (long i = 0; i < round; i++) {
            if (rank == 0) {
                send_blocking(peer, hdr, sizeof(hdr), buf, sizeof(buf));
                wait_count(base + i + 1);
            } else {
                wait_count(base + i + 1);
                send_blocking(peer, hdr, sizeof(hdr), buf, sizeof(buf));
            }
        }
        if (k >= 0)
            us[k] = (now() - t0) / (double)round / 2 * 1e6;
    }
    for (int i = 1; i < 10; i++)                /* insertion sort */
        for (int j = i; j > 0 && us[j] < us[j - 1]; j--) {
            double t = us[j];
            us[j] = us[j - 1];
            us[j - 1] = t;
        }
    if (rank == 0)
        printf("latency 8 B (hdr %d B): %.3f us one-way best round, %.3f us median\n",
               PP_HDR, us[0], us[5]);
}

static void bandwidth_once(int rank, size_t len, long iters, double *best)
{
    unsigned char hdr[PP_HDR] = { 0 }, ack = 0;
    static unsigned char *src;
    int peer = 1 - rank;
    if (!src) {
        src = malloc(1 << 20);
        memset(src, 7, 1 << 20);
    }
    rd_boot_fence();
    rx_count = 0;
    double t0 = now();
    if (rank == 0) {
        for (long i = 0; i < iters; i++)
            send_blocking(peer, hdr, sizeof(hdr), src, len);
        wait_count(1);
        double mbs = (double)len * (double)iters / (now() - t0) / 1e6;
        if (mbs > *best)
            *best = mbs;
    } else {
        wait_count(iters);
        send_blocking(peer, hdr, sizeof(hdr), &ack, 1);
    }
}

static void bandwidth(int rank, size_t len, long iters)
{
    double best = 0;
    for (int k = 0; k < 3; k++)
        bandwidth_once(rank, len, iters, &best);
    if (rank == 0)
        printf("stream %7zu B: %8.0f MB/s best of 3  (%.2f Mmsg/s)\n", len, best,
               best * 1e6 / (double)len / 1e6);
}

static void cma_done(void *ctx, int status)
{
    *(int *)ctx = status;
}

static void cma_bw(int rank, size_t len, int iters)
{
    unsigned char *buf = malloc(len);
    unsigned char hdr[PP_HDR] = { 0 };
    int peer = 1 - rank;
    memset(buf, rank + 1, len);
    rx_count = 0;
    if (rank == 0) {
        unsigned char msg[16 + RD_TP_KEY_MAX];
        uint64_t addr = (uint64_t)(uintptr_t)buf, keylen = RD_TP_KEY_MAX;
        rd_tp_mem_t *mem;
        if (tp->mem_reg(buf, len, &mem) != RD_OK)
            abort();
        size_t kl = mem->keylen;
        memcpy(msg + 16, mem->key, kl);
        keylen = kl;
        memcpy(msg, &addr, 8);
        memcpy(msg + 8, &keylen, 8);
        send_blocking(peer, hdr, sizeof(hdr), msg, 16 + kl);
        wait_count(1);                   /* the reader is done */
        tp->mem_dereg(mem);
    } else {
        wait_count(1);
        unsigned char key[RD_TP_KEY_MAX];
        uint64_t addr, keylen;
        memcpy(&addr, rx_user, 8);
        memcpy(&keylen, rx_user + 8, 8);
        memcpy(key, rx_user + 16, keylen);
        double best = 1e9, t0 = now();
        for (int i = 0; i < iters; i++) {
            int st = 1;
            double t1 = now();
            tp->get(peer, buf, NULL, addr, key, keylen, len, cma_done, &st);
            double t = now() - t1;
            if (st != RD_OK) {
                fprintf(stderr, "get failed: %d\n", st);
                exit(1);
            }
            if (t < best)
                best = t;
        }
        double t = now() - t0;
        printf("CMA get %8zu B: %8.0f MB/s avg, %8.0f MB/s best (%.2f us best)\n", len,
               (double)len * iters / t / 1e6, (double)len / best / 1e6, best * 1e6);
        send_blocking(peer, hdr, sizeof(hdr), &len, 1);
    }
    free(buf);
}

static int child(int rank, long iters)
{
    rd_boot_info_t info;
    cpu_set_t set;
    if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
        CPU_ZERO(&set);
        CPU_SET(rank, &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    fake_boot_child(rank, &info);
    rd_tp_env_t env = { &info, on_recv };
    tp = &rd_shm_transport;
    rx_user = malloc(1 << 20);
    if (tp->init(&env) != RD_OK) {
        fprintf(stderr, "init failed\n");
        return 1;
    }
    if (rank == 0)
        printf("shm: eager_max %zu, caps %s\n", tp->msg.eager_max,
               (tp->rdma.ops & RD_TP_RDMA_GET) ? "GET (CMA)" : "none (no CMA)");
    latency(rank, iters);
    for (size_t len = 1024; len <= tp->msg.eager_max; len *= 2)
        bandwidth(rank, len, iters > 20000 ? 20000 : iters);
    if (tp->rdma.ops & RD_TP_RDMA_GET) {
        for (size_t len = 4096; len <= 65536; len *= 2) {
            rd_boot_fence();
            cma_bw(rank, len, 2000);
        }
        rd_boot_fence();
        cma_bw(rank, 1 << 20, 200);
        rd_boot_fence();
        cma_bw(rank, 16 << 20, 20);
    }
    rd_boot_fence();
    tp->finalize();
    fake_boot_info_free(&info);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 100000;
    pid_t pid[2];
    int bad = 0;
    if (fake_boot_setup(2, NULL) != 0)
        return 1;
    fflush(stdout);
    for (int r = 0; r < 2; r++) {
        pid[r] = fork();
        if (pid[r] == 0)
            _exit(child(r, iters));
    }
    for (int r = 0; r < 2; r++) {
        int st;
        pid_t p = wait(&st);
        if (!WIFEXITED(st) || WEXITSTATUS(st)) {
            bad = 1;
            kill(pid[0] == p ? pid[1] : pid[0], SIGKILL);   /* it would wait forever */
        }
    }
    fake_boot_teardown();
    return bad;
}
