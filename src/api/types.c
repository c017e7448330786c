/*
 * Predefined datatypes (registered under MPICH's handle values at MPI_Init)
 * and the datatype queries: MPI_Type_size, extents, MPI_Get_count and
 * MPI_Get_elements, MPI_Type_get_envelope / get_contents (int, _x and
 * large-count _c forms). Derived-type constructors build on core/datatype.h.
 */
#include "api/api.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A scalar type: one block. */
#define SCALAR(h, ctype, basic) { h, #h, sizeof(ctype), 0, 0, 0, basic, _Alignof(ctype) }
/* MPI_LB / MPI_UB: bound markers of no size (MPI-1; MPICH keeps them). */
#define MARKER(h) { h, #h, 0, 0, 0, 0, RD_BASIC_NONE, 1 }
/* A pair type (value, index) laid out as the C struct { T1 a; T2 b; } is. */
#define PAIR(h, t1, t2, basic)                                                       \
    { h, #h, sizeof(struct { t1 a; t2 b; }), sizeof(t1),                             \
      offsetof(struct { t1 a; t2 b; }, b), sizeof(t2), basic,                      \
      _Alignof(struct { t1 a; t2 b; }) }

typedef struct builtin {
    MPI_Datatype handle;
    const char *name;
    size_t extent;
    size_t len1;          /* pairs: size of the first member (0 for scalars) */
    size_t off2, len2;    /* pairs: offset and size of the second member */
    int basic;
    size_t align;
} builtin_t;

typedef struct { float re, im; } fcomplex_t;
typedef struct { double re, im; } dcomplex_t;
typedef struct { long double re, im; } ldcomplex_t;

static const builtin_t builtins[] = {
    SCALAR(MPI_CHAR, char, RD_BASIC_CHAR),
    SCALAR(MPI_SIGNED_CHAR, signed char, RD_BASIC_INT8),
    SCALAR(MPI_UNSIGNED_CHAR, unsigned char, RD_BASIC_UINT8),
    SCALAR(MPI_BYTE, char, RD_BASIC_NONE),
    SCALAR(MPI_WCHAR, wchar_t, RD_BASIC_INT32),
    SCALAR(MPI_SHORT, short, RD_BASIC_INT16),
    SCALAR(MPI_UNSIGNED_SHORT, unsigned short, RD_BASIC_UINT16),
    SCALAR(MPI_INT, int, RD_BASIC_INT32),
    SCALAR(MPI_UNSIGNED, unsigned, RD_BASIC_UINT32),
    SCALAR(MPI_LONG, long, RD_BASIC_INT64),
    SCALAR(MPI_UNSIGNED_LONG, unsigned long, RD_BASIC_UINT64),
    SCALAR(MPI_LONG_LONG_INT, long long, RD_BASIC_INT64),
    SCALAR(MPI_UNSIGNED_LONG_LONG, unsigned long long, RD_BASIC_UINT64),
    SCALAR(MPI_FLOAT, float, RD_BASIC_FLOAT),
    SCALAR(MPI_DOUBLE, double, RD_BASIC_DOUBLE),
    SCALAR(MPI_LONG_DOUBLE, long double, RD_BASIC_LONG_DOUBLE),
    SCALAR(MPI_PACKED, char, RD_BASIC_NONE),
    MARKER(MPI_LB),
    MARKER(MPI_UB),
    SCALAR(MPI_INT8_T, int8_t, RD_BASIC_INT8),
    SCALAR(MPI_INT16_T, int16_t, RD_BASIC_INT16),
    SCALAR(MPI_INT32_T, int32_t, RD_BASIC_INT32),
    SCALAR(MPI_INT64_T, int64_t, RD_BASIC_INT64),
    SCALAR(MPI_UINT8_T, uint8_t, RD_BASIC_UINT8),
    SCALAR(MPI_UINT16_T, uint16_t, RD_BASIC_UINT16),
    SCALAR(MPI_UINT32_T, uint32_t, RD_BASIC_UINT32),
    SCALAR(MPI_UINT64_T, uint64_t, RD_BASIC_UINT64),
    SCALAR(MPI_C_BOOL, bool, RD_BASIC_BOOL),
    /* MPI_C_FLOAT_COMPLEX under its other name, the one MPICH reports. */
    SCALAR(MPI_C_COMPLEX, fcomplex_t, RD_BASIC_C_FLOAT_COMPLEX),
    SCALAR(MPI_C_DOUBLE_COMPLEX, dcomplex_t, RD_BASIC_C_DOUBLE_COMPLEX),
    SCALAR(MPI_C_LONG_DOUBLE_COMPLEX, ldcomplex_t, RD_BASIC_C_LONG_DOUBLE_COMPLEX),
    SCALAR(MPI_AINT, MPI_Aint, RD_BASIC_INT64),
    SCALAR(MPI_OFFSET, MPI_Offset, RD_BASIC_INT64),
    SCALAR(MPI_COUNT, MPI_Count, RD_BASIC_INT64),
    SCALAR(MPI_CXX_BOOL, bool, RD_BASIC_BOOL),
    SCALAR(MPI_CXX_FLOAT_COMPLEX, fcomplex_t, RD_BASIC_C_FLOAT_COMPLEX),
    SCALAR(MPI_CXX_DOUBLE_COMPLEX, dcomplex_t, RD_BASIC_C_DOUBLE_COMPLEX),
    SCALAR(MPI_CXX_LONG_DOUBLE_COMPLEX, ldcomplex_t, RD_BASIC_C_LONG_DOUBLE_COMPLEX),
    /* Fortran types (gfortran sizes: default INTEGER/REAL/LOGICAL are 4 bytes). */
    SCALAR(MPI_CHARACTER, char, RD_BASIC_CHAR),
    SCALAR(MPI_INTEGER, int32_t, RD_BASIC_INT32),
    SCALAR(MPI_REAL, float, RD_BASIC_FLOAT),
    SCALAR(MPI_LOGICAL, int32_t, RD_BASIC_FLOGICAL),
    SCALAR(MPI_COMPLEX, fcomplex_t, RD_BASIC_C_FLOAT_COMPLEX),
    SCALAR(MPI_DOUBLE_PRECISION, double, RD_BASIC_DOUBLE),
    SCALAR(MPI_DOUBLE_COMPLEX, dcomplex_t, RD_BASIC_C_DOUBLE_COMPLEX),
    SCALAR(MPI_REAL4, float, RD_BASIC_FLOAT),
    SCALAR(MPI_REAL8, double, RD_BASIC_DOUBLE),
    SCALAR(MPI_REAL16, long double, RD_BASIC_LONG_DOUBLE),
    SCALAR(MPI_COMPLEX8, fcomplex_t, RD_BASIC_C_FLOAT_COMPLEX),
    SCALAR(MPI_COMPLEX16, dcomplex_t, RD_BASIC_C_DOUBLE_COMPLEX),
    SCALAR(MPI_COMPLEX32, ldcomplex_t, RD_BASIC_C_LONG_DOUBLE_COMPLEX),
    SCALAR(MPI_INTEGER1, int8_t, RD_BASIC_INT8),
    SCALAR(MPI_INTEGER2, int16_t, RD_BASIC_INT16),
    SCALAR(MPI_INTEGER4, int32_t, RD_BASIC_INT32),
    SCALAR(MPI_INTEGER8, int64_t, RD_BASIC_INT64),
    /* Pair types for MINLOC / MAXLOC. */
    PAIR(MPI_FLOAT_INT, float, int, RD_BASIC_PAIR_FLOAT_INT),
    PAIR(MPI_DOUBLE_INT, double, int, RD_BASIC_PAIR_DOUBLE_INT),
    PAIR(MPI_LONG_INT, long, int, RD_BASIC_PAIR_LONG_INT),
    PAIR(MPI_SHORT_INT, short, int, RD_BASIC_PAIR_SHORT_INT),
    PAIR(MPI_LONG_DOUBLE_INT, long double, int, RD_BASIC_PAIR_LONG_DOUBLE_INT),
    PAIR(MPI_2INT, int, int, RD_BASIC_PAIR_INT_INT),
    PAIR(MPI_2INTEGER, int32_t, int32_t, RD_BASIC_PAIR_INT_INT),
    PAIR(MPI_2REAL, float, float, RD_BASIC_PAIR_FLOAT_FLOAT),
    PAIR(MPI_2DOUBLE_PRECISION, double, double, RD_BASIC_PAIR_DOUBLE_DOUBLE),
};

#define NBUILTIN (sizeof(builtins) / sizeof(builtins[0]))
static rd_datatype_t types[NBUILTIN];
/* Layouts: a leaf, or for pairs with padding two leaves under a list. */
static rd_dt_node_t nodes[NBUILTIN][3];
static rd_dt_entry_t entries[NBUILTIN][2];

static void leaf(rd_dt_node_t *nd, size_t off, size_t len, size_t esize)
{
    *nd = (rd_dt_node_t){ .kind = RD_DT_LEAF, .dense = 1, .size = len,
                          .nelems = (long long)(len / esize), .lo = (ptrdiff_t)off,
                          .hi = (ptrdiff_t)(off + len), .off = (ptrdiff_t)off,
                          .esize = (uint32_t)esize };
}

int rd_api_types_init(void)
{
    for (size_t i = 0; i < NBUILTIN; i++) {
        const builtin_t *b = &builtins[i];
        rd_datatype_t *t = &types[i];
        rd_dt_node_t *nd = nodes[i];
        memset(t, 0, sizeof(*t));
        rd_list_init(&t->attrs);
        t->handle = b->handle;
        t->refs = 1;
        t->builtin = 1;
        t->committed = 1;
        t->basic = b->basic;
        t->align = b->align;
        t->combiner = MPI_COMBINER_NAMED;
        t->lb = 0;
        t->ub = (ptrdiff_t)b->extent;
        if (!b->extent) {
            leaf(&nd[0], 0, 0, 1);
        } else if (!b->len1) {
            leaf(&nd[0], 0, b->extent, b->extent);
        } else if (b->off2 == b->len1 && b->len1 == b->len2) {
            /* two members of one size with no padding between them: one
             * run (e.g. MPI_2INT). MPI_DOUBLE_INT has no padding either but
             * members of two sizes, which the element count must see. */
            leaf(&nd[0], 0, b->len1 + b->len2, b->len1);
        } else {
            leaf(&nd[1], 0, b->len1, b->len1);
            leaf(&nd[2], b->off2, b->len2, b->len2);
            entries[i][0] = (rd_dt_entry_t){ 0, 0, 0, &nd[1] };
            entries[i][1] = (rd_dt_entry_t){ 0, b->len1, 1, &nd[2] };
            nd[0] = (rd_dt_node_t){ .kind = RD_DT_LIST, .size = b->len1 + b->len2, .nelems = 2,
                                    .lo = 0, .hi = (ptrdiff_t)(b->off2 + b->len2), .n = 2,
                                    .e = entries[i] };
        }
        rd_dt_set_root(t, &nd[0]);
        snprintf(t->name, sizeof(t->name), "%s", b->name);
        /* Pair types such as MPI_FLOAT_INT have dynamic-form handles in MPICH. */
        if (RD_HANDLE_KIND(b->handle) == RD_HANDLE_KIND_DYNAMIC) {
            if (rd_handle_reserve(RD_OBJ_DATATYPE, (uint32_t)b->handle & RD_HANDLE_INDEX_MASK, t))
                return RD_ENOMEM;
        } else {
            rd_handle_builtin_set(RD_OBJ_DATATYPE, b->handle, t);
        }
    }
    /* Derived types get dynamic handles after the slots MPICH's pair types use
     * (0..4); 5..15 stay empty, so their handles remain invalid. */
    return rd_handle_reserve(RD_OBJ_DATATYPE, 15, NULL);
}

/* Checks a datatype argument of a query (committed or not). */
static int query_dt(MPI_Datatype h, rd_datatype_t **dt, const char *fn)
{
    *dt = rd_api_dt(h);
    if (*dt)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_TYPE, fn,
                        h == MPI_DATATYPE_NULL ? "datatype is MPI_DATATYPE_NULL"
                                               : "invalid datatype handle 0x%x", (unsigned)h);
}

/* The start of a query on a datatype: MPI initialized, the datatype valid
 * (query_dt) and the output out not NULL (null_msg is the error when it is). */
static int query_start(MPI_Datatype h, rd_datatype_t **dt, const void *out, const char *null_msg,
                       const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = query_dt(h, dt, fn)))
        return err;
    if (!out)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "%s", null_msg);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_size)
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, size, "size pointer is NULL", "MPI_Type_size");
    if (err)
        return err;
    *size = dt->size > INT32_MAX ? MPI_UNDEFINED : (int)dt->size;
    return MPI_SUCCESS;
}

/* MPI_Type_size_x and MPI_Type_size_c. */
static int size_query(MPI_Datatype datatype, MPI_Count *size, const char *fn)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, size, "size pointer is NULL", fn);
    if (err)
        return err;
    *size = (MPI_Count)dt->size;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_size_x)
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    return size_query(datatype, size, "MPI_Type_size_x");
}

RD_WEAK_ALIAS(MPI_Type_size_c)
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    return size_query(datatype, size, "MPI_Type_size_c");
}

/* The four extent queries: lower bound and extent, plain or true, as
 * MPI_Aint or (as_count) MPI_Count. Each checks its own pointers and names
 * itself. */
static int extent_query(MPI_Datatype datatype, int true_extent, void *lb, void *extent,
                        int as_count, const char *fn)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, lb && extent ? lb : NULL,
                          "lb or extent pointer is NULL", fn);
    if (err)
        return err;
    MPI_Aint l = true_extent ? dt->true_lb : dt->lb;
    MPI_Aint e = true_extent ? dt->true_ub - dt->true_lb : rd_dt_extent(dt);
    if (as_count) {
        *(MPI_Count *)lb = l;
        *(MPI_Count *)extent = e;
    } else {
        *(MPI_Aint *)lb = l;
        *(MPI_Aint *)extent = e;
    }
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_get_extent)
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return extent_query(datatype, 0, lb, extent, 0, "MPI_Type_get_extent");
}

RD_WEAK_ALIAS(MPI_Type_get_extent_x)
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return extent_query(datatype, 0, lb, extent, 1, "MPI_Type_get_extent_x");
}

RD_WEAK_ALIAS(MPI_Type_get_extent_c)
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return extent_query(datatype, 0, lb, extent, 1, "MPI_Type_get_extent_c");
}

RD_WEAK_ALIAS(MPI_Type_get_true_extent)
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    return extent_query(datatype, 1, lb, extent, 0, "MPI_Type_get_true_extent");
}

RD_WEAK_ALIAS(MPI_Type_get_true_extent_x)
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return extent_query(datatype, 1, lb, extent, 1, "MPI_Type_get_true_extent_x");
}

RD_WEAK_ALIAS(MPI_Type_get_true_extent_c)
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return extent_query(datatype, 1, lb, extent, 1, "MPI_Type_get_true_extent_c");
}

RD_WEAK_ALIAS(MPI_Type_get_name)
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, type_name && resultlen ? type_name : NULL,
                          "type_name or resultlen is NULL", "MPI_Type_get_name");
    if (err)
        return err;
    int n = snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", dt->name);
    *resultlen = n < MPI_MAX_OBJECT_NAME ? n : MPI_MAX_OBJECT_NAME - 1;
    return MPI_SUCCESS;
}

static int count_of(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count,
                    int elements, const char *fn)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt,
                          status && status != MPI_STATUS_IGNORE && count ? status : NULL,
                          "status or count pointer is NULL or MPI_STATUS_IGNORE", fn);
    if (err)
        return err;
    MPI_Count bytes = rd_api_status_bytes(status);
    if (elements) {
        long long n = rd_dt_elements(dt, (size_t)bytes);
        *count = n < 0 ? MPI_UNDEFINED : n;
    } else if (dt->size == 0) {
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;
    } else {
        *count = bytes % (MPI_Count)dt->size ? MPI_UNDEFINED : bytes / (MPI_Count)dt->size;
    }
    return MPI_SUCCESS;
}

static int to_int(MPI_Count c)
{
    return c > INT32_MAX ? MPI_UNDEFINED : (int)c;
}

RD_WEAK_ALIAS(MPI_Get_count)
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count c = 0;
    int err = count_of(status, datatype, count ? &c : NULL, 0, "MPI_Get_count");
    if (err == MPI_SUCCESS && count)
        *count = to_int(c);
    return err;
}

RD_WEAK_ALIAS(MPI_Get_elements)
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count c = 0;
    int err = count_of(status, datatype, count ? &c : NULL, 1, "MPI_Get_elements");
    if (err == MPI_SUCCESS && count)
        *count = to_int(c);
    return err;
}

RD_WEAK_ALIAS(MPI_Get_elements_x)
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return count_of(status, datatype, count, 1, "MPI_Get_elements_x");
}

RD_WEAK_ALIAS(MPI_Get_elements_c)
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return count_of(status, datatype, count, 1, "MPI_Get_elements_c");
}

RD_WEAK_ALIAS(MPI_Get_count_c)
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return count_of(status, datatype, count, 0, "MPI_Get_count_c");
}

RD_WEAK_ALIAS(MPI_Status_set_elements)
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    static const char fn[] = "MPI_Status_set_elements";
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, status != MPI_STATUS_IGNORE ? status : NULL,
                          "status is NULL or MPI_STATUS_IGNORE", fn);
    if (err)
        return err;
    if (count < 0)
        return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative count %d", count);
    rd_api_status_set_bytes(status, (MPI_Count)count * (MPI_Count)dt->size);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Status_set_elements_x)
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    static const char fn[] = "MPI_Status_set_elements_x";
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, status != MPI_STATUS_IGNORE ? status : NULL,
                          "status is NULL or MPI_STATUS_IGNORE", fn);
    if (err)
        return err;
    if (count < 0)
        return rd_api_error(NULL, MPI_ERR_COUNT, fn, "negative count %lld", (long long)count);
    rd_api_status_set_bytes(status, count * (MPI_Count)dt->size);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Status_set_cancelled)
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    static const char fn[] = "MPI_Status_set_cancelled";
    RD_API_CHECK_INIT(fn);
    if (!status || status == MPI_STATUS_IGNORE)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "status is NULL or MPI_STATUS_IGNORE");
    status->count_hi_and_cancelled = (status->count_hi_and_cancelled & ~1) | (flag ? 1 : 0);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Test_cancelled)
int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    static const char fn[] = "MPI_Test_cancelled";
    RD_API_CHECK_INIT(fn);
    if (!status || status == MPI_STATUS_IGNORE || !flag)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "status or flag is NULL or MPI_STATUS_IGNORE");
    *flag = status->count_hi_and_cancelled & 1;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_set_name)
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, type_name, "type_name is NULL",
                          "MPI_Type_set_name");
    if (err)
        return err;
    rd_api_lock();
    snprintf(dt->name, sizeof(dt->name), "%s", type_name);
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* ---- MPI-1 names that MPICH still exports ---- */

RD_WEAK_ALIAS(MPI_Type_extent)
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, extent, "extent pointer is NULL",
                          "MPI_Type_extent");
    if (err)
        return err;
    *extent = rd_dt_extent(dt);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_lb)
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, displacement, "displacement pointer is NULL",
                          "MPI_Type_lb");
    if (err)
        return err;
    *displacement = dt->lb;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_ub)
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    rd_datatype_t *dt;
    int err = query_start(datatype, &dt, displacement, "displacement pointer is NULL",
                          "MPI_Type_ub");
    if (err)
        return err;
    *displacement = dt->ub;
    return MPI_SUCCESS;
}

/* Addresses are plain integers: MPI_BOTTOM is 0 (MPI-3.1 4.1.5). */
RD_WEAK_ALIAS(MPI_Get_address)
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    static const char fn[] = "MPI_Get_address";
    if (!address)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "address pointer is NULL");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Address)
int PMPI_Address(void *location, MPI_Aint *address)
{
    return PMPI_Get_address(location, address);
}

/* A type built by a large-count constructor has contents only the _c
 * queries can return (MPICH reports this as MPI_ERR_OTHER too). */
static int need_large(const rd_datatype_t *dt, int large, const char *fn)
{
    if (large || dt->nc == 0)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_OTHER, fn, "the type was built by a large-count "
                        "constructor: its arguments are large counts (use the _c form)");
}

static int envelope(MPI_Datatype datatype, MPI_Count n[4], int *combiner, int large,
                    const char *fn)
{
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = query_dt(datatype, &dt, fn)))
        return err;
    if (!combiner)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "an output pointer is NULL");
    if ((err = need_large(dt, large, fn)))
        return err;
    n[0] = dt->ni;
    n[1] = dt->na;
    n[2] = dt->nc;
    n[3] = dt->nt;
    *combiner = dt->builtin ? MPI_COMBINER_NAMED : dt->combiner;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_get_envelope)
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    MPI_Count n[4];
    int all = num_integers && num_addresses && num_datatypes;
    int err = envelope(datatype, n, all ? combiner : NULL, 0, "MPI_Type_get_envelope");
    if (err == MPI_SUCCESS) {
        *num_integers = (int)n[0];
        *num_addresses = (int)n[1];
        *num_datatypes = (int)n[3];
    }
    return err;
}

static int contents(MPI_Datatype datatype, const MPI_Count max[4], int array_of_integers[],
                    MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                    MPI_Datatype array_of_datatypes[], int large, const char *fn)
{
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = query_dt(datatype, &dt, fn)))
        return err;
    if (dt->builtin)
        return rd_api_error(NULL, MPI_ERR_TYPE, fn,
                            "%s is predefined (MPI_COMBINER_NAMED): it has no contents", dt->name);
    if ((err = need_large(dt, large, fn)))
        return err;
    if (max[0] < dt->ni || max[1] < dt->na || max[2] < dt->nc || max[3] < dt->nt)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "the arrays hold %lld/%lld/%lld/%lld entries (integers, addresses, "
                            "large counts, types), the type needs %d/%d/%d/%d",
                            (long long)max[0], (long long)max[1], (long long)max[2],
                            (long long)max[3], dt->ni, dt->na, dt->nc, dt->nt);
    if ((dt->ni && !array_of_integers) || (dt->na && !array_of_addresses) ||
        (dt->nc && !array_of_large_counts) || (dt->nt && !array_of_datatypes))
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "an output array is NULL");
    if (dt->ni)
        memcpy(array_of_integers, dt->ints, (size_t)dt->ni * sizeof(int));
    for (int i = 0; i < dt->na; i++)
        array_of_addresses[i] = dt->aints[i];
    for (int i = 0; i < dt->nc; i++)
        array_of_large_counts[i] = dt->counts[i];
    rd_api_lock();
    /* Derived types come back as new references the caller frees (MPI-3.1 4.1.13). */
    for (int i = 0; i < dt->nt; i++) {
        rd_dt_ref(dt->types[i]);
        array_of_datatypes[i] = dt->types[i]->handle;
    }
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Type_get_contents)
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    MPI_Count max[4] = { max_integers, max_addresses, 0, max_datatypes };
    return contents(datatype, max, array_of_integers, array_of_addresses, NULL,
                    array_of_datatypes, 0, "MPI_Type_get_contents");
}

RD_WEAK_ALIAS(MPI_Type_get_envelope_c)
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    MPI_Count n[4];
    int all = num_integers && num_addresses && num_large_counts && num_datatypes;
    int err = envelope(datatype, n, all ? combiner : NULL, 1, "MPI_Type_get_envelope_c");
    if (err == MPI_SUCCESS) {
        *num_integers = n[0];
        *num_addresses = n[1];
        *num_large_counts = n[2];
        *num_datatypes = n[3];
    }
    return err;
}

RD_WEAK_ALIAS(MPI_Type_get_contents_c)
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses, MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    MPI_Count max[4] = { max_integers, max_addresses, max_large_counts, max_datatypes };
    return contents(datatype, max, array_of_integers, array_of_addresses, array_of_large_counts,
                    array_of_datatypes, 1, "MPI_Type_get_contents_c");
}
