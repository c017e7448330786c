/*
 * The window as an MPI object: its handle and lifetime (registration by the
 * creation calls, deletion of its attributes at MPI_Win_free), window
 * keyvals and attributes (the communicator machinery of attr.c with the
 * window as owner), the predefined attributes MPI_WIN_BASE / SIZE /
 * DISP_UNIT / CREATE_FLAVOR / MODEL, its name and its group.
 *
 * Copy callbacks of window keyvals are stored but never called: MPI has no
 * way to duplicate a window. Delete callbacks run at MPI_Win_delete_attr,
 * when a value is replaced, and at MPI_Win_free.
 */
#include "api/win.h"

#include <string.h>

#include "api/attr.h"
#include "api/info.h"

/* ---- lifetime ---- */

static rd_attr_owner_t win_owner(rd_win_t *w)
{
    return (rd_attr_owner_t){ .kind = RD_OBJ_WIN, .handle = w->handle, .attrs = &w->attrs,
                              .win = w };
}

int rd_api_win_register(rd_win_t *w)
{
    rd_list_init(&w->attrs);
    w->name[0] = '\0';
    rd_api_lock();
    w->errh = rd_api_errh(MPI_ERRORS_ARE_FATAL);
    rd_errh_ref(w->errh);
    w->info = rd_api_win_info_new(&w->hints);
    w->handle = w->info ? rd_handle_alloc(RD_OBJ_WIN, w) : 0;
    if (!w->handle) {
        rd_api_info_destroy(rd_api_info(w->info));
        w->info = MPI_INFO_NULL;
        rd_errh_release(w->errh);
        w->errh = NULL;
    }
    rd_api_unlock();
    return w->handle ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int rd_api_win_attr_delete_all(rd_win_t *w)
{
    rd_attr_owner_t o = win_owner(w);
    return rd_api_attr_owner_delete_all(&o);
}

void rd_api_win_unregister(rd_win_t *w)
{
    rd_api_lock();
    if (w->handle)
        rd_handle_free(w->handle);
    w->handle = 0;
    rd_errh_release(w->errh);
    w->errh = NULL;
    if (w->info != MPI_INFO_NULL)
        rd_api_info_destroy(rd_api_info(w->info));
    w->info = MPI_INFO_NULL;
    rd_api_unlock();
}

/* ---- keyvals ---- */

RD_WEAK_ALIAS(MPI_Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    /* Window and communicator callbacks differ only in the handle's C type. */
    return rd_api_attr_create_keyval(RD_OBJ_WIN, (MPI_Comm_copy_attr_function *)win_copy_attr_fn,
                                     (MPI_Comm_delete_attr_function *)win_delete_attr_fn,
                                     win_keyval, extra_state, "MPI_Win_create_keyval");
}

RD_WEAK_ALIAS(MPI_Win_free_keyval)
int PMPI_Win_free_keyval(int *win_keyval)
{
    return rd_api_attr_free_keyval(RD_OBJ_WIN, win_keyval, "MPI_Win_free_keyval");
}

/* ---- attributes ---- */

/* The value MPI_Win_get_attr hands out for a predefined window attribute
 * (as MPICH: MPI_WIN_BASE is the base address itself, NULL for a window
 * without memory; the others point at the value); *found 0 if keyval is
 * not one. */
static void *predefined_value(rd_win_t *w, int keyval, int *found)
{
    /* The memory model is unified on every path (rma.h). */
    static const int model = MPI_WIN_UNIFIED;
    *found = 1;
    switch (keyval) {
    case MPI_WIN_BASE: return w->base;
    /* size_t read as MPI_Aint: its signed twin, which C lets alias it. */
    case MPI_WIN_SIZE: return &w->size;
    case MPI_WIN_DISP_UNIT: return &w->disp_unit;
    /* enum rd_win_flavor has the values of MPI_WIN_FLAVOR_*. */
    case MPI_WIN_CREATE_FLAVOR: return &w->flavor;
    case MPI_WIN_MODEL: return (void *)&model;
    }
    *found = 0;
    return NULL;
}

RD_WEAK_ALIAS(MPI_Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    static const char fn[] = "MPI_Win_set_attr";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    rd_attr_owner_t o = win_owner(w);
    return rd_api_attr_set(&o, win_keyval, attribute_val, fn);
}

RD_WEAK_ALIAS(MPI_Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    static const char fn[] = "MPI_Win_get_attr";
    rd_win_t *w;
    int err, found;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    void *pre = predefined_value(w, win_keyval, &found);
    if (found && attribute_val && flag) {
        *(void **)attribute_val = pre;
        *flag = 1;
        return MPI_SUCCESS;
    }
    rd_attr_owner_t o = win_owner(w);
    return rd_api_attr_get(&o, win_keyval, attribute_val, flag, fn);
}

RD_WEAK_ALIAS(MPI_Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    static const char fn[] = "MPI_Win_delete_attr";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    rd_attr_owner_t o = win_owner(w);
    return rd_api_attr_delete(&o, win_keyval, fn);
}

/* ---- name and group ---- */

RD_WEAK_ALIAS(MPI_Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    static const char fn[] = "MPI_Win_set_name";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (!win_name)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "win_name is NULL");
    /* Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters. */
    rd_api_lock();
    size_t n = strnlen(win_name, sizeof(w->name) - 1);
    memcpy(w->name, win_name, n);
    w->name[n] = '\0';
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    static const char fn[] = "MPI_Win_get_name";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (!win_name || !resultlen)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "win_name or resultlen is NULL");
    rd_api_lock();
    size_t n = strnlen(w->name, sizeof(w->name) - 1);
    memcpy(win_name, w->name, n);
    win_name[n] = '\0';
    rd_api_unlock();
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    static const char fn[] = "MPI_Win_get_group";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (!group)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "group pointer is NULL");
    rd_api_lock();
    int h = rd_api_group_handle(w->comm->group);
    rd_api_unlock();
    if (!h)
        return rd_api_win_error(w, MPI_ERR_NO_MEM, fn, "out of memory for a group handle");
    *group = h;
    return MPI_SUCCESS;
}
