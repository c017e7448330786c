/*
 * dt_err: argument errors of the datatype constructors and queries give the
 * MPI error classes MPICH gives, with MPI_ERRORS_RETURN, and leave no type
 * behind: negative counts and block lengths (MPI_ERR_COUNT), invalid or
 * null old types (MPI_ERR_TYPE), get_contents of a predefined type
 * (MPI_ERR_TYPE), an uncommitted type in communication (MPI_ERR_TYPE),
 * freeing a predefined type (MPI_ERR_TYPE). Communication works afterwards.
 */
#include "err_common.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    MPI_Datatype t = MPI_DATATYPE_NULL, u;
    int bl[2] = { 1, -1 }, disp[2] = { 0, 4 };
    MPI_Aint ad[2] = { 0, 8 };
    MPI_Datatype types[2] = { MPI_INT, MPI_DATATYPE_NULL };

    {
        /* NULL output pointers are argument errors, not crashes (the _x forms too) */
        MPI_Aint a;
        MPI_Count x;
        MT_ERRCLASS(MPI_Type_get_extent(MPI_INT, NULL, &a), MPI_ERR_ARG, "get_extent NULL lb");
        MT_ERRCLASS(MPI_Type_get_true_extent(MPI_INT, &a, NULL), MPI_ERR_ARG,
                    "get_true_extent NULL extent");
        MT_ERRCLASS(MPI_Type_get_extent_x(MPI_INT, NULL, &x), MPI_ERR_ARG, "get_extent_x NULL lb");
        MT_ERRCLASS(MPI_Type_get_true_extent_x(MPI_INT, &x, NULL), MPI_ERR_ARG,
                    "get_true_extent_x NULL extent");
    }
    MT_ERRCLASS(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT, "contiguous count -1");
    MT_ERRCLASS(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT, "vector count -2");
    MT_ERRCLASS(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_COUNT, "vector blocklength -1");
    MT_ERRCLASS(MPI_Type_create_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT, "hvector count -1");
    MT_ERRCLASS(MPI_Type_indexed(-1, bl, disp, MPI_INT, &t), MPI_ERR_COUNT, "indexed count -1");
    MT_ERRCLASS(MPI_Type_indexed(2, bl, disp, MPI_INT, &t), MPI_ERR_COUNT, "indexed blocklength -1");
    MT_ERRCLASS(MPI_Type_create_hindexed(2, bl, ad, MPI_INT, &t), MPI_ERR_COUNT,
                "hindexed blocklength -1");
    MT_ERRCLASS(MPI_Type_create_indexed_block(2, -3, disp, MPI_INT, &t), MPI_ERR_COUNT,
                "indexed_block blocklength -3");
    MT_ERRCLASS(MPI_Type_create_struct(-1, bl, ad, types, &t), MPI_ERR_COUNT, "struct count -1");
    bl[1] = 1;
    MT_ERRCLASS(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
                "contiguous of MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Type_vector(2, 1, 1, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
                "vector of MPI_DATATYPE_NULL");
    MT_ERRCLASS(MPI_Type_create_struct(2, bl, ad, types, &t), MPI_ERR_TYPE,
                "struct with MPI_DATATYPE_NULL");
#if GARBAGE_HANDLES
    MT_ERRCLASS(MPI_Type_contiguous(2, (MPI_Datatype)GARBAGE_INT, &t), MPI_ERR_TYPE,
                "contiguous of a garbage handle");
#endif
    MT_CHECK(t == MPI_DATATYPE_NULL, "a failed constructor set newtype");

    int ii[4];
    MPI_Aint aa[4];
    MPI_Datatype tt[4];
    MT_ERRCLASS(MPI_Type_get_contents(MPI_INT, 4, 4, 4, ii, aa, tt), MPI_ERR_TYPE,
                "get_contents of MPI_INT");
    u = MPI_INT;
    MT_ERRCLASS(MPI_Type_free(&u), MPI_ERR_TYPE, "Type_free of MPI_INT");

    /* an uncommitted derived type in communication */
    MT_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    int v[4] = { 1, 2, 3, 4 };
    MT_ERRCLASS(MPI_Send(v, 1, t, 0, 0, MPI_COMM_SELF), MPI_ERR_TYPE,
                "Send with an uncommitted type");
    MT_OK(MPI_Type_free(&t));
    MTest_Check_comm_works(MPI_COMM_WORLD, "after datatype errors");
    return MTest_Finalize();
}
