#!/usr/bin/env python3
"""cg_latency.py: instruction counts of the blocking ping-pong path.

Runs bench/osu_latency at np=2 under callgrind and prints, per rank, the
instructions one ping-pong iteration (one MPI_Send + one MPI_Recv) costs with
the idle polls taken out (a blocked receive polls a number of times that
depends on timing; one poll per message is counted), the inclusive cost of
MPI_Send per call, of the p2p arrival upcall (on_message) per message, and of
one idle progress poll. Unlike timings on a shared machine, these numbers
repeat exactly from run to run, so they show what a code change saves.

Usage: bench/cg_latency.py [--build DIR] [--size BYTES] [--iters N]
  --build DIR   rdmpi build tree with mpirun/mpirun and bench/osu_latency
                (default: _build)
Needs valgrind (callgrind_annotate). Run from the source tree.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile


def parse(path):
    """Inclusive cost and call count of every function in one callgrind file."""
    out = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--tree=caller',
                          '--threshold=100', path], capture_output=True, text=True).stdout
    incl, calls, callers = {}, {}, []
    for line in out.splitlines():
        m = re.match(r'\s*[\d,]+\s+\([^)]*\)\s+<\s+\S+:\S+ \(([\d,]+)x\)', line)
        if m:
            callers.append(int(m.group(1).replace(',', '')))
            continue
        m = re.match(r'\s*([\d,]+)\s+\([^)]*\)\s+\*\s+\S+:(\S+)', line)
        if m:
            fn, v = m.group(2), int(m.group(1).replace(',', ''))
            # A function inlined from a header shows up once per file: keep the largest.
            if v > incl.get(fn, 0):
                incl[fn], calls[fn] = v, sum(callers)
            callers = []
            continue
        if not line.strip():
            callers = []
    return incl, calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default='_build')
    ap.add_argument('--size', default='8')
    ap.add_argument('--iters', type=int, default=3000)
    a = ap.parse_args()
    mpirun = os.path.join(a.build, 'mpirun', 'mpirun')
    bench = os.path.join(a.build, 'bench', 'osu_latency')
    for p in (mpirun, bench):
        if not os.access(p, os.X_OK):
            sys.exit(f'cg_latency.py: {p} not found (build first, or --build DIR)')
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([mpirun, '-np', '2', 'valgrind', '--tool=callgrind',
                        '--callgrind-out-file=' + d + '/cg.%p', bench, '-m',
                        f'{a.size}:{a.size}', '-i', str(a.iters), '-x', '100'],
                       capture_output=True, check=True)
        files = sorted(glob.glob(d + '/cg.*'), key=lambda x: int(x.rsplit('.', 1)[1]))
        for rank, f in enumerate(files):
            incl, calls = parse(f)
            polls = max(calls.get('rd_progress', 0), 1)
            msg, nmsg = incl.get('on_message', 0), calls.get('on_message', 0)
            idle = (incl.get('rd_progress', 0) - msg) / polls
            it = max(calls.get('PMPI_Send', 0), 1)
            # Blocked time is spent in rd_api_wait: take it out, put back the
            # messages it handled and one poll for each.
            per_it = (incl.get('PMPI_Send', 0) + incl.get('PMPI_Recv', 0)
                      - incl.get('rd_api_wait', 0) + msg + nmsg * idle) / it
            print(f'rank {rank}: {per_it:.0f} instructions per iteration (idle polls excluded); '
                  f'MPI_Send {incl.get("PMPI_Send", 0) / it:.0f}; '
                  f'on_message {msg / max(nmsg, 1):.0f}/message; idle poll {idle:.0f}')


if __name__ == '__main__':
    main()
