#!/bin/bash
# rdmpi ranks started by MPICH's Hydra (mpiexec.hydra, as Debian's mpich
# package installs it) talk to it over PMI-2, which Hydra offers (or PMI-1
# with RDMPI_PMI=1), and run as one job: what each rank learns (rank, size,
# the ranks of its node, the protocol), the exchange of values longer than
# one PMI value, abort, and the project's MPI test programs (point-to-point
# and collective) at 2 and 4 ranks, on one host and on two hosts that
# Hydra's fork launcher starts here (separate nodes that share /dev/shm, as
# network-namespace hosts do).
. "${srcdir:-.}/test/launcher/lib.sh"

HYDRA=$(command -v mpiexec.hydra || true)
if [ -z "$HYDRA" ]; then
    echo "SKIP: mpiexec.hydra is not installed (Debian's mpich package)"
    rm -rf "$T"
    exit 77
fi
P2P=$builddir/test/mpi/p2p_order
COLL=$builddir/test/mpi/coll_ops
need_built check "$P2P" "$COLL"
# run_mpirun starts $MPIRUN: Hydra here; nothing of rdmpi's mpirun is in
# the ranks' environment.
MPIRUN=$HYDRA
unset PMIX_NAMESPACE PMI_FD PMI_PORT PMI_RANK PMI_SIZE RDMPI_PMI
ls -A /dev/shm >"$T/shm.hydra.before" 2>/dev/null

# info without the job id and host (they vary): rank, size, local rank,
# local size, the node's ranks, universe size, appnum, singleton, node.
info_lines() {
    sed -E 's/ job_id [^ ]+ host [^ ]+//' "$T/out" >"$T/out.info"
    mv "$T/out.info" "$T/out"
}

for pmi in 2 1; do
    RDMPI_PMI=auto
    [ $pmi = 1 ] && RDMPI_PMI=1
    RDMPI_PMI=$RDMPI_PMI run_mpirun -n 4 "$CLIENT" info proto mark=$MARK
    info_lines
    expect_rc "hydra -n 4, RDMPI_PMI=$RDMPI_PMI: bootstrap" 0
    expect_out_sorted "hydra -n 4, RDMPI_PMI=$RDMPI_PMI: ranks of one node, PMI-$pmi" \
        "rank 0 size 4 local_rank 0 local_size 4 local_ranks 0,1,2,3 univ 4 appnum 0 singleton 0 node 0" \
        "rank 1 size 4 local_rank 1 local_size 4 local_ranks 0,1,2,3 univ 4 appnum 0 singleton 0 node 0" \
        "rank 2 size 4 local_rank 2 local_size 4 local_ranks 0,1,2,3 univ 4 appnum 0 singleton 0 node 0" \
        "rank 3 size 4 local_rank 3 local_size 4 local_ranks 0,1,2,3 univ 4 appnum 0 singleton 0 node 0" \
        "proto 0 PMI-$pmi" "proto 1 PMI-$pmi" "proto 2 PMI-$pmi" "proto 3 PMI-$pmi"
done

run_mpirun -launcher fork -hosts lt-host-a:2,lt-host-b:2 -n 4 "$CLIENT" info mark=$MARK
info_lines
expect_rc "hydra, two hosts: bootstrap" 0
expect_out_sorted "hydra, two hosts: ranks of each node" \
    "rank 0 size 4 local_rank 0 local_size 2 local_ranks 0,1 univ 4 appnum 0 singleton 0 node 0" \
    "rank 1 size 4 local_rank 1 local_size 2 local_ranks 0,1 univ 4 appnum 0 singleton 0 node 0" \
    "rank 2 size 4 local_rank 0 local_size 2 local_ranks 2,3 univ 4 appnum 0 singleton 0 node 1" \
    "rank 3 size 4 local_rank 1 local_size 2 local_ranks 2,3 univ 4 appnum 0 singleton 0 node 1"

# Values of 3000 binary bytes: hex-encoded and split across PMI-1 keys.
run_mpirun -n 3 "$CLIENT" bigexchange exchange mark=$MARK
expect_rc "hydra: long binary values" 0
expect_out_sorted "hydra: long binary values" \
    "bigexchange ok rank 0" "bigexchange ok rank 1" "bigexchange ok rank 2" \
    "exchange ok rank 0" "exchange ok rank 1" "exchange ok rank 2"

# Abort ends the job with its exit code over either protocol (Hydra 4.0
# does not know PMI-2's abort: the PMI-2 back end sends PMI-1's there).
for pmi in auto 1; do
    RDMPI_PMI=$pmi run_mpirun -n 3 "$CLIENT" abort@1=7 sleep=30 mark=$MARK
    expect_rc "hydra, RDMPI_PMI=$pmi: abort's exit code" 7
    expect_no_grep "hydra, RDMPI_PMI=$pmi: abort without Hydra's errors" "$T/err" \
        "Unrecognized PMI command"
done

# expect_proto WHAT NP PMI: every rank's RDMPI_VERBOSE line names PMI-<PMI>.
expect_proto() {
    local n
    n=$(grep -c "^rdmpi: rank [0-9]*: process manager protocol: PMI-$3\$" "$T/err")
    if [ "$n" = "$2" ]; then
        pass "$1: every rank used PMI-$3"
    else
        fail "$1: $n of $2 ranks say they used PMI-$3"
    fi
}

for np in 2 4; do
    for prog in "$P2P" "$COLL"; do
        name="hydra -n $np $(basename "$prog")"
        RDMPI_VERBOSE=1 run_mpirun -n $np "$prog" $MARK
        expect_rc "$name" 0
        expect_grep "$name" "$T/out" "^ No Errors$"
        expect_proto "$name" $np 2
        RDMPI_VERBOSE=1 run_mpirun -launcher fork -hosts lt-host-a,lt-host-b -n $np "$prog" $MARK
        expect_rc "$name, two hosts" 0
        expect_grep "$name, two hosts" "$T/out" "^ No Errors$"
        expect_proto "$name, two hosts" $np 2
    done
done
# PMI-1 stays covered with the real Hydra.
for prog in "$P2P" "$COLL"; do
    name="hydra, PMI-1, -n 4 $(basename "$prog"), two hosts"
    RDMPI_PMI=1 RDMPI_VERBOSE=1 run_mpirun -launcher fork -hosts lt-host-a,lt-host-b -n 4 \
        "$prog" $MARK
    expect_rc "$name" 0
    expect_grep "$name" "$T/out" "^ No Errors$"
    expect_proto "$name" 4 1
done

# The ranks remove their shared-memory segments themselves under Hydra.
ls -A /dev/shm >"$T/shm.hydra.after" 2>/dev/null
left=$(comm -13 "$T/shm.hydra.before" "$T/shm.hydra.after" | grep '^rdmpi-kvs_' || true)
if [ -n "$left" ]; then
    fail "shared memory left behind: $left"
else
    pass "no shared memory left behind"
fi

finish
