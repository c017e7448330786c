/*
 * Buffered sends: MPI_Buffer_attach / MPI_Buffer_detach and the allocator
 * that places each MPI_Bsend's packed copy in the attached buffer. Segments
 * are carved first-fit from the gaps between live segments (kept in address
 * order); a segment is released once its send has completed, at the next
 * buffered send at the latest. When the buffer is full, pending buffered
 * sends are progressed until space frees up; if it still does not fit, the
 * call fails with MPI_ERR_BUFFER as the standard asks.
 */
#include "api/api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "p2p/p2p.h"
#include "util/list.h"

typedef struct seg {
    rd_list_t link;        /* in address order */
    size_t off, len;
    rd_request_t *req;     /* the send from this segment */
} seg_t;

static struct {
    char *buf;
    size_t size;
    rd_list_t segs;
    int inited;
} bs;

static void bs_init(void)
{
    if (!bs.inited) {
        rd_list_init(&bs.segs);
        bs.inited = 1;
    }
}

/* Releases the segments whose sends completed; returns how many are live. */
static int reap(void)
{
    int live = 0;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &bs.segs) {
        seg_t *s = rd_list_entry(pos, seg_t, link);
        if (s->req->done > 0) {
            rd_req_free(s->req);
            rd_list_remove(&s->link);
            free(s);
        } else {
            live++;
        }
    }
    return live;
}

/* First gap of at least need bytes; returns its offset or (size_t)-1, and
 * the segment to insert before (NULL: at the end). */
static size_t find_gap(size_t need, rd_list_t **before)
{
    size_t at = 0;
    rd_list_t *pos;
    rd_list_for_each(pos, &bs.segs) {
        seg_t *s = rd_list_entry(pos, seg_t, link);
        if (s->off - at >= need) {
            *before = pos;
            return at;
        }
        at = s->off + s->len;
    }
    *before = &bs.segs;
    return bs.size - at >= need ? at : (size_t)-1;
}

int rd_api_bsend_start(rd_comm_t *c, const void *buf, MPI_Count count, rd_datatype_t *dt,
                       int dest, int tag, const char *fn)
{
    bs_init();
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    size_t bytes = (size_t)count * dt->size;
    /* Every message also accounts MPI_BSEND_OVERHEAD bytes, as users size buffers that way. */
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    rd_list_t *before;
    size_t off;
    unsigned idle = 0;
    /* Space of delivered messages is reclaimed first, so a buffer big enough
     * for the messages in flight always suffices; then, while sends are
     * pending, progress until one frees enough. */
    for (;;) {
        int live = reap();
        if ((off = find_gap(need, &before)) != (size_t)-1 || live == 0)
            break;
        if (rd_progress() == 0)
            rd_p2p_idle(&idle);
    }
    if (off == (size_t)-1)
        return rd_api_error(c, MPI_ERR_BUFFER, fn,
                            "the attached buffer (%zu bytes) has no room for %zu bytes "
                            "(message plus MPI_BSEND_OVERHEAD %d); attach a larger buffer",
                            bs.size, need, MPI_BSEND_OVERHEAD);
    seg_t *s = malloc(sizeof(*s));
    rd_request_t *r = rd_req_new(RD_REQ_SEND);
    if (!s || !r) {
        free(s);
        if (r)
            rd_req_free(r);
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    char *copy = bs.buf + off;
    rd_dt_pack(buf, (size_t)count, dt, 0, copy, bytes);
    int rc = rd_p2p_start(r, copy, bytes, &rd_dt_bytes, c, dest, tag, RD_MODE_STANDARD, 0);
    if (rc != RD_OK) {
        rd_req_free(r);
        free(s);
        return rd_api_status_error(c, rc, fn);
    }
    s->off = off;
    s->len = need;
    s->req = r;
    rd_list_insert_between(&s->link, before->prev, before);
    return MPI_SUCCESS;
}

void rd_api_bsend_drain(void)
{
    bs_init();
    unsigned idle = 0;
    while (reap() > 0)
        if (rd_progress() == 0)
            rd_p2p_idle(&idle);
}

static int buffer_attach(void *buffer, MPI_Count size, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (size < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative size %lld", (long long)size);
    if (!buffer && size > 0)
        return rd_api_error(NULL, MPI_ERR_BUFFER, fn, "buffer is NULL");
    rd_api_lock();
    bs_init();
    int err = MPI_SUCCESS;
    if (bs.buf)
        err = rd_api_error(NULL, MPI_ERR_BUFFER, fn,
                           "a buffer is already attached; detach it first");
    else {
        bs.buf = buffer;
        bs.size = (size_t)size;
    }
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size)
{
    return buffer_attach(buffer, size, "MPI_Buffer_attach");
}

RD_WEAK_ALIAS(MPI_Buffer_attach_c)
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return buffer_attach(buffer, size, "MPI_Buffer_attach_c");
}

/* Detaches the buffer; *size gets its size. The int form cannot report a
 * buffer attached by MPI_Buffer_attach_c with more than INT_MAX bytes: it
 * stays attached and the call fails. */
static int buffer_detach(void *buffer_addr, MPI_Count *size, MPI_Count size_max, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (!buffer_addr || !size)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "buffer_addr or size pointer is NULL");
    rd_api_lock();
    bs_init();
    if (bs.size > (size_t)size_max) {
        rd_api_unlock();
        return rd_api_error(NULL, MPI_ERR_COUNT, fn, "the attached buffer has %zu bytes, more "
                            "than the size argument can hold (use MPI_Buffer_detach_c)", bs.size);
    }
    /* Detach blocks until every buffered message has left the buffer. */
    rd_api_bsend_drain();
    *(void **)buffer_addr = bs.buf;
    *size = (MPI_Count)bs.size;
    bs.buf = NULL;
    bs.size = 0;
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    MPI_Count n = 0;
    int err = buffer_detach(buffer_addr, size ? &n : NULL, INT32_MAX, "MPI_Buffer_detach");
    if (err == MPI_SUCCESS)
        *size = (int)n;
    return err;
}

RD_WEAK_ALIAS(MPI_Buffer_detach_c)
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return buffer_detach(buffer_addr, size, INT64_MAX, "MPI_Buffer_detach_c");
}
