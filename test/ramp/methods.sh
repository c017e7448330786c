#!/bin/bash
# rdmpi-ramp's four methods on shared memory at 6 and 8 ranks (more ranks
# than cores is fine), each with a hot key space and a pause between
# PREPARE and COMMIT to widen the races, their history checked for Read
# Atomic isolation. plus runs with both ways of making a mailbox message
# visible.
. "${srcdir:-.}/test/ramp/lib.sh"

for np in 6 8; do
    for m in rpc plus star s2pl; do
        ramp_checked "$m, $np ranks" $np -- --method $m --txns 120 $RACE
    done
done
ramp_checked "plus, mailbox flush" 6 -- --method plus --mailbox flush --txns 120 $RACE
ramp_checked "star, mailbox flush" 6 -- --method star --mailbox flush --txns 120 $RACE
# zipfian keys, a transaction as large as the key space
ramp_checked "star, zipfian" 6 -- --method star --dist zipfian --txns 100 $RACE --keys 4
finish
