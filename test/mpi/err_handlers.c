/*
 * err_handlers: error handlers and error codes.
 * COMM_WORLD starts with MPI_ERRORS_ARE_FATAL; Comm_set/get_errhandler
 * round-trip MPI_ERRORS_RETURN; a user handler (Comm_create_errhandler) is
 * called with the communicator the error happened on and the error code,
 * and the failing call then returns that code; Comm_dup inherits the
 * handler; a handler freed with Errhandler_free stays in use while attached;
 * handlers are per communicator (COMM_SELF keeps its own).
 * Error_class maps every class to itself; Error_string is non-empty for
 * every class, and different for different classes; MPI_ERR_LASTCODE is not
 * below any class.
 */
#include "err_common.h"

#include <string.h>

static int calls;
static MPI_Comm last_comm;
static int last_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    last_comm = *comm;
    last_code = *code;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Errhandler eh, user;
    MPI_Comm dup, dup2;
    int v = 1, rc, res;

    MT_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    MT_CHECK(eh == MPI_ERRORS_ARE_FATAL, "default errhandler of COMM_WORLD is not "
             "MPI_ERRORS_ARE_FATAL");
    MT_OK(MPI_Errhandler_free(&eh));
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    MT_CHECK(eh == MPI_ERRORS_RETURN, "get_errhandler after setting MPI_ERRORS_RETURN");
    MT_OK(MPI_Errhandler_free(&eh));
    MT_CHECK(eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not set MPI_ERRHANDLER_NULL");
    /* COMM_SELF keeps its own handler */
    MT_OK(MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh));
    MT_CHECK(eh == MPI_ERRORS_ARE_FATAL, "COMM_SELF errhandler changed with COMM_WORLD's");
    MT_OK(MPI_Errhandler_free(&eh));

    /* user handler on a dup */
    MT_OK(MPI_Comm_create_errhandler(handler, &user));
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_OK(MPI_Comm_set_errhandler(dup, user));
    MT_OK(MPI_Comm_get_errhandler(dup, &eh));
    MT_CHECK(eh == user, "get_errhandler does not return the user handler");
    MT_OK(MPI_Errhandler_free(&eh));
    calls = 0;
    rc = MPI_Send(&v, 1, MPI_INT, MTest_size, 0, dup);
    MT_CHECK(calls == 1, "user handler called %d times, expected 1", calls);
    MT_OK(MPI_Comm_compare(last_comm, dup, &res));
    MT_CHECK(res == MPI_IDENT, "user handler got a different communicator (compare %d)", res);
    MT_CHECK(MTest_Errclass(last_code) == MPI_ERR_RANK, "user handler got class %d, expected "
             "MPI_ERR_RANK", MTest_Errclass(last_code));
    MT_CHECK(rc == last_code, "Send returned %d, the handler got %d", rc, last_code);

    /* freed while attached: still called; inherited by Comm_dup */
    MT_OK(MPI_Errhandler_free(&user));
    MT_CHECK(user == MPI_ERRHANDLER_NULL, "Errhandler_free did not null the user handler");
    MT_OK(MPI_Comm_dup(dup, &dup2));
    calls = 0;
    rc = MPI_Recv(&v, 1, MPI_INT, 0, -7, dup2, MPI_STATUS_IGNORE);
    MT_CHECK(calls == 1 && MTest_Errclass(last_code) == MPI_ERR_TAG && rc == last_code,
             "handler inherited by Comm_dup: calls %d class %d", calls,
             MTest_Errclass(last_code));
    MT_OK(MPI_Comm_compare(last_comm, dup2, &res));
    MT_CHECK(res == MPI_IDENT, "inherited handler got a different communicator");
    rc = MPI_Send(&v, -1, MPI_INT, 0, 0, dup);
    MT_CHECK(calls == 2 && MTest_Errclass(last_code) == MPI_ERR_COUNT,
             "freed handler: calls %d class %d", calls, MTest_Errclass(last_code));
    /* no error, no call */
    MTest_Check_comm_works(dup, "user handler calls");
    MT_CHECK(calls == 2, "user handler called without an error (%d)", calls);
    MT_OK(MPI_Comm_free(&dup2));
    MT_OK(MPI_Comm_free(&dup));

    /* error classes and strings */
    {
        static const int classes[] = {
            MPI_SUCCESS, MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG,
            MPI_ERR_COMM, MPI_ERR_RANK, MPI_ERR_REQUEST, MPI_ERR_ROOT, MPI_ERR_GROUP,
            MPI_ERR_OP, MPI_ERR_TOPOLOGY, MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_UNKNOWN,
            MPI_ERR_TRUNCATE, MPI_ERR_OTHER, MPI_ERR_INTERN, MPI_ERR_IN_STATUS,
            MPI_ERR_PENDING,
        };
        enum { NC = sizeof classes / sizeof classes[0] };
        static char str[NC][MPI_MAX_ERROR_STRING];
        int lastcode = MPI_ERR_LASTCODE;
        for (int i = 0; i < NC; i++) {
            int cls = -1, len = -1;
            MT_OK(MPI_Error_class(classes[i], &cls));
            MT_CHECK(cls == classes[i], "Error_class(%d) = %d", classes[i], cls);
            MT_CHECK(classes[i] <= lastcode, "class %d above MPI_ERR_LASTCODE %d", classes[i],
                     lastcode);
            MT_OK(MPI_Error_string(classes[i], str[i], &len));
            MT_CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (int)strlen(str[i]) == len,
                     "Error_string(%d): length %d strlen %zu", classes[i], len, strlen(str[i]));
            for (int j = 0; j < i; j++)
                MT_CHECK(strcmp(str[i], str[j]) != 0, "classes %d and %d have the same "
                         "string '%s'", classes[i], classes[j], str[i]);
        }
        /* the string of a returned code is non-empty too */
        MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        rc = MPI_Send(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD);
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MT_OK(MPI_Error_string(rc, s, &len));
        MT_CHECK(rc != MPI_SUCCESS && len > 0, "Error_string of a returned code: length %d", len);
    }
    MTest_Check_comm_works(MPI_COMM_WORLD, "error handlers");
    return MTest_Finalize();
}
