/* Datatypes and the pack engine (see datatype.h). */
#include "core/datatype.h"

#include <stdlib.h>
#include <string.h>

#include "core/handle.h"

static rd_dt_block_t bytes_block = { 0, 1, 1 };
rd_datatype_t rd_dt_bytes = {
    .refs = 1, .size = 1, .lb = 0, .ub = 1, .true_lb = 0, .true_ub = 1, .contig = 1,
    .builtin = 1, .committed = 1, .basic = -1, .nblocks = 1, .blocks = &bytes_block,
    .name = "MPI_BYTE",
};

rd_datatype_t *rd_dt_new(int nblocks)
{
    rd_datatype_t *dt = calloc(1, sizeof(*dt));
    if (!dt)
        return NULL;
    if (nblocks) {
        dt->blocks = calloc(nblocks, sizeof(*dt->blocks));
        if (!dt->blocks) {
            free(dt);
            return NULL;
        }
    }
    dt->nblocks = nblocks;
    dt->refs = 1;
    dt->basic = -1;
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
    free(dt->blocks);
    free(dt);
}

void rd_dt_finish(rd_datatype_t *dt)
{
    size_t size = 0;
    ptrdiff_t lo = 0, hi = 0;
    for (int i = 0; i < dt->nblocks; i++) {
        const rd_dt_block_t *b = &dt->blocks[i];
        size += b->len;
        if (i == 0 || b->off < lo)
            lo = b->off;
        if (i == 0 || b->off + (ptrdiff_t)b->len > hi)
            hi = b->off + (ptrdiff_t)b->len;
    }
    dt->size = size;
    dt->true_lb = lo;
    dt->true_ub = hi;
    dt->contig = dt->nblocks == 1 && (size_t)(dt->ub - dt->lb) == size;
    if (dt->nblocks == 0)
        dt->contig = 1;
}

/* Calls fn on each (user address, packed offset, len) piece covering packed
 * bytes [off, off+len). Shared by pack and unpack so that both walk layouts
 * the same way. */
#define WALK(buf, count, dt, off, len, BODY)                                          \
    do {                                                                              \
        size_t _elem = (off) / (dt)->size, _in = (off) % (dt)->size, _left = (len);   \
        size_t _done = 0;                                                             \
        ptrdiff_t _ext = rd_dt_extent(dt);                                            \
        int _b = 0;                                                                   \
        while (_in >= (dt)->blocks[_b].len) {                                         \
            _in -= (dt)->blocks[_b].len;                                              \
            _b++;                                                                     \
        }                                                                             \
        while (_left) {                                                               \
            const rd_dt_block_t *_blk = &(dt)->blocks[_b];                            \
            size_t _n = _blk->len - _in;                                              \
            if (_n > _left)                                                           \
                _n = _left;                                                           \
            char *_user = (char *)(buf) + (ptrdiff_t)_elem * _ext + _blk->off + _in;  \
            BODY;                                                                     \
            _done += _n;                                                              \
            _left -= _n;                                                              \
            _in = 0;                                                                  \
            if (++_b == (dt)->nblocks) {                                              \
                _b = 0;                                                               \
                _elem++;                                                              \
            }                                                                         \
        }                                                                             \
    } while (0)

void rd_dt_pack(const void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                void *out, size_t len)
{
    (void)count;
    if (!len)
        return;
    if (dt->contig) {
        memcpy(out, (const char *)buf + dt->true_lb + off, len);
        return;
    }
    WALK(buf, count, dt, off, len, memcpy((char *)out + _done, _user, _n));
}

void rd_dt_unpack(void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                  const void *in, size_t len)
{
    (void)count;
    if (!len)
        return;
    if (dt->contig) {
        memcpy((char *)buf + dt->true_lb + off, in, len);
        return;
    }
    WALK(buf, count, dt, off, len, memcpy(_user, (const char *)in + _done, _n));
}

long long rd_dt_elements(const rd_datatype_t *dt, size_t nbytes)
{
    if (dt->size == 0)
        return 0;
    long long per = 0;
    for (int i = 0; i < dt->nblocks; i++)
        per += dt->blocks[i].len / dt->blocks[i].esize;
    long long n = (long long)(nbytes / dt->size) * per;
    size_t rest = nbytes % dt->size;
    for (int i = 0; i < dt->nblocks && rest; i++) {
        const rd_dt_block_t *b = &dt->blocks[i];
        size_t take = rest < b->len ? rest : b->len;
        if (take % b->esize)
            return -1;
        n += take / b->esize;
        rest -= take;
    }
    return n;
}
