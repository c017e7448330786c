/*
 * MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size for the
 * "external32" representation (MPI-3.1 13.5.2): big-endian, IEEE formats,
 * and the sizes of table 13.2, where MPI_LONG and MPI_UNSIGNED_LONG take 4
 * bytes, MPI_WCHAR 2 and MPI_LONG_DOUBLE 16 (IEEE binary128).
 *
 * The data goes through the native pack engine first (rd_dt_pack packs in
 * typemap order), then each basic element of the native stream is
 * converted. The basic elements follow from the type's construction
 * arguments (MPI_Type_get_contents): a struct's members in order, every
 * other constructor size / old size copies of its old type, so no
 * displacement is needed and large counts cost no expansion.
 */
#include "api/api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/type_f90.h"

/* How one component of a basic element converts. */
enum conv { C_BYTES, C_INT, C_UINT, C_FLOAT, C_LDOUBLE };

typedef struct comp {
    uint8_t conv, nsize, xsize;    /* enum conv, native and external32 bytes */
} comp_t;

/* The components of a predefined type (2 for pairs and complexes). */
static int components(const rd_datatype_t *dt, comp_t c[2])
{
    size_t n = dt->size;
    switch (dt->handle) {
    case MPI_LONG: c[0] = (comp_t){ C_INT, 8, 4 }; return 1;
    case MPI_UNSIGNED_LONG: c[0] = (comp_t){ C_UINT, 8, 4 }; return 1;
    case MPI_WCHAR: c[0] = (comp_t){ C_UINT, 4, 2 }; return 1;
    }
    switch (dt->basic) {
    case RD_BASIC_INT8: case RD_BASIC_INT16: case RD_BASIC_INT32: case RD_BASIC_INT64:
    case RD_BASIC_FLOGICAL:
        c[0] = (comp_t){ C_INT, (uint8_t)n, (uint8_t)n }; return 1;
    case RD_BASIC_UINT8: case RD_BASIC_UINT16: case RD_BASIC_UINT32: case RD_BASIC_UINT64:
        c[0] = (comp_t){ C_UINT, (uint8_t)n, (uint8_t)n }; return 1;
    case RD_BASIC_FLOAT: case RD_BASIC_DOUBLE:
        c[0] = (comp_t){ C_FLOAT, (uint8_t)n, (uint8_t)n }; return 1;
    case RD_BASIC_LONG_DOUBLE: c[0] = (comp_t){ C_LDOUBLE, 16, 16 }; return 1;
    case RD_BASIC_C_FLOAT_COMPLEX: case RD_BASIC_C_DOUBLE_COMPLEX:
        c[0] = c[1] = (comp_t){ C_FLOAT, (uint8_t)(n / 2), (uint8_t)(n / 2) }; return 2;
    case RD_BASIC_C_LONG_DOUBLE_COMPLEX: c[0] = c[1] = (comp_t){ C_LDOUBLE, 16, 16 }; return 2;
    case RD_BASIC_PAIR_FLOAT_INT: c[0] = (comp_t){ C_FLOAT, 4, 4 }; break;
    case RD_BASIC_PAIR_DOUBLE_INT: c[0] = (comp_t){ C_FLOAT, 8, 8 }; break;
    case RD_BASIC_PAIR_LONG_INT: c[0] = (comp_t){ C_INT, 8, 4 }; break;
    case RD_BASIC_PAIR_SHORT_INT: c[0] = (comp_t){ C_INT, 2, 2 }; break;
    case RD_BASIC_PAIR_LONG_DOUBLE_INT: c[0] = (comp_t){ C_LDOUBLE, 16, 16 }; break;
    case RD_BASIC_PAIR_INT_INT: c[0] = (comp_t){ C_INT, 4, 4 }; break;
    case RD_BASIC_PAIR_FLOAT_FLOAT:
        c[0] = c[1] = (comp_t){ C_FLOAT, 4, 4 }; return 2;
    case RD_BASIC_PAIR_DOUBLE_DOUBLE:
        c[0] = c[1] = (comp_t){ C_FLOAT, 8, 8 }; return 2;
    default: /* characters, bool, bytes */
        c[0] = (comp_t){ C_BYTES, (uint8_t)n, (uint8_t)n }; return 1;
    }
    c[1] = (comp_t){ C_INT, 4, 4 }; /* the int of a (value, index) pair */
    return 2;
}

/* The predefined type an MPI_Type_create_f90_* type has the layout of. */
static rd_datatype_t *f90_base(const rd_datatype_t *dt)
{
    static const MPI_Datatype ints[] = { MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8 };
    static const MPI_Datatype reals[] = { MPI_REAL4, MPI_REAL8, MPI_REAL16 };
    static const MPI_Datatype cplx[] = { MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32 };
    const MPI_Datatype *c = dt->combiner == MPI_COMBINER_F90_INTEGER ? ints
                            : dt->combiner == MPI_COMBINER_F90_REAL ? reals : cplx;
    size_t n = dt->combiner == MPI_COMBINER_F90_INTEGER ? 4 : 3;
    for (size_t i = 0; i < n; i++)
        if (rd_api_dt(c[i])->size == dt->size)
            return rd_api_dt(c[i]);
    return NULL;
}

/* external32 bytes of one element of dt. */
static size_t ext_size(const rd_datatype_t *dt)
{
    if (dt->builtin) {
        comp_t c[2];
        int n = components(dt, c);
        return c[0].xsize + (n > 1 ? c[1].xsize : 0);
    }
    if (rd_api_dt_is_f90(dt))
        return ext_size(f90_base(dt));
    if (dt->combiner == MPI_COMBINER_STRUCT) {
        size_t s = 0;
        for (int i = 0; i < dt->nt; i++)
            s += (size_t)dt->ints[1 + i] * ext_size(dt->types[i]);
        return s;
    }
    const rd_datatype_t *old = dt->nt ? dt->types[0] : NULL;
    return old && old->size ? dt->size / old->size * ext_size(old) : 0;
}

/* ---- converting one component ---- */

static void put_be(uint8_t *p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

static uint64_t get_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* x86's 80-bit long double and IEEE binary128 share sign and exponent; the
 * fraction is the 63 bits below the explicit integer bit. */
static void ld_to_ext(const uint8_t *in, uint8_t *out)
{
    uint64_t mant;
    uint16_t se;
    memcpy(&mant, in, 8);
    memcpy(&se, in + 8, 2);
    put_be(out, (uint64_t)se << 48 | (mant & 0x7fffffffffffffffull) >> 15, 8);
    put_be(out + 8, mant << 49, 8);
}

static void ld_from_ext(const uint8_t *in, uint8_t *out)
{
    uint64_t hi = get_be(in, 8), lo = get_be(in + 8, 8);
    uint16_t se = (uint16_t)(hi >> 48);
    uint64_t frac = (hi & 0xffffffffffffull) << 15 | lo >> 49;
    /* The integer bit is 1 for every normal number (exponent not 0). */
    uint64_t mant = frac | ((se & 0x7fff) ? 1ull << 63 : 0);
    memset(out, 0, 16);
    memcpy(out, &mant, 8);
    memcpy(out + 8, &se, 2);
}

/* Converts one component; returns 0, or -1 when a value does not fit the
 * external size (MPI_ERR_CONVERSION). */
static int conv_one(const comp_t *c, const uint8_t *in, uint8_t *out, int pack)
{
    uint64_t v;
    switch (c->conv) {
    case C_BYTES:
        memcpy(out, in, pack ? c->xsize : c->nsize);
        return 0;
    case C_LDOUBLE:
        if (pack)
            ld_to_ext(in, out);
        else
            ld_from_ext(in, out);
        return 0;
    case C_INT:
    case C_UINT:
    case C_FLOAT:
        if (pack) {
            v = 0;
            memcpy(&v, in, c->nsize); /* little-endian host */
            if (c->nsize > c->xsize) {
                int shift = 64 - 8 * c->xsize;
                int64_t sv = (int64_t)v; /* the native size here is 8 */
                if (c->conv == C_INT ? (int64_t)((uint64_t)sv << shift) >> shift != sv
                                     : (v >> (8 * c->xsize)) != 0)
                    return -1;
            }
            put_be(out, v, c->xsize);
        } else {
            v = get_be(in, c->xsize);
            if (c->conv == C_INT && c->nsize > c->xsize && (v >> (8 * c->xsize - 1)) & 1)
                v |= ~0ull << (8 * c->xsize); /* sign extension */
            memcpy(out, &v, c->nsize);
        }
        return 0;
    }
    return 0;
}

/* Converts count elements of dt from *src to *dst, advancing both: native
 * packed to external32 (pack) or back. -1 on a value out of range. */
static int convert(const rd_datatype_t *dt, size_t count, const uint8_t **src, uint8_t **dst,
                   int pack)
{
    if (dt->builtin) {
        comp_t c[2];
        int k = components(dt, c);
        for (size_t e = 0; e < count; e++)
            for (int i = 0; i < k; i++) {
                if (conv_one(&c[i], *src, *dst, pack))
                    return -1;
                *src += pack ? c[i].nsize : c[i].xsize;
                *dst += pack ? c[i].xsize : c[i].nsize;
            }
        return 0;
    }
    if (rd_api_dt_is_f90(dt))
        return convert(f90_base(dt), count, src, dst, pack);
    if (dt->combiner == MPI_COMBINER_STRUCT) {
        for (size_t e = 0; e < count; e++)
            for (int i = 0; i < dt->nt; i++)
                if (convert(dt->types[i], (size_t)dt->ints[1 + i], src, dst, pack))
                    return -1;
        return 0;
    }
    const rd_datatype_t *old = dt->nt ? dt->types[0] : NULL;
    if (!old || !old->size)
        return 0;
    return convert(old, count * (dt->size / old->size), src, dst, pack);
}

/* ---- entry points ---- */

static int check_rep(const char *datarep, const char *fn)
{
    if (!datarep)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "datarep is NULL");
    if (strcmp(datarep, "external32") != 0)
        return rd_api_error(NULL, MPI_ERR_UNSUPPORTED_DATAREP, fn,
                            "data representation '%s': only \"external32\" is defined",
                            datarep);
    return MPI_SUCCESS;
}

static int check_args(const char *datarep, MPI_Aint count, MPI_Datatype datatype,
                      rd_datatype_t **dt, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_rep(datarep, fn)))
        return err;
    if (count < 0)
        return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative count %ld", (long)count);
    return rd_api_check_dt(NULL, datatype, dt, fn);
}

RD_WEAK_ALIAS(MPI_Pack_external_size)
int PMPI_Pack_external_size(const char *datarep, int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    static const char fn[] = "MPI_Pack_external_size";
    rd_datatype_t *dt;
    int err = check_args(datarep, incount, datatype, &dt, fn);
    if (err)
        return err;
    if (!size)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "size pointer is NULL");
    *size = (MPI_Aint)((size_t)incount * ext_size(dt));
    return MPI_SUCCESS;
}

/* Packs (pack) or unpacks count elements of dt between the user buffer and
 * the external32 buffer ext of extsize bytes at *position. */
static int run(const void *inbuf, void *outbuf, int count, rd_datatype_t *dt, void *ext,
               MPI_Aint extsize, MPI_Aint *position, int pack, const char *fn)
{
    if (!position || *position < 0 || (!ext && extsize > 0))
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "invalid position or buffer");
    size_t nbytes = (size_t)count * dt->size, xbytes = (size_t)count * ext_size(dt);
    if ((size_t)*position + xbytes > (size_t)(extsize < 0 ? 0 : extsize))
        return rd_api_error(NULL, pack ? MPI_ERR_TRUNCATE : MPI_ERR_ARG, fn,
                            "%zu external32 bytes at position %ld overrun the %ld-byte buffer",
                            xbytes, (long)*position, (long)extsize);
    uint8_t *tmp = malloc(nbytes ? nbytes : 1);
    if (!tmp)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for %zu bytes", nbytes);
    uint8_t *x = (uint8_t *)ext + *position, *t = tmp;
    const uint8_t *ct = tmp, *cx = x;
    int bad;
    if (pack) {
        rd_dt_pack(inbuf, (size_t)count, dt, 0, tmp, nbytes);
        bad = convert(dt, (size_t)count, &ct, &x, 1);
    } else {
        bad = convert(dt, (size_t)count, &cx, &t, 0);
        if (!bad)
            rd_dt_unpack(outbuf, (size_t)count, dt, 0, tmp, nbytes);
    }
    free(tmp);
    if (bad)
        return rd_api_error(NULL, MPI_ERR_CONVERSION, fn,
                            "a value does not fit its external32 size (MPI_LONG and "
                            "MPI_UNSIGNED_LONG have 4 bytes, MPI_WCHAR 2)");
    *position += (MPI_Aint)xbytes;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Pack_external)
int PMPI_Pack_external(const char *datarep, const void *inbuf, int incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                       MPI_Aint *position)
{
    static const char fn[] = "MPI_Pack_external";
    rd_datatype_t *dt;
    int err = check_args(datarep, incount, datatype, &dt, fn);
    if (err || (err = rd_api_check_buf(NULL, inbuf, incount, dt, fn)))
        return err;
    return run(inbuf, NULL, incount, dt, outbuf, outsize, position, 1, fn);
}

RD_WEAK_ALIAS(MPI_Unpack_external)
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    static const char fn[] = "MPI_Unpack_external";
    rd_datatype_t *dt;
    int err = check_args(datarep, outcount, datatype, &dt, fn);
    if (err || (err = rd_api_check_buf(NULL, outbuf, outcount, dt, fn)))
        return err;
    return run(NULL, outbuf, outcount, dt, (void *)inbuf, insize, position, 0, fn);
}
