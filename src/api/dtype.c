/*
 * Datatype lifetime and packing: MPI_Type_contiguous, MPI_Type_dup,
 * MPI_Type_commit, MPI_Type_free, MPI_Pack, MPI_Unpack, MPI_Pack_size.
 * The other constructors (vector, indexed, struct, subarray, ...) build on
 * the same block representation (core/datatype.h).
 */
#include "api/api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Registers a new datatype under a handle; returns MPI_SUCCESS or an error. */
static int publish(rd_datatype_t *dt, MPI_Datatype *out, const char *fn)
{
    dt->handle = rd_handle_alloc(RD_OBJ_DATATYPE, dt);
    if (!dt->handle) {
        rd_dt_release(dt);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for a datatype handle");
    }
    *out = dt->handle;
    return MPI_SUCCESS;
}

/* Appends block b to dt's n blocks, merging it with the last one when they
 * touch and hold the same basic elements. */
static void append_block(rd_datatype_t *dt, int *n, rd_dt_block_t b)
{
    if (*n > 0) {
        rd_dt_block_t *last = &dt->blocks[*n - 1];
        if (last->off + (ptrdiff_t)last->len == b.off && last->esize == b.esize) {
            last->len += b.len;
            return;
        }
    }
    dt->blocks[(*n)++] = b;
}

RD_WEAK_ALIAS(MPI_Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_contiguous";
    rd_datatype_t *old;
    RD_API_CHECK_INIT(fn);
    if (count < 0)
        return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative count %d", count);
    if (!(old = rd_api_dt(oldtype)))
        return rd_api_error(NULL, MPI_ERR_TYPE, fn, "invalid oldtype handle 0x%x", (unsigned)oldtype);
    if (!newtype)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "newtype pointer is NULL");
    ptrdiff_t ext = rd_dt_extent(old);
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_new(count * old->nblocks);
    int err;
    if (!dt) {
        err = rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    } else {
        int n = 0;
        for (int i = 0; i < count; i++)
            for (int b = 0; b < old->nblocks; b++) {
                rd_dt_block_t blk = old->blocks[b];
                blk.off += (ptrdiff_t)i * ext;
                append_block(dt, &n, blk);
            }
        dt->nblocks = n;
        dt->lb = old->lb;
        dt->ub = old->lb + (ptrdiff_t)count * ext;
        rd_dt_finish(dt);
        err = publish(dt, newtype, fn);
    }
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Type_dup)
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char fn[] = "MPI_Type_dup";
    rd_datatype_t *old;
    RD_API_CHECK_INIT(fn);
    if (!(old = rd_api_dt(oldtype)))
        return rd_api_error(NULL, MPI_ERR_TYPE, fn, "invalid oldtype handle 0x%x", (unsigned)oldtype);
    if (!newtype)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "newtype pointer is NULL");
    rd_api_lock();
    rd_datatype_t *dt = rd_dt_new(old->nblocks);
    int err;
    if (!dt) {
        err = rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    } else {
        memcpy(dt->blocks, old->blocks, (size_t)old->nblocks * sizeof(*dt->blocks));
        dt->lb = old->lb;
        dt->ub = old->ub;
        dt->basic = old->basic;
        rd_dt_finish(dt);
        dt->committed = old->committed; /* a duplicate keeps the committed state */
        err = publish(dt, newtype, fn);
    }
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Type_commit)
int PMPI_Type_commit(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_commit";
    rd_datatype_t *dt;
    RD_API_CHECK_INIT(fn);
    if (!datatype || !(dt = rd_api_dt(*datatype)))
        return rd_api_error(NULL, MPI_ERR_TYPE, fn, "invalid datatype");
    dt->committed = 1;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_free)
int PMPI_Type_free(MPI_Datatype *datatype)
{
    static const char fn[] = "MPI_Type_free";
    rd_datatype_t *dt;
    RD_API_CHECK_INIT(fn);
    if (!datatype || !(dt = rd_api_dt(*datatype)))
        return rd_api_error(NULL, MPI_ERR_TYPE, fn, "invalid datatype");
    if (dt->builtin)
        return rd_api_error(NULL, MPI_ERR_TYPE, fn, "%s is predefined and cannot be freed", dt->name);
    rd_api_lock();
    /* Operations still using it hold their own reference (MPI-3.1 4.1.9). */
    rd_dt_release(dt);
    rd_api_unlock();
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

static int check_pack(int count, MPI_Datatype datatype, MPI_Comm comm, rd_datatype_t **dt,
                      rd_comm_t **c, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)) || (err = rd_api_check_count(*c, count, fn)) ||
        (err = rd_api_check_dt(*c, datatype, dt, fn)))
        return err;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    static const char fn[] = "MPI_Pack_size";
    rd_datatype_t *dt;
    rd_comm_t *c;
    int err = check_pack(incount, datatype, comm, &dt, &c, fn);
    if (err)
        return err;
    if (!size)
        return rd_api_error(c, MPI_ERR_ARG, fn, "size pointer is NULL");
    long long n = (long long)incount * (long long)dt->size;
    if (n > INT32_MAX)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "packed size %lld does not fit in an int", n);
    *size = (int)n;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    static const char fn[] = "MPI_Pack";
    rd_datatype_t *dt;
    rd_comm_t *c;
    int err = check_pack(incount, datatype, comm, &dt, &c, fn);
    if (err || (err = rd_api_check_buf(c, inbuf, incount, dt, fn)))
        return err;
    if (!position || *position < 0 || (!outbuf && outsize > 0))
        return rd_api_error(c, MPI_ERR_ARG, fn, "invalid position or output buffer");
    size_t bytes = (size_t)incount * dt->size;
    if ((size_t)*position + bytes > (size_t)(outsize < 0 ? 0 : outsize))
        return rd_api_error(c, MPI_ERR_TRUNCATE, fn,
                            "%zu packed bytes do not fit at position %d of a %d-byte buffer",
                            bytes, *position, outsize);
    rd_dt_pack(inbuf, (size_t)incount, dt, 0, (char *)outbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Unpack";
    rd_datatype_t *dt;
    rd_comm_t *c;
    int err = check_pack(outcount, datatype, comm, &dt, &c, fn);
    if (err || (err = rd_api_check_buf(c, outbuf, outcount, dt, fn)))
        return err;
    if (!position || *position < 0 || (!inbuf && insize > 0))
        return rd_api_error(c, MPI_ERR_ARG, fn, "invalid position or input buffer");
    size_t bytes = (size_t)outcount * dt->size;
    if ((size_t)*position + bytes > (size_t)(insize < 0 ? 0 : insize))
        return rd_api_error(c, MPI_ERR_TRUNCATE, fn,
                            "unpacking %zu bytes at position %d overruns the %d-byte input",
                            bytes, *position, insize);
    rd_dt_unpack(outbuf, (size_t)outcount, dt, 0, (const char *)inbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}
