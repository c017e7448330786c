/*
 * comm_attr: communicator attributes. Replacing a value runs the delete
 * callback on the old one; deleting runs it once and a second delete is a
 * no-op; freeing the communicator runs it for what is still set. Setting or
 * deleting a predefined attribute (MPI_TAG_UB) gives MPI_ERR_KEYVAL, and a
 * failing delete callback's error reaches the caller.
 */
#include "err_common.h"

static int deletes;          /* delete callback calls */
static void *last_deleted;   /* the value it was given last */
static int refuse;           /* the callback fails */

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    if (refuse)
        return MPI_ERR_OTHER;
    deletes++;
    last_deleted = value;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int a = 1, b = 2, flag, kv;
    void *got;
    MPI_Comm c;

    MTest_Init(&argc, &argv);
    errors_return();
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &kv, NULL));

    MT_OK(MPI_Comm_set_attr(c, kv, &a));
    MT_CHECK(deletes == 0, "delete callback ran %d times on a first set", deletes);
    MT_OK(MPI_Comm_set_attr(c, kv, &b));
    MT_CHECK(deletes == 1 && last_deleted == &a,
             "replacing a value: %d delete calls, want 1 on the old value", deletes);
    MT_OK(MPI_Comm_get_attr(c, kv, &got, &flag));
    MT_CHECK(flag && got == &b, "get after replace: flag %d", flag);

    MT_OK(MPI_Comm_delete_attr(c, kv));
    MT_CHECK(deletes == 2 && last_deleted == &b, "delete: %d delete calls, want 2", deletes);
    MT_OK(MPI_Comm_get_attr(c, kv, &got, &flag));
    MT_CHECK(!flag, "the attribute is still set after delete");
    MT_OK(MPI_Comm_delete_attr(c, kv));
    MT_CHECK(deletes == 2, "deleting an unset attribute ran the callback");

    MT_ERRCLASS(MPI_Comm_set_attr(c, MPI_TAG_UB, &a), MPI_ERR_KEYVAL, "set MPI_TAG_UB");
    MT_ERRCLASS(MPI_Comm_delete_attr(c, MPI_TAG_UB), MPI_ERR_KEYVAL, "delete MPI_TAG_UB");

    /* A delete callback that fails: its error comes back, from set (which
     * replaces) and from delete, and the value stays. */
    MT_OK(MPI_Comm_set_attr(c, kv, &a));
    refuse = 1;
    MT_CHECK(MPI_Comm_set_attr(c, kv, &b) != MPI_SUCCESS,
             "set over a value whose delete callback fails succeeded");
    MT_CHECK(MPI_Comm_delete_attr(c, kv) != MPI_SUCCESS,
             "delete of a value whose delete callback fails succeeded");
    refuse = 0;
    MT_OK(MPI_Comm_get_attr(c, kv, &got, &flag));
    MT_CHECK(flag && got == &a, "the value changed although its delete callback failed");

    /* Freeing the communicator deletes what is still set. */
    MT_OK(MPI_Comm_free_keyval(&kv));
    MT_OK(MPI_Comm_free(&c));
    MT_CHECK(deletes == 3 && last_deleted == &a, "MPI_Comm_free: %d delete calls, want 3",
             deletes);

    MTest_Check_comm_works(MPI_COMM_WORLD, "MPI_COMM_WORLD after the attribute errors");
    return MTest_Finalize();
}
