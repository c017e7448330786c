/* Sockets, addresses and the launch agent (see launch.h). */
#include "launch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/clock.h"

/* Connections waiting to be accepted. */
#define RD_MPIRUN_LISTEN_BACKLOG 128
/* Words of a --launch-agent command. */
#define RD_MPIRUN_AGENT_WORDS_MAX 32

/* A listening socket on addr (numeric), port chosen by the kernel. */
static int listen_on(const char *addr)
{
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
    struct addrinfo *ai;
    int fd;

    if (getaddrinfo(addr, "0", &hints, &ai) != 0) {
        errno = EADDRNOTAVAIL;
        return -1;
    }
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && bind(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        close(fd);
        fd = -1;
    }
    freeaddrinfo(ai);
    return fd;
}

int rd_mpirun_listen(const char *addr, int *port)
{
    struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT };
    struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
    struct sockaddr_storage got;
    socklen_t len = sizeof(got);
    int zero = 0, fd = -1;

    if (addr) {
        fd = listen_on(addr);
        goto listen;
    }
    /* Both IPv6 and IPv4 on one dual-stack socket when the host has IPv6. */
    fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) != 0 ||
                    bind(fd, (struct sockaddr *)&a6, sizeof(a6)) != 0)) {
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && bind(fd, (struct sockaddr *)&a4, sizeof(a4)) != 0) {
            close(fd);
            fd = -1;
        }
    }
listen:
    if (fd < 0 || listen(fd, RD_MPIRUN_LISTEN_BACKLOG) != 0 ||
        getsockname(fd, (struct sockaddr *)&got, &len) != 0) {
        fprintf(stderr, "mpirun: cannot listen for the host daemons: %s\n", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    *port = ntohs(got.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&got)->sin6_port
                                            : ((struct sockaddr_in *)&got)->sin_port);
    return fd;
}

static int append(char **s, size_t *len, const char *word)
{
    size_t n = strlen(word);
    char *ns = realloc(*s, *len + n + 2);
    if (!ns)
        return -1;
    *s = ns;
    if (*len)
        ns[(*len)++] = ',';
    memcpy(ns + *len, word, n + 1);
    *len += n;
    return 0;
}

char *rd_mpirun_addresses(void)
{
    struct ifaddrs *ifs, *i;
    char *s = NULL, buf[INET6_ADDRSTRLEN];
    size_t len = 0;

    if (getifaddrs(&ifs) != 0) {
        fprintf(stderr, "mpirun: cannot list this host's addresses: %s\n", strerror(errno));
        return NULL;
    }
    /* Pass 0: the other interfaces; pass 1: loopback, for daemons on this
     * very host (another user's account through ssh localhost, say). */
    for (int pass = 0; pass < 2; pass++) {
        for (i = ifs; i; i = i->ifa_next) {
            if (!i->ifa_addr || !(i->ifa_flags & IFF_UP) || !!(i->ifa_flags & IFF_LOOPBACK) != pass)
                continue;
            if (i->ifa_addr->sa_family == AF_INET) {
                inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, buf, sizeof(buf));
            } else if (i->ifa_addr->sa_family == AF_INET6) {
                struct in6_addr *a = &((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
                if (IN6_IS_ADDR_LINKLOCAL(a))
                    continue;       /* needs a scope that differs per host */
                inet_ntop(AF_INET6, a, buf, sizeof(buf));
            } else {
                continue;
            }
            if (append(&s, &len, buf)) {
                freeifaddrs(ifs);
                free(s);
                fprintf(stderr, "mpirun: out of memory\n");
                return NULL;
            }
        }
    }
    freeifaddrs(ifs);
    if (!s)
        fprintf(stderr, "mpirun: this host has no network address for the daemons to reach\n");
    return s;
}

/* The address this host sends from to reach host (its route's source),
 * numeric, into buf; -1 when the name does not resolve here. */
static int source_for(const char *host, char *buf, size_t len)
{
    struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai, *a;
    int rc = -1;

    if (getaddrinfo(host, "9", &hints, &ai) != 0)
        return -1;
    for (a = ai; a && rc != 0; a = a->ai_next) {
        struct sockaddr_storage self;
        socklen_t slen = sizeof(self);
        /* A datagram socket's connect sends nothing: it picks the route. */
        int fd = socket(a->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) == 0 &&
            getsockname(fd, (struct sockaddr *)&self, &slen) == 0 &&
            getnameinfo((struct sockaddr *)&self, slen, buf, (socklen_t)len, NULL, 0,
                        NI_NUMERICHOST) == 0)
            rc = 0;
        if (fd >= 0)
            close(fd);
    }
    freeaddrinfo(ai);
    return rc;
}

char *rd_mpirun_daemon_source(const char *const *hosts, int n)
{
    char first[NI_MAXHOST] = "", cur[NI_MAXHOST];

    for (int i = 0; i < n; i++) {
        /* A link-local address would need its interface to be bound. */
        if (source_for(hosts[i], cur, sizeof(cur)) != 0 || strchr(cur, '%'))
            return NULL;
        if (!first[0])
            snprintf(first, sizeof(first), "%s", cur);
        else if (strcmp(first, cur) != 0)
            return NULL;
    }
    return first[0] ? strdup(first) : NULL;
}

int rd_mpirun_make_secret(char *secret)
{
    unsigned char r[RD_MPIRUN_SECRET_LEN / 2];

    if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
        fprintf(stderr, "mpirun: no random bytes for the job secret: %s\n", strerror(errno));
        return -1;
    }
    for (size_t k = 0; k < sizeof(r); k++)
        snprintf(secret + 2 * k, 3, "%02x", r[k]);
    return 0;
}

pid_t rd_mpirun_spawn_agent(const char *agent, const char *host, const char *self,
                            int port, const char *addrs, int hostidx, const char *secret)
{
    char *words = strdup(agent), *save = NULL, *w;
    char *argv[RD_MPIRUN_AGENT_WORDS_MAX + 8];
    char sport[16], sidx[16], line[RD_MPIRUN_SECRET_LEN + 2];
    int n = 0, in[2];
    pid_t pid;

    if (!words)
        return -1;
    for (w = strtok_r(words, " \t", &save); w && n < RD_MPIRUN_AGENT_WORDS_MAX;
         w = strtok_r(NULL, " \t", &save))
        argv[n++] = w;
    snprintf(sport, sizeof(sport), "%d", port);
    snprintf(sidx, sizeof(sidx), "%d", hostidx);
    argv[n++] = (char *)host;
    argv[n++] = (char *)self;
    argv[n++] = RD_MPIRUN_DAEMON_ARG;
    argv[n++] = sport;
    argv[n++] = (char *)addrs;
    argv[n++] = sidx;
    argv[n] = NULL;

    /* The secret goes through the agent's stdin: a command line is there
     * for every user to read (ps, /proc/PID/cmdline), on both hosts. */
    if (pipe2(in, O_CLOEXEC) != 0) {
        fprintf(stderr, "mpirun: cannot start the launch agent for host %s: pipe: %s\n", host,
                strerror(errno));
        free(words);
        return -1;
    }
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "mpirun: cannot start the launch agent for host %s: %s\n", host, strerror(errno));
        close(in[0]);
        close(in[1]);
        free(words);
        return -1;
    }
    if (pid == 0) {
        sigset_t none;
        /* Its own group: a ^C on the terminal reaches mpirun, which stops
         * the job through the daemons, not the agents directly. */
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (dup2(in[0], 0) < 0 || dup2(2, 1) < 0)
            _exit(127);
        close_range(3, ~0U, 0);
        execvp(argv[0], argv);
        fprintf(stderr, "mpirun: cannot run the launch agent '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    free(words);
    close(in[0]);
    /* The pipe holds it all (far less than PIPE_BUF): this never blocks. */
    snprintf(line, sizeof(line), "%s\n", secret);
    if (write(in[1], line, strlen(line)) != (ssize_t)strlen(line))
        fprintf(stderr, "mpirun: cannot pass the job secret to the launch agent for host %s: %s\n",
                host, strerror(errno));
    close(in[1]);
    return pid;
}

int rd_mpirun_read_secret(char *secret)
{
    long long until = rd_clock_ms() + RD_MPIRUN_CONNECT_TIMEOUT_MS;
    size_t got = 0;
    int null;

    while (got < RD_MPIRUN_SECRET_LEN + 1) {
        struct pollfd p = { .fd = 0, .events = POLLIN };
        long long left = until - rd_clock_ms();
        ssize_t r;
        if (left <= 0 || poll(&p, 1, (int)left) != 1)
            break;
        r = read(0, secret + got, RD_MPIRUN_SECRET_LEN + 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    /* Nothing more comes on stdin; it stays open, on /dev/null. */
    null = open("/dev/null", O_RDONLY);
    if (null >= 0 && null != 0) {
        dup2(null, 0);
        close(null);
    }
    if (got != RD_MPIRUN_SECRET_LEN + 1 || secret[RD_MPIRUN_SECRET_LEN] != '\n' ||
        strspn(secret, "0123456789abcdef") != RD_MPIRUN_SECRET_LEN) {
        fprintf(stderr, "mpirun: host daemon: no job secret on standard input (the launch agent "
                "must pass its standard input on: not ssh -n)\n");
        return -1;
    }
    secret[RD_MPIRUN_SECRET_LEN] = '\0';
    return 0;
}

/* Non-blocking connect with a bound on the wait. */
static int try_connect(const char *addr, int port)
{
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
    struct addrinfo *ai;
    char sport[16];
    int fd, err = 0;
    socklen_t elen = sizeof(err);

    snprintf(sport, sizeof(sport), "%d", port);
    if (getaddrinfo(addr, sport, &hints, &ai) != 0)
        return -1;
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        struct pollfd p = { .fd = fd, .events = POLLOUT };
        if (errno != EINPROGRESS || poll(&p, 1, RD_MPIRUN_CONNECT_TIMEOUT_MS) != 1 ||
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0 || err != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

int rd_mpirun_connect_head(const char *addrs, int port)
{
    char *copy = strdup(addrs), *save = NULL, *a;
    int fd = -1;

    if (!copy)
        return -1;
    for (a = strtok_r(copy, ",", &save); a && fd < 0; a = strtok_r(NULL, ",", &save))
        fd = try_connect(a, port);
    free(copy);
    if (fd < 0)
        fprintf(stderr, "mpirun: host daemon: cannot reach mpirun at any of %s port %d\n", addrs, port);
    return fd;
}
