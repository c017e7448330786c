/*
 * MPI_Pack, MPI_Unpack and MPI_Pack_size, and their large-count (_c)
 * forms: the packed form is the data of each element in typemap order
 * (core/datatype.h), positions and sizes in bytes.
 */
#include "api/api.h"

#include <stdint.h>

static int check_pack(MPI_Count count, MPI_Datatype datatype, MPI_Comm comm, rd_datatype_t **dt,
                      rd_comm_t **c, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)) || (err = rd_api_check_count(*c, count, fn)) ||
        (err = rd_api_check_dt(*c, datatype, dt, fn)))
        return err;
    return MPI_SUCCESS;
}

static int pack_size(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size,
                     MPI_Count size_max, const char *fn)
{
    rd_datatype_t *dt;
    rd_comm_t *c;
    int err = check_pack(incount, datatype, comm, &dt, &c, fn);
    if (err)
        return err;
    if (!size)
        return rd_api_error(c, MPI_ERR_ARG, fn, "size pointer is NULL");
    int64_t n;
    if (__builtin_mul_overflow(incount, (int64_t)dt->size, &n) || n > size_max)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "packed size of %lld elements of %zu bytes "
                            "does not fit in the size argument", (long long)incount, dt->size);
    *size = n;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    MPI_Count n = 0;
    int err = pack_size(incount, datatype, comm, size ? &n : NULL, INT32_MAX, "MPI_Pack_size");
    if (err == MPI_SUCCESS)
        *size = (int)n;
    return err;
}

static int pack(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm, const char *fn)
{
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
                            "%zu packed bytes do not fit at position %lld of a %lld-byte buffer",
                            bytes, (long long)*position, (long long)outsize);
    rd_dt_pack(inbuf, (size_t)incount, dt, 0, (char *)outbuf + *position, bytes);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int err = pack(inbuf, incount, datatype, outbuf, outsize, position ? &pos : NULL, comm,
                   "MPI_Pack");
    if (err == MPI_SUCCESS)
        *position = (int)pos;
    return err;
}

static int unpack(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm, const char *fn)
{
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
                            "unpacking %zu bytes at position %lld overruns the %lld-byte input",
                            bytes, (long long)*position, (long long)insize);
    rd_dt_unpack(outbuf, (size_t)outcount, dt, 0, (const char *)inbuf + *position, bytes);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int err = unpack(inbuf, insize, position ? &pos : NULL, outbuf, outcount, datatype, comm,
                     "MPI_Unpack");
    if (err == MPI_SUCCESS)
        *position = (int)pos;
    return err;
}

RD_WEAK_ALIAS(MPI_Pack_size_c)
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    return pack_size(incount, datatype, comm, size, INT64_MAX, "MPI_Pack_size_c");
}

RD_WEAK_ALIAS(MPI_Pack_c)
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    return pack(inbuf, incount, datatype, outbuf, outsize, position, comm, "MPI_Pack_c");
}

RD_WEAK_ALIAS(MPI_Unpack_c)
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    return unpack(inbuf, insize, position, outbuf, outcount, datatype, comm, "MPI_Unpack_c");
}
