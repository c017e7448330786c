#!/bin/bash
# rdmpi ranks over three hosts (network namespaces) started by MPICH's
# Hydra (mpiexec.hydra, in host 0): its rsh launcher reaches the other
# hosts through an agent that runs the proxy with 'ip netns exec', and the
# ranks bootstrap over PMI-1. Checks what each rank learns (one node per
# host, round-robin placement) and runs a point-to-point and a collective
# test program at np 2 and 4.
. "${srcdir:-.}/test/multihost/lib.sh"

HYDRA=$(command -v mpiexec.hydra || true)
if [ -z "$HYDRA" ]; then
    echo "SKIP: mpiexec.hydra is not installed (Debian's mpich package)"
    exit 77
fi
need_built check "$builddir/test/mpi/p2p_order" "$builddir/test/mpi/coll_ops"

# Hydra names hosts by address (the namespaces have no names it can
# resolve); the agent maps an address to its namespace.
cat >"$T/agent" <<EOS
#!/bin/sh
h=\$1; shift
case \$h in
$MH_NET.1) ns=$H0 ;; $MH_NET.2) ns=$H1 ;; $MH_NET.3) ns=$H2 ;;
*) echo "hydra agent: unknown host \$h" >&2; exit 1 ;;
esac
exec ip netns exec "\$ns" sh -c "\$*"
EOS
chmod +x "$T/agent"
hydra() {
    timeout 120 ip netns exec "$H0" "$HYDRA" -launcher rsh -launcher-exec "$T/agent" \
        -iface eth0 -hosts "$MH_NET.1,$MH_NET.2,$MH_NET.3" "$@" </dev/null >"$T/out" 2>"$T/err"
}

# Round-robin: ranks 0 and 3 on host 0, 1 on host 1, 2 on host 2; each
# host's ranks share a node id and a network namespace, other hosts' not.
hydra -n 4 "$CLIENT" info exchange where mark=$TEST_NAME-$$
rc=$?
sed -E 's/ job_id [^ ]+ host [^ ]+//' "$T/out" | grep '^rank' | sort >"$T/info"
printf '%s\n' \
    "rank 0 size 4 local_rank 0 local_size 2 local_ranks 0,3 univ 4 appnum 0 singleton 0 node 0" \
    "rank 1 size 4 local_rank 0 local_size 1 local_ranks 1 univ 4 appnum 0 singleton 0 node 1" \
    "rank 2 size 4 local_rank 0 local_size 1 local_ranks 2 univ 4 appnum 0 singleton 0 node 2" \
    "rank 3 size 4 local_rank 1 local_size 2 local_ranks 0,3 univ 4 appnum 0 singleton 0 node 0" \
    >"$T/expected"
nets=$(awk '$1 == "where" { print $3, $2 }' "$T/out" | sort -k1,1 -k2n |
    awk '{ n[$1] = n[$1] " " $2 } END { for (k in n) print n[k] }' | sort | tr '\n' '/')
if [ $rc -eq 0 ] && cmp -s "$T/expected" "$T/info" && [ "$nets" = " 0 3/ 1/ 2/" ] &&
   [ "$(grep -c '^exchange ok' "$T/out")" -eq 4 ]; then
    pass "hydra -n 4 over 3 hosts: ranks, nodes, exchange"
else
    fail "hydra -n 4 over 3 hosts: ranks, nodes, exchange (exit $rc, namespaces '$nets')"
    diff "$T/expected" "$T/info" | sed 's/^/    /'
    tail -5 "$T/err" | sed 's/^/    stderr: /'
fi

for np in 2 4; do
    for p in p2p_order coll_ops; do
        hydra -n $np "$builddir/test/mpi/$p" mark=$TEST_NAME-$$
        rc=$?
        if [ $rc -eq 0 ] && grep -q '^ No Errors$' "$T/out"; then
            pass "hydra -n $np $p over 3 hosts"
        else
            fail "hydra -n $np $p over 3 hosts (exit $rc)"
            tail -5 "$T/out" "$T/err" | sed 's/^/    /'
        fi
    done
done
check_leftovers "hydra"
finish
