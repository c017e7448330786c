/*
 * Error classes, codes and strings the program adds (MPI-3.1 8.5):
 * MPI_Add_error_class, MPI_Add_error_code and MPI_Add_error_string, and what
 * MPI_Error_class, MPI_Error_string and the MPI_LASTUSEDCODE attribute
 * (errors.c, attr.c) need to know about them.
 *
 * rdmpi's own codes are below MPI_ERR_LASTCODE (a class in the low 8 bits
 * and a message slot above it, api.c). Added ones are above it, as the
 * standard's MPI_LASTUSEDCODE >= MPI_ERR_LASTCODE implies and as MPICH does:
 * bit 30 set, then for a class its index in the low 7 bits, for a code its
 * index + 1 from bit 7 up (so a class is never a code). A code's class, which
 * may be predefined, is kept in a table. At most 128 classes and 8192 codes
 * can be added, MPICH's limits; MPICH's MPIX_Delete_error_class / code /
 * string remove them again and their numbers are reused.
 */
#include "api/errclass_user.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

#define DYN_BIT 0x40000000
#define MAX_CLASSES 128
#define MAX_CODES 8192

/* Entries 0..n-1 have been handed out; deleted ones (not live) are reused
 * first, lowest index first. */
static struct user_class {
    int live;
    char *string;          /* NULL: no string set */
} classes[MAX_CLASSES];
static int nclasses;

static struct user_code {
    int live;
    int cls;
    char *string;
} codes[MAX_CODES];
static int ncodes;

static int last_used = MPI_ERR_LASTCODE;

/* Its own lock, not the library's: error paths that hold the library lock
 * ask for a code's string too. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Index of an added class (0..nclasses-1) or of an added code, or -1. */
static int class_index(int v)
{
    if (!(v & DYN_BIT) || (v & ~(DYN_BIT | 0x7f)))
        return -1;
    int k = v & 0x7f;
    return k < nclasses && classes[k].live ? k : -1;
}

static int code_index(int v)
{
    if (!(v & DYN_BIT) || (v & 0x7f))
        return -1;
    int j = ((v & ~DYN_BIT) >> 7) - 1;
    return j >= 0 && j < ncodes && codes[j].live ? j : -1;
}

static void note_used(int v)
{
    if (v > last_used)
        last_used = v;
}

int rd_api_user_error_class(int code, int *cls)
{
    pthread_mutex_lock(&lock);
    int k = class_index(code), j = code_index(code);
    int found = k >= 0 || j >= 0;
    if (found)
        *cls = k >= 0 ? code : codes[j].cls;
    pthread_mutex_unlock(&lock);
    return found;
}

int rd_api_user_error_string(int code, char *out, size_t len)
{
    pthread_mutex_lock(&lock);
    int k = class_index(code), j = code_index(code);
    int found = k >= 0 || j >= 0;
    if (found) {
        const char *s = k >= 0 ? classes[k].string : codes[j].string;
        snprintf(out, len, "%s", s ? s : "");
    }
    pthread_mutex_unlock(&lock);
    return found;
}

int rd_api_user_last_code(void)
{
    pthread_mutex_lock(&lock);
    int v = last_used;
    pthread_mutex_unlock(&lock);
    return v;
}

/* Whether cls is a class a code may be added to: predefined (not
 * MPI_SUCCESS) or added. */
static int is_class(int cls)
{
    return class_index(cls) >= 0 || (cls != MPI_SUCCESS && rd_api_class_known(cls));
}

RD_WEAK_ALIAS(MPI_Add_error_class)
int PMPI_Add_error_class(int *errorclass)
{
    static const char fn[] = "MPI_Add_error_class";
    RD_API_CHECK_INIT(fn);
    if (!errorclass)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "errorclass pointer is NULL");
    pthread_mutex_lock(&lock);
    int k = 0;
    while (k < nclasses && classes[k].live)
        k++;
    if (k == nclasses)
        k = nclasses < MAX_CLASSES ? nclasses++ : -1;
    if (k >= 0) {
        classes[k] = (struct user_class){ 1, NULL };
        *errorclass = DYN_BIT | k;
        note_used(*errorclass);
    }
    pthread_mutex_unlock(&lock);
    if (k < 0)
        return rd_api_error(NULL, MPI_ERR_OTHER, fn, "all %d error classes a program may add "
                            "are in use", MAX_CLASSES);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Add_error_code)
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    static const char fn[] = "MPI_Add_error_code";
    RD_API_CHECK_INIT(fn);
    if (!errorcode)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "errorcode pointer is NULL");
    if (!is_class(errorclass))
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "%d is not an error class (predefined or added by "
                            "MPI_Add_error_class)", errorclass);
    pthread_mutex_lock(&lock);
    int j = 0;
    while (j < ncodes && codes[j].live)
        j++;
    if (j == ncodes)
        j = ncodes < MAX_CODES ? ncodes++ : -1;
    if (j >= 0) {
        codes[j] = (struct user_code){ 1, errorclass, NULL };
        *errorcode = DYN_BIT | ((j + 1) << 7);
        note_used(*errorcode);
    }
    pthread_mutex_unlock(&lock);
    if (j < 0)
        return rd_api_error(NULL, MPI_ERR_OTHER, fn, "all %d error codes a program may add "
                            "are in use", MAX_CODES);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Add_error_string)
int PMPI_Add_error_string(int errorcode, const char *string)
{
    static const char fn[] = "MPI_Add_error_string";
    RD_API_CHECK_INIT(fn);
    if (!string)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "string is NULL");
    size_t len = strlen(string);
    if (len >= MPI_MAX_ERROR_STRING)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "string of %zu characters: at most %d fit (MPI_MAX_ERROR_STRING - 1)",
                            len, MPI_MAX_ERROR_STRING - 1);
    char *copy = strdup(string);
    if (!copy)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for the string");
    pthread_mutex_lock(&lock);
    int k = class_index(errorcode), j = code_index(errorcode);
    char **slot = k >= 0 ? &classes[k].string : j >= 0 ? &codes[j].string : NULL;
    char *old = NULL;
    if (slot) {
        old = *slot;
        *slot = copy;
    }
    pthread_mutex_unlock(&lock);
    free(slot ? old : copy);
    if (!slot)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "error code %d was not added by MPI_Add_error_class or "
                            "MPI_Add_error_code: predefined strings cannot be changed",
                            errorcode);
    return MPI_SUCCESS;
}

/* ---- removal (MPICH's MPIX_ extension) ---- */

/* Whether any live code belongs to class cls (lock held). */
static int class_in_use(int cls)
{
    for (int j = 0; j < ncodes; j++)
        if (codes[j].live && codes[j].cls == cls)
            return 1;
    return 0;
}

RD_WEAK_ALIAS(MPIX_Delete_error_class)
int PMPIX_Delete_error_class(int errorclass)
{
    static const char fn[] = "MPIX_Delete_error_class";
    RD_API_CHECK_INIT(fn);
    pthread_mutex_lock(&lock);
    int k = class_index(errorclass), busy = k >= 0 && class_in_use(errorclass);
    if (k >= 0 && !busy) {
        free(classes[k].string);
        classes[k] = (struct user_class){ 0, NULL };
    }
    pthread_mutex_unlock(&lock);
    if (k < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "%d is not a class added by MPI_Add_error_class", errorclass);
    if (busy)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "error class %d still has codes: delete them first", errorclass);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPIX_Delete_error_code)
int PMPIX_Delete_error_code(int errorcode)
{
    static const char fn[] = "MPIX_Delete_error_code";
    RD_API_CHECK_INIT(fn);
    pthread_mutex_lock(&lock);
    int j = code_index(errorcode);
    if (j >= 0) {
        free(codes[j].string);
        codes[j] = (struct user_code){ 0, 0, NULL };
    }
    pthread_mutex_unlock(&lock);
    if (j < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "%d is not a code added by MPI_Add_error_code", errorcode);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPIX_Delete_error_string)
int PMPIX_Delete_error_string(int errorcode)
{
    static const char fn[] = "MPIX_Delete_error_string";
    RD_API_CHECK_INIT(fn);
    pthread_mutex_lock(&lock);
    int k = class_index(errorcode), j = code_index(errorcode);
    char **slot = k >= 0 ? &classes[k].string : j >= 0 ? &codes[j].string : NULL;
    if (slot) {
        free(*slot);
        *slot = NULL;
    }
    pthread_mutex_unlock(&lock);
    if (!slot)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "%d is not a class or code added by MPI_Add_error_class or "
                            "MPI_Add_error_code", errorcode);
    return MPI_SUCCESS;
}
