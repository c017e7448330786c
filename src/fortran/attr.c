/*
 * Attribute caching from Fortran. Fortran attribute values are integers, not
 * pointers: INTEGER(KIND=MPI_ADDRESS_KIND) for the MPI-2 routines, default
 * INTEGER for MPI_ATTR_PUT / MPI_ATTR_GET / MPI_KEYVAL_CREATE. A value set
 * from Fortran is stored as the C pointer value; the predefined attributes,
 * whose Fortran keys are the C keys + 1 (mpif.h), are pointers to the value
 * in C and are dereferenced here.
 *
 * Fortran copy and delete callbacks take every argument by reference and an
 * ierror, so the C library calls them through trampolines: the C keyval's
 * extra_state points at a record holding the Fortran callbacks and the
 * user's extra_state. Known limit: that record is never freed (C has no hook
 * when a keyval dies); it is a few bytes per keyval created.
 *
 * Also here: the predefined Fortran callbacks of mpif.h (MPI_NULL_COPY_FN,
 * MPI_COMM_DUP_FN ...).
 */
#include "fortran/fortran.h"

#include <stdlib.h>

/* mpi.h defines the C callbacks under the names of the Fortran ones made
 * here; in this file the names are the Fortran symbols. */
#undef MPI_NULL_COPY_FN
#undef MPI_NULL_DELETE_FN
#undef MPI_DUP_FN
#undef MPI_COMM_NULL_COPY_FN
#undef MPI_COMM_NULL_DELETE_FN
#undef MPI_COMM_DUP_FN
#undef MPI_TYPE_NULL_COPY_FN
#undef MPI_TYPE_NULL_DELETE_FN
#undef MPI_TYPE_DUP_FN
#undef MPI_WIN_NULL_COPY_FN
#undef MPI_WIN_NULL_DELETE_FN
#undef MPI_WIN_DUP_FN

/* The four spellings of a Fortran-callable function that has no PMPI twin. */
#define RD_F_CALLBACK_NAMES(lower, upper)  \
    RD_F_ALIAS(lower##_, lower##__)        \
    RD_F_ALIAS(lower##_, lower)            \
    RD_F_ALIAS(lower##_, upper)

typedef void (rd_f_copy_fn)(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra_state,
                            MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierr);
typedef void (rd_f_delete_fn)(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *value,
                              MPI_Aint *extra_state, MPI_Fint *ierr);
/* MPI-1 (MPI_KEYVAL_CREATE): default INTEGER values and extra_state. */
typedef void (rd_f_copy1_fn)(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra_state,
                             MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierr);
typedef void (rd_f_delete1_fn)(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *value,
                               MPI_Fint *extra_state, MPI_Fint *ierr);

typedef struct rd_f_keyval {
    int mpi1;                   /* callbacks take default INTEGERs */
    void (*copy)(void);         /* rd_f_copy_fn or rd_f_copy1_fn */
    void (*del)(void);          /* rd_f_delete_fn or rd_f_delete1_fn */
    MPI_Aint extra_state;
} rd_f_keyval_t;

/* Objects are all int handles in C, so one trampoline serves comm, type and
 * window keyvals. */
static int copy_trampoline(int old, int keyval, void *extra_state, void *in, void *out,
                           int *flag)
{
    rd_f_keyval_t *k = extra_state;
    MPI_Fint fold = old, fkeyval = keyval, fflag = 0, ierr = MPI_SUCCESS;

    if (k->mpi1) {
        MPI_Fint es = (MPI_Fint)k->extra_state, vin = (MPI_Fint)(MPI_Aint)in, vout = 0;
        ((rd_f_copy1_fn *)(void *)k->copy)(&fold, &fkeyval, &es, &vin, &vout, &fflag, &ierr);
        *(void **)out = (void *)(MPI_Aint)vout;
    } else {
        MPI_Aint es = k->extra_state, vin = (MPI_Aint)in, vout = 0;
        ((rd_f_copy_fn *)(void *)k->copy)(&fold, &fkeyval, &es, &vin, &vout, &fflag, &ierr);
        *(void **)out = (void *)vout;
    }
    *flag = fflag != 0;
    return ierr;
}

static int delete_trampoline(int obj, int keyval, void *value, void *extra_state)
{
    rd_f_keyval_t *k = extra_state;
    MPI_Fint fobj = obj, fkeyval = keyval, ierr = MPI_SUCCESS;

    if (k->mpi1) {
        MPI_Fint es = (MPI_Fint)k->extra_state, v = (MPI_Fint)(MPI_Aint)value;
        ((rd_f_delete1_fn *)(void *)k->del)(&fobj, &fkeyval, &v, &es, &ierr);
    } else {
        MPI_Aint es = k->extra_state, v = (MPI_Aint)value;
        ((rd_f_delete_fn *)(void *)k->del)(&fobj, &fkeyval, &v, &es, &ierr);
    }
    return ierr;
}

static rd_f_keyval_t *keyval_record(int mpi1, void (*copy)(void), void (*del)(void),
                                    MPI_Aint extra_state)
{
    rd_f_keyval_t *k = malloc(sizeof(*k));

    if (k != NULL) {
        k->mpi1 = mpi1;
        k->copy = copy;
        k->del = del;
        k->extra_state = extra_state;
    }
    return k;
}

/* The C create-keyval functions all have this shape: handles are ints. */
typedef int (*c_create_keyval_fn)(MPI_Comm_copy_attr_function *copy,
                                  MPI_Comm_delete_attr_function *del, int *keyval,
                                  void *extra_state);

/* A create-keyval call from Fortran: the record of the Fortran callbacks
 * becomes the C keyval's extra_state, and the trampolines its callbacks. */
static void create_keyval(c_create_keyval_fn create, int mpi1, void (*copy)(void),
                          void (*del)(void), MPI_Aint extra_state, MPI_Fint *keyval,
                          MPI_Fint *ierr)
{
    rd_f_keyval_t *k = keyval_record(mpi1, copy, del, extra_state);

    if (k == NULL) {
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    *ierr = create(copy_trampoline, delete_trampoline, keyval, k);
    if (*ierr != MPI_SUCCESS)
        free(k);
}

RD_F_EXPORT void pmpi_comm_create_keyval_(rd_f_copy_fn *copy, rd_f_delete_fn *del,
                                          MPI_Fint *keyval, MPI_Aint *extra_state,
                                          MPI_Fint *ierr)
{
    create_keyval(PMPI_Comm_create_keyval, 0, (void (*)(void))copy, (void (*)(void))del,
                  *extra_state, keyval, ierr);
}
RD_F_NAMES(mpi_comm_create_keyval, MPI_COMM_CREATE_KEYVAL)

RD_F_EXPORT void pmpi_type_create_keyval_(rd_f_copy_fn *copy, rd_f_delete_fn *del,
                                          MPI_Fint *keyval, MPI_Aint *extra_state,
                                          MPI_Fint *ierr)
{
    create_keyval(PMPI_Type_create_keyval, 0, (void (*)(void))copy, (void (*)(void))del,
                  *extra_state, keyval, ierr);
}
RD_F_NAMES(mpi_type_create_keyval, MPI_TYPE_CREATE_KEYVAL)

RD_F_EXPORT void pmpi_win_create_keyval_(rd_f_copy_fn *copy, rd_f_delete_fn *del,
                                         MPI_Fint *keyval, MPI_Aint *extra_state,
                                         MPI_Fint *ierr)
{
    create_keyval(PMPI_Win_create_keyval, 0, (void (*)(void))copy, (void (*)(void))del,
                  *extra_state, keyval, ierr);
}
RD_F_NAMES(mpi_win_create_keyval, MPI_WIN_CREATE_KEYVAL)

RD_F_EXPORT void pmpi_keyval_create_(rd_f_copy1_fn *copy, rd_f_delete1_fn *del,
                                     MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *ierr)
{
    create_keyval(PMPI_Keyval_create, 1, (void (*)(void))copy, (void (*)(void))del,
                  *extra_state, keyval, ierr);
}
RD_F_NAMES(mpi_keyval_create, MPI_KEYVAL_CREATE)

/* ------------------------------------------------------------------------
 * Set and get. Fortran keys of predefined attributes are the C key + 1.
 * ------------------------------------------------------------------------ */

/* How C hands out the value of a predefined attribute. */
enum value_kind {
    VALUE_PTR,      /* the pointer is the value (MPI_WIN_BASE) */
    VALUE_INT,      /* a pointer to an int */
    VALUE_AINT,     /* a pointer to an MPI_Aint */
};

typedef struct predefined {
    int ckey;
    enum value_kind kind;
} predefined_t;

static const predefined_t comm_keys[] = {
    { MPI_TAG_UB, VALUE_INT },          { MPI_HOST, VALUE_INT },
    { MPI_IO, VALUE_INT },              { MPI_WTIME_IS_GLOBAL, VALUE_INT },
    { MPI_UNIVERSE_SIZE, VALUE_INT },   { MPI_LASTUSEDCODE, VALUE_INT },
    { MPI_APPNUM, VALUE_INT },
};

static const predefined_t win_keys[] = {
    { MPI_WIN_BASE, VALUE_PTR },        { MPI_WIN_SIZE, VALUE_AINT },
    { MPI_WIN_DISP_UNIT, VALUE_INT },   { MPI_WIN_CREATE_FLAVOR, VALUE_INT },
    { MPI_WIN_MODEL, VALUE_INT },
};

/* The predefined attribute (of the n in keys) whose Fortran key is fkeyval,
 * or NULL for a user key (the same number in C and Fortran). */
static const predefined_t *find_predefined(const predefined_t *keys, size_t n, int fkeyval)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i].ckey == fkeyval - 1)
            return &keys[i];
    return NULL;
}

/* The C get-attribute functions all have this shape: handles are ints. */
typedef int (*c_get_attr_fn)(int obj, int keyval, void *value, int *flag);

/* A get-attribute call from Fortran: calls get on the C key of fkeyval and
 * sets *ierr and *flag, and *value when the attribute is set (returning 1):
 * the stored pointer value of a user key, the pointed-to value of a
 * predefined one. */
static int get_attr(c_get_attr_fn get, MPI_Fint obj, MPI_Fint fkeyval, const predefined_t *keys,
                    size_t nkeys, MPI_Aint *value, MPI_Fint *flag, MPI_Fint *ierr)
{
    const predefined_t *p = find_predefined(keys, nkeys, fkeyval);
    void *c = NULL;
    int f = 0;

    *ierr = get(obj, p ? fkeyval - 1 : fkeyval, &c, &f);
    if (*ierr != MPI_SUCCESS)
        return 0;
    *flag = rd_f_logical(f);
    if (!f)
        return 0;
    if (!p || p->kind == VALUE_PTR)
        *value = (MPI_Aint)c;
    else if (p->kind == VALUE_INT)
        *value = *(int *)c;
    else
        *value = *(MPI_Aint *)c;
    return 1;
}

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

RD_F_EXPORT void pmpi_comm_set_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value,
                                     MPI_Fint *ierr)
{
    *ierr = PMPI_Comm_set_attr(*comm, *keyval, (void *)*value);
}
RD_F_NAMES(mpi_comm_set_attr, MPI_COMM_SET_ATTR)

RD_F_EXPORT void pmpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *value,
                                     MPI_Fint *flag, MPI_Fint *ierr)
{
    get_attr(PMPI_Comm_get_attr, *comm, *keyval, comm_keys, NKEYS(comm_keys), value, flag, ierr);
}
RD_F_NAMES(mpi_comm_get_attr, MPI_COMM_GET_ATTR)

RD_F_EXPORT void pmpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *value,
                                MPI_Fint *ierr)
{
    *ierr = PMPI_Attr_put(*comm, *keyval, (void *)(MPI_Aint)*value);
}
RD_F_NAMES(mpi_attr_put, MPI_ATTR_PUT)

RD_F_EXPORT void pmpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *value,
                                MPI_Fint *flag, MPI_Fint *ierr)
{
    MPI_Aint v;

    if (get_attr(PMPI_Attr_get, *comm, *keyval, comm_keys, NKEYS(comm_keys), &v, flag, ierr))
        *value = (MPI_Fint)v;
}
RD_F_NAMES(mpi_attr_get, MPI_ATTR_GET)

RD_F_EXPORT void pmpi_type_set_attr_(MPI_Fint *datatype, MPI_Fint *keyval, MPI_Aint *value,
                                     MPI_Fint *ierr)
{
    *ierr = PMPI_Type_set_attr(*datatype, *keyval, (void *)*value);
}
RD_F_NAMES(mpi_type_set_attr, MPI_TYPE_SET_ATTR)

RD_F_EXPORT void pmpi_type_get_attr_(MPI_Fint *datatype, MPI_Fint *keyval, MPI_Aint *value,
                                     MPI_Fint *flag, MPI_Fint *ierr)
{
    get_attr(PMPI_Type_get_attr, *datatype, *keyval, NULL, 0, value, flag, ierr);
}
RD_F_NAMES(mpi_type_get_attr, MPI_TYPE_GET_ATTR)

RD_F_EXPORT void pmpi_win_set_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *value,
                                    MPI_Fint *ierr)
{
    *ierr = PMPI_Win_set_attr(*win, *keyval, (void *)*value);
}
RD_F_NAMES(mpi_win_set_attr, MPI_WIN_SET_ATTR)

RD_F_EXPORT void pmpi_win_get_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *value,
                                    MPI_Fint *flag, MPI_Fint *ierr)
{
    get_attr(PMPI_Win_get_attr, *win, *keyval, win_keys, NKEYS(win_keys), value, flag, ierr);
}
RD_F_NAMES(mpi_win_get_attr, MPI_WIN_GET_ATTR)

/* ------------------------------------------------------------------------
 * The predefined callbacks of mpif.h.
 * ------------------------------------------------------------------------ */

RD_F_EXPORT void mpi_null_copy_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra_state,
                                   MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                                   MPI_Fint *ierr)
{
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
RD_F_CALLBACK_NAMES(mpi_null_copy_fn, MPI_NULL_COPY_FN)

RD_F_EXPORT void mpi_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra_state,
                             MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierr)
{
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
RD_F_CALLBACK_NAMES(mpi_dup_fn, MPI_DUP_FN)

RD_F_EXPORT void mpi_null_delete_fn_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *value,
                                     MPI_Fint *extra_state, MPI_Fint *ierr)
{
    *ierr = MPI_SUCCESS;
}
RD_F_CALLBACK_NAMES(mpi_null_delete_fn, MPI_NULL_DELETE_FN)

RD_F_EXPORT void mpi_comm_null_copy_fn_(MPI_Fint *old, MPI_Fint *keyval,
                                        MPI_Aint *extra_state, MPI_Aint *in, MPI_Aint *out,
                                        MPI_Fint *flag, MPI_Fint *ierr)
{
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
RD_F_CALLBACK_NAMES(mpi_comm_null_copy_fn, MPI_COMM_NULL_COPY_FN)
RD_F_ALIAS(mpi_comm_null_copy_fn_, mpi_type_null_copy_fn_)
RD_F_CALLBACK_NAMES(mpi_type_null_copy_fn, MPI_TYPE_NULL_COPY_FN)
RD_F_ALIAS(mpi_comm_null_copy_fn_, mpi_win_null_copy_fn_)
RD_F_CALLBACK_NAMES(mpi_win_null_copy_fn, MPI_WIN_NULL_COPY_FN)

RD_F_EXPORT void mpi_comm_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra_state,
                                  MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,
                                  MPI_Fint *ierr)
{
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
RD_F_CALLBACK_NAMES(mpi_comm_dup_fn, MPI_COMM_DUP_FN)
RD_F_ALIAS(mpi_comm_dup_fn_, mpi_type_dup_fn_)
RD_F_CALLBACK_NAMES(mpi_type_dup_fn, MPI_TYPE_DUP_FN)
RD_F_ALIAS(mpi_comm_dup_fn_, mpi_win_dup_fn_)
RD_F_CALLBACK_NAMES(mpi_win_dup_fn, MPI_WIN_DUP_FN)

RD_F_EXPORT void mpi_comm_null_delete_fn_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *value,
                                          MPI_Aint *extra_state, MPI_Fint *ierr)
{
    *ierr = MPI_SUCCESS;
}
RD_F_CALLBACK_NAMES(mpi_comm_null_delete_fn, MPI_COMM_NULL_DELETE_FN)
RD_F_ALIAS(mpi_comm_null_delete_fn_, mpi_type_null_delete_fn_)
RD_F_CALLBACK_NAMES(mpi_type_null_delete_fn, MPI_TYPE_NULL_DELETE_FN)
RD_F_ALIAS(mpi_comm_null_delete_fn_, mpi_win_null_delete_fn_)
RD_F_CALLBACK_NAMES(mpi_win_null_delete_fn, MPI_WIN_NULL_DELETE_FN)
