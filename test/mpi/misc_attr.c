/*
 * misc_attr: attributes on datatypes (MPI_Type_create_keyval, set / get /
 * delete, MPI_Type_free_keyval), on predefined and derived types: the copy
 * callback runs on MPI_Type_dup (its flag decides whether the duplicate gets
 * the value), the delete callback on delete, on replacement and on
 * MPI_Type_free; a failing copy callback makes MPI_Type_dup fail with
 * MPI_DATATYPE_NULL; a failing delete callback makes delete fail and keeps
 * the attribute. A keyval freed while attributes still use it stays usable
 * for get and delete on them (datatypes and communicators) and freeing it
 * again is harmless; setting with it fails. Argument errors: invalid keyval,
 * a communicator keyval on a type, a NULL flag, an invalid type.
 */
#include "mtest.h"

static int copies, deletes, fail_copy, fail_delete;
static MPI_Aint last_deleted;

static int copy_fn(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)keyval;
    copies++;
    if (fail_copy)
        return MPI_ERR_OTHER;
    *(MPI_Aint *)out = (MPI_Aint)in + *(MPI_Aint *)extra;
    *flag = (MPI_Aint)in != 99;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype t, int keyval, void *value, void *extra)
{
    (void)t, (void)keyval, (void)extra;
    deletes++;
    last_deleted = (MPI_Aint)value;
    return fail_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int comm_deletes;
static int comm_delete_fn(MPI_Comm c, int keyval, void *value, void *extra)
{
    (void)c, (void)keyval, (void)value, (void)extra;
    comm_deletes++;
    return MPI_SUCCESS;
}

static MPI_Aint get(MPI_Datatype t, int key, int *flag)
{
    void *v = NULL;
    *flag = -1;
    MT_OK(MPI_Type_get_attr(t, key, &v, flag));
    return (MPI_Aint)v;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Aint extra = 1000;
    int key, key2, flag;
    MPI_Datatype vec, dup, dup2;

    MT_OK(MPI_Type_create_keyval(copy_fn, delete_fn, &key, &extra));
    MT_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key2, NULL));
    MT_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));

    get(vec, key, &flag);
    MT_CHECK(flag == 0, "attribute set before any set_attr");
    MT_OK(MPI_Type_set_attr(vec, key, (void *)(MPI_Aint)7));
    MT_OK(MPI_Type_set_attr(vec, key2, (void *)(MPI_Aint)8));
    MT_CHECK(get(vec, key, &flag) == 7 && flag == 1, "get after set");
    MT_CHECK(get(vec, key2, &flag) == 8 && flag == 1, "get key2 after set");

    /* Replacing runs the delete callback on the old value. */
    MT_OK(MPI_Type_set_attr(vec, key, (void *)(MPI_Aint)17));
    MT_CHECK(deletes == 1 && last_deleted == 7, "replace: deletes %d last %ld", deletes,
             (long)last_deleted);

    /* Dup: copy callback adds extra; the null copy function copies nothing. */
    MT_OK(MPI_Type_dup(vec, &dup));
    MT_CHECK(copies == 1, "copy callback ran %d times", copies);
    MT_CHECK(get(dup, key, &flag) == 1017 && flag == 1, "dup's copied value");
    get(dup, key2, &flag);
    MT_CHECK(flag == 0, "MPI_TYPE_NULL_COPY_FN attribute copied");

    /* A copy callback that declines (flag 0). */
    MT_OK(MPI_Type_set_attr(dup, key, (void *)(MPI_Aint)99));
    MT_OK(MPI_Type_dup(dup, &dup2));
    get(dup2, key, &flag);
    MT_CHECK(flag == 0, "declined copy is set on the duplicate");
    MT_OK(MPI_Type_free(&dup2));

    /* A failing copy callback: no new type. */
    fail_copy = 1;
    dup2 = MPI_INT;
    MT_CHECK(MPI_Type_dup(vec, &dup2) != MPI_SUCCESS, "dup with failing copy succeeded");
    MT_CHECK(dup2 == MPI_DATATYPE_NULL, "dup with failing copy: newtype not MPI_DATATYPE_NULL");
    fail_copy = 0;

    /* Delete, then a failing delete callback keeps the attribute. */
    deletes = 0;
    MT_OK(MPI_Type_delete_attr(dup, key));
    MT_CHECK(deletes == 1 && last_deleted == 99, "delete: deletes %d last %ld", deletes,
             (long)last_deleted);
    get(dup, key, &flag);
    MT_CHECK(flag == 0, "attribute still there after delete");
    MT_OK(MPI_Type_set_attr(dup, key, (void *)(MPI_Aint)5));
    fail_delete = 1;
    MT_CHECK(MPI_Type_delete_attr(dup, key) != MPI_SUCCESS, "failing delete callback succeeded");
    MT_CHECK(get(dup, key, &flag) == 5 && flag == 1, "attribute gone after failed delete");
    fail_delete = 0;

    /* Type_free deletes the attributes. */
    deletes = 0;
    MT_OK(MPI_Type_free(&dup));
    MT_CHECK(deletes == 1 && last_deleted == 5, "free of dup: deletes %d", deletes);

    /* Attributes on a predefined type. */
    MT_OK(MPI_Type_set_attr(MPI_DOUBLE, key2, (void *)(MPI_Aint)3));
    MT_CHECK(get(MPI_DOUBLE, key2, &flag) == 3 && flag == 1, "attribute on MPI_DOUBLE");
    MT_OK(MPI_Type_delete_attr(MPI_DOUBLE, key2));

    /* A keyval freed while vec still has an attribute with it. */
    MT_OK(MPI_Type_free_keyval(&key2));
    int key_copy = key;
    MT_OK(MPI_Type_free_keyval(&key));
    MT_CHECK(key == MPI_KEYVAL_INVALID, "freed keyval not MPI_KEYVAL_INVALID");
    MT_CHECK(get(vec, key_copy, &flag) == 17 && flag == 1, "get with a freed keyval in use");
    MT_CHECK(MPI_Type_set_attr(MPI_INT, key_copy, NULL) != MPI_SUCCESS,
             "set with a freed keyval succeeded");
    int key_again = key_copy;   /* freeing again while in use: nothing happens */
    MT_OK(MPI_Type_free_keyval(&key_again));
    deletes = 0;
    MT_OK(MPI_Type_free(&vec));
    MT_CHECK(deletes == 1 && last_deleted == 17, "free of vec: deletes %d last %ld", deletes,
             (long)last_deleted);

    /* The same for communicators: delete after the keyval was freed. */
    int ckey, ckey_copy;
    MPI_Comm comm;
    MT_OK(MPI_Comm_dup(MPI_COMM_SELF, &comm));
    MT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete_fn, &ckey, NULL));
    ckey_copy = ckey;
    MT_OK(MPI_Comm_set_attr(comm, ckey, (void *)(MPI_Aint)1));
    MT_OK(MPI_Comm_free_keyval(&ckey));
    MT_OK(MPI_Comm_delete_attr(comm, ckey_copy));
    MT_CHECK(comm_deletes == 1, "comm delete callback ran %d times", comm_deletes);
    MT_OK(MPI_Comm_free(&comm));

    /* Argument errors. */
    int ikey;
    void *v;
    MT_ERRCLASS(MPI_Type_get_attr(MPI_INT, MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL,
                "get with MPI_KEYVAL_INVALID");
    MT_ERRCLASS(MPI_Type_set_attr(MPI_INT, 12345, NULL), MPI_ERR_KEYVAL, "set with keyval 12345");
    MT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL));
    MT_ERRCLASS(MPI_Type_set_attr(MPI_INT, ckey, NULL), MPI_ERR_KEYVAL,
                "a communicator keyval on a type");
    MT_ERRCLASS(MPI_Type_free_keyval(&ckey), MPI_ERR_KEYVAL, "Type_free_keyval of a comm keyval");
    MT_OK(MPI_Comm_free_keyval(&ckey));
    MT_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &ikey, NULL));
    MT_ERRCLASS(MPI_Type_get_attr(MPI_INT, ikey, &v, NULL), MPI_ERR_ARG, "NULL flag");
    MT_ERRCLASS(MPI_Type_set_attr(MPI_DATATYPE_NULL, ikey, NULL), MPI_ERR_TYPE,
                "MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL),
                MPI_ERR_ARG, "NULL keyval pointer");
    /* MPI_TYPE_DUP_FN copies the value. */
    MT_OK(MPI_Type_set_attr(MPI_INT, ikey, (void *)(MPI_Aint)42));
    MT_OK(MPI_Type_dup(MPI_INT, &dup));
    MT_CHECK(get(dup, ikey, &flag) == 42 && flag == 1, "MPI_TYPE_DUP_FN copy");
    MT_OK(MPI_Type_free(&dup));
    MT_OK(MPI_Type_delete_attr(MPI_INT, ikey));
    MT_OK(MPI_Type_free_keyval(&ikey));
    return MTest_Finalize();
}
