/* Host lists, rank placement and "is this host me" (see hosts.h). */
#include "hosts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"

/* Slots of one host: keeps the arithmetic of the mapping in int. */
#define RD_MPIRUN_SLOTS_MAX 65535

static int host_error(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "mpirun: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (see mpirun --help)\n");
    return RD_MPIRUN_EXIT_USAGE;
}

/* Letters, digits, '.', '-', '_' and ':' (IPv6): what may follow "ssh". */
static int valid_host(const char *s, size_t len)
{
    if (len == 0 || len > RD_MPIRUN_HOST_MAX || s[0] == '-')
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_' || c == ':'))
            return 0;
    }
    return 1;
}

static int parse_slots(const char *s, int *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < 1 || v > RD_MPIRUN_SLOTS_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

static int add_host(char ***names, int **slots, int *n, const char *name, size_t len, int nslots)
{
    char **nn = realloc(*names, (size_t)(*n + 1) * sizeof(*nn));
    int *ns;

    if (!nn)
        return -1;
    *names = nn;
    ns = realloc(*slots, (size_t)(*n + 1) * sizeof(*ns));
    if (!ns)
        return -1;
    *slots = ns;
    if (!(nn[*n] = strndup(name, len)))
        return -1;
    ns[*n] = nslots;
    (*n)++;
    return 0;
}

int rd_mpirun_hosts_parse_list(const char *list, char ***names, int **slots, int *n)
{
    const char *p = list;

    if (!*list)
        return host_error("%s%s", "-hosts: empty host list", "");
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[RD_MPIRUN_HOST_MAX + 16];
        char *colon;
        int nslots = 1;

        if (len == 0 || len >= sizeof(item))
            return host_error("-hosts: bad host list '%s'%s", list, "");
        memcpy(item, p, len);
        item[len] = '\0';
        /* "name:N" gives N slots; an IPv6 address has several colons and
         * no slot count. */
        colon = strrchr(item, ':');
        if (colon && colon == strchr(item, ':')) {
            if (parse_slots(colon + 1, &nslots))
                return host_error("-hosts: bad slot count in '%s'%s", item, " (expected 1 to 65535)");
            *colon = '\0';
        }
        if (!valid_host(item, strlen(item)))
            return host_error("-hosts: bad host name '%s'%s", item, "");
        if (add_host(names, slots, n, item, strlen(item), nslots))
            return -1;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return 0;
}

int rd_mpirun_hosts_parse_file(const char *path, char ***names, int **slots, int *n)
{
    FILE *f = fopen(path, "r");
    char line[1024], where[64];
    int lineno = 0, before = *n, rc = 0;

    if (!f) {
        fprintf(stderr, "mpirun: cannot read host file '%s': %s (see mpirun --help)\n",
                path, strerror(errno));
        return RD_MPIRUN_EXIT_USAGE;
    }
    while (rc == 0 && fgets(line, sizeof(line), f)) {
        char *save = NULL, *word, *host;
        int nslots = 1;

        lineno++;
        snprintf(where, sizeof(where), "%d", lineno);
        line[strcspn(line, "#\r\n")] = '\0';
        host = strtok_r(line, " \t", &save);
        if (!host)
            continue;
        /* MPICH's "host:N"; an IPv6 address has several colons and no
         * slot count. */
        char *colon = strrchr(host, ':');
        if (colon && colon == strchr(host, ':')) {
            if (parse_slots(colon + 1, &nslots)) {
                rc = host_error("host file line %s: bad slot count in '%s' (expected 1 to 65535)",
                                where, host);
                break;
            }
            *colon = '\0';
        }
        if (!valid_host(host, strlen(host))) {
            rc = host_error("host file line %s: bad host name '%s'", where, host);
            break;
        }
        while (rc == 0 && (word = strtok_r(NULL, " \t", &save)) != NULL) {
            if (strncmp(word, "slots=", 6) != 0 || parse_slots(word + 6, &nslots))
                rc = host_error("host file line %s: bad word '%s' (expected slots=N, N from 1 to 65535)",
                                where, word);
        }
        if (rc == 0 && add_host(names, slots, n, host, strlen(host), nslots))
            rc = -1;
    }
    fclose(f);
    if (rc == 0 && *n == before)
        rc = host_error("host file '%s' names no host%s", path, "");
    return rc;
}

/* 1 when addr (an in_addr or in6_addr of family af) is one of this host's
 * interface addresses. */
static int is_own_address(int af, const void *addr)
{
    struct ifaddrs *ifs, *i;
    int found = 0;

    if (getifaddrs(&ifs) != 0)
        return 0;
    for (i = ifs; i && !found; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != af)
            continue;
        if (af == AF_INET)
            found = !memcmp(&((struct sockaddr_in *)i->ifa_addr)->sin_addr, addr,
                            sizeof(struct in_addr));
        else
            found = !memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, addr,
                            sizeof(struct in6_addr));
    }
    freeifaddrs(ifs);
    return found;
}

/* 1 when name resolves (DNS, /etc/hosts) to an address of this host:
 * another name of it, such as an alias in /etc/hosts. */
static int resolves_to_self(const char *name)
{
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
    int found = 0;

    if (getaddrinfo(name, NULL, &hints, &ai) != 0)
        return 0;
    for (a = ai; a && !found; a = a->ai_next) {
        if (a->ai_family == AF_INET) {
            struct in_addr *a4 = &((struct sockaddr_in *)a->ai_addr)->sin_addr;
            found = (ntohl(a4->s_addr) >> 24) == 127 || is_own_address(AF_INET, a4);
        } else if (a->ai_family == AF_INET6) {
            struct in6_addr *a6 = &((struct sockaddr_in6 *)a->ai_addr)->sin6_addr;
            found = IN6_IS_ADDR_LOOPBACK(a6) || is_own_address(AF_INET6, a6);
        }
    }
    freeaddrinfo(ai);
    return found;
}

int rd_mpirun_host_is_self(const char *name)
{
    char me[RD_MPIRUN_HOST_MAX + 1], path[RD_MPIRUN_HOST_MAX + 16];
    struct in6_addr a6;
    struct in_addr a4;
    struct stat mine, named;
    size_t len;

    if (!strcmp(name, "localhost"))
        return 1;
    if (inet_pton(AF_INET, name, &a4) == 1)
        return (ntohl(a4.s_addr) >> 24) == 127 || is_own_address(AF_INET, &a4);
    if (inet_pton(AF_INET6, name, &a6) == 1)
        return IN6_IS_ADDR_LOOPBACK(&a6) || is_own_address(AF_INET6, &a6);
    if (gethostname(me, sizeof(me)) == 0) {
        me[sizeof(me) - 1] = '\0';
        if (!strcmp(name, me))
            return 1;
        /* "node1" names "node1.cluster" and the other way round. */
        len = strcspn(me, ".");
        if (strcspn(name, ".") == len && !strncmp(name, me, len) &&
            (name[len] == '\0' || me[len] == '\0'))
            return 1;
    }
    /* ip netns exec NAME runs in the namespace bound at /run/netns/NAME. */
    snprintf(path, sizeof(path), "/run/netns/%s", name);
    if (stat(path, &named) == 0 && stat("/proc/self/ns/net", &mine) == 0)
        return named.st_dev == mine.st_dev && named.st_ino == mine.st_ino;
    return resolves_to_self(name);
}

void rd_mpirun_plan_free(rd_mpirun_plan_t *plan)
{
    for (int h = 0; plan->hosts && h < plan->nhosts; h++)
        free(plan->hosts[h].name);
    free(plan->hosts);
    free(plan->host_of);
    free(plan->local_rank);
    free(plan->app_of);
    free(plan->app_rank);
    memset(plan, 0, sizeof(*plan));
    plan->self = -1;
}

int rd_mpirun_plan_make(rd_mpirun_plan_t *plan, int np, char **names, const int *slots, int n,
                        int ppn, int by_node)
{
    rd_mpirun_host_t *all = calloc((size_t)n, sizeof(*all));
    int *host_of = malloc((size_t)np * sizeof(int));
    int *keep = malloc((size_t)n * sizeof(int));
    int nall = 0, r = 0;

    memset(plan, 0, sizeof(*plan));
    plan->self = -1;
    if (!all || !host_of || !keep)
        goto err;
    /* Merge repeated names: their slots add up. */
    for (int i = 0; i < n; i++) {
        int s = ppn > 0 ? ppn : slots[i], j;
        for (j = 0; j < nall && strcmp(all[j].name, names[i]) != 0; j++)
            ;
        if (j < nall) {
            if (ppn <= 0)
                all[j].slots += s;
            continue;
        }
        all[nall].name = names[i];
        all[nall++].slots = s;
    }
    /* One round gives each host its slots; rounds repeat until np. */
    while (r < np) {
        if (by_node) {
            int left[nall], more = 1;
            for (int h = 0; h < nall; h++)
                left[h] = all[h].slots;
            while (more && r < np) {
                more = 0;
                for (int h = 0; h < nall && r < np; h++) {
                    if (left[h] > 0) {
                        left[h]--;
                        host_of[r++] = h;
                        more = 1;
                    }
                }
            }
        } else {
            for (int h = 0; h < nall && r < np; h++)
                for (int s = 0; s < all[h].slots && r < np; s++)
                    host_of[r++] = h;
        }
    }
    /* Drop hosts without ranks; the others keep their list order. */
    plan->hosts = calloc((size_t)nall, sizeof(*plan->hosts));
    plan->local_rank = malloc((size_t)np * sizeof(int));
    if (!plan->hosts || !plan->local_rank)
        goto err;
    for (int i = 0; i < nall; i++)
        keep[i] = -1;
    for (int i = 0; i < np; i++)
        keep[host_of[i]] = 0;
    for (int i = 0; i < nall; i++) {
        if (keep[i] < 0)
            continue;
        keep[i] = plan->nhosts;
        plan->hosts[plan->nhosts].slots = all[i].slots;
        if (!(plan->hosts[plan->nhosts++].name = strdup(all[i].name)))
            goto err;
    }
    for (int i = 0; i < np; i++) {
        rd_mpirun_host_t *h;
        host_of[i] = keep[host_of[i]];
        h = &plan->hosts[host_of[i]];
        plan->local_rank[i] = h->nranks++;
    }
    /* Only one host can be run by mpirun itself; another name that also
     * means this host is reached through the launch agent like any other. */
    for (int h = 0; h < plan->nhosts && plan->self < 0; h++)
        if (rd_mpirun_host_is_self(plan->hosts[h].name))
            plan->self = h;
    if (plan->self >= 0)
        plan->hosts[plan->self].local = 1;
    plan->np = np;
    plan->host_of = host_of;
    free(all);
    free(keep);
    return 0;
err:
    free(all);
    free(keep);
    free(host_of);
    rd_mpirun_plan_free(plan);
    return -1;
}

int rd_mpirun_plan_from_map(rd_mpirun_plan_t *plan, int np, const char *const *names, int nhosts,
                            const int *host_of, int self)
{
    memset(plan, 0, sizeof(*plan));
    plan->self = -1;
    if (np < 1 || nhosts < 1 || self < 0 || self >= nhosts)
        return -1;
    plan->hosts = calloc((size_t)nhosts, sizeof(*plan->hosts));
    plan->host_of = malloc((size_t)np * sizeof(int));
    plan->local_rank = malloc((size_t)np * sizeof(int));
    if (!plan->hosts || !plan->host_of || !plan->local_rank)
        goto err;
    plan->nhosts = nhosts;
    for (int h = 0; h < nhosts; h++)
        if (!(plan->hosts[h].name = strdup(names[h])))
            goto err;
    for (int r = 0; r < np; r++) {
        if (host_of[r] < 0 || host_of[r] >= nhosts)
            goto err;
        plan->host_of[r] = host_of[r];
        plan->local_rank[r] = plan->hosts[host_of[r]].nranks++;
    }
    for (int h = 0; h < nhosts; h++)
        if (plan->hosts[h].nranks == 0)
            goto err;
    plan->np = np;
    plan->self = self;
    plan->hosts[self].local = 1;
    return 0;
err:
    rd_mpirun_plan_free(plan);
    return -1;
}

int rd_mpirun_plan_set_apps(rd_mpirun_plan_t *plan, const int *app_np, int napps)
{
    long total = 0;
    int r = 0;

    for (int k = 0; k < napps; k++) {
        if (app_np[k] < 1)
            return -1;
        total += app_np[k];
    }
    if (napps < 1 || total != plan->np)
        return -1;
    free(plan->app_of);
    free(plan->app_rank);
    plan->app_of = malloc((size_t)plan->np * sizeof(int));
    plan->app_rank = malloc((size_t)plan->np * sizeof(int));
    if (!plan->app_of || !plan->app_rank)
        return -1;
    for (int k = 0; k < napps; k++)
        for (int i = 0; i < app_np[k]; i++, r++) {
            plan->app_of[r] = k;
            plan->app_rank[r] = i;
        }
    plan->napps = napps;
    return 0;
}

char *rd_mpirun_plan_ranks_of(const rd_mpirun_plan_t *plan, int h)
{
    size_t cap = (size_t)plan->hosts[h].nranks * 7 + 1, len = 0;
    char *s = malloc(cap);

    if (!s)
        return NULL;
    s[0] = '\0';
    for (int r = 0; r < plan->np; r++)
        if (plan->host_of[r] == h)
            len += (size_t)snprintf(s + len, cap - len, len ? ",%d" : "%d", r);
    return s;
}
