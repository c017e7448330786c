/*
 * err_request: invalid requests give MPI_ERR_REQUEST with MPI_ERRORS_RETURN:
 * a garbage handle in Wait and Test, Request_free(MPI_REQUEST_NULL), Start of
 * a non-persistent request, Start of MPI_REQUEST_NULL. The valid request
 * involved still completes; communication continues.
 */
#include "err_common.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MPI_Request r;
    int flag, v = 5, w = -1;

#if GARBAGE_HANDLES
    r = (MPI_Request)GARBAGE_INT;
    MT_ERRCLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "Wait(garbage request)");
    r = (MPI_Request)GARBAGE_INT;
    MT_ERRCLASS(MPI_Test(&r, &flag, MPI_STATUS_IGNORE), MPI_ERR_REQUEST, "Test(garbage request)");
    MTest_Check_comm_works(MPI_COMM_WORLD, "garbage requests");
#endif
    r = MPI_REQUEST_NULL;
    MT_ERRCLASS(MPI_Request_free(&r), MPI_ERR_REQUEST, "Request_free(MPI_REQUEST_NULL)");
    r = MPI_REQUEST_NULL;
    MT_ERRCLASS(MPI_Start(&r), MPI_ERR_REQUEST, "Start(MPI_REQUEST_NULL)");

    /* Start of an active non-persistent receive */
    MT_OK(MPI_Irecv(&w, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r));
    MT_ERRCLASS(MPI_Start(&r), MPI_ERR_REQUEST, "Start(non-persistent request)");
    MT_OK(MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_SELF));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK(w == 5, "receive after a bad Start got %d", w);
    MTest_Check_comm_works(MPI_COMM_WORLD, "invalid requests");
    (void)flag;
    return MTest_Finalize();
}
