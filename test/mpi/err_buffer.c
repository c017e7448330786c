/*
 * err_buffer: a NULL buffer with count > 0 gives MPI_ERR_BUFFER with
 * MPI_ERRORS_RETURN (Send, Ssend, Isend, Recv, Irecv); Bsend with no buffer
 * attached, or a buffer too small, gives MPI_ERR_BUFFER. Count 0 with a NULL
 * buffer is fine. Communication continues correctly.
 */
#include "err_common.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    int right = (MTest_rank + 1) % MTest_size;
    int left = (MTest_rank + MTest_size - 1) % MTest_size;
    MPI_Request r;
    int big[1000] = { 0 };

    MT_ERRCLASS(MPI_Send(NULL, 1, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "Send(NULL, 1)");
    MT_ERRCLASS(MPI_Ssend(NULL, 3, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "Ssend(NULL, 3)");
    MT_ERRCLASS(MPI_Isend(NULL, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &r), MPI_ERR_BUFFER, "Isend(NULL, 1)");
    MT_ERRCLASS(MPI_Recv(NULL, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                MPI_ERR_BUFFER, "Recv(NULL, 1)");
    MT_ERRCLASS(MPI_Irecv(NULL, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_BUFFER,
                "Irecv(NULL, 1)");
    MTest_Check_comm_works(MPI_COMM_WORLD, "NULL buffers");

    /* no buffer attached */
    MT_ERRCLASS(MPI_Bsend(big, 1, MPI_INT, right, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                "Bsend with no buffer attached");
    MTest_Check_comm_works(MPI_COMM_WORLD, "Bsend without buffer");
    /* too small */
    {
        int bsize = 100 + MPI_BSEND_OVERHEAD;
        char *b = MTest_Malloc(bsize);
        void *det;
        MT_OK(MPI_Buffer_attach(b, bsize));
        MT_ERRCLASS(MPI_Bsend(big, 1000, MPI_INT, right, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                    "Bsend larger than the attached buffer");
        MT_OK(MPI_Buffer_detach(&det, &bsize));
        free(b);
    }
    MTest_Check_comm_works(MPI_COMM_WORLD, "Bsend too big");

    /* count 0 with NULL is valid */
    MT_OK(MPI_Sendrecv(NULL, 0, MPI_INT, right, 2, NULL, 0, MPI_INT, left, 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    MTest_Check_comm_works(MPI_COMM_WORLD, "zero-count NULL buffers");
    return MTest_Finalize();
}
