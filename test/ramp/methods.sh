#!/bin/bash
# rdmpi-ramp's four methods on shared memory at 6 and 8 ranks (more ranks
# than cores is fine), each with a hot key space and a pause between
# PREPARE and COMMIT to widen the races, their history checked for Read
# Atomic isolation. plus and star run with both ways of making a mailbox
# message visible (notified puts are the default, and used: RDMPI_VERBOSE
# counts them) and with windows created on the program's memory.
. "${srcdir:-.}/test/ramp/lib.sh"

ramp_checked "plus, notified puts" 6 -x RDMPI_VERBOSE=1 -- --method plus --txns 60 $RACE
expect_grep "plus: the mailboxes take notified puts" "$T/err" \
    '^rdmpi: rank [2-5]: rma: .*notified puts by ring [1-9]'

for np in 6 8; do
    for m in rpc plus star s2pl; do
        ramp_checked "$m, $np ranks" $np -- --method $m --txns 120 $RACE
    done
done
ramp_checked "plus, mailbox flush" 6 -x RDMPI_VERBOSE=1 -- --method plus --mailbox flush \
    --txns 120 $RACE
expect_grep "plus, mailbox flush: no notified put" "$T/err" \
    '^rdmpi: rank [2-5]: rma: .*notified puts by ring 0 .*by immediate 0, by message 0(;|$)'
ramp_checked "star, mailbox flush" 6 -- --method star --mailbox flush --txns 120 $RACE
for m in plus star; do
    ramp_checked "$m, MPI_Win_create windows" 6 -- --method $m --window create --txns 80 $RACE
done
# zipfian keys, a transaction as large as the key space
ramp_checked "star, zipfian" 6 -- --method star --dist zipfian --txns 100 $RACE --keys 4
finish
