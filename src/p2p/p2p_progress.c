/*
 * The progress engine (see p2p.h): rd_progress polls the transports that
 * carry some peer; only when sends wait in queues, rendezvous data streams
 * or a hook is active does it take the slower path (progress_more). Waits
 * spin, then yield the CPU.
 */
#include <sched.h>

#include "p2p/p2p_impl.h"
#include "util/clock.h"

static int push_queues(void)
{
    int n = 0;
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &rd_p2p.busy_peers) {
        peer_t *p = rd_list_entry(pos, peer_t, busy_link);
        int dst = (int)(p - rd_p2p.peers);
        while (!rd_list_empty(&p->sendq)) {
            qmsg_t *q = rd_list_entry(p->sendq.next, qmsg_t, link);
            int rc = p->tp->send(dst, &q->hdr, q->hdrlen, q->payload, q->len);
            if (rc == RD_EAGAIN)
                break;
            rd_list_remove(&q->link);
            if (q->req) {
                if (rc == RD_OK)
                    eager_sent(q->req);
                else
                    done(q->req, rc);
            } else if (q->done) {
                q->done(q->ctx, rc);
            }
            free(q);
            n++;
        }
        if (rd_list_empty(&p->sendq))
            rd_list_remove(&p->busy_link);
    }
    if (++rd_p2p.pass == 0)
        rd_p2p.pass = 1;   /* 0 is every peer's stream_full at init */
    rd_list_for_each_safe(pos, tmp, &rd_p2p.streaming) {
        n += rd_p2p_stream(req_of(rd_list_entry(pos, p2p_req_t, link)));
    }
    return n;
}

/* What rd_progress does beyond polling the transports. */
static int __attribute__((noinline)) progress_more(void)
{
    int n = 0;
    if (!rd_list_empty(&rd_p2p.busy_peers) || !rd_list_empty(&rd_p2p.streaming))
        n += push_queues();
    /* Reread the mask each time: a hook may switch itself or another off. */
    for (int i = 0; i < rd_p2p.nhooks; i++)
        if (rd_p2p.hooks_on & (1u << i))
            n += rd_p2p.hooks[i]();
    return n;
}

int rd_progress(void)
{
    int n = 0;
    for (int i = 0; i < rd_p2p.nactive; i++) {
        int k = rd_p2p.active[i]->progress();
        if (k > 0)
            n += k;
    }
    if (__builtin_expect(rd_p2p.hooks_on || !rd_list_empty(&rd_p2p.busy_peers) ||
                             !rd_list_empty(&rd_p2p.streaming), 0))
        n += progress_more();
    return n;
}

int rd_progress_hook_register(rd_progress_hook_fn fn)
{
    for (int i = 0; i < rd_p2p.nhooks; i++)
        if (rd_p2p.hooks[i] == fn)
            return i;
    if (rd_p2p.nhooks == RD_PROGRESS_HOOKS_MAX)
        return RD_ENOMEM;
    rd_p2p.hooks[rd_p2p.nhooks] = fn;
    return rd_p2p.nhooks++;
}

void rd_progress_hook_activate(int id)
{
    rd_p2p.hooks_on |= 1u << id;
}

void rd_progress_hook_deactivate(int id)
{
    rd_p2p.hooks_on &= ~(1u << id);
}

/* Thread-local state of the wait loops, read on every operation: the
 * initial-exec model makes each access one load, where the shared
 * library's default costs a call of __tls_get_addr (a few bytes of the
 * static TLS block, which a dlopen of the library still finds free). */
#define TLS_IE __attribute__((tls_model("initial-exec")))

/* Nesting of the thread's rd_p2p_wait_begin / _end pairs: only the
 * outermost pair stores the mark. */
static __thread unsigned wait_depth TLS_IE;

/* A yield that kept the thread off its CPU this long means other work
 * competes for that CPU: the rank would answer messages late. */
#define YIELD_SLOW_NS 20000

void rd_p2p_idle(unsigned *idle)
{
    if (++*idle >= rd_p2p.spin) {
        if (wait_depth && rd_p2p.marker) {
            /* The mark tells node peers that this rank answers at once,
             * which holds only while its yields give the CPU back soon. */
            int64_t t0 = rd_clock_ns();
            sched_yield();
            rd_p2p.marker->wait_mark(rd_clock_ns() - t0 < YIELD_SLOW_NS);
        } else {
            sched_yield();
        }
        *idle = rd_p2p.spin / 2;
    }
}

static void (*yield_unlock)(void), (*yield_lock)(void);
static int app_threads;

void rd_p2p_set_yield(void (*unlock)(void), void (*lock)(void))
{
    yield_unlock = unlock;
    yield_lock = lock;
}

void rd_p2p_set_threads(void)
{
    app_threads = 1;
}

int rd_p2p_threads(void)
{
    return app_threads;
}

void rd_p2p_backoff(int n, unsigned *idle)
{
    if (n == 0)
        rd_p2p_idle(idle);
    else
        *idle = 0;
}

void rd_p2p_pause(int n, unsigned *idle)
{
    if (yield_unlock)
        yield_unlock();
    rd_p2p_backoff(n, idle);
    if (yield_lock)
        yield_lock();
}

void rd_p2p_wait_begin(void)
{
    if (wait_depth++ == 0 && rd_p2p.marker)
        rd_p2p.marker->wait_mark(1);
}

void rd_p2p_wait_end(void)
{
    if (--wait_depth == 0 && rd_p2p.marker)
        rd_p2p.marker->wait_mark(0);
}

/* The request the thread is waiting for, for rd_p2p_waiting. */
static __thread rd_request_t *volatile waiting_for TLS_IE;

void rd_p2p_wait(rd_request_t *r)
{
    if (r->done)
        return;
    unsigned idle = 0;
    rd_request_t *outer = waiting_for;
    waiting_for = r;
    rd_p2p_wait_begin();
    for (;;) {
        int n = rd_progress();
        if (r->done)
            break;
        rd_p2p_pause(n, &idle);
    }
    rd_p2p_wait_end();
    waiting_for = outer;
}

int rd_p2p_waiting(rd_p2p_wait_info_t *w)
{
    const rd_request_t *r = waiting_for;
    if (!r)
        return 0;
    w->recv = r->kind == RD_REQ_RECV;
    w->peer = r->peer;
    w->tag = r->tag;
    w->comm = r->comm ? r->comm->name : NULL;
    return 1;
}
