#!/bin/bash
# vm-agent.sh HOST command [args...]
#
# A launch agent for mpirun (--launch-agent) inside run-in-vm.sh guests, in
# place of ssh: it starts the command on guest HOST (node0.., or its IP) and
# behaves like "ssh HOST command": it passes its stdin on (read to its end
# first) and forwards the command's stdout and
# stderr, exits with its exit status, and stops it when the agent itself is
# terminated (TERM/INT/HUP).
#
# How: the guests share one read-write directory, $RDMPI_VM_DROP. The agent
# writes the command as a script into $RDMPI_VM_DROP/nodeN/ID.cmd; the
# vm-runner.sh loop on guest N picks it up, runs it with its output in
# ID.out / ID.err and writes its exit status to ID.rc. The agent asks for
# the command to be killed by creating ID.kill.
# A command for the guest the agent runs on is executed directly.
set -u
[ $# -ge 2 ] || { echo "usage: vm-agent.sh HOST command [args...]" >&2; exit 255; }
drop=${RDMPI_VM_DROP:?vm-agent.sh: RDMPI_VM_DROP is not set (run inside run-in-vm.sh)}
host=$1
shift

# HOST -> node index: nodeI, or the I-th address of RXE_NODE_IPS
node=
case $host in
node[0-9]*) node=${host#node} ;;
localhost | 127.0.0.1) node=${RXE_NODE_ID:-0} ;;
*)
    i=0
    for a in ${RXE_NODE_IPS:-}; do
        [ "$a" = "$host" ] && node=$i
        i=$((i + 1))
    done
    ;;
esac
if ! [[ $node =~ ^[0-9]+$ ]] || [ "$node" -ge "${RXE_NODES:-1}" ]; then
    echo "vm-agent.sh: unknown host '$host' (guests are node0..node$((${RXE_NODES:-1} - 1)))" >&2
    exit 255
fi
if [ "$node" = "${RXE_NODE_ID:-}" ]; then
    exec "$@"
fi

dir=$drop/node$node
mkdir -p "$dir"
job=$dir/$(date +%s%N).$$.${RXE_NODE_ID:-x}
# Standard input goes along, as ssh passes it: mpirun hands its host
# daemons the job's secret that way (one line, then end of file).
(umask 077 && cat >"$job.in")
{
    printf 'cd -- %q 2>/dev/null || cd /\n' "$PWD"
    printf 'exec'
    printf ' %q' "$@"
    echo
} >"$job.tmp"
mv "$job.tmp" "$job.cmd"

# print what was appended to file $1 since byte offset ${!2}; update it
pump() {
    local f=$1 var=$2 size
    [ -f "$f" ] || return 0
    size=$(stat -c %s "$f" 2>/dev/null) || return 0
    if [ "$size" -gt "${!var}" ]; then
        tail -c +$((${!var} + 1)) "$f" | head -c $((size - ${!var}))
        printf -v "$var" %s "$size"
    fi
}
killed=0
stop() { killed=1; : >"$job.kill"; }
trap stop TERM INT HUP
out_off=0 err_off=0
waited=0
while :; do
    pump "$job.out" out_off
    pump "$job.err" err_off >&2
    if [ -f "$job.rc" ]; then
        pump "$job.out" out_off
        pump "$job.err" err_off >&2
        rc=$(cat "$job.rc")
        rm -f "$job".*
        [ $killed = 1 ] && exit 143
        exit "$rc"
    fi
    if [ $killed = 1 ]; then
        # the runner kills the job and writes .rc; do not wait forever
        waited=$((waited + 1))
        [ $waited -gt 100 ] && { rm -f "$job".*; exit 143; }
    fi
    if [ -f "$drop/stop" ] && [ -f "$job.cmd" ]; then
        echo "vm-agent.sh: node$node is not running vm-runner.sh" >&2
        rm -f "$job".*
        exit 255
    fi
    sleep 0.1
done
