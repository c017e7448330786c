/*
 * dt_pack: MPI_Pack / MPI_Unpack / MPI_Pack_size with derived types. Each
 * rank packs a header int, a strided vector and a struct into one buffer,
 * sends it as MPI_PACKED, and the receiver unpacks it piece by piece into
 * other layouts; then the reverse, packed contiguous and unpacked strided.
 * Also Pack_size and position arithmetic. (A too small output buffer is in
 * dt_err_args: MPICH does not detect it.)
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

#define N 1000

struct pt { double x; char tag; int id; };

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int right = (MTest_rank + 1) % MTest_size, left = (MTest_rank + MTest_size - 1) % MTest_size;
    MPI_Datatype vec, pt;
    MT_OK(MPI_Type_vector(N, 1, 3, MPI_DOUBLE, &vec));
    MT_OK(MPI_Type_commit(&vec));
    int bl[3] = { 1, 1, 1 };
    MPI_Aint d[3] = { offsetof(struct pt, x), offsetof(struct pt, tag), offsetof(struct pt, id) };
    MPI_Datatype t[3] = { MPI_DOUBLE, MPI_CHAR, MPI_INT };
    MT_OK(MPI_Type_create_struct(3, bl, d, t, &pt));
    MT_OK(MPI_Type_commit(&pt));

    int sz_int, sz_vec, sz_pt;
    MT_OK(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &sz_int));
    MT_OK(MPI_Pack_size(1, vec, MPI_COMM_WORLD, &sz_vec));
    MT_OK(MPI_Pack_size(7, pt, MPI_COMM_WORLD, &sz_pt));
    MT_CHECK(sz_vec >= N * 8 && sz_pt >= 7 * 13, "Pack_size: vector %d, 7 structs %d", sz_vec,
             sz_pt);
    int cap = sz_int + sz_vec + sz_pt;
    char *buf = MTest_Malloc((size_t)cap), *rbuf = MTest_Malloc((size_t)cap);

    double *src = MTest_Malloc(sizeof(double) * 3 * N);
    for (int i = 0; i < 3 * N; i++)
        src[i] = i + 0.5 * MTest_rank;
    struct pt pts[7];
    memset(pts, 0, sizeof(pts));
    for (int i = 0; i < 7; i++) {
        pts[i].x = i * 1.5 + MTest_rank;
        pts[i].tag = (char)('a' + i);
        pts[i].id = 100 * MTest_rank + i;
    }
    int pos = 0, hdr = 4242 + MTest_rank;
    MT_OK(MPI_Pack(&hdr, 1, MPI_INT, buf, cap, &pos, MPI_COMM_WORLD));
    MT_OK(MPI_Pack(src, 1, vec, buf, cap, &pos, MPI_COMM_WORLD));
    MT_OK(MPI_Pack(pts, 7, pt, buf, cap, &pos, MPI_COMM_WORLD));
    MT_CHECK(pos <= cap, "position %d beyond the %d-byte buffer", pos, cap);

    MPI_Status st;
    MT_OK(MPI_Sendrecv(buf, pos, MPI_PACKED, right, 1, rbuf, cap, MPI_PACKED, left, 1,
                       MPI_COMM_WORLD, &st));
    int got;
    MT_OK(MPI_Get_count(&st, MPI_PACKED, &got));
    MT_CHECK(got == pos, "received %d packed bytes, expected %d", got, pos);

    /* unpack: header, the vector's doubles as contiguous, the structs */
    int rpos = 0, rhdr = 0;
    double *dst = MTest_Malloc(sizeof(double) * N);
    struct pt rpts[7];
    memset(rpts, 0, sizeof(rpts));
    MT_OK(MPI_Unpack(rbuf, got, &rpos, &rhdr, 1, MPI_INT, MPI_COMM_WORLD));
    MT_OK(MPI_Unpack(rbuf, got, &rpos, dst, N, MPI_DOUBLE, MPI_COMM_WORLD));
    MT_OK(MPI_Unpack(rbuf, got, &rpos, rpts, 7, pt, MPI_COMM_WORLD));
    MT_CHECK(rpos == got, "unpacked %d of %d bytes", rpos, got);
    MT_CHECK(rhdr == 4242 + left, "header %d, expected %d", rhdr, 4242 + left);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += dst[i] != 3 * i + 0.5 * left;
    MT_CHECK(bad == 0, "%d vector elements wrong", bad);
    for (int i = 0; i < 7; i++)
        MT_CHECK(rpts[i].x == i * 1.5 + left && rpts[i].tag == 'a' + i && rpts[i].id == 100 * left + i,
                 "struct %d wrong", i);

    /* round trip on one rank: pack the doubles contiguous, unpack strided */
    double *back = MTest_Malloc(sizeof(double) * 3 * N);
    for (int i = 0; i < 3 * N; i++)
        back[i] = -1;
    pos = 0;
    MT_OK(MPI_Pack(dst, N, MPI_DOUBLE, buf, cap, &pos, MPI_COMM_WORLD));
    rpos = 0;
    MT_OK(MPI_Unpack(buf, pos, &rpos, back, 1, vec, MPI_COMM_WORLD));
    bad = 0;
    for (int i = 0; i < 3 * N; i++)
        bad += back[i] != (i % 3 ? -1 : i + 0.5 * left);
    MT_CHECK(bad == 0, "strided unpack: %d wrong", bad);

    MT_OK(MPI_Type_free(&vec));
    MT_OK(MPI_Type_free(&pt));
    free(buf);
    free(rbuf);
    free(src);
    free(dst);
    free(back);
    return MTest_Finalize();
}
