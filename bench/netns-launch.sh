# netns-launch.sh: how rdmpi, MPICH and Open MPI start one job on the two
# network-namespace "hosts" of test/multihost/netns.sh (its namespaces 0
# and 1), all talking TCP over the veth between them. Sourced, after
# netns.sh, by bench/multihost.sh and apps/ramp/bench.sh, so that both
# launch every library the same way.
#
# mh_launchers DIR MPIRUN [MAP] writes into DIR:
#   on-host NS CMD...   CMD in namespace NS (ip netns exec); with MH_PIN=1
#                       in the environment, under "taskset -c" on NS's
#                       CPUs when MH_PIN_CPUS0 and MH_PIN_CPUS1 (the CPU
#                       lists of namespace 0 and 1) are set
#   in-host NS CMD...   the same with NS as its host name
#   agent HOST CMD...   the rsh agent of Hydra and Open MPI's mpirun
#   run-rdmpi, run-mpich, run-openmpi, run-openmpi-rma: "run-LIB -np N
#                       PROGRAM ARGS..." starts N ranks, half in each
#                       namespace, from namespace 0; MPIRUN is rdmpi's
#                       mpirun. MAP block (default): the first half of the
#                       ranks in namespace 0; node: the ranks alternate
#                       between the two. When MH_PIN_PER_HOST is set, a
#                       wrapper sets MH_PIN=1 if each rank of a host can
#                       have one of that host's CPUs.
# bench/multihost.sh --help shows the launch lines.
# shellcheck shell=bash

mh_launchers() {
    local dir=$1 mpirun=$2 map=${3:-block} ns0=${MH_PREFIX}0 ns1=${MH_PREFIX}1 \
        ip0=$MH_NET.1 ip1=$MH_NET.2 l f rdmpi_map='' mpich_hosts ompi_map=''
    local onhost=$dir/on-host inhost=$dir/in-host agent=$dir/agent
    # shellcheck disable=SC2016 # the wrapper's own $ expansions
    {
        echo '#!/bin/sh'
        echo 'ns=$1'
        echo 'shift'
        if [ -n "${MH_PIN_CPUS0:-}" ] && [ -n "${MH_PIN_CPUS1:-}" ]; then
            echo 'if [ "${MH_PIN:-0}" = 1 ]; then'
            echo '    case $ns in'
            echo "    $ns0) set -- taskset -c $MH_PIN_CPUS0 \"\$@\" ;;"
            echo "    $ns1) set -- taskset -c $MH_PIN_CPUS1 \"\$@\" ;;"
            echo '    esac'
            echo 'fi'
        fi
        echo 'exec ip netns exec "$ns" "$@"'
    } >"$onhost"
    # in-host: all namespaces would otherwise share this machine's name,
    # and Open MPI names its shared-memory segments (vader) after the host
    # name, job and local rank: the ranks of two "hosts" would open the
    # same segment and crash. rdmpi keys its segments by PMIx node id.
    cat >"$inhost" <<EOF
#!/bin/sh
ns=\$1
shift
exec $onhost "\$ns" unshare -u /bin/sh -c 'hostname "\$0" && exec "\$@"' "\$ns" "\$@"
EOF
    # agent: Open MPI's rsh launcher and Hydra's call it like ssh, with the
    # command as shell words; HOST is one of the namespaces' addresses
    # (names would need resolving). It inherits MH_PIN from the launcher.
    cat >"$agent" <<EOF
#!/bin/sh
host=\$1
shift
case \$host in
$ip0) ns=$ns0 ;;
$ip1) ns=$ns1 ;;
*) echo "agent: unknown host \$host" >&2; exit 255 ;;
esac
exec $inhost "\$ns" /bin/sh -c "\$*"
EOF
    # Alternating ranks: rdmpi and Open MPI map by node over k slots per
    # host; Hydra fills each host's slots in turn, so one slot per host
    # and it cycles.
    mpich_hosts="$ip0:\$k,$ip1:\$k"
    if [ "$map" = node ]; then
        rdmpi_map=' --map-by node' ompi_map=' --map-by node' mpich_hosts="$ip0:1,$ip1:1"
    fi
    for l in rdmpi mpich openmpi; do
        f=$dir/run-$l
        # shellcheck disable=SC2016 # the wrapper's own $ expansions
        {
            echo '#!/bin/sh'
            echo '[ "$1" = -np ] || { echo "usage: $0 -np N program [args]" >&2; exit 2; }'
            echo 'n=$2; shift 2; k=$(( (n + 1) / 2 ))'
            if [ -n "${MH_PIN_PER_HOST:-}" ]; then
                echo "MH_PIN=0; [ \$k -le $MH_PIN_PER_HOST ] && MH_PIN=1; export MH_PIN"
            fi
            case $l in
            rdmpi) echo "exec $onhost $ns0 $mpirun -hosts $ns0:\$k,$ns1:\$k$rdmpi_map --launch-agent $onhost --bind-to none -genv RDMPI_TCP_IF eth0 -np \$n \"\$@\"" ;;
            mpich) echo "exec $inhost $ns0 mpiexec.mpich -launcher rsh -launcher-exec $agent -iface eth0 -hosts $mpich_hosts -np \$n -genv UCX_TLS tcp -genv UCX_NET_DEVICES eth0 \"\$@\"" ;;
            openmpi) echo "exec $inhost $ns0 mpirun.openmpi --allow-run-as-root --host $ip0:\$k,$ip1:\$k$ompi_map -np \$n --bind-to none --mca plm_rsh_agent $agent --mca pml ob1 --mca btl tcp,vader,self --mca btl_tcp_if_include $MH_NET.0/24 --mca oob_tcp_if_include $MH_NET.0/24 \"\$@\"" ;;
            esac
        } >"$f"
    done
    # Open MPI's one-sided runs: osc/rdma needs a BTL with RDMA, which tcp
    # is not, and Debian's openmpi-mca-params.conf leaves out osc/ucx and
    # osc/pt2pt, so MPI_Win_allocate fails with MPI_ERR_WIN. osc/ucx over
    # UCX tcp, as MPICH runs, only for those runs, so the point-to-point
    # ones load no UCX component next to ob1.
    sed 's|--mca pml ob1|--mca osc ucx -x UCX_TLS=tcp -x UCX_NET_DEVICES=eth0 --mca pml ob1|' \
        "$dir/run-openmpi" >"$dir/run-openmpi-rma"
    chmod +x "$onhost" "$inhost" "$agent" "$dir"/run-rdmpi "$dir"/run-mpich \
        "$dir"/run-openmpi "$dir"/run-openmpi-rma
}
