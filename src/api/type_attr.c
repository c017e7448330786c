/*
 * Attributes on datatypes (MPI-3.1 6.7.4): MPI_Type_create_keyval /
 * free_keyval, MPI_Type_set_attr / get_attr / delete_attr, and the copy and
 * delete passes that MPI_Type_dup and MPI_Type_free run. The keyval and
 * attribute steps are the communicators' (api/attr.c) with the datatype as
 * the owner; errors go to MPI_COMM_WORLD's handler, as for every datatype
 * call.
 */
#include "api/type_attr.h"

#include "api/api.h"
#include "api/attr.h"

static rd_attr_owner_t type_owner(rd_datatype_t *dt)
{
    return (rd_attr_owner_t){ .kind = RD_OBJ_DATATYPE, .handle = dt->handle,
                              .attrs = &dt->attrs };
}

int rd_api_type_attr_copy(rd_datatype_t *old, rd_datatype_t *newt, const char *fn)
{
    rd_attr_owner_t o = type_owner(old), n = type_owner(newt);
    int err = rd_api_attr_owner_copy_all(&o, &n);
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    /* The copies made so far go with their delete callbacks. */
    rd_api_attr_owner_delete_all(&n);
    if (err == MPI_ERR_NO_MEM)
        return rd_api_error(NULL, err, fn, "out of memory copying attributes");
    if (err > 0 && err <= 0xff)
        return rd_api_error(NULL, err, fn, "an attribute copy callback returned error %d", err);
    return rd_api_raise(NULL, err, fn);
}

int rd_api_type_attr_delete_all(rd_datatype_t *dt, const char *fn)
{
    rd_attr_owner_t o = type_owner(dt);
    int err = rd_api_attr_owner_delete_all(&o);
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (err > 0 && err <= 0xff)
        return rd_api_error(NULL, err, fn, "an attribute delete callback returned error %d", err);
    return rd_api_raise(NULL, err, fn);
}

/* ---- keyvals ---- */

RD_WEAK_ALIAS(MPI_Type_create_keyval)
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn,
                            int *type_keyval, void *extra_state)
{
    /* Datatype and communicator callbacks differ only in the handle's C type. */
    return rd_api_attr_create_keyval(RD_OBJ_DATATYPE,
                                     (MPI_Comm_copy_attr_function *)type_copy_attr_fn,
                                     (MPI_Comm_delete_attr_function *)type_delete_attr_fn,
                                     type_keyval, extra_state, "MPI_Type_create_keyval");
}

RD_WEAK_ALIAS(MPI_Type_free_keyval)
int PMPI_Type_free_keyval(int *type_keyval)
{
    return rd_api_attr_free_keyval(RD_OBJ_DATATYPE, type_keyval, "MPI_Type_free_keyval");
}

/* ---- attributes ---- */

/* The datatype argument of an attribute call: any valid type, committed or
 * not, predefined or derived. */
static int attr_type(MPI_Datatype h, rd_datatype_t **dt, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if ((*dt = rd_api_dt(h)))
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_TYPE, fn,
                        h == MPI_DATATYPE_NULL ? "datatype is MPI_DATATYPE_NULL"
                                               : "invalid datatype handle 0x%x", (unsigned)h);
}

RD_WEAK_ALIAS(MPI_Type_set_attr)
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    static const char fn[] = "MPI_Type_set_attr";
    rd_datatype_t *dt;
    int err = attr_type(datatype, &dt, fn);
    if (err)
        return err;
    rd_attr_owner_t o = type_owner(dt);
    return rd_api_attr_set(&o, type_keyval, attribute_val, fn);
}

RD_WEAK_ALIAS(MPI_Type_get_attr)
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    static const char fn[] = "MPI_Type_get_attr";
    rd_datatype_t *dt;
    int err = attr_type(datatype, &dt, fn);
    if (err)
        return err;
    rd_attr_owner_t o = type_owner(dt);
    return rd_api_attr_get(&o, type_keyval, attribute_val, flag, fn);
}

RD_WEAK_ALIAS(MPI_Type_delete_attr)
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    static const char fn[] = "MPI_Type_delete_attr";
    rd_datatype_t *dt;
    int err = attr_type(datatype, &dt, fn);
    if (err)
        return err;
    rd_attr_owner_t o = type_owner(dt);
    return rd_api_attr_delete(&o, type_keyval, fn);
}
