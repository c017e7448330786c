#!/bin/bash
# bench.sh: rdmpi-ramp's benchmark matrix, as in Murata, Kawashima and
# Tatebe's study: each method (rpc, plus, star, s2pl) at 0, 25, 50, 75 and
# 100 % read transactions, and the micro-benchmark (95 % reads, transaction
# size 2, 4, 8, 16), on shared memory and over TCP on this host
# (RDMPI_TRANSPORTS=tcp with --window create, so that one-sided operations
# travel over TCP too; Open MPI: --mca btl tcp,self), optionally with the
# same program built against MPICH (not on tcp: it has no switch to keep
# node peers off shared memory) and Open MPI. It
# prints a table of transactions per second with each method's ratio to
# rpc, keeps the summaries as CSV and draws bar charts (bench/chart.sh)
# when gnuplot is there.
#
# Run from the build directory (or set RAMP and MPIRUN):
#   ../apps/ramp/bench.sh [--quick] [--seconds S] [--np N] [--servers S]
#       [--transports shm,tcp,netns,rxe] [--methods rpc,plus,star,s2pl]
#       [--reads 0,100] [--sizes 2,8|none] [--rounds N] [--with mpich,openmpi]
#       [--out DIR]
# --quick: 0.5 s per run, r0 and r100, sizes 2 and 8 (checks the script).
# --reads, --sizes: the read percentages and the micro-benchmark's sizes
# to run (default all; --sizes none skips the micro-benchmark).
# --rounds N: the whole matrix N times over, the table keeps each cell's
# best (the run least disturbed by other work); the CSV has every run.
# Transport netns (needs root): two network namespaces joined by veth act
# as two hosts (test/multihost/netns.sh), the ranks alternate between them
# (so do the servers), and talk TCP across; each library is started as
# bench/multihost.sh starts it (bench/netns-launch.sh), Open MPI with
# osc/ucx over UCX's tcp for the windows.
# Transport rxe (rdmpi only; needs root the first time): the study's
# transport comparison in a QEMU guest with Soft-RoCE
# (test/rdma-vm/run-in-vm.sh boots it): rpc over tcp, then each method
# over rc, with ratios to rpc over tcp. The servers and the clients are
# two hosts of one job in the guest (the second started through
# bench/verbs/local-agent.sh), so every request crosses the transport and
# the windows are reached by RDMA, not shared memory. Emulated RDMA is
# the guest's kernel copying packets: it measures CPU cost, not a NIC.
# Throughput depends on what else the machine runs: measure on an idle one.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
args=("$@")
RAMP=${RAMP:-$PWD/apps/ramp/rdmpi-ramp}
MPIRUN=${MPIRUN:-$PWD/mpirun/mpirun}
seconds=5
np=8
servers=2
transports=shm,tcp
with=
out=ramp-bench
reads_list="0 25 50 75 100"
sizes="2 4 8 16"
methods="rpc plus star s2pl"
reads_opt='' sizes_opt='' in_guest=0 rounds=1

usage() { sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case $1 in
    --quick) seconds=0.5; reads_list="0 100"; sizes="2 8" ;;
    --reads) reads_opt=${2//,/ }; shift ;;
    --sizes) sizes_opt=${2//,/ }; shift ;;
    --rounds) rounds=$2; shift ;;
    --in-guest) in_guest=1 ;;  # the rxe transport's part, run in the guest
    --seconds) seconds=$2; shift ;;
    --np) np=$2; shift ;;
    --servers) servers=$2; shift ;;
    --transports) transports=$2; shift ;;
    --methods) methods=${2//,/ }; shift ;;
    --with) with=$2; shift ;;
    --out) out=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
[ -n "$reads_opt" ] && reads_list=$reads_opt
[ -n "$sizes_opt" ] && sizes=$sizes_opt
[ "$sizes" = none ] && sizes=
case $rounds in '' | *[!0-9]* | 0) echo "bench.sh: --rounds takes a positive count, not '$rounds'" >&2; exit 2 ;; esac
[ -x "$RAMP" ] || { echo "bench.sh: $RAMP is not built (run make, or set RAMP)" >&2; exit 2; }
mkdir -p "$out" && out=$(cd "$out" && pwd)
csv=$out/results.csv
[ $in_guest = 1 ] ||
    echo "lib,transport,matrix,label,method,reads,txn_size,txn_per_s,p50_us,p99_us" >"$csv"

# run LIB TRANSPORT MATRIX LABEL METHOD READS SIZE: one run, one CSV row.
run() {
    local lib=$1 tr=$2 matrix=$3 label=$4 m=$5 reads=$6 size=$7 line prog mpirun env=() wargs=() retx='' \
        limit=$(( ${seconds%.*} * 4 + 120 )) rc
    case $lib in
    rdmpi) prog=$RAMP; mpirun=("$MPIRUN")
           [ "$tr" = tcp ] && env=(-x RDMPI_TRANSPORTS=tcp) && wargs=(--window create)
           case $tr in
           rxe-*) mpirun=("$MPIRUN" "${rxe_launch[@]}")
                  env=(-x "RDMPI_TRANSPORTS=${tr#rxe-}" -x RDMPI_HEARTBEAT_TIMEOUT
                       -x RDMPI_RC_TIMEOUT -x RDMPI_VERBOSE=1) ;;
           esac ;;
    mpich) prog=$out/rdmpi-ramp.mpich; mpirun=(mpirun.mpich) ;;
    openmpi) prog=$out/rdmpi-ramp.openmpi
             mpirun=(mpirun.openmpi --oversubscribe --allow-run-as-root)
             [ "$tr" = tcp ] && env=(--mca btl tcp,self) ;;
    esac
    if [ "$tr" = netns ]; then
        # MPICH's jobs across the namespaces sometimes hang in MPI_Finalize
        # after their summary (ranks in UCX's progress, the others in
        # PMI's barrier): a shorter limit, and the summary is kept.
        mpirun=("$mhdir/run-$lib") env=()
        [ "$lib" = openmpi ] && mpirun=("$mhdir/run-openmpi-rma")
        [ "$lib" = mpich ] && limit=$(( ${seconds%.*} * 2 + 30 ))
    fi
    [ "$tr" = rxe-rc ] && retx=$(rxe_retries)
    timeout $limit "${mpirun[@]}" "${env[@]}" -np "$np" "$prog" \
        --method "$m" --servers "$servers" --reads "$reads" --txn-size "$size" \
        --seconds "$seconds" "${wargs[@]}" >"$out/last.out" 2>"$out/last.err" </dev/null
    rc=$?
    line=$(grep '^ramp: ' "$out/last.out")
    [ -n "$line" ] && [ $rc = 124 ] &&
        echo "bench.sh: $lib $tr $m reads=$reads txn_size=$size: hung after its summary (kept), stopped at $limit s" >&2
    if [ -z "$line" ]; then
        echo "bench.sh: $lib $tr $m reads=$reads txn_size=$size failed:" >&2
        head -3 "$out/last.err" >&2
        echo "$lib,$tr,$matrix,$label,$m,$reads,$size,-,-,-" >>"$csv"
        return
    fi
    v() { echo "$line" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
    echo "$lib,$tr,$matrix,$label,$m,$reads,$size,$(v txn_per_s),$(v p50_us),$(v p99_us)" >>"$csv"
    [ "$tr" = rxe-rc ] && rxe_note "$m" "$reads" "$size" "$retx"
}

# The device's retransmissions so far (rxe's completer_retry_err: a packet
# resent after a NAK or the ack timeout), or nothing without the rdma tool.
rxe_retries() {
    rdma statistic show link "${RXE_DEV:-rxe0}/1" 2>/dev/null |
        awk '{ for (i = 1; i < NF; i++) if ($i == "completer_retry_err") print $(i + 1) }'
}
# rxe_note METHOD READS SIZE RETRIES_BEFORE: after a run over rc, the
# device's retransmissions during it and how the first client reached the
# servers' windows (RDMA and immediates, else a warning that the run did
# not measure the RDMA path).
rxe_note() {
    local m=$1 path='' retx=- now
    now=$(rxe_retries)
    [ -n "$4" ] && [ -n "$now" ] && retx=$((now - $4))
    if [ "$m" = plus ] || [ "$m" = star ]; then
        path=$(sed -n "s/^rdmpi: rank $servers: rma: .*targets by path: \([^;]*\);.*by immediate \([0-9]*\).*/\1; notified puts by immediate \2/p" "$out/last.err")
        case $path in
        *"rdma "[1-9]*) ;;
        *) echo "bench.sh: warning: $m over rc did not reach the servers by RDMA" >&2 ;;
        esac
        path="; rank $servers (a client): targets by path: ${path:-unknown}"
    fi
    echo "bench.sh: $m over rc, reads $2 size $3: retransmissions $retx$path"
}

# The rxe transport: on this host, boot a guest that runs this script with
# the same options (--in-guest); the guest appends its rows to the CSV
# (the build directory is shared with the guest, and so is --out).
rxe_guest() {
    local cells share=() abs
    cells=$(( ($(echo $reads_list | wc -w) + $(echo $sizes | wc -w)) * ($(echo $methods | wc -w) + 1) * rounds ))
    abs=$(cd "$out" && pwd)
    case $abs/ in "$PWD"/*) ;; *) share=(--share "$abs") ;; esac
    "$top/test/rdma-vm/run-in-vm.sh" "${share[@]}" -t $(( 300 + cells * (${seconds%.*} * 4 + 120) )) \
        -- "$here/bench.sh" "${args[@]}" --in-guest ||
        echo "bench.sh: the Soft-RoCE guest run failed (exit $?)" >&2
}
# In the guest: the servers on this host, the clients on a second "host"
# that is this guest too, so that every request crosses the transport.
rxe_launch=(-hosts "$(hostname):$servers,ramp-clients:$(( np - servers ))" --bind-to none
    --launch-agent "$top/bench/verbs/local-agent.sh")
if [ $in_guest = 1 ]; then
    # Emulated guests go quiet for seconds: no lost host, no dead RC peer.
    export RDMPI_HEARTBEAT_TIMEOUT=${RDMPI_HEARTBEAT_TIMEOUT:-300}
    export RDMPI_RC_TIMEOUT=${RDMPI_RC_TIMEOUT:-20}
    for ((round = 1; round <= rounds; round++)); do
        for r in $reads_list; do
            run rdmpi rxe-tcp reads "r$r" rpc "$r" 8
            for m in $methods; do run rdmpi rxe-rc reads "r$r" "$m" "$r" 8; done
        done
        for s in $sizes; do
            run rdmpi rxe-tcp micro "size$s" rpc 95 "$s"
            for m in $methods; do run rdmpi rxe-rc micro "size$s" "$m" 95 "$s"; done
        done
    done
    exit 0
fi

# Two "hosts" for the netns transport.
case ",$transports," in
*,netns,*)
    [ "$(id -u)" -eq 0 ] || { echo "bench.sh: --transports netns needs root" >&2; exit 2; }
    MH_PREFIX=rrb$$- MH_BRIDGE=rrbbr$$
    . "$top/test/multihost/netns.sh"
    . "$top/bench/netns-launch.sh"
    mhdir=$out/netns-launch
    mkdir -p "$mhdir" && mh_launchers "$mhdir" "$MPIRUN" node
    netns_down() {
        local ns
        for ns in $MH_HOSTS; do
            kill -9 $(ip netns pids "$ns" 2>/dev/null) 2>/dev/null
        done
        mh_down
        rm -rf "$mhdir"
    }
    trap netns_down EXIT
    mh_up || { echo "bench.sh: could not create the network namespaces" >&2; exit 2; } ;;
esac

libs=rdmpi
for l in ${with//,/ }; do
    case $l in
    mpich|openmpi)
        if "$here/build-with.sh" "mpicc.$l" "$out/rdmpi-ramp.$l" 2>"$out/build.$l.err"; then
            libs="$libs $l"
        else
            echo "bench.sh: cannot build with mpicc.$l (see $out/build.$l.err); skipped" >&2
        fi ;;
    *) echo "bench.sh: --with $l: mpich or openmpi" >&2; exit 2 ;;
    esac
done

for ((round = 1; round <= rounds; round++)); do
    for lib in $libs; do
        for tr in ${transports//,/ }; do
            [ "$lib" = mpich ] && [ "$tr" = tcp ] && continue
            [ "$lib" != rdmpi ] && [ "$tr" = rxe ] && continue
            [ "$tr" = rxe ] && { [ $round = 1 ] && rxe_guest; continue; }
            for m in $methods; do
                for r in $reads_list; do
                    run "$lib" "$tr" reads "r$r" "$m" "$r" 8
                done
                for s in $sizes; do
                    run "$lib" "$tr" micro "size$s" "$m" 95 "$s"
                done
            done
        done
    done
done

# The table and the charts' data: one row per (lib, transport, matrix,
# label), a column per method, then each method's ratio to rpc. The rxe
# rows make one table whose columns are (method, transport) pairs, with
# ratios to rpc over tcp.
rxecols="rpc-tcp"
for m in $methods; do rxecols="$rxecols $m-rc"; done
awk -F, -v out="$out" -v methods="$methods" -v rxecols="$rxecols" -v rounds="$rounds" '
NR > 1 { tr = $2; col = $5
         if (tr ~ /^rxe-/) { col = $5 "-" substr(tr, 5); tr = "rxe" }
         key = $1 " " tr " " $3; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
         lab = key SUBSEP $4; if (!(lab in seenl)) { seenl[lab] = 1; labels[key, ++nl[key]] = $4 }
         c = key SUBSEP $4 SUBSEP col
         if (!(c in tps) || tps[c] == "-" || ($8 != "-" && $8 + 0 > tps[c] + 0)) tps[c] = $8 }
END {
    for (k = 1; k <= nk; k++) {
        key = keys[k]; split(key, p, " ")
        if (p[2] == "rxe") { nm = split(rxecols, m, " "); base = "rpc-tcp"; where = "in a Soft-RoCE guest (emulated RDMA: CPU cost, not a NIC)" }
        else { nm = split(methods, m, " "); base = "rpc"; where = "over " p[2] }
        if (p[2] == "netns") where = where " (two hosts over TCP" \
            (p[1] == "mpich" ? "; UCX tcp, node peers too)" : \
             p[1] == "openmpi" ? "; pml ob1, btl tcp,vader,self; windows by osc/ucx over UCX tcp)" : ")")
        w = 10
        for (j = 1; j <= nm; j++) if (length(m[j] "/" base) > w) w = length(m[j] "/" base)
        printf "\n%s %s, %s (transactions/s%s; ratio to %s)\n", p[1], where, \
            p[3] == "reads" ? "read ratio, transaction size 8" : "95 % reads by transaction size", \
            (rounds > 1 ? ", best of " rounds " rounds" : ""), base
        printf "%-8s", "workload"; for (j = 1; j <= nm; j++) printf " %*s", w, m[j]
        for (j = 1; j <= nm; j++) if (m[j] != base) printf " %*s", w, m[j] "/" base; printf "\n"
        dat = out "/" p[1] "-" p[2] "-" p[3] ".dat"
        printf "# title: rdmpi-ramp on %s %s: %s\n# ylabel: transactions per second\n# kind: bars\n# plot:", \
            p[1], p[2] == "rxe" ? "in a Soft-RoCE guest" : "over " p[2], \
            p[3] == "reads" ? "read ratio (txn size 8)" : "95 % reads, txn size" > dat
        for (j = 1; j <= nm; j++) printf " %d", j + 1 > dat
        printf "\nworkload" > dat; for (j = 1; j <= nm; j++) printf " %s", m[j] > dat; printf "\n" > dat
        for (i = 1; i <= nl[key]; i++) {
            l = labels[key, i]; b = tps[key, l, base]
            printf "%-8s", l; printf "%s", l > dat
            for (j = 1; j <= nm; j++) {
                t = tps[key, l, m[j]]; if (t == "") t = "-"
                printf " %*s", w, t; printf " %s", t > dat
            }
            for (j = 1; j <= nm; j++) {
                if (m[j] == base) continue
                t = tps[key, l, m[j]]
                if (b + 0 > 0 && t != "" && t != "-") printf " %*.2f", w, t / b; else printf " %*s", w, "-"
            }
            printf "\n"; printf "\n" > dat
        }
        close(dat)
    }
}' "$csv"

echo
echo "bench.sh: results in $csv"
if command -v gnuplot >/dev/null; then
    "$here/../../bench/chart.sh" --all "$out" && echo "bench.sh: charts in $out/*.png"
else
    echo "bench.sh: no gnuplot, no charts (the .dat files are in $out)"
fi
