/* Groups (see group.h). */
#include "core/group.h"

#include <stdlib.h>
#include <string.h>

#include "core/handle.h"

rd_group_t *rd_group_new(int n, const int *world, int my_world_rank)
{
    rd_group_t *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->world = malloc((n ? n : 1) * sizeof(int));
    if (!g->world) {
        free(g);
        return NULL;
    }
    if (n)
        memcpy(g->world, world, n * sizeof(int));
    g->size = n;
    g->refs = 1;
    g->rank = -1;
    for (int i = 0; i < n; i++)
        if (world[i] == my_world_rank) {
            g->rank = i;
            break;
        }
    return g;
}

void rd_group_ref(rd_group_t *g)
{
    g->refs++;
}

void rd_group_release(rd_group_t *g)
{
    if (!g || --g->refs > 0)
        return;
    if (g->handle)
        rd_handle_free(g->handle);
    free(g->world);
    free(g);
}

int rd_group_rank_of(const rd_group_t *g, int w)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == w)
            return i;
    return -1;
}
