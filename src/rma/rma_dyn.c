/*
 * Dynamic windows (rma.h): the regions this rank attached, which the
 * target side checks every access against (rd_rma_dyn_covers). Origins
 * address attached memory by its absolute address (MPI_Get_address), so
 * every access to a dynamic window goes through the target's progress
 * (the AM path), where the check is made. The list is kept sorted by base
 * so that overlap checks look at two neighbours only.
 */
#include "rma/rma_win.h"

#include <stdlib.h>
#include <string.h>

#include "util/errdetail.h"
#include "util/status.h"

static int dynamic(rd_win_t *w, const char *fn)
{
    if (w->flavor == RD_WIN_DYNAMIC)
        return RD_OK;
    rd_err_detail("%s on a window that MPI_Win_create_dynamic did not create", fn);
    return RD_EFLAVOR;
}

/* Index of the first region whose base is >= base. */
static int lower_bound(const struct rd_rma_sync *s, uint64_t base)
{
    int lo = 0, hi = s->nregions;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->regions[mid].base < base)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int rd_rma_attach(rd_win_t *w, void *base, size_t size)
{
    struct rd_rma_sync *s = w->rma->sync;
    int rc = dynamic(w, "MPI_Win_attach");
    if (rc != RD_OK)
        return rc;
    if (size == 0)
        return RD_OK;
    uint64_t b = (uint64_t)(uintptr_t)base;
    int i = lower_bound(s, b);
    if ((i < s->nregions && s->regions[i].base < b + size) ||
        (i > 0 && s->regions[i - 1].base + s->regions[i - 1].len > b)) {
        rd_err_detail("MPI_Win_attach: [%p, +%zu) overlaps memory already attached to the "
                      "window", base, size);
        return RD_EATTACH;
    }
    if (s->nregions == s->cap) {
        int cap = s->cap ? s->cap * 2 : 8;
        rd_rma_region_t *t = realloc(s->regions, (size_t)cap * sizeof(*t));
        if (!t) {
            rd_err_detail("MPI_Win_attach: out of memory for the region list");
            return RD_ENOMEM;
        }
        s->regions = t;
        s->cap = cap;
    }
    memmove(&s->regions[i + 1], &s->regions[i], (size_t)(s->nregions - i) * sizeof(*s->regions));
    s->regions[i].base = b;
    s->regions[i].len = size;
    s->nregions++;
    return RD_OK;
}

int rd_rma_detach(rd_win_t *w, const void *base)
{
    struct rd_rma_sync *s = w->rma->sync;
    int rc = dynamic(w, "MPI_Win_detach");
    if (rc != RD_OK)
        return rc;
    uint64_t b = (uint64_t)(uintptr_t)base;
    int i = lower_bound(s, b);
    if (i >= s->nregions || s->regions[i].base != b) {
        rd_err_detail("MPI_Win_detach: %p is not the base of memory attached to the window",
                      base);
        return RD_EATTACH;
    }
    memmove(&s->regions[i], &s->regions[i + 1],
            (size_t)(s->nregions - i - 1) * sizeof(*s->regions));
    s->nregions--;
    return RD_OK;
}

int rd_rma_dyn_covers(rd_win_t *w, uint64_t addr, size_t len)
{
    struct rd_rma_sync *s = w->rma->sync;
    /* The last region whose base is <= addr. */
    int i = lower_bound(s, addr + 1) - 1;
    if (i < 0 || addr + len < addr)
        return 0;
    const rd_rma_region_t *r = &s->regions[i];
    return addr >= r->base && addr + len <= r->base + r->len;
}
