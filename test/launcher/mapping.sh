#!/bin/bash
# Where a host's ranks go and what they are bound to: --map-by
# core|socket|numa|ppr:N:resource, --bind-to socket|numa|hwthread, and the
# reports --report-bindings and --display-map. Topologies other than this
# machine's come from hwloc's synthetic descriptions (HWLOC_SYNTHETIC) laid
# on CPUs 0 and 1 (HWLOC_THISSYSTEM=1 lets hwloc bind with them).
. "${srcdir:-.}/test/launcher/lib.sh"

cpus_cmd='sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status'
mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)

# --report-bindings: one line per rank, saying what the rank really has.
run_mpirun -n 2 --report-bindings --tag-output sh -c "$cpus_cmd" $MARK
expect_rc "--report-bindings" 0
ok=1
for r in 0 1; do
    got=$(sed -n "s/^\[$r\] //p" "$T/out")
    line=$(grep -E "^mpirun: rank $r \(pid [0-9]+\) on host [^ ]+: " "$T/err")
    case "$line" in
    *": not bound") [ "$got" = "$mine" ] || ok=0 ;;
    *": bound to core "[0-9]*" (cpus $got)") ;;
    *) ok=0 ;;
    esac
done
if [ $ok = 1 ]; then
    pass "--report-bindings says what each rank is bound to"
else
    fail "--report-bindings: stdout $(tr '\n' ' ' <"$T/out"), stderr $(tr '\n' ' ' <"$T/err")"
fi

# --display-map, and --report-bindings from a host daemon too.
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$T/agent"
chmod +x "$T/agent"
run_mpirun -hosts localhost:1,lt-other-host:1 --launch-agent "$T/agent" -n 2 \
    --display-map --report-bindings true $MARK
expect_rc "--display-map on two hosts" 0
expect_grep "--display-map: rank 0" "$T/err" '^mpirun: map: rank 0 on host localhost \(local rank 0 of 1\): true$'
expect_grep "--display-map: rank 1" "$T/err" '^mpirun: map: rank 1 on host lt-other-host \(local rank 0 of 1\): true$'
expect_grep "--report-bindings from a host daemon" "$T/err" \
    '^mpirun: rank 1 \(pid [0-9]+\) on host lt-other-host: (bound to|not bound)'

# synth TOPOLOGY ARGS...: mpirun ARGS on that topology over CPUs 0-1; the
# ranks print their CPUs, tagged and sorted by rank into $T/out.
synth() {
    local topo=$1
    shift
    HWLOC_SYNTHETIC=$topo HWLOC_THISSYSTEM=1 run_mpirun "$@" --report-bindings --tag-output \
        sh -c "$cpus_cmd" $MARK
    sort -t] -k1.2n "$T/out" -o "$T/out"
}
# expect_cpus WHAT CPUS...: rank r printed the r-th CPU list.
expect_cpus() {
    local what=$1 r=0 want=""
    shift
    for c in "$@"; do
        want="$want[$r] $c|"
        r=$((r + 1))
    done
    if [ "$RC" -eq 0 ] && [ "$(tr '\n' '|' <"$T/out")" = "$want" ]; then
        pass "$what"
    else
        fail "$what: status $RC, got $(tr '\n' '|' <"$T/out") want $want; $(head -3 "$T/err")"
    fi
}

if [ "$mine" = "0-1" ]; then
    synth "pack:2 core:1 pu:1" -n 4 --map-by socket
    expect_cpus "--map-by socket: round-robin over sockets, bound to them" 0 1 0 1
    expect_grep "--map-by socket: reported" "$T/err" 'rank 3 .*: bound to socket 1 \(cpus 1\)$'
    synth "pack:1 core:1 pu:2" -n 2 --bind-to hwthread
    expect_cpus "--bind-to hwthread: a hardware thread of the core each" 0 1
    synth "pack:1 core:1 pu:2" -n 2 --bind-to core
    expect_cpus "--bind-to core: the whole core" 0-1 0-1
    synth "pack:1 numa:2 core:1 pu:1" -n 2 --map-by numa
    expect_cpus "--map-by numa" 0 1
    expect_grep "--map-by numa: reported" "$T/err" 'rank 1 .*: bound to numa 1 \(cpus 1\)$'
    synth "pack:2 core:1 pu:1" -n 2 --bind-to socket
    expect_cpus "--bind-to socket: the socket of each rank's core" 0 1
    synth "pack:1 core:2 pu:1" -n 2 --bind-to socket
    expect_cpus "--bind-to socket: one socket for both" 0-1 0-1
    # ppr: N per resource gives the number of ranks when -n is not given.
    synth "pack:2 core:1 pu:1" --map-by ppr:1:socket
    expect_cpus "--map-by ppr:1:socket: a rank per socket" 0 1
    synth "pack:1 core:2 pu:1" --map-by ppr:2:socket
    expect_cpus "--map-by ppr:2:socket: two ranks on the one socket" 0-1 0-1
    synth "pack:1 core:2 pu:1" --map-by ppr:2:node --bind-to core
    expect_cpus "--map-by ppr:2:node --bind-to core" 0 1
    synth "pack:1 core:2 pu:1" --map-by ppr:2:node
    expect_cpus "--map-by ppr:2:node: not bound" 0-1 0-1
else
    echo "info: CPUs $mine, not 0-1: the synthetic topologies are not tried"
fi

usage_error() {
    run_mpirun "$@"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^mpirun: ' "$T/err"; then
        pass "usage error: mpirun $*"
    else
        fail "mpirun $*: status $RC (expected 2), stderr: $(cat "$T/err")"
    fi
}
usage_error --map-by ppr:0:core true
usage_error --map-by ppr:2:board true
usage_error --map-by ppr:2 true
usage_error --map-by hwthread true
usage_error --bind-to board true

finish
