/*
 * rma_attr: what a window says about itself. On every flavor: the
 * predefined attributes MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
 * MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL (MPI_WIN_UNIFIED); user keyvals
 * (set, get, replace and delete call the delete callback with the old
 * value, MPI_Win_free calls it for what is left, MPI_Win_free_keyval
 * resets the handle); MPI_Win_get_group equals the communicator's group;
 * names (empty by default, set, truncated never); MPI_Win_get_info returns
 * a fresh info object and MPI_Win_set_info accepts a hint.
 */
#include "rma_common.h"

static int deletes;         /* delete callback calls */
static int last_deleted;    /* value of the last deleted attribute */

static int delete_fn(MPI_Win win, int keyval, void *val, void *extra)
{
    MT_CHECK(extra == &deletes, "delete callback: extra_state %p, expected %p", extra,
             (void *)&deletes);
    MT_CHECK(win != MPI_WIN_NULL, "delete callback: MPI_WIN_NULL");
    (void)keyval;
    deletes++;
    last_deleted = *(int *)val;
    return MPI_SUCCESS;
}

static void predefined(struct rw *w)
{
    void *base;
    MPI_Aint *sz;
    int *du, *flavor, *model, flag;
    const char *fn = rw_name(w->flavor);
    int want_flavor[] = { MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE, MPI_WIN_FLAVOR_SHARED,
                          MPI_WIN_FLAVOR_DYNAMIC };

    MT_OK(MPI_Win_get_attr(w->win, MPI_WIN_BASE, &base, &flag));
    MT_CHECK(flag, "%s: MPI_WIN_BASE not set", fn);
    if (flag && w->flavor != RW_DYNAMIC)
        MT_CHECK(base == w->buf, "%s: MPI_WIN_BASE is %p, expected %p", fn, base,
                 (void *)w->buf);
    if (flag && w->flavor == RW_DYNAMIC)
        MT_CHECK(base == MPI_BOTTOM, "%s: MPI_WIN_BASE is %p, expected MPI_BOTTOM", fn, base);
    MT_OK(MPI_Win_get_attr(w->win, MPI_WIN_SIZE, &sz, &flag));
    MPI_Aint want_size = w->flavor == RW_DYNAMIC ? 0 : (MPI_Aint)w->n * (MPI_Aint)sizeof(int);
    MT_CHECK(flag && *sz == want_size, "%s: MPI_WIN_SIZE is %ld, expected %ld", fn,
             flag ? (long)*sz : -1L, (long)want_size);
    MT_OK(MPI_Win_get_attr(w->win, MPI_WIN_DISP_UNIT, &du, &flag));
    MT_CHECK(flag && *du == w->unit, "%s: MPI_WIN_DISP_UNIT is %d, expected %d", fn,
             flag ? *du : -1, w->unit);
    MT_OK(MPI_Win_get_attr(w->win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    MT_CHECK(flag && *flavor == want_flavor[w->flavor], "%s: MPI_WIN_CREATE_FLAVOR is %d, "
             "expected %d", fn, flag ? *flavor : -1, want_flavor[w->flavor]);
    MT_OK(MPI_Win_get_attr(w->win, MPI_WIN_MODEL, &model, &flag));
    MT_CHECK(flag && *model == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL is %d, expected "
             "MPI_WIN_UNIFIED (%d)", fn, flag ? *model : -1, MPI_WIN_UNIFIED);
}

static void keyvals(struct rw *w, int *key, int *vals)
{
    int *got, flag;
    const char *fn = rw_name(w->flavor);

    MT_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_fn, key, &deletes));
    MT_OK(MPI_Win_get_attr(w->win, *key, &got, &flag));
    MT_CHECK(!flag, "%s: a new keyval is set already", fn);
    MT_OK(MPI_Win_set_attr(w->win, *key, &vals[0]));
    MT_OK(MPI_Win_get_attr(w->win, *key, &got, &flag));
    MT_CHECK(flag && got == &vals[0], "%s: get_attr gives %p (flag %d), expected %p", fn,
             (void *)got, flag, (void *)&vals[0]);
    deletes = 0;
    MT_OK(MPI_Win_set_attr(w->win, *key, &vals[1]));
    MT_CHECK(deletes == 1 && last_deleted == vals[0], "%s: replacing an attribute: %d delete "
             "calls (last value %d), expected 1 with %d", fn, deletes, last_deleted, vals[0]);
    MT_OK(MPI_Win_delete_attr(w->win, *key));
    MT_CHECK(deletes == 2 && last_deleted == vals[1], "%s: MPI_Win_delete_attr: %d delete calls "
             "(last value %d), expected 2 with %d", fn, deletes, last_deleted, vals[1]);
    MT_OK(MPI_Win_get_attr(w->win, *key, &got, &flag));
    MT_CHECK(!flag, "%s: attribute still set after MPI_Win_delete_attr", fn);
    /* Left set for MPI_Win_free to delete. */
    MT_OK(MPI_Win_set_attr(w->win, *key, &vals[2]));
    deletes = 0;
}

static void group_name_info(struct rw *w)
{
    MPI_Group wg, cg;
    int res, len = -1;
    char name[MPI_MAX_OBJECT_NAME];
    const char *fn = rw_name(w->flavor);

    MT_OK(MPI_Win_get_group(w->win, &wg));
    MPI_Comm_group(MPI_COMM_WORLD, &cg);
    MPI_Group_compare(wg, cg, &res);
    MT_CHECK(res == MPI_IDENT, "%s: MPI_Win_get_group: comparison %d, expected MPI_IDENT", fn,
             res);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);

    MT_OK(MPI_Win_get_name(w->win, name, &len));
    MT_CHECK(len == 0 && name[0] == '\0', "%s: default name \"%s\" (length %d), expected empty",
             fn, name, len);
    char want[MPI_MAX_OBJECT_NAME];
    snprintf(want, sizeof want, "window %s of rank %d", fn, w->rank);
    MT_OK(MPI_Win_set_name(w->win, want));
    MT_OK(MPI_Win_get_name(w->win, name, &len));
    MT_CHECK(strcmp(name, want) == 0 && len == (int)strlen(want), "%s: name \"%s\" (length %d), "
             "expected \"%s\"", fn, name, len, want);
    MT_OK(MPI_Win_set_name(w->win, "renamed"));
    MT_OK(MPI_Win_get_name(w->win, name, &len));
    MT_CHECK(strcmp(name, "renamed") == 0 && len == 7, "%s: after renaming: \"%s\"", fn, name);

    MPI_Info info = MPI_INFO_NULL, info2 = MPI_INFO_NULL;
    MT_OK(MPI_Win_get_info(w->win, &info));
    MT_CHECK(info != MPI_INFO_NULL, "%s: MPI_Win_get_info gave MPI_INFO_NULL", fn);
    if (info != MPI_INFO_NULL) {
        int nkeys = -1, flag = 0;
        char v[MPI_MAX_INFO_VAL + 1];
        MT_OK(MPI_Info_get_nkeys(info, &nkeys));
        MT_CHECK(nkeys >= 0, "%s: get_info: %d keys", fn, nkeys);
        MT_OK(MPI_Info_get(info, "no_locks", MPI_MAX_INFO_VAL, v, &flag));
        if (flag)
            MT_CHECK(strcmp(v, "false") == 0, "%s: no_locks is \"%s\" without the hint", fn, v);
        MT_OK(MPI_Info_set(info, "accumulate_ordering", "none"));
        MT_OK(MPI_Win_set_info(w->win, info));
        MT_OK(MPI_Win_get_info(w->win, &info2));
        MT_CHECK(info2 != MPI_INFO_NULL && info2 != info, "%s: the second MPI_Win_get_info "
                 "returned %s", fn, info2 == info ? "the same object" : "MPI_INFO_NULL");
        MPI_Info_free(&info);
        if (info2 != MPI_INFO_NULL && info2 != info)
            MPI_Info_free(&info2);
    }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    for (int f = 0; f < RW_NFLAVORS; f++) {
        struct rw w;
        int key = MPI_KEYVAL_INVALID, vals[3] = { 11, 22, 33 };
        if (!rw_open(&w, f, 10 + 2 * MTest_rank, MPI_COMM_WORLD))
            continue;
        predefined(&w);
        keyvals(&w, &key, vals);
        group_name_info(&w);
        /* Still usable for communication with all this attached. */
        int v = 5 + w.rank, right = (w.rank + 1) % w.size;
        MT_OK(MPI_Win_fence(0, w.win));
        MT_OK(MPI_Put(&v, 1, MPI_INT, right, rw_disp(&w, right, 0), 1, MPI_INT, w.win));
        MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
        int left = (w.rank + w.size - 1) % w.size;
        MT_CHECK(w.buf[0] == 5 + left, "%s: put after the attribute calls: %d, expected %d",
                 rw_name(f), w.buf[0], 5 + left);
        rw_close(&w);
        MT_CHECK(deletes == 1 && last_deleted == 33, "%s: MPI_Win_free: %d delete calls (last "
                 "value %d), expected 1 with 33", rw_name(f), deletes, last_deleted);
        MT_OK(MPI_Win_free_keyval(&key));
        MT_CHECK(key == MPI_KEYVAL_INVALID, "%s: MPI_Win_free_keyval left the handle %d",
                 rw_name(f), key);
    }
    return MTest_Finalize();
}
