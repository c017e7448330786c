/*
 * Reduction operations: the predefined ones (MPI_SUM ... MPI_MAXLOC) as
 * kernels per basic type, and user functions from MPI_Op_create. Collectives
 * combine buffers only through rd_op_apply.
 */
#ifndef RD_CORE_OP_H
#define RD_CORE_OP_H

#include <stddef.h>

#include "core/datatype.h"

enum rd_op_kind {
    RD_OP_MAX, RD_OP_MIN, RD_OP_SUM, RD_OP_PROD,
    RD_OP_LAND, RD_OP_BAND, RD_OP_LOR, RD_OP_BOR, RD_OP_LXOR, RD_OP_BXOR,
    RD_OP_MINLOC, RD_OP_MAXLOC, RD_OP_REPLACE, RD_OP_NO_OP,
    RD_OP_USER,
};

/* The user's function, called as MPI_User_function (in, inout, len, datatype). */
typedef void (*rd_op_user_fn)(void *in, void *inout, int *len, int *datatype_handle);
/* The large-count form (MPI_User_function_c): the length is an MPI_Count. */
typedef void (*rd_op_user_c_fn)(void *in, void *inout, int64_t *len, int *datatype_handle);

typedef struct rd_op {
    int handle;
    int refs;
    int kind;             /* enum rd_op_kind */
    int commute;          /* commutative: algorithms may reorder operands */
    int builtin;
    rd_op_user_fn fn;     /* RD_OP_USER */
    int large;            /* RD_OP_USER: fn is an rd_op_user_c_fn (MPI_Op_create_c) */
} rd_op_t;

/* Whether op is defined for dt (predefined ops on predefined types, MPI-3.1 5.9.2;
 * user ops on anything). */
int rd_op_valid(const rd_op_t *op, const rd_datatype_t *dt);

/* inout[i] = in[i] op inout[i] for count elements of dt, both laid out as dt
 * describes (typically contiguous). */
void rd_op_apply(const rd_op_t *op, const void *in, void *inout, size_t count,
                 const rd_datatype_t *dt);

#endif
