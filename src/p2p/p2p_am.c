/*
 * The active-message registry (see p2p.h): a handler per message type,
 * indexed directly by the type byte, and rd_p2p_am_send for the layers that
 * send their own headers. p2p's own protocols register here like any other
 * layer (p2p_send.c, p2p_rndv.c); only EAGER is handled inline on arrival.
 */
#include "p2p/p2p_impl.h"

_Static_assert(RD_HDR_MAX == RD_P2P_AM_HDR_MAX, "an active message's header is p2p's largest");
_Static_assert(RD_HDR_MAX <= RD_TP_HDR_MAX, "p2p's largest header fits every transport");
_Static_assert((int)RD_MSG_PUT_FIN <= (int)RD_AM_P2P_LAST, "p2p's types stay in p2p's range");

/* A type nobody registered: dropped, as the closed switch did before. */
static void am_unknown(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    (void)peer, (void)hdr, (void)hdrlen, (void)payload, (void)len;
}

int rd_p2p_am_register(int type, rd_p2p_am_fn fn)
{
    if (type <= 0 || type >= RD_AM_TYPES || type == RD_MSG_EAGER || !fn)
        return RD_EINVAL;
    if (rd_p2p.am[type] != am_unknown && rd_p2p.am[type] != fn)
        return RD_EINVAL;
    rd_p2p.am[type] = fn;
    return RD_OK;
}

void rd_p2p_am_init(void)
{
    for (int t = 0; t < RD_AM_TYPES; t++)
        rd_p2p.am[t] = am_unknown;
}

int rd_p2p_am_send(int peer_world, const void *hdr, size_t hdrlen, const void *payload,
                   size_t len, rd_p2p_am_done_fn done, void *ctx)
{
    if (peer_world < 0 || peer_world >= rd_p2p.size || hdrlen < 1 || hdrlen > RD_P2P_AM_HDR_MAX)
        return RD_EINVAL;
    peer_t *p = &rd_p2p.peers[peer_world];
    if (!p->tp)
        return rd_p2p_unreachable(peer_world);
    if (p->failed)
        return p->failed;
    if (len > frag_max(p->tp))
        return RD_EINVAL;
    int rc = rd_p2p_post(peer_world, hdr, hdrlen, payload, len, NULL);
    if (rc == RD_EAGAIN) {
        qmsg_t *q = rd_list_entry(p->sendq.prev, qmsg_t, link);
        q->done = done;
        q->ctx = ctx;
    }
    return rc;
}

int rd_p2p_am_send_now(int peer_world, const void *hdr, size_t hdrlen, const void *payload,
                       size_t len)
{
    if (peer_world < 0 || peer_world >= rd_p2p.size || hdrlen < 1 || hdrlen > RD_P2P_AM_HDR_MAX)
        return RD_EINVAL;
    peer_t *p = &rd_p2p.peers[peer_world];
    if (!p->tp)
        return rd_p2p_unreachable(peer_world);
    if (p->failed)
        return p->failed;
    if (len > frag_max(p->tp))
        return RD_EINVAL;
    if (!rd_list_empty(&p->sendq))
        return RD_EAGAIN;   /* non-overtaking: behind what waits */
    return p->tp->send(peer_world, hdr, hdrlen, payload, len);
}

size_t rd_p2p_am_max(int peer_world)
{
    if (peer_world < 0 || peer_world >= rd_p2p.size || !rd_p2p.peers[peer_world].tp)
        return 0;
    return frag_max(rd_p2p.peers[peer_world].tp);
}
