/* Error handler objects (see errhandler.h). Predefined handlers are static
 * objects registered by the API layer and never freed (refs never reach 0). */
#include "core/errhandler.h"

#include <stdlib.h>

#include "core/handle.h"

rd_errhandler_t *rd_errh_new(int kind, int obj, rd_errh_fn fn)
{
    rd_errhandler_t *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->refs = 1;
    e->kind = kind;
    e->obj = obj;
    e->fn = fn;
    return e;
}

void rd_errh_ref(rd_errhandler_t *e)
{
    e->refs++;
}

void rd_errh_release(rd_errhandler_t *e)
{
    if (!e || --e->refs > 0)
        return;
    if (e->handle)
        rd_handle_free(e->handle);
    free(e);
}
