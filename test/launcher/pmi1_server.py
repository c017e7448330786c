#!/usr/bin/env python3
"""A small PMI-1 process manager for the launcher tests: starts N copies of
a command and serves the PMI-1 simple wire protocol to them, the way MPICH's
Hydra does but with choices Hydra does not offer: the PMI_PORT + PMI_ID
handshake instead of PMI_FD, any vallen_max, and no PMI_process_mapping
(so ranks find their nodes by host name).

usage: pmi1_server.py [--port] [--vallen N] -n N command [args...]
Exits with the highest exit status of the ranks (or an abort's code).
"""
import argparse
import os
import selectors
import signal
import socket
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", action="store_true", help="PMI_PORT/PMI_ID instead of PMI_FD")
    ap.add_argument("--vallen", type=int, default=1024)
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    n = a.n
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PMIX_", "PMI_", "OMPI_", "SLURM_"))}
    sel = selectors.DefaultSelector()
    procs, conns = [], {}   # conns: socket -> [rank or None, input buffer]
    listener = None
    if a.port:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(n)
        sel.register(listener, selectors.EVENT_READ)
    for r in range(n):
        e = dict(env)
        if a.port:
            e.update(PMI_PORT="127.0.0.1:%d" % listener.getsockname()[1], PMI_ID=str(r))
            procs.append(subprocess.Popen(a.cmd, env=e))
        else:
            mine, theirs = socket.socketpair()
            e.update(PMI_FD=str(theirs.fileno()), PMI_RANK=str(r), PMI_SIZE=str(n))
            procs.append(subprocess.Popen(a.cmd, env=e, pass_fds=[theirs.fileno()]))
            theirs.close()
            conns[mine] = [r, b""]
            sel.register(mine, selectors.EVENT_READ)
    kvs, barrier, abort_code = {}, [], None

    def send(s, text):
        s.sendall(text.encode())

    def handle(s, line):
        nonlocal abort_code
        f = dict(t.split("=", 1) for t in line.split(" ") if "=" in t)
        cmd = f.get("cmd")
        if cmd == "initack":
            conns[s][0] = int(f["pmiid"])
            send(s, "cmd=initack\ncmd=set size=%d\ncmd=set rank=%s\ncmd=set debug=0\n"
                 % (n, f["pmiid"]))
        elif cmd == "init":
            send(s, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n")
        elif cmd == "get_maxes":
            send(s, "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=%d\n" % a.vallen)
        elif cmd == "get_my_kvsname":
            send(s, "cmd=my_kvsname kvsname=lt_kvs_%d\n" % os.getpid())
        elif cmd == "get_appnum":
            send(s, "cmd=appnum appnum=0\n")
        elif cmd == "get_universe_size":
            send(s, "cmd=universe_size size=%d\n" % n)
        elif cmd == "put":
            v = f.get("value", "")
            if len(f["key"]) >= 64 or len(v) >= a.vallen:
                send(s, "cmd=put_result rc=-1 msg=too_long\n")
            else:
                kvs[f["key"]] = v
                send(s, "cmd=put_result rc=0 msg=success\n")
        elif cmd == "get":
            if f["key"] in kvs:
                send(s, "cmd=get_result rc=0 msg=success value=%s\n" % kvs[f["key"]])
            else:
                send(s, "cmd=get_result rc=-1 msg=key_not_found value=unknown\n")
        elif cmd == "barrier_in":
            barrier.append(s)
            if len(barrier) == n:
                for b in barrier:
                    send(b, "cmd=barrier_out\n")
                barrier.clear()
        elif cmd == "finalize":
            send(s, "cmd=finalize_ack\n")
        elif cmd == "abort":
            abort_code = int(f.get("exitcode", "1"))
            for p in procs:
                if p.poll() is None:
                    p.send_signal(signal.SIGKILL)
        else:
            print("pmi1_server: unknown command: %s" % line, file=sys.stderr)
            send(s, "cmd=%s rc=-1\n" % cmd)

    while any(p.poll() is None for p in procs) and abort_code is None:
        for key, _ in sel.select(timeout=0.1):
            s = key.fileobj
            if s is listener:
                c, _ = listener.accept()
                conns[c] = [None, b""]
                sel.register(c, selectors.EVENT_READ)
                continue
            data = s.recv(65536)
            if not data:
                sel.unregister(s)
                s.close()
                del conns[s]
                continue
            conns[s][1] += data
            while b"\n" in conns[s][1]:
                line, conns[s][1] = conns[s][1].split(b"\n", 1)
                handle(s, line.decode())
    codes = [p.wait() for p in procs]
    if abort_code is not None:
        return abort_code
    return max(c if c >= 0 else 128 - c for c in codes)


if __name__ == "__main__":
    sys.exit(main())
