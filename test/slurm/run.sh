#!/bin/bash
# run.sh: rdmpi under Slurm's srun --mpi=pmix (and --mpi=pmi2), on a
# throwaway two-node Slurm cluster in network namespaces on this machine
# (test/slurm/cluster.sh).
#
# Usage (from a build tree; "make check-slurm" does this):
#   test/slurm/run.sh [-k PATTERN]     -k: only MPI cases matching PATTERN
#   test/slurm/run.sh --shell          a shell in the controller's namespace,
#                                      with SLURM_CONF set (exit to tear down)
# Needs root. Installs Debian's slurm-wlm and munge when they are missing.
#
# Checks, in order:
#   1. srun --mpi=list offers pmix.
#   2. src/boot under Slurm's PMIx server (test/launcher/boot_client): rank,
#      size, local peers, one job id, address exchange through the fence,
#      on one node (2 ranks) and two nodes (4 ranks, block and cyclic).
#   2b. The same under srun --mpi=pmi2 over PMI-2 (and once over PMI-1,
#      which Slurm's pmi2 plugin also speaks, with RDMPI_PMI=1), each rank
#      saying which protocol it used, and two MPI test programs (p2p_order,
#      coll_ops) on one node (2 ranks) and two nodes (4 ranks) over PMI-2.
#   3. PMIx_Abort from one rank ends the step with a non-zero exit, and so
#      does PMI-2's abort under srun --mpi=pmi2; srun
#      --mpi=none gets a clear error from every rank, not N singletons.
#   4. The MPI test programs of one-node.testlist with every rank on one node
#      (shared memory) and of two-node.testlist with ranks over both nodes
#      (TCP between them; the nodes share /dev/shm, as containers can), run
#      by test/mpi/runtests.sh with srun-np.sh as its mpirun.
#   5. Two test programs built with Debian's mpicc.mpich, run on rdmpi's
#      libmpi.so.12 (as libmpich.so.12) over both nodes (if mpicc.mpich exists).
# Prints one line per check and a closing "N passed, N failed". Everything
# it started (daemons, namespaces, files) is gone when it exits, however.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_src=$(cd "$here/../.." && pwd)
build=$PWD
pattern=
shell=0
while [ $# -gt 0 ]; do
    case $1 in
    -k) pattern=$2; shift 2 ;;
    --shell) shell=1; shift ;;
    *) echo "usage: $0 [-k PATTERN] [--shell]" >&2; exit 2 ;;
    esac
done

if [ "$(id -u)" -ne 0 ]; then
    echo "check-slurm: needs root (network namespaces, Slurm daemons)" >&2
    exit 2
fi
if [ ! -x "$build/test/launcher/boot_client" ] || [ ! -x "$build/test/mpi/init_basic" ]; then
    echo "check-slurm: run from a build tree after 'make check TESTS=' (test programs missing in $build)" >&2
    exit 2
fi

# Debian's Slurm (with the pmix_v4 plugin in slurm-wlm-basic-plugins) and munge.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
   ! command -v srun >/dev/null || ! command -v munged >/dev/null; then
    echo "check-slurm: installing slurm-wlm and munge from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null; } ||
        { echo "check-slurm: could not install slurm-wlm and munge" >&2; exit 2; }
fi

. "$here/cluster.sh"
trap slurm_cluster_down EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

start=$(date +%s)
if ! slurm_cluster_up 2; then
    echo "FAIL cluster start"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "# cluster up in $(( $(date +%s) - start )) s: $(in_ctl sinfo -h -N -o '%N:%t' | tr '\n' ' ')"

if [ $shell -eq 1 ]; then
    echo "# srun --mpi=pmix -N 2 -n 4 PROG runs here; 'exit' tears the cluster down"
    RD_SLURM_NS=$slurm_ns_ctl in_ctl bash -i
    exit 0
fi

passed=0 failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() {
    echo "FAIL $1"
    [ -n "${2:-}" ] && [ -s "$2" ] && tail -n 20 "$2" | sed 's/^/  /'
    failed=$((failed + 1))
}
out=$slurm_dir/check.out

# 1.
if in_ctl srun --mpi=list 2>&1 | grep -q pmix; then
    pass "srun --mpi=list offers pmix"
else
    fail "srun --mpi=list offers pmix (no pmix plugin: slurm-wlm-basic-plugins?)"
fi

# 2. boot_client prints "rank R size S local_rank L local_size N local_ranks
# A,B univ U appnum 0 singleton 0 job_id J host H node I" and "proto R P"
# per rank; check every rank against the layout expected: $1 = the ranks of
# each node, "0,1 2,3", and P against $boot_proto (default PMIx).
check_boot() {
    local label=$1 layout=$2; shift 2
    if ! timeout 60 "${slurm_ctl[@]}" srun --quiet --mpi="${boot_mpi:-pmix}" --kill-on-bad-exit=1 "$@" \
            "$build/test/launcher/boot_client" info proto exchange >"$out" 2>&1; then
        fail "$label: srun exited non-zero" "$out"
        return
    fi
    if awk -v layout="$layout" -v proto="${boot_proto:-PMIx}" '
        BEGIN { nn = split(layout, nodes, " "); size = 0
                for (i = 1; i <= nn; i++) { k = split(nodes[i], rs, ",")
                    for (j = 1; j <= k; j++) { peers[rs[j]] = nodes[i]; lrank[rs[j]] = j - 1; size++ } } }
        $1 == "rank" { r = $2; seen[r]++
            if ($4 != size) bad = bad " rank " r ": size " $4
            if ($8 != split(peers[r], x, ",")) bad = bad " rank " r ": local_size " $8
            if ($6 != lrank[r]) bad = bad " rank " r ": local_rank " $6
            if ($10 != peers[r]) bad = bad " rank " r ": local_ranks " $10 " expected " peers[r]
            if ($16 != 0) bad = bad " rank " r ": singleton"
            if (job == "") job = $18; else if ($18 != job) bad = bad " rank " r ": job_id " $18
            host[peers[r]] = host[peers[r]] == "" ? $20 : host[peers[r]]
            if (host[peers[r]] != $20) bad = bad " rank " r ": host " $20
            node[peers[r]] = node[peers[r]] == "" ? $22 : node[peers[r]]
            if (node[peers[r]] != $22) bad = bad " rank " r ": node id " $22 }
        $1 == "exchange" && $2 == "ok" { ex++ }
        $1 == "proto" { np++; if ($3 != proto) bad = bad " rank " $2 ": protocol " $3 }
        END { for (r in peers) if (seen[r] != 1) bad = bad " rank " r " reported " seen[r] + 0 " times"
              for (a in host) for (b in host) if (a != b && host[a] == host[b]) bad = bad " two nodes on host " host[a]
              for (a in node) for (b in node) if (a != b && node[a] == node[b]) bad = bad " two nodes with node id " node[a]
              if (ex != size) bad = bad " " ex + 0 " of " size " exchanges ok"
              if (np != size) bad = bad " " np + 0 " of " size " ranks named their protocol"
              if (bad != "") { print "layout:" bad; exit 1 } }' "$out" >>"$out"; then
        pass "$label"
    else
        fail "$label" "$out"
    fi
}
check_boot "boot: 1 node, 2 ranks" "0,1" -N 1 -n 2
check_boot "boot: 2 nodes, 4 ranks, block" "0,1 2,3" -N 2 -n 4 --ntasks-per-node=2
check_boot "boot: 2 nodes, 4 ranks, cyclic" "0,2 1,3" -N 2 -n 4 --ntasks-per-node=2 --distribution=cyclic
check_boot "boot: 2 nodes, 3 ranks" "0,1 2" -N 2 -n 3 --ntasks-per-node=2

# 2b. srun --mpi=pmi2: src/boot's PMI-2 back end (PMI_FD) against Slurm's
# pmi2 plugin, and its PMI-1 back end (RDMPI_PMI=1) against the same.
if in_ctl srun --mpi=list 2>&1 | grep -q pmi2; then
    boot_mpi=pmi2 boot_proto=PMI-2 check_boot "boot pmi2: 1 node, 2 ranks" "0,1" -N 1 -n 2
    boot_mpi=pmi2 boot_proto=PMI-2 check_boot "boot pmi2: 2 nodes, 4 ranks, block" "0,1 2,3" \
        -N 2 -n 4 --ntasks-per-node=2
    boot_mpi=pmi2 boot_proto=PMI-2 check_boot "boot pmi2: 2 nodes, 4 ranks, cyclic" "0,2 1,3" \
        -N 2 -n 4 --ntasks-per-node=2 --distribution=cyclic
    boot_mpi=pmi2 boot_proto=PMI-1 check_boot "boot pmi2, RDMPI_PMI=1: 2 nodes, 4 ranks, block" \
        "0,1 2,3" --export=ALL,RDMPI_PMI=1 -N 2 -n 4 --ntasks-per-node=2
    for p in p2p_order coll_ops; do
        for shape in "-N 1 -n 2" "-N 2 -n 4 --ntasks-per-node=2"; do
            np=${shape##*-n }
            np=${np%% *}
            # shellcheck disable=SC2086
            if timeout 120 "${slurm_ctl[@]}" srun --quiet --mpi=pmi2 --kill-on-bad-exit=1 \
                    --export=ALL,RDMPI_VERBOSE=1 $shape "$build/test/mpi/$p" </dev/null \
                    >"$out" 2>&1 && grep -q '^ No Errors$' "$out" &&
                    [ "$(grep -c '^rdmpi: rank [0-9]*: process manager protocol: PMI-2$' "$out")" = "$np" ]; then
                pass "pmi2: $p $shape, every rank over PMI-2"
            else
                fail "pmi2: $p $shape, every rank over PMI-2" "$out"
            fi
        done
    done
else
    fail "srun --mpi=list offers pmi2 (no pmi2 plugin: slurm-wlm-basic-plugins?)"
fi

# 3. PMIx_Abort from rank 3 (on the second node) ends the whole step.
t0=$(date +%s)
timeout 60 "${slurm_ctl[@]}" srun --quiet --mpi=pmix -N 2 -n 4 --ntasks-per-node=2 \
    "$build/test/launcher/boot_client" fence abort@3=7 sleep=30 >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $(( $(date +%s) - t0 )) -lt 25 ]; then
    pass "boot: abort on node 2 ends the step (exit $rc)"
else
    fail "boot: abort on node 2 ends the step (exit $rc after $(( $(date +%s) - t0 )) s)" "$out"
fi

# The same over PMI-2 (srun --mpi=pmi2): its abort ends the step too.
if in_ctl srun --mpi=list 2>&1 | grep -q pmi2; then
    t0=$(date +%s)
    timeout 60 "${slurm_ctl[@]}" srun --quiet --mpi=pmi2 -N 2 -n 4 --ntasks-per-node=2 \
        "$build/test/launcher/boot_client" fence abort@3=7 sleep=30 >"$out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $(( $(date +%s) - t0 )) -lt 25 ]; then
        pass "boot pmi2: abort on node 2 ends the step (exit $rc)"
    else
        fail "boot pmi2: abort on node 2 ends the step (exit $rc after $(( $(date +%s) - t0 )) s)" "$out"
    fi
fi

# srun without PMIx: every rank says how to launch instead of running alone.
timeout 60 "${slurm_ctl[@]}" srun --quiet --mpi=none -N 2 -n 2 \
    "$build/test/mpi/init_basic" </dev/null >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(grep -c 'use srun --mpi=pmix' "$out")" -eq 2 ]; then
    pass "srun --mpi=none: each rank fails with a clear message (exit $rc)"
else
    fail "srun --mpi=none: each rank fails with a clear message (exit $rc)" "$out"
fi

# 4. The MPI test lists through runtests.sh, each case a job step of one
# allocation of both nodes (as in a batch job; a job per case costs more).
jobid=$(in_ctl salloc --no-shell -N 2 --exclusive -J rdmpi-check 2>&1 |
    sed -n 's/.*Granted job allocation \([0-9][0-9]*\).*/\1/p')
if [ -n "$jobid" ]; then
    pass "salloc -N 2: job $jobid for the MPI programs"
else
    fail "salloc -N 2 (the MPI programs run as separate jobs instead)"
fi
run_list() {
    local label=$1 nodes=$2 dist=$3 list=$4 dir=$5 line
    [ -n "$pattern" ] && set -- -k "$pattern" || set --
    RD_SLURM_NS=$slurm_ns_ctl RD_SLURM_NODES=$nodes RD_SLURM_DIST=$dist RD_SLURM_JOBID=$jobid \
        SLURM_CONF=$slurm_dir/slurm.conf MPIRUN="$here/srun-np.sh" MPIRUN_TIMEOUT_OPT= \
        MPI_TEST_DIR=$dir RUNTESTS_TIMEOUT=60 \
        bash "$top_src/test/mpi/runtests.sh" -l "$list" "$@" >"$out" 2>&1
    while IFS= read -r line; do
        case $line in
        PASS\ *|XPASS\ *|XFAIL\ *) pass "$label: ${line#* }" ;;
        FAIL\ *) fail "$label: ${line#FAIL }" ;;
        "  "*|"# "*) echo "$line" ;;
        esac
    done <"$out"
}
run_list "1 node" 1 block "$here/one-node.testlist" "$build/test/mpi"
run_list "2 nodes" 2 block "$here/two-node.testlist" "$build/test/mpi"
run_list "2 nodes cyclic" 2 cyclic "$here/two-node-cyclic.testlist" "$build/test/mpi"
if [ -x "$build/test/fortran/f_p2p" ]; then
    run_list "2 nodes fortran" 2 block "$here/fortran.testlist" "$build/test/fortran"
fi

# 5. Binaries built with Debian's MPICH (libmpich.so.12) on rdmpi's library,
# as an installed rdmpi provides it, across both nodes.
if command -v mpicc.mpich >/dev/null && [ -e "$build/.libs/libmpi.so.12" ]; then
    mkdir -p "$slurm_dir/mpich/lib" "$slurm_dir/mpich/bin"
    ln -s "$build/.libs/libmpi.so.12" "$slurm_dir/mpich/lib/libmpich.so.12"
    for p in p2p_order coll_reduce; do
        if mpicc.mpich -O1 -I"$top_src/test/mpi" -o "$slurm_dir/mpich/bin/$p" \
                "$top_src/test/mpi/$p.c" "$top_src/test/mpi/mtest.c" -lpthread >"$out" 2>&1; then
            printf '%s 4\n' "$p" >>"$slurm_dir/mpich/list"
        else
            fail "mpich binaries: $p does not build with mpicc.mpich" "$out"
        fi
    done
    # MPICH's own library would run each rank as a singleton, and the
    # programs skip at one rank: make sure the loader picks rdmpi's.
    resolved=$(LD_LIBRARY_PATH=$slurm_dir/mpich/lib ldd "$slurm_dir/mpich/bin/p2p_order" 2>/dev/null |
        awk '/libmpich.so.12/ {print $3}')
    if [ "$resolved" = "$slurm_dir/mpich/lib/libmpich.so.12" ]; then
        pass "mpich binaries: libmpich.so.12 is rdmpi's"
    else
        fail "mpich binaries: libmpich.so.12 resolves to '$resolved', not rdmpi's"
    fi
    LD_LIBRARY_PATH=$slurm_dir/mpich/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        run_list "2 nodes mpich binary" 2 block "$slurm_dir/mpich/list" "$slurm_dir/mpich/bin"
fi

[ -n "$jobid" ] && in_ctl scancel "$jobid"

echo "# check-slurm: $(( $(date +%s) - start )) s"
if [ $failed -eq 0 ]; then echo "check-slurm: PASS"; else echo "check-slurm: FAIL"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
