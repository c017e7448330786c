/*
 * Target-side handlers of the operations (see rma_am.h): each message is
 * checked against the window it names (known window, every run inside
 * this rank's memory) before a byte is touched, applied, and answered:
 * ACK for PUT and ACC, RESP with the data for GET, GET_ACC, FOP and CAS.
 * A refused message is answered with the reason (RD_ERANGE), which the
 * origin reports at its next completion call.
 */
#include "rma/rma_am.h"

#include <stdlib.h>
#include <string.h>

#include "rma/rma_acc.h"
#include "rma/rma_ops.h"
#include "rma/rma_wire.h"
#include "util/status.h"

int rd_rma_am_local(rd_win_t *w, uint64_t addr, uint64_t len, char **p)
{
    if (addr + len < addr)
        return 0;
    if (w->flavor == RD_WIN_DYNAMIC) {
        if (len && !rd_rma_dyn_covers(w, addr, len))
            return 0;
        *p = (char *)(uintptr_t)addr;
        return 1;
    }
    if (addr > w->size || len > w->size - addr)
        return 0;
    *p = (char *)w->base + addr;
    return 1;
}

/* Answers message m from job rank peer: status, and for RESP the data
 * (freed once sent when own). */
static void answer_data(int peer, const rd_rma_op_msg_t *m, const rd_win_t *w, int type,
                        int status, const void *data, size_t len, void *own)
{
    rd_rma_ack_msg_t a = {
        .h = { .type = (uint8_t)type, .win = m->h.win }, .opid = m->opid, .status = status,
        .count = 1, .from = w ? (uint32_t)w->comm->rank : UINT32_MAX, .roff = m->roff,
    };
    /* A failed answer means the origin is gone: nobody waits for it. */
    (void)rd_rma_send_plain(peer, &a, sizeof(a), data, len, own);
}

static void answer(int peer, const rd_rma_op_msg_t *m, const rd_win_t *w, int type, int status,
                   void *data, size_t len)
{
    answer_data(peer, m, w, type, status, data, len, data);
}

/* ---- coalesced acknowledgements ----
 * PUT and ACC messages without a record (opid 0: no request, no result)
 * that succeeded are acknowledged by count: all such messages one
 * progress pass brings from one origin for one window get one ACK,
 * sent by a progress hook at the end of that pass. A stream of puts then
 * costs the origin one answer per pass instead of one per message. */
typedef struct ack_due {
    int peer;                    /* job rank of the origin */
    uint32_t win, from, count;   /* window id, this rank in it, messages */
} ack_due_t;

static ack_due_t *due;
static int ndue, capdue;
static int ack_hook = -1;

static int send_acks(void)
{
    int n = ndue;
    for (int i = 0; i < n; i++) {
        rd_rma_ack_msg_t a = {
            .h = { .type = RD_RMA_AM_ACK, .win = due[i].win }, .status = RD_OK,
            .count = due[i].count, .from = due[i].from,
        };
        /* A failed answer means the origin is gone: nobody waits for it. */
        (void)rd_rma_send_plain(due[i].peer, &a, sizeof(a), NULL, 0, NULL);
    }
    ndue = 0;
    rd_progress_hook_deactivate(ack_hook);
    return n;
}

/* Counts one message of m from peer on w as answered at the end of this
 * pass; 0 when it must be answered now (out of memory). */
static int ack_later(int peer, const rd_rma_op_msg_t *m, const rd_win_t *w)
{
    for (int i = ndue - 1; i >= 0; i--)
        if (due[i].peer == peer && due[i].win == m->h.win) {
            due[i].count++;
            return 1;
        }
    if (ndue == capdue) {
        int cap = capdue ? capdue * 2 : 16;
        ack_due_t *d = realloc(due, (size_t)cap * sizeof(*d));
        if (!d)
            return 0;
        due = d;
        capdue = cap;
    }
    due[ndue++] = (ack_due_t){ .peer = peer, .win = m->h.win,
                               .from = (uint32_t)w->comm->rank, .count = 1 };
    rd_progress_hook_activate(ack_hook);
    return 1;
}

/* Validates the runs of m (the payload's first nb blocks) against w and
 * returns the local start of the target bytes, or NULL. */
/* Whether no other process maps w's memory here: then this rank's
 * progress is its only writer besides its own calls, which hold the same
 * library lock (a window in a segment shared with node peers is updated
 * by their atomics concurrently). */
static int mem_private(const rd_win_t *w)
{
    const char *seg = w->rma->seg, *base = w->base;
    if (w->flavor == RD_WIN_SHARED)
        return 0;
    return !seg || !base || base < seg || base >= seg + w->rma->seglen;
}

static char *target_bytes(rd_win_t *w, const rd_rma_op_msg_t *m, const rd_rma_block_t *b,
                          size_t nb)
{
    char *p;
    if (!nb)
        return rd_rma_am_local(w, m->addr, m->len, &p) ? p : NULL;
    uint64_t sum = 0;
    for (size_t i = 0; i < nb; i++) {
        uint64_t off = b[i].off, len = b[i].len;
        if (m->addr + off < m->addr || !rd_rma_am_local(w, m->addr + off, len, &p))
            return NULL;
        sum += len;
    }
    if (sum != m->len || !rd_rma_am_local(w, m->addr, 0, &p))
        return NULL;
    return p;
}

static void gather(char *dst, const char *base, const rd_rma_block_t *b, size_t nb, size_t len)
{
    if (!nb) {
        memcpy(dst, base, len);
        return;
    }
    for (size_t i = 0; i < nb; i++) {
        memcpy(dst, base + b[i].off, b[i].len);
        dst += b[i].len;
    }
}

static void scatter(char *base, const char *src, const rd_rma_block_t *b, size_t nb, size_t len)
{
    if (!nb) {
        memcpy(base, src, len);
        return;
    }
    for (size_t i = 0; i < nb; i++) {
        memcpy(base + b[i].off, src, b[i].len);
        src += b[i].len;
    }
}

/* Whether an accumulate's op and element kind from the wire are ones this
 * rank applies. */
static int acc_ok(const rd_rma_op_msg_t *m)
{
    if (m->op >= RD_OP_USER)
        return 0;
    int k = m->basic == 0xff ? RD_BASIC_NONE : m->basic;
    return rd_rma_basic_size(k) == m->esize && m->esize && m->len % m->esize == 0;
}

static void on_op(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    rd_rma_op_msg_t m;
    if (hdrlen < sizeof(m))
        return;
    memcpy(&m, hdr, sizeof(m));
    int type = m.h.type;
    int reply = type == RD_RMA_AM_PUT || type == RD_RMA_AM_ACC ? RD_RMA_AM_ACK : RD_RMA_AM_RESP;
    rd_win_t *w = rd_rma_win_lookup(m.h.win);
    if (!w) {
        answer(peer, &m, NULL, reply, RD_EINVAL, NULL, 0);
        return;
    }
    size_t nb = m.nblocks, meta = nb * sizeof(rd_rma_block_t);
    const rd_rma_block_t *b = payload;
    const char *data = (const char *)payload + meta;
    size_t dlen = len >= meta ? len - meta : 0;
    int k = m.basic == 0xff ? RD_BASIC_NONE : m.basic;
    size_t need;
    switch (type) {
    case RD_RMA_AM_GET: need = 0; break;
    case RD_RMA_AM_GET_ACC: need = m.op == RD_OP_NO_OP ? 0 : m.len; break;
    case RD_RMA_AM_FOP: need = m.esize; break;
    case RD_RMA_AM_CAS: need = 2 * (size_t)m.esize; break;
    default: need = m.len; break;
    }
    int one = type == RD_RMA_AM_FOP || type == RD_RMA_AM_CAS;
    int bad_acc = type != RD_RMA_AM_PUT && type != RD_RMA_AM_GET &&
                  (!acc_ok(&m) || (one && m.len != m.esize));
    if (m.op == RD_OP_NO_OP && type == RD_RMA_AM_FOP)
        need = 0;
    if (nb > len / sizeof(rd_rma_block_t) || dlen != need || bad_acc) {
        answer(peer, &m, w, reply, RD_EINVAL, NULL, 0);
        return;
    }
    char *t = target_bytes(w, &m, b, nb);
    if (!t) {
        answer(peer, &m, w, reply, RD_ERANGE, NULL, 0);
        return;
    }
    /* A GET of one run is answered from the window itself, one copy less:
     * until the origin has the answer, nothing may change those bytes (a
     * conflicting access in the same epoch is erroneous). */
    if (type == RD_RMA_AM_GET && !nb) {
        answer_data(peer, &m, w, reply, RD_OK, t, m.len, NULL);
        return;
    }
    char *out = NULL;
    size_t olen = type == RD_RMA_AM_PUT || type == RD_RMA_AM_ACC ? 0 : m.len;
    if (olen && !(out = malloc(olen))) {
        answer(peer, &m, w, reply, RD_ENOMEM, NULL, 0);
        return;
    }
    int rc = RD_OK;
    switch (type) {
    case RD_RMA_AM_PUT:
        scatter(t, data, b, nb, m.len);
        break;
    case RD_RMA_AM_GET:
        gather(out, t, b, nb, m.len);
        break;
    case RD_RMA_AM_ACC:
    case RD_RMA_AM_GET_ACC:
    case RD_RMA_AM_FOP:
        rc = (mem_private(w) ? rd_rma_acc_apply_private
                             : rd_rma_acc_apply)(m.op, k, t, b, nb, m.len, data, out);
        break;
    case RD_RMA_AM_CAS:
        rd_rma_acc_cas(k, t, data, data + m.esize, out);
        break;
    }
    if (rc != RD_OK) {
        free(out);
        answer(peer, &m, w, reply, rc, NULL, 0);
        return;
    }
    if (reply == RD_RMA_AM_ACK && m.opid == 0 && ack_hook >= 0 && ack_later(peer, &m, w))
        return;
    answer(peer, &m, w, reply, RD_OK, out, olen);
}

int rd_rma_am_init(void)
{
    static const int types[] = { RD_RMA_AM_PUT, RD_RMA_AM_GET, RD_RMA_AM_ACC,
                                 RD_RMA_AM_GET_ACC, RD_RMA_AM_FOP, RD_RMA_AM_CAS };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        int rc = rd_p2p_am_register(types[i], on_op);
        if (rc != RD_OK)
            return rc;
    }
    ndue = 0;
    ack_hook = rd_progress_hook_register(send_acks);
    return ack_hook < 0 ? ack_hook : RD_OK;
}

void rd_rma_am_finalize(void)
{
    free(due);
    due = NULL;
    ndue = capdue = 0;
    ack_hook = -1;
}
