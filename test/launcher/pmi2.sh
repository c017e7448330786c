#!/bin/bash
# src/boot's PMI-2 back end and the choice between PMI-2 and PMI-1, against
# a simple-PMI server of our own (pmi_server.py) that can behave as Slurm's
# pmi2 plugin (fullinit must name PMI_JOBID, appnum -1), as Hydra (kvs-fence
# does not wait; a get of a missing key waits for every rank's fence), or
# as a server that only knows PMI-1 (answering version 1, or refusing 2).
# Each run checks which protocol the ranks used (boot_client's proto, and
# RDMPI_VERBOSE's line for the MPI programs), so a test cannot pass on the
# other path.
. "${srcdir:-.}/test/launcher/lib.sh"

SERVER="${srcdir:-.}/test/launcher/pmi_server.py"
P2P=$builddir/test/mpi/p2p_order
COLL=$builddir/test/mpi/coll_ops
need_built check "$P2P" "$COLL"
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 is not installed"
    rm -rf "$T"
    exit 77
fi
unset PMIX_NAMESPACE PMI_FD PMI_PORT PMI_RANK PMI_SIZE PMI_ID PMI_JOBID RDMPI_PMI

# run_server ARGS...: sets RC, $T/out, $T/err.
run_server() {
    timeout 120 python3 "$SERVER" "$@" </dev/null >"$T/out" 2>"$T/err"
    RC=$?
}
strip_info() {
    sed -E 's/ job_id [^ ]+ host [^ ]+//' "$T/out" >"$T/out.info"
    mv "$T/out.info" "$T/out"
}
INFO3=("rank 0 size 3 local_rank 0 local_size 3 local_ranks 0,1,2 univ 3 appnum 0 singleton 0 node 0"
       "rank 1 size 3 local_rank 1 local_size 3 local_ranks 0,1,2 univ 3 appnum 0 singleton 0 node 0"
       "rank 2 size 3 local_rank 2 local_size 3 local_ranks 0,1,2 univ 3 appnum 0 singleton 0 node 0")
proto3() { echo "proto 0 $1"; echo "proto 1 $1"; echo "proto 2 $1"; }

# A server that offers PMI-2, over PMI_FD and over PMI_PORT (rank and size
# from fullinit: PMI_RANK and PMI_SIZE are not set), nodes by host name.
for port in "" --port; do
    name="PMI-2${port:+ $port}"
    run_server --pmi2 yes $port -n 3 "$CLIENT" info proto bigexchange exchange mark=$MARK
    strip_info
    expect_rc "$name: bootstrap and exchange" 0
    mapfile -t want < <(printf '%s\n' "${INFO3[@]}"; proto3 PMI-2
        for r in 0 1 2; do echo "bigexchange ok rank $r"; echo "exchange ok rank $r"; done)
    expect_out_sorted "$name: ranks, protocol, long binary values" "${want[@]}"
done

# As Slurm's plugin: fullinit names PMI_JOBID, appnum -1 means none (0),
# and the nodes come from PMI_process_mapping.
run_server --pmi2 yes --slurm --mapping -n 3 "$CLIENT" info proto exchange mark=$MARK
strip_info
expect_rc "PMI-2 as Slurm: bootstrap" 0
mapfile -t want < <(printf '%s\n' "${INFO3[@]}"; proto3 PMI-2
    for r in 0 1 2; do echo "exchange ok rank $r"; done)
expect_out_sorted "PMI-2 as Slurm: ranks, appnum 0, protocol" "${want[@]}"

# As Hydra: kvs-fence does not wait, rd_boot_fence still must.
mkdir -p "$T/fence"
run_server --pmi2 yes --fence-nowait -n 3 "$CLIENT" fencecheck="$T/fence" proto mark=$MARK
expect_rc "PMI-2, kvs-fence that does not wait: run" 0
mapfile -t want < <(echo "fencecheck ok rank 1"; echo "fencecheck ok rank 2"; proto3 PMI-2)
expect_out_sorted "PMI-2, kvs-fence that does not wait: rd_boot_fence is a barrier" "${want[@]}"

# Servers that only know PMI-1: the ranks fall back to it.
for mode in "--pmi2 no" "--pmi2 refuse" "--pmi2 refuse --port"; do
    run_server $mode -n 3 "$CLIENT" info proto exchange mark=$MARK
    strip_info
    expect_rc "$mode: bootstrap" 0
    mapfile -t want < <(printf '%s\n' "${INFO3[@]}"; proto3 PMI-1
        for r in 0 1 2; do echo "exchange ok rank $r"; done)
    expect_out_sorted "$mode: falls back to PMI-1" "${want[@]}"
done

# RDMPI_PMI=1 never asks for PMI-2; RDMPI_PMI=2 insists and says why it fails.
rm -f "$T/log"
RDMPI_PMI=1 run_server --pmi2 yes --log "$T/log" -n 2 "$CLIENT" proto mark=$MARK
expect_rc "RDMPI_PMI=1: run" 0
expect_out_sorted "RDMPI_PMI=1: PMI-1" "proto 0 PMI-1" "proto 1 PMI-1"
expect_no_grep "RDMPI_PMI=1: no PMI-2 init sent" "$T/log" "init 2$"
RDMPI_PMI=2 run_server --pmi2 no -n 2 "$CLIENT" proto mark=$MARK
expect_rc "RDMPI_PMI=2 against a PMI-1 server: fails" 3
expect_grep "RDMPI_PMI=2 against a PMI-1 server: says why" "$T/err" \
    "does not offer PMI-2 \\(RDMPI_PMI=2\\)"

# PMI-2's abort ends the job.
run_server --pmi2 yes -n 3 "$CLIENT" abort@2=5 sleep=30 mark=$MARK
expect_rc "PMI-2: abort ends the job" 134

# The project's MPI programs over PMI-2, as Slurm and as Hydra would serve it.
for np in 2 4; do
    for prog in "$P2P" "$COLL"; do
        for mode in "--slurm --mapping" "--fence-nowait --port"; do
            name="PMI-2 $mode -n $np $(basename "$prog")"
            RDMPI_VERBOSE=1 run_server --pmi2 yes $mode -n $np "$prog" $MARK
            expect_rc "$name" 0
            expect_grep "$name" "$T/out" "^ No Errors$"
            n=$(grep -c '^rdmpi: rank [0-9]*: process manager protocol: PMI-2$' "$T/err")
            if [ "$n" = "$np" ]; then
                pass "$name: every rank used PMI-2"
            else
                fail "$name: $n of $np ranks say they used PMI-2"
            fi
        done
    done
done

finish
