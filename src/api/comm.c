/*
 * Communicator management: queries (rank, size, group, compare, name) and
 * construction (dup, split, split_type, create, create_group) and
 * destruction (free) of intracommunicators.
 *
 * Context ids: communicator c uses c->ctx for point-to-point traffic and
 * c->ctx + 1 for its collectives. rd_api.next_ctx is the lowest id this
 * process has not used; a new communicator takes the maximum of next_ctx
 * over the processes that build it, which none of them uses yet, and every
 * one of them moves next_ctx past it. Ids are unique per process, which is
 * all matching needs: two disjoint communicators may share an id.
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
#include "coll/coll.h"
#include "core/datatype.h"
#include "core/request.h"
#include "p2p/p2p.h"

/* Defined in group.c; to move into api.h. */

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

/* Call without the lock (attribute callbacks may call MPI). Returns
 * MPI_SUCCESS, or the code of a failed delete callback (c is then not
 * freed). */
int rd_api_comm_free(rd_comm_t *c)
{
    int err = rd_api_attr_delete_all(c);
    if (err != MPI_SUCCESS)
        return err;
    rd_api_lock();
    rd_comm_release(c);
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* Intercommunicators are not constructed yet (no MPI_Intercomm_create), but
 * the functions below would be wrong on one, so they say so. */
static int check_intra(rd_comm_t *c, const char *fn)
{
    if (!c->rgroup)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_COMM, fn,
                        "intercommunicators are not supported here yet; use an intracommunicator");
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

/* Duplicates c: same group, new context, same error handler, attributes
 * copied by their copy callbacks (which run without the lock). */
static int dup(MPI_Comm comm, MPI_Comm *newcomm, const char *fn)
{
    rd_comm_t *c, *nc;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = check_newcomm(c, newcomm, fn)) ||
        (err = check_intra(c, fn)))
        return err;
    rd_api_lock();
    int rc = rd_api_comm_create_from(c, c->group, &nc);
    rd_api_unlock();
    if (rc != RD_OK)
        return rd_api_status_error(c, rc, fn);
    if ((err = rd_api_attr_copy_all(c, nc)) != MPI_SUCCESS) {
        /* Undo: the copies made so far are deleted with their callbacks. */
        rd_api_comm_free(nc);
        if (err == MPI_ERR_NO_MEM)
            return rd_api_error(c, err, fn, "out of memory copying attributes");
        if (err > 0 && err <= 0xff)
            return rd_api_error(c, err, fn, "an attribute copy callback returned error %d", err);
        return rd_api_raise(c, err, fn);
    }
    *newcomm = nc->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return dup(comm, newcomm, "MPI_Comm_dup");
}

/* Hints are accepted and ignored: rdmpi has no communicator hints yet. */
RD_WEAK_ALIAS(MPI_Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_dup_with_info";
    RD_API_CHECK_INIT(fn);
    if (info != MPI_INFO_NULL && RD_HANDLE_OBJ(info) != RD_OBJ_INFO)
        return rd_api_error(rd_api_comm(comm), MPI_ERR_INFO, fn, "invalid info handle 0x%x",
                            (unsigned)info);
    return dup(comm, newcomm, fn);
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

#define CREATE_GROUP_TAG_BIT 0x40000000

static int start_msg(rd_request_t **out, int kind, rd_comm_t *c, void *buf, int peer, int tag)
{
    rd_request_t *r = rd_req_new(kind);
    if (!r)
        return RD_ENOMEM;
    r->buf = buf;
    r->count = sizeof(uint32_t);
    r->dt = &rd_dt_bytes;
    r->comm = c;
    r->peer = peer;
    r->tag = tag;
    r->mode = RD_MODE_STANDARD;
    int rc = kind == RD_REQ_SEND ? rd_p2p_isend(r, 1) : rd_p2p_irecv(r, 1);
    if (rc != RD_OK) {
        r->dt = NULL; /* rd_dt_bytes is static: not released */
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

/* Maximum of *val over the members of g (all in c); lock held. */
static int group_max_u32(rd_comm_t *c, rd_group_t *g, int tag, uint32_t *val)
{
    int n = g->size, me = g->rank;
    int tagw = CREATE_GROUP_TAG_BIT | tag;
    for (int d = 1; d < n; d <<= 1) {
        int to = rd_group_rank_of(c->group, g->world[(me + d) % n]);
        int from = rd_group_rank_of(c->group, g->world[(me - d + n) % n]);
        uint32_t got = 0, send = *val;
        rd_request_t *rr, *sr;
        int rc = start_msg(&rr, RD_REQ_RECV, c, &got, from, tagw);
        if (rc != RD_OK)
            return rc;
        if ((rc = start_msg(&sr, RD_REQ_SEND, c, &send, to, tagw)) != RD_OK) {
            finish_msg(rr);
            return rc;
        }
        int rc1 = finish_msg(sr), rc2 = finish_msg(rr);
        if (rc1 != RD_OK || rc2 != RD_OK)
            return rc1 != RD_OK ? rc1 : rc2;
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
