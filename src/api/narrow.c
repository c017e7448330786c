/*
 * Large-count (_c) arguments narrowed to int (narrow.h).
 */
#include "api/narrow.h"

#include <limits.h>
#include <stdlib.h>

static int too_big(MPI_Comm comm, MPI_Count v, const char *fn)
{
    return rd_api_error(rd_api_comm(comm), MPI_ERR_COUNT, fn,
                        "count or displacement %ld is beyond %d, the largest this call supports",
                        (long)v, INT_MAX);
}

int rd_api_narrow(MPI_Comm comm, MPI_Count v, int *out, const char *fn)
{
    if (v > INT_MAX || v < INT_MIN)
        return too_big(comm, v, fn);
    *out = (int)v;
    return MPI_SUCCESS;
}

int rd_api_narrow_array(MPI_Comm comm, const MPI_Count *src, int n, int **out, const char *fn)
{
    *out = NULL;
    if (!src || n <= 0)
        return MPI_SUCCESS;
    int *a = malloc((size_t)n * sizeof(int));
    if (!a)
        return rd_api_error(rd_api_comm(comm), MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < n; i++) {
        if (src[i] > INT_MAX || src[i] < INT_MIN) {
            free(a);
            return too_big(comm, src[i], fn);
        }
        a[i] = (int)src[i];
    }
    *out = a;
    return MPI_SUCCESS;
}
