#!/bin/bash
# bench.sh: rdmpi-ramp's benchmark matrix, as in Murata, Kawashima and
# Tatebe's study: each method (rpc, plus, star, s2pl) at 0, 25, 50, 75 and
# 100 % read transactions, and the micro-benchmark (95 % reads, transaction
# size 2, 4, 8, 16), on shared memory and over TCP on this host
# (RDMPI_TRANSPORTS=tcp with --window create, so that one-sided operations
# travel over TCP too; Open MPI: --mca btl tcp,self), optionally with the
# same program built against MPICH (shared memory only: it has no switch
# to keep node peers off it) and Open MPI. It
# prints a table of transactions per second with each method's ratio to
# rpc, keeps the summaries as CSV and draws bar charts (bench/chart.sh)
# when gnuplot is there.
#
# Run from the build directory (or set RAMP and MPIRUN):
#   ../apps/ramp/bench.sh [--quick] [--seconds S] [--np N] [--servers S]
#       [--transports shm,tcp,netns] [--methods rpc,plus,star,s2pl]
#       [--with mpich,openmpi] [--out DIR]
# --quick: 0.5 s per run, r0 and r100, sizes 2 and 8 (checks the script).
# Transport netns (rdmpi only; needs root): two network namespaces joined
# by veth act as two hosts (test/multihost/netns.sh), the ranks alternate
# between them (so do the servers), and talk TCP across.
# Throughput depends on what else the machine runs: measure on an idle one.
set -u

here=$(cd "$(dirname "$0")" && pwd)
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

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case $1 in
    --quick) seconds=0.5; reads_list="0 100"; sizes="2 8" ;;
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
[ -x "$RAMP" ] || { echo "bench.sh: $RAMP is not built (run make, or set RAMP)" >&2; exit 2; }
mkdir -p "$out"
csv=$out/results.csv
echo "lib,transport,matrix,label,method,reads,txn_size,txn_per_s,p50_us,p99_us" >"$csv"

# run LIB TRANSPORT MATRIX LABEL METHOD READS SIZE: one run, one CSV row.
run() {
    local lib=$1 tr=$2 matrix=$3 label=$4 m=$5 reads=$6 size=$7 line prog mpirun env=() wargs=()
    case $lib in
    rdmpi) prog=$RAMP; mpirun=("$MPIRUN")
           [ "$tr" = tcp ] && env=(-x RDMPI_TRANSPORTS=tcp) && wargs=(--window create)
           [ "$tr" = netns ] && mpirun=("$onhost" "$NS0" "$MPIRUN"
               -hosts "$NS0:$(( (np + 1) / 2 )),$NS1:$(( (np + 1) / 2 ))" --map-by node
               --launch-agent "$onhost" --bind-to none -genv RDMPI_TCP_IF eth0) ;;
    mpich) prog=$out/rdmpi-ramp.mpich; mpirun=(mpirun.mpich) ;;
    openmpi) prog=$out/rdmpi-ramp.openmpi
             mpirun=(mpirun.openmpi --oversubscribe --allow-run-as-root)
             [ "$tr" = tcp ] && env=(--mca btl tcp,self) ;;
    esac
    line=$(timeout $(( ${seconds%.*} * 4 + 120 )) "${mpirun[@]}" "${env[@]}" -np "$np" "$prog" \
        --method "$m" --servers "$servers" --reads "$reads" --txn-size "$size" \
        --seconds "$seconds" "${wargs[@]}" 2>"$out/last.err" | grep '^ramp: ')
    if [ -z "$line" ]; then
        echo "bench.sh: $lib $tr $m reads=$reads txn_size=$size failed:" >&2
        head -3 "$out/last.err" >&2
        echo "$lib,$tr,$matrix,$label,$m,$reads,$size,-,-,-" >>"$csv"
        return
    fi
    v() { echo "$line" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
    echo "$lib,$tr,$matrix,$label,$m,$reads,$size,$(v txn_per_s),$(v p50_us),$(v p99_us)" >>"$csv"
}

# Two "hosts" for the netns transport.
case ",$transports," in
*,netns,*)
    [ "$(id -u)" -eq 0 ] || { echo "bench.sh: --transports netns needs root" >&2; exit 2; }
    MH_PREFIX=rrb$$- MH_BRIDGE=rrbbr$$
    . "$here/../../test/multihost/netns.sh"
    NS0=${MH_PREFIX}0 NS1=${MH_PREFIX}1
    onhost=$out/on-host
    printf '#!/bin/sh\nns=$1\nshift\nexec ip netns exec "$ns" "$@"\n' >"$onhost"
    chmod +x "$onhost"
    netns_down() {
        local ns
        for ns in $MH_HOSTS; do
            kill -9 $(ip netns pids "$ns" 2>/dev/null) 2>/dev/null
        done
        mh_down
        rm -f "$onhost"
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

for lib in $libs; do
    for tr in ${transports//,/ }; do
        [ "$lib" = mpich ] && [ "$tr" != shm ] && continue
        [ "$lib" != rdmpi ] && [ "$tr" = netns ] && continue
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

# The table and the charts' data: one row per (lib, transport, matrix,
# label), a column per method, then each method's ratio to rpc.
awk -F, -v out="$out" -v methods="$methods" '
NR > 1 { key = $1 " " $2 " " $3; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
         lab = key SUBSEP $4; if (!(lab in seenl)) { seenl[lab] = 1; labels[key, ++nl[key]] = $4 }
         tps[key, $4, $5] = $8 }
END {
    nm = split(methods, m, " ")
    for (k = 1; k <= nk; k++) {
        key = keys[k]; split(key, p, " ")
        printf "\n%s over %s, %s (transactions/s; ratio to rpc)\n", p[1], p[2], \
            p[3] == "reads" ? "read ratio, transaction size 8" : "95 % reads by transaction size"
        printf "%-8s", "workload"; for (j = 1; j <= nm; j++) printf " %10s", m[j]
        for (j = 2; j <= nm; j++) printf " %10s", m[j] "/rpc"; printf "\n"
        dat = out "/" p[1] "-" p[2] "-" p[3] ".dat"
        printf "# title: rdmpi-ramp on %s over %s: %s\n# ylabel: transactions per second\n# kind: bars\n# plot:", \
            p[1], p[2], p[3] == "reads" ? "read ratio (txn size 8)" : "95 % reads, txn size" > dat
        for (j = 1; j <= nm; j++) printf " %d", j + 1 > dat
        printf "\nworkload" > dat; for (j = 1; j <= nm; j++) printf " %s", m[j] > dat; printf "\n" > dat
        for (i = 1; i <= nl[key]; i++) {
            l = labels[key, i]; base = tps[key, l, "rpc"]
            printf "%-8s", l; printf "%s", l > dat
            for (j = 1; j <= nm; j++) { printf " %10s", tps[key, l, m[j]]; printf " %s", tps[key, l, m[j]] > dat }
            for (j = 2; j <= nm; j++) {
                t = tps[key, l, m[j]]
                if (base + 0 > 0 && t != "-") printf " %10.2f", t / base; else printf " %10s", "-"
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
