/* The host daemon (see daemon.h). */
#include "daemon.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "binding.h"
#include "fdlimit.h"
#include "guard.h"
#include "hosts.h"
#include "iof.h"
#include "job.h"
#include "launch.h"
#include "procs.h"
#include "server.h"
#include "session.h"
#include "wire.h"
#include "util/clock.h"

/* How long the head may take to send the job after our HELLO, in ms. */
#define RD_MPIRUN_JOB_WAIT_MS 30000
/* Pause before connecting again when the head closed our connection, in ms. */
#define RD_MPIRUN_RETRY_MS 200

/* The job as the head described it; strings point into the JOB message,
 * but for the programs' paths and environments (copies). */
typedef struct daemon_job {
    const char *nspace, *cwd;
    long long heartbeat_ms;
    rd_mpirun_opts_t opts;
    rd_mpirun_plan_t plan;
} daemon_job_t;

/* Waits until the deadline for the JOB message; returns its payload (in
 * c's buffer) or NULL. */
static const char *wait_job(rd_mpirun_conn_t *c, rd_mpirun_wire_hdr_t *h, long long until)
{
    const char *payload;
    int rc;

    for (;;) {
        while ((rc = rd_mpirun_conn_next(c, h, &payload)) == 1) {
            if (h->type == RD_MPIRUN_MSG_JOB)
                return payload;
            if (h->type != RD_MPIRUN_MSG_PING)
                return NULL;
        }
        long long left = until - rd_clock_ms();
        struct pollfd p = { .fd = c->fd, .events = POLLIN };
        if (rc < 0 || left <= 0 || poll(&p, 1, (int)left) < 0 || rd_mpirun_conn_read(c, rd_clock_ms()) != 0)
            return NULL;
    }
}

/* -envall/-envnone/-envlist of a program or of the job. */
static int unpack_env_mode(rd_mpirun_unpack_t *u, rd_mpirun_envmode_t *mode, char **list)
{
    uint32_t m = rd_mpirun_unpack_u32(u);
    const char *l = rd_mpirun_unpack_str(u);

    if (u->err || m > RD_MPIRUN_ENV_LIST || !(*list = strdup(l)))
        return -1;
    *mode = (rd_mpirun_envmode_t)m;
    return 0;
}

static int parse_job(daemon_job_t *dj, const char *payload, size_t len, int self)
{
    rd_mpirun_unpack_t u = { payload, len, 0 };
    const char **names = NULL;
    int *host_of = NULL, rc = -1;
    int *app_np = NULL;
    uint32_t nhosts, np, argc, nenv, napps;

    memset(dj, 0, sizeof(*dj));
    dj->plan.self = -1;
    dj->nspace = rd_mpirun_unpack_str(&u);
    dj->cwd = rd_mpirun_unpack_str(&u);
    dj->opts.bind = (rd_mpirun_bind_t)rd_mpirun_unpack_u32(&u);
    dj->heartbeat_ms = rd_mpirun_unpack_u32(&u);
    nhosts = rd_mpirun_unpack_u32(&u);
    if (u.err || nhosts == 0 || nhosts > len || !(names = calloc(nhosts, sizeof(*names))))
        goto out;
    for (uint32_t h = 0; h < nhosts; h++)
        names[h] = rd_mpirun_unpack_str(&u);
    np = rd_mpirun_unpack_u32(&u);
    if (u.err || np == 0 || np > len || !(host_of = calloc(np, sizeof(*host_of))))
        goto out;
    for (uint32_t r = 0; r < np; r++)
        host_of[r] = (int)rd_mpirun_unpack_u32(&u);
    napps = rd_mpirun_unpack_u32(&u);
    if (u.err || napps == 0 || napps > np || !(app_np = calloc(napps, sizeof(*app_np))))
        goto out;
    for (uint32_t k = 0; k < napps; k++) {
        rd_mpirun_app_t *app = rd_mpirun_opts_add_app(&dj->opts);
        const char *path;
        if (!app)
            goto out;
        app_np[k] = (int)rd_mpirun_unpack_u32(&u);
        path = rd_mpirun_unpack_str(&u);
        argc = rd_mpirun_unpack_u32(&u);
        if (u.err || argc == 0 || argc > len || !(app->path = strdup(path)) ||
            !(app->argv = calloc(argc + 1, sizeof(char *))))
            goto out;
        app->own = RD_MPIRUN_APP_OWN_ARRAY;
        for (uint32_t a = 0; a < argc; a++)
            app->argv[a] = (char *)rd_mpirun_unpack_str(&u);
        nenv = rd_mpirun_unpack_u32(&u);
        for (uint32_t e = 0; e < nenv && !u.err; e++) {
            const char *v = rd_mpirun_unpack_str(&u);
            if (u.err || rd_mpirun_env_add(&app->env, &app->nenv, v, strcspn(v, "="),
                                           v[strcspn(v, "=")] ? v + strcspn(v, "=") + 1 : ""))
                goto out;
        }
        if (unpack_env_mode(&u, &app->env_mode, &app->env_list) != 0)
            goto out;
    }
    nenv = rd_mpirun_unpack_u32(&u);
    if (u.err || nenv > len || !(dj->opts.env = calloc(nenv + 1, sizeof(char *))))
        goto out;
    /* opts.env entries are freed by rd_mpirun_opts_free: copy them. */
    for (uint32_t e = 0; e < nenv; e++) {
        const char *v = rd_mpirun_unpack_str(&u);
        if (!v || !(dj->opts.env[e] = strdup(v)))
            goto out;
        dj->opts.nenv++;
    }
    if (unpack_env_mode(&u, &dj->opts.env_mode, &dj->opts.env_list) != 0)
        goto out;
    dj->opts.map_obj = (rd_mpirun_obj_t)rd_mpirun_unpack_u32(&u);
    dj->opts.map_given = (int)rd_mpirun_unpack_u32(&u);
    dj->opts.ppr = (int)rd_mpirun_unpack_u32(&u);
    dj->opts.report_bindings = (int)rd_mpirun_unpack_u32(&u);
    if (dj->opts.map_obj > RD_MPIRUN_OBJ_NODE || dj->opts.bind > RD_MPIRUN_BIND_HWTHREAD ||
        dj->opts.ppr < 0)
        goto out;
    if (u.err || !dj->nspace[0] || strlen(dj->nspace) >= 64 || strchr(dj->nspace, '/') ||
        dj->heartbeat_ms < RD_MPIRUN_HEARTBEAT_TIMEOUT_MIN_S * 1000LL ||
        dj->heartbeat_ms > RD_MPIRUN_HEARTBEAT_TIMEOUT_MAX_S * 1000LL)
        goto out;
    dj->opts.np = (int)np;
    rc = rd_mpirun_plan_from_map(&dj->plan, (int)np, names, (int)nhosts, host_of, self);
    if (rc == 0 && rd_mpirun_plan_set_apps(&dj->plan, app_np, (int)napps) != 0) {
        rd_mpirun_plan_free(&dj->plan);
        rc = -1;
    }
out:
    free(names);
    free(host_of);
    free(app_np);
    return rc;
}

static void send_error(rd_mpirun_conn_t *c, int status, const char *msg)
{
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_u32(&p, (uint32_t)status);
    rd_mpirun_pack_str(&p, msg);
    if (!p.err)
        rd_mpirun_conn_send(c, RD_MPIRUN_MSG_ERROR, 0, p.buf, p.len);
    free(p.buf);
}

/* Each program: the head's path when it exists here, else the name looked
 * up in our PATH (from the head's working directory, when we have it). */
static int find_here(daemon_job_t *dj, rd_mpirun_conn_t *c)
{
    for (int k = 0; k < dj->opts.napps; k++) {
        rd_mpirun_app_t *app = &dj->opts.apps[k];
        if (access(app->path, X_OK) == 0)
            continue;
        free(app->path);
        app->path = rd_mpirun_find_program(app->argv[0]);
        if (!app->path) {
            char msg[512];
            snprintf(msg, sizeof(msg), "host %s: cannot run '%s'",
                     dj->plan.hosts[dj->plan.self].name, app->argv[0]);
            send_error(c, 127, msg);
            return -1;
        }
    }
    return 0;
}

int rd_mpirun_daemon_main(int argc, char **argv)
{
    rd_mpirun_session_t session = { { 0 } };
    rd_mpirun_conn_t conn = { .fd = -1 };
    rd_mpirun_wire_hdr_t h;
    daemon_job_t dj;
    rd_mpirun_pack_t hello = { 0 };
    const char *payload;
    char *end, *jobmsg = NULL, secret[RD_MPIRUN_SECRET_LEN + 1];
    long port, self;
    int fd, status = 1, have_job = 0;

    memset(&dj, 0, sizeof(dj));
    dj.plan.self = -1;
    if (argc != 5 || (port = strtol(argv[2], &end, 10)) <= 0 || *end || port > 65535 ||
        (self = strtol(argv[4], &end, 10)) < 0 || *end) {
        fprintf(stderr, "mpirun: %s is for mpirun's own use: %s PORT ADDRESSES HOST\n",
                RD_MPIRUN_DAEMON_ARG, RD_MPIRUN_DAEMON_ARG);
        return 2;
    }
    if (rd_mpirun_read_secret(secret) != 0)
        return 1;
    /* First, while we are one thread and hold nothing. */
    if (rd_mpirun_guard_start() != 0)
        return 1;
    if (rd_mpirun_job_block_signals() != 0) {
        perror("mpirun: sigprocmask");
        goto out;
    }
    setenv("PMIX_MCA_gds", "hash", 0);

    rd_mpirun_pack_str(&hello, secret);
    rd_mpirun_pack_u32(&hello, (uint32_t)getpid());
    if (hello.err)
        goto out;
    /* mpirun closes a connection it has no room for, the oldest first
     * (another process may be holding connections to its port): a daemon
     * whose connection closes before the job came tries again. */
    for (long long until = rd_clock_ms() + RD_MPIRUN_JOB_WAIT_MS;;) {
        fd = rd_mpirun_connect_head(argv[3], (int)port);
        if (fd < 0)
            goto out;
        rd_mpirun_conn_init(&conn, fd, rd_clock_ms(), RD_MPIRUN_CONNECT_TIMEOUT_MS);
        if (rd_mpirun_conn_send(&conn, RD_MPIRUN_MSG_HELLO, (uint32_t)self, hello.buf, hello.len)) {
            fprintf(stderr, "mpirun: host daemon: cannot reach mpirun: %s\n", strerror(errno));
            goto out;
        }
        payload = wait_job(&conn, &h, until);
        if (payload || rd_clock_ms() + RD_MPIRUN_RETRY_MS >= until)
            break;
        rd_mpirun_conn_close(&conn);
        usleep(RD_MPIRUN_RETRY_MS * 1000);
    }
    /* The parsed job points into its own copy: the connection's buffer
     * moves as more messages arrive. */
    if (payload && (jobmsg = malloc(h.len ? h.len : 1)) != NULL)
        memcpy(jobmsg, payload, h.len);
    if (!jobmsg || parse_job(&dj, jobmsg, h.len, (int)self) != 0) {
        fprintf(stderr, "mpirun: host daemon: no valid job from mpirun\n");
        goto out;
    }
    have_job = 1;
    rd_mpirun_conn_set_send_timeout(&conn, dj.heartbeat_ms);
    /* Ranks start where the user started mpirun, when that exists here. */
    if (chdir(dj.cwd) != 0 && chdir("/") != 0) {
        /* Stay where the agent started us. */
    }
    if (find_here(&dj, &conn) != 0) {
        status = 127;
        goto out;
    }
    if (rd_mpirun_session_open(&session, dj.nspace) != 0) {
        send_error(&conn, 1, "a host daemon cannot create its directory");
        goto out;
    }
    rd_mpirun_guard_session(session.nspace, session.tmpdir);
    rd_mpirun_fdlimit_raise(dj.plan.hosts[self].nranks, 0);
    if (rd_mpirun_binding_init(&dj.opts, dj.plan.hosts[self].nranks) != 0 ||
        rd_mpirun_server_init(session.tmpdir, session.nspace, dj.plan.hosts[self].name) != 0 ||
        rd_mpirun_server_register_job(&dj.plan) != 0) {
        send_error(&conn, 1, "a host daemon cannot start its PMIx server");
        goto out;
    }
    status = rd_mpirun_job_run_daemon(&dj.opts, &dj.plan, &conn, dj.heartbeat_ms);

out:
    rd_mpirun_iof_fini();
    rd_mpirun_server_finalize();
    rd_mpirun_session_clean(&session);
    rd_mpirun_binding_fini();
    rd_mpirun_guard_release();
    rd_mpirun_conn_close(&conn);
    /* argv's strings live in jobmsg, which goes last. */
    rd_mpirun_opts_free(&dj.opts);
    if (have_job)
        rd_mpirun_plan_free(&dj.plan);
    free(jobmsg);
    free(hello.buf);
    return status;
}
