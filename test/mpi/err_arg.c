/*
 * err_arg: invalid arguments of no more specific class give MPI_ERR_ARG
 * with MPI_ERRORS_RETURN: NULL request array in Waitall, NULL output
 * pointers (Comm_rank, Comm_size, Comm_split, Get_count), a negative
 * Buffer_attach size, MPI_ERRHANDLER_NULL / a garbage errhandler in
 * Comm_set_errhandler (MPI-3.1 has no errhandler class; MPI-4's
 * MPI_ERR_ERRHANDLER is accepted when mpi.h defines it), Errhandler_free of
 * MPI_ERRHANDLER_NULL. A negative array count in Waitall/Testall/Waitany
 * gives MPI_ERR_COUNT (what MPICH returns) or MPI_ERR_ARG.
 * Communication continues correctly after each.
 */
#include "err_common.h"

static void check_arg_or(int rc, int other, const char *what)
{
    int cls = rc == MPI_SUCCESS ? MPI_SUCCESS : MTest_Errclass(rc);

    MT_CHECK(rc != MPI_SUCCESS && (cls == MPI_ERR_ARG || cls == other),
             "%s: class %d (%s), expected MPI_ERR_ARG (%d) or %d", what, cls,
             rc == MPI_SUCCESS ? "success" : MTest_Errstr(rc), MPI_ERR_ARG, other);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MPI_Request reqs[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    MPI_Status st;
    int x, flag;
    MPI_Errhandler eh;
#ifdef MPI_ERR_ERRHANDLER
    const int errh_class = MPI_ERR_ERRHANDLER;
#else
    const int errh_class = MPI_ERR_ARG;
#endif

    MT_ERRCLASS(MPI_Waitall(2, NULL, MPI_STATUSES_IGNORE), MPI_ERR_ARG, "Waitall(2, NULL)");
    MT_ERRCLASS(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "Comm_rank(NULL)");
    MT_ERRCLASS(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "Comm_size(NULL)");
    MT_ERRCLASS(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, NULL), MPI_ERR_ARG, "Comm_split(NULL)");
    MTest_Check_comm_works(MPI_COMM_WORLD, "NULL output arguments");
    st.MPI_SOURCE = st.MPI_TAG = 0;
    MT_ERRCLASS(MPI_Get_count(&st, MPI_INT, NULL), MPI_ERR_ARG, "Get_count(NULL)");
    MT_ERRCLASS(MPI_Buffer_attach(&x, -1), MPI_ERR_ARG, "Buffer_attach(size -1)");

    check_arg_or(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), errh_class,
                 "Comm_set_errhandler(MPI_ERRHANDLER_NULL)");
#if GARBAGE_HANDLES
    check_arg_or(MPI_Comm_set_errhandler(MPI_COMM_WORLD, (MPI_Errhandler)GARBAGE_INT),
                 errh_class, "Comm_set_errhandler(garbage)");
#endif
    eh = MPI_ERRHANDLER_NULL;
    check_arg_or(MPI_Errhandler_free(&eh), errh_class, "Errhandler_free(MPI_ERRHANDLER_NULL)");
    /* the handler in place is still MPI_ERRORS_RETURN */
    MT_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    MT_CHECK(eh == MPI_ERRORS_RETURN, "errhandler changed by a failed Comm_set_errhandler");
    MTest_Check_comm_works(MPI_COMM_WORLD, "invalid errhandlers");

    check_arg_or(MPI_Waitall(-1, reqs, MPI_STATUSES_IGNORE), MPI_ERR_COUNT, "Waitall(-1)");
    check_arg_or(MPI_Testall(-1, reqs, &flag, MPI_STATUSES_IGNORE), MPI_ERR_COUNT, "Testall(-1)");
    check_arg_or(MPI_Waitany(-1, reqs, &x, &st), MPI_ERR_COUNT, "Waitany(-1)");
    MTest_Check_comm_works(MPI_COMM_WORLD, "negative array counts");
    return MTest_Finalize();
}
