#!/bin/bash
# Transport choice: RDMPI_TRANSPORTS naming a transport that cannot reach
# a peer (rc or ud without an RDMA device) ends MPI_Init naming the peer,
# the transports tried and why each was refused; RDMPI_IB_DEVICE naming a
# device that is not there is an error too. When RDMPI_TRANSPORTS differs
# between ranks (mpirun -env per program), pairs with a transport in common
# talk, and a pair without one fails at its first message with that
# message. None of these may hang (a hang is a failure: RUN_LIMIT).
. "${srcdir:-.}/test/launcher/lib.sh"

R=$builddir/test/launcher/reach_rank
need_built check "$R"
RUN_LIMIT=60

# Without an RDMA device (this test's usual host): rc and ud refuse.
if [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
    echo "note: this host has an RDMA device: the no-device checks are skipped"
else
    for tp in rc ud; do
        # Whichever rank fails first ends the job: its line is the one shown.
        run_mpirun -n 3 -genv RDMPI_TRANSPORTS $tp "$R" mark=$MARK
        expect_rc "RDMPI_TRANSPORTS=$tp without a device" 1
        expect_grep "RDMPI_TRANSPORTS=$tp: MPI_Init names the peer and why $tp refused" "$T/err" \
            "rank [0-2]: MPI_Init failed: no transport reaches the peer: rank [0-2] cannot reach rank [0-2] \(nor 1 other rank\) with RDMPI_TRANSPORTS=$tp: $tp (refused: no usable RDMA device here|.*not built)"
        expect_grep "RDMPI_TRANSPORTS=$tp: the way out" "$T/err" \
            "add tcp to RDMPI_TRANSPORTS, or leave it unset"
        expect_no_grep "RDMPI_TRANSPORTS=$tp: no rank got past MPI_Init" "$T/out" "reach"
    done
    if grep -q "define RD_HAVE_VERBS 1" "$builddir/config.h"; then
        run_mpirun -n 2 -genv RDMPI_IB_DEVICE mlx5_0 "$R" all mark=$MARK
        expect_rc "RDMPI_IB_DEVICE=mlx5_0 without a device" 1
        expect_grep "RDMPI_IB_DEVICE=mlx5_0 is not ignored" "$T/err" \
            "MPI_Init failed: .*RDMPI_IB_DEVICE=mlx5_0: no such RDMA device"
        # Only rc and ud open a device: tcp alone does not look.
        run_mpirun -n 2 -genv RDMPI_IB_DEVICE mlx5_0 -genv RDMPI_TRANSPORTS tcp "$R" all mark=$MARK
        expect_rc "RDMPI_IB_DEVICE with RDMPI_TRANSPORTS=tcp" 0
    fi
fi

# shm between ranks of other nodes: a node of their own each (two hosts
# started here by a launch agent), so rank 0 has nothing to reach rank 1 with.
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$T/agent"
chmod +x "$T/agent"
run_mpirun -hosts localhost:1,lt-other-host:1 --launch-agent "$T/agent" \
    -genv RDMPI_TRANSPORTS shm -n 2 "$R" mark=$MARK
expect_rc "RDMPI_TRANSPORTS=shm across nodes" 1
expect_grep "shm across nodes: MPI_Init says the peer is on another node" "$T/err" \
    "MPI_Init failed: no transport reaches the peer: rank [01] cannot reach rank [01] with RDMPI_TRANSPORTS=shm: shm refused: rank [01] is on another node"

# Three ranks on this node: 0 uses shm and tcp, 1 tcp only, 2 shm only.
# 0-1 talk over tcp and 0-2 over shm; 1-2 have nothing in common and fail
# at their first message, each side naming the other and what it lacks.
run_mpirun -n 1 -env RDMPI_TRANSPORTS shm,tcp "$R" 1 2 mark=$MARK : \
    -n 1 -env RDMPI_TRANSPORTS tcp "$R" 0 2 mark=$MARK : \
    -n 1 -env RDMPI_TRANSPORTS shm "$R" 0 1 mark=$MARK
expect_grep "rank 0 and tcp-only rank 1 talk" "$T/out" "^reach 0 1 ok$"
expect_grep "rank 0 and shm-only rank 2 talk" "$T/out" "^reach 0 2 ok$"
expect_grep "rank 1 talks to rank 0" "$T/out" "^reach 1 0 ok$"
expect_grep "rank 2 talks to rank 0" "$T/out" "^reach 2 0 ok$"
expect_grep "rank 1's first message to rank 2 fails, saying why" "$T/out" \
    "^reach 1 2 failed: Other MPI error, MPI_Send: rank 1 cannot send to rank 2: no transport reaches the peer: rank 1 cannot reach rank 2 with RDMPI_TRANSPORTS=tcp: tcp refused: rank 2 does not use tcp"
expect_grep "rank 2's receive from rank 1 fails, saying why" "$T/out" \
    "^reach 2 1 failed: Other MPI error, MPI_Recv: .*rank 2 cannot reach rank 1 with RDMPI_TRANSPORTS=shm: shm refused: rank 1 does not use shm"
# MPI_Finalize's barrier needs the pair too: the job ends with the reason.
expect_rc "no common transport: the job fails" 1
expect_grep "MPI_Finalize says why" "$T/err" \
    "MPI_Finalize: rank [12]: the closing barrier failed \(no transport reaches the peer: rank [12] cannot reach rank [12]"

# Local rank 0 makes the node's shm segment: when it does not use shm, the
# others cannot either, and ranks left with nothing else say so at MPI_Init.
run_mpirun -n 1 -env RDMPI_TRANSPORTS tcp "$R" all mark=$MARK : \
    -n 2 -env RDMPI_TRANSPORTS shm "$R" all mark=$MARK
expect_rc "shm without local rank 0" 1
expect_grep "shm without local rank 0: MPI_Init says why" "$T/err" \
    "MPI_Init failed: no transport reaches the peer: rank [12] cannot reach rank 0 \(nor 1 other rank\) with RDMPI_TRANSPORTS=shm: shm refused: local rank 0 \(rank 0\), which makes the node's segment, does not use shm"

# Ranks naming different transports that still share one start and run:
# their inits' fences line up whatever each one initializes.
run_mpirun -n 1 -env RDMPI_TRANSPORTS shm,tcp "$R" all mark=$MARK : \
    -n 2 -env RDMPI_TRANSPORTS tcp "$R" all mark=$MARK
expect_rc "shm,tcp with tcp" 0
expect_out_sorted "shm,tcp with tcp: every pair talks over tcp" \
    "reach 0 1 ok" "reach 0 2 ok" "reach 1 0 ok" "reach 1 2 ok" "reach 2 0 ok" "reach 2 1 ok"

finish
