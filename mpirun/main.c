/*
 * mpirun / mpiexec: starts an MPI job on this host. It hosts a PMIx server
 * for its ranks, forks and execs them (bound to cores when there are enough),
 * forwards their stdio, and stops the whole job as soon as one rank fails.
 * This file strings the modules together and owns the cleanup that must
 * happen on every way out: no process and no file is left behind.
 */
#include <stdio.h>
#include <stdlib.h>

#include "binding.h"
#include "iof.h"
#include "job.h"
#include "options.h"
#include "procs.h"
#include "server.h"
#include "session.h"

int main(int argc, char **argv)
{
    rd_mpirun_opts_t opts;
    rd_mpirun_session_t session = { { 0 } };
    char *path = NULL;
    int status = 1;
    int rc = rd_mpirun_opts_parse(argc, argv, &opts);

    if (rc != 0) {
        rd_mpirun_opts_free(&opts);
        return rc == 1 ? 0 : rc < 0 ? 1 : rc;
    }
    path = rd_mpirun_find_program(opts.argv[0]);
    if (!path) {
        rd_mpirun_opts_free(&opts);
        return 127;
    }

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

    if (rd_mpirun_session_open(&session) != 0)
        goto out;
    if (rd_mpirun_binding_init(opts.bind, opts.np) != 0)
        goto out;
    if (rd_mpirun_server_init(session.tmpdir, session.nspace) != 0)
        goto out;
    if (rd_mpirun_server_register_job(opts.np) != 0)
        goto out;
    if (rd_mpirun_iof_init(opts.np, opts.tag_output) != 0)
        goto out;

    status = rd_mpirun_job_run(&opts, path);

out:
    rd_mpirun_iof_fini();
    rd_mpirun_server_finalize();
    rd_mpirun_session_clean(&session);
    rd_mpirun_binding_fini();
    rd_mpirun_opts_free(&opts);
    free(path);
    fflush(stdout);
    return status;
}
