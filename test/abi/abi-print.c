/*
 * abi-print.c -- print the ABI facts of whichever mpi.h is on the include
 * path: the value, C type class and size of every constant, the size and
 * alignment of every type, and the layout of the status structs.
 *
 * abi-check.sh builds this file twice, once against MPICH's header and once
 * against ours, with the same generated name list (abi-list.h), and diffs
 * the two outputs. The program never calls MPI, so it links against no MPI
 * library: anything whose value is the address of a library symbol
 * (MPI_COMM_DUP_FN, MPI_UNWEIGHTED, ...) is not a compile-time constant and
 * is printed as "extern" instead of a number. __builtin_constant_p() folds
 * to 0 for those, so the symbol is never referenced.
 *
 * Output: one line per name, "NAME<TAB>facts", sorted by the caller.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

/* `1 ? (x) : (x)` decays arrays and functions to pointers, so sizeof and
 * _Generic work on every kind of constant (MPIO_Wait names a function). */
#define RD_DECAY(x) (1 ? (x) : (x))

#define RD_KIND(x)                                   \
    _Generic(RD_DECAY(x),                            \
             int: "int",                             \
             unsigned int: "unsigned int",           \
             long: "long",                           \
             unsigned long: "unsigned long",         \
             long long: "long long",                 \
             char *: "char *",                       \
             const char *: "const char *",           \
             void *: "void *",                       \
             int *: "int *",                         \
             char **: "char **",                     \
             char ***: "char ***",                   \
             MPI_Status *: "MPI_Status *",           \
             MPI_F08_status *: "MPI_F08_status *",   \
             default: "other")

#define RD_STRING(x)                                  \
    _Generic(RD_DECAY(x),                             \
             char *: (const char *)RD_DECAY(x),       \
             const char *: (const char *)RD_DECAY(x), \
             default: (const char *)0)

/* A constant expression (macro, enumerator, function-like macro call). */
#define RD_ABI_VALUE(x)                                                   \
    rd_value(#x, RD_KIND(x), sizeof(RD_DECAY(x)), __builtin_constant_p(x), \
             __builtin_constant_p(x) ? (long long)(intptr_t)(x) : 0LL,     \
             RD_STRING(x))

/* A function-like macro (the handle conversions): apply it to a value. */
#define RD_ABI_FNMACRO(m) RD_ABI_VALUE(m(0x44000000))

/* An object the library defines: only its declared size can be checked. */
#define RD_ABI_OBJECT(x) printf("%s\tobject size=%zu\n", #x, sizeof(x))

/* A type name. For function types GCC reports size and alignment 1. */
#define RD_ABI_TYPE(t)                                              \
    printf("%s\ttype size=%zu align=%zu kind=%s\n", #t, sizeof(t), \
           (size_t)__alignof__(t), RD_KIND(*(t *)0))

/* A macro defined with an empty body: only whether it exists matters. */
#define RD_ABI_FLAG(x, defined) printf("%s\tflag defined=%d\n", #x, defined)

#define RD_ABI_FIELD(s, f)                                            \
    printf("%s.%s\tfield offset=%zu size=%zu\n", #s, #f, offsetof(s, f), \
           sizeof(((s *)0)->f))

static void rd_value(const char *name, const char *kind, size_t size,
                     int is_const, long long value, const char *str)
{
    if (str)
        printf("%s\tvalue string=\"%s\" kind=%s\n", name, str, kind);
    else if (is_const)
        printf("%s\tvalue %lld (0x%llx) kind=%s size=%zu\n", name, value,
               (unsigned long long)value, kind, size);
    else
        printf("%s\tvalue extern kind=%s size=%zu\n", name, kind, size);
}

int main(void)
{
#include "abi-list.h"

    RD_ABI_FIELD(MPI_Status, count_lo);
    RD_ABI_FIELD(MPI_Status, count_hi_and_cancelled);
    RD_ABI_FIELD(MPI_Status, MPI_SOURCE);
    RD_ABI_FIELD(MPI_Status, MPI_TAG);
    RD_ABI_FIELD(MPI_Status, MPI_ERROR);
    RD_ABI_FIELD(MPI_F08_status, count_lo);
    RD_ABI_FIELD(MPI_F08_status, count_hi_and_cancelled);
    RD_ABI_FIELD(MPI_F08_status, MPI_SOURCE);
    RD_ABI_FIELD(MPI_F08_status, MPI_TAG);
    RD_ABI_FIELD(MPI_F08_status, MPI_ERROR);
    return 0;
}
