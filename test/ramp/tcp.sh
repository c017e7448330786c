#!/bin/bash
# rdmpi-ramp's four methods at 6 and 8 ranks with RDMPI_TRANSPORTS=tcp.
# Messages then go over TCP; one-sided operations on MPI_Win_allocate
# windows still use the node's shared memory, so plus and star also run
# on MPI_Win_create windows (--window create), whose puts, gets and
# notifications between node peers are messages the target applies in
# its progress (RDMPI_VERBOSE counts the targets reached that way).
. "${srcdir:-.}/test/ramp/lib.sh"

for np in 6 8; do
    for m in rpc plus star s2pl; do
        ramp_checked "$m over tcp, $np ranks" $np -x RDMPI_TRANSPORTS=tcp -- \
            --method $m --txns 80 $RACE
    done
    for m in plus star; do
        ramp_checked "$m over tcp, created windows, $np ranks" $np -x RDMPI_TRANSPORTS=tcp \
            -x RDMPI_VERBOSE=1 -- --method $m --window create --txns 80 $RACE
        expect_grep "$m, created windows: one-sided by message" "$T/err" \
            '^rdmpi: rank [2-7]: rma: .*targets by path: shm [0-9]+, rdma 0, am [1-9].*by message [1-9]'
    done
done
finish
