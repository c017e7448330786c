/* Finding tunables by name, and the closest name (see tunable_check.h). */
#include "util/tunable_check.h"

#include <ctype.h>
#include <string.h>

/* Names longer than this are compared on their first bytes only. */
#define RD_TUNABLE_NAME_CMP_MAX 96

const rd_tunable_t *rd_tunable_lookup(const rd_tunable_list_t *lists, const char *name,
                                      size_t len)
{
    for (size_t l = 0; lists[l]; l++)
        for (size_t i = 0; lists[l][i]; i++)
            for (size_t k = 0; k < lists[l][i]->n; k++) {
                const rd_tunable_t *t = &lists[l][i]->t[k];
                if (strlen(t->name) == len && !strncmp(t->name, name, len))
                    return t;
            }
    return NULL;
}

/* Edit distance between a and b (optimal string alignment: insertions,
 * deletions, substitutions and swaps of neighbours), ignoring case. */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
    size_t d[RD_TUNABLE_NAME_CMP_MAX + 1][RD_TUNABLE_NAME_CMP_MAX + 1];

    if (n > RD_TUNABLE_NAME_CMP_MAX)
        n = RD_TUNABLE_NAME_CMP_MAX;
    if (m > RD_TUNABLE_NAME_CMP_MAX)
        m = RD_TUNABLE_NAME_CMP_MAX;
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t cost = toupper((unsigned char)a[i - 1]) != toupper((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *rd_tunable_closest(const rd_tunable_list_t *lists, const char *name, size_t len)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;

    for (size_t l = 0; lists[l]; l++)
        for (size_t i = 0; lists[l][i]; i++)
            for (size_t k = 0; k < lists[l][i]->n; k++) {
                const char *cand = lists[l][i]->t[k].name;
                size_t dd = distance(name, len, cand, strlen(cand));
                if (dd < best_d) {
                    best_d = dd;
                    best = cand;
                }
            }
    return best;
}
