/* mpirun's guard (see guard.h). mpirun writes one line per note to a
 * pipe; end of file without "done" means mpirun died. */
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"

static int guard_fd = -1;
static pid_t guard_pid = -1;

static void note(const char *line)
{
    size_t n = strlen(line);
    if (guard_fd >= 0 && write(guard_fd, line, n) != (ssize_t)n) {
        /* The guard is gone; nothing else can clean up after a crash. */
        close(guard_fd);
        guard_fd = -1;
    }
}

void rd_mpirun_guard_pgroup(pid_t pgid)
{
    char line[32];
    snprintf(line, sizeof(line), "pg %ld\n", (long)pgid);
    note(line);
}

void rd_mpirun_guard_session(const char *nspace, const char *tmpdir)
{
    char line[512];
    snprintf(line, sizeof(line), "ns %s\ndir %s\n", nspace, tmpdir);
    note(line);
}

void rd_mpirun_guard_release(void)
{
    note("done\n");
    if (guard_fd >= 0)
        close(guard_fd);
    guard_fd = -1;
    if (guard_pid > 0)
        waitpid(guard_pid, NULL, 0);
    guard_pid = -1;
}

/* The guard's life: collect notes until end of file, then clean up
 * unless released. */
static void guard_main(int fd)
{
    rd_mpirun_session_t s;
    pid_t *pg = NULL;
    size_t npg = 0;
    int done = 0;
    FILE *f = fdopen(fd, "r");
    char line[512];

    memset(&s, 0, sizeof(s));
    if (!f)
        _exit(1);
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "pg ", 3)) {
            pid_t *n = realloc(pg, (npg + 1) * sizeof(*pg));
            if (n) {
                pg = n;
                pg[npg++] = (pid_t)atol(line + 3);
            }
        } else if (!strncmp(line, "ns ", 3)) {
            size_t n = strlen(line + 3);
            if (n < sizeof(s.nspace))
                memcpy(s.nspace, line + 3, n + 1);
        } else if (!strncmp(line, "dir ", 4)) {
            size_t n = strlen(line + 4);
            if (n < sizeof(s.tmpdir))
                memcpy(s.tmpdir, line + 4, n + 1);
        } else if (!strcmp(line, "done")) {
            done = 1;
        }
    }
    if (!done) {
        for (size_t i = 0; i < npg; i++)
            killpg(pg[i], SIGKILL);
        rd_mpirun_session_clean(&s);
    }
    _exit(0);
}

int rd_mpirun_guard_start(void)
{
    int p[2];
    pid_t pid;

    if (pipe(p) != 0) {
        perror("mpirun: pipe");
        return -1;
    }
    pid = fork();
    if (pid < 0) {
        perror("mpirun: fork");
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        int null;
        /* A group of its own: the head kills a daemon that stopped
         * answering through its launch agent's process group, and a user
         * may kill mpirun's; the guard must outlive both. Signals meant
         * for mpirun's session must not stop it either. */
        setpgid(0, 0);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        signal(SIGQUIT, SIG_IGN);
        signal(SIGUSR1, SIG_IGN);
        signal(SIGUSR2, SIG_IGN);
        signal(SIGALRM, SIG_IGN);
        signal(SIGPIPE, SIG_IGN);
        close(p[1]);
        if (p[0] != 3) {
            dup2(p[0], 3);
            close(p[0]);
        }
        /* Nor may the guard hold mpirun's terminal or pipes (a shell
         * reading mpirun's output would wait for it). */
        null = open("/dev/null", O_RDWR);
        for (int fd = 0; fd < 3 && null >= 0; fd++)
            if (fd != null)
                dup2(null, fd);
        close_range(4, ~0U, 0);
        guard_main(3);
    }
    close(p[0]);
    guard_fd = p[1];
    guard_pid = pid;
    /* The ranks must not inherit the pipe: the guard would then wait for
     * them, not for mpirun. */
    fcntl(guard_fd, F_SETFD, FD_CLOEXEC);
    return 0;
}
