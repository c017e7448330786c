#!/bin/bash
# cluster.sh: a throwaway Slurm cluster on this machine, for the rdmpi tests.
#
# Sourced by test/slurm/run.sh (and usable by hand: see doc/slurm.md). It
# defines slurm_cluster_up, slurm_cluster_down and in_ctl:
#
#   network namespace  hostname  runs                      address
#   rds<id>c           ctl       munged, slurmctld, srun   10.213.0.1/24 on br0
#   rds<id>n1          n1        slurmd                    10.213.0.11/24
#   rds<id>n2          n2        slurmd                    10.213.0.12/24
#
# The nodes hang off a bridge in the controller's namespace through veth
# pairs, so nothing is added to the host's own network and the namespaces
# vanish with the cluster. Each slurmd also has its own UTS namespace
# (hostname n1, n2), because slurmd finds its NodeName by its hostname.
# Everything else (slurm.conf, munge key and socket, state and spool
# directories, logs) lives in one temporary directory: a Slurm or munge
# already on the machine is neither used nor disturbed.
#
# Requires root (namespaces), slurmctld, slurmd, srun and munged (run.sh
# installs them from Debian when missing).

RD_SLURM_NET=${RD_SLURM_NET:-10.213.0}
RD_SLURM_CTLD_PORT=${RD_SLURM_CTLD_PORT:-16817}
RD_SLURM_SLURMD_PORT=${RD_SLURM_SLURMD_PORT:-16818}

slurm_id=$$
slurm_ns_ctl=rds${slurm_id}c
slurm_nodes=()          # node names: n1, n2, ...
slurm_dir=              # the temporary directory
slurm_pids=()           # daemons we started

# Runs a command in the controller's namespace with this cluster's config;
# "${slurm_ctl[@]}" is the same as a command prefix (for timeout and the like).
slurm_ctl=()
# A job this script runs in (SLURM_JOB_ID and the like) must not leak into
# the test cluster's srun: only SLURM_CONF is set.
while read -r _slurm_v; do unset "$_slurm_v"; done < <(compgen -e | grep '^SLURM_')
unset _slurm_v
in_ctl() {
    "${slurm_ctl[@]}" "$@"
}

# _slurm_host NETNS HOSTNAME CMD...: runs CMD as if on host HOSTNAME. nsenter
# rather than "ip netns exec", which would remount /sys and hide the cgroup
# file systems slurmd checks for at start.
#
# Each host also gets its own mount namespace, where $slurm_dir/tmp-HOST is
# mounted over $slurm_dir/tmp (TmpFS): Slurm's PMIx plugin names its per-step
# directory there by job and step only, so two nodes sharing one TmpFS would
# collide. /dev/shm stays shared, as between containers on one machine:
# whatever rdmpi puts there must not collide between nodes either.
_slurm_host() {
    local ns=$1 host=$2; shift 2
    mkdir -p "$slurm_dir/tmp-$host"
    nsenter --net="/run/netns/$ns" unshare --uts --mount --propagation private sh -c \
        'hostname "$0" && mount --bind "$1/tmp-$0" "$1/tmp" && shift && exec "$@"' \
        "$host" "$slurm_dir" "$@"
}

_slurm_log() { echo "slurm-cluster: $*" >&2; }

# Waits up to $1 seconds for the command in the remaining arguments to succeed.
_slurm_wait() {
    local t=$(( $1 * 10 )); shift
    while [ "$t" -gt 0 ]; do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.1
        t=$(( t - 1 ))
    done
    return 1
}

_slurm_write_conf() {
    local n i cpus=$1
    cat >"$slurm_dir/slurm.conf" <<CONF
# Written by rdmpi test/slurm/cluster.sh; removed with the cluster.
ClusterName=rdmpitest
SlurmctldHost=ctl($RD_SLURM_NET.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$RD_SLURM_CTLD_PORT
SlurmdPort=$RD_SLURM_SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$slurm_dir/munge/munge.socket
StateSaveLocation=$slurm_dir/ctld
SlurmdSpoolDir=$slurm_dir/spool-%n
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd-%n.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd-%n.log
TmpFS=$slurm_dir/tmp
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=10
CONF
    for n in "${slurm_nodes[@]}"; do
        i=${n#n}
        echo "NodeName=$n NodeAddr=$RD_SLURM_NET.$((10 + i)) CPUs=$cpus State=UNKNOWN" >>"$slurm_dir/slurm.conf"
    done
    echo "PartitionName=rd Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE" \
        >>"$slurm_dir/slurm.conf"
}

_slurm_net_up() {
    local n i
    ip netns add "$slurm_ns_ctl" || return 1
    ip -n "$slurm_ns_ctl" link set lo up
    ip -n "$slurm_ns_ctl" link add br0 type bridge
    ip -n "$slurm_ns_ctl" addr add "$RD_SLURM_NET.1/24" dev br0
    ip -n "$slurm_ns_ctl" link set br0 up
    for n in "${slurm_nodes[@]}"; do
        i=${n#n}
        ip netns add "rds${slurm_id}$n" || return 1
        ip -n "rds${slurm_id}$n" link set lo up
        # Both ends are created inside the namespaces: no name in the host's.
        ip -n "$slurm_ns_ctl" link add "v$n" type veth peer name eth0 netns "rds${slurm_id}$n" || return 1
        ip -n "$slurm_ns_ctl" link set "v$n" master br0
        ip -n "$slurm_ns_ctl" link set "v$n" up
        ip -n "rds${slurm_id}$n" addr add "$RD_SLURM_NET.$((10 + i))/24" dev eth0
        ip -n "rds${slurm_id}$n" link set eth0 up
    done
}

# Namespaces and directories of this script whose shell is gone (it was
# killed with SIGKILL, so its EXIT trap never ran): whatever still runs in the
# namespaces is ended, and both are removed. Only names this script makes:
# rds<PID>c, rds<PID>n<N> and $TMPDIR/rdmpi-slurm-<PID>.*.
_slurm_reap_stale() {
    local ns pid pids d
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^rds[0-9]+(c|n[0-9]+)$'); do
        pid=${ns#rds}; pid=${pid%%[cn]*}
        kill -0 "$pid" 2>/dev/null && continue
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
        ip netns del "$ns" 2>/dev/null && _slurm_log "removed stale namespace $ns"
    done
    for d in "${TMPDIR:-/tmp}"/rdmpi-slurm-*.*; do
        [ -d "$d" ] || continue
        pid=${d##*/rdmpi-slurm-}; pid=${pid%%.*}
        case $pid in ''|*[!0-9]*) continue ;; esac
        kill -0 "$pid" 2>/dev/null && continue
        rm -rf "$d" && _slurm_log "removed stale directory $d"
    done
}

# slurm_cluster_up NNODES [CPUS_PER_NODE]: starts munged, slurmctld and one
# slurmd per node, and waits until every node is idle. Returns non-zero (after
# printing why) on failure; call slurm_cluster_down in every case.
slurm_cluster_up() {
    local nnodes=$1 cpus=${2:-4} n

    _slurm_reap_stale
    slurm_nodes=()
    for ((n = 1; n <= nnodes; n++)); do slurm_nodes+=("n$n"); done
    slurm_dir=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-slurm-$slurm_id.XXXXXX") || return 1
    mkdir -p "$slurm_dir/munge" "$slurm_dir/ctld" "$slurm_dir/tmp"
    chmod 711 "$slurm_dir" "$slurm_dir/munge"   # clients reach the socket
    for n in "${slurm_nodes[@]}"; do mkdir -p "$slurm_dir/spool-$n"; done
    _slurm_write_conf "$cpus"
    slurm_ctl=(nsenter --net="/run/netns/$slurm_ns_ctl" env SLURM_CONF="$slurm_dir/slurm.conf")

    _slurm_net_up || { _slurm_log "could not create the network namespaces"; return 1; }

    # munge: our own key and socket; --origin avoids a name lookup.
    dd if=/dev/urandom of="$slurm_dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$slurm_dir/munge/munge.key"
    # In the controller's namespace (a Unix socket works across network
    # namespaces), so that a later run can find and end it if we are killed.
    nsenter --net="/run/netns/$slurm_ns_ctl" munged --foreground --force --socket="$slurm_dir/munge/munge.socket" \
        --key-file="$slurm_dir/munge/munge.key" --pid-file="$slurm_dir/munge/munged.pid" \
        --log-file="$slurm_dir/munge/munged.log" --seed-file="$slurm_dir/munge/munge.seed" \
        --origin=127.0.0.1 --num-threads=2 </dev/null >"$slurm_dir/munge/munged.out" 2>&1 &
    slurm_pids+=($!)
    if ! _slurm_wait 10 test -S "$slurm_dir/munge/munge.socket"; then
        _slurm_log "munged did not start:"; cat "$slurm_dir/munge/munged.out" "$slurm_dir/munge/munged.log" >&2
        return 1
    fi

    # Each daemon's hostname is its name in slurm.conf: slurmctld checks it
    # is SlurmctldHost, slurmd takes it as its NodeName.
    _slurm_host "$slurm_ns_ctl" ctl slurmctld -D -i -f "$slurm_dir/slurm.conf" \
        </dev/null >"$slurm_dir/slurmctld.out" 2>&1 &
    slurm_pids+=($!)
    for n in "${slurm_nodes[@]}"; do
        _slurm_host "rds${slurm_id}$n" "$n" slurmd -D -f "$slurm_dir/slurm.conf" \
            </dev/null >"$slurm_dir/slurmd-$n.out" 2>&1 &
        slurm_pids+=($!)
    done
    if ! _slurm_wait 60 _slurm_all_idle "$nnodes"; then
        _slurm_log "the nodes did not become idle:"
        in_ctl sinfo -N >&2
        tail -n 20 "$slurm_dir"/*.log "$slurm_dir"/*.out >&2
        return 1
    fi
    return 0
}

_slurm_all_idle() {
    [ "$(in_ctl sinfo -h -N -t idle -o %N 2>/dev/null | wc -l)" -eq "$1" ]
}

# True when process $1 has ended (a zombie has: it only waits to be reaped).
_slurm_gone() {
    local st
    st=$(cut -d')' -f2 "/proc/$1/stat" 2>/dev/null) || return 0
    [[ $st == " Z"* ]]
}

# Stops everything slurm_cluster_up started and removes its traces. Safe to
# call more than once and after a partial start.
slurm_cluster_down() {
    local ns p pids
    # Everything still running inside our namespaces (daemons, slurmstepd,
    # ranks), then the daemons we started outside them (munged).
    for ns in "$slurm_ns_ctl" "${slurm_nodes[@]/#/rds${slurm_id}}"; do
        [ -e "/run/netns/$ns" ] || continue
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -TERM $pids 2>/dev/null
    done
    for p in "${slurm_pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${slurm_pids[@]}"; do
        _slurm_wait 5 _slurm_gone "$p" || kill -KILL "$p" 2>/dev/null
    done
    for ns in "$slurm_ns_ctl" "${slurm_nodes[@]/#/rds${slurm_id}}"; do
        [ -e "/run/netns/$ns" ] || continue
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    wait 2>/dev/null
    slurm_pids=()
    if [ -n "$slurm_dir" ] && [ -d "$slurm_dir" ] && [ -z "${RD_SLURM_KEEP_DIR:-}" ]; then
        rm -rf "$slurm_dir"
    fi
}
