/*
 * Info objects (MPI-3.1 9.2, plus MPI-4's MPI_Info_get_string and
 * MPI_Info_create_env): ordered (key, value) lists with MPI's limits on
 * key and value lengths. MPI_INFO_ENV is a static object filled at its first
 * use with what rdmpi knows about the launch (maxprocs); the user cannot free
 * or change it. As MPI-4.0 allows, every function here works before MPI_Init
 * and after MPI_Finalize: objects are plain memory and their handles live in
 * tables that need no runtime.
 *
 * Objects hold a handful of keys, so lookups are linear.
 */
#include "api/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

static rd_info_t info_env = { .handle = MPI_INFO_ENV };
static int info_env_filled;

/* ---- objects (lock held) ---- */

static int find(const rd_info_t *info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (!strcmp(info->e[i].key, key))
            return i;
    return -1;
}

/* Sets key to value (both already checked); returns an internal status. */
static int set(rd_info_t *info, const char *key, const char *value)
{
    char *v = strdup(value);
    if (!v)
        return RD_ENOMEM;
    int i = find(info, key);
    if (i >= 0) {
        free(info->e[i].value);
        info->e[i].value = v;
        return RD_OK;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        rd_info_entry_t *e = realloc(info->e, (size_t)cap * sizeof(*e));
        if (!e) {
            free(v);
            return RD_ENOMEM;
        }
        info->e = e;
        info->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return RD_ENOMEM;
    }
    info->e[info->n++] = (rd_info_entry_t){ k, v };
    return RD_OK;
}

int rd_api_info_set(rd_info_t *info, const char *key, const char *value)
{
    return set(info, key, value);
}

const char *rd_api_info_value(const rd_info_t *info, const char *key)
{
    int i = info ? find(info, key) : -1;
    return i >= 0 ? info->e[i].value : NULL;
}

/* Filled once the runtime knows the launch; before that it stays empty. */
static void fill_env(void)
{
    char buf[32];
    if (!rd_api.initialized)
        return;
    info_env_filled = 1;
    snprintf(buf, sizeof(buf), "%d", rd_api.boot.size);
    /* Out of memory leaves the object with fewer keys, which is allowed. */
    set(&info_env, "maxprocs", buf);
}

rd_info_t *rd_api_info(MPI_Info h)
{
    if (h == MPI_INFO_ENV) {
        if (!info_env_filled)
            fill_env();
        return &info_env;
    }
    return rd_handle_get(RD_OBJ_INFO, h);
}

void rd_api_info_destroy(rd_info_t *info)
{
    if (!info || info == &info_env)
        return;
    for (int i = 0; i < info->n; i++) {
        free(info->e[i].key);
        free(info->e[i].value);
    }
    free(info->e);
    if (info->handle)
        rd_handle_free(info->handle);
    free(info);
}

rd_info_t *rd_api_info_copy(const rd_info_t *src)
{
    rd_info_t *info = calloc(1, sizeof(*info));
    if (!info)
        return NULL;
    for (int i = 0; src && i < src->n; i++)
        if (set(info, src->e[i].key, src->e[i].value) != RD_OK) {
            rd_api_info_destroy(info);
            return NULL;
        }
    return info;
}

int rd_api_info_copy_handle(const rd_info_t *src)
{
    rd_info_t *info = rd_api_info_copy(src);
    if (!info)
        return 0;
    int h = rd_handle_alloc(RD_OBJ_INFO, info);
    if (!h) {
        rd_api_info_destroy(info);
        return 0;
    }
    info->handle = h;
    return h;
}

/* ---- argument checks (lock not held) ---- */

static int check_info(MPI_Info h, rd_info_t **info, const char *fn)
{
    rd_api_lock();
    *info = rd_api_info(h);
    rd_api_unlock();
    if (*info)
        return MPI_SUCCESS;
    if (h == MPI_INFO_NULL)
        return rd_api_error(NULL, MPI_ERR_INFO, fn, "info is MPI_INFO_NULL");
    return rd_api_error(NULL, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)h);
}

static int check_key(const char *key, const char *fn)
{
    if (!key)
        return rd_api_error(NULL, MPI_ERR_INFO_KEY, fn, "key is NULL");
    size_t n = strnlen(key, MPI_MAX_INFO_KEY + 1);
    if (n == 0)
        return rd_api_error(NULL, MPI_ERR_INFO_KEY, fn, "key is empty");
    if (n > MPI_MAX_INFO_KEY)
        return rd_api_error(NULL, MPI_ERR_INFO_KEY, fn,
                            "key is longer than MPI_MAX_INFO_KEY (%d) characters",
                            MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

static int check_out(const void *p, const char *what, const char *fn)
{
    if (p)
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_ARG, fn, "%s pointer is NULL", what);
}

/* ---- creation and destruction ---- */

/* A new object with a copy of src's entries (none for NULL), handed out in
 * *newinfo. */
static int dup_to_user(const rd_info_t *src, MPI_Info *newinfo, const char *fn)
{
    rd_api_lock();
    int h = rd_api_info_copy_handle(src);
    rd_api_unlock();
    if (!h)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for an info object");
    *newinfo = h;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Info_create)
int PMPI_Info_create(MPI_Info *info)
{
    static const char fn[] = "MPI_Info_create";
    int err;
    if ((err = check_out(info, "info", fn)))
        return err;
    return dup_to_user(NULL, info, fn);
}

RD_WEAK_ALIAS(MPI_Info_dup)
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    static const char fn[] = "MPI_Info_dup";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_out(newinfo, "newinfo", fn)))
        return err;
    return dup_to_user(o, newinfo, fn);
}

/* The same object before MPI_Init, after it and after MPI_Finalize (as
 * MPI-4.0 asks): "command" and "argv" from the arguments, nothing that only
 * the running library knows (MPI_INFO_ENV has maxprocs besides). */
RD_WEAK_ALIAS(MPI_Info_create_env)
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    static const char fn[] = "MPI_Info_create_env";
    int err;
    if ((err = check_out(info, "info", fn)))
        return err;
    if (argc < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "argc %d is negative", argc);
    rd_api_lock();
    rd_info_t *o = rd_api_info_copy(NULL);
    int rc = o ? RD_OK : RD_ENOMEM, h = 0;
    if (rc == RD_OK && argv && argc > 0 && argv[0])
        rc = set(o, "command", argv[0]);
    if (rc == RD_OK && argv && argc > 1) {
        char args[MPI_MAX_INFO_VAL + 1] = "";
        size_t n = 0;
        for (int i = 1; i < argc && argv[i]; i++) {
            int w = snprintf(args + n, sizeof(args) - n, "%s%s", i > 1 ? " " : "", argv[i]);
            if (w < 0 || (size_t)w >= sizeof(args) - n)
                break; /* longer than an info value can be: cut there */
            n += (size_t)w;
        }
        rc = set(o, "argv", args);
    }
    if (rc == RD_OK && !(h = rd_handle_alloc(RD_OBJ_INFO, o)))
        rc = RD_ENOMEM;
    if (rc == RD_OK)
        o->handle = h;
    else
        rd_api_info_destroy(o);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for an info object");
    *info = h;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Info_free)
int PMPI_Info_free(MPI_Info *info)
{
    static const char fn[] = "MPI_Info_free";
    rd_info_t *o;
    int err;
    if ((err = check_out(info, "info", fn)) || (err = check_info(*info, &o, fn)))
        return err;
    if (o == &info_env)
        return rd_api_error(NULL, MPI_ERR_INFO, fn, "MPI_INFO_ENV is predefined and cannot be freed");
    rd_api_lock();
    rd_api_info_destroy(o);
    rd_api_unlock();
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

/* ---- entries ---- */

RD_WEAK_ALIAS(MPI_Info_set)
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    static const char fn[] = "MPI_Info_set";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_key(key, fn)))
        return err;
    if (!value)
        return rd_api_error(NULL, MPI_ERR_INFO_VALUE, fn, "value is NULL");
    if (strnlen(value, MPI_MAX_INFO_VAL + 1) > MPI_MAX_INFO_VAL)
        return rd_api_error(NULL, MPI_ERR_INFO_VALUE, fn,
                            "value is longer than MPI_MAX_INFO_VAL (%d) characters",
                            MPI_MAX_INFO_VAL);
    if (o == &info_env)
        return rd_api_error(NULL, MPI_ERR_INFO, fn, "MPI_INFO_ENV is predefined and read-only");
    rd_api_lock();
    int rc = set(o, key, value);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for key \"%s\"", key);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Info_delete)
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    static const char fn[] = "MPI_Info_delete";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_key(key, fn)))
        return err;
    if (o == &info_env)
        return rd_api_error(NULL, MPI_ERR_INFO, fn, "MPI_INFO_ENV is predefined and read-only");
    rd_api_lock();
    int i = find(o, key);
    if (i >= 0) {
        free(o->e[i].key);
        free(o->e[i].value);
        memmove(&o->e[i], &o->e[i + 1], (size_t)(o->n - i - 1) * sizeof(o->e[0]));
        o->n--;
    }
    rd_api_unlock();
    if (i < 0)
        return rd_api_error(NULL, MPI_ERR_INFO_NOKEY, fn, "key \"%s\" is not set", key);
    return MPI_SUCCESS;
}

/* Copies the value of key into value (at most valuelen characters plus the
 * terminating NUL, as MPI-3.1 says: a longer value is truncated). */
RD_WEAK_ALIAS(MPI_Info_get)
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    static const char fn[] = "MPI_Info_get";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_key(key, fn)) ||
        (err = check_out(flag, "flag", fn)))
        return err;
    if (valuelen < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "valuelen %d is negative", valuelen);
    if (!value)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "value pointer is NULL");
    rd_api_lock();
    int i = find(o, key);
    *flag = i >= 0;
    if (i >= 0) {
        size_t n = strnlen(o->e[i].value, (size_t)valuelen);
        memcpy(value, o->e[i].value, n);
        value[n] = '\0';
    }
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Info_get_valuelen)
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    static const char fn[] = "MPI_Info_get_valuelen";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_key(key, fn)) ||
        (err = check_out(valuelen, "valuelen", fn)) || (err = check_out(flag, "flag", fn)))
        return err;
    rd_api_lock();
    int i = find(o, key);
    *flag = i >= 0;
    if (i >= 0)
        *valuelen = (int)strlen(o->e[i].value);
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* MPI-4: *buflen in is the buffer size (0: only ask for the length); out,
 * the size the whole value needs, NUL included. */
RD_WEAK_ALIAS(MPI_Info_get_string)
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    static const char fn[] = "MPI_Info_get_string";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_key(key, fn)) ||
        (err = check_out(buflen, "buflen", fn)) || (err = check_out(flag, "flag", fn)))
        return err;
    if (*buflen < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "*buflen %d is negative", *buflen);
    if (*buflen > 0 && !value)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "value pointer is NULL");
    rd_api_lock();
    int i = find(o, key);
    *flag = i >= 0;
    if (i >= 0) {
        size_t len = strlen(o->e[i].value);
        if (*buflen > 0) {
            size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;
            memcpy(value, o->e[i].value, n);
            value[n] = '\0';
        }
        *buflen = (int)len + 1;
    }
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Info_get_nkeys)
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    static const char fn[] = "MPI_Info_get_nkeys";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_out(nkeys, "nkeys", fn)))
        return err;
    rd_api_lock();
    *nkeys = o->n;
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Info_get_nthkey)
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    static const char fn[] = "MPI_Info_get_nthkey";
    rd_info_t *o;
    int err;
    if ((err = check_info(info, &o, fn)) || (err = check_out(key, "key", fn)))
        return err;
    rd_api_lock();
    int nkeys = o->n;
    if (n >= 0 && n < nkeys)
        strcpy(key, o->e[n].key);
    rd_api_unlock();
    if (n < 0 || n >= nkeys)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "n = %d is out of range: the object has %d keys",
                            n, nkeys);
    return MPI_SUCCESS;
}
