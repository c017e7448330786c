/*
 * mpirun / mpiexec: starts an MPI job (one program, or several sharing
 * MPI_COMM_WORLD) on this host or on several. It hosts a PMIx server for
 * the ranks of its own host, forks and execs them (bound to cores when
 * there are enough), starts a host daemon (mpirun --rd-daemon) on every
 * other host through the launch agent, forwards stdio, and stops the
 * whole job as soon as one rank or host fails.
 * This file strings the modules together and owns the cleanup that must
 * happen on every way out: no process and no file is left behind.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binding.h"
#include "boot/boot.h"
#include "daemon.h"
#include "envcheck.h"
#include "fdlimit.h"
#include "guard.h"
#include "hosts.h"
#include "iof.h"
#include "job.h"
#include "launch.h"
#include "options.h"
#include "procs.h"
#include "server.h"
#include "session.h"

/* Where ranks go: the hosts given, or all on this host. */
static int make_plan(const rd_mpirun_opts_t *o, rd_mpirun_plan_t *plan)
{
    char me[RD_MPIRUN_HOST_MAX + 1], *names[1] = { me };
    int slots[1] = { o->np };

    if (o->nhosts > 0)
        return rd_mpirun_plan_make(plan, o->np, o->hosts, o->slots, o->nhosts, o->ppn, o->map_by_node);
    if (gethostname(me, sizeof(me)) != 0)
        strcpy(me, "localhost");
    me[sizeof(me) - 1] = '\0';
    if (rd_mpirun_plan_make(plan, o->np, names, slots, 1, 0, 0) != 0)
        return -1;
    plan->self = 0;
    plan->hosts[0].local = 1;
    return 0;
}

/* Which program each rank runs: the programs' ranks in turn. */
static int set_apps(const rd_mpirun_opts_t *o, rd_mpirun_plan_t *plan)
{
    int *app_np = malloc((size_t)o->napps * sizeof(*app_np)), rc;

    if (!app_np)
        return -1;
    for (int k = 0; k < o->napps; k++)
        app_np[k] = o->apps[k].np;
    rc = rd_mpirun_plan_set_apps(plan, app_np, o->napps);
    free(app_np);
    return rc;
}

/* --map-by ppr:N:obj: N ranks on each obj of every host, so N times the
 * objects of this host (the hosts are taken to be alike) per host; a job
 * of one program without -n gets that many ranks on each host. Returns 0
 * or an exit status after a message. */
static int apply_ppr(rd_mpirun_opts_t *o)
{
    int nobj = 1;

    if (o->ppr == 0)
        return 0;
    if (o->map_obj != RD_MPIRUN_OBJ_NODE && (nobj = rd_mpirun_binding_count(o->map_obj)) <= 0) {
        if (nobj == 0)
            fprintf(stderr, "mpirun: --map-by ppr: this host has no such resource\n");
        return RD_MPIRUN_EXIT_USAGE;
    }
    if (o->ppn == 0)
        o->ppn = o->ppr * nobj;
    if (o->napps == 1 && !o->apps[0].np_given) {
        long np = (long)o->ppn * (o->nhosts > 0 ? o->nhosts : 1);
        if (np > 65535) {
            fprintf(stderr, "mpirun: --map-by ppr gives more than 65535 ranks; give -n\n");
            return RD_MPIRUN_EXIT_USAGE;
        }
        o->np = o->apps[0].np = (int)np;
    }
    return 0;
}

/* --display-map: where each rank runs, one line each on stderr. */
static void display_map(const rd_mpirun_opts_t *o, const rd_mpirun_plan_t *plan)
{
    static const char *const objs[] = { "core", "socket", "numa", "hwthread", "node" };

    fprintf(stderr, "mpirun: map: %d rank(s) on %d host(s), a host's ranks spread over its %ss%s\n",
            plan->np, plan->nhosts, objs[o->map_obj], o->ppr ? " (ppr)" : "");
    for (int r = 0; r < plan->np; r++) {
        const rd_mpirun_host_t *h = &plan->hosts[plan->host_of[r]];
        fprintf(stderr, "mpirun: map: rank %d on host %s (local rank %d of %d): %s\n", r, h->name,
                plan->local_rank[r], h->nranks, o->apps[plan->app_of[r]].argv[0]);
    }
}

int main(int argc, char **argv)
{
    rd_mpirun_opts_t opts;
    rd_mpirun_session_t session = { { 0 } };
    rd_mpirun_plan_t plan = { .self = -1 };
    rd_mpirun_head_cfg_t head = { .lfd = -1 };
    char secret[RD_MPIRUN_SECRET_LEN + 1], self_exe[PATH_MAX];
    char job_key[RD_MPIRUN_SECRET_LEN + 1];
    char *addrs = NULL;
    int status = 1, rc;

    if (argc > 1 && !strcmp(argv[1], RD_MPIRUN_DAEMON_ARG))
        return rd_mpirun_daemon_main(argc, argv);

    rc = rd_mpirun_opts_parse(argc, argv, &opts);
    if (rc != 0) {
        rd_mpirun_opts_free(&opts);
        return rc == 1 ? 0 : rc < 0 ? 1 : rc;
    }
    long long heartbeat_ms;
    if ((rc = rd_mpirun_heartbeat_timeout_ms(&heartbeat_ms)) != 0 ||
        (rc = rd_mpirun_env_check(&opts)) != 0) {
        rd_mpirun_opts_free(&opts);
        return rc;
    }
    /* The job key (boot.h) goes with the job's -x variables: into every
     * rank's environment, and to the host daemons in the JOB message over
     * their authenticated connection; never into PMIx's key-value store.
     * Set last, it overrides one inherited from mpirun's environment. */
    _Static_assert(RD_MPIRUN_SECRET_LEN == 2 * RD_BOOT_JOB_KEY_LEN, "the job key in hex");
    if (rd_mpirun_make_secret(job_key) != 0 ||
        rd_mpirun_env_add(&opts.env, &opts.nenv, RD_BOOT_JOB_KEY_ENV,
                          strlen(RD_BOOT_JOB_KEY_ENV), job_key) != 0) {
        rd_mpirun_opts_free(&opts);
        return 1;
    }
    /* --output-filename DIR is relative to where mpirun was started. */
    char outdir[PATH_MAX];
    if (opts.output_dir && opts.output_dir[0] != '/') {
        char cwd[PATH_MAX - 256];
        if (!getcwd(cwd, sizeof(cwd)) ||
            snprintf(outdir, sizeof(outdir), "%s/%s", cwd, opts.output_dir) >= (int)sizeof(outdir)) {
            fprintf(stderr, "mpirun: --output-filename %s: path too long\n", opts.output_dir);
            rd_mpirun_opts_free(&opts);
            return RD_MPIRUN_EXIT_USAGE;
        }
        opts.output_dir = outdir;
    }
    /* The ranks start there, on every host (the daemons get our working
     * directory), and a relative program name is found from there. */
    if (opts.wdir && chdir(opts.wdir) != 0) {
        fprintf(stderr, "mpirun: -wdir %s: %s\n", opts.wdir, strerror(errno));
        rd_mpirun_opts_free(&opts);
        return RD_MPIRUN_EXIT_USAGE;
    }
    for (int k = 0; k < opts.napps; k++) {
        opts.apps[k].path = rd_mpirun_find_program(opts.apps[k].argv[0]);
        if (!opts.apps[k].path) {
            rd_mpirun_opts_free(&opts);
            return 127;
        }
    }
    if ((rc = apply_ppr(&opts)) != 0) {
        status = rc;
        goto out;
    }
    if (make_plan(&opts, &plan) != 0 || set_apps(&opts, &plan) != 0) {
        fprintf(stderr, "mpirun: out of memory\n");
        goto out;
    }
    if (opts.display_map)
        display_map(&opts, &plan);

    /* While we are one thread: should mpirun be killed, the guard kills
     * the ranks' process groups and removes the job's files. */
    if (rd_mpirun_guard_start() != 0)
        goto out;
    /* Before PMIx starts its thread, which must inherit the mask. */
    if (rd_mpirun_job_block_signals() != 0) {
        perror("mpirun: sigprocmask");
        goto out;
    }
    /* PMIx's shared-memory data store (gds ds12/ds21) keeps segments that
     * outlive a crash; the hash store keeps everything in the processes.
     * The ranks inherit the choice through the environment. A user who
     * sets PMIX_MCA_gds explicitly keeps their choice. */
    setenv("PMIX_MCA_gds", "hash", 0);

    if (rd_mpirun_session_open(&session, NULL) != 0)
        goto out;
    rd_mpirun_guard_session(session.nspace, session.tmpdir);
    if (plan.self < 0 || plan.nhosts > 1) {
        ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
        if (n <= 0) {
            perror("mpirun: /proc/self/exe");
            goto out;
        }
        self_exe[n] = '\0';
        /* Listen only where the daemons will connect to, when that is
         * known: the one address the routes to their hosts leave from. */
        const char **remote = calloc((size_t)plan.nhosts, sizeof(*remote));
        int nremote = 0;
        if (!remote)
            goto out;
        for (int h = 0; h < plan.nhosts; h++)
            if (h != plan.self)
                remote[nremote++] = plan.hosts[h].name;
        char *via = rd_mpirun_daemon_source(remote, nremote);
        free(remote);
        addrs = via ? via : rd_mpirun_addresses();
        if (rd_mpirun_make_secret(secret) != 0 || !addrs ||
            (head.lfd = rd_mpirun_listen(via, &head.port)) < 0)
            goto out;
        head.agent = opts.agent;
        head.self_exe = self_exe;
        head.addrs = addrs;
        head.secret = secret;
        head.nspace = session.nspace;
        head.heartbeat_ms = heartbeat_ms;
    }
    rd_mpirun_fdlimit_raise(plan.self >= 0 ? plan.hosts[plan.self].nranks : 0,
                            plan.nhosts - (plan.self >= 0));
    if (plan.self >= 0) {
        if (rd_mpirun_binding_init(&opts, plan.hosts[plan.self].nranks) != 0)
            goto out;
        if (rd_mpirun_server_init(session.tmpdir, session.nspace, plan.hosts[plan.self].name) != 0)
            goto out;
        if (rd_mpirun_server_register_job(&plan) != 0)
            goto out;
    }
    status = rd_mpirun_job_run(&opts, &plan, head.lfd >= 0 ? &head : NULL);

out:
    rd_mpirun_iof_fini();
    rd_mpirun_server_finalize();
    rd_mpirun_session_clean(&session);
    rd_mpirun_binding_fini();
    rd_mpirun_guard_release();
    if (head.lfd >= 0)
        close(head.lfd);
    rd_mpirun_plan_free(&plan);
    rd_mpirun_opts_free(&opts);
    free(addrs);
    fflush(stdout);
    return status;
}
