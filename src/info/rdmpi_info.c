/*
 * rdmpi_info: what is built, what this machine offers and every tunable.
 *
 *   rdmpi_info [--all] [--json]
 *
 * Prints the version, the configure options, the transports built and
 * whether each is usable here (probe.c says how that is decided), the RDMA
 * devices with their ports, GIDs and the GID index a rank would choose, and
 * every RDMPI_* variable with its value in this environment and its default.
 * --all adds the test-only variables, each variable's type, range and the
 * file that reads it; --json prints the same as one JSON object. Variables
 * set to values MPI_Init would refuse are marked, and RDMPI_* variables no
 * table declares are listed (a typo is otherwise silent); either makes the
 * exit status 1.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info/all_tunables.h"
#include "info/info_config.h"
#include "info/probe.h"
#include "util/errdetail.h"
#include "util/status.h"
#include "util/tunable.h"

#include <mpi.h>

extern char **environ;

typedef struct opts {
    int all, json;
} opts_t;


static void json_str(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* ---- one tunable ---- */

typedef struct tun_view {
    const rd_tunable_t *t;
    const char *file;
    const char *value;          /* from the environment, or NULL */
    char dflt[64];
    char accepted[96];
    char error[RD_ERR_DETAIL_MAX];   /* empty when the value is valid or unset */
} tun_view_t;

static void view_of(const rd_tunable_t *t, const char *file, tun_view_t *v)
{
    memset(v, 0, sizeof(*v));
    v->t = t;
    v->file = file;
    v->value = rd_tunable_getenv(t);
    rd_tunable_default_text(t, v->dflt, sizeof(v->dflt));
    rd_tunable_accepted(t, v->accepted, sizeof(v->accepted));
    if (v->value && rd_tunable_parse(t, v->value, NULL) != RD_OK)
        rd_err_detail_take(v->error, sizeof(v->error));
}

static int shown(const opts_t *o, const rd_tunable_t *t)
{
    return o->all || !(t->flags & RD_TUN_F_TEST);
}

/* Walks every table; returns how many set values are invalid. */
static int each_tunable(const opts_t *o, void (*fn)(const opts_t *, const tun_view_t *, int),
                        int *first)
{
    const rd_tunable_list_t *lists = rd_all_tunables;
    int bad = 0;
    for (size_t l = 0; lists[l]; l++)
        for (size_t i = 0; lists[l][i]; i++)
            for (size_t k = 0; k < lists[l][i]->n; k++) {
                tun_view_t v;
                view_of(&lists[l][i]->t[k], lists[l][i]->file, &v);
                bad += *v.error != '\0';
                if (!shown(o, v.t) && !*v.error)
                    continue;
                fn(o, &v, *first);
                *first = 0;
            }
    return bad;
}

static int unknown_vars(const char **out, int max)
{
    int n = 0;
    for (char **e = environ; *e && n < max; e++) {
        const char *eq = strchr(*e, '=');
        if (strncmp(*e, "RDMPI_", 6) == 0 && eq && !rd_tunable_lookup(rd_all_tunables, *e, (size_t)(eq - *e)))
            out[n++] = *e;
    }
    return n;
}

/* ---- text ---- */

static void text_tunable(const opts_t *o, const tun_view_t *v, int first)
{
    if (first)
        printf("\nTunables (value here, default; * set in the environment):\n");
    printf("%c %-34s %-14s %-10s %s%s\n", v->value ? '*' : ' ', v->t->name,
           v->value ? v->value : v->dflt, v->dflt, v->t->meaning,
           v->t->flags & RD_TUN_F_TEST ? " [test only]" : "");
    if (*v->error)
        printf("  %-34s INVALID: %s\n", "", v->error);
    if (o->all)
        printf("  %-34s %s: %s; read in %s\n", "", rd_tunable_type_name(v->t->type),
               v->accepted, v->file);
}

static void text_report(const opts_t *o, const rd_info_tp_t *tp, int ntp,
                        const rd_info_dev_t *dev, int ndev, const char *nodev, int *bad,
                        const char **unknown, int nunknown)
{
    printf("rdmpi %s (MPICH ABI, MPI %d.%d)\n", RDMPI_VERSION, MPI_VERSION, MPI_SUBVERSION);
    printf("configure: %s\n", RD_INFO_CONFIGURE_ARGS[0] ? RD_INFO_CONFIGURE_ARGS : "(defaults)");
    printf("\nTransports (built, usable on this machine):\n");
    for (int i = 0; i < ntp; i++)
        printf("  %-4s %-9s %-10s %s\n", tp[i].name, tp[i].built ? "built" : "not built",
               tp[i].usable ? "usable" : "unusable", tp[i].how);
    printf("\nRDMA devices:%s%s\n", ndev ? "" : " none: ", ndev ? "" : nodev);
    for (int d = 0; d < ndev; d++)
        for (int p = 0; p < dev[d].nports; p++) {
            const rd_info_port_t *pt = &dev[d].port[p];
            printf("  %s port %d: %s, %s, MTU %d, LID %d; GID index used: ", dev[d].name,
                   pt->num, pt->state, pt->link, pt->mtu, pt->lid);
            if (pt->chosen >= 0)
                printf("%d (%s)\n", pt->chosen, pt->why);
            else
                printf("none (%s)\n", pt->why);
            for (int g = 0; g < pt->ngid; g++)
                printf("    GID %-3d %s  %s\n", pt->gid[g].index, pt->gid[g].text,
                       pt->gid[g].type);
        }
    int first = 1;
    *bad = each_tunable(o, text_tunable, &first);
    for (int i = 0; i < nunknown; i++) {
        const char *near = rd_tunable_closest(rd_all_tunables, unknown[i], strcspn(unknown[i], "="));
        printf("%sunknown: %s (no table declares it; did you mean %s?)\n", i ? "" : "\n",
               unknown[i], near ? near : "another name");
    }
}

/* ---- JSON ---- */

static void json_tunable(const opts_t *o, const tun_view_t *v, int first)
{
    (void)o;
    printf("%s\n    {\"name\": ", first ? "" : ",");
    json_str(v->t->name);
    printf(", \"type\": ");
    json_str(rd_tunable_type_name(v->t->type));
    printf(", \"value\": ");
    json_str(v->value ? v->value : v->dflt);
    printf(", \"set\": %s, \"default\": ", v->value ? "true" : "false");
    json_str(v->dflt);
    printf(", \"accepted\": ");
    json_str(v->accepted);
    printf(", \"test_only\": %s, \"file\": ", v->t->flags & RD_TUN_F_TEST ? "true" : "false");
    json_str(v->file);
    printf(", \"meaning\": ");
    json_str(v->t->meaning);
    printf(", \"error\": ");
    if (*v->error)
        json_str(v->error);
    else
        printf("null");
    printf("}");
}

static void json_report(const opts_t *o, const rd_info_tp_t *tp, int ntp,
                        const rd_info_dev_t *dev, int ndev, const char *nodev, int *bad,
                        const char **unknown, int nunknown)
{
    printf("{\n  \"version\": ");
    json_str(RDMPI_VERSION);
    printf(",\n  \"configure\": ");
    json_str(RD_INFO_CONFIGURE_ARGS);
    printf(",\n  \"transports\": [");
    for (int i = 0; i < ntp; i++) {
        printf("%s\n    {\"name\": ", i ? "," : "");
        json_str(tp[i].name);
        printf(", \"built\": %s, \"usable\": %s, \"how\": ", tp[i].built ? "true" : "false",
               tp[i].usable ? "true" : "false");
        json_str(tp[i].how);
        printf("}");
    }
    printf("\n  ],\n  \"devices\": [");
    for (int d = 0; d < ndev; d++) {
        printf("%s\n    {\"name\": ", d ? "," : "");
        json_str(dev[d].name);
        printf(", \"ports\": [");
        for (int p = 0; p < dev[d].nports; p++) {
            const rd_info_port_t *pt = &dev[d].port[p];
            printf("%s{\"port\": %d, \"state\": ", p ? ", " : "", pt->num);
            json_str(pt->state);
            printf(", \"link_layer\": ");
            json_str(pt->link);
            printf(", \"mtu\": %d, \"lid\": %d, \"gid_index\": %d, \"gid_choice\": ", pt->mtu,
                   pt->lid, pt->chosen);
            json_str(pt->why);
            printf(", \"gids\": [");
            for (int g = 0; g < pt->ngid; g++) {
                printf("%s{\"index\": %d, \"gid\": ", g ? ", " : "", pt->gid[g].index);
                json_str(pt->gid[g].text);
                printf(", \"type\": ");
                json_str(pt->gid[g].type);
                printf("}");
            }
            printf("]}");
        }
        printf("]}");
    }
    printf("\n  ],\n  \"devices_note\": ");
    json_str(ndev ? "" : nodev);
    printf(",\n  \"tunables\": [");
    int first = 1;
    *bad = each_tunable(o, json_tunable, &first);
    printf("\n  ],\n  \"unknown\": [");
    for (int i = 0; i < nunknown; i++) {
        printf("%s", i ? ", " : "");
        json_str(unknown[i]);
    }
    printf("]\n}\n");
}

static const char usage[] =
    "usage: rdmpi_info [--all] [--json]\n"
    "  --all   also test-only variables, and each variable's type, range and reader\n"
    "  --json  one JSON object instead of text\n"
    "Exit status 1 when an RDMPI_* variable is set to a value MPI_Init would refuse,\n"
    "or no table declares it; 2 for a usage error.\n";

int main(int argc, char **argv)
{
    opts_t o = { 0, 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all") || !strcmp(argv[i], "-a")) {
            o.all = 1;
        } else if (!strcmp(argv[i], "--json")) {
            o.json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else {
            fprintf(stderr, "rdmpi_info: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        }
    }
    static rd_info_tp_t tp[RD_INFO_TP_MAX];
    static rd_info_dev_t dev[RD_INFO_DEV_MAX];
    char nodev[256] = "";
    const char *unknown[64];
    int ntp = rd_info_probe_transports(tp, RD_INFO_TP_MAX);
    int ndev = rd_info_devices(dev, RD_INFO_DEV_MAX, nodev, sizeof(nodev));
    int nunknown = unknown_vars(unknown, 64);
    int bad = 0;
    if (o.json)
        json_report(&o, tp, ntp, dev, ndev, nodev, &bad, unknown, nunknown);
    else
        text_report(&o, tp, ntp, dev, ndev, nodev, &bad, unknown, nunknown);
    return bad || nunknown ? 1 : 0;
}
