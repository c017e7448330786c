/*
 * Communicators: queries (rank, size, group, compare, name, info), dup,
 * create, create_group and free, on intracommunicators and (queries, dup,
 * create, free, compare) on intercommunicators; and the object building that split
 * (comm_split.c) and intercommunicators (intercomm.c) share (comm.h). The
 * context ids are agreed in coll/ctxid.c; with MPI_THREAD_MULTIPLE the
 * agreement's waits release the library lock (as the collectives' do), so
 * other threads construct and use their own communicators meanwhile.
 */
#include "api/comm.h"

#include <stdlib.h>
#include <string.h>

#include "api/attr.h"
#include "api/info.h"
#include "api/topo.h"
#include "coll/coll_inter.h"
#include "coll/ctxid.h"
#include "p2p/p2p.h"

/* ---- per-communicator state that rd_comm_t has no field for (lock held) ----
 * The hidden local intracommunicator of an intercommunicator, and the info
 * hints set on a communicator. Few communicators have either, so a list. */

typedef struct comm_extra {
    struct comm_extra *next;
    rd_comm_t *c;
    rd_comm_t *local;          /* intercommunicators: over the local group */
    rd_info_t *info;           /* hints (MPI_Comm_set_info), or NULL */
} comm_extra_t;

static comm_extra_t *extras;

static comm_extra_t *extra_find(const rd_comm_t *c)
{
    for (comm_extra_t *x = extras; x; x = x->next)
        if (x->c == c)
            return x;
    return NULL;
}

/* c's entry, created if needed; NULL on ENOMEM. */
static comm_extra_t *extra_get(rd_comm_t *c)
{
    comm_extra_t *x = extra_find(c);
    if (x)
        return x;
    if (!(x = calloc(1, sizeof(*x))))
        return NULL;
    x->c = c;
    x->next = extras;
    extras = x;
    return x;
}

/* Forgets c's entry (c is being freed). */
static void extra_drop(rd_comm_t *c)
{
    for (comm_extra_t **p = &extras; *p; p = &(*p)->next)
        if ((*p)->c == c) {
            comm_extra_t *x = *p;
            *p = x->next;
            rd_comm_release(x->local);
            rd_api_info_destroy(x->info);
            free(x);
            return;
        }
}

/* ---- construction helpers (lock held) ---- */

int rd_api_comm_build(rd_comm_t *parent, rd_group_t *g, uint32_t ctx, rd_comm_t **out)
{
    rd_comm_t *c = rd_comm_new(g, ctx);
    if (!c || rd_p2p_attach(c) != RD_OK) {
        /* Not attached: the id goes back here, not through the free hook. */
        rd_coll_ctx_release(ctx);
        rd_comm_release(c);
        return RD_ENOMEM;
    }
    c->errh = parent->errh;
    if (c->errh)
        rd_errh_ref(c->errh);
    if (!(c->handle = rd_handle_alloc(RD_OBJ_COMM, c))) {
        rd_comm_release(c);
        return RD_ENOMEM;
    }
    *out = c;
    return RD_OK;
}

void rd_api_comm_destroy(rd_comm_t *c)
{
    rd_comm_release(c);
}

void rd_api_comm_gone(rd_comm_t *c)
{
    extra_drop(c);
    rd_coll_ctx_retire(c);
}

int rd_api_comm_build_inter(rd_comm_t *parent, rd_group_t *local, rd_group_t *remote,
                            uint32_t ctx, rd_comm_t **out)
{
    rd_comm_t *c, *lc = NULL;
    int rc = rd_api_comm_build(parent, local, ctx, &c);
    if (rc != RD_OK) {
        rd_coll_ctx_release(ctx + 2);
        return rc;
    }
    c->rgroup = remote;
    rd_group_ref(remote);
    comm_extra_t *x = extra_get(c);
    if (x)
        x->local = lc = rd_comm_new(local, ctx + 2);
    if (!x || !lc || rd_p2p_attach(lc) != RD_OK) {
        rd_coll_ctx_release(ctx + 2);
        rd_api_comm_destroy(c);
        return RD_ENOMEM;
    }
    rd_coll_inter_init(c, lc);
    *out = c;
    return RD_OK;
}

int rd_api_comm_new_inter_pending(rd_comm_t *parent, rd_comm_t **out)
{
    rd_comm_t *c = rd_comm_new(parent->group, 0), *lc = NULL;
    if (!c)
        return RD_ENOMEM;
    c->errh = parent->errh;
    if (c->errh)
        rd_errh_ref(c->errh);
    c->rgroup = parent->rgroup;
    rd_group_ref(c->rgroup);
    comm_extra_t *x = extra_get(c);
    if (x)
        x->local = lc = rd_comm_new(parent->group, 0);
    if (!x || !lc || !(c->handle = rd_handle_alloc(RD_OBJ_COMM, c))) {
        rd_api_comm_destroy(c);
        return RD_ENOMEM;
    }
    rd_coll_inter_init(c, lc);
    *out = c;
    return RD_OK;
}

rd_comm_t *rd_api_comm_local(const rd_comm_t *c)
{
    comm_extra_t *x = extra_find(c);
    return x ? x->local : NULL;
}

/* Returns an internal status; lock held. */
int rd_api_comm_create_from(rd_comm_t *parent, rd_group_t *g, rd_comm_t **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = rd_coll_ctx_agree(parent, g && g->rank >= 0, &ctx);
    if (rc != RD_OK)
        return rc;
    if (!g || g->rank < 0)
        return RD_OK;
    return rd_api_comm_build(parent, g, ctx, out);
}

/* Call without the lock (attribute callbacks may call MPI). Returns
 * MPI_SUCCESS, or the code of a failed delete callback (c is then not
 * freed). */
int rd_api_comm_free(rd_comm_t *c)
{
    int err = rd_api_attr_delete_all(c);
    if (err != MPI_SUCCESS)
        return err;
    rd_api_lock();
    rd_api_comm_destroy(c);
    rd_api_unlock();
    return MPI_SUCCESS;
}

int rd_api_comm_out(rd_comm_t *c, int rc, rd_comm_t *nc, MPI_Comm *newcomm, const char *fn)
{
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *newcomm = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int rd_api_check_intra(rd_comm_t *c, const char *fn)
{
    if (!c->rgroup)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_COMM, fn,
                        "rdmpi does not support this on an intercommunicator; "
                        "use an intracommunicator");
}

int rd_api_check_newcomm(rd_comm_t *c, MPI_Comm *newcomm, const char *fn)
{
    if (newcomm)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_ARG, fn, "newcomm pointer is NULL");
}

/* A group argument that must be a subset of c's group. */
static int check_subgroup(rd_comm_t *c, MPI_Group h, rd_group_t **g, const char *fn)
{
    *g = rd_api_group(h);
    if (!*g)
        return rd_api_error(c, MPI_ERR_GROUP, fn,
                            h == MPI_GROUP_NULL ? "group is MPI_GROUP_NULL"
                                                : "invalid group handle 0x%x", (unsigned)h);
    unsigned char *in_c = calloc((size_t)rd_api.boot.size, 1);
    if (!in_c)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int i = 0; i < c->size; i++)
        in_c[c->group->world[i]] = 1;
    int bad = -1;
    for (int i = 0; i < (*g)->size && bad < 0; i++)
        if (!in_c[(*g)->world[i]])
            bad = i;
    free(in_c);
    if (bad >= 0)
        return rd_api_error(c, MPI_ERR_GROUP, fn,
                            "rank %d of the group (MPI_COMM_WORLD rank %d) is not in the "
                            "communicator: the group must be a subset of the communicator's group",
                            bad, (*g)->world[bad]);
    return MPI_SUCCESS;
}


/* ---- queries ---- */

RD_WEAK_ALIAS(MPI_Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    static const char fn[] = "MPI_Comm_rank";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!rank)
        return rd_api_error(c, MPI_ERR_ARG, fn, "rank pointer is NULL");
    *rank = c->rank;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_size)
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    static const char fn[] = "MPI_Comm_size";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!size)
        return rd_api_error(c, MPI_ERR_ARG, fn, "size pointer is NULL");
    *size = c->size;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_remote_size)
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    static const char fn[] = "MPI_Comm_remote_size";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!size)
        return rd_api_error(c, MPI_ERR_ARG, fn, "size pointer is NULL");
    if (!c->rgroup)
        return rd_api_error(c, MPI_ERR_COMM, fn,
                            "the communicator is not an intercommunicator "
                            "(it has no remote group)");
    *size = c->rgroup->size;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_test_inter)
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    static const char fn[] = "MPI_Comm_test_inter";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!flag)
        return rd_api_error(c, MPI_ERR_ARG, fn, "flag pointer is NULL");
    *flag = c->rgroup != NULL;
    return MPI_SUCCESS;
}

/* Hands out a new reference to g as a group handle. */
static int give_group(rd_comm_t *c, rd_group_t *g, MPI_Group *group, const char *fn)
{
    rd_api_lock();
    int h = rd_api_group_handle(g);
    rd_api_unlock();
    if (!h)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a group handle");
    *group = h;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    static const char fn[] = "MPI_Comm_group";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!group)
        return rd_api_error(c, MPI_ERR_ARG, fn, "group pointer is NULL");
    return give_group(c, c->group, group, fn);
}

RD_WEAK_ALIAS(MPI_Comm_remote_group)
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    static const char fn[] = "MPI_Comm_remote_group";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!group)
        return rd_api_error(c, MPI_ERR_ARG, fn, "group pointer is NULL");
    if (!c->rgroup)
        return rd_api_error(c, MPI_ERR_COMM, fn,
                            "the communicator is not an intercommunicator "
                            "(it has no remote group)");
    return give_group(c, c->rgroup, group, fn);
}

/* MPI_IDENT: the same communicator. MPI_CONGRUENT: same group(s), same
 * order. MPI_SIMILAR: same members. MPI_UNEQUAL otherwise. */
RD_WEAK_ALIAS(MPI_Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    static const char fn[] = "MPI_Comm_compare";
    rd_comm_t *c1, *c2;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm1, &c1, fn)) || (err = rd_api_check_comm(comm2, &c2, fn)))
        return err;
    if (!result)
        return rd_api_error(c1, MPI_ERR_ARG, fn, "result pointer is NULL");
    if (c1 == c2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (!c1->rgroup != !c2->rgroup) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int local = rd_api_group_compare(c1->group, c2->group);
    int remote = c1->rgroup ? rd_api_group_compare(c1->rgroup, c2->rgroup) : MPI_IDENT;
    if (local < 0 || remote < 0)
        return rd_api_error(c1, MPI_ERR_NO_MEM, fn, "out of memory");
    if (local == MPI_UNEQUAL || remote == MPI_UNEQUAL)
        *result = MPI_UNEQUAL;
    else if (local == MPI_IDENT && remote == MPI_IDENT)
        *result = MPI_CONGRUENT;
    else
        *result = MPI_SIMILAR;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_set_name)
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    static const char fn[] = "MPI_Comm_set_name";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!comm_name)
        return rd_api_error(c, MPI_ERR_ARG, fn, "comm_name is NULL");
    /* Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters. */
    rd_api_lock();
    size_t n = strnlen(comm_name, sizeof(c->name) - 1);
    memcpy(c->name, comm_name, n);
    c->name[n] = '\0';
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_get_name)
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    static const char fn[] = "MPI_Comm_get_name";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!comm_name || !resultlen)
        return rd_api_error(c, MPI_ERR_ARG, fn, "comm_name or resultlen is NULL");
    rd_api_lock();
    size_t n = strnlen(c->name, sizeof(c->name) - 1);
    memcpy(comm_name, c->name, n);
    comm_name[n] = '\0';
    rd_api_unlock();
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

/* ---- construction ---- */

/* An intercommunicator over the same groups as c, with new contexts. */
static int inter_dup(rd_comm_t *c, rd_comm_t **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = rd_coll_ctx_agree_inter(c, rd_api_comm_local(c), 4, 1, NULL, NULL, 0, &ctx);
    if (rc != RD_OK)
        return rc;
    return rd_api_comm_build_inter(c, c->group, c->rgroup, ctx, out);
}

static int set_hints(rd_comm_t *c, const rd_info_t *info);

/* Duplicates c: same group(s), new context, same error handler and
 * topology, attributes copied by their copy callbacks (which run without
 * the lock). Hints: a copy of hints if with_info, else of c's. */
static int dup(MPI_Comm comm, int with_info, MPI_Info hints, MPI_Comm *newcomm, const char *fn)
{
    rd_comm_t *c, *nc = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = rd_api_check_newcomm(c, newcomm, fn)))
        return err;
    rd_api_lock();
    rd_info_t *info = NULL;
    if (with_info && hints != MPI_INFO_NULL && !(info = rd_api_info(hints))) {
        rd_api_unlock();
        return rd_api_error(c, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)hints);
    }
    if (!with_info) {
        comm_extra_t *x = extra_find(c);
        info = x ? x->info : NULL;
    }
    int rc = c->rgroup ? inter_dup(c, &nc) : rd_api_comm_create_from(c, c->group, &nc);
    if (rc == RD_OK)
        rc = rd_api_topo_copy(c, nc);
    if (rc == RD_OK)
        rc = set_hints(nc, info);
    if (rc != RD_OK && nc)
        rd_api_comm_destroy(nc);
    rd_api_unlock();
    /* On an error the new handle is MPI_COMM_NULL (as MPICH does). */
    *newcomm = MPI_COMM_NULL;
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    if ((err = rd_api_attr_copy_dup(c, nc, fn)) != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL; /* no new communicator, as MPICH reports it */
        return err;
    }
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return dup(comm, 0, MPI_INFO_NULL, newcomm, "MPI_Comm_dup");
}

/* The new communicator gets the hints of info (none for MPI_INFO_NULL)
 * instead of comm's. */
RD_WEAK_ALIAS(MPI_Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return dup(comm, 1, info, newcomm, "MPI_Comm_dup_with_info");
}

/* ---- hints ----
 * rdmpi acts on no communicator hint yet: it keeps those MPI-4.0 (7.4.4)
 * defines, as given, and MPI_Comm_get_info hands back a copy of them.
 * Other keys are ignored, as MPI-4.0 asks of keys an implementation does
 * not use. */

static const char *const known_hints[] = {
    "mpi_assert_no_any_tag",
    "mpi_assert_no_any_source",
    "mpi_assert_exact_length",
    "mpi_assert_allow_overtaking",
};

static int known_hint(const char *key)
{
    for (size_t i = 0; i < sizeof(known_hints) / sizeof(known_hints[0]); i++)
        if (!strcmp(key, known_hints[i]))
            return 1;
    return 0;
}

/* Gives c a copy of info's known hints (none: no hints). Lock held;
 * internal status. */
static int set_hints(rd_comm_t *c, const rd_info_t *info)
{
    rd_info_t *copy = NULL;
    for (int i = 0; info && i < info->n; i++) {
        if (!known_hint(info->e[i].key))
            continue;
        if ((!copy && !(copy = rd_api_info_copy(NULL))) ||
            rd_api_info_set(copy, info->e[i].key, info->e[i].value) != RD_OK) {
            rd_api_info_destroy(copy);
            return RD_ENOMEM;
        }
    }
    comm_extra_t *x = extra_find(c);
    if (!x && copy && !(x = extra_get(c))) {
        rd_api_info_destroy(copy);
        return RD_ENOMEM;
    }
    if (x) {
        rd_api_info_destroy(x->info);
        x->info = copy;
    }
    return RD_OK;
}

RD_WEAK_ALIAS(MPI_Comm_set_info)
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    static const char fn[] = "MPI_Comm_set_info";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    rd_api_lock();
    rd_info_t *o = rd_api_info(info);
    int rc = o ? set_hints(c, o) : RD_OK;
    rd_api_unlock();
    if (!o)
        return rd_api_error(c, MPI_ERR_INFO, fn,
                            info == MPI_INFO_NULL ? "info is MPI_INFO_NULL"
                                                  : "invalid info handle 0x%x", (unsigned)info);
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_get_info)
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    static const char fn[] = "MPI_Comm_get_info";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!info_used)
        return rd_api_error(c, MPI_ERR_ARG, fn, "info_used pointer is NULL");
    rd_api_lock();
    comm_extra_t *x = extra_find(c);
    int h = rd_api_info_copy_handle(x ? x->info : NULL);
    rd_api_unlock();
    if (!h)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for an info object");
    *info_used = h;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create";
    rd_comm_t *c, *nc;
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = rd_api_check_newcomm(c, newcomm, fn)) ||
        (err = check_subgroup(c, group, &g, fn)))
        return err;
    rd_api_lock();
    int rc = c->rgroup ? rd_api_comm_create_inter(c, g, &nc) : rd_api_comm_create_from(c, g, &nc);
    rd_api_unlock();
    return rd_api_comm_out(c, rc, nc, newcomm, fn);
}

/* Only the members of group take part: the context agreement runs among
 * them, in messages tagged with tag (coll/ctxid.h). */
RD_WEAK_ALIAS(MPI_Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_group";
    rd_comm_t *c, *nc = NULL;
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = rd_api_check_newcomm(c, newcomm, fn)) ||
        (err = rd_api_check_intra(c, fn)) || (err = rd_api_check_tag(c, tag, 0, fn)) ||
        (err = check_subgroup(c, group, &g, fn)))
        return err;
    /* Only members call it; a non-member gets MPI_COMM_NULL, as in MPICH. */
    if (g->rank < 0) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    rd_api_lock();
    uint32_t ctx;
    int rc = rd_coll_ctx_agree_group(c, g, tag, &ctx);
    if (rc == RD_OK)
        rc = rd_api_comm_build(c, g, ctx, &nc);
    rd_api_unlock();
    return rd_api_comm_out(c, rc, nc, newcomm, fn);
}

/* ---- destruction ---- */

RD_WEAK_ALIAS(MPI_Comm_free)
int PMPI_Comm_free(MPI_Comm *comm)
{
    static const char fn[] = "MPI_Comm_free";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if (!comm)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "comm pointer is NULL");
    if ((err = rd_api_check_comm(*comm, &c, fn)))
        return err;
    if (c == rd_api.world || c == rd_api.self)
        return rd_api_error(c, MPI_ERR_COMM, fn, "%s is predefined and cannot be freed",
                            c == rd_api.world ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
    if ((err = rd_api_comm_free(c)) != MPI_SUCCESS) {
        if (err > 0 && err <= 0xff)
            return rd_api_error(c, err, fn, "an attribute delete callback returned error %d",
                                err);
        return rd_api_raise(c, err, fn);
    }
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
