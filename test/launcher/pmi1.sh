#!/bin/bash
# src/boot's PMI-1 back end against a PMI-1 server of our own
# (pmi_server.py), for what Hydra does not exercise: the PMI_PORT + PMI_ID
# handshake (rank and size from the server, not the environment), a small
# vallen_max (values split across many keys), no PMI_process_mapping (nodes
# from host names), and abort's exit code.
. "${srcdir:-.}/test/launcher/lib.sh"

SERVER="${srcdir:-.}/test/launcher/pmi_server.py"
PROG=$builddir/test/mpi/p2p_order
need_built check "$PROG"
if ! command -v python3 >/dev/null; then
    echo "SKIP: python3 is not installed"
    rm -rf "$T"
    exit 77
fi

# run_server ARGS...: sets RC, $T/out, $T/err.
run_server() {
    timeout 120 python3 "$SERVER" "$@" </dev/null >"$T/out" 2>"$T/err"
    RC=$?
}
strip_info() {
    sed -E 's/ job_id [^ ]+ host [^ ]+//' "$T/out" >"$T/out.info"
    mv "$T/out.info" "$T/out"
}

run_server --port -n 3 "$CLIENT" info mark=$MARK
strip_info
expect_rc "PMI_PORT: bootstrap" 0
expect_out_sorted "PMI_PORT: rank and size from the handshake, nodes by host name" \
    "rank 0 size 3 local_rank 0 local_size 3 local_ranks 0,1,2 univ 3 appnum 0 singleton 0 node 0" \
    "rank 1 size 3 local_rank 1 local_size 3 local_ranks 0,1,2 univ 3 appnum 0 singleton 0 node 0" \
    "rank 2 size 3 local_rank 2 local_size 3 local_ranks 0,1,2 univ 3 appnum 0 singleton 0 node 0"

run_server --port -n 3 "$CLIENT" bigexchange exchange mark=$MARK
expect_rc "PMI_PORT: exchange" 0
expect_out_sorted "PMI_PORT: exchange" \
    "bigexchange ok rank 0" "bigexchange ok rank 1" "bigexchange ok rank 2" \
    "exchange ok rank 0" "exchange ok rank 1" "exchange ok rank 2"

# 100-character values: a 3000-byte value takes about 80 keys.
run_server --vallen 100 -n 2 "$CLIENT" bigexchange mark=$MARK
expect_rc "PMI_FD, vallen_max 100: long values" 0
expect_out_sorted "PMI_FD, vallen_max 100: long values" \
    "bigexchange ok rank 0" "bigexchange ok rank 1"

run_server --port -n 2 "$PROG" $MARK
expect_rc "PMI_PORT: p2p_order -n 2" 0
expect_grep "PMI_PORT: p2p_order -n 2" "$T/out" "^ No Errors$"

run_server -n 3 "$CLIENT" abort@2=5 sleep=30 mark=$MARK
expect_rc "PMI_FD: abort's exit code" 5

finish
