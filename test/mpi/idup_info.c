/*
 * idup_info: MPI_Comm_idup_with_info and MPI_Comm_idup and the hints of
 * the new communicator: idup_with_info gives it the hints passed that the
 * library knows (none for MPI_INFO_NULL), idup those of its parent, as MPI_Comm_dup
 * does; the new communicators work (an allreduce, started before the dup
 * completed on other ranks); an invalid info is MPI_ERR_INFO.
 */
#include "mtest.h"

#include <string.h>

/* The value of key in comm's hints, or "" when it has none. */
static const char *hint(MPI_Comm comm, const char *key)
{
    static char val[64];
    MPI_Info info;
    int flag = 0;
    val[0] = '\0';
    MT_OK(MPI_Comm_get_info(comm, &info));
    MT_OK(MPI_Info_get(info, key, sizeof(val) - 1, val, &flag));
    if (!flag)
        val[0] = '\0';
    MT_OK(MPI_Info_free(&info));
    return val;
}

static void use(MPI_Comm c, const char *what)
{
    int one = 1, n = 0;
    MT_OK(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(n == MTest_size, "%s: %d ranks counted", what, n);
}

int main(int argc, char **argv)
{
    MPI_Comm a, b, c, d;
    MPI_Request r[2];
    MPI_Info info;
    MTest_Init(&argc, &argv);
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MT_OK(MPI_Info_create(&info));
    MT_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    MT_OK(MPI_Info_set(info, "my_hint", "42"));
    MT_OK(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &a, &r[0]));
    MT_OK(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &b, &r[1]));
    MT_OK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    MT_OK(MPI_Info_free(&info));
    MT_CHECK(!strcmp(hint(a, "mpi_assert_no_any_tag"), "true"),
             "idup_with_info: mpi_assert_no_any_tag \"%s\"", hint(a, "mpi_assert_no_any_tag"));
    /* a key the library does not use is ignored (MPI-4.0) */
    MT_CHECK(!strcmp(hint(a, "my_hint"), ""), "idup_with_info: my_hint \"%s\"",
             hint(a, "my_hint"));
    MT_CHECK(!strcmp(hint(b, "mpi_assert_no_any_tag"), ""),
             "idup_with_info(NULL): mpi_assert_no_any_tag \"%s\"",
             hint(b, "mpi_assert_no_any_tag"));
    use(a, "a");
    use(b, "b");

    /* idup copies the parent's hints */
    MT_OK(MPI_Comm_idup(a, &c, &r[0]));
    MT_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    MT_CHECK(!strcmp(hint(c, "mpi_assert_no_any_tag"), "true"),
             "idup: mpi_assert_no_any_tag \"%s\"", hint(c, "mpi_assert_no_any_tag"));
    use(c, "c");

    /* an invalid info */
    int rc = MPI_Comm_idup_with_info(MPI_COMM_WORLD, (MPI_Info)0x12345, &d, &r[0]);
    MT_CHECK(rc != MPI_SUCCESS && MTest_Errclass(rc) == MPI_ERR_INFO, "invalid info: class %d",
             rc == MPI_SUCCESS ? 0 : MTest_Errclass(rc));

    MT_OK(MPI_Comm_free(&a));
    MT_OK(MPI_Comm_free(&b));
    MT_OK(MPI_Comm_free(&c));
    return MTest_Finalize();
}
