/*
 * keyval_refree: a communicator or window keyval freed by the user lives on
 * while attributes hold it, and freeing it again meanwhile (in its delete
 * callback, or through a copy of the handle) succeeds and does nothing, as
 * in MPICH (attr/keyval_double_free*). Once the last attribute is gone, the
 * handle is dead: freeing it is MPI_ERR_KEYVAL.
 */
#include "mtest.h"

static int comm_deletes, win_deletes;

static int comm_del(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)value, (void)extra;
    comm_deletes++;
    return MPI_Comm_free_keyval(&keyval);
}

static int win_del(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)value, (void)extra;
    win_deletes++;
    return MPI_Win_free_keyval(&keyval);
}

static void comm_case(void)
{
    MPI_Comm d, last;
    int key, copy, copy2;
    MT_OK(MPI_Comm_dup(MPI_COMM_SELF, &d));
    MT_OK(MPI_Comm_dup(MPI_COMM_SELF, &last));
    MT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &key, NULL));
    copy = copy2 = key;
    MT_OK(MPI_Comm_set_attr(last, key, NULL));
    MT_OK(MPI_Comm_set_attr(d, key, NULL));
    MT_OK(MPI_Comm_free(&d)); /* first free, in the callback */
    MT_OK(MPI_Comm_free_keyval(&key));
    MT_CHECK(key == MPI_KEYVAL_INVALID, "Comm_free_keyval left the handle %d", key);
    MT_OK(MPI_Comm_free_keyval(&copy));
    MT_OK(MPI_Comm_free(&last)); /* the last attribute: the callback frees it again */
    MT_CHECK(comm_deletes == 2, "%d comm delete callbacks, expected 2", comm_deletes);
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_ERRCLASS(MPI_Comm_free_keyval(&copy2), MPI_ERR_KEYVAL, "freeing a dead keyval");
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void win_case(void)
{
    MPI_Win w;
    int buf, key, copy;
    MT_OK(MPI_Win_create(&buf, sizeof(buf), 1, MPI_INFO_NULL, MPI_COMM_SELF, &w));
    MT_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &key, NULL));
    copy = key;
    MT_OK(MPI_Win_set_attr(w, key, NULL));
    MT_OK(MPI_Win_free_keyval(&key));
    MT_CHECK(key == MPI_KEYVAL_INVALID, "Win_free_keyval left the handle %d", key);
    MT_OK(MPI_Win_free_keyval(&copy)); /* again, while the attribute holds it */
    MT_OK(MPI_Win_free(&w));           /* the callback frees it a third time */
    MT_CHECK(win_deletes == 1, "%d window delete callbacks, expected 1", win_deletes);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    comm_case();
    win_case();
    return MTest_Finalize();
}
