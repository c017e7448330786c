# Three "hosts" on this machine: network namespaces rdmpi-h0..h2 (the prefix
# is $MH_PREFIX), each with its own address on a bridge in the root
# namespace, joined by veth pairs. Sourced by the test/multihost scripts;
# mh_up creates them, mh_down (run by the EXIT trap the caller sets)
# removes them. Needs root (or CAP_NET_ADMIN and CAP_SYS_ADMIN).

MH_PREFIX=${MH_PREFIX:-rdmpi-h}
MH_BRIDGE=${MH_BRIDGE:-rdmpibr$$}
MH_NET=${MH_NET:-10.201.$(( $$ % 200 + 20 ))}
MH_HOSTS="${MH_PREFIX}0 ${MH_PREFIX}1 ${MH_PREFIX}2"

mh_down() {
    local i
    for i in 0 1 2; do
        ip netns del "${MH_PREFIX}$i" 2>/dev/null
        ip link del "${MH_PREFIX}$i-v" 2>/dev/null
    done
    ip link del "$MH_BRIDGE" 2>/dev/null
    return 0
}

mh_up() {
    local i ns
    if [ "$(id -u)" -ne 0 ]; then
        echo "SKIP: network namespaces need root"
        return 77
    fi
    mh_down
    ip link add "$MH_BRIDGE" type bridge || return 1
    ip link set "$MH_BRIDGE" up || return 1
    for i in 0 1 2; do
        ns=${MH_PREFIX}$i
        ip netns add "$ns" || return 1
        ip link add "$ns-v" type veth peer name eth0 netns "$ns" || return 1
        ip link set "$ns-v" master "$MH_BRIDGE" up || return 1
        ip -n "$ns" addr add "$MH_NET.$((i + 1))/24" dev eth0 || return 1
        ip -n "$ns" link set eth0 up || return 1
        ip -n "$ns" link set lo up || return 1
    done
    return 0
}
