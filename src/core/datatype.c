/* Datatypes and the pack engine (see datatype.h). */
#include "core/datatype.h"

#include <stdlib.h>
#include <string.h>

#include "core/handle.h"

static const rd_dt_node_t bytes_leaf = {
    .kind = RD_DT_LEAF, .dense = 1, .size = 1, .nelems = 1, .lo = 0, .hi = 1, .esize = 1,
};
rd_datatype_t rd_dt_bytes = {
    .refs = 1, .size = 1, .lb = 0, .ub = 1, .true_lb = 0, .true_ub = 1, .contig = 1, .dense = 1,
    .builtin = 1, .committed = 1, .basic = -1, .align = 1, .root = &bytes_leaf,
    .name = "MPI_BYTE",
};

/* The layout of an empty type. */
static const rd_dt_node_t empty_node = { .kind = RD_DT_LIST, .dense = 1 };

/* ---- lifetime ---- */

rd_datatype_t *rd_dt_new(void)
{
    rd_datatype_t *dt = calloc(1, sizeof(*dt));
    if (!dt)
        return NULL;
    dt->refs = 1;
    dt->basic = -1;
    dt->align = 1;
    dt->dense = dt->contig = 1;
    dt->root = &empty_node;
    rd_list_init(&dt->attrs);
    return dt;
}

void rd_dt_ref(rd_datatype_t *dt)
{
    if (!dt->builtin)
        dt->refs++;
}

void rd_dt_release(rd_datatype_t *dt)
{
    if (!dt || dt->builtin || --dt->refs > 0)
        return;
    if (dt->handle)
        rd_handle_free(dt->handle);
    for (rd_dt_node_t *nd = dt->owned, *next; nd; nd = next) {
        next = nd->next_owned;
        free(nd->e);
        free(nd);
    }
    /* The types this one was built from go last: root may point into them. */
    for (int i = 0; i < dt->nt; i++)
        rd_dt_release(dt->types[i]);
    free(dt->ints);
    free(dt->aints);
    free(dt->types);
    free(dt->counts);
    free(dt);
}

int rd_dt_set_contents(rd_datatype_t *dt, int combiner, int ni, const int *ints, int na,
                       const ptrdiff_t *aints, int nt, rd_datatype_t *const *types)
{
    dt->combiner = combiner;
    if ((ni && !(dt->ints = malloc((size_t)ni * sizeof(*ints)))) ||
        (na && !(dt->aints = malloc((size_t)na * sizeof(*aints)))) ||
        (nt && !(dt->types = malloc((size_t)nt * sizeof(*types)))))
        return -1;
    if (ni)
        memcpy(dt->ints, ints, (size_t)ni * sizeof(*ints));
    if (na)
        memcpy(dt->aints, aints, (size_t)na * sizeof(*aints));
    for (int i = 0; i < nt; i++) {
        dt->types[i] = types[i];
        rd_dt_ref(types[i]);
    }
    dt->ni = ni;
    dt->na = na;
    dt->nt = nt;
    return 0;
}

int rd_dt_set_counts(rd_datatype_t *dt, int nc, const int64_t *counts)
{
    if (nc && !(dt->counts = malloc((size_t)nc * sizeof(*counts))))
        return -1;
    if (nc)
        memcpy(dt->counts, counts, (size_t)nc * sizeof(*counts));
    dt->nc = nc;
    return 0;
}

/* ---- nodes ---- */

static rd_dt_node_t *node_new(rd_datatype_t *owner, int kind)
{
    rd_dt_node_t *nd = calloc(1, sizeof(*nd));
    if (!nd)
        return NULL;
    nd->kind = kind;
    nd->next_owned = owner->owned;
    owner->owned = nd;
    return nd;
}

const rd_dt_node_t *rd_dt_leaf(rd_datatype_t *owner, ptrdiff_t off, size_t len, uint32_t esize)
{
    if (len == 0)
        return &empty_node;
    rd_dt_node_t *nd = node_new(owner, RD_DT_LEAF);
    if (!nd)
        return NULL;
    nd->dense = 1;
    nd->size = len;
    nd->esize = esize;
    nd->nelems = (long long)(len / esize);
    nd->off = off;
    nd->lo = off;
    nd->hi = off + (ptrdiff_t)len;
    return nd;
}

const rd_dt_node_t *rd_dt_repeat(rd_datatype_t *owner, const rd_dt_node_t *child, size_t count,
                                 ptrdiff_t off, ptrdiff_t stride)
{
    if (!child)
        return NULL;
    if (count == 0 || child->size == 0)
        return &empty_node;
    if (count == 1 && off == 0)
        return child;
    if (child->kind == RD_DT_LEAF && (count == 1 || stride == (ptrdiff_t)child->size))
        return rd_dt_leaf(owner, off + child->off, child->size * count, child->esize);
    if (child->kind == RD_DT_REPEAT && child->count == 1) {
        /* a shifted child: fold the shift into our offset */
        off += child->off;
        child = child->child;
    }
    rd_dt_node_t *nd = node_new(owner, RD_DT_REPEAT);
    if (!nd)
        return NULL;
    nd->count = count;
    nd->off = off;
    nd->stride = count == 1 ? 0 : stride;
    nd->child = child;
    nd->size = child->size * count;
    nd->nelems = child->nelems * (long long)count;
    nd->dense = child->dense && (count == 1 || stride == (ptrdiff_t)child->size);
    ptrdiff_t span = (ptrdiff_t)(count - 1) * nd->stride;
    nd->lo = off + child->lo + (span < 0 ? span : 0);
    nd->hi = off + child->hi + (span > 0 ? span : 0);
    return nd;
}

const rd_dt_node_t *rd_dt_list(rd_datatype_t *owner, int n, const rd_dt_node_t *const *children,
                               const ptrdiff_t *offs)
{
    int live = 0, last = -1;
    for (int i = 0; i < n; i++) {
        if (!children[i])
            return NULL;
        if (children[i]->size) {
            live++;
            last = i;
        }
    }
    if (live == 0)
        return &empty_node;
    if (live == 1)
        return rd_dt_repeat(owner, children[last], 1, offs[last], 0);
    rd_dt_node_t *nd = node_new(owner, RD_DT_LIST);
    if (!nd || !(nd->e = malloc((size_t)live * sizeof(*nd->e))))
        return NULL;
    nd->dense = 1;
    for (int i = 0; i < n; i++) {
        const rd_dt_node_t *c = children[i];
        if (!c->size)
            continue;
        rd_dt_entry_t *e = &nd->e[nd->n];
        e->off = offs[i];
        e->child = c;
        e->start = nd->size;
        e->estart = nd->nelems;
        ptrdiff_t lo = offs[i] + c->lo, hi = offs[i] + c->hi;
        if (nd->n == 0 || lo < nd->lo)
            nd->lo = lo;
        if (nd->n == 0 || hi > nd->hi)
            nd->hi = hi;
        /* dense while each child is one run that starts where the previous ended */
        if (!c->dense || (nd->n > 0 && lo != nd->e[nd->n - 1].off + nd->e[nd->n - 1].child->lo +
                                                  (ptrdiff_t)nd->e[nd->n - 1].child->size))
            nd->dense = 0;
        nd->size += c->size;
        nd->nelems += c->nelems;
        nd->n++;
    }
    return nd;
}

void rd_dt_set_root(rd_datatype_t *dt, const rd_dt_node_t *root)
{
    dt->root = root;
    dt->size = root->size;
    dt->dense = root->dense;
    dt->true_lb = root->size ? root->lo : 0;
    dt->true_ub = root->size ? root->hi : 0;
    dt->contig = root->size == 0 || (root->dense && rd_dt_extent(dt) == (ptrdiff_t)root->size);
}

static size_t count_nodes(const rd_dt_node_t *nd)
{
    switch (nd->kind) {
    case RD_DT_REPEAT:
        return 1 + count_nodes(nd->child);
    case RD_DT_LIST: {
        size_t n = 1;
        for (int i = 0; i < nd->n; i++)
            n += count_nodes(nd->e[i].child);
        return n;
    }
    default:
        return 1;
    }
}

size_t rd_dt_node_count(const rd_datatype_t *dt)
{
    return count_nodes(dt->root);
}

/* ---- the walker ----
 * Addresses are computed as integers: with MPI_BOTTOM the base is 0 and the
 * displacements are absolute, and pointer arithmetic on NULL is undefined. */

static inline void copy(uintptr_t addr, char *p, size_t n, int unpack)
{
    if (unpack)
        memcpy((void *)addr, p, n);
    else
        memcpy(p, (const void *)addr, n);
}

static void walk(const rd_dt_node_t *nd, uintptr_t base, size_t off, char *p, size_t len,
                 int unpack);

/* count copies of child at base + i*stride (count unbounded: the caller's
 * len stops the walk). */
static void walk_repeat(const rd_dt_node_t *c, uintptr_t base, ptrdiff_t stride, size_t off,
                        char *p, size_t len, int unpack)
{
    size_t cs = c->size;
    size_t i = off / cs, in = off % cs;
    uintptr_t a = base + (uintptr_t)((ptrdiff_t)i * stride);
    if (c->dense) {
        /* strided runs: the vector fast path */
        a += (uintptr_t)c->lo;
        if (in) {
            size_t n = cs - in < len ? cs - in : len;
            copy(a + in, p, n, unpack);
            p += n;
            len -= n;
            a += (uintptr_t)stride;
        }
        if (cs == 8) {
            for (; len >= 8; len -= 8, p += 8, a += (uintptr_t)stride)
                copy(a, p, 8, unpack);
        } else if (cs == 4) {
            for (; len >= 4; len -= 4, p += 4, a += (uintptr_t)stride)
                copy(a, p, 4, unpack);
        } else {
            for (; len >= cs; len -= cs, p += cs, a += (uintptr_t)stride)
                copy(a, p, cs, unpack);
        }
        if (len)
            copy(a, p, len, unpack);
        return;
    }
    while (len) {
        size_t n = cs - in < len ? cs - in : len;
        walk(c, a, in, p, n, unpack);
        p += n;
        len -= n;
        in = 0;
        a += (uintptr_t)stride;
    }
}

/* Copies packed bytes [off, off+len) of node nd placed at base. */
static void walk(const rd_dt_node_t *nd, uintptr_t base, size_t off, char *p, size_t len,
                 int unpack)
{
    if (nd->dense) {
        copy(base + (uintptr_t)nd->lo + off, p, len, unpack);
        return;
    }
    if (nd->kind == RD_DT_REPEAT) {
        walk_repeat(nd->child, base + (uintptr_t)nd->off, nd->stride, off, p, len, unpack);
        return;
    }
    /* LIST: binary search for the entry holding off, then go forward */
    int lo = 0, hi = nd->n - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (nd->e[mid].start <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    size_t in = off - nd->e[lo].start;
    for (int k = lo; len; k++) {
        const rd_dt_entry_t *e = &nd->e[k];
        size_t n = e->child->size - in < len ? e->child->size - in : len;
        walk(e->child, base + (uintptr_t)e->off, in, p, n, unpack);
        p += n;
        len -= n;
        in = 0;
    }
}

void rd_dt_pack(const void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                void *out, size_t len)
{
    (void)count;
    if (!len)
        return;
    if (dt->contig) {
        memcpy(out, (const void *)((uintptr_t)buf + (uintptr_t)dt->true_lb + off), len);
        return;
    }
    walk_repeat(dt->root, (uintptr_t)buf, rd_dt_extent(dt), off, out, len, 0);
}

void rd_dt_unpack(void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                  const void *in, size_t len)
{
    (void)count;
    if (!len)
        return;
    if (dt->contig) {
        memcpy((void *)((uintptr_t)buf + (uintptr_t)dt->true_lb + off), in, len);
        return;
    }
    walk_repeat(dt->root, (uintptr_t)buf, rd_dt_extent(dt), off, (char *)in, len, 1);
}

/* Basic elements in the first nbytes (<= size) of nd's packed form, or -1. */
static long long prefix_elems(const rd_dt_node_t *nd, size_t nbytes)
{
    if (nbytes == nd->size)
        return nd->nelems;
    switch (nd->kind) {
    case RD_DT_LEAF:
        return nbytes % nd->esize ? -1 : (long long)(nbytes / nd->esize);
    case RD_DT_REPEAT: {
        size_t cs = nd->child->size;
        long long r = prefix_elems(nd->child, nbytes % cs);
        return r < 0 ? -1 : (long long)(nbytes / cs) * nd->child->nelems + r;
    }
    default: {
        int k = 0;
        while (k + 1 < nd->n && nd->e[k + 1].start <= nbytes)
            k++;
        long long r = prefix_elems(nd->e[k].child, nbytes - nd->e[k].start);
        return r < 0 ? -1 : nd->e[k].estart + r;
    }
    }
}

long long rd_dt_elements(const rd_datatype_t *dt, size_t nbytes)
{
    if (dt->size == 0)
        return 0;
    long long r = prefix_elems(dt->root, nbytes % dt->size);
    return r < 0 ? -1 : (long long)(nbytes / dt->size) * dt->root->nelems + r;
}
