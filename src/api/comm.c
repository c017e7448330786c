/*
 * Communicator management: queries (rank, size, group, compare, name, info)
 * and construction (dup, split, split_type, create, create_group) and
 * destruction (free) of intracommunicators; intercommunicators
 * (MPI_Intercomm_create, MPI_Intercomm_merge, and dup / free / compare /
 * remote queries on them).
 *
 * Context ids: communicator c uses c->ctx for point-to-point traffic and
 * c->ctx + 1 for its collectives. rd_api.next_ctx is the lowest id this
 * process has not used; a new communicator takes the maximum of next_ctx
 * over the processes that build it, which none of them uses yet, and every
 * one of them moves next_ctx past it. Ids are unique per process, which is
 * all matching needs: two disjoint communicators may share an id.
 *
 * Intercommunicators: both groups agree on one id, the maximum over the
 * union (each group reduces its own, the two leaders swap theirs). The
 * intercommunicator takes ctx and ctx + 1; a hidden intracommunicator over
 * the local group takes ctx + 2 and ctx + 3 and carries the agreements
 * inside one group that dup and merge need (the internal collectives cannot
 * run on an intercommunicator, where every message goes to the other group).
 *
 * Known limit: the agreement runs with the library lock held (as the
 * internal collectives do), so with MPI_THREAD_MULTIPLE a communicator
 * construction blocks the process's other threads until every member has
 * joined it.
 */
#include "api/api.h"

#include <stdlib.h>
#include <string.h>

#include "api/attr.h"
#include "api/info.h"
#include "api/topo.h"
#include "coll/coll.h"
#include "core/datatype.h"
#include "core/request.h"
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

/* A communicator over g with context ctx, inheriting parent's error handler. */
static int build(rd_comm_t *parent, rd_group_t *g, uint32_t ctx, rd_comm_t **out)
{
    rd_comm_t *c = rd_comm_new(g, ctx);
    if (!c)
        return RD_ENOMEM;
    c->errh = parent->errh;
    if (c->errh)
        rd_errh_ref(c->errh);
    if (rd_p2p_attach(c) != RD_OK || !(c->handle = rd_handle_alloc(RD_OBJ_COMM, c))) {
        rd_comm_release(c);
        return RD_ENOMEM;
    }
    *out = c;
    return RD_OK;
}

/* An intercommunicator between local and remote with contexts ctx .. ctx + 3
 * (see the top of the file), inheriting parent's error handler. */
static int build_inter(rd_comm_t *parent, rd_group_t *local, rd_group_t *remote, uint32_t ctx,
                       rd_comm_t **out)
{
    rd_comm_t *c, *lc = NULL;
    int rc = build(parent, local, ctx, &c);
    if (rc != RD_OK)
        return rc;
    c->rgroup = remote;
    rd_group_ref(remote);
    comm_extra_t *x = extra_get(c);
    if (x)
        x->local = lc = rd_comm_new(local, ctx + 2);
    if (!x || !lc || rd_p2p_attach(lc) != RD_OK) {
        extra_drop(c);
        rd_comm_release(c);
        return RD_ENOMEM;
    }
    *out = c;
    return RD_OK;
}

/* Returns an internal status; lock held. */
int rd_api_comm_create_from(rd_comm_t *parent, rd_group_t *g, rd_comm_t **out)
{
    uint32_t ctx = rd_api.next_ctx;
    *out = NULL;
    int rc = rd_coll_allreduce_max_u32(parent, &ctx);
    if (rc != RD_OK)
        return rc;
    rd_api.next_ctx = ctx + 2;
    if (!g || g->rank < 0)
        return RD_OK;
    return build(parent, g, ctx, out);
}

/* ---- internal messages in a communicator's collective context ----
 * Tags with bit 30 set carry the agreements of MPI_Comm_create_group and
 * MPI_Intercomm_create in the parent's collective context: user tags stop
 * at RD_TAG_UB (2^30 - 1) and the internal collectives use small tags, so
 * neither matches them. Intercommunicator agreements (dup, merge) use
 * RD_INTER_TAG in the intercommunicator's own collective context, which
 * nothing else uses. */

#define RD_INTERNAL_TAG_BIT 0x40000000
#define RD_INTER_TAG 1

static int start_msg(rd_request_t **out, int kind, rd_comm_t *c, void *buf, size_t n, int peer,
                     int tag)
{
    rd_request_t *r = rd_req_new(kind);
    if (!r)
        return RD_ENOMEM;
    int rc = rd_p2p_start(r, buf, n, &rd_dt_bytes, c, peer, tag, RD_MODE_STANDARD, 1);
    if (rc != RD_OK) {
        rd_req_free(r);
        return rc;
    }
    *out = r;
    return RD_OK;
}

static int finish_msg(rd_request_t *r)
{
    rd_p2p_wait(r);
    int rc = r->error;
    r->dt = NULL;
    rd_req_free(r);
    return rc;
}

/* Sends sn bytes to rank `to` and receives rn bytes from rank `from` (ranks
 * of the group messages go to: the remote one on an intercommunicator). */
static int exchange(rd_comm_t *c, int to, int from, int tag, const void *sbuf, size_t sn,
                    void *rbuf, size_t rn)
{
    rd_request_t *rr, *sr;
    int rc = start_msg(&rr, RD_REQ_RECV, c, rbuf, rn, from, tag);
    if (rc != RD_OK)
        return rc;
    if ((rc = start_msg(&sr, RD_REQ_SEND, c, (void *)sbuf, sn, to, tag)) != RD_OK) {
        finish_msg(rr);
        return rc;
    }
    int rc1 = finish_msg(sr), rc2 = finish_msg(rr);
    return rc1 != RD_OK ? rc1 : rc2;
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
    extra_drop(c);
    rd_comm_release(c);
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* Split and create on an intercommunicator (MPI-3.1 6.6.2) are not
 * implemented; the functions that would be wrong on one say so. */
static int check_intra(rd_comm_t *c, const char *fn)
{
    if (!c->rgroup)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_COMM, fn,
                        "rdmpi does not support this on an intercommunicator; "
                        "use an intracommunicator");
}

static int check_newcomm(rd_comm_t *c, MPI_Comm *newcomm, const char *fn)
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

static int inter_dup(rd_comm_t *c, rd_comm_t **out);
static int set_hints(rd_comm_t *c, const rd_info_t *info);

/* Duplicates c: same group(s), new context, same error handler and
 * topology, attributes copied by their copy callbacks (which run without
 * the lock). Hints: a copy of hints if with_info, else of c's. */
static int dup(MPI_Comm comm, int with_info, MPI_Info hints, MPI_Comm *newcomm, const char *fn)
{
    rd_comm_t *c, *nc = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = check_newcomm(c, newcomm, fn)))
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
    if (rc != RD_OK && nc) {
        extra_drop(nc);
        rd_comm_release(nc);
    }
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    if ((err = rd_api_attr_copy_dup(c, nc, fn)) != MPI_SUCCESS)
        return err;
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
 * rdmpi interprets no communicator hint yet: they are stored as given and
 * MPI_Comm_get_info hands back a copy of them. */

/* Gives c a copy of info (NULL or empty: no hints). Lock held; internal status. */
static int set_hints(rd_comm_t *c, const rd_info_t *info)
{
    rd_info_t *copy = NULL;
    if (info && info->n > 0 && !(copy = rd_api_info_copy(info)))
        return RD_ENOMEM;
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

typedef struct split_entry {
    int color, key;
} split_entry_t;

typedef struct split_member {
    int key, rank;
} split_member_t;

static int cmp_member(const void *pa, const void *pb)
{
    const split_member_t *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The split itself: every rank of c contributes (color, key); the ranks of
 * my color, ordered by key then by rank in c, form my new communicator.
 * MPI_UNDEFINED gets NULL. Lock held; returns an internal status. */
static int split(rd_comm_t *c, int color, int key, rd_comm_t **out)
{
    split_entry_t mine = { color, key };
    split_entry_t *all = malloc((size_t)c->size * sizeof(*all));
    split_member_t *m = malloc((size_t)c->size * sizeof(*m));
    int *world = malloc((size_t)c->size * sizeof(int));
    int rc = RD_ENOMEM;
    *out = NULL;
    if (!all || !m || !world)
        goto out;
    if ((rc = rd_coll_allgather_bytes(c, &mine, sizeof(mine), all)) != RD_OK)
        goto out;
    int n = 0;
    if (color != MPI_UNDEFINED)
        for (int r = 0; r < c->size; r++)
            if (all[r].color == color)
                m[n++] = (split_member_t){ all[r].key, r };
    qsort(m, (size_t)n, sizeof(*m), cmp_member);
    for (int i = 0; i < n; i++)
        world[i] = c->group->world[m[i].rank];
    rd_group_t *g = NULL;
    if (n && !(g = rd_group_new(n, world, rd_api.boot.rank))) {
        rc = RD_ENOMEM;
        goto out;
    }
    /* Every rank takes part in the context agreement, MPI_UNDEFINED too. */
    rc = rd_api_comm_create_from(c, g, out);
    rd_group_release(g);
out:
    free(all);
    free(m);
    free(world);
    return rc;
}

RD_WEAK_ALIAS(MPI_Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split";
    rd_comm_t *c, *nc;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = check_newcomm(c, newcomm, fn)) ||
        (err = check_intra(c, fn)))
        return err;
    if (color < 0 && color != MPI_UNDEFINED)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "invalid color %d: colors are >= 0 or MPI_UNDEFINED", color);
    rd_api_lock();
    int rc = split(c, color, key, &nc);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *newcomm = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* MPI_COMM_TYPE_SHARED: the ranks of my node, named by the lowest job rank
 * on it. MPI_COMM_TYPE_HW_UNGUIDED: the same, but only if it is a strict
 * subset of the communicator (else MPI_COMM_NULL, as MPI-4.0 says).
 * MPI_COMM_TYPE_HW_GUIDED needs the mpi_hw_resource_type info key, which
 * rdmpi does not read yet: MPI_COMM_NULL. */
RD_WEAK_ALIAS(MPI_Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                         MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split_type";
    rd_comm_t *c, *nc;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = check_newcomm(c, newcomm, fn)) ||
        (err = check_intra(c, fn)))
        return err;
    int node = rd_api.boot.local_ranks ? rd_api.boot.local_ranks[0] : rd_api.boot.rank;
    int color;
    switch (split_type) {
    case MPI_UNDEFINED:
    case MPI_COMM_TYPE_HW_GUIDED:
        color = MPI_UNDEFINED;
        break;
    case MPI_COMM_TYPE_SHARED:
    case MPI_COMM_TYPE_HW_UNGUIDED:
        color = node;
        break;
    default:
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "invalid split_type %d: use MPI_COMM_TYPE_SHARED, "
                            "MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_HW_UNGUIDED or MPI_UNDEFINED",
                            split_type);
    }
    rd_api_lock();
    int rc = split(c, color, key, &nc);
    /* Every member sees the same sizes, so all of them drop it or none. */
    if (rc == RD_OK && nc && split_type == MPI_COMM_TYPE_HW_UNGUIDED && nc->size == c->size) {
        rd_comm_release(nc);
        nc = NULL;
    }
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *newcomm = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* Collective over comm; every rank passes the same group. */
RD_WEAK_ALIAS(MPI_Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create";
    rd_comm_t *c, *nc;
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = check_newcomm(c, newcomm, fn)) ||
        (err = check_intra(c, fn)) || (err = check_subgroup(c, group, &g, fn)))
        return err;
    rd_api_lock();
    int rc = rd_api_comm_create_from(c, g, &nc);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *newcomm = nc ? nc->handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* ---- MPI_Comm_create_group: context agreement among the group only ----
 * A dissemination all-reduce (maximum) over the group's members, with
 * point-to-point messages in the parent's collective context. After round
 * d = 1, 2, 4, ... each member holds the maximum over the 2d members before
 * it, so ceil(log2 n) rounds cover everyone. The wire tag is the user's tag
 * with bit 30 set: user tags stop at RD_TAG_UB (2^30 - 1) and the internal
 * collectives use small tags, so concurrent calls with different tags (the
 * reason the standard has the argument) and other collectives never match
 * these messages. */

/* Maximum of *val over the members of g (all in c); lock held. */
static int group_max_u32(rd_comm_t *c, rd_group_t *g, int tag, uint32_t *val)
{
    int n = g->size, me = g->rank;
    int tagw = RD_INTERNAL_TAG_BIT | tag;
    for (int d = 1; d < n; d <<= 1) {
        int to = rd_group_rank_of(c->group, g->world[(me + d) % n]);
        int from = rd_group_rank_of(c->group, g->world[(me - d + n) % n]);
        uint32_t got = 0, send = *val;
        int rc = exchange(c, to, from, tagw, &send, sizeof(send), &got, sizeof(got));
        if (rc != RD_OK)
            return rc;
        if (got > *val)
            *val = got;
    }
    return RD_OK;
}

RD_WEAK_ALIAS(MPI_Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_create_group";
    rd_comm_t *c, *nc = NULL;
    rd_group_t *g;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = check_newcomm(c, newcomm, fn)) ||
        (err = check_intra(c, fn)) || (err = rd_api_check_tag(c, tag, 0, fn)) ||
        (err = check_subgroup(c, group, &g, fn)))
        return err;
    /* Only members call it; a non-member gets MPI_COMM_NULL, as in MPICH. */
    if (g->rank < 0) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    rd_api_lock();
    uint32_t ctx = rd_api.next_ctx;
    int rc = group_max_u32(c, g, tag, &ctx);
    if (rc == RD_OK) {
        rd_api.next_ctx = ctx + 2;
        rc = build(c, g, ctx, &nc);
    }
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}

/* ---- intercommunicators ---- */

/* The hidden intracommunicator over c's local group. */
static rd_comm_t *local_of(const rd_comm_t *c)
{
    comm_extra_t *x = extra_find(c);
    return x ? x->local : NULL;
}

/* Context agreement over both groups of intercommunicator c: each group
 * reduces next_ctx, local rank 0 of each swaps it with the other's rank 0
 * (along with n ints of extra data: in mine, out theirs), and each rank 0
 * broadcasts the result to its group. Lock held. */
static int inter_agree(rd_comm_t *c, uint32_t *ctx, const int *mine, int *theirs, int n)
{
    rd_comm_t *local = local_of(c);
    uint32_t msg[3] = { rd_api.next_ctx, 0, 0 }, got[3] = { 0, 0, 0 };
    int rc = rd_coll_allreduce_max_u32(local, &msg[0]);
    if (rc != RD_OK)
        return rc;
    for (int i = 0; i < n; i++)
        msg[1 + i] = (uint32_t)mine[i];
    if (local->rank == 0) {
        rc = exchange(c, 0, 0, RD_INTER_TAG, msg, sizeof(msg), got, sizeof(got));
        if (rc != RD_OK)
            return rc;
        if (got[0] > msg[0])
            msg[0] = got[0];
        memcpy(&msg[1], &got[1], 2 * sizeof(uint32_t));
    }
    if ((rc = rd_coll_bcast_bytes(local, msg, sizeof(msg), 0)) != RD_OK)
        return rc;
    *ctx = msg[0];
    for (int i = 0; i < n; i++)
        theirs[i] = (int)msg[1 + i];
    return RD_OK;
}

static int inter_dup(rd_comm_t *c, rd_comm_t **out)
{
    uint32_t ctx;
    *out = NULL;
    int rc = inter_agree(c, &ctx, NULL, NULL, 0);
    if (rc != RD_OK)
        return rc;
    rd_api.next_ctx = ctx + 4;
    return build_inter(c, c->group, c->rgroup, ctx, out);
}

/* The leaders swap (context, group size) and then their groups' job ranks
 * over peer, and broadcast what they got to their groups. On return
 * *rworld (malloc'd) holds the remote group. Lock held. */
static int leaders_swap(rd_comm_t *lc, int leader, rd_comm_t *peer, int rleader, int tag,
                        uint32_t *ctx, int *rsize, int **rworld)
{
    uint32_t hdr[2] = { *ctx, (uint32_t)lc->size }, got[2];
    int tagw = RD_INTERNAL_TAG_BIT | tag, rc;
    *rworld = NULL;
    if (lc->rank == leader) {
        if ((rc = exchange(peer, rleader, rleader, tagw, hdr, sizeof(hdr), got, sizeof(got))))
            return rc;
        hdr[0] = got[0] > hdr[0] ? got[0] : hdr[0];
        hdr[1] = got[1];
    }
    if ((rc = rd_coll_bcast_bytes(lc, hdr, sizeof(hdr), leader)) != RD_OK)
        return rc;
    if (!(*rworld = malloc(((size_t)hdr[1] + 1) * sizeof(int))))
        return RD_ENOMEM;
    size_t n = (size_t)hdr[1] * sizeof(int);
    if (lc->rank == leader &&
        (rc = exchange(peer, rleader, rleader, tagw, lc->group->world, (size_t)lc->size * sizeof(int),
                       *rworld, n)) != RD_OK)
        return rc;
    if ((rc = rd_coll_bcast_bytes(lc, *rworld, n, leader)) != RD_OK)
        return rc;
    *ctx = hdr[0];
    *rsize = (int)hdr[1];
    return RD_OK;
}

RD_WEAK_ALIAS(MPI_Intercomm_create)
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    static const char fn[] = "MPI_Intercomm_create";
    rd_comm_t *lc, *peer = NULL, *nc = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(local_comm, &lc, fn)) ||
        (err = check_newcomm(lc, newintercomm, fn)) || (err = check_intra(lc, fn)) ||
        (err = rd_api_check_tag(lc, tag, 0, fn)))
        return err;
    if (local_leader < 0 || local_leader >= lc->size)
        return rd_api_error(lc, MPI_ERR_RANK, fn, "local_leader %d is outside 0..%d",
                            local_leader, lc->size - 1);
    /* peer_comm and remote_leader only matter at the leader. */
    if (lc->rank == local_leader) {
        if ((err = rd_api_check_comm(peer_comm, &peer, fn)))
            return err;
        if (remote_leader < 0 || remote_leader >= rd_comm_remote_size(peer))
            return rd_api_error(lc, MPI_ERR_RANK, fn, "remote_leader %d is outside 0..%d",
                                remote_leader, rd_comm_remote_size(peer) - 1);
        if (rd_comm_world(peer, remote_leader) == rd_api.boot.rank)
            return rd_api_error(lc, MPI_ERR_RANK, fn,
                                "remote_leader %d is this process: the two groups must be "
                                "disjoint", remote_leader);
    }
    rd_api_lock();
    uint32_t ctx = rd_api.next_ctx;
    int rsize = 0, *rworld = NULL, overlap = 0;
    int rc = rd_coll_allreduce_max_u32(lc, &ctx);
    if (rc == RD_OK)
        rc = leaders_swap(lc, local_leader, peer, remote_leader, tag, &ctx, &rsize, &rworld);
    if (rc == RD_OK) {
        rd_api.next_ctx = ctx + 4;
        for (int i = 0; i < rsize && !overlap; i++)
            overlap = rd_group_rank_of(lc->group, rworld[i]) >= 0;
    }
    if (rc == RD_OK && !overlap) {
        rd_group_t *rg = rd_group_new(rsize, rworld, rd_api.boot.rank);
        rc = rg ? build_inter(lc, lc->group, rg, ctx, &nc) : RD_ENOMEM;
        rd_group_release(rg);
    }
    rd_api_unlock();
    free(rworld);
    if (rc != RD_OK)
        return rd_api_status_error(lc, rc, fn);
    if (overlap)
        return rd_api_error(lc, MPI_ERR_COMM, fn,
                            "the local and remote groups overlap: they must be disjoint");
    *newintercomm = nc->handle;
    return MPI_SUCCESS;
}

/* The group that passed high = false comes first; if both passed the same
 * value, the group whose leader has the lower MPI_COMM_WORLD rank does. */
RD_WEAK_ALIAS(MPI_Intercomm_merge)
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    static const char fn[] = "MPI_Intercomm_merge";
    rd_comm_t *c, *nc = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(intercomm, &c, fn)) ||
        (err = check_newcomm(c, newintracomm, fn)))
        return err;
    if (!c->rgroup)
        return rd_api_error(c, MPI_ERR_COMM, fn, "the communicator is not an intercommunicator");
    int n = c->size + c->rgroup->size;
    int *world = malloc((size_t)n * sizeof(int));
    if (!world)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    rd_api_lock();
    /* Rank 0's value stands for its group (all members pass the same). */
    int mine[2] = { high != 0, 0 }, theirs[2];
    uint32_t ctx;
    int rc = rd_coll_bcast_bytes(local_of(c), mine, sizeof(int), 0);
    if (rc == RD_OK)
        rc = inter_agree(c, &ctx, mine, theirs, 1);
    if (rc == RD_OK) {
        rd_api.next_ctx = ctx + 2;
        int first = mine[0] != theirs[0] ? !mine[0]
                                         : c->group->world[0] < c->rgroup->world[0];
        rd_group_t *a = first ? c->group : c->rgroup, *b = first ? c->rgroup : c->group;
        memcpy(world, a->world, (size_t)a->size * sizeof(int));
        memcpy(world + a->size, b->world, (size_t)b->size * sizeof(int));
        rd_group_t *g = rd_group_new(n, world, rd_api.boot.rank);
        rc = g ? build(c, g, ctx, &nc) : RD_ENOMEM;
        rd_group_release(g);
    }
    rd_api_unlock();
    free(world);
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    *newintracomm = nc->handle;
    return MPI_SUCCESS;
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
