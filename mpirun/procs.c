/* Starting, signalling and reaping the ranks (see procs.h). */
#include "procs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "binding.h"
#include "fdlimit.h"

static int is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *rd_mpirun_find_program(const char *program)
{
    const char *path = getenv("PATH");
    char *copy, *dir, *save = NULL, *found = NULL;

    if (strchr(program, '/')) {
        if (!is_executable(program)) {
            fprintf(stderr, "mpirun: cannot run '%s': %s\n", program,
                    access(program, F_OK) ? strerror(errno) : "not an executable file");
            return NULL;
        }
        return strdup(program);
    }
    copy = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
    if (!copy)
        return NULL;
    for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char *cand;
        if (asprintf(&cand, "%s/%s", *dir ? dir : ".", program) < 0)
            break;
        if (is_executable(cand)) {
            found = cand;
            break;
        }
        free(cand);
    }
    free(copy);
    if (!found)
        fprintf(stderr, "mpirun: cannot run '%s': command not found in PATH\n", program);
    return found;
}

/* write(2) of a string: the child of a threaded process may only use
 * async-signal-safe calls until exec. */
static void say(const char *s)
{
    ssize_t rc = write(2, s, strlen(s));
    (void)rc;
}

/* In the child: never returns. parent is mpirun's pid. */
static void child(const rd_mpirun_proc_t *p, pid_t parent, const char *path, char **argv,
                  char **env, const int fds[3])
{
    sigset_t none;

    setpgid(0, 0);
    /* A rank outlives a killed mpirun only to spin forever: the kernel
     * kills it when mpirun dies (the death of the thread that forked it,
     * which is mpirun's only forking thread, the main one), and a parent
     * that died before the request was made is seen here. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(127);
    /* mpirun blocks the signals it reads through signalfd and ignores
     * SIGPIPE; the program gets the defaults back. */
    signal(SIGPIPE, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    for (int i = 0; i < 3; i++) {
        if (dup2(fds[i], i) < 0)
            _exit(127);
    }
    /* Nothing of mpirun's (other ranks' pipes, PMIx's sockets) leaks in. */
    close_range(3, ~0U, 0);
    rd_mpirun_fdlimit_restore();

    if (rd_mpirun_binding_apply(p->local_rank) != 0)
        say("mpirun: warning: could not bind the rank to its core\n");
    execve(path, argv, env);
    say("mpirun: cannot execute ");
    say(path);
    say(": ");
    say(strerror(errno));
    say("\n");
    _exit(127);
}

int rd_mpirun_proc_spawn(rd_mpirun_proc_t *p, const char *path, char **argv, char **env,
                         const int fds[3])
{
    pid_t parent = getpid(), pid = fork();

    if (pid < 0) {
        fprintf(stderr, "mpirun: cannot start rank %d: fork: %s\n", p->rank, strerror(errno));
        return -1;
    }
    if (pid == 0)
        child(p, parent, path, argv, env, fds);
    /* Also done by the child: whichever runs first, the group exists
     * before we might signal it. EACCES once the child has exec'd. */
    setpgid(pid, pid);
    p->pid = pid;
    p->alive = 1;
    return 0;
}

void rd_mpirun_procs_signal(rd_mpirun_proc_t *procs, int n, int sig)
{
    for (int i = 0; i < n; i++) {
        if (procs[i].pid > 0)
            killpg(procs[i].pid, sig);
    }
}

void rd_mpirun_procs_reap(rd_mpirun_proc_t *procs, int n,
                          void (*cb)(rd_mpirun_proc_t *p, void *arg),
                          void (*other)(pid_t pid, int wstatus, void *arg), void *arg)
{
    int st;
    pid_t pid;

    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        int i;
        for (i = 0; i < n; i++) {
            if (procs[i].pid == pid && procs[i].alive) {
                procs[i].alive = 0;
                procs[i].wstatus = st;
                cb(&procs[i], arg);
                break;
            }
        }
        if (i == n && other)
            other(pid, st, arg);
    }
}
