#!/bin/bash
# rdmpi-ramp's four methods at 6 and 8 ranks with RDMPI_TRANSPORTS=tcp:
# one-sided operations then travel as messages the target applies in its
# progress, a different path from shared memory's loads and stores.
. "${srcdir:-.}/test/ramp/lib.sh"

for np in 6 8; do
    for m in rpc plus star s2pl; do
        ramp_checked "$m over tcp, $np ranks" $np -x RDMPI_TRANSPORTS=tcp -- \
            --method $m --txns 80 $RACE
    done
done
finish
