/* Forwarding of the ranks' stdin, stdout and stderr (see iof.h). */
#include "iof.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One rank's stdout or stderr on its way to mpirun's. */
typedef struct out_stream {
    int fd;                 /* our read end, -1 at EOF */
    int child_fd;           /* the child's write end until it is forked */
    int dst;                /* 1 or 2 */
    int rank;
    size_t len;             /* bytes in buf, no '\n' among them */
    char *buf;
} out_stream_t;

/* mpirun's stdin on its way to rank 0. LOCAL: src -> buf -> dst. REMOTE:
 * src -> stdin_send, at most credit bytes. PUSHED: push -> buf -> dst. */
typedef struct in_stream {
    int src;                /* 0, or -1 once done reading (or when pushed) */
    int dst;                /* write end of rank 0's pipe, -1 when closed */
    int child_fd;           /* rank 0's read end until it is forked */
    int eof;                /* PUSHED: end of input pushed; close dst when drained */
    int closed;             /* done for good: nothing more is read or taken */
    size_t credit;          /* REMOTE: bytes the daemon takes beyond those sent */
    size_t off, len;        /* pending bytes: buf[off..len) */
    char buf[RD_MPIRUN_IOF_LINE_MAX];
} in_stream_t;

/* What a filled pollfd entry stands for. */
typedef enum { SLOT_OUT, SLOT_IN_SRC, SLOT_IN_DST } slot_kind_t;
typedef struct slot {
    slot_kind_t kind;
    out_stream_t *out;
} slot_t;

static struct {
    int nranks;
    int tag;
    rd_mpirun_iof_cfg_t cfg;
    rd_mpirun_iof_sink_t sink;
    void *sink_arg;
    out_stream_t *out;      /* 2 per rank: [2r] stdout, [2r+1] stderr */
    in_stream_t in;
    slot_t *slots;          /* parallel to the last rd_mpirun_iof_fill */
    int dead_dst[3];        /* our stdout/stderr was closed: drop output */
    int *files;             /* --output-filename: 2 per rank, -1 until opened */
} iof;

/* Writes all of buf to fd, waiting when fd is non-blocking and full. An
 * error (EPIPE: whoever read our output went away) drops the output. */
static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0 && !iof.dead_dst[fd]) {
        ssize_t w = write(fd, buf, len);
        if (w > 0) {
            buf += w;
            len -= (size_t)w;
        } else if (w < 0 && errno == EAGAIN) {
            struct pollfd p = { .fd = fd, .events = POLLOUT };
            poll(&p, 1, -1);
        } else if (w < 0 && errno != EINTR) {
            iof.dead_dst[fd] = 1;
        }
    }
}

/* mkdir, accepting a directory that is there already. */
static int make_dir(const char *path)
{
    return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* --output-filename: the file of rank's stream (1 or 2), created with its
 * directories on first use. Returns its fd, or -1 (said once) on failure. */
static int output_file(int rank, int stream)
{
    int *fd = &iof.files[2 * rank + stream - 1], digits = 0;
    char path[PATH_MAX];
    size_t len;

    if (*fd != -1)
        return *fd;
    for (int n = iof.nranks; n > 0; n /= 10)
        digits++;
    snprintf(path, sizeof(path), "%s", iof.cfg.output_dir);
    len = strlen(path);
    if (make_dir(path) != 0)
        goto err;
    len += (size_t)snprintf(path + len, sizeof(path) - len, "/1");
    if (make_dir(path) != 0)
        goto err;
    len += (size_t)snprintf(path + len, sizeof(path) - len, "/rank.%0*d", digits, rank);
    if (make_dir(path) != 0)
        goto err;
    snprintf(path + len, sizeof(path) - len, stream == 1 ? "/stdout" : "/stderr");
    *fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (*fd >= 0)
        return *fd;
err:
    fprintf(stderr, "mpirun: --output-filename: cannot create %s: %s; rank %d's %s is lost\n",
            path, strerror(errno), rank, stream == 1 ? "stdout" : "stderr");
    *fd = -2;
    return -1;
}

/* Writes all of buf to a regular file (errors lose the output, said once
 * by output_file's caller's failure to open). */
static void write_file(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        buf += w;
        len -= (size_t)w;
    }
}

/* Writes one line (or a piece of one, when it had no '\n'). With tags, a
 * piece is ended with '\n' so the next tag starts a line. */
static void emit(out_stream_t *s, const char *data, size_t len)
{
    char tag[24];
    int n;

    if (len == 0)
        return;
    if (iof.sink) {
        iof.sink(s->rank, s->dst, data, len, iof.sink_arg);
        return;
    }
    if (iof.files) {
        int fd = output_file(s->rank, s->dst);
        if (fd >= 0)
            write_file(fd, data, len);
        return;
    }
    if (!iof.tag) {
        write_all(s->dst, data, len);
        return;
    }
    n = snprintf(tag, sizeof(tag), "[%d] ", s->rank);
    /* One write per line when it fits, so that a line is atomic even for
     * readers sharing our stdout. */
    if (len + (size_t)n + 1 <= RD_MPIRUN_IOF_LINE_MAX + sizeof(tag)) {
        char line[RD_MPIRUN_IOF_LINE_MAX + sizeof(tag) + 1];
        memcpy(line, tag, (size_t)n);
        memcpy(line + n, data, len);
        if (data[len - 1] != '\n')
            line[n + len++] = '\n';
        write_all(s->dst, line, (size_t)n + len);
    } else {
        write_all(s->dst, tag, (size_t)n);
        write_all(s->dst, data, len);
        if (data[len - 1] != '\n')
            write_all(s->dst, "\n", 1);
    }
}

static void out_close(out_stream_t *s)
{
    emit(s, s->buf, s->len);    /* the last line had no '\n' */
    s->len = 0;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

static void out_read(out_stream_t *s)
{
    ssize_t r = read(s->fd, s->buf + s->len, RD_MPIRUN_IOF_LINE_MAX - s->len);
    char *start, *nl;

    if (r < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (r <= 0) {
        out_close(s);
        return;
    }
    s->len += (size_t)r;
    start = s->buf;
    while ((nl = memchr(start, '\n', s->len - (size_t)(start - s->buf))) != NULL) {
        emit(s, start, (size_t)(nl - start) + 1);
        start = nl + 1;
    }
    s->len -= (size_t)(start - s->buf);
    memmove(s->buf, start, s->len);
    if (s->len == RD_MPIRUN_IOF_LINE_MAX) {  /* a line longer than the buffer */
        emit(s, s->buf, s->len);
        s->len = 0;
    }
}

void rd_mpirun_iof_emit(int rank, int stream, const char *data, size_t len)
{
    out_stream_t s = { .fd = -1, .child_fd = -1, .dst = stream == 2 ? 2 : 1, .rank = rank };
    emit(&s, data, len);
}

int rd_mpirun_iof_init(const rd_mpirun_iof_cfg_t *cfg)
{
    int nranks = cfg->nranks;
    rd_mpirun_iof_stdin_t mode = cfg->stdin_mode;

    iof.cfg = *cfg;
    iof.nranks = nranks;
    iof.tag = cfg->tag_output;
    iof.sink = cfg->out_sink;
    iof.sink_arg = cfg->arg;
    memset(&iof.in, 0, offsetof(in_stream_t, buf));
    iof.in.src = mode == RD_MPIRUN_STDIN_LOCAL || mode == RD_MPIRUN_STDIN_REMOTE ? 0 : -1;
    iof.in.dst = -1;
    iof.in.child_fd = -1;
    iof.out = calloc(2 * (size_t)nranks, sizeof(*iof.out));
    iof.slots = calloc(2 * (size_t)nranks + 2, sizeof(*iof.slots));
    if (cfg->output_dir && !cfg->out_sink) {
        iof.files = malloc(2 * (size_t)nranks * sizeof(*iof.files));
        if (!iof.files) {
            fprintf(stderr, "mpirun: out of memory\n");
            return -1;
        }
        for (int i = 0; i < 2 * nranks; i++)
            iof.files[i] = -1;
    }
    if (!iof.out || !iof.slots) {
        fprintf(stderr, "mpirun: out of memory\n");
        return -1;
    }
    for (int i = 0; i < 2 * nranks; i++) {
        iof.out[i].fd = iof.out[i].child_fd = -1;
        iof.out[i].rank = i / 2;
        iof.out[i].dst = 1 + i % 2;
    }
    return 0;
}

int rd_mpirun_iof_setup_rank(int rank, int fds[3])
{
    int p[2];

    for (int k = 0; k < 2; k++) {
        out_stream_t *s = &iof.out[2 * rank + k];
        if (pipe2(p, O_CLOEXEC) != 0)
            goto err;
        s->buf = malloc(RD_MPIRUN_IOF_LINE_MAX);
        if (!s->buf) {
            close(p[0]);
            close(p[1]);
            errno = ENOMEM;
            goto err;
        }
        fcntl(p[0], F_SETFL, O_NONBLOCK);
        s->fd = p[0];
        s->child_fd = p[1];
        fds[1 + k] = p[1];
    }
    if (rank == 0 && (iof.cfg.stdin_mode == RD_MPIRUN_STDIN_LOCAL ||
                      iof.cfg.stdin_mode == RD_MPIRUN_STDIN_PUSHED)) {
        if (pipe2(p, O_CLOEXEC) != 0)
            goto err;
        fcntl(p[1], F_SETFL, O_NONBLOCK);
        iof.in.dst = p[1];
    } else {
        p[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (p[0] < 0)
            goto err;
    }
    /* Ranks are set up and forked one at a time: one slot is enough. */
    iof.in.child_fd = p[0];
    fds[0] = p[0];
    return 0;
err:
    fprintf(stderr, "mpirun: cannot create pipes for rank %d: %s\n", rank, strerror(errno));
    return -1;
}

void rd_mpirun_iof_forked(int rank)
{
    for (int k = 0; k < 2; k++) {
        out_stream_t *s = &iof.out[2 * rank + k];
        if (s->child_fd >= 0)
            close(s->child_fd);
        s->child_fd = -1;
    }
    if (iof.in.child_fd >= 0)
        close(iof.in.child_fd);
    iof.in.child_fd = -1;
    /* Rank 0 reads its pipe from now on: the head may send a bufferful. */
    if (rank == 0 && iof.cfg.stdin_mode == RD_MPIRUN_STDIN_PUSHED && iof.in.dst >= 0)
        iof.cfg.stdin_credit(sizeof(iof.in.buf), 0, iof.cfg.arg);
}

int rd_mpirun_iof_fill(struct pollfd *p, int max)
{
    int n = 0;
    in_stream_t *in = &iof.in;

    for (int i = 0; i < 2 * iof.nranks && n < max; i++) {
        if (iof.out[i].fd < 0)
            continue;
        p[n] = (struct pollfd){ .fd = iof.out[i].fd, .events = POLLIN };
        iof.slots[n++] = (slot_t){ SLOT_OUT, &iof.out[i] };
    }
    /* stdin: read only when the previous chunk was passed on, so rank 0's
     * pace sets ours and the buffer never grows. */
    if (iof.cfg.stdin_mode == RD_MPIRUN_STDIN_REMOTE) {
        if (in->src >= 0 && in->credit > 0 && n < max) {
            p[n] = (struct pollfd){ .fd = in->src, .events = POLLIN };
            iof.slots[n++] = (slot_t){ SLOT_IN_SRC, NULL };
        }
    } else if (in->dst >= 0 && n < max) {
        if (in->off < in->len) {
            p[n] = (struct pollfd){ .fd = in->dst, .events = POLLOUT };
            iof.slots[n++] = (slot_t){ SLOT_IN_DST, NULL };
        } else if (in->src >= 0) {
            p[n] = (struct pollfd){ .fd = in->src, .events = POLLIN };
            iof.slots[n++] = (slot_t){ SLOT_IN_SRC, NULL };
        }
    }
    return n;
}

/* Stops forwarding stdin for good. PUSHED: the head learns that rank 0
 * takes no more. */
static void in_close(void)
{
    int was_open = !iof.in.closed;

    if (iof.in.dst >= 0)
        close(iof.in.dst);
    iof.in.dst = -1;
    iof.in.src = -1;
    iof.in.off = iof.in.len = 0;
    iof.in.closed = 1;
    if (was_open && iof.cfg.stdin_mode == RD_MPIRUN_STDIN_PUSHED && iof.cfg.stdin_credit)
        iof.cfg.stdin_credit(0, 1, iof.cfg.arg);
}

/* Our stdin ended (or failed): rank 0 must see end of file too. */
static void in_end(void)
{
    if (iof.cfg.stdin_mode == RD_MPIRUN_STDIN_REMOTE && !iof.in.closed)
        iof.cfg.stdin_send(NULL, 0, iof.cfg.arg);
    in_close();
}

static void in_read(void)
{
    size_t room = sizeof(iof.in.buf);
    ssize_t r;

    if (iof.cfg.stdin_mode == RD_MPIRUN_STDIN_REMOTE && iof.in.credit < room)
        room = iof.in.credit;
    r = read(iof.in.src, iof.in.buf, room);
    if (r < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (r <= 0) {
        /* End of our stdin: rank 0 sees end of file on its own. */
        in_end();
        return;
    }
    if (iof.cfg.stdin_mode == RD_MPIRUN_STDIN_REMOTE) {
        iof.in.credit -= (size_t)r;
        iof.cfg.stdin_send(iof.in.buf, (size_t)r, iof.cfg.arg);
        return;
    }
    iof.in.off = 0;
    iof.in.len = (size_t)r;
}

static void in_write(void)
{
    ssize_t w = write(iof.in.dst, iof.in.buf + iof.in.off, iof.in.len - iof.in.off);

    if (w < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (w < 0) {            /* EPIPE: rank 0 closed its stdin */
        in_close();
        return;
    }
    iof.in.off += (size_t)w;
    if (iof.in.off == iof.in.len)
        iof.in.off = iof.in.len = 0;
    if (iof.cfg.stdin_mode == RD_MPIRUN_STDIN_PUSHED) {
        iof.cfg.stdin_credit((size_t)w, 0, iof.cfg.arg);
        if (iof.in.eof && iof.in.len == 0)
            in_close();
    }
}

void rd_mpirun_iof_stdin_credit(size_t n, int closed)
{
    if (closed)
        in_close();
    else if (!iof.in.closed)
        iof.in.credit += n;
}

int rd_mpirun_iof_stdin_push(const char *data, size_t len)
{
    in_stream_t *in = &iof.in;

    if (in->closed || in->eof)
        return 0;           /* rank 0 stopped reading: dropped */
    if (len == 0) {
        in->eof = 1;
        if (in->len == 0)
            in_close();
        return 0;
    }
    if (in->len - in->off + len > sizeof(in->buf))
        return -1;
    if (in->len + len > sizeof(in->buf)) {
        memmove(in->buf, in->buf + in->off, in->len - in->off);
        in->len -= in->off;
        in->off = 0;
    }
    memcpy(in->buf + in->len, data, len);
    in->len += len;
    return 0;
}

void rd_mpirun_iof_handle(const struct pollfd *p, int n)
{
    for (int i = 0; i < n; i++) {
        if (!p[i].revents)
            continue;
        switch (iof.slots[i].kind) {
        case SLOT_OUT:
            if (p[i].revents & POLLNVAL)
                iof.slots[i].out->fd = -1;
            else
                out_read(iof.slots[i].out);
            break;
        case SLOT_IN_SRC:
            if (p[i].revents & POLLNVAL)
                in_end();               /* mpirun was started with fd 0 closed */
            else if (iof.in.src >= 0)
                in_read();
            break;
        case SLOT_IN_DST:
            if (p[i].revents & (POLLERR | POLLNVAL))
                in_close();
            else if (iof.in.dst >= 0)
                in_write();
            break;
        }
    }
}

int rd_mpirun_iof_open_outputs(void)
{
    int n = 0;
    for (int i = 0; i < 2 * iof.nranks; i++)
        n += iof.out[i].fd >= 0;
    return n;
}

void rd_mpirun_iof_stop_stdin(void)
{
    in_close();
}

void rd_mpirun_iof_fini(void)
{
    for (int i = 0; iof.out && i < 2 * iof.nranks; i++) {
        out_stream_t *s = &iof.out[i];
        if (s->fd >= 0 || s->len)
            out_close(s);
        if (s->child_fd >= 0)
            close(s->child_fd);
        free(s->buf);
    }
    if (iof.in.child_fd >= 0)
        close(iof.in.child_fd);
    /* The job is over: nobody to tell. */
    iof.cfg.stdin_credit = NULL;
    in_close();
    for (int i = 0; iof.files && i < 2 * iof.nranks; i++)
        if (iof.files[i] >= 0)
            close(iof.files[i]);
    free(iof.files);
    iof.files = NULL;
    free(iof.out);
    free(iof.slots);
    iof.out = NULL;
    iof.slots = NULL;
    iof.nranks = 0;
}
