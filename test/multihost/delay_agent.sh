#!/bin/bash
# A launch agent for the test/multihost scripts: runs the host daemon in
# the host's network namespace, as 'ip netns exec' does, but with its
# connection to mpirun going through delay_relay.py (started in that
# namespace), which delays each direction by MH_DELAY_MS (default 50) ms;
# MH_RELAY_OPTS adds options of the relay (--swallow-end).
# Called as mpirun calls an agent: delay_agent.sh HOST PROGRAM ARGS...,
# where ARGS hold "--rd-daemon PORT ADDRESSES": the daemon is told to
# reach the relay instead, which reaches mpirun at the first address.
host=$1
shift
args=("$@")
d=-1
for i in "${!args[@]}"; do
    [ "${args[$i]}" = --rd-daemon ] && d=$i
done
if [ $d -lt 0 ] || [ $((d + 2)) -ge ${#args[@]} ]; then
    echo "delay_agent.sh: no --rd-daemon PORT ADDRESSES in: $*" >&2
    exit 2
fi
port=${args[d + 1]}
target=${args[d + 2]%%,*}
exec 3< <(exec ip netns exec "$host" python3 "$(dirname "$0")/delay_relay.py" \
    --delay-ms "${MH_DELAY_MS:-50}" ${MH_RELAY_OPTS:-} "$target" "$port")
read -r relay_port <&3 || { echo "delay_agent.sh: the relay did not start" >&2; exit 1; }
exec 3<&-
args[d + 1]=$relay_port
args[d + 2]=127.0.0.1
exec ip netns exec "$host" "${args[@]}"
