/*
 * Window info hints (MPI-3.1 11.2.1, 11.2.7): parsing the hints rma acts on
 * at creation into rd_win_hints_t, and the hints in effect that
 * MPI_Win_get_info reports.
 *
 * As MPICH does, a window answers every standard hint, with its default
 * when none was given, and ignores keys it does not know and values that
 * are not valid for a key. Each window keeps the hints in effect as an info
 * object (w->info): built from the parsed hints at creation and updated by
 * MPI_Win_set_info. Hints set after creation are reported but change
 * nothing rma does: the standard lets an implementation ignore them, and
 * rma chose its paths (lock words, atomics) when the window was made.
 */
#include "api/win.h"

#include <string.h>

#include "api/info.h"

/* The standard hints, in the order MPICH reports them. */
enum { H_NO_LOCKS, H_ORDERING, H_OPS, H_NONCONTIG, H_SAME_SIZE, H_SAME_DISP, H_N };
static const char *const hint_key[H_N] = {
    "no_locks", "accumulate_ordering", "accumulate_ops", "alloc_shared_noncontig",
    "same_size", "same_disp_unit",
};
#define ORDERING_ALL "rar,raw,war,waw"

static int is_bool(const char *v)
{
    return !strcmp(v, "true") || !strcmp(v, "false");
}

/* "none", or a comma-separated list of rar, raw, war, waw. */
static int is_ordering(const char *v)
{
    if (!strcmp(v, "none"))
        return 1;
    for (;;) {
        if (strncmp(v, "rar", 3) && strncmp(v, "raw", 3) && strncmp(v, "war", 3) &&
            strncmp(v, "waw", 3))
            return 0;
        v += 3;
        if (*v == '\0')
            return 1;
        if (*v++ != ',')
            return 0;
    }
}

static int is_valid(int key, const char *v)
{
    switch (key) {
    case H_ORDERING: return is_ordering(v);
    case H_OPS: return !strcmp(v, "same_op") || !strcmp(v, "same_op_no_op");
    default: return is_bool(v);
    }
}

/* The valid value of standard hint key in info, or NULL. Lock held. */
static const char *hint(const rd_info_t *info, int key)
{
    const char *v = rd_api_info_value(info, hint_key[key]);
    return v && is_valid(key, v) ? v : NULL;
}

void rd_api_win_hints(MPI_Info info, rd_win_hints_t *h)
{
    /* The standard's default "accumulate_ops" is same_op_no_op; "same_op"
     * promises even more. */
    *h = (rd_win_hints_t){ .acc_same_op_no_op = 1 };
    if (info == MPI_INFO_NULL)
        return;
    rd_api_lock();
    const rd_info_t *i = rd_api_info(info);
    const char *v;
    if (i) {
        h->no_locks = (v = hint(i, H_NO_LOCKS)) && !strcmp(v, "true");
        h->same_size = (v = hint(i, H_SAME_SIZE)) && !strcmp(v, "true");
        h->same_disp_unit = (v = hint(i, H_SAME_DISP)) && !strcmp(v, "true");
        h->alloc_shared_noncontig = (v = hint(i, H_NONCONTIG)) && !strcmp(v, "true");
        h->acc_ordering_none = (v = hint(i, H_ORDERING)) && !strcmp(v, "none");
    }
    rd_api_unlock();
}

int rd_api_win_info_new(const rd_win_hints_t *h)
{
    const char *value[H_N] = {
        [H_NO_LOCKS] = h->no_locks ? "true" : "false",
        [H_ORDERING] = h->acc_ordering_none ? "none" : ORDERING_ALL,
        [H_OPS] = "same_op_no_op",
        [H_NONCONTIG] = h->alloc_shared_noncontig ? "true" : "false",
        [H_SAME_SIZE] = h->same_size ? "true" : "false",
        [H_SAME_DISP] = h->same_disp_unit ? "true" : "false",
    };
    int handle = rd_api_info_copy_handle(NULL);
    rd_info_t *info = handle ? rd_api_info(handle) : NULL;
    for (int k = 0; info && k < H_N; k++)
        if (rd_api_info_set(info, hint_key[k], value[k]) != RD_OK) {
            rd_api_info_destroy(info);
            return 0;
        }
    return handle;
}

/* info must be MPI_INFO_NULL or a live info object (lock not held). */
static int check_info(rd_win_t *w, MPI_Info info, const char *fn)
{
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    rd_api_lock();
    const rd_info_t *i = rd_api_info(info);
    rd_api_unlock();
    if (i)
        return MPI_SUCCESS;
    return rd_api_win_error(w, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
}

RD_WEAK_ALIAS(MPI_Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    static const char fn[] = "MPI_Win_set_info";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)) || (err = check_info(w, info, fn)))
        return err;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    rd_api_lock();
    const rd_info_t *in = rd_api_info(info);
    rd_info_t *now = rd_api_info(w->info);
    int st = RD_OK;
    for (int k = 0; k < H_N && st == RD_OK; k++) {
        const char *v = hint(in, k);
        if (v)
            st = rd_api_info_set(now, hint_key[k], v);
    }
    rd_api_unlock();
    if (st != RD_OK)
        return rd_api_win_error(w, MPI_ERR_NO_MEM, fn, "out of memory for the window's hints");
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Win_get_info";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (!info_used)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "info_used pointer is NULL");
    rd_api_lock();
    int h = rd_api_info_copy_handle(rd_api_info(w->info));
    rd_api_unlock();
    if (!h)
        return rd_api_win_error(w, MPI_ERR_NO_MEM, fn, "out of memory for an info object");
    *info_used = h;
    return MPI_SUCCESS;
}
