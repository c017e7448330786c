#!/usr/bin/env python3
"""A small simple-PMI process manager for the launcher tests: starts N
copies of a command and serves MPICH's PMI-1 wire protocol, and PMI-2 when
asked, the way Hydra and Slurm's pmi2 plugin do, but with choices they do
not offer:

  --port        PMI_PORT + PMI_ID instead of PMI_FD (PMI-1 clients begin
                with the initack handshake, PMI-2 clients send fullinit)
  --vallen N    PMI-1's vallen_max
  --pmi2 MODE   how to answer "cmd=init pmi_version=2":
                  no      with pmi_version=1 rc=0 (a PMI-1 server; default)
                  refuse  with rc=-1, then wait for a PMI-1 init
                  yes     agree, and speak PMI-2 on that connection
  --fence-nowait  PMI-2's kvs-fence answers at once; a get of a key no one
                put yet waits until every rank has fenced (Hydra's way)
  --slurm       PMI-2 as Slurm's plugin: PMI_JOBID set, fullinit must name
                it, appnum=-1
  --mapping     publish PMI_process_mapping (one node); without it ranks find
                their nodes by host name
  --log FILE    append each command received, one per line: the protocol
                version of the connection, the command, and the version an
                init asks for

usage: pmi_server.py [options] -n N command [args...]
Exits with the highest exit status of the ranks (or a PMI-1 abort's code;
a PMI-2 abort kills the job and exits 134).
"""
import argparse
import os
import selectors
import signal
import socket
import subprocess
import sys


class Conn:
    def __init__(self, rank):
        self.rank = rank        # None until initack / fullinit over PMI_PORT
        self.buf = b""
        self.version = None     # 1 or 2 once init is answered
        self.epoch = 0          # PMI-2 fences done


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", action="store_true")
    ap.add_argument("--vallen", type=int, default=1024)
    ap.add_argument("--pmi2", choices=["no", "refuse", "yes"], default="no")
    ap.add_argument("--fence-nowait", action="store_true")
    ap.add_argument("--slurm", action="store_true")
    ap.add_argument("--mapping", action="store_true")
    ap.add_argument("--log")
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    n = a.n
    jobid = "%d.0" % os.getpid()
    log = open(a.log, "a") if a.log else None
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PMIX_", "PMI_", "OMPI_", "SLURM_"))}
    sel = selectors.DefaultSelector()
    procs, conns = [], {}
    listener = None
    if a.port:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(2 * n)
        sel.register(listener, selectors.EVENT_READ)
    for r in range(n):
        e = dict(env)
        if a.slurm:
            e["PMI_JOBID"] = jobid
        if a.port:
            e.update(PMI_PORT="127.0.0.1:%d" % listener.getsockname()[1], PMI_ID=str(r))
            procs.append(subprocess.Popen(a.cmd, env=e))
        else:
            mine, theirs = socket.socketpair()
            e.update(PMI_FD=str(theirs.fileno()), PMI_RANK=str(r), PMI_SIZE=str(n))
            procs.append(subprocess.Popen(a.cmd, env=e, pass_fds=[theirs.fileno()]))
            theirs.close()
            conns[mine] = Conn(r)
            sel.register(mine, selectors.EVENT_READ)
    kvs = {"PMI_process_mapping": "(vector,(0,1,%d))" % n} if a.mapping else {}
    barrier, waiting = [], []   # PMI-1 barrier_in; PMI-2 gets waiting for a fence
    state = {"abort": None}

    def send1(s, text):
        s.sendall(text.encode())

    def send2(s, text):
        s.sendall(("%-6d" % len(text) + text).encode())

    def kill_all():
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)

    def handle1(s, c, f):
        cmd = f.get("cmd")
        if cmd == "initack":
            c.rank = int(f["pmiid"])
            send1(s, "cmd=initack\ncmd=set size=%d\ncmd=set rank=%s\ncmd=set debug=0\n"
                  % (n, f["pmiid"]))
        elif cmd == "get_maxes":
            send1(s, "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=%d\n" % a.vallen)
        elif cmd == "get_my_kvsname":
            send1(s, "cmd=my_kvsname kvsname=lt_kvs_%d\n" % os.getpid())
        elif cmd == "get_appnum":
            send1(s, "cmd=appnum appnum=0\n")
        elif cmd == "get_universe_size":
            send1(s, "cmd=universe_size size=%d\n" % n)
        elif cmd == "put":
            v = f.get("value", "")
            if len(f["key"]) >= 64 or len(v) >= a.vallen:
                send1(s, "cmd=put_result rc=-1 msg=too_long\n")
            else:
                kvs[f["key"]] = v
                send1(s, "cmd=put_result rc=0 msg=success\n")
        elif cmd == "get":
            if f["key"] in kvs:
                send1(s, "cmd=get_result rc=0 msg=success value=%s\n" % kvs[f["key"]])
            else:
                send1(s, "cmd=get_result rc=-1 msg=key_not_found value=unknown\n")
        elif cmd == "barrier_in":
            barrier.append(s)
            if len(barrier) == n:
                for b in barrier:
                    send1(b, "cmd=barrier_out\n")
                barrier.clear()
        elif cmd == "finalize":
            send1(s, "cmd=finalize_ack\n")
        elif cmd == "abort":
            state["abort"] = int(f.get("exitcode", "1"))
            kill_all()
        else:
            print("pmi_server: unknown PMI-1 command: %s" % f, file=sys.stderr)
            send1(s, "cmd=%s rc=-1\n" % cmd)

    def answer_get(s, f):
        key = f["key"]
        if key in kvs:
            send2(s, "cmd=kvs-get-response;rc=0;found=TRUE;value=%s;" % kvs[key])
        else:
            send2(s, "cmd=kvs-get-response;rc=0;found=FALSE;")

    # PMI-2 fences done by rank, kept after a rank disconnects: a rank that
    # fenced and finished still counts for the others' waiting gets.
    fenced = {}

    def everyone_fenced(epoch):
        return len(fenced) == n and all(e >= epoch for e in fenced.values())

    def handle2(s, c, f):
        cmd = f.get("cmd")
        if cmd == "fullinit":
            if a.slurm and f.get("pmijobid") != jobid:
                send2(s, "cmd=fullinit-response;rc=-1;errmsg=pmijobid_missing;")
                return
            c.rank = int(f["pmirank"])
            send2(s, "cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=%d;"
                  "size=%d;appnum=%d;debugged=FALSE;pmiverbose=FALSE;"
                  % (c.rank, n, -1 if a.slurm else 0))
        elif cmd == "job-getid":
            send2(s, "cmd=job-getid-response;jobid=%s;rc=0;" % jobid)
        elif cmd == "info-getjobattr":
            key = f["key"]
            if key == "universeSize":
                send2(s, "cmd=info-getjobattr-response;rc=0;found=TRUE;value=%d;" % n)
            elif key in kvs:
                send2(s, "cmd=info-getjobattr-response;rc=0;found=TRUE;value=%s;" % kvs[key])
            else:
                send2(s, "cmd=info-getjobattr-response;rc=0;found=FALSE;")
        elif cmd == "kvs-put":
            if len(f["key"]) >= 64 or len(f.get("value", "")) >= 1024:
                send2(s, "cmd=kvs-put-response;rc=-1;errmsg=too_long;")
            else:
                kvs[f["key"]] = f.get("value", "")
                send2(s, "cmd=kvs-put-response;rc=0;")
        elif cmd == "kvs-fence":
            c.epoch += 1
            fenced[c.rank] = c.epoch
            if a.fence_nowait:
                send2(s, "cmd=kvs-fence-response;rc=0;")
                for w in list(waiting):
                    if everyone_fenced(w[2]):
                        waiting.remove(w)
                        answer_get(w[0], w[1])
            else:
                barrier.append(s)
                if len(barrier) == n:
                    for b in barrier:
                        send2(b, "cmd=kvs-fence-response;rc=0;")
                    barrier.clear()
        elif cmd == "kvs-get":
            if f["key"] in kvs or not a.fence_nowait or everyone_fenced(c.epoch):
                answer_get(s, f)
            else:
                waiting.append((s, f, c.epoch))
        elif cmd == "finalize":
            send2(s, "cmd=finalize-response;rc=0;")
        elif cmd == "abort":
            state["abort"] = 134
            kill_all()
        else:
            print("pmi_server: unknown PMI-2 command: %s" % f, file=sys.stderr)
            send2(s, "cmd=%s-response;rc=-1;" % cmd)

    def handle_init(s, c, f):
        v = int(f.get("pmi_version", "1"))
        if v == 2 and a.pmi2 == "yes":
            c.version = 2
            send1(s, "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n")
        elif v == 2 and a.pmi2 == "refuse":
            send1(s, "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=-1\n")
        else:
            c.version = 1
            send1(s, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n")

    def next_message(c):
        """Takes one complete message from c.buf: (fields, separator) or None."""
        if c.version == 2:
            if len(c.buf) < 6 or len(c.buf) < 6 + int(c.buf[:6]):
                return None
            size = int(c.buf[:6])
            body, c.buf = c.buf[6:6 + size].decode(), c.buf[6 + size:]
            return dict(t.split("=", 1) for t in body.split(";") if "=" in t)
        if b"\n" not in c.buf:
            return None
        line, c.buf = c.buf.split(b"\n", 1)
        return dict(t.split("=", 1) for t in line.decode().split(" ") if "=" in t)

    while any(p.poll() is None for p in procs) and state["abort"] is None:
        for key, _ in sel.select(timeout=0.1):
            s = key.fileobj
            if s is listener:
                sock, _ = listener.accept()
                conns[sock] = Conn(None)
                sel.register(sock, selectors.EVENT_READ)
                continue
            data = s.recv(65536)
            if not data:
                sel.unregister(s)
                s.close()
                del conns[s]
                continue
            c = conns[s]
            c.buf += data
            while s in conns and state["abort"] is None:
                f = next_message(c)
                if f is None:
                    break
                if log:
                    log.write("v%s %s %s\n" % (c.version or 1, f.get("cmd"),
                                                f.get("pmi_version", "")))
                    log.flush()
                if f.get("cmd") == "init":
                    handle_init(s, c, f)
                elif c.version == 2:
                    handle2(s, c, f)
                else:
                    handle1(s, c, f)
    codes = [p.wait() for p in procs]
    if state["abort"] is not None:
        return state["abort"]
    return max(c if c >= 0 else 128 - c for c in codes)


if __name__ == "__main__":
    sys.exit(main())
