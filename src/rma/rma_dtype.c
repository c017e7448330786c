/*
 * Flattening a target datatype into runs, and cutting the runs into
 * messages (see rma_dtype.h). The walk follows the layout tree in
 * typemap order, which is packed order: the i-th packed byte of the
 * origin's data belongs at the i-th byte the runs cover.
 */
#include "rma/rma_dtype.h"

#include <stdlib.h>
#include <string.h>

#include "util/status.h"

static int add(rd_rma_flat_t *f, ptrdiff_t off, size_t len)
{
    if (!len)
        return RD_OK;
    f->bytes += len;
    if (f->n && (ptrdiff_t)(f->b[f->n - 1].off + f->b[f->n - 1].len) == off) {
        f->b[f->n - 1].len += len;
        return RD_OK;
    }
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        rd_rma_block_t *b = realloc(f->b, cap * sizeof(*b));
        if (!b)
            return RD_ENOMEM;
        f->b = b;
        f->cap = cap;
    }
    f->b[f->n].off = (uint64_t)off;
    f->b[f->n].len = len;
    f->n++;
    return RD_OK;
}

/* The runs of node nd placed at base (a byte offset from the element's
 * start), as rd_dt_pack walks them. */
static int walk(const rd_dt_node_t *nd, ptrdiff_t base, rd_rma_flat_t *f)
{
    if (nd->dense)
        return add(f, base + nd->lo, nd->size);
    if (nd->kind == RD_DT_REPEAT) {
        for (size_t i = 0; i < nd->count; i++) {
            int rc = walk(nd->child, base + nd->off + (ptrdiff_t)i * nd->stride, f);
            if (rc != RD_OK)
                return rc;
        }
        return RD_OK;
    }
    for (int k = 0; k < nd->n; k++) {
        int rc = walk(nd->e[k].child, base + nd->e[k].off, f);
        if (rc != RD_OK)
            return rc;
    }
    return RD_OK;
}

int rd_rma_flatten(size_t count, const rd_datatype_t *dt, rd_rma_flat_t *f)
{
    memset(f, 0, sizeof(*f));
    if (!dt->size || !count)
        return RD_OK;
    ptrdiff_t ext = rd_dt_extent(dt);
    if (rd_dt_is_contig(dt, count))
        return add(f, 0, count * dt->size);
    for (size_t i = 0; i < count; i++) {
        int rc = walk(dt->root, (ptrdiff_t)i * ext - dt->true_lb, f);
        if (rc != RD_OK) {
            rd_rma_flat_free(f);
            return rc;
        }
    }
    return RD_OK;
}

void *rd_rma_contig_view(const void *buf, size_t count, const rd_datatype_t *dt, size_t bytes,
                         int pack, void **copy)
{
    if (rd_dt_is_contig(dt, count))
        return rd_dt_contig_ptr((void *)buf, dt);
    if (!(*copy = malloc(bytes)))
        return NULL;
    if (pack)
        rd_dt_pack(buf, count, dt, 0, *copy, bytes);
    return *copy;
}

void rd_rma_flat_free(rd_rma_flat_t *f)
{
    free(f->b);
    memset(f, 0, sizeof(*f));
}

/* Moves c back by n bytes (n at most what was taken since). */
static void rewind_by(rd_rma_cursor_t *c, uint64_t n)
{
    while (n) {
        if (c->in >= n) {
            c->in -= n;
            return;
        }
        n -= c->in;
        c->i--;
        c->in = c->f->b[c->i].len;
    }
}

size_t rd_rma_cursor_take(rd_rma_cursor_t *c, size_t room, size_t left, size_t elem,
                          rd_rma_block_t *out, size_t *bytes)
{
    const rd_rma_flat_t *f = c->f;
    size_t nb = 0, got = 0;
    while (got < left && c->i < f->n) {
        size_t used = (nb + 1) * sizeof(rd_rma_block_t) + got;
        if (used >= room)
            break;
        const rd_rma_block_t *b = &f->b[c->i];
        uint64_t avail = b->len - c->in, take = room - used;
        if (take > avail)
            take = avail;
        if (take > left - got)
            take = left - got;
        out[nb].off = b->off + c->in;
        out[nb].len = take;
        nb++;
        got += take;
        c->in += take;
        if (c->in == b->len) {
            c->i++;
            c->in = 0;
        }
    }
    /* whole elements only: give the tail back */
    size_t excess = elem > 1 ? got % elem : 0;
    rewind_by(c, excess);
    got -= excess;
    while (excess) {
        rd_rma_block_t *last = &out[nb - 1];
        if (last->len <= excess) {
            excess -= last->len;
            nb--;
        } else {
            last->len -= excess;
            excess = 0;
        }
    }
    *bytes = got;
    return nb;
}
