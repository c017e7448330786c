#!/bin/bash
# guest-suite.sh: runs inside run-in-vm.sh guests (see check-rdma.sh), from
# the build tree. Node 0 runs the MPI test lists once per transport
# configuration with test/mpi/runtests.sh; with several guests the ranks are
# spread over all of them (mpirun -hosts ... --launch-agent vm-agent.sh) and
# the other guests run vm-runner.sh until node 0 is done.
#
# Usage: guest-suite.sh [-c CONFIGS] [-l CLIST] [-f FLIST]
#   -c CONFIGS  transport configurations, separated by ';', each
#               "NAME:VAR=VAL VAR=VAL..." (default: $RDMA_VM_CONFIGS, else
#               rc send/recv only, rc with RDMA-Write eager from the first
#               message, ud, ud with 5 % packet drops); one that sets
#               RDMPI_UD_DROP_RATE or RDMPI_RC_FAULT is SKIP unless the
#               library was configured with --enable-fault-injection
#   -l CLIST    testlist of C programs (default rdma.testlist here; "-" = none)
#   -f FLIST    testlist of Fortran programs (default fortran.testlist; "-" = none)
# Environment: RUNTESTS_TIMEOUT (per case, default 600: only catches hangs),
#   RDMA_VM_MPIRUN_ARGS (launcher arguments for several guests, default
#   "-hosts node0,..,nodeN-1 --map-by node --launch-agent vm-agent.sh").
# Prints one line per case (with its wall time), "rdma-vm (WHERE) config NAME:
# N passed, N failed, S s" per configuration and "rdma-vm (WHERE): N passed, N
# failed" at the end (the raw verbs check included); exit 0 iff all passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
nodes=${RXE_NODES:-1}

# Emulated guests can go quiet for seconds: mpirun and its host daemons must
# not take that for a lost host (nor a daemon slow to start its ranks: the
# launch limit is at least this too; under load that takes over 60 s).
export RDMPI_HEARTBEAT_TIMEOUT=${RDMPI_HEARTBEAT_TIMEOUT:-300}
# Nor may an RC QP take a guest that was not scheduled for half a second for
# a dead peer (4.096 us x 2^20 = 4.3 s per try instead of 67 ms; under load
# a 2-guest job lost a QP in MPI_Finalize's barrier). Passed with -x below.
export RDMPI_RC_TIMEOUT=${RDMPI_RC_TIMEOUT:-20}
if [ "${RXE_NODE_ID:-0}" != 0 ]; then
    exec "$here/vm-runner.sh"
fi

configs=${RDMA_VM_CONFIGS:-"rc:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=0;rc-eager:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=1 RDMPI_RDMA_EAGER_THRESHOLD=1;ud:RDMPI_TRANSPORTS=ud;ud-drop:RDMPI_TRANSPORTS=ud RDMPI_UD_DROP_RATE=0.05"}
clist=$here/rdma.testlist
flist=$here/fortran.testlist
while getopts "c:l:f:" opt; do
    case $opt in
    c) configs=$OPTARG ;;
    l) clist=$OPTARG ;;
    f) flist=$OPTARG ;;
    *) echo "usage: $0 [-c CONFIGS] [-l CLIST] [-f FLIST]" >&2; exit 2 ;;
    esac
done

# Release the other guests however this ends.
trap 'touch "${RDMPI_VM_DROP:-/nonexistent}/stop" 2>/dev/null' EXIT

export RUNTESTS_TIMEOUT=${RUNTESTS_TIMEOUT:-600}
# each case's line ends with its wall time: shows which cases are slow
export RUNTESTS_TIMES=${RUNTESTS_TIMES:-1}
if [ "$nodes" -gt 1 ]; then
    hosts=node0
    for ((i = 1; i < nodes; i++)); do hosts="$hosts,node$i"; done
    export MPIRUN_ARGS=${RDMA_VM_MPIRUN_ARGS:-"-hosts $hosts --map-by node --launch-agent $here/vm-agent.sh"}
    where="$nodes guests"
else
    where="1 guest"
fi

passed=0 failed=0
tally() {  # $1 = runtests.sh output file
    local p f s
    p=$(grep -cE '^(PASS|XFAIL) ' "$1")
    f=$(grep -cE '^(FAIL|XPASS) ' "$1")
    s=$(grep -cE '^SKIP ' "$1")   # e.g. a when=RDMPI_TRANSPORTS=rc case under ud
    # runtests.sh ran no case at all (bad list, broken environment)
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
        echo "FAIL [$name] no test case ran"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    cfg_p=$((cfg_p + p))
    cfg_f=$((cfg_f + f))
}

# After a configuration with failures: the state of every guest, so that a
# failure in CI (where only the log is left) says whether the guests, their
# link or their rxe devices were still sound. Each line starts "health".
health() {  # $1 = configuration name
    local i peer probe
    # shellcheck disable=SC2016
    probe='echo "rxe: $(ibv_devinfo -d "${RXE_DEV:-rxe0}" 2>&1 | grep -m1 -o "PORT_[A-Z_]*" || echo "no device")"
        # a TCP connect to a closed port: refused at once if the peer is up
        r=$(timeout 5 bash -c "exec 3<>/dev/tcp/$1/9" 2>&1); rc=$?
        case $rc:$r in
        0:* | *refused*) echo "peer: $1 reachable" ;;
        124:*) echo "peer: $1 unreachable (no answer in 5 s)" ;;
        *) echo "peer: $1: $r" ;;
        esac
        echo "/dev/shm: $(df -k /dev/shm | awk "NR==2 {print \$4 \" KiB free of \" \$2}"), $(ls /dev/shm | wc -l) files"
        echo "processes of this build: $(ps -eo args= | grep -cE "^[^ ]*/(test/mpi/[^ ]*|mpirun/mpirun|apps/ramp/[^ ]*)( |\$)")"
        dmesg 2>/dev/null | grep -E "rxe|rdma|[Oo]ut of memory|segfault|BUG:|WARNING:" | grep -vE "rdma_rxe: loaded|set active|added eth0|ommand line:" | tail -n 5 | sed "s/^/kernel: /"'
    for ((i = 0; i < nodes; i++)); do
        peer=node$(( (i + 1) % nodes ))
        [ "$nodes" -eq 1 ] && peer=127.0.0.1
        if [ "$i" = "${RXE_NODE_ID:-0}" ]; then
            timeout 30 bash -c "$probe" _ "$peer"
        else
            timeout 60 "$here/vm-agent.sh" "node$i" bash -c "$probe" _ "$peer" </dev/null
        fi 2>&1 | sed "s/^/health [$1] node$i: /"
    done
    # RC through the two devices without rdmpi: perftest's ping-pong
    if [ "$nodes" -gt 1 ]; then
        local dev=${RXE_DEV:-rxe0} g=${RXE_GID_INDEX:-1} sp
        timeout 40 "$here/vm-agent.sh" node1 ibv_rc_pingpong -d "$dev" -g "$g" -n 10 </dev/null >/dev/null 2>&1 &
        sp=$!
        sleep 3
        if timeout 30 ibv_rc_pingpong -d "$dev" -g "$g" -n 10 node1 >/dev/null 2>&1; then
            echo "health [$1] node0: ibv_rc_pingpong node0-node1: passed"
        else
            echo "health [$1] node0: ibv_rc_pingpong node0-node1: failed"
        fi
        wait "$sp"
    fi
}

# A raw verbs check first: the device is up and RC works through it.
echo "== rdma-vm ($where): raw verbs"
if ibv_devinfo -d "${RXE_DEV:-rxe0}" | grep -q PORT_ACTIVE; then
    echo "PASS ibv_devinfo ${RXE_DEV:-rxe0} PORT_ACTIVE"
    passed=$((passed + 1))
else
    echo "FAIL ibv_devinfo: no active port on ${RXE_DEV:-rxe0}"
    failed=$((failed + 1))
fi

# The test-only fault knobs exist only in a library configured with
# --enable-fault-injection; a configuration that sets one is SKIP without
# them (it would run, but without the faults it is there to test).
fault_lib=no
grep -qs '^#define RD_FAULT_INJECTION 1' "$PWD/config.h" && fault_lib=yes

out=$(mktemp "${TMPDIR:-/tmp}/rdma-vm-suite.XXXXXX")

# rdmpi_info sees the device: rc and ud usable, port 1 active with a RoCE v2
# GID of the guest's IPv4 address chosen, and no tunable of this
# environment refused (RDMPI_VM_DROP, the harness's, is declared too, as
# a test-only variable).
echo "== rdma-vm ($where): rdmpi_info"
./src/info/rdmpi_info >"$out" 2>&1
dev=${RXE_DEV:-rxe0}
gidx=$(sed -n "s/^  $dev port 1: active, Ethernet, .*GID index used: \([0-9]*\) .*/\1/p" "$out")
if grep -Eq '^  rc +built +usable ' "$out" && grep -Eq '^  ud +built +usable ' "$out" &&
   [ -n "$gidx" ] && grep -Eq "^    GID $gidx +[0-9a-f:]*ffff:[0-9a-f]{4}:[0-9a-f]{4}  RoCE v2" "$out" &&
   ! grep -q INVALID "$out"; then
    echo "PASS rdmpi_info: rc, ud usable; $dev GID index $gidx"
    passed=$((passed + 1))
else
    echo "FAIL rdmpi_info:"
    sed 's/^/    /' "$out"
    failed=$((failed + 1))
fi
IFS=';' read -r -a cfgs <<<"$configs"
for cfg in "${cfgs[@]}"; do
    name=${cfg%%:*}
    vars=${cfg#*:}
    [ -n "$name" ] || continue
    case " $vars" in
    *" RDMPI_UD_DROP_RATE="* | *" RDMPI_RC_FAULT="*)
        if [ $fault_lib = no ]; then
            echo "SKIP [$name] configuration [$vars]: needs a library configured with --enable-fault-injection"
            echo "rdma-vm ($where) config $name: SKIP (needs --enable-fault-injection)"
            continue
        fi ;;
    esac
    cfg_p=0 cfg_f=0 cfg_t0=$(date +%s)
    for kind in c f; do
        if [ $kind = c ]; then list=$clist; dir=$PWD/test/mpi; else list=$flist; dir=$PWD/test/fortran; fi
        [ "$list" = - ] && continue
        echo "== rdma-vm ($where): $name [$vars] $(basename "$list")"
        # The configuration must reach ranks on other guests too: host
        # daemons do not pass on mpirun's environment, -x does.
        xargs="-x RDMPI_RC_TIMEOUT=$RDMPI_RC_TIMEOUT"
        for v in $vars; do xargs="$xargs -x $v"; done
        # shellcheck disable=SC2086
        env $vars MPI_TEST_DIR="$dir" MPIRUN_ARGS="$xargs ${MPIRUN_ARGS:-}" bash "$top/test/mpi/runtests.sh" -l "$list" 2>&1 |
            tee "$out" | sed -u "s/^\(PASS\|FAIL\|XFAIL\|XPASS\) /\1 [$name] /"
        tally "$out"
    done
    echo "rdma-vm ($where) config $name: $cfg_p passed, $cfg_f failed, $(( $(date +%s) - cfg_t0 )) s"
    [ "$cfg_f" -gt 0 ] && health "$name"
done
rm -f "$out"
echo "rdma-vm ($where): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
