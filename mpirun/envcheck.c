/* Checking the RDMPI_* variables of a job once (see envcheck.h). */
#include "envcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "info/all_tunables.h"
#include "util/errdetail.h"
#include "util/status.h"
#include "util/tunable.h"

/* Longest accepted-values text. */
#define RD_MPIRUN_ACCEPTED_MAX 160

/* The names warned about already: each one once, whatever its sources. */
typedef struct seen {
    const char **names;
    size_t *lens;
    int n;
} seen_t;

static int seen_before(seen_t *s, const char *name, size_t len)
{
    for (int i = 0; i < s->n; i++)
        if (s->lens[i] == len && !strncmp(s->names[i], name, len))
            return 1;
    const char **nn = realloc(s->names, (size_t)(s->n + 1) * sizeof(*nn));
    if (nn)
        s->names = nn;
    size_t *nl = realloc(s->lens, (size_t)(s->n + 1) * sizeof(*nl));
    if (nl)
        s->lens = nl;
    if (nn && nl) {
        s->names[s->n] = name;
        s->lens[s->n++] = len;
    }
    return 0;
}

/* One "NAME=VALUE"; where says where it was set. Returns 0, or
 * RD_MPIRUN_EXIT_USAGE after the line about a bad value. */
static int check_one(seen_t *s, const char *var, const char *where)
{
    size_t len = strcspn(var, "=");
    const char *value = var[len] == '=' ? var + len + 1 : "";
    const rd_tunable_t *t;

    if (strncmp(var, "RDMPI_", 6) != 0)
        return 0;
    /* Not a setting: mpirun makes it for each job (one inherited from an
     * enclosing job is replaced). */
    if (len == strlen(RD_BOOT_JOB_KEY_ENV) && !strncmp(var, RD_BOOT_JOB_KEY_ENV, len))
        return 0;
    t = rd_tunable_lookup(rd_all_tunables, var, len);
    if (!t) {
        if (!seen_before(s, var, len)) {
            const char *near = rd_tunable_closest(rd_all_tunables, var, len);
            fprintf(stderr, "mpirun: warning: %.*s (%s) is not an rdmpi variable, ignored; "
                    "did you mean %s? (see mpirun --info --all)\n", (int)len, var, where,
                    near ? near : "another name");
        }
        return 0;
    }
    /* Unset and empty mean the default, as for the library. */
    if (*value && rd_tunable_parse(t, value, NULL) != RD_OK) {
        char acc[RD_MPIRUN_ACCEPTED_MAX];
        rd_err_detail_clear();
        rd_tunable_accepted(t, acc, sizeof(acc));
        fprintf(stderr, "mpirun: %s=\"%s\" is not valid: expected %s (%s); nothing started, "
                "see doc/tunables.md\n", t->name, value, acc, where);
        return RD_MPIRUN_EXIT_USAGE;
    }
    return 0;
}

/* 1 when a setting in set[0..n) names the variable var. */
static int overridden(char **set, int n, const char *var)
{
    size_t len = strcspn(var, "=");
    for (int e = 0; e < n; e++)
        if (!strncmp(set[e], var, len) && set[e][len] == '=')
            return 1;
    return 0;
}

int rd_mpirun_env_check(const rd_mpirun_opts_t *o)
{
    extern char **environ;
    seen_t s = { 0 };
    int rc = 0;

    for (char **e = environ; *e && rc == 0; e++)
        if (!overridden(o->env, o->nenv, *e))
            rc = check_one(&s, *e, "in the environment");
    for (int e = 0; e < o->nenv && rc == 0; e++)
        rc = check_one(&s, o->env[e], "set with -x or -genv");
    for (int k = 0; k < o->napps && rc == 0; k++)
        for (int e = 0; e < o->apps[k].nenv && rc == 0; e++)
            rc = check_one(&s, o->apps[k].env[e], "set with -env or -x");
    free(s.names);
    free(s.lens);
    return rc;
}
