/*
 * tcp_listen: a rank listens for TCP connections only on the addresses it
 * publishes (run with RDMPI_TRANSPORTS=tcp): never on the wildcard, so
 * RDMPI_TCP_IF=lo keeps the port off every other interface even when lo
 * has two addresses (127.0.0.1 and ::1).
 *
 * After MPI_Init each rank finds its own listening sockets: the socket
 * inodes among its descriptors (/proc/self/fd) that /proc/net/tcp and
 * /proc/net/tcp6 list in the LISTEN state, with their local addresses.
 * None may be a wildcard (0.0.0.0, ::); with TCP_LISTEN_EXPECT set (a
 * comma-separated list such as "127.0.0.1,::1") the set of addresses must
 * be exactly that one, all on one port.
 * rdmpi-only: other MPIs listen where they choose.
 */
#include "mtest.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXSOCK 256

static unsigned long inodes[MAXSOCK];
static int ninodes;

/* Socket inodes of this process's descriptors. */
static void own_sockets(void)
{
    DIR *d = opendir("/proc/self/fd");
    MT_CHECK(d != NULL, "cannot open /proc/self/fd");
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) && ninodes < MAXSOCK;) {
        char path[300], link[64];
        snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, link, sizeof(link) - 1);
        if (n <= 0)
            continue;
        link[n] = 0;
        unsigned long ino;
        if (sscanf(link, "socket:[%lu]", &ino) == 1)
            inodes[ninodes++] = ino;
    }
    closedir(d);
}

static int is_own(unsigned long ino)
{
    for (int i = 0; i < ninodes; i++)
        if (inodes[i] == ino)
            return 1;
    return 0;
}

/* Our listening sockets in one /proc/net table: their addresses (text) and
 * ports appended to addrs/ports. */
static int scan(const char *table, int v6, char addrs[][INET6_ADDRSTRLEN], unsigned *ports,
                int n)
{
    FILE *f = fopen(table, "r");
    if (!f)
        return n;   /* no IPv6 in this kernel */
    char line[512];
    if (!fgets(line, sizeof(line), f)) {
        fclose(f);
        return n;
    }
    while (fgets(line, sizeof(line), f) && n < MAXSOCK) {
        char local[64];
        unsigned port, st;
        unsigned long ino;
        if (sscanf(line, " %*d: %63[0-9A-Fa-f]:%x %*64[0-9A-Fa-f]:%*x %x %*x:%*x %*x:%*x %*x "
                   "%*d %*d %lu", local, &port, &st, &ino) != 4)
            continue;
        if (st != 0x0A || !is_own(ino))
            continue;
        /* The kernel prints the address as 32-bit words in host order. */
        unsigned char a[16];
        int words = v6 ? 4 : 1;
        for (int w = 0; w < words; w++) {
            unsigned word;
            char hex[9];
            memcpy(hex, local + 8 * w, 8);
            hex[8] = 0;
            word = (unsigned)strtoul(hex, NULL, 16);
            memcpy(a + 4 * w, &word, 4);
        }
        inet_ntop(v6 ? AF_INET6 : AF_INET, a, addrs[n], INET6_ADDRSTRLEN);
        ports[n] = port;
        n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    static char addrs[MAXSOCK][INET6_ADDRSTRLEN];
    static unsigned ports[MAXSOCK];
    MTest_Init(&argc, &argv);
    /* Every rank has opened its listening sockets once MPI_Init is over. */
    own_sockets();
    int n = scan("/proc/net/tcp", 0, addrs, ports, 0);
    n = scan("/proc/net/tcp6", 1, addrs, ports, n);
    MT_CHECK(n > 0, "rank %d listens nowhere", MTest_rank);
    for (int i = 0; i < n; i++) {
        MT_CHECK(strcmp(addrs[i], "0.0.0.0") && strcmp(addrs[i], "::"),
                 "rank %d listens on the wildcard address %s port %u", MTest_rank, addrs[i],
                 ports[i]);
        MT_CHECK(ports[i] == ports[0], "rank %d listens on ports %u and %u", MTest_rank,
                 ports[0], ports[i]);
    }
    const char *want = getenv("TCP_LISTEN_EXPECT");
    if (want) {
        char list[512];
        snprintf(list, sizeof(list), "%s", want);
        int nwant = 0;
        for (char *save = NULL, *a = strtok_r(list, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
            int found = 0;
            for (int i = 0; i < n; i++)
                found |= strcmp(addrs[i], a) == 0;
            MT_CHECK(found, "rank %d does not listen on %s", MTest_rank, a);
            nwant++;
        }
        MT_CHECK(n == nwant, "rank %d listens on %d addresses, expected %d (%s)", MTest_rank, n,
                 nwant, want);
    }
    for (int i = 0; i < n; i++)
        printf("rank %d listens on %s port %u\n", MTest_rank, addrs[i], ports[i]);
    /* A message over the sockets checked, so they are the transport's. */
    int v = MTest_rank, got = -1;
    int peer = MTest_size - 1 - MTest_rank;
    MT_OK(MPI_Sendrecv(&v, 1, MPI_INT, peer, 0, &got, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    MT_CHECK(got == peer, "rank %d got %d from rank %d", MTest_rank, got, peer);
    return MTest_Finalize();
}
