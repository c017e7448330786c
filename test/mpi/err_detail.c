/*
 * err_detail: a failed system call below the MPI layer reaches the user with
 * the call and its errno text in MPI_Error_string. Rank 0 sends 1 MiB, a
 * rendezvous that the receiver reads straight from the sender's memory
 * (testlist: shm with RDMPI_RNDV=get), and unmaps the buffer before rank 1
 * posts the matching receive; rank 1's process_vm_readv then fails with
 * EFAULT and MPI_Recv (MPI_ERRORS_RETURN) returns an error whose string
 * names the call, the peer and "Bad address". The next message between the
 * two arrives intact. rdmpi only: it checks rdmpi's text.
 */
#include "err_common.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BIG (1 << 20)

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MT_CHECK(MTest_size == 2, "needs 2 ranks, got %d", MTest_size);
    int go = 1;
    if (MTest_rank == 0) {
        MPI_Request r;
        char *buf = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        MT_CHECK(buf != MAP_FAILED, "mmap failed");
        memset(buf, 7, BIG);
        MT_OK(MPI_Isend(buf, BIG, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r));
        munmap(buf, BIG);
        MT_OK(MPI_Send(&go, 1, MPI_INT, 1, 2, MPI_COMM_WORLD));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        MT_OK(MPI_Send(&go, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
    } else if (MTest_rank == 1) {
        char *rbuf = MTest_Malloc(BIG);
        char s[MPI_MAX_ERROR_STRING];
        int len = 0, got = 0;
        /* The 1 MiB message is unexpected until this receive is done. */
        MT_OK(MPI_Recv(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int rc = MPI_Recv(rbuf, BIG, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK(rc != MPI_SUCCESS, "MPI_Recv from an unmapped buffer succeeded");
        if (rc != MPI_SUCCESS) {
            MPI_Error_string(rc, s, &len);
            fprintf(stderr, "err_detail: rank 1: %s\n", s);
            MT_CHECK(strstr(s, "MPI_Recv") && strstr(s, "process_vm_readv") &&
                     strstr(s, "rank 0") && strstr(s, "Bad address"),
                     "message \"%s\" does not name MPI_Recv, process_vm_readv, rank 0 and "
                     "the errno text", s);
        }
        MT_OK(MPI_Recv(&got, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(got == 1, "next message: %d, expected 1", got);
        free(rbuf);
    }
    return MTest_Finalize();
}
