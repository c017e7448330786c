#!/bin/bash
# vm-runner.sh: the other half of vm-agent.sh. Run on every guest that should
# accept commands (see vm-agent.sh); it runs each command dropped into
# $RDMPI_VM_DROP/node$RXE_NODE_ID/ and exits once $RDMPI_VM_DROP/stop exists,
# killing what is still running. Exit status 0.
set -u
drop=${RDMPI_VM_DROP:?vm-runner.sh: RDMPI_VM_DROP is not set (run inside run-in-vm.sh)}
dir=$drop/node${RXE_NODE_ID:?}
mkdir -p "$dir"
declare -A pids=()
shopt -s nullglob
finish() {
    local j
    for j in "${!pids[@]}"; do kill -TERM -- "-${pids[$j]}" 2>/dev/null; done
    sleep 1
    for j in "${!pids[@]}"; do kill -KILL -- "-${pids[$j]}" 2>/dev/null; done
    exit 0
}
trap finish TERM INT
while [ ! -f "$drop/stop" ]; do
    for c in "$dir"/*.cmd; do
        j=${c%.cmd}
        mv "$c" "$j.run" 2>/dev/null || continue
        # own process group, so that a kill reaches the whole command
        setsid bash -c 'if [ -f "$1.in" ]; then in=$1.in; else in=/dev/null; fi; bash "$1.run" >"$1.out" 2>"$1.err" <"$in"; echo $? >"$1.rc.tmp"; mv "$1.rc.tmp" "$1.rc"' _ "$j" &
        pids[$j]=$!
    done
    for j in "${!pids[@]}"; do
        if ! kill -0 "${pids[$j]}" 2>/dev/null; then
            wait "${pids[$j]}" 2>/dev/null
            # killed before it could write its status
            [ -f "$j.rc" ] || echo 143 >"$j.rc"
            unset "pids[$j]"
        elif [ -f "$j.kill" ]; then
            kill -TERM -- "-${pids[$j]}" 2>/dev/null
        fi
    done
    sleep 0.05
done
finish
