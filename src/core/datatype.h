/*
 * Datatypes and the pack engine.
 *
 * A datatype describes where the bytes of one element lie relative to the
 * element's start and how far apart consecutive elements are (the extent).
 * p2p moves "packed" bytes: the data of every element in typemap order.
 *
 * The layout of one element is a small tree of immutable nodes:
 *   LEAF    len contiguous bytes at off, made of len/esize basic elements;
 *   REPEAT  count copies of a child, copy i at off + i*stride;
 *   LIST    children at their own displacements, one after another.
 * Every constructor maps onto these without expanding repetitions: a vector
 * of a million doubles is REPEAT(1000000, stride, LEAF(8)), two nodes. Nodes
 * are shared: a derived type points into its old types' trees and keeps
 * those types alive through the references it holds for MPI_Type_get_contents.
 *
 * Each node caches its packed size, its element count and whether its bytes
 * form one run in memory ("dense"), so that the walker (rd_dt_pack/unpack)
 * can start at any packed offset by division (REPEAT) or binary search
 * (LIST), copy dense subtrees with one memcpy, and never allocate.
 */
#ifndef RD_CORE_DATATYPE_H
#define RD_CORE_DATATYPE_H

#include <stddef.h>
#include <stdint.h>

#include "util/list.h"

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

enum rd_dt_kind { RD_DT_LEAF, RD_DT_REPEAT, RD_DT_LIST };

typedef struct rd_dt_node rd_dt_node_t;

/* One child of a LIST node. */
typedef struct rd_dt_entry {
    ptrdiff_t off;               /* displacement of the child */
    size_t start;                /* packed offset of the child within the list */
    long long estart;            /* basic elements before the child */
    const rd_dt_node_t *child;
} rd_dt_entry_t;

struct rd_dt_node {
    int kind;                    /* enum rd_dt_kind */
    int dense;                   /* the size packed bytes are memory [lo, lo+size), in order */
    size_t size;                 /* packed bytes */
    long long nelems;            /* basic elements (MPI_Get_elements) */
    ptrdiff_t lo, hi;            /* bounds of the data bytes (true lb / ub) */
    ptrdiff_t off;               /* LEAF, REPEAT: displacement */
    uint32_t esize;              /* LEAF: bytes per basic element */
    size_t count;                /* REPEAT: copies */
    ptrdiff_t stride;            /* REPEAT: bytes between copies */
    const rd_dt_node_t *child;   /* REPEAT */
    int n;                       /* LIST: entries (each of nonzero size) */
    rd_dt_entry_t *e;            /* LIST */
    rd_dt_node_t *next_owned;    /* the owning datatype's list of its nodes */
};

typedef struct rd_datatype rd_datatype_t;

struct rd_datatype {
    int handle;
    int refs;
    size_t size;               /* data bytes per element */
    ptrdiff_t lb, ub;          /* extent = ub - lb */
    ptrdiff_t true_lb, true_ub;
    int contig;                /* one run of size bytes at true_lb, and extent == size */
    int dense;                 /* one element is one run of size bytes at true_lb */
    int builtin;               /* predefined: never freed */
    int committed;
    int basic;                 /* predefined scalar kind (enum rd_basic), or -1 */
    size_t align;              /* alignment of the C data (pads MPI_Type_create_struct) */
    const rd_dt_node_t *root;  /* layout of one element */
    rd_dt_node_t *owned;       /* nodes allocated for this type (freed with it) */
    /* How it was built (MPI_Type_get_envelope / get_contents); the types are
     * referenced, which keeps the nodes root points into alive. */
    int combiner;              /* the API's MPI_COMBINER_* value */
    int ni, na, nt;
    int *ints;
    ptrdiff_t *aints;
    rd_datatype_t **types;
    int nc;                    /* large counts: built by an MPI-4.0 _c constructor */
    int64_t *counts;
    char name[64];
    /* Attributes cached by the API layer (MPI_Type_set_attr); it deletes
     * them when the user frees the type. */
    rd_list_t attrs;
};

static inline ptrdiff_t rd_dt_extent(const rd_datatype_t *dt) { return dt->ub - dt->lb; }

/* True when count elements of dt form one contiguous run of count*size bytes
 * starting at buf + true_lb. */
static inline int rd_dt_is_contig(const rd_datatype_t *dt, size_t count)
{
    return dt->contig || (count <= 1 && dt->dense);
}

/* Address of the first data byte of a contiguous (buf, count, dt). buf may be
 * MPI_BOTTOM (NULL) with true_lb an absolute address. */
static inline void *rd_dt_contig_ptr(const void *buf, const rd_datatype_t *dt)
{
    return (void *)((uintptr_t)buf + (uintptr_t)dt->true_lb);
}

/* Packs bytes [off, off+len) of the packed form of (buf, count, dt) into out.
 * off + len must not exceed count * dt->size. buf may be NULL (MPI_BOTTOM). */
void rd_dt_pack(const void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                void *out, size_t len);
/* The inverse: unpacks len packed bytes starting at packed offset off into (buf, count, dt). */
void rd_dt_unpack(void *buf, size_t count, const rd_datatype_t *dt, size_t off,
                  const void *in, size_t len);

/* Number of basic elements in the first nbytes of the packed form (MPI_Get_elements);
 * -1 when nbytes ends inside a basic element. */
long long rd_dt_elements(const rd_datatype_t *dt, size_t nbytes);

/* ---- construction ---- */

/* A new, empty derived datatype (refs 1, not committed, no layout). */
rd_datatype_t *rd_dt_new(void);
void rd_dt_ref(rd_datatype_t *dt);
void rd_dt_release(rd_datatype_t *dt);

/* Node constructors: the node belongs to owner (freed with it). NULL when out
 * of memory. They simplify: a one-copy REPEAT at 0 is its child, a REPEAT of
 * a LEAF whose copies touch is one longer LEAF. */
const rd_dt_node_t *rd_dt_leaf(rd_datatype_t *owner, ptrdiff_t off, size_t len, uint32_t esize);
const rd_dt_node_t *rd_dt_repeat(rd_datatype_t *owner, const rd_dt_node_t *child, size_t count,
                                 ptrdiff_t off, ptrdiff_t stride);
/* A LIST of n children at offs (empty children are dropped; one child left
 * becomes a shifted copy of it). */
const rd_dt_node_t *rd_dt_list(rd_datatype_t *owner, int n, const rd_dt_node_t *const *children,
                               const ptrdiff_t *offs);

/* Sets dt's layout to root and computes size, true bounds, contig and dense.
 * lb / ub must be set by the caller (before or after). */
void rd_dt_set_root(rd_datatype_t *dt, const rd_dt_node_t *root);

/* Records the construction arguments (copied; types referenced). 0 or -1 (no memory). */
int rd_dt_set_contents(rd_datatype_t *dt, int combiner, int ni, const int *ints, int na,
                       const ptrdiff_t *aints, int nt, rd_datatype_t *const *types);

/* Records the large counts of a type built by a large-count (_c)
 * constructor (copied), after rd_dt_set_contents. 0 or -1 (no memory). */
int rd_dt_set_counts(rd_datatype_t *dt, int nc, const int64_t *counts);

/* Number of nodes in dt's tree, counting shared nodes once per use (tests). */
size_t rd_dt_node_count(const rd_datatype_t *dt);

/* Plain bytes (MPI_BYTE): what internal collectives move. */
extern rd_datatype_t rd_dt_bytes;

#endif
