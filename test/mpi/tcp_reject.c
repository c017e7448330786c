/*
 * tcp_reject: a process that is not part of the job cannot inject messages
 * into a rank's TCP transport (run with RDMPI_TRANSPORTS=tcp at np 2).
 *
 * Rank 0 reads rank 1's published TCP address from PMIx (as any process of
 * the job could; another user's process could only scan for the port) and
 * plays the intruder on three extra connections:
 *   1. a HELLO with the right ranks but a wrong key (the job's key, which
 *      rank 0's MPI_Init took out of its environment, one byte off; or
 *      rank 1's published key one byte off where there is no job key), then
 *      a forged MSG frame carrying an EAGER message with tag 99;
 *   2. a frame with an unknown wire version;
 *   3. a MSG frame without any HELLO;
 *   4. nothing at all (connects and stays silent).
 * Each must be closed by rank 1 without an answer, rank 1 must never see a
 * tag-99 message, and the job must carry on and finish normally.
 * rdmpi-only: it knows rdmpi's wire format (src/transport/tcp/tcp_wire.h).
 */
#include "mtest.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pmix.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "p2p/proto.h"
#include "transport/tcp/tcp_wire.h"

#define TAG_FORGED 99
#define TAG_DONE 5

/* Connects to a, sends n bytes of buf and waits (at most 20 s) for rank 1
 * to close the connection. Returns 1 if it was closed with nothing sent
 * back, 0 otherwise. */
static int intrude(const rd_tcp_addr_t *a, const void *buf, size_t n)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    const rd_tcp_ent_t *e = &a->ent[0];   /* same host: any of them will do */
    memset(&ss, 0, sizeof(ss));
    if (e->family == 4) {
        struct sockaddr_in *s = (struct sockaddr_in *)&ss;
        s->sin_family = AF_INET;
        s->sin_port = a->port;
        memcpy(&s->sin_addr, e->addr, 4);
        sl = sizeof(*s);
    } else {
        struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;
        s->sin6_family = AF_INET6;
        s->sin6_port = a->port;
        memcpy(&s->sin6_addr, e->addr, 16);
        sl = sizeof(*s);
    }
    int fd = socket(ss.ss_family, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&ss, sl) != 0) {
        printf("rank 0: connect to rank 1: %s\n", strerror(errno));
        if (fd >= 0)
            close(fd);
        return 0;
    }
    struct timeval tv = { 20, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    ssize_t w = write(fd, buf, n);
    char c;
    ssize_t r = read(fd, &c, 1);
    int closed = w == (ssize_t)n && (r == 0 || (r < 0 && errno == ECONNRESET));
    if (!closed)
        printf("rank 0: intruder connection not closed (write %zd, read %zd, %s)\n", w, r,
               r < 0 ? strerror(errno) : "data");
    close(fd);
    return closed;
}

static size_t put_frame(unsigned char *p, int type, int version, size_t hdrlen, size_t len)
{
    rd_tcp_frame_t f = { (uint8_t)type, (uint8_t)version, (uint16_t)hdrlen, (uint32_t)len };
    memcpy(p, &f, sizeof(f));
    return sizeof(f);
}

/* A MSG frame with an EAGER header for tag 99 and a 4-byte payload. */
static size_t put_forged_msg(unsigned char *p)
{
    rd_msg_hdr_t h;
    memset(&h, 0, sizeof(h));
    h.type = RD_MSG_EAGER;
    h.version = RD_PROTO_VERSION;
    h.ctx = 0;
    h.src = 0;
    h.tag = TAG_FORGED;
    h.len = 4;
    size_t n = put_frame(p, RD_TCP_F_MSG, RD_TCP_WIRE_VERSION, RD_HDR_EAGER_LEN, 4);
    memcpy(p + n, &h, RD_HDR_EAGER_LEN);
    n += RD_HDR_EAGER_LEN;
    memcpy(p + n, "evil", 4);
    return n + 4;
}

/* Two hex digits at s as a byte. */
static uint8_t hex_byte(const char *s)
{
    unsigned v = 0;
    sscanf(s, "%2x", &v);
    return (uint8_t)v;
}

int main(int argc, char **argv)
{
    /* The job key, as rdmpi's mpirun hands it (boot.h); read before
     * MPI_Init takes it away. */
    const char *jk = getenv("RDMPI_JOB_KEY");
    uint8_t key[RD_TCP_KEY_LEN] = { 0 };
    int have_key = jk && strlen(jk) == 2 * RD_TCP_KEY_LEN;
    for (int i = 0; have_key && i < RD_TCP_KEY_LEN; i++)
        key[i] = hex_byte(jk + 2 * i);
    MTest_Init(&argc, &argv);
    MTest_Need_ranks(2);
    int token = 0;
    if (MTest_rank == 0) {
        pmix_proc_t me, peer;
        pmix_value_t *v = NULL;
        rd_tcp_addr_t a;
        int ok = PMIx_Init(&me, NULL, 0) == PMIX_SUCCESS;
        if (ok) {
            PMIX_LOAD_PROCID(&peer, me.nspace, 1);
            ok = PMIx_Get(&peer, RD_TCP_BOOT_KEY, NULL, 0, &v) == PMIX_SUCCESS && v &&
                 v->type == PMIX_BYTE_OBJECT && v->data.bo.size >= RD_TCP_ADDR_LEN(1) &&
                 v->data.bo.size <= sizeof(a);
        }
        MT_CHECK(ok, "rank 1's TCP address is published");
        if (ok) {
            memcpy(&a, v->data.bo.bytes, v->data.bo.size);
            unsigned char buf[512];
            size_t n;

            if (!have_key) {
                pmix_value_t *kv = NULL;
                if (PMIx_Get(&peer, RD_TCP_BOOT_SECRET, NULL, 0, &kv) == PMIX_SUCCESS && kv &&
                    kv->type == PMIX_BYTE_OBJECT && kv->data.bo.size == RD_TCP_KEY_LEN)
                    memcpy(key, kv->data.bo.bytes, RD_TCP_KEY_LEN);
                if (kv)
                    PMIX_VALUE_RELEASE(kv);
            }
            rd_tcp_hello_t h = { RD_TCP_HELLO_MAGIC, 0, 1, 0, { 0 } };
            memcpy(h.key, key, sizeof(h.key));
            h.key[0] ^= 0x5a;   /* the right key, one byte off: still wrong */
            n = put_frame(buf, RD_TCP_F_HELLO, RD_TCP_WIRE_VERSION, sizeof(h), 0);
            memcpy(buf + n, &h, sizeof(h));
            n += sizeof(h);
            n += put_forged_msg(buf + n);
            MT_CHECK(intrude(&a, buf, n), "HELLO with a wrong key is rejected");

            n = put_frame(buf, RD_TCP_F_HELLO, RD_TCP_WIRE_VERSION + 7, sizeof(h), 0);
            memcpy(buf + n, &h, sizeof(h));
            MT_CHECK(intrude(&a, buf, n + sizeof(h)), "a bad wire version is rejected");

            n = put_forged_msg(buf);
            MT_CHECK(intrude(&a, buf, n), "a MSG without HELLO is rejected");

            /* Closed after RD_TCP_HELLO_TIMEOUT_MS (3 s), well inside the 20 s. */
            MT_CHECK(intrude(&a, buf, 0), "a connection that never sends is closed");
            PMIX_VALUE_RELEASE(v);
        }
        PMIx_Finalize(NULL, 0);
        MT_OK(MPI_Send(&token, 1, MPI_INT, 1, TAG_DONE, MPI_COMM_WORLD));
    } else if (MTest_rank == 1) {
        /* Progress runs here while rank 0 intrudes. */
        MT_OK(MPI_Recv(&token, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        int flag = 1;
        MT_OK(MPI_Iprobe(MPI_ANY_SOURCE, TAG_FORGED, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        MT_CHECK(!flag, "no forged message was delivered");
    }
    return MTest_Finalize();
}
