/* Who may connect to the PMIx server (see pmix_gate.h). */
#include "pmix_gate.h"

#include <dirent.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* How long the kernel may take to answer a sock_diag query, in ms. */
#define RD_MPIRUN_GATE_DIAG_MS 2000

static atomic_ulong admitted;

unsigned long rd_mpirun_pmix_gate_admitted(void)
{
    return atomic_load(&admitted);
}

/* The owner and inode of the socket at the other end of the TCP
 * connection from peer to self, both on this host: 0 with *uid and *ino
 * set, -1 when the kernel knows no such socket here (a remote peer), -2
 * when it cannot say (errno set). */
static int peer_owner(const struct sockaddr_storage *peer, const struct sockaddr_storage *self,
                      uid_t *uid, unsigned long *ino)
{
    struct {
        struct nlmsghdr nh;
        struct inet_diag_req_v2 r;
    } req;
    union {
        struct nlmsghdr nh;
        char buf[8192];
    } ans;
    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    struct pollfd p;
    ssize_t n;
    int fd, rc = -2;

    memset(&req, 0, sizeof(req));
    req.nh.nlmsg_len = sizeof(req);
    req.nh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    req.nh.nlmsg_flags = NLM_F_REQUEST;
    req.r.sdiag_family = (unsigned char)peer->ss_family;
    req.r.sdiag_protocol = IPPROTO_TCP;
    req.r.idiag_states = ~0u;
    req.r.id.idiag_cookie[0] = req.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    /* The connecting socket: its local end is the peer, its remote end us. */
    if (peer->ss_family == AF_INET && self->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const void *)peer, *b = (const void *)self;
        req.r.id.idiag_sport = a->sin_port;
        req.r.id.idiag_dport = b->sin_port;
        memcpy(req.r.id.idiag_src, &a->sin_addr, sizeof(a->sin_addr));
        memcpy(req.r.id.idiag_dst, &b->sin_addr, sizeof(b->sin_addr));
    } else if (peer->ss_family == AF_INET6 && self->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const void *)peer, *b = (const void *)self;
        req.r.id.idiag_sport = a->sin6_port;
        req.r.id.idiag_dport = b->sin6_port;
        memcpy(req.r.id.idiag_src, &a->sin6_addr, sizeof(a->sin6_addr));
        memcpy(req.r.id.idiag_dst, &b->sin6_addr, sizeof(b->sin6_addr));
    } else {
        return -1;
    }

    fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0)
        return -2;
    if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel, sizeof(kernel)) !=
        (ssize_t)sizeof(req))
        goto out;
    p = (struct pollfd){ .fd = fd, .events = POLLIN };
    if (poll(&p, 1, RD_MPIRUN_GATE_DIAG_MS) != 1) {
        errno = ETIMEDOUT;
        goto out;
    }
    n = recv(fd, &ans, sizeof(ans), 0);
    /* One answer: the socket, or an error (ENOENT: none such here). */
    if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct inet_diag_msg)) && NLMSG_OK(&ans.nh, (size_t)n) &&
        ans.nh.nlmsg_type == SOCK_DIAG_BY_FAMILY) {
        const struct inet_diag_msg *m = NLMSG_DATA(&ans.nh);
        *uid = (uid_t)m->idiag_uid;
        *ino = m->idiag_inode;
        rc = 0;
    } else if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
               ans.nh.nlmsg_type == NLMSG_ERROR) {
        const struct nlmsgerr *e = NLMSG_DATA(&ans.nh);
        errno = -e->error;
        rc = e->error == -ENOENT ? -1 : -2;
    } else {
        errno = EPROTO;
    }
out:
    close(fd);
    return rc;
}

/* The same from /proc/net/tcp(6), for kernels without sock_diag's TCP
 * module (tcp_diag; small guest kernels): the table prints each address as
 * the words of the raw address in hex and the port in host order. */
static int peer_owner_proc(const struct sockaddr_storage *peer,
                           const struct sockaddr_storage *self, uid_t *uid, unsigned long *ino)
{
    char want_l[64], want_r[64], line[512], l[64], r[64];
    const char *table;
    int rc = -1;
    FILE *f;

    if (peer->ss_family == AF_INET && self->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const void *)peer, *b = (const void *)self;
        snprintf(want_l, sizeof(want_l), "%08X:%04X", a->sin_addr.s_addr, ntohs(a->sin_port));
        snprintf(want_r, sizeof(want_r), "%08X:%04X", b->sin_addr.s_addr, ntohs(b->sin_port));
        table = "/proc/net/tcp";
    } else if (peer->ss_family == AF_INET6 && self->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const void *)peer, *b = (const void *)self;
        const uint32_t *x = (const uint32_t *)(const void *)&a->sin6_addr;
        const uint32_t *y = (const uint32_t *)(const void *)&b->sin6_addr;
        snprintf(want_l, sizeof(want_l), "%08X%08X%08X%08X:%04X", x[0], x[1], x[2], x[3],
                 ntohs(a->sin6_port));
        snprintf(want_r, sizeof(want_r), "%08X%08X%08X%08X:%04X", y[0], y[1], y[2], y[3],
                 ntohs(b->sin6_port));
        table = "/proc/net/tcp6";
    } else {
        return -1;
    }
    if (!(f = fopen(table, "re")))
        return -2;
    while (rc == -1 && fgets(line, sizeof(line), f)) {
        unsigned u;
        unsigned long i;
        /* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
        if (sscanf(line, " %*d: %63s %63s %*x %*x:%*x %*x:%*x %*x %u %*d %lu", l, r, &u, &i) ==
                4 &&
            strcmp(l, want_l) == 0 && strcmp(r, want_r) == 0) {
            *uid = (uid_t)u;
            *ino = i;
            rc = 0;
        }
    }
    fclose(f);
    return rc;
}

/* Whether process pid holds the socket whose link reads want. */
static int holds(pid_t pid, const char *want)
{
    char dir[64], link[64];
    struct dirent *e;
    int found = 0;
    DIR *d;

    snprintf(dir, sizeof(dir), "/proc/%ld/fd", (long)pid);
    if (!(d = opendir(dir)))
        return 0;
    while (!found && (e = readdir(d)) != NULL) {
        ssize_t n;
        n = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
        if (n > 0) {
            link[n] = '\0';
            found = strcmp(link, want) == 0;
        }
    }
    closedir(d);
    return found;
}

/* Whether a process mpirun started, or one they started in turn, holds
 * the socket with inode ino: walks the tree of children from ours down
 * (/proc/PID/task/TID/children). */
static int held_by_descendant(unsigned long ino)
{
    pid_t *todo = NULL;
    size_t n = 0, cap = 0, next = 0;
    char want[64];
    int found = 0;

    snprintf(want, sizeof(want), "socket:[%lu]", ino);
    for (pid_t pid = getpid(); !found; pid = todo[next++]) {
        struct dirent *t;
        char dir[64], path[sizeof(t->d_name) + 64 + 16];
        DIR *d;

        if (pid != getpid() && holds(pid, want)) {
            found = 1;
            break;
        }
        snprintf(dir, sizeof(dir), "/proc/%ld/task", (long)pid);
        if ((d = opendir(dir)) != NULL) {
            while ((t = readdir(d)) != NULL) {
                long child;
                FILE *f;
                if (t->d_name[0] == '.')
                    continue;
                snprintf(path, sizeof(path), "%s/%s/children", dir, t->d_name);
                if (!(f = fopen(path, "re")))
                    continue;
                while (fscanf(f, "%ld", &child) == 1) {
                    if (n == cap) {
                        size_t ncap = cap ? 2 * cap : 64;
                        pid_t *nt = realloc(todo, ncap * sizeof(*nt));
                        if (!nt)
                            break;
                        todo = nt;
                        cap = ncap;
                    }
                    todo[n++] = (pid_t)child;
                }
                fclose(f);
            }
            closedir(d);
        }
        if (next == n)
            break;
    }
    free(todo);
    return found;
}

/* Whether the connection c may reach PMIx: its other end is a socket on
 * this host that our user owns, held by a process mpirun started. */
static int admissible(int c)
{
    struct sockaddr_storage peer, self;
    socklen_t plen = sizeof(peer), slen = sizeof(self);
    static atomic_int said;
    unsigned long ino;
    uid_t uid;
    int rc;

    if (getpeername(c, (struct sockaddr *)&peer, &plen) != 0 ||
        getsockname(c, (struct sockaddr *)&self, &slen) != 0)
        return 0;
    rc = peer_owner(&peer, &self, &uid, &ino);
    if (rc != 0)   /* without tcp_diag the kernel answers ENOENT for any socket */
        rc = peer_owner_proc(&peer, &self, &uid, &ino);
    /* Refused all the same: nobody can tell who it is. Said once, since
     * the ranks would only say that the server was unreachable. */
    if (rc == -2 && !atomic_exchange(&said, 1))
        fprintf(stderr, "mpirun: cannot tell who connects to the PMIx server: the kernel's "
                "sock_diag (NETLINK_SOCK_DIAG, module tcp_diag) failed: %s\n", strerror(errno));
    return rc == 0 && uid == geteuid() && held_by_descendant(ino);
}

/* glibc declares accept() with a transparent union of the address types
 * when _GNU_SOURCE is on; its first member is the plain pointer. */
#ifdef __USE_GNU
#define GATE_ADDR(a) ((a).__sockaddr__)
#else
#define GATE_ADDR(a) (a)
#endif

int accept(int fd, __SOCKADDR_ARG addr, socklen_t *__restrict addrlen)
{
    struct timeval tv = { .tv_sec = RD_MPIRUN_GATE_HANDSHAKE_MS / 1000,
                          .tv_usec = RD_MPIRUN_GATE_HANDSHAKE_MS % 1000 * 1000 };
    int c = accept4(fd, GATE_ADDR(addr), addrlen, 0);

    if (c < 0)
        return c;
    if (!admissible(c)) {
        close(c);
        /* What a connection that went away before accept() gives: callers
         * go back to waiting for the next one. */
        errno = ECONNABORTED;
        return -1;
    }
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    atomic_fetch_add(&admitted, 1);
    return c;
}
