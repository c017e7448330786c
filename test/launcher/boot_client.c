/*
 * A rank for the launcher tests: uses src/boot directly (no MPI library)
 * and does what its arguments say, in order, then finalizes and exits 0.
 *
 *   info            print what rd_boot_init reported, one line
 *   where           print "where <rank> <network namespace>" (/proc/self/ns/net)
 *   proto           print "proto <rank> <protocol>" (rd_boot_name: PMIx, PMI-2, ...)
 *   exchange        put a key, fence, read every rank's key back and check
 *   bigexchange     the same with a 3000-byte binary value (zeros, spaces,
 *                   '=' and newlines in it), longer than one PMI-1 value
 *   fence           rd_boot_fence
 *   fencecheck=DIR  rd_boot_fence is a barrier: rank 0 waits a second and
 *                   creates DIR/fence-in before it fences; every other rank
 *                   prints "fencecheck ok rank <r>" if the file is there
 *                   once its fence returns, "fencecheck early rank <r>" if not
 *   echo            one line on stdout and one on stderr
 *   partial         "partial <rank>" on stdout without a newline
 *   stdin           copy stdin to stdout, each line as "stdin <rank>: <line>"
 *   sleep=S         sleep S seconds
 *   spin=S          keep a CPU busy for S seconds (a rank polling for a peer)
 *   ignoreterm      ignore SIGTERM from now on
 *   catch           catch SIGUSR1, SIGUSR2 and SIGALRM from now on
 *   waitsig         wait (at most 60 s) for a caught signal, then print
 *                   "signal <rank> <number>"
 *   grandchild      start a child process that sleeps (it must not survive)
 *   shmfile         create /dev/shm/rdmpi-<job_id>-lt-<rank> as the shared-
 *                   memory transport would, and leave it for mpirun to remove
 *   exit@R=N        rank R finalizes and exits with N (R may be "all")
 *   nofin@R=N       rank R exits with N without finalizing
 *   crash@R=SIG     rank R prints "dying <ms since epoch>" to stderr and
 *                   kills itself with SIG
 *   abort@R=N       rank R calls rd_boot_abort(N, ...)
 *   mark=ANY        ignored: lets a test find its processes with pgrep -f
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "util/errdetail.h"
#include "util/status.h"

static rd_boot_info_t info;
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    caught = sig;
}

static void die(const char *what, int rc)
{
    /* The layer recorded why (util/errdetail.h); it never prints itself. */
    fprintf(stderr, "boot_client rank %d: %s failed: %s%s%s\n", info.rank, what,
            rd_status_str(rc), *rd_err_detail_peek() ? ": " : "", rd_err_detail_peek());
    exit(3);
}

static void print_info(void)
{
    printf("rank %d size %d local_rank %d local_size %d local_ranks ",
           info.rank, info.size, info.local_rank, info.local_size);
    for (int i = 0; i < info.local_size; i++)
        printf(i ? ",%d" : "%d", info.local_ranks[i]);
    printf(" univ %d appnum %d singleton %d job_id %s host %s node %d\n",
           info.universe_size, info.appnum, info.singleton, info.job_id, info.hostname,
           info.node_id);
}

static void exchange(void)
{
    char key[32], val[64], buf[64];
    int rc;

    snprintf(val, sizeof(val), "value-of-rank-%d", info.rank);
    if ((rc = rd_boot_put("lt.addr", val, strlen(val) + 1)) != RD_OK)
        die("rd_boot_put", rc);
    if ((rc = rd_boot_fence()) != RD_OK)
        die("rd_boot_fence", rc);
    for (int r = 0; r < info.size; r++) {
        size_t len = sizeof(buf);
        snprintf(val, sizeof(val), "value-of-rank-%d", r);
        if ((rc = rd_boot_get(r, "lt.addr", buf, &len)) != RD_OK)
            die("rd_boot_get", rc);
        if (len != strlen(val) + 1 || strcmp(buf, val) != 0) {
            fprintf(stderr, "rank %d: wrong value from rank %d: '%s'\n", info.rank, r, buf);
            exit(3);
        }
        /* Too small a buffer reports the size needed. */
        len = 4;
        if (rd_boot_get(r, "lt.addr", buf, &len) != RD_ENOMEM || len != strlen(val) + 1) {
            fprintf(stderr, "rank %d: short buffer not reported\n", info.rank);
            exit(3);
        }
    }
    snprintf(key, sizeof(key), "lt.none");
    size_t len = sizeof(buf);
    if (rd_boot_get(0, key, buf, &len) != RD_EINVAL) {
        fprintf(stderr, "rank %d: unknown key not reported\n", info.rank);
        exit(3);
    }
    printf("exchange ok rank %d\n", info.rank);
}

/* Byte i of rank r's big value: every byte value, often 0, ' ', '=', '\n'. */
static unsigned char big_byte(int r, size_t i)
{
    static const unsigned char special[] = { 0, ' ', '=', '\n' };
    return i % 7 == 0 ? special[i / 7 % 4] : (unsigned char)((i * 31 + (size_t)r) & 0xff);
}

static void bigexchange(void)
{
    enum { BIG = 3000 };
    static unsigned char val[BIG], buf[BIG + 16];
    int rc;

    for (size_t i = 0; i < BIG; i++)
        val[i] = big_byte(info.rank, i);
    if ((rc = rd_boot_put("lt.big", val, BIG)) != RD_OK)
        die("rd_boot_put", rc);
    if ((rc = rd_boot_fence()) != RD_OK)
        die("rd_boot_fence", rc);
    for (int r = 0; r < info.size; r++) {
        size_t len = sizeof(buf);
        if ((rc = rd_boot_get(r, "lt.big", buf, &len)) != RD_OK)
            die("rd_boot_get", rc);
        if (len != BIG) {
            fprintf(stderr, "rank %d: rank %d's big value has %zu bytes\n", info.rank, r, len);
            exit(3);
        }
        for (size_t i = 0; i < BIG; i++)
            if (buf[i] != big_byte(r, i)) {
                fprintf(stderr, "rank %d: rank %d's big value differs at %zu\n", info.rank, r, i);
                exit(3);
            }
    }
    printf("bigexchange ok rank %d\n", info.rank);
}

static void fence_check(const char *dir)
{
    char path[4096];
    int rc;

    snprintf(path, sizeof(path), "%s/fence-in", dir);
    if (info.rank == 0) {
        sleep(1);
        FILE *f = fopen(path, "w");
        if (!f || fclose(f) != 0)
            die("creating the fencecheck file", RD_EINTERN);
    }
    if ((rc = rd_boot_fence()) != RD_OK)
        die("rd_boot_fence", rc);
    if (info.rank != 0)
        printf("fencecheck %s rank %d\n", access(path, F_OK) == 0 ? "ok" : "early", info.rank);
}

/* "name@R=N" for this rank (or "name=N", "name@all=N"): returns 1 and sets *n. */
static int targets_me(const char *arg, const char *name, long *n)
{
    size_t len = strlen(name);
    const char *p = arg + len, *eq;

    if (strncmp(arg, name, len) != 0 || (*p != '@' && *p != '='))
        return 0;
    eq = strchr(p, '=');
    if (!eq)
        return 0;
    if (*p == '@' && strncmp(p + 1, "all=", 4) != 0 && atoi(p + 1) != info.rank)
        return 0;
    *n = atol(eq + 1);
    return 1;
}

int main(int argc, char **argv)
{
    int rc;
    long n;

    if ((rc = rd_boot_init(&info)) != RD_OK)
        die("rd_boot_init", rc);
    setvbuf(stdout, NULL, _IOLBF, 0);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "info")) {
            print_info();
        } else if (!strcmp(a, "proto")) {
            printf("proto %d %s\n", info.rank, rd_boot_name());
        } else if (!strcmp(a, "where")) {
            char ns[64] = "";
            ssize_t n = readlink("/proc/self/ns/net", ns, sizeof(ns) - 1);
            printf("where %d %s\n", info.rank, n > 0 ? ns : "unknown");
        } else if (!strcmp(a, "exchange")) {
            exchange();
        } else if (!strcmp(a, "bigexchange")) {
            bigexchange();
        } else if (!strcmp(a, "fence")) {
            if ((rc = rd_boot_fence()) != RD_OK)
                die("rd_boot_fence", rc);
        } else if (!strcmp(a, "echo")) {
            printf("out %d\n", info.rank);
            fprintf(stderr, "err %d\n", info.rank);
        } else if (!strcmp(a, "partial")) {
            printf("partial %d", info.rank);
            fflush(stdout);
        } else if (!strcmp(a, "stdin")) {
            char line[4096];
            while (fgets(line, sizeof(line), stdin))
                printf("stdin %d: %s", info.rank, line);
        } else if (!strncmp(a, "fencecheck=", 11)) {
            fence_check(a + 11);
        } else if (!strncmp(a, "sleep=", 6)) {
            sleep((unsigned)atoi(a + 6));
        } else if (!strncmp(a, "spin=", 5)) {
            struct timespec t0, t;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            do
                clock_gettime(CLOCK_MONOTONIC, &t);
            while (t.tv_sec - t0.tv_sec < atoi(a + 5));
        } else if (!strcmp(a, "ignoreterm")) {
            signal(SIGTERM, SIG_IGN);
        } else if (!strcmp(a, "catch")) {
            signal(SIGUSR1, on_signal);
            signal(SIGUSR2, on_signal);
            signal(SIGALRM, on_signal);
        } else if (!strcmp(a, "waitsig")) {
            for (int ms = 0; !caught && ms < 60000; ms += 10)
                usleep(10000);
            printf("signal %d %d\n", info.rank, (int)caught);
        } else if (!strcmp(a, "grandchild")) {
            if (fork() == 0) {
                execlp("sleep", "sleep", "300", (char *)NULL);
                _exit(1);
            }
        } else if (!strcmp(a, "shmfile")) {
            char path[128];
            snprintf(path, sizeof(path), "/dev/shm/rdmpi-%s-lt-%d", info.job_id, info.rank);
            FILE *f = fopen(path, "w");
            if (!f) {
                perror(path);
                exit(3);
            }
            fclose(f);
        } else if (targets_me(a, "exit", &n)) {
            rd_boot_finalize(&info);
            exit((int)n);
        } else if (targets_me(a, "nofin", &n)) {
            fflush(stdout);
            _exit((int)n);
        } else if (targets_me(a, "crash", &n)) {
            struct timeval tv;
            gettimeofday(&tv, NULL);
            fprintf(stderr, "dying %lld\n", (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000);
            kill(getpid(), (int)n);
            pause();
        } else if (targets_me(a, "abort", &n)) {
            rd_boot_abort((int)n, "boot_client was asked to abort");
        } else if (strncmp(a, "mark=", 5) != 0 && strchr(a, '@') == NULL) {
            fprintf(stderr, "boot_client: unknown action '%s'\n", a);
            exit(3);
        }
    }
    if ((rc = rd_boot_finalize(&info)) != RD_OK)
        die("rd_boot_finalize", rc);
    return 0;
}
