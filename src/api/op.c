/*
 * Reduction operations: the predefined MPI_Op handles (registered at
 * MPI_Init under MPICH's values), MPI_Op_create / MPI_Op_free /
 * MPI_Op_commutative, and MPI_Reduce_local. The kernels are in core/op.c.
 */
#include "api/op.h"

#include <stdlib.h>

#include "api/api.h"

static rd_op_t builtin_ops[] = {
    { MPI_MAX, 1, RD_OP_MAX, 1, 1, NULL },
    { MPI_MIN, 1, RD_OP_MIN, 1, 1, NULL },
    { MPI_SUM, 1, RD_OP_SUM, 1, 1, NULL },
    { MPI_PROD, 1, RD_OP_PROD, 1, 1, NULL },
    { MPI_LAND, 1, RD_OP_LAND, 1, 1, NULL },
    { MPI_BAND, 1, RD_OP_BAND, 1, 1, NULL },
    { MPI_LOR, 1, RD_OP_LOR, 1, 1, NULL },
    { MPI_BOR, 1, RD_OP_BOR, 1, 1, NULL },
    { MPI_LXOR, 1, RD_OP_LXOR, 1, 1, NULL },
    { MPI_BXOR, 1, RD_OP_BXOR, 1, 1, NULL },
    { MPI_MINLOC, 1, RD_OP_MINLOC, 1, 1, NULL },
    { MPI_MAXLOC, 1, RD_OP_MAXLOC, 1, 1, NULL },
    { MPI_REPLACE, 1, RD_OP_REPLACE, 1, 1, NULL },
    { MPI_NO_OP, 1, RD_OP_NO_OP, 1, 1, NULL },
};

int rd_api_op_init(void)
{
    for (size_t i = 0; i < sizeof(builtin_ops) / sizeof(builtin_ops[0]); i++) {
        int rc = rd_handle_builtin_set(RD_OBJ_OP, builtin_ops[i].handle, &builtin_ops[i]);
        if (rc != RD_OK)
            return rc;
    }
    return RD_OK;
}

rd_op_t *rd_api_op(MPI_Op h)
{
    return rd_handle_get(RD_OBJ_OP, h);
}

void rd_api_op_ref(rd_op_t *op)
{
    if (!op->builtin)
        op->refs++;
}

void rd_api_op_release(rd_op_t *op)
{
    if (op->builtin || --op->refs > 0)
        return;
    rd_handle_free(op->handle);
    free(op);
}

/* Decodes an op argument, reporting MPI_ERR_OP on c's handler. */
int rd_api_check_op(rd_comm_t *c, MPI_Op h, const rd_datatype_t *dt, rd_op_t **op,
                    const char *fn)
{
    *op = rd_api_op(h);
    if (!*op)
        return rd_api_error(c, MPI_ERR_OP, fn,
                            h == MPI_OP_NULL ? "op is MPI_OP_NULL" : "invalid op handle 0x%x",
                            (unsigned)h);
    if (!dt)
        return MPI_SUCCESS;
    if ((*op)->kind == RD_OP_REPLACE || (*op)->kind == RD_OP_NO_OP)
        return rd_api_error(c, MPI_ERR_OP, fn, "MPI_REPLACE and MPI_NO_OP are for RMA only");
    if (!rd_op_valid(*op, dt))
        return rd_api_error(c, MPI_ERR_OP, fn, "the operation is not defined for datatype %s",
                            dt->name[0] ? dt->name : "(derived)");
    return MPI_SUCCESS;
}

/* MPI_Op_create, or MPI_Op_create_c (large: user_fn is an MPI_User_function_c). */
static int op_create(void (*user_fn)(void), int large, int commute, MPI_Op *op, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (!user_fn)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "user function is NULL");
    if (!op)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "op pointer is NULL");
    rd_op_t *o = calloc(1, sizeof(*o));
    if (!o)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for an op");
    o->refs = 1;
    o->kind = RD_OP_USER;
    o->commute = commute != 0;
    o->fn = (rd_op_user_fn)user_fn;
    o->large = large;
    rd_api_lock();
    o->handle = rd_handle_alloc(RD_OBJ_OP, o);
    rd_api_unlock();
    if (!o->handle) {
        free(o);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for an op handle");
    }
    *op = o->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Op_create)
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return op_create((void (*)(void))user_fn, 0, commute, op, "MPI_Op_create");
}

RD_WEAK_ALIAS(MPI_Op_create_c)
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return op_create((void (*)(void))user_fn, 1, commute, op, "MPI_Op_create_c");
}

RD_WEAK_ALIAS(MPI_Op_free)
int PMPI_Op_free(MPI_Op *op)
{
    static const char fn[] = "MPI_Op_free";
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if (!op)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "op pointer is NULL");
    if ((err = rd_api_check_op(NULL, *op, NULL, &o, fn)))
        return err;
    if (o->builtin)
        return rd_api_error(NULL, MPI_ERR_OP, fn, "predefined operations cannot be freed");
    rd_api_lock();
    /* Nonblocking reductions still running hold their own reference. */
    rd_api_op_release(o);
    rd_api_unlock();
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Op_commutative)
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    static const char fn[] = "MPI_Op_commutative";
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_op(NULL, op, NULL, &o, fn)))
        return err;
    if (!commute)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "commute pointer is NULL");
    *commute = o->commute;
    return MPI_SUCCESS;
}

static int reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, const char *fn)
{
    rd_datatype_t *dt;
    rd_op_t *o;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_count(NULL, count, fn)) ||
        (err = rd_api_check_dt(NULL, datatype, &dt, fn)) || (err = rd_api_check_op(NULL, op, NULL, &o, fn)))
        return err;
    if (!rd_op_valid(o, dt))
        return rd_api_error(NULL, MPI_ERR_OP, fn, "the operation is not defined for %s", dt->name);
    if (count > 0 && (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE))
        return rd_api_error(NULL, MPI_ERR_BUFFER, fn, "MPI_IN_PLACE is not allowed here");
    if ((err = rd_api_check_buf(NULL, inbuf, count, dt, fn)) ||
        (err = rd_api_check_buf(NULL, inoutbuf, count, dt, fn)))
        return err;
    rd_op_apply(o, inbuf, inoutbuf, (size_t)count, dt);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Reduce_local)
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local");
}

RD_WEAK_ALIAS(MPI_Reduce_local_c)
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local_c");
}
