"""Run one command with a time limit, its output in a log file.

The command gets a session (process group) of its own, so a timeout or an
interrupted harness ends it and everything it started (mpirun and its ranks)
by that group's id, and nothing else.
"""

import os
import signal
import subprocess
import time

KILL_GRACE = 3.0  # seconds between SIGTERM and SIGKILL


class Result:
    def __init__(self, rc, timed_out, output):
        self.rc, self.timed_out, self.output = rc, timed_out, output


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _end_group(proc):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + KILL_GRACE
        while time.monotonic() < deadline:
            if proc.poll() is not None and not _group_alive(proc.pid):
                return
            time.sleep(0.05)


def run_logged(argv, cwd, log_path, env, timeout):
    """Run argv in cwd; stdout and stderr (merged) go to log_path and are
    returned in Result.output."""
    with open(log_path, "w") as log:
        log.write("$ cd %s && %s\n" % (cwd, " ".join(argv)))
        log.flush()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            # On a timeout, an interrupt, or ranks left behind by mpirun.
            if proc.poll() is None or _group_alive(proc.pid):
                _end_group(proc)
            proc.wait()
    with open(log_path, encoding="utf-8", errors="replace") as f:
        output = f.read()
    return Result(proc.returncode, timed_out, output)
