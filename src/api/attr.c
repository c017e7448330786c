/*
 * Attribute caching: keyvals (MPI_Comm_create_keyval and the MPI-1
 * MPI_Keyval_create), attributes (set / get / delete and the MPI-1
 * MPI_Attr_*), the predefined attributes of MPI_COMM_WORLD, and the copy /
 * delete passes run by MPI_Comm_dup and MPI_Comm_free (attr.h). Windows
 * cache attributes the same way (api/win_attr.c calls the rd_api_attr_*
 * steps below with a window as the owner); a keyval belongs to the kind of
 * object it was created for.
 *
 * Copy and delete callbacks are user code that may call MPI, so they always
 * run without the library lock; while a callback runs, its keyval holds an
 * extra reference so a concurrent MPI_Comm_free_keyval cannot free it.
 * A freed keyval lives on (unusable by the user) until the last attribute
 * using it is deleted, as the standard requires.
 *
 * Attributes are kept in a list per communicator, in the order they were
 * first set: communicators carry a handful of them, so lookups are linear.
 */
#include "api/attr.h"

#include <stdarg.h>
#include <stdlib.h>

#include "api/api.h"
#include "api/win.h"

typedef struct rd_keyval {
    int handle;
    int obj;           /* RD_OBJ_COMM / RD_OBJ_WIN: what it may be used on */
    int refs;          /* the user's handle (until freed) + one per attribute */
    int freed;         /* MPI_Comm_free_keyval was called */
    MPI_Comm_copy_attr_function *copy;    /* NULL: MPI_COMM_NULL_COPY_FN */
    MPI_Comm_delete_attr_function *del;   /* NULL: MPI_COMM_NULL_DELETE_FN */
    void *extra;
} rd_keyval_t;

/* The function behind MPI_DUP_FN / MPI_COMM_DUP_FN (and the type and window
 * versions): the copy is the same value. Programs compiled against MPICH
 * reference it by name. */
__attribute__((visibility("default"))) int MPIR_Dup_fn(MPI_Comm oldcomm, int keyval,
                                                        void *extra_state,
                                                        void *attribute_val_in,
                                                        void *attribute_val_out, int *flag)
{
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* ---- predefined attributes ----
 * They belong to MPI_COMM_WORLD; like MPICH, every communicator answers
 * them. The value handed out is the address of an int. */

static int attr_tag_ub = RD_TAG_UB;
static int attr_host = MPI_PROC_NULL;      /* no host process */
static int attr_io = MPI_ANY_SOURCE;       /* every rank can do I/O */
static int attr_wtime_is_global;           /* clocks are per node */
static int attr_universe_size, attr_appnum;
static int attr_lastusedcode = MPI_ERR_LASTCODE;

/* Predefined keyvals of communicators and windows: neither can be set,
 * deleted or freed (the window ones are answered by win_attr.c). */
static int is_predefined(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
    case MPI_WIN_BASE:
    case MPI_WIN_SIZE:
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
        return 1;
    }
    return 0;
}

static int *predefined_value(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB: return &attr_tag_ub;
    case MPI_HOST: return &attr_host;
    case MPI_IO: return &attr_io;
    case MPI_WTIME_IS_GLOBAL: return &attr_wtime_is_global;
    case MPI_UNIVERSE_SIZE:
        attr_universe_size = rd_api.boot.universe_size;
        return &attr_universe_size;
    case MPI_LASTUSEDCODE: return &attr_lastusedcode;
    case MPI_APPNUM:
        attr_appnum = rd_api.boot.appnum;
        return &attr_appnum;
    }
    return NULL;
}

/* ---- keyvals (lock held) ---- */

/* The keyval object behind h, freed or not (attributes still use it). */
static rd_keyval_t *keyval_obj(int h)
{
    return rd_handle_get(RD_OBJ_KEYVAL, h);
}

/* The keyval behind h if the user may still use it on objects of kind obj. */
static rd_keyval_t *keyval_live(int h, int obj)
{
    rd_keyval_t *k = keyval_obj(h);
    return k && !k->freed && k->obj == obj ? k : NULL;
}

static void keyval_release(rd_keyval_t *k)
{
    if (--k->refs > 0)
        return;
    rd_handle_free(k->handle);
    free(k);
}

static rd_attr_t *find_attr(const rd_attr_owner_t *o, int keyval)
{
    rd_list_t *pos;
    rd_list_for_each(pos, o->attrs) {
        rd_attr_t *a = rd_list_entry(pos, rd_attr_t, link);
        if (a->keyval == keyval)
            return a;
    }
    return NULL;
}

/* ---- errors (lock not held) ---- */

static const char *kind_name(int obj)
{
    return obj == RD_OBJ_WIN ? "window" : "communicator";
}

/* Applies the error handler of o (NULL: MPI_COMM_WORLD's) to code. */
static int owner_apply(const rd_attr_owner_t *o, int code, const char *text)
{
    if (o && o->win)
        return rd_api_errh_apply(o->win->errh, o->win->handle, code, text);
    rd_comm_t *c = o && o->comm ? o->comm : rd_api.world;
    return rd_api_errh_apply(c ? c->errh : NULL, c ? c->handle : MPI_COMM_WORLD, code, text);
}

static int owner_error(const rd_attr_owner_t *o, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int owner_error(const rd_attr_owner_t *o, int cls, const char *fn, const char *fmt, ...)
{
    const char *m;
    va_list ap;
    va_start(ap, fmt);
    int code = rd_api_verror_code(cls, fn, fmt, ap, &m);
    va_end(ap);
    return owner_apply(o, code, m);
}

/* An existing code (a callback's own) raised on o. */
static int owner_raise(const rd_attr_owner_t *o, int code, const char *fn)
{
    if (o && o->win)
        return rd_api_win_raise(o->win, code, fn);
    return rd_api_raise(o ? o->comm : NULL, code, fn);
}

static int bad_keyval(const rd_attr_owner_t *o, int obj, int keyval, const char *fn)
{
    if (keyval == MPI_KEYVAL_INVALID)
        return owner_error(o, MPI_ERR_KEYVAL, fn, "keyval is MPI_KEYVAL_INVALID");
    return owner_error(o, MPI_ERR_KEYVAL, fn,
                       "invalid keyval 0x%x: not a live %s keyval "
                       "(never created, already freed, or made for another kind of object)",
                       (unsigned)keyval, kind_name(obj));
}

/* A copy or delete callback of keyval failed with code err. Error classes
 * get a message naming the callback; other codes (the user's own) are passed
 * through unchanged. */
static int callback_error(const rd_attr_owner_t *o, int err, const char *what, int keyval,
                          const char *fn)
{
    if (err > 0 && err <= 0xff)
        return owner_error(o, err, fn, "the %s callback of keyval 0x%x returned error %d", what,
                           (unsigned)keyval, err);
    return owner_raise(o, err, fn);
}

static rd_attr_owner_t comm_owner(rd_comm_t *c)
{
    return (rd_attr_owner_t){ .kind = RD_OBJ_COMM, .handle = c->handle, .attrs = &c->attrs,
                              .comm = c };
}

/* ---- passes for MPI_Comm_dup / MPI_Comm_free ---- */

typedef struct snap {
    int keyval;
    void *value;
    rd_keyval_t *k;
} snap_t;

int rd_api_attr_copy_all(rd_comm_t *old, rd_comm_t *newc)
{
    rd_list_t *pos;
    int n = 0, err = MPI_SUCCESS;

    /* Snapshot under the lock, then run the callbacks without it. */
    rd_api_lock();
    rd_list_for_each(pos, &old->attrs)
        n++;
    snap_t *s = malloc((size_t)(n ? n : 1) * sizeof(*s));
    if (!s) {
        rd_api_unlock();
        return MPI_ERR_NO_MEM;
    }
    n = 0;
    rd_list_for_each(pos, &old->attrs) {
        rd_attr_t *a = rd_list_entry(pos, rd_attr_t, link);
        rd_keyval_t *k = keyval_obj(a->keyval);
        k->refs++;
        s[n++] = (snap_t){ a->keyval, a->value, k };
    }
    rd_api_unlock();

    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        if (!s[i].k->copy)
            continue;
        void *out = NULL;
        int flag = 0;
        err = s[i].k->copy(old->handle, s[i].keyval, s[i].k->extra, s[i].value, &out, &flag);
        if (err != MPI_SUCCESS || !flag)
            continue;
        rd_attr_t *a = malloc(sizeof(*a));
        if (!a) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        a->keyval = s[i].keyval;
        a->value = out;
        rd_api_lock();
        s[i].k->refs++;
        rd_list_push_back(&newc->attrs, &a->link);
        rd_api_unlock();
    }

    rd_api_lock();
    for (int i = 0; i < n; i++)
        keyval_release(s[i].k);
    rd_api_unlock();
    free(s);
    return err;
}

int rd_api_attr_copy_dup(rd_comm_t *old, rd_comm_t *newc, const char *fn)
{
    int err = rd_api_attr_copy_all(old, newc);
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    rd_api_comm_free(newc);
    if (err == MPI_ERR_NO_MEM)
        return rd_api_error(old, err, fn, "out of memory copying attributes");
    if (err > 0 && err <= 0xff)
        return rd_api_error(old, err, fn, "an attribute copy callback returned error %d", err);
    return rd_api_raise(old, err, fn);
}

int rd_api_attr_owner_delete_all(const rd_attr_owner_t *o)
{
    for (;;) {
        rd_api_lock();
        if (rd_list_empty(o->attrs)) {
            rd_api_unlock();
            return MPI_SUCCESS;
        }
        rd_attr_t *a = rd_list_entry(o->attrs->prev, rd_attr_t, link);
        rd_keyval_t *k = keyval_obj(a->keyval);
        rd_api_unlock();

        if (k->del) {
            int err = k->del(o->handle, a->keyval, a->value, k->extra);
            if (err != MPI_SUCCESS)
                return err;
        }

        rd_api_lock();
        rd_list_remove(&a->link);
        keyval_release(k);
        rd_api_unlock();
        free(a);
    }
}

int rd_api_attr_delete_all(rd_comm_t *c)
{
    rd_attr_owner_t o = comm_owner(c);
    return rd_api_attr_owner_delete_all(&o);
}

/* ---- keyvals ---- */

int rd_api_attr_create_keyval(int obj, MPI_Comm_copy_attr_function *copy,
                              MPI_Comm_delete_attr_function *del, int *keyval, void *extra,
                              const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (!keyval)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "keyval pointer is NULL");
    rd_keyval_t *k = calloc(1, sizeof(*k));
    if (!k)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for a keyval");
    k->refs = 1;
    k->obj = obj;
    k->copy = copy;
    k->del = del;
    k->extra = extra;
    rd_api_lock();
    k->handle = rd_handle_alloc(RD_OBJ_KEYVAL, k);
    rd_api_unlock();
    if (!k->handle) {
        free(k);
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for a keyval handle");
    }
    *keyval = k->handle;
    return MPI_SUCCESS;
}

int rd_api_attr_free_keyval(int obj, int *keyval, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (!keyval)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "keyval pointer is NULL");
    if (is_predefined(*keyval))
        return rd_api_error(NULL, MPI_ERR_KEYVAL, fn,
                            "keyval 0x%x is predefined and cannot be freed", (unsigned)*keyval);
    rd_api_lock();
    /* A keyval already freed lives on while attributes hold it: freeing it
     * again then does nothing (as in MPICH, whose attr/keyval_double_free*
     * free one in its delete callback and again afterwards). */
    rd_keyval_t *k = keyval_obj(*keyval);
    if (k && k->obj != obj)
        k = NULL;
    if (k && !k->freed) {
        k->freed = 1;
        keyval_release(k);
    }
    rd_api_unlock();
    if (!k)
        return bad_keyval(NULL, obj, *keyval, fn);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_create_keyval)
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    return rd_api_attr_create_keyval(RD_OBJ_COMM, comm_copy_attr_fn, comm_delete_attr_fn,
                                     comm_keyval, extra_state, "MPI_Comm_create_keyval");
}

RD_WEAK_ALIAS(MPI_Keyval_create)
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    return rd_api_attr_create_keyval(RD_OBJ_COMM, copy_fn, delete_fn, keyval, extra_state,
                                     "MPI_Keyval_create");
}

RD_WEAK_ALIAS(MPI_Comm_free_keyval)
int PMPI_Comm_free_keyval(int *comm_keyval)
{
    return rd_api_attr_free_keyval(RD_OBJ_COMM, comm_keyval, "MPI_Comm_free_keyval");
}

RD_WEAK_ALIAS(MPI_Keyval_free)
int PMPI_Keyval_free(int *keyval)
{
    return rd_api_attr_free_keyval(RD_OBJ_COMM, keyval, "MPI_Keyval_free");
}

/* ---- attributes ---- */

/* Runs keyval's delete callback on the current value of o's attribute, if
 * there is one (lock held on entry and exit, released during the callback).
 * Returns the callback's code. */
static int run_delete(const rd_attr_owner_t *o, rd_keyval_t *k, int keyval)
{
    rd_attr_t *a = find_attr(o, keyval);
    if (!a || !k->del)
        return MPI_SUCCESS;
    void *value = a->value;
    k->refs++;
    rd_api_unlock();
    int err = k->del(o->handle, keyval, value, k->extra);
    rd_api_lock();
    keyval_release(k);
    return err;
}

/* What setting and deleting an attribute begin with: keyval live, of o's
 * kind and not predefined (what: "set" or "deleted", for the message), and
 * the delete callback run on the value already set, if any (replacing a
 * value deletes the old one first, MPI-3.1 6.7.2). On MPI_SUCCESS the lock
 * is held and *k is set; on an error it is not held. */
static int begin_change(const rd_attr_owner_t *o, int keyval, const char *what,
                        rd_keyval_t **k, const char *fn)
{
    int err;
    if (is_predefined(keyval))
        return owner_error(o, MPI_ERR_KEYVAL, fn,
                           "keyval 0x%x is a predefined attribute and cannot be %s",
                           (unsigned)keyval, what);
    rd_api_lock();
    *k = keyval_live(keyval, o->kind);
    if (!*k) {
        rd_api_unlock();
        return bad_keyval(o, o->kind, keyval, fn);
    }
    if ((err = run_delete(o, *k, keyval)) != MPI_SUCCESS) {
        rd_api_unlock();
        return callback_error(o, err, "delete", keyval, fn);
    }
    return MPI_SUCCESS;
}

int rd_api_attr_set(const rd_attr_owner_t *o, int keyval, void *value, const char *fn)
{
    rd_keyval_t *k;
    int err = begin_change(o, keyval, "set", &k, fn);
    if (err)
        return err;
    rd_attr_t *a = find_attr(o, keyval);
    if (!a) {
        a = malloc(sizeof(*a));
        if (!a) {
            rd_api_unlock();
            return owner_error(o, MPI_ERR_NO_MEM, fn, "out of memory for an attribute");
        }
        a->keyval = keyval;
        k->refs++;
        rd_list_push_back(o->attrs, &a->link);
    }
    a->value = value;
    rd_api_unlock();
    return MPI_SUCCESS;
}

int rd_api_attr_get(const rd_attr_owner_t *o, int keyval, void *value, int *flag, const char *fn)
{
    if (!value || !flag)
        return owner_error(o, MPI_ERR_ARG, fn, "attribute_val or flag pointer is NULL");
    rd_api_lock();
    if (!keyval_live(keyval, o->kind)) {
        rd_api_unlock();
        return bad_keyval(o, o->kind, keyval, fn);
    }
    rd_attr_t *a = find_attr(o, keyval);
    *flag = a != NULL;
    if (a)
        *(void **)value = a->value;
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* Deleting an attribute that is not set does nothing (as in MPICH). */
int rd_api_attr_delete(const rd_attr_owner_t *o, int keyval, const char *fn)
{
    rd_keyval_t *k;
    int err = begin_change(o, keyval, "deleted", &k, fn);
    if (err)
        return err;
    rd_attr_t *a = find_attr(o, keyval);
    if (a) {
        rd_list_remove(&a->link);
        keyval_release(k);
        free(a);
    }
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* The communicator entry points: the handle checked, then the shared steps. */

static int set_attr(MPI_Comm comm, int keyval, void *value, const char *fn)
{
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    rd_attr_owner_t o = comm_owner(c);
    return rd_api_attr_set(&o, keyval, value, fn);
}

static int get_attr(MPI_Comm comm, int keyval, void *value, int *flag, const char *fn)
{
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    int *pre = predefined_value(keyval);
    if (pre && value && flag) {
        *(void **)value = pre;
        *flag = 1;
        return MPI_SUCCESS;
    }
    rd_attr_owner_t o = comm_owner(c);
    return rd_api_attr_get(&o, keyval, value, flag, fn);
}

static int delete_attr(MPI_Comm comm, int keyval, const char *fn)
{
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    rd_attr_owner_t o = comm_owner(c);
    return rd_api_attr_delete(&o, keyval, fn);
}

RD_WEAK_ALIAS(MPI_Comm_set_attr)
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    return set_attr(comm, comm_keyval, attribute_val, "MPI_Comm_set_attr");
}

RD_WEAK_ALIAS(MPI_Attr_put)
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return set_attr(comm, keyval, attribute_val, "MPI_Attr_put");
}

RD_WEAK_ALIAS(MPI_Comm_get_attr)
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    return get_attr(comm, comm_keyval, attribute_val, flag, "MPI_Comm_get_attr");
}

RD_WEAK_ALIAS(MPI_Attr_get)
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return get_attr(comm, keyval, attribute_val, flag, "MPI_Attr_get");
}

RD_WEAK_ALIAS(MPI_Comm_delete_attr)
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    return delete_attr(comm, comm_keyval, "MPI_Comm_delete_attr");
}

RD_WEAK_ALIAS(MPI_Attr_delete)
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return delete_attr(comm, keyval, "MPI_Attr_delete");
}
