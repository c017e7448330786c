/*
 * A rank's own reports from a signal handler (see crash.h). A crash
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) prints one report naming the
 * rank, the host, the signal and a backtrace of the faulting thread, with a
 * hint about core files, and the rank then dies of that signal, so that
 * mpirun reports it (and the shell's status) as before. mpirun's question
 * of a job that timed out (RD_BOOT_WHERE_SIGNAL) prints which MPI call the
 * main thread is blocked in, what p2p waits for there, and its backtrace;
 * the rank then goes on until mpirun ends the job.
 *
 * Handlers may run at any point of the program, so they format with
 * nothing but their own code into a stack buffer and write(2) it; the
 * texts that do not change (rank, host, the core-file hint) are made at
 * init, and backtrace() is called once there so that the library it loads
 * on first use is loaded before a handler needs it. A handler is installed
 * only over the default action: a program's own handler is left alone.
 */
#include "api/crash.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "boot/boot.h"
#include "p2p/p2p.h"

/* Frames of a backtrace, at most. */
#define RD_CRASH_FRAMES 64
/* The alternate stack the crash handler runs on (a stack overflow leaves
 * none of the thread's own). */
#define RD_CRASH_ALTSTACK (64 * 1024)

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

static char prefix[160];     /* "rdmpi: rank R on host H (pid P)" */
static char core_hint[320];  /* one line, without the prefix */
static pid_t main_tid;       /* the thread that called MPI_Init */
static int installed;

/* ---- formatting without stdio ---- */

typedef struct line {
    char buf[512];
    size_t n;
} line_t;

static void put(line_t *l, const char *s)
{
    while (*s && l->n < sizeof(l->buf) - 1)
        l->buf[l->n++] = *s++;
}

static void put_num(line_t *l, unsigned long long v, unsigned base)
{
    char d[24];
    int i = 0;
    do {
        d[i++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v && i < (int)sizeof(d));
    while (i > 0 && l->n < sizeof(l->buf) - 1)
        l->buf[l->n++] = d[--i];
}

static void put_int(line_t *l, long v)
{
    if (v < 0) {
        put(l, "-");
        v = -v;
    }
    put_num(l, (unsigned long long)v, 10);
}

/* Writes the line and a newline to stderr, whole. */
static void emit(line_t *l)
{
    l->buf[l->n++] = '\n';
    const char *p = l->buf;
    size_t left = l->n;
    while (left > 0) {
        ssize_t w = write(STDERR_FILENO, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    l->n = 0;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV, segmentation fault";
    case SIGBUS: return "SIGBUS, bus error";
    case SIGFPE: return "SIGFPE, arithmetic exception";
    case SIGILL: return "SIGILL, illegal instruction";
    case SIGABRT: return "SIGABRT, aborted";
    }
    return "a signal";
}

/* The backtrace of the calling thread, the handler's own frames left out. */
static void print_backtrace(int skip)
{
    void *frames[RD_CRASH_FRAMES];
    int n = backtrace(frames, RD_CRASH_FRAMES);
    if (n > skip)
        backtrace_symbols_fd(frames + skip, n - skip, STDERR_FILENO);
}

/* ---- crashes ---- */

static void on_crash(int sig, siginfo_t *si, void *uc)
{
    static volatile sig_atomic_t busy;
    int saved = errno;
    (void)uc;
    /* One report per process: a second thread crashing meanwhile finds the
     * default action (SA_RESETHAND) or waits here for the first to end it. */
    if (!busy) {
        busy = 1;
        line_t l = { .n = 0 };
        put(&l, prefix);
        put(&l, ": killed by signal ");
        put_int(&l, sig);
        put(&l, " (");
        put(&l, signal_name(sig));
        put(&l, ")");
        if (si && si->si_code > 0 && sig != SIGABRT) {
            put(&l, " at address 0x");
            put_num(&l, (unsigned long long)(uintptr_t)si->si_addr, 16);
        } else if (si && si->si_code <= 0 && si->si_pid > 0 && si->si_pid != getpid()) {
            put(&l, ", sent by pid ");
            put_int(&l, (long)si->si_pid);
        }
        emit(&l);
        put(&l, prefix);
        put(&l, ": backtrace of the thread that received it:");
        emit(&l);
        print_backtrace(1);
        put(&l, prefix);
        put(&l, ": ");
        put(&l, core_hint);
        emit(&l);
    }
    errno = saved;
    /* Die of the signal itself: it is blocked until this handler returns
     * and the default action is back, so the rank ends as without us. */
    raise(sig);
}

/* The line about core files, from what the system says at init. */
static void make_core_hint(void)
{
    struct rlimit rl;
    char pattern[200] = "";
    int fd = open("/proc/sys/kernel/core_pattern", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, pattern, sizeof(pattern) - 1);
        close(fd);
        pattern[n > 0 ? n : 0] = 0;
        pattern[strcspn(pattern, "\n")] = 0;
    }
    if (getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_cur == 0)
        snprintf(core_hint, sizeof(core_hint), "no core file: the core size limit is 0 (run "
                 "'ulimit -c unlimited' before mpirun to keep one)");
    else if (pattern[0] == '|')
        snprintf(core_hint, sizeof(core_hint), "a core file goes to the program in "
                 "/proc/sys/kernel/core_pattern: %s (with systemd: coredumpctl list)", pattern + 1);
    else if (pattern[0])
        snprintf(core_hint, sizeof(core_hint), "a core file may be written as '%s' (see "
                 "/proc/sys/kernel/core_pattern) in the rank's working directory", pattern);
    else
        snprintf(core_hint, sizeof(core_hint), "a core file may be written (see core(5))");
}

/* ---- where a blocked rank is ---- */

/* The outermost frame in an MPI entry point names the call the program
 * made (inner ones are the library's own: MPI_Finalize's barrier). dladdr
 * is not async-signal-safe in general; it only reads the loader's tables,
 * and the rank asked is blocked in MPI, not loading a library. */
static const char *mpi_call(void *const *frames, int n)
{
    const char *found = NULL;
    for (int i = 0; i < n; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_sname &&
            (strncmp(info.dli_sname, "MPI_", 4) == 0 || strncmp(info.dli_sname, "PMPI_", 5) == 0))
            found = info.dli_sname[0] == 'P' ? info.dli_sname + 1 : info.dli_sname;
    }
    return found;
}

static void on_where(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    (void)si, (void)uc;
    /* The report is about the main thread (the one in MPI); another thread
     * the signal reached passes it on. */
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (tid != main_tid) {
        syscall(SYS_tgkill, getpid(), main_tid, sig);
        errno = saved;
        return;
    }
    void *frames[RD_CRASH_FRAMES];
    int n = backtrace(frames, RD_CRASH_FRAMES);
    const char *call = mpi_call(frames, n);
    line_t l = { .n = 0 };
    put(&l, prefix);
    if (call) {
        put(&l, ": blocked in ");
        put(&l, call);
    } else {
        put(&l, ": not in an MPI call");
    }
    rd_p2p_wait_info_t w;
    if (call && rd_p2p_waiting(&w)) {
        if (w.recv) {
            put(&l, ", waiting for a message from ");
            if (w.peer < 0) {
                put(&l, "any rank");
            } else {
                put(&l, "rank ");
                put_int(&l, w.peer);
            }
        } else {
            put(&l, ", waiting for its send to rank ");
            put_int(&l, w.peer);
            put(&l, " to complete");
        }
        if (w.tag >= 0) {
            put(&l, ", tag ");
            put_int(&l, w.tag);
        }
        if (w.comm && w.comm[0]) {
            put(&l, ", on ");
            put(&l, w.comm);
        }
    }
    emit(&l);
    put(&l, prefix);
    put(&l, ": backtrace of the main thread:");
    emit(&l);
    backtrace_symbols_fd(frames + 1, n - 1, STDERR_FILENO);
    errno = saved;
}

/* ---- installation ---- */

/* Installs fn for sig unless the program has its own handler or ignores it. */
static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
    struct sigaction old, sa;
    if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
        old.sa_handler != SIG_DFL)
        return;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

void rd_api_crash_init(int rank, const char *host, int reports)
{
    if (installed || !reports)
        return;
    installed = 1;
    snprintf(prefix, sizeof(prefix), "rdmpi: rank %d on host %s (pid %ld)", rank, host,
             (long)getpid());
    make_core_hint();
    main_tid = (pid_t)syscall(SYS_gettid);
    void *warm[2];
    (void)backtrace(warm, 2);

    /* The crash handler's own stack, unless the program set one. */
    stack_t old;
    if (sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE)) {
        stack_t ss = { .ss_sp = malloc(RD_CRASH_ALTSTACK), .ss_size = RD_CRASH_ALTSTACK };
        if (ss.ss_sp && sigaltstack(&ss, NULL) != 0)
            free(ss.ss_sp);
    }
    for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
        install(crash_signals[i], on_crash, SA_RESETHAND | SA_ONSTACK);
    install(RD_BOOT_WHERE_SIGNAL, on_where, SA_RESTART);
}
