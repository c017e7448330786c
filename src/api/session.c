/*
 * Sessions (MPI-4.0 11.3): MPI_Session_init / finalize, the process sets
 * "mpi://WORLD" and "mpi://SELF", groups made from them, session error
 * handlers, and the communicators built from a group without a parent
 * (MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups).
 *
 * A session is a user of the runtime that MPI_Init also starts (init.c):
 * the first user starts it, the last finalize ends it. Communicators made
 * from a group agree on their context id among the group's members over
 * the runtime's MPI_COMM_WORLD (which exists once the runtime runs, whether
 * or not the user called MPI_Init), with messages tagged by a hash of the
 * string tag. Known limit: two concurrent constructions over overlapping
 * groups whose string tags hash alike may cross; the standard asks users to
 * keep tags of concurrent calls distinct, and a 30-bit hash makes a clash of
 * distinct tags unlikely.
 */
#include "api/comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/info.h"
#include "coll/ctxid.h"

typedef struct rd_session {
    int handle;
    rd_errhandler_t *errh;
    rd_info_t *info;           /* what MPI_Session_get_info returns */
} rd_session_t;

static const char *const pset_names[] = { "mpi://WORLD", "mpi://SELF" };
#define N_PSETS 2

static const char *const level_names[] = { "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                           "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE" };

static rd_session_t *session_of(MPI_Session h)
{
    return rd_handle_get(RD_OBJ_SESSION, h);
}

/* An error of class cls on session s, through s's error handler. */
static int session_error(rd_session_t *s, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int session_error(rd_session_t *s, int cls, const char *fn, const char *fmt, ...)
{
    const char *text;
    va_list ap;
    va_start(ap, fmt);
    int code = rd_api_verror_code(cls, fn, fmt, ap, &text);
    va_end(ap);
    return rd_api_errh_apply(s->errh, s->handle, code, text);
}

/* A bad session handle is not tied to a session: the default handler. */
static int check_session(MPI_Session h, rd_session_t **s, const char *fn)
{
    if (rd_api.initialized && !rd_api.finalized && (*s = session_of(h)))
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_SESSION, fn,
                        h == MPI_SESSION_NULL ? "session is MPI_SESSION_NULL"
                                              : "invalid session handle 0x%x", (unsigned)h);
}

/* The index of a process set name (compared without case), or -1. */
static int pset_index(const char *name)
{
    for (int i = 0; i < N_PSETS; i++)
        if (!strcasecmp(name, pset_names[i]))
            return i;
    return -1;
}

/* The thread level an info object asks for under "thread_level", or def. */
static int asked_level(const rd_info_t *info, int def)
{
    const char *v = rd_api_info_value(info, "thread_level");
    for (int i = 0; v && i < 4; i++)
        if (!strcasecmp(v, level_names[i]))
            return MPI_THREAD_SINGLE + i;
    return def;
}

/* An errhandler argument: predefined, or made for objects of kind obj. */
static rd_errhandler_t *errh_for(MPI_Errhandler h, int obj)
{
    rd_errhandler_t *e = rd_api_errh(h);
    return e && (e->kind != RD_ERRH_USER || e->obj == obj) ? e : NULL;
}

/* ---- sessions ---- */

RD_WEAK_ALIAS(MPI_Session_init)
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    static const char fn[] = "MPI_Session_init";
    if (!session)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "session pointer is NULL");
    rd_info_t *in = NULL;
    if (info != MPI_INFO_NULL && !(in = rd_api_info(info)))
        return rd_api_error(NULL, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    int provided, err;
    err = rd_api_runtime_acquire(asked_level(in, rd_api_default_thread_level()), &provided, fn);
    if (err != MPI_SUCCESS)
        return err;
    rd_errhandler_t *e = errh_for(errhandler, RD_OBJ_SESSION);
    if (!e) {
        rd_api_runtime_release(fn);
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "errhandler 0x%x is not a predefined or session error handler",
                            (unsigned)errhandler);
    }
    rd_api_lock();
    rd_session_t *s = calloc(1, sizeof(*s));
    if (s && (s->info = rd_api_info_copy(in)) &&
        rd_api_info_set(s->info, "thread_level", level_names[provided]) == RD_OK &&
        (s->handle = rd_handle_alloc(RD_OBJ_SESSION, s))) {
        s->errh = e;
        rd_errh_ref(e);
        *session = s->handle;
        rd_api_unlock();
        return MPI_SUCCESS;
    }
    if (s)
        rd_api_info_destroy(s->info);
    free(s);
    rd_api_unlock();
    rd_api_runtime_release(fn);
    return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for a session");
}

RD_WEAK_ALIAS(MPI_Session_finalize)
int PMPI_Session_finalize(MPI_Session *session)
{
    static const char fn[] = "MPI_Session_finalize";
    rd_session_t *s;
    int err;
    if (!session)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "session pointer is NULL");
    if ((err = check_session(*session, &s, fn)))
        return err;
    rd_api_lock();
    rd_handle_free(s->handle);
    rd_errh_release(s->errh);
    rd_api_info_destroy(s->info);
    free(s);
    rd_api_unlock();
    *session = MPI_SESSION_NULL;
    return rd_api_runtime_release(fn);
}

RD_WEAK_ALIAS(MPI_Session_get_info)
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Session_get_info";
    rd_session_t *s;
    int err;
    if ((err = check_session(session, &s, fn)))
        return err;
    if (!info_used)
        return session_error(s, MPI_ERR_ARG, fn, "info_used pointer is NULL");
    rd_api_lock();
    int h = rd_api_info_copy_handle(s->info);
    rd_api_unlock();
    if (!h)
        return session_error(s, MPI_ERR_NO_MEM, fn, "out of memory for an info object");
    *info_used = h;
    return MPI_SUCCESS;
}

/* ---- process sets ---- */

RD_WEAK_ALIAS(MPI_Session_get_num_psets)
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    static const char fn[] = "MPI_Session_get_num_psets";
    rd_session_t *s;
    int err;
    (void)info;
    if ((err = check_session(session, &s, fn)))
        return err;
    if (!npset_names)
        return session_error(s, MPI_ERR_ARG, fn, "npset_names pointer is NULL");
    *npset_names = N_PSETS;
    return MPI_SUCCESS;
}

/* *pset_len in: the buffer's size (0: only ask for the length); out: the
 * size the name needs, NUL included. */
RD_WEAK_ALIAS(MPI_Session_get_nth_pset)
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name)
{
    static const char fn[] = "MPI_Session_get_nth_pset";
    rd_session_t *s;
    int err;
    (void)info;
    if ((err = check_session(session, &s, fn)))
        return err;
    if (n < 0 || n >= N_PSETS)
        return session_error(s, MPI_ERR_ARG, fn, "n = %d is outside 0..%d", n, N_PSETS - 1);
    if (!pset_len)
        return session_error(s, MPI_ERR_ARG, fn, "pset_len pointer is NULL");
    if (*pset_len < 0)
        return session_error(s, MPI_ERR_ARG, fn, "*pset_len %d is negative", *pset_len);
    if (*pset_len > 0 && !pset_name)
        return session_error(s, MPI_ERR_ARG, fn, "pset_name pointer is NULL");
    size_t len = strlen(pset_names[n]);
    if (*pset_len > 0)
        snprintf(pset_name, (size_t)*pset_len, "%s", pset_names[n]);
    *pset_len = (int)len + 1;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Session_get_pset_info)
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    static const char fn[] = "MPI_Session_get_pset_info";
    rd_session_t *s;
    int err;
    if ((err = check_session(session, &s, fn)))
        return err;
    if (!pset_name || !info)
        return session_error(s, MPI_ERR_ARG, fn, "pset_name or info pointer is NULL");
    int i = pset_index(pset_name);
    if (i < 0)
        return session_error(s, MPI_ERR_ARG, fn, "no process set is named \"%s\"", pset_name);
    char size[16];
    snprintf(size, sizeof(size), "%d", i == 0 ? rd_api.boot.size : 1);
    rd_api_lock();
    rd_info_t *o = rd_api_info_copy(NULL);
    int h = 0;
    if (o && rd_api_info_set(o, "mpi_size", size) == RD_OK &&
        (h = rd_handle_alloc(RD_OBJ_INFO, o)))
        o->handle = h;
    else
        rd_api_info_destroy(o);
    rd_api_unlock();
    if (!h)
        return session_error(s, MPI_ERR_NO_MEM, fn, "out of memory for an info object");
    *info = h;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Group_from_session_pset)
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                 MPI_Group *newgroup)
{
    static const char fn[] = "MPI_Group_from_session_pset";
    rd_session_t *s;
    int err;
    if ((err = check_session(session, &s, fn)))
        return err;
    if (!pset_name || !newgroup)
        return session_error(s, MPI_ERR_ARG, fn, "pset_name or newgroup pointer is NULL");
    int i = pset_index(pset_name);
    if (i < 0)
        return session_error(s, MPI_ERR_ARG, fn, "no process set is named \"%s\"", pset_name);
    rd_api_lock();
    rd_group_t *g = i == 0 ? rd_api.world->group : rd_api.self->group;
    int h = rd_api_group_handle(g);
    rd_api_unlock();
    if (!h)
        return session_error(s, MPI_ERR_NO_MEM, fn, "out of memory for a group handle");
    *newgroup = h;
    return MPI_SUCCESS;
}

/* ---- session error handlers ---- */

RD_WEAK_ALIAS(MPI_Session_create_errhandler)
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_create_errhandler";
    return rd_api_errh_create(RD_OBJ_SESSION, (void (*)(void))session_errhandler_fn, errhandler,
                              fn);
}

RD_WEAK_ALIAS(MPI_Session_set_errhandler)
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Session_set_errhandler";
    rd_session_t *s;
    int err;
    if ((err = check_session(session, &s, fn)))
        return err;
    rd_errhandler_t *e = errh_for(errhandler, RD_OBJ_SESSION);
    if (!e)
        return session_error(s, MPI_ERR_ARG, fn,
                             "errhandler 0x%x is not a predefined or session error handler",
                             (unsigned)errhandler);
    rd_api_lock();
    rd_errh_ref(e);
    rd_errh_release(s->errh);
    s->errh = e;
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Session_get_errhandler)
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Session_get_errhandler";
    rd_session_t *s;
    int err;
    if ((err = check_session(session, &s, fn)))
        return err;
    if (!errhandler)
        return session_error(s, MPI_ERR_ARG, fn, "errhandler pointer is NULL");
    rd_api_lock();
    /* A new reference: the standard has the caller free it. */
    rd_errh_ref(s->errh);
    *errhandler = s->errh->handle;
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Session_call_errhandler)
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    static const char fn[] = "MPI_Session_call_errhandler";
    rd_session_t *s;
    int err;
    if ((err = check_session(session, &s, fn)))
        return err;
    const char *text = rd_api_code_message(errorcode);
    char buf[64];
    if (!text) {
        snprintf(buf, sizeof(buf), "%s: error code %d", fn, errorcode);
        text = buf;
    }
    rd_api_errh_apply(s->errh, s->handle, errorcode, text);
    return MPI_SUCCESS;
}

/* ---- communicators from groups ---- */

/* The string tag as a 30-bit message tag (FNV-1a). */
static int tag_hash(const char *t)
{
    uint32_t h = 2166136261u;
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 16777619u;
    return (int)(h & RD_TAG_UB);
}

/* An error of a constructor from groups: there is no communicator yet, so
 * the handler the caller gave for the new one applies. */
static int ctor_error(rd_errhandler_t *e, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int ctor_error(rd_errhandler_t *e, int cls, const char *fn, const char *fmt, ...)
{
    const char *text;
    va_list ap;
    va_start(ap, fmt);
    int code = rd_api_verror_code(cls, fn, fmt, ap, &text);
    va_end(ap);
    return rd_api_errh_apply(e, MPI_COMM_NULL, code, text);
}

/* Checks shared by both constructors; MPI_SUCCESS or the error's code. */
static int check_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                            MPI_Errhandler errhandler, void *out, rd_group_t **g,
                            rd_errhandler_t **e, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (!(*e = errh_for(errhandler, RD_OBJ_COMM)))
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "errhandler 0x%x is not a communicator error handler",
                            (unsigned)errhandler);
    if (!(*g = rd_api_group(group)) || group == MPI_GROUP_EMPTY)
        return ctor_error(*e, MPI_ERR_GROUP, fn,
                          group == MPI_GROUP_NULL ? "group is MPI_GROUP_NULL"
                                                  : "invalid or empty group 0x%x",
                          (unsigned)group);
    if ((*g)->rank < 0)
        return ctor_error(*e, MPI_ERR_GROUP, fn, "this process is not in the group");
    if (!stringtag)
        return ctor_error(*e, MPI_ERR_ARG, fn, "stringtag is NULL");
    if (info != MPI_INFO_NULL && !rd_api_info(info))
        return ctor_error(*e, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    if (!out)
        return ctor_error(*e, MPI_ERR_ARG, fn, "newcomm pointer is NULL");
    return MPI_SUCCESS;
}

/* c's error handler becomes e (lock held). */
static void set_errh(rd_comm_t *c, rd_errhandler_t *e)
{
    rd_errh_ref(e);
    rd_errh_release(c->errh);
    c->errh = e;
}

/* A communicator over g (this process in it) agreed among g's members.
 * Lock held; returns an internal status. */
static int build_from_group(rd_group_t *g, int tag, rd_comm_t **nc)
{
    uint32_t ctx;
    int rc = rd_coll_ctx_agree_group(rd_api.world, g, tag, &ctx);
    return rc == RD_OK ? rd_api_comm_build(rd_api.world, g, ctx, nc) : rc;
}

RD_WEAK_ALIAS(MPI_Comm_create_from_group)
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_from_group";
    rd_group_t *g;
    rd_errhandler_t *e;
    rd_comm_t *nc = NULL;
    int err = check_from_group(group, stringtag, info, errhandler, newcomm, &g, &e, fn);
    if (err)
        return err;
    rd_api_lock();
    int rc = build_from_group(g, tag_hash(stringtag), &nc);
    if (rc == RD_OK)
        set_errh(nc, e);
    rd_api_unlock();
    if (rc != RD_OK)
        return ctor_error(e, rd_api_class_of(rc), fn, "%s", rd_status_str(rc));
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}

/* A local communicator over local_group, then MPI_Intercomm_create's
 * agreement between the leaders over the runtime's MPI_COMM_WORLD. */
RD_WEAK_ALIAS(MPI_Intercomm_create_from_groups)
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    static const char fn[] = "MPI_Intercomm_create_from_groups";
    rd_group_t *lg, *rg;
    rd_errhandler_t *e;
    rd_comm_t *lc = NULL, *nc = NULL;
    int err = check_from_group(local_group, stringtag, info, errhandler, newintercomm, &lg, &e,
                               fn);
    if (err)
        return err;
    if (!(rg = rd_api_group(remote_group)) || remote_group == MPI_GROUP_EMPTY)
        return ctor_error(e, MPI_ERR_GROUP, fn, "invalid or empty remote group 0x%x",
                          (unsigned)remote_group);
    if (local_leader < 0 || local_leader >= lg->size)
        return ctor_error(e, MPI_ERR_RANK, fn, "local_leader %d is outside 0..%d",
                          local_leader, lg->size - 1);
    if (remote_leader < 0 || remote_leader >= rg->size)
        return ctor_error(e, MPI_ERR_RANK, fn, "remote_leader %d is outside 0..%d",
                          remote_leader, rg->size - 1);
    for (int i = 0; i < rg->size; i++)
        if (rd_group_rank_of(lg, rg->world[i]) >= 0)
            return ctor_error(e, MPI_ERR_GROUP, fn,
                              "the local and remote groups overlap: they must be disjoint");
    int tag = tag_hash(stringtag);
    rd_api_lock();
    uint32_t ctx;
    int rsize = 0, *rworld = NULL;
    int rc = build_from_group(lg, tag, &lc);
    if (rc == RD_OK)
        rc = rd_coll_ctx_agree_intercomm(lc, local_leader, rd_api.world,
                                         rg->world[remote_leader], tag, &ctx, &rsize, &rworld);
    if (rc == RD_OK) {
        rd_group_t *r = rd_group_new(rsize, rworld, rd_api.boot.rank);
        rc = r ? rd_api_comm_build_inter(lc, lg, r, ctx, &nc) : RD_ENOMEM;
        if (!r) {
            rd_coll_ctx_release(ctx);
            rd_coll_ctx_release(ctx + 2);
        }
        rd_group_release(r);
    }
    if (rc == RD_OK)
        set_errh(nc, e);
    if (lc)
        rd_api_comm_destroy(lc);
    rd_api_unlock();
    free(rworld);
    if (rc != RD_OK)
        return ctor_error(e, rd_api_class_of(rc), fn, "%s", rd_status_str(rc));
    *newintercomm = nc->handle;
    return MPI_SUCCESS;
}
