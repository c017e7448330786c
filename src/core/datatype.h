/*
 * Datatypes and the pack engine.
 *
 * A datatype describes where the bytes of one element lie relative to the
 * element's start (a list of blocks in typemap order) and how far apart
 * consecutive elements are (the extent). p2p moves "packed" bytes: the
 * concatenation of every block of every element. Contiguous types (all
 * predefined scalars) take a memcpy fast path; others are walked block by
 * block, never allocating. Derived-type constructors (MPI_Type_vector & co.)
 * build on the same representation.
 */
#ifndef RD_CORE_DATATYPE_H
#define RD_CORE_DATATYPE_H

#include <stddef.h>
#include <stdint.h>

/* What a predefined type holds, for reductions: the operation code needs the
 * C type, not only the size. */
enum rd_basic {
    RD_BASIC_NONE = -1,   /* derived, or bytes with no arithmetic (MPI_BYTE, MPI_PACKED) */
    RD_BASIC_INT8, RD_BASIC_INT16, RD_BASIC_INT32, RD_BASIC_INT64,
    RD_BASIC_UINT8, RD_BASIC_UINT16, RD_BASIC_UINT32, RD_BASIC_UINT64,
    RD_BASIC_FLOAT, RD_BASIC_DOUBLE, RD_BASIC_LONG_DOUBLE,
    RD_BASIC_C_FLOAT_COMPLEX, RD_BASIC_C_DOUBLE_COMPLEX, RD_BASIC_C_LONG_DOUBLE_COMPLEX,
    RD_BASIC_BOOL,        /* C _Bool, 1 byte */
    RD_BASIC_FLOGICAL,    /* Fortran LOGICAL, an int */
    RD_BASIC_CHAR,        /* characters: no arithmetic, but MPI_CHAR etc. */
    RD_BASIC_PAIR_FLOAT_INT, RD_BASIC_PAIR_DOUBLE_INT, RD_BASIC_PAIR_LONG_INT,
    RD_BASIC_PAIR_SHORT_INT, RD_BASIC_PAIR_LONG_DOUBLE_INT, RD_BASIC_PAIR_INT_INT,
    RD_BASIC_PAIR_FLOAT_FLOAT, RD_BASIC_PAIR_DOUBLE_DOUBLE,
};

typedef struct rd_dt_block {
    ptrdiff_t off;       /* byte offset from the element start */
    size_t len;          /* bytes */
    uint32_t esize;      /* size of the basic elements in this block (Get_elements) */
} rd_dt_block_t;

typedef struct rd_datatype {
    int handle;
    int refs;
    size_t size;               /* data bytes per element */
    ptrdiff_t lb, ub;          /* extent = ub - lb */
    ptrdiff_t true_lb, true_ub;
    int contig;                /* one block of size bytes at true_lb, and extent == size */
    int builtin;               /* predefined: never freed */
    int committed;
    int basic;                 /* predefined scalar kind (enum in api), or -1 */
    int nblocks;
    rd_dt_block_t *blocks;     /* layout of one element */
    char name[64];
} rd_datatype_t;

static inline ptrdiff_t rd_dt_extent(const rd_datatype_t *dt) { return dt->ub - dt->lb; }

/* True when count elements of dt form one contiguous run of count*size bytes
 * starting at buf + true_lb. */
static inline int rd_dt_is_contig(const rd_datatype_t *dt, size_t count)
{
    return dt->contig || (count <= 1 && dt->nblocks <= 1);
}

/* Address of the first data byte of a contiguous (buf, count, dt). */
static inline void *rd_dt_contig_ptr(const void *buf, const rd_datatype_t *dt)
{
    return (char *)buf + dt->true_lb;
}

/* Packs bytes [off, off+len) of the packed form of (buf, count, dt) into out.
 * off + len must not exceed count * dt->size. */
void rd_dt_pack(const void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                void *out, size_t len);
/* The inverse: unpacks len packed bytes starting at packed offset off into (buf, count, dt). */
void rd_dt_unpack(void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                  const void *in, size_t len);

/* Number of basic elements in the first nbytes of the packed form (MPI_Get_elements);
 * -1 when nbytes ends inside a basic element. */
long long rd_dt_elements(const rd_datatype_t *dt, size_t nbytes);

/* A new datatype with n blocks; refs 1, not committed. */
rd_datatype_t *rd_dt_new(int nblocks);
void rd_dt_ref(rd_datatype_t *dt);
void rd_dt_release(rd_datatype_t *dt);
/* Recomputes size, true bounds and contig from the blocks and lb/ub. */
void rd_dt_finish(rd_datatype_t *dt);

/* Plain bytes (MPI_BYTE): what internal collectives move. */
extern rd_datatype_t rd_dt_bytes;

#endif
