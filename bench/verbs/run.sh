#!/bin/bash
# bench/verbs/run.sh: rdmpi's point-to-point latency and bandwidth over each
# verbs transport against raw verbs (perftest) on the same device in the same
# run, as ratios per message size.
#
# Inside a run-in-vm.sh guest (Soft-RoCE): run from the build tree,
#   bench/verbs/run.sh [-c CONFIGS] [-r ROUNDS]
# On a host without an RDMA device it boots one guest itself
# (test/rdma-vm/run-in-vm.sh) and runs there; on a real RDMA host set
# RDMPI_IB_DEVICE / RXE_GID_INDEX (GID index of the RoCE v2 GID) and it runs
# directly.
#   -c CONFIGS  "NAME:VAR=VAL ...;..." (default: rc, rc with RDMA-Write eager, ud)
#   -r ROUNDS   raw and rdmpi measurements alternate ROUNDS times; the best of
#               each is kept (default 2)
# Environment: BENCH_LAT_SIZES (default "8 1024 65536"), BENCH_BW_SIZES
#   (default "65536 1048576"), BENCH_ITERS (latency iterations, default 1000),
#   BENCH_BW_ITERS (bandwidth iterations, default 20; osu_bw sends a window of
#   BENCH_WINDOW messages, default 16, per iteration; ib_write_bw sends
#   BENCH_BW_ITERS x BENCH_WINDOW messages).
# Output: per configuration, latency rows "size rdmpi_us ib_send_lat_us
#   ib_write_lat_us rdmpi/send rdmpi/write" (lower ratio = better, 1.0 = raw
#   verbs) and bandwidth rows "size rdmpi_MBps ib_write_bw_MBps rdmpi/raw"
#   (higher = better), MB = 1e6 bytes; latencies are means (perftest t_avg,
#   osu_latency's mean half round trip).
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

configs="rc:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=0;rc-eager:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=1;ud:RDMPI_TRANSPORTS=ud"
rounds=2
while getopts "c:r:" opt; do
    case $opt in
    c) configs=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) echo "usage: $0 [-c CONFIGS] [-r ROUNDS]" >&2; exit 2 ;;
    esac
done
[ -x "$PWD/mpirun/mpirun" ] && [ -x "$PWD/bench/osu_latency" ] || {
    echo "bench/verbs: run from the build tree (mpirun/mpirun, bench/osu_latency)" >&2
    exit 2
}
dev=${RDMPI_IB_DEVICE:-${RXE_DEV:-rxe0}}
gid=$RXE_GID_INDEX
ip=${RXE_NODE_IP:-127.0.0.1}
lat_sizes=${BENCH_LAT_SIZES:-8 1024 65536}
bw_sizes=${BENCH_BW_SIZES:-65536 1048576}
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
        [ -n "$M" ] || { echo "   osu_latency failed:"; tail -n 5 "$tmp/osu.err" | sed 's/^/   /'; }
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
        [ -n "$M" ] || { echo "   osu_bw failed:"; tail -n 5 "$tmp/osu.err" | sed 's/^/   /'; }
    done
done
