#!/bin/bash
# bench/verbs/run.sh: rdmpi's point-to-point latency and bandwidth over each
# verbs transport against raw verbs (perftest) on the same device in the same
# run, as ratios per message size.
#
# Inside a run-in-vm.sh guest (Soft-RoCE): run from the build tree,
#   bench/verbs/run.sh [-b p2p,rma] [-c CONFIGS] [-r ROUNDS]
# On a host without an RDMA device it boots one guest itself
# (test/rdma-vm/run-in-vm.sh) and runs there; on a real RDMA host set
# RDMPI_IB_DEVICE / RXE_GID_INDEX (GID index of the RoCE v2 GID) and it runs
# directly.
#   -b LIST     what to measure, comma separated: p2p (osu_latency, osu_bw;
#               the default), rma (osu_put_latency, osu_get_latency and
#               osu_put_bw on an MPI_Win_allocate window, MPI_Win_flush in a
#               lock_all epoch, against ib_write_lat, ib_read_lat and
#               ib_write_bw; osu_put_pingpong against ib_write_lat;
#               osu_fop_latency and osu_cas_latency against ib_atomic_lat)
#   -c CONFIGS  "NAME:VAR=VAL ...;..." (default: rc, rc with RDMA-Write eager,
#               ud; with -b rma alone: rc)
#   -r ROUNDS   raw and rdmpi measurements alternate ROUNDS times; the best of
#               each is kept (default 2)
# The one-sided runs start their two ranks as two hosts of one job on this
# machine (mpirun -hosts with two names, the second started through
# local-agent.sh): ranks on one node would share the window's memory and
# put with loads and stores whatever RDMPI_TRANSPORTS says, so only ranks
# on different nodes take the transport's RDMA path. The run checks that
# path (RDMPI_VERBOSE's "targets by path") and says so.
# Environment: BENCH_LAT_SIZES (default "8 1024 65536"), BENCH_BW_SIZES
#   (default "65536 1048576"), BENCH_ITERS (latency iterations, default 1000),
#   BENCH_BW_ITERS (bandwidth iterations, default 20; osu_bw sends a window of
#   BENCH_WINDOW messages, default 16, per iteration; ib_write_bw sends
#   BENCH_BW_ITERS x BENCH_WINDOW messages); one-sided: BENCH_RMA_LAT_SIZES
#   (default "8"), BENCH_RMA_BW_SIZES (default "1048576"; osu_put_bw puts
#   BENCH_WINDOW messages per flush, BENCH_BW_ITERS times).
# Output: per configuration, latency rows "size rdmpi_us ib_send_lat_us
#   ib_write_lat_us rdmpi/send rdmpi/write" (lower ratio = better, 1.0 = raw
#   verbs) and bandwidth rows "size rdmpi_MBps ib_write_bw_MBps rdmpi/raw"
#   (higher = better), MB = 1e6 bytes; latencies are means (perftest t_avg,
#   osu_latency's mean half round trip). One-sided rows: "size put_us
#   write_avg write_typ put/avg put/typ get_us read_avg read_typ get/avg
#   get/typ read_busy get/busy" (put and get each completed by MPI_Win_flush:
#   osu_put_latency's mean per operation; ib_write_lat and ib_read_lat t_avg
#   and t_typical; read_busy: ib_read_lat's t_avg with a busy loop beside it,
#   see busy() below)
#   and "size put_bw_MBps ib_write_bw_MBps put/raw busy_MBps put/busy
#   retransmissions" (busy: ib_write_bw with a busy loop beside it), the
#   last the device's retransmissions during each round's put_bw,
#   ib_write_bw and busy ib_write_bw (rdma statistic: completer_retry_err).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

if [ -z "${RXE_GID_INDEX:-}" ]; then
    if ! ibv_devinfo 2>/dev/null | grep -q PORT_ACTIVE; then
        exec "$top/test/rdma-vm/run-in-vm.sh" -t 3600 -- "$here/run.sh" "$@"
    fi
    echo "bench/verbs: set RXE_GID_INDEX to the GID index to use (see ibv_devinfo -v)" >&2
    exit 2
fi

configs=
benches=p2p
rounds=2
while getopts "b:c:r:" opt; do
    case $opt in
    b) benches=$OPTARG ;;
    c) configs=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) echo "usage: $0 [-b p2p,rma] [-c CONFIGS] [-r ROUNDS]" >&2; exit 2 ;;
    esac
done
do_p2p=0 do_rma=0
for b in ${benches//,/ }; do
    case $b in
    p2p) do_p2p=1 ;;
    rma) do_rma=1 ;;
    *) echo "bench/verbs: -b takes p2p and rma, not '$b'" >&2; exit 2 ;;
    esac
done
if [ -z "$configs" ]; then
    if [ $do_p2p = 1 ]; then
        configs="rc:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=0;rc-eager:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=1;ud:RDMPI_TRANSPORTS=ud"
    else
        configs="rc:RDMPI_TRANSPORTS=rc"
    fi
fi
for prog in osu_latency osu_put_latency; do
    [ -x "$PWD/mpirun/mpirun" ] && [ -x "$PWD/bench/$prog" ] || {
        echo "bench/verbs: run from the build tree (mpirun/mpirun, bench/$prog)" >&2
        exit 2
    }
done
dev=${RDMPI_IB_DEVICE:-${RXE_DEV:-rxe0}}
gid=$RXE_GID_INDEX
ip=${RXE_NODE_IP:-127.0.0.1}
lat_sizes=${BENCH_LAT_SIZES:-8 1024 65536}
bw_sizes=${BENCH_BW_SIZES:-65536 1048576}
rma_lat_sizes=${BENCH_RMA_LAT_SIZES:-8}
rma_bw_sizes=${BENCH_RMA_BW_SIZES:-1048576}
iters=${BENCH_ITERS:-1000}
bw_iters=${BENCH_BW_ITERS:-20}
window=${BENCH_WINDOW:-16}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-verbs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
port=18600

# perftest server + client over loopback; prints the client's result row.
# The client retries until the server listens; a pair that fails midway is
# started again (up to 3 times).
perf() {  # tool size iters [extra option]
    local tool=$1 size=$2 n=$3 spid try attempt row=
    for attempt in 1 2 3; do
        port=$((port + 1))
        "$tool" -d "$dev" -x "$gid" -F -p $port -s "$size" -n "$n" ${4:-} >"$tmp/srv" 2>&1 &
        spid=$!
        : >"$tmp/cli"
        for try in $(seq 1 50); do
            sleep 0.3
            kill -0 $spid 2>/dev/null || break
            "$tool" -d "$dev" -x "$gid" -F -p $port -s "$size" -n "$n" ${4:-} "$ip" >"$tmp/cli" 2>&1 && break
        done
        kill $spid 2>/dev/null
        wait $spid 2>/dev/null
        row=$(awk -v s="$size" '$1 == s && NF >= 4 { print; exit }' "$tmp/cli")
        [ -n "$row" ] && break
    done
    [ -n "$row" ] || { echo "   $tool -s $size failed:" >&2; tail -n 3 "$tmp/cli" | sed 's/^/   /' >&2; }
    echo "$row"
}
raw_lat() {  # tool size -> mean latency in us
    perf "$1" "$2" "$iters" | awk '{ print $6 }'
}
raw_lat2() {  # tool size -> mean and typical (median) latency in us
    perf "$1" "$2" "$iters" | awk '{ print $6, $5 }'
}
# CMD... with a busy loop beside it. The one-sided benchmarks' target rank
# polls in MPI_Barrier all along, where perftest's server sleeps; under
# emulation a busy vCPU slows the device's work (rxe runs in the guest's
# kernel), so perftest is also run with one process spinning, as a control.
busy() {
    local spin rc
    sh -c 'while :; do :; done' &
    spin=$!
    "$@"
    rc=$?
    kill "$spin"
    wait "$spin" 2>/dev/null
    return $rc
}
raw_bw() {  # size -> MB/s (1e6)
    perf ib_write_bw "$1" $((bw_iters * window)) --report_gbits | awk '{ printf "%.2f\n", $4 * 1000 / 8 }'
}
osu() {  # vars prog size iters -> value
    local vars=$1 prog=$2 size=$3 n=$4
    # shellcheck disable=SC2086
    local w=()
    [ "$prog" = osu_bw ] && w=(-w "$window")
    env $vars ./mpirun/mpirun -np 2 --timeout 900 "bench/$prog" -m "$size:$size" --csv \
        -i "$n" -I "$n" -x 20 -X 5 "${w[@]}" 2>"$tmp/osu.err" | awk -F, -v s="$size" '$1 == s { print $2 }'
}
# The one-sided runs: rank 1 on a second "host" that is this machine
# (local-agent.sh runs the daemon here), so that the ranks are on different
# nodes; nobody binds, as perftest's pair does not.
rma_launch=(./mpirun/mpirun -np 2 --timeout 900 --bind-to none
    -hosts "$(hostname),rma-peer" --map-by node --launch-agent "$here/local-agent.sh")
rma() {  # vars prog size iters -> value
    local vars=$1 prog=$2 size=$3 n=$4
    local w=()
    [ "$prog" = osu_put_bw ] && w=(-W "$window")
    # shellcheck disable=SC2086
    env $vars "${rma_launch[@]}" "bench/$prog" -m "$size:$size" --csv \
        -i "$n" -I "$n" -x 20 -X 5 "${w[@]}" 2>"$tmp/osu.err" | awk -F, -v s="$size" '$1 == s { print $2 }'
}
rma_path() {  # vars -> rank 0's "targets by path" line
    # shellcheck disable=SC2086
    env $vars RDMPI_VERBOSE=1 "${rma_launch[@]}" bench/osu_put_latency -m 8:8 -i 10 -x 1 2>&1 |
        sed -n 's/^rdmpi: rank 0: rma: .*targets by path: \([^;]*\);.*/\1/p'
}
# The device's retransmissions so far (rxe's completer_retry_err: a lost
# packet, resent after a NAK or the ack timeout), or nothing without the
# rdma tool; printed with the bandwidth rows, since a loss costs a stream
# far more than its packet.
retries() {
    rdma statistic show link "$dev/1" 2>/dev/null |
        awk '{ for (i = 1; i < NF; i++) if ($i == "completer_retry_err") print $(i + 1) }'
}
best() {  # min|max values...
    local how=$1
    shift
    printf '%s\n' "$@" | grep -E '^[0-9.]+$' | sort -g | { if [ "$how" = min ]; then head -1; else tail -1; fi; }
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f\n", a / b }'; }

echo "bench/verbs: device $dev, GID index $gid, $(ibv_devinfo -d "$dev" | awk '/active_mtu/ { print "path MTU " $2; exit }'), $rounds round(s)"
IFS=';' read -r -a cfgs <<<"$configs"
for cfg in "${cfgs[@]}"; do
    name=${cfg%%:*} vars=${cfg#*:}
    if [ $do_p2p = 1 ]; then
        echo
        echo "== $name [$vars]: latency (us, mean)"
        printf '%-9s %10s %12s %13s %10s %11s\n' size rdmpi ib_send_lat ib_write_lat rdmpi/send rdmpi/write
        for size in $lat_sizes; do
            m=() s=() w=()
            for ((r = 0; r < rounds; r++)); do
                s+=("$(raw_lat ib_send_lat "$size")")
                w+=("$(raw_lat ib_write_lat "$size")")
                m+=("$(osu "$vars" osu_latency "$size" "$iters")")
            done
            M=$(best min "${m[@]}") S=$(best min "${s[@]}") W=$(best min "${w[@]}")
            printf '%-9s %10s %12s %13s %10s %11s\n' "$size" "${M:--}" "${S:--}" "${W:--}" \
                "$(ratio "$M" "$S")" "$(ratio "$M" "$W")"
            [ -n "$M" ] || { echo "   osu_latency failed:"; tail -n 40 "$tmp/osu.err" | sed 's/^/   /'; }
        done
        echo "== $name [$vars]: bandwidth (MB/s)"
        printf '%-9s %10s %12s %10s\n' size rdmpi ib_write_bw rdmpi/raw
        for size in $bw_sizes; do
            m=() b=()
            for ((r = 0; r < rounds; r++)); do
                b+=("$(raw_bw "$size")")
                m+=("$(osu "$vars" osu_bw "$size" "$bw_iters")")
            done
            M=$(best max "${m[@]}") B=$(best max "${b[@]}")
            printf '%-9s %10s %12s %10s\n' "$size" "${M:--}" "${B:--}" "$(ratio "$M" "$B")"
            [ -n "$M" ] || { echo "   osu_bw failed:"; tail -n 40 "$tmp/osu.err" | sed 's/^/   /'; }
        done
    fi
    [ $do_rma = 1 ] || continue
    echo
    path=$(rma_path "$vars")
    echo "== $name [$vars]: one-sided, MPI_Win_allocate, lock_all + MPI_Win_flush (targets by path: ${path:-unknown})"
    case $path in
    *"rdma 1"*) ;;
    *) echo "   warning: the peer is not reached by RDMA, the rows below do not measure the transport's RDMA path" ;;
    esac
    # perftest's mean and typical (median) latency: on a loaded machine a
    # few descheduled iterations can move the mean far more than the median.
    printf '%-9s %9s %11s %11s %8s %8s %9s %11s %11s %8s %8s %10s %9s\n' size put_us write_avg \
        write_typ put/avg put/typ get_us read_avg read_typ get/avg get/typ read_busy get/busy
    for size in $rma_lat_sizes; do
        p=() g=() wa=() wt=() ra=() rt=() rb=()
        for ((r = 0; r < rounds; r++)); do
            read -r a t <<<"$(raw_lat2 ib_write_lat "$size")"
            wa+=("${a:-}") wt+=("${t:-}")
            p+=("$(rma "$vars" osu_put_latency "$size" "$iters")")
            [ -n "${p[-1]}" ] || { echo "   osu_put_latency failed:"; tail -n 40 "$tmp/osu.err" | sed 's/^/   /'; }
            read -r a t <<<"$(raw_lat2 ib_read_lat "$size")"
            ra+=("${a:-}") rt+=("${t:-}")
            read -r a t <<<"$(busy raw_lat2 ib_read_lat "$size")"
            rb+=("${a:-}")
            g+=("$(rma "$vars" osu_get_latency "$size" "$iters")")
            [ -n "${g[-1]}" ] || { echo "   osu_get_latency failed:"; tail -n 40 "$tmp/osu.err" | sed 's/^/   /'; }
        done
        P=$(best min "${p[@]}") G=$(best min "${g[@]}")
        WA=$(best min "${wa[@]}") WT=$(best min "${wt[@]}") RA=$(best min "${ra[@]}") RT=$(best min "${rt[@]}")
        RB=$(best min "${rb[@]}")
        printf '%-9s %9s %11s %11s %8s %8s %9s %11s %11s %8s %8s %10s %9s\n' "$size" "${P:--}" \
            "${WA:--}" "${WT:--}" "$(ratio "$P" "$WA")" "$(ratio "$P" "$WT")" "${G:--}" "${RA:--}" \
            "${RT:--}" "$(ratio "$G" "$RA")" "$(ratio "$G" "$RT")" "${RB:--}" "$(ratio "$G" "$RB")"
    done
    # The same Write latency as ib_write_lat measures it: a ping-pong in
    # which each side polls its memory for the other's put (half a round
    # trip), and the 8-byte atomics against ib_atomic_lat. rdmpi applies
    # atomics at the target as active messages (doc/rma-operations.md says
    # why); these rows are the measurement that choice stands on.
    printf '%-9s %9s %11s %11s %8s %8s\n' op mpi_us raw_avg raw_typ mpi/avg mpi/typ
    for what in put_pingpong:ib_write_lat: fop:ib_atomic_lat:FETCH_AND_ADD cas:ib_atomic_lat:CMP_AND_SWAP; do
        IFS=: read -r op tool aop <<<"$what"
        v=() ra=() rt=()
        for ((r = 0; r < rounds; r++)); do
            if [ -n "$aop" ]; then
                read -r a t <<<"$(perf "$tool" 8 "$iters" "-A $aop" | awk '{ print $6, $5 }')"
                v+=("$(rma "$vars" "osu_${op}_latency" 8 "$iters")")
            else
                read -r a t <<<"$(raw_lat2 "$tool" 8)"
                v+=("$(rma "$vars" "osu_$op" 8 "$iters")")
            fi
            ra+=("${a:-}") rt+=("${t:-}")
            [ -n "${v[-1]}" ] || { echo "   $op failed:"; tail -n 40 "$tmp/osu.err" | sed 's/^/   /'; }
        done
        V=$(best min "${v[@]}") RA=$(best min "${ra[@]}") RT=$(best min "${rt[@]}")
        printf '%-9s %9s %11s %11s %8s %8s\n' "$op" "${V:--}" "${RA:--}" "${RT:--}" \
            "$(ratio "$V" "$RA")" "$(ratio "$V" "$RT")"
    done
    printf '%-9s %9s %11s %8s %10s %9s   %s\n' size put_bw ib_write_bw put/raw raw_busy put/busy \
        "retransmissions per round (put_bw / ib_write_bw / busy)"
    for size in $rma_bw_sizes; do
        m=() b=() bb=() rx=
        for ((r = 0; r < rounds; r++)); do
            r0=$(retries)
            b+=("$(raw_bw "$size")")
            r1=$(retries)
            bb+=("$(busy raw_bw "$size")")
            r2=$(retries)
            m+=("$(rma "$vars" osu_put_bw "$size" "$bw_iters")")
            r3=$(retries)
            [ -n "${m[-1]}" ] || { echo "   osu_put_bw failed:"; tail -n 40 "$tmp/osu.err" | sed 's/^/   /'; }
            [ -n "$r0" ] && rx="$rx $((r3 - r2))/$((r1 - r0))/$((r2 - r1))"
        done
        M=$(best max "${m[@]}") B=$(best max "${b[@]}") BB=$(best max "${bb[@]}")
        printf '%-9s %9s %11s %8s %10s %9s   %s\n' "$size" "${M:--}" "${B:--}" "$(ratio "$M" "$B")" \
            "${BB:--}" "$(ratio "$M" "$BB")" "${rx:- -}"
    done
done
