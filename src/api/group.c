/*
 * Process groups: the MPI_Group_* functions and MPI_GROUP_EMPTY. Groups are
 * ordered lists of job ranks (core/group.h); set operations go through an
 * inverse map indexed by job rank, so each is O(size of the groups + job
 * size) rather than O(n * m).
 *
 * As in MPICH, an operation whose result is empty returns MPI_GROUP_EMPTY,
 * and MPI_Group_free accepts MPI_GROUP_EMPTY (it only clears the handle).
 */
#include "api/api.h"

#include <stdlib.h>
#include <string.h>

/* Reference count of the predefined empty group: never reaches zero. */
#define BUILTIN_REFS (1 << 30)

static rd_group_t *group_empty;

int rd_api_group_init(void)
{
    group_empty = rd_group_new(0, NULL, rd_api.boot.rank);
    if (!group_empty)
        return RD_ENOMEM;
    group_empty->refs = BUILTIN_REFS;
    group_empty->handle = MPI_GROUP_EMPTY;
    return rd_handle_builtin_set(RD_OBJ_GROUP, MPI_GROUP_EMPTY, group_empty);
}

void rd_api_group_fini(void)
{
    if (!group_empty)
        return;
    group_empty->refs = 1;
    rd_group_release(group_empty);
    group_empty = NULL;
}

/* The handle of g, naming it first if it has none; takes a reference for
 * the caller (who will call MPI_Group_free). 0 on ENOMEM. Lock held. */
int rd_api_group_handle(rd_group_t *g)
{
    if (!g->handle && !(g->handle = rd_handle_alloc(RD_OBJ_GROUP, g)))
        return 0;
    rd_group_ref(g);
    return g->handle;
}

/* Compares two groups: MPI_IDENT (same ranks, same order), MPI_SIMILAR
 * (same ranks, other order) or MPI_UNEQUAL. -1 on ENOMEM. */
int rd_api_group_compare(const rd_group_t *a, const rd_group_t *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    if (a->size == 0 || !memcmp(a->world, b->world, (size_t)a->size * sizeof(int)))
        return MPI_IDENT;
    unsigned char *in_a = calloc((size_t)rd_api.boot.size, 1);
    if (!in_a)
        return -1;
    for (int i = 0; i < a->size; i++)
        in_a[a->world[i]] = 1;
    int res = MPI_SIMILAR;
    for (int i = 0; i < b->size && res == MPI_SIMILAR; i++)
        if (!in_a[b->world[i]])
            res = MPI_UNEQUAL;
    free(in_a);
    return res;
}

/* inv[w] = rank of job rank w in g, -1 if w is not in g. NULL on ENOMEM. */
static int *inverse_map(const rd_group_t *g)
{
    int n = rd_api.boot.size;
    int *inv = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!inv)
        return NULL;
    for (int i = 0; i < n; i++)
        inv[i] = -1;
    for (int i = 0; i < g->size; i++)
        inv[g->world[i]] = i;
    return inv;
}

static int check_group(MPI_Group h, rd_group_t **g, const char *fn)
{
    *g = rd_api_group(h);
    if (*g)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_GROUP, fn,
                        h == MPI_GROUP_NULL ? "group is MPI_GROUP_NULL"
                                            : "invalid group handle 0x%x", (unsigned)h);
}

/* Hands the new group g (n job ranks in world) to the user as *out: the
 * predefined MPI_GROUP_EMPTY when empty. Lock held on entry; released. */
static int give_group(int n, const int *world, MPI_Group *out, const char *fn)
{
    if (n == 0) {
        rd_api_unlock();
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    rd_group_t *g = rd_group_new(n, world, rd_api.boot.rank);
    if (g && !(g->handle = rd_handle_alloc(RD_OBJ_GROUP, g))) {
        rd_group_release(g);
        g = NULL;
    }
    rd_api_unlock();
    if (!g)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for a group of %d ranks", n);
    *out = g->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Group_size)
int PMPI_Group_size(MPI_Group group, int *size)
{
    static const char fn[] = "MPI_Group_size";
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_group(group, &g, fn)))
        return err;
    if (!size)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "size pointer is NULL");
    *size = g->size;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Group_rank)
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    static const char fn[] = "MPI_Group_rank";
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_group(group, &g, fn)))
        return err;
    if (!rank)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "rank pointer is NULL");
    *rank = g->rank >= 0 ? g->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Group_translate_ranks)
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    static const char fn[] = "MPI_Group_translate_ranks";
    rd_group_t *g1, *g2;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_group(group1, &g1, fn)) || (err = check_group(group2, &g2, fn)))
        return err;
    if (n < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative number of ranks %d", n);
    if (n > 0 && (!ranks1 || !ranks2))
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "ranks1 or ranks2 is NULL but n is %d", n);
    for (int i = 0; i < n; i++)
        if ((ranks1[i] < 0 || ranks1[i] >= g1->size) && ranks1[i] != MPI_PROC_NULL)
            return rd_api_error(NULL, MPI_ERR_RANK, fn,
                                "ranks1[%d] = %d is not a rank of group1 (0..%d) "
                                "nor MPI_PROC_NULL",
                                i, ranks1[i], g1->size - 1);
    int *inv = inverse_map(g2);
    if (!inv)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        int r = inv[g1->world[ranks1[i]]];
        ranks2[i] = r >= 0 ? r : MPI_UNDEFINED;
    }
    free(inv);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Group_compare)
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    static const char fn[] = "MPI_Group_compare";
    rd_group_t *g1, *g2;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_group(group1, &g1, fn)) || (err = check_group(group2, &g2, fn)))
        return err;
    if (!result)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "result pointer is NULL");
    int res = rd_api_group_compare(g1, g2);
    if (res < 0)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    *result = res;
    return MPI_SUCCESS;
}

/* Checks the ranks of MPI_Group_incl / MPI_Group_excl: n in 0..size, each
 * rank valid and none twice. mark (size bytes, zeroed) gets 1 per rank. */
static int check_rank_list(const rd_group_t *g, int n, const int ranks[], unsigned char *mark,
                           const char *fn)
{
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size)
            return rd_api_error(NULL, MPI_ERR_RANK, fn,
                                "ranks[%d] = %d is not a rank of the group (0..%d)", i, r,
                                g->size - 1);
        if (mark[r])
            return rd_api_error(NULL, MPI_ERR_RANK, fn, "rank %d appears twice in ranks", r);
        mark[r] = 1;
    }
    return MPI_SUCCESS;
}

static int check_n(const rd_group_t *g, int n, const void *array, const char *fn)
{
    if (n < 0 || n > g->size)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "n = %d is out of range: the group has %d ranks (n is 0..%d)", n,
                            g->size, g->size);
    if (n > 0 && !array)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "the rank array is NULL but n is %d", n);
    return MPI_SUCCESS;
}

/* Walks the ranges of MPI_Group_range_incl / _excl, checking each triplet
 * (first, last, stride): first and last are ranks of g, stride is not 0, and
 * no rank comes up twice. As the standard says, a triplet whose stride points
 * away from last (first > last with stride > 0) is empty. If order is not
 * NULL, it receives the ranks in range order; mark gets 1 per rank. Returns
 * the number of ranks, or -1 after reporting the error in *err. */
static int walk_ranges(const rd_group_t *g, int n, int ranges[][3], unsigned char *mark,
                       int *order, int *err, const char *fn)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (first < 0 || first >= g->size || last < 0 || last >= g->size) {
            *err = rd_api_error(NULL, MPI_ERR_RANK, fn,
                                "ranges[%d] = (%d, %d, %d): first and last must be ranks of "
                                "the group (0..%d)",
                                i, first, last, stride, g->size - 1);
            return -1;
        }
        if (stride == 0) {
            *err = rd_api_error(NULL, MPI_ERR_ARG, fn,
                                "ranges[%d] = (%d, %d, 0): the stride must not be 0", i, first,
                                last);
            return -1;
        }
        long span = (long)last - first;
        if ((span > 0 && stride < 0) || (span < 0 && stride > 0))
            continue;
        long count = span / stride + 1;
        for (long j = 0; j < count; j++) {
            int r = (int)(first + j * stride);
            if (mark[r]) {
                *err = rd_api_error(NULL, MPI_ERR_RANK, fn,
                                    "ranges[%d] = (%d, %d, %d) includes rank %d, which an "
                                    "earlier range already includes",
                                    i, first, last, stride, r);
                return -1;
            }
            mark[r] = 1;
            if (order)
                order[k] = r;
            k++;
        }
    }
    return k;
}

static int check_ranges_arg(int n, int ranges[][3], const char *fn)
{
    if (n < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative number of ranges %d", n);
    if (n > 0 && !ranges)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "ranges is NULL but n is %d", n);
    return MPI_SUCCESS;
}

/* The four calls that build a subgroup of one group: MPI_Group_incl / _excl
 * (ranks) and MPI_Group_range_incl / _excl (by_range: ranges). incl: the
 * listed ranks in list order; otherwise the others, in the group's order. */
static int subgroup(MPI_Group group, int n, const int ranks[], int ranges[][3], int by_range,
                    int incl, MPI_Group *newgroup, const char *fn)
{
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_group(group, &g, fn)) ||
        (err = by_range ? check_ranges_arg(n, ranges, fn) : check_n(g, n, ranks, fn)))
        return err;
    if (!newgroup)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "newgroup pointer is NULL");
    unsigned char *mark = calloc((size_t)g->size + 1, 1);
    int *order = malloc((size_t)(g->size ? g->size : 1) * sizeof(int));
    if (!mark || !order) {
        free(mark);
        free(order);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    int k = -1;
    if (by_range) {
        k = walk_ranges(g, n, ranges, mark, incl ? order : NULL, &err, fn);
    } else if ((err = check_rank_list(g, n, ranks, mark, fn)) == MPI_SUCCESS) {
        for (k = 0; k < n; k++)
            order[k] = ranks[k];
    }
    if (k >= 0 && !incl) {
        k = 0;
        for (int i = 0; i < g->size; i++)
            if (!mark[i])
                order[k++] = i;
    }
    free(mark);
    if (k < 0) {
        free(order);
        return err;
    }
    for (int i = 0; i < k; i++)
        order[i] = g->world[order[i]];
    rd_api_lock();
    err = give_group(k, order, newgroup, fn);
    free(order);
    return err;
}

RD_WEAK_ALIAS(MPI_Group_incl)
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return subgroup(group, n, ranks, NULL, 0, 1, newgroup, "MPI_Group_incl");
}

RD_WEAK_ALIAS(MPI_Group_excl)
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return subgroup(group, n, ranks, NULL, 0, 0, newgroup, "MPI_Group_excl");
}

RD_WEAK_ALIAS(MPI_Group_range_incl)
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return subgroup(group, n, NULL, ranges, 1, 1, newgroup, "MPI_Group_range_incl");
}

RD_WEAK_ALIAS(MPI_Group_range_excl)
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return subgroup(group, n, NULL, ranges, 1, 0, newgroup, "MPI_Group_range_excl");
}

enum set_op { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE };

/* Union: g1's ranks, then g2's ranks not in g1, each in its group's order.
 * Intersection / difference: g1's ranks that are / are not in g2, in g1's
 * order. */
static int set_op(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup, enum set_op op,
                  const char *fn)
{
    rd_group_t *g1, *g2;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_group(group1, &g1, fn)) || (err = check_group(group2, &g2, fn)))
        return err;
    if (!newgroup)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "newgroup pointer is NULL");
    int *world = malloc((size_t)(g1->size + g2->size + 1) * sizeof(int));
    int *inv2 = inverse_map(g2);
    int *inv1 = op == SET_UNION ? inverse_map(g1) : NULL;
    if (!world || !inv2 || (op == SET_UNION && !inv1)) {
        free(world);
        free(inv1);
        free(inv2);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    int k = 0;
    for (int i = 0; i < g1->size; i++) {
        int in2 = inv2[g1->world[i]] >= 0;
        if (op == SET_UNION || (op == SET_INTERSECTION) == in2)
            world[k++] = g1->world[i];
    }
    if (op == SET_UNION)
        for (int i = 0; i < g2->size; i++)
            if (inv1[g2->world[i]] < 0)
                world[k++] = g2->world[i];
    free(inv1);
    free(inv2);
    rd_api_lock();
    err = give_group(k, world, newgroup, fn);
    free(world);
    return err;
}

RD_WEAK_ALIAS(MPI_Group_union)
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op(group1, group2, newgroup, SET_UNION, "MPI_Group_union");
}

RD_WEAK_ALIAS(MPI_Group_intersection)
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op(group1, group2, newgroup, SET_INTERSECTION, "MPI_Group_intersection");
}

RD_WEAK_ALIAS(MPI_Group_difference)
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op(group1, group2, newgroup, SET_DIFFERENCE, "MPI_Group_difference");
}

RD_WEAK_ALIAS(MPI_Group_free)
int PMPI_Group_free(MPI_Group *group)
{
    static const char fn[] = "MPI_Group_free";
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if (!group)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "group pointer is NULL");
    if ((err = check_group(*group, &g, fn)))
        return err;
    if (g != group_empty) {
        rd_api_lock();
        rd_group_release(g);
        rd_api_unlock();
    }
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
