/*
 * badinput_count: a count whose byte size overflows (16 elements of a
 * 2^60-byte type: 2^64 bytes, 0 once wrapped; 16 elements 2^60 bytes apart)
 * is MPI_ERR_COUNT with MPI_ERRORS_RETURN in sends, receives, nonblocking
 * and collective calls, instead of moving 0 bytes; nothing is sent, and the
 * ranks go on communicating.
 */
#include "err_common.h"

#define TAG 9

/* Every call that takes (buf, count, type) refuses count elements of t. */
static void refused(MPI_Datatype t, int count, const char *what)
{
    char buf[64] = {0}, out[64];
    MPI_Request r = MPI_REQUEST_NULL;
    int peer = MTest_size > 1 ? 1 - MTest_rank : 0;
    char desc[128];
#define CHECK(call, name)                                           \
    do {                                                            \
        snprintf(desc, sizeof(desc), "%s: %s", name, what);         \
        MT_ERRCLASS(call, MPI_ERR_COUNT, desc);                     \
    } while (0)
    CHECK(MPI_Send(buf, count, t, peer, TAG, MPI_COMM_WORLD), "Send");
    CHECK(MPI_Ssend(buf, count, t, peer, TAG, MPI_COMM_WORLD), "Ssend");
    CHECK(MPI_Isend(buf, count, t, peer, TAG, MPI_COMM_WORLD, &r), "Isend");
    CHECK(MPI_Send_init(buf, count, t, peer, TAG, MPI_COMM_WORLD, &r), "Send_init");
    CHECK(MPI_Recv(buf, count, t, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "Recv");
    CHECK(MPI_Irecv(buf, count, t, peer, TAG, MPI_COMM_WORLD, &r), "Irecv");
    CHECK(MPI_Sendrecv(buf, count, t, peer, TAG, out, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE), "Sendrecv");
    CHECK(MPI_Bcast(buf, count, t, 0, MPI_COMM_WORLD), "Bcast");
    CHECK(MPI_Ibcast(buf, count, t, 0, MPI_COMM_WORLD, &r), "Ibcast");
    CHECK(MPI_Gather(buf, count, t, out, count, t, 0, MPI_COMM_WORLD), "Gather");
#undef CHECK
    MT_CHECK(r == MPI_REQUEST_NULL, "%s: a refused call returned a request", what);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MPI_Datatype big, spread;
    /* 2^60 bytes in one element, and one int every 2^60 bytes. */
    MT_OK(MPI_Type_contiguous_c((MPI_Count)1 << 60, MPI_BYTE, &big));
    MT_OK(MPI_Type_commit(&big));
    MT_OK(MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)1 << 60, &spread));
    MT_OK(MPI_Type_commit(&spread));
    refused(big, 16, "16 elements of 2^60 bytes");
    refused(spread, 16, "16 ints 2^60 bytes apart");

    /* Nothing was sent: the next message between the two is the right one. */
    if (MTest_size > 1 && MTest_rank < 2) {
        int v = 42 + MTest_rank, w = -1, peer = 1 - MTest_rank;
        MT_OK(MPI_Sendrecv(&v, 1, MPI_INT, peer, TAG, &w, 1, MPI_INT, peer, TAG, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        MT_CHECK(w == 42 + peer, "message after the refused calls holds %d, not %d", w,
                 42 + peer);
    }
    MT_OK(MPI_Type_free(&big));
    MT_OK(MPI_Type_free(&spread));
    MTest_Check_comm_works(MPI_COMM_WORLD, "overflowing counts");
    return MTest_Finalize();
}
