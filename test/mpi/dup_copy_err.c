/*
 * dup_copy_err: an attribute copy callback that fails makes MPI_Comm_dup
 * return its error (of class MPI_ERR_OTHER here) and set the new handle to
 * MPI_COMM_NULL (as MPICH does; MPICH's attr/attrerrcomm checks it).
 */
#include "mtest.h"

static int copy_fails(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 1;
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm c, d = MPI_COMM_WORLD;
    int key, cls = -1;
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MT_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    MT_OK(MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    MT_OK(MPI_Comm_set_attr(c, key, NULL));
    int err = MPI_Comm_dup(c, &d);
    MT_CHECK(err != MPI_SUCCESS, "MPI_Comm_dup succeeded with a failing copy callback");
    MPI_Error_class(err, &cls);
    MT_CHECK(cls == MPI_ERR_OTHER, "MPI_Comm_dup: error class %d, expected MPI_ERR_OTHER", cls);
    MT_CHECK(d == MPI_COMM_NULL, "MPI_Comm_dup: the new handle is not MPI_COMM_NULL on error");
    MT_OK(MPI_Comm_free(&c));
    MT_OK(MPI_Comm_free_keyval(&key));
    MT_CHECK(key == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval left the handle %d", key);
    return MTest_Finalize();
}
