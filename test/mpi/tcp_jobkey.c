/*
 * tcp_jobkey: under rdmpi's mpirun, the TCP transport's connection key is
 * the job key mpirun hands every rank in its environment, and nothing
 * secret is published through PMIx (run with RDMPI_TRANSPORTS=tcp at np 2
 * or more; the ranks may be on several hosts, whose daemons pass the key
 * on). Each rank checks that:
 *   - RDMPI_JOB_KEY held 32 hex digits before MPI_Init, the same as rank 0's;
 *   - MPI_Init took it away: getenv, a child process's environment and
 *     /proc/self/environ no longer show it;
 *   - every rank's published TCP address record holds the port and the
 *     addresses only (no room for a key, none of the job key's bytes), and
 *     no rank published a key of its own (RD_TCP_BOOT_SECRET);
 *   - messages flow between every pair of ranks (their HELLOs carried the
 *     job key).
 * rdmpi-only: it knows rdmpi's wire format (src/transport/tcp/tcp_wire.h).
 */
#include "mtest.h"

#include <fcntl.h>
#include <pmix.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transport/tcp/tcp_wire.h"

#define HEX_LEN (2 * RD_TCP_KEY_LEN)

/* Does /proc/self/environ (the environment the process started with, as
 * other processes of its user can read it) contain s? */
static int environ_file_has(const char *s)
{
    static char buf[1 << 20];
    size_t n = 0;
    ssize_t r;
    int fd = open("/proc/self/environ", O_RDONLY);
    if (fd < 0)
        return -1;
    while (n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) > 0)
        n += (size_t)r;
    close(fd);
    return memmem(buf, n, s, strlen(s)) != NULL;
}

/* Rank r's published records. */
static void check_published(const pmix_proc_t *me, int r, const uint8_t *key)
{
    pmix_proc_t peer;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&peer, me->nspace, (pmix_rank_t)r);
    int ok = PMIx_Get(&peer, RD_TCP_BOOT_KEY, NULL, 0, &v) == PMIX_SUCCESS && v &&
             v->type == PMIX_BYTE_OBJECT && v->data.bo.size >= RD_TCP_ADDR_LEN(1);
    MT_CHECK(ok, "rank %d's TCP address is published", r);
    if (ok) {
        const uint8_t *b = (const uint8_t *)v->data.bo.bytes;
        size_t len = v->data.bo.size;
        MT_CHECK(b[0] == RD_TCP_WIRE_VERSION && len == RD_TCP_ADDR_LEN(b[1]),
                 "rank %d's address record: version %u, %zu bytes for %u addresses "
                 "(expected version %d, %zu bytes)", r, b[0], len, b[1], RD_TCP_WIRE_VERSION,
                 (size_t)RD_TCP_ADDR_LEN(b[1]));
        MT_CHECK(!memmem(b, len, key, RD_TCP_KEY_LEN),
                 "rank %d's address record contains the job key", r);
    }
    if (v)
        PMIX_VALUE_RELEASE(v);

    /* Looked up in what the fence brought, without waiting for it. */
    pmix_info_t info[2];
    bool yes = true;
    int secs = 5;
    PMIX_INFO_LOAD(&info[0], PMIX_OPTIONAL, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &secs, PMIX_INT);
    v = NULL;
    pmix_status_t rc = PMIx_Get(&peer, RD_TCP_BOOT_SECRET, info, 2, &v);
    MT_CHECK(rc != PMIX_SUCCESS, "rank %d published a connection key (%s)", r,
             RD_TCP_BOOT_SECRET);
    if (v)
        PMIX_VALUE_RELEASE(v);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
}

int main(int argc, char **argv)
{
    char hex[HEX_LEN + 1] = "";
    const char *s = getenv("RDMPI_JOB_KEY");
    if (s && strlen(s) == HEX_LEN && strspn(s, "0123456789abcdef") == HEX_LEN)
        strcpy(hex, s);
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    MT_CHECK(hex[0], "mpirun handed no job key (RDMPI_JOB_KEY: %s)", s ? "malformed" : "unset");

    char root_hex[HEX_LEN + 1];
    memcpy(root_hex, hex, sizeof(root_hex));
    MT_OK(MPI_Bcast(root_hex, sizeof(root_hex), MPI_CHAR, 0, MPI_COMM_WORLD));
    MT_CHECK(!strcmp(root_hex, hex), "rank 0 was handed another job key");

    MT_CHECK(!getenv("RDMPI_JOB_KEY"), "RDMPI_JOB_KEY is still set after MPI_Init");
    MT_CHECK(system("test -z \"${RDMPI_JOB_KEY+set}\"") == 0,
             "a child process inherits RDMPI_JOB_KEY");
    if (hex[0])
        MT_CHECK(environ_file_has(hex) == 0,
                 "/proc/self/environ shows the job key after MPI_Init");

    uint8_t key[RD_TCP_KEY_LEN] = { 0 };
    for (int i = 0; hex[0] && i < RD_TCP_KEY_LEN; i++) {
        unsigned x;
        sscanf(hex + 2 * i, "%2x", &x);
        key[i] = (uint8_t)x;
    }
    pmix_proc_t me;
    int ok = PMIx_Init(&me, NULL, 0) == PMIX_SUCCESS;
    MT_CHECK(ok, "PMIx_Init");
    for (int r = 0; ok && r < MTest_size; r++)
        check_published(&me, r, key);
    if (ok)
        PMIx_Finalize(NULL, 0);

    /* A connection between every pair of ranks. */
    int *out = malloc(sizeof(int) * (size_t)MTest_size);
    int *in = malloc(sizeof(int) * (size_t)MTest_size);
    for (int r = 0; r < MTest_size; r++)
        out[r] = MTest_rank * 1000 + r;
    MT_OK(MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < MTest_size; r++)
        MT_CHECK(in[r] == r * 1000 + MTest_rank, "from rank %d: %d", r, in[r]);
    free(out);
    free(in);
    return MTest_Finalize();
}
