#!/bin/bash
# compare.sh: build the bench/ benchmarks with rdmpi, MPICH and Open MPI, run
# them on this node (point-to-point and one-sided at np=2, collectives at
# every np of --np, one-sided for every synchronization of --rma-sync and
# window of --rma-win), and print one table per benchmark and case with the
# best of R runs per size and the ratio rdmpi / best other library.
#
# Runs are interleaved (benchmark -> case -> repeat -> library, library
# order rotated every repeat), so a burst of machine noise hits all
# libraries alike.
# See bench/README.md for what is measured and why the launch settings are
# what they are.

set -u

bench_prog=compare.sh
settle_short_after_busy=1
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
    cat <<'EOF'
Usage: bench/compare.sh [options]

  --prefix DIR     rdmpi install prefix with bin/mpicc and bin/mpirun
                   (default: _install at the top of this checkout)
  --only LIST      libraries, comma separated: rdmpi,mpich,openmpi (default all)
  --bench LIST     benchmarks, comma separated: point-to-point latency,bw,bibw,
                   mr; collectives allreduce,bcast,alltoall,ibcast; one-sided
                   put_latency,get_latency,put_bw,get_bw,acc_latency,
                   fop_latency,cas_latency; or the groups p2p, coll, rma,
                   all (default p2p: latency,bw,bibw,mr)
  --np LIST        process counts for the collectives, comma separated even
                   numbers (default 2); point-to-point and one-sided always
                   run at np=2
  --rma-sync LIST  synchronizations of the one-sided benchmarks, comma
                   separated: flush (MPI_Win_flush in a lock_all epoch),
                   fence, lock (MPI_Win_lock/unlock around each operation),
                   pscw (default flush)
  --rma-win LIST   their windows, comma separated: allocate (MPI_Win_allocate),
                   create (MPI_Win_create), dynamic (default allocate); each
                   one-sided benchmark runs for every sync x window
  --repeat R       runs per benchmark and library (default 3)
  --stat best|median  the value per size taken from the runs: the best
                   (default), or their median (steadier on a noisy machine;
                   use with a --repeat of 5 or more)
  --quick          fewer sizes and iterations (a smoke test, not for numbers)
  --args "OPTS"    benchmark options appended to the defaults (the last of a
                   repeated option wins), e.g. "-i 100 -I 20" for many short
                   runs on a busy machine
  --out DIR        keep raw outputs in DIR/raw and write DIR/results.md
  --chart DIR      after the run, write per benchmark (and np) DIR/KEY.dat and
                   draw DIR/KEY.png: rdmpi / MPICH and rdmpi / Open MPI per
                   size (bench/chart.sh; needs gnuplot, installed as root)
  --timeout SEC    kill a run after SEC seconds (default 600; 120 with --quick)
  --settle SEC     before each run, wait up to SEC seconds for other processes
                   to leave the CPUs idle (default 30; 0: do not wait)
  --tcp            every library talks TCP between its ranks on this node:
                   rdmpi with RDMPI_TRANSPORTS=tcp, Open MPI with
                   --mca btl tcp,self, MPICH (ch4:ucx in Debian) with
                   MPIR_CVAR_NOLOCAL=1 (no shared memory) and UCX_TLS=tcp,self
  -h, --help       this text

Launch commands (override with BENCH_LAUNCH_RDMPI, BENCH_LAUNCH_MPICH,
BENCH_LAUNCH_OPENMPI; the program and its arguments are appended, and the
number after -np or -n is replaced by each np):
  rdmpi    PREFIX/bin/mpirun -np N [--bind-to core, if its --help lists it]
  MPICH    mpirun.mpich -np N -bind-to core
  Open MPI mpirun.openmpi [--allow-run-as-root] -np N --bind-to core
           --mca pml ob1 --mca btl self,vader
With more ranks than cores, each library places its ranks as it does by
default (--oversub-bind default): rdmpi and MPICH run without the binding
option (rdmpi then binds round-robin when every core gets the same number
of ranks, MPICH binds nothing), Open MPI with --oversubscribe --bind-to
none (it refuses to start otherwise).
  --oversub-bind core  every library binds round-robin (rdmpi --bind-to core,
                   MPICH -bind-to core, Open MPI --bind-to core:overload-allowed)
  --oversub-bind none  no library binds (rdmpi --bind-to none)

A library that answers MPI_ERR_UNSUPPORTED_OPERATION to a call a one-sided
benchmark needs shows n/a in that table; its first such error is printed
under "Not supported", and the other benchmarks still run.

Exit status: 0 if every selected library built and ran every benchmark,
1 if some library failed or could not run one (n/a; the tables are still
printed), 2 on usage errors or missing peer MPI packages.
EOF
}

prefix=$(cd "$(dirname "$0")/.." && pwd)/_install
only=rdmpi,mpich,openmpi
benches=p2p
np_arg=2
repeat=3
stat=best
quick=0
extra_args=
out=
chart_dir=
timeout_s=
settle=30
tcp=0
oversub_bind=default
rma_sync=flush
rma_win=allocate

while [ $# -gt 0 ]; do
    case "$1" in
    --prefix)  prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --only)    only=${2:?--only needs a list}; shift 2 ;;
    --bench)   benches=${2:?--bench needs a list}; shift 2 ;;
    --np)      np_arg=${2:?--np needs a list}; shift 2 ;;
    --repeat)  repeat=${2:?--repeat needs a number}; shift 2 ;;
    --stat)    stat=${2:?--stat needs best or median}; shift 2 ;;
    --quick)   quick=1; shift ;;
    --args)    extra_args=${2?--args needs benchmark options}; shift 2 ;;
    --out)     out=${2:?--out needs a directory}; shift 2 ;;
    --chart)   chart_dir=${2:?--chart needs a directory}; shift 2 ;;
    --timeout) timeout_s=${2:?--timeout needs seconds}; shift 2 ;;
    --settle)  settle=${2:?--settle needs seconds}; shift 2 ;;
    --tcp)     tcp=1; shift ;;
    --oversub-bind) oversub_bind=${2:?--oversub-bind needs default, core or none}; shift 2 ;;
    --rma-sync) rma_sync=${2:?--rma-sync needs a list}; shift 2 ;;
    --rma-win) rma_win=${2:?--rma-win needs a list}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "compare.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
done

check_repeat_settle
case "$oversub_bind" in
default|core|none) ;;
*) echo "compare.sh: --oversub-bind: expected default, core or none, not '$oversub_bind'" >&2; exit 2 ;;
esac
default_timeout
parse_libs
p2p_benches="latency bw bibw mr"
coll_benches="allreduce bcast alltoall ibcast"
is_coll() { case " $coll_benches " in *" $1 "*) return 0 ;; esac; return 1; }
bench_list=()
add_bench() {
    local x
    for x in "${bench_list[@]}"; do [ "$x" = "$1" ] && return 0; done
    bench_list+=("$1")
}
for b in ${benches//,/ }; do
    case " $p2p_benches $coll_benches $rma_benches " in
    *" $b "*) add_bench "$b"; continue ;;
    esac
    case "$b" in
    p2p)  for x in $p2p_benches; do add_bench "$x"; done ;;
    coll) for x in $coll_benches; do add_bench "$x"; done ;;
    rma)  for x in $rma_benches; do add_bench "$x"; done ;;
    all)  for x in $p2p_benches $coll_benches $rma_benches; do add_bench "$x"; done ;;
    *) die "unknown benchmark '$b' ($p2p_benches $coll_benches $rma_benches, or p2p, coll, rma, all)" ;;
    esac
done
rma_syncs=()
for x in ${rma_sync//,/ }; do
    case "$x" in flush|fence|lock|pscw) rma_syncs+=("$x") ;; *) die "--rma-sync: flush, fence, lock or pscw, not '$x'" ;; esac
done
rma_wins=()
for x in ${rma_win//,/ }; do
    case "$x" in allocate|create|dynamic) rma_wins+=("$x") ;; *) die "--rma-win: allocate, create or dynamic, not '$x'" ;; esac
done
if [ ${#rma_syncs[@]} -eq 0 ] || [ ${#rma_wins[@]} -eq 0 ]; then
    die "--rma-sync and --rma-win want at least one value"
fi
# The collectives share bench_util's process-count rule with osu_mr: an even
# number of processes.
np_list=()
for np in ${np_arg//,/ }; do
    case "$np" in
    ''|*[!0-9]*|0*) die "--np wants even process counts, e.g. 2,4" ;;
    esac
    [ $(( np % 2 )) -eq 0 ] ||
        die "--np $np: the collective benchmarks need an even number of processes"
    case " ${np_list[*]} " in *" $np "*) ;; *) np_list+=("$np") ;; esac
done
if [ ${#libs[@]} -eq 0 ] || [ ${#bench_list[@]} -eq 0 ] || [ ${#np_list[@]} -eq 0 ]; then
    usage >&2
    exit 2
fi
has_coll=0
for b in "${bench_list[@]}"; do is_coll "$b" && has_coll=1; done
# nps_of <bench>: the process counts the benchmark runs at.
nps_of() { if is_coll "$1"; then echo "${np_list[*]}"; else echo 2; fi; }
# cases_of <bench>: its runs, one word each: NP, or for the one-sided
# benchmarks NP:SYNC-WIN, one per --rma-sync x --rma-win.
cases_of() {
    local s w
    if is_rma "$1"; then
        for s in "${rma_syncs[@]}"; do
            for w in "${rma_wins[@]}"; do echo "2:$s-$w"; done
        done
    else
        nps_of "$1"
    fi
}
# key_of <bench> <np> [SYNC-WIN]: names its raw files and tables; the
# point-to-point ones keep their plain names.
key_of() {
    if is_coll "$1"; then echo "$1-np$2"
    elif is_rma "$1"; then echo "$1-$3"
    else echo "$1"; fi
}

start_time=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

# --- peer MPI packages -----------------------------------------------------
need_pkgs=()
if selected mpich && ! { command -v mpicc.mpich && command -v mpirun.mpich; } >/dev/null; then
    need_pkgs+=(mpich libmpich-dev)
fi
if selected openmpi && ! { command -v mpicc.openmpi && command -v mpirun.openmpi; } >/dev/null; then
    need_pkgs+=(openmpi-bin libopenmpi-dev)
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "compare.sh: installing ${need_pkgs[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y "${need_pkgs[@]}" ||
            { apt-get update && apt-get install -y "${need_pkgs[@]}"; } ||
            { echo "compare.sh: apt-get install ${need_pkgs[*]} failed" >&2; exit 2; }
    else
        echo "compare.sh: missing peer MPI; as root run: apt-get install ${need_pkgs[*]}" >&2
        echo "            (or leave the library out with --only)" >&2
        exit 2
    fi
fi

# --- work directories ------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-compare.XXXXXX") || exit 2
# shellcheck disable=SC2317 # called through the trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
if [ -n "$out" ]; then
    mkdir -p "$out/raw" || exit 2
    raw=$(cd "$out/raw" && pwd)
else
    raw=$work/raw
    mkdir -p "$raw"
fi

# --- per-library compiler and launcher ---------------------------------------
# Cores the ranks can have: CPUs this script may run on, at most one per
# physical core. More ranks than that means oversubscription.
cores=$(nproc 2>/dev/null || echo 1)
phys=$(lscpu -p=core 2>/dev/null | grep -v '^#' | sort -u | wc -l)
[ "${phys:-0}" -gt 0 ] && [ "$phys" -lt "$cores" ] && cores=$phys

declare -A cc launch status note
rd_bind=
for l in "${libs[@]}"; do
    status[$l]=ok
    note[$l]=
    case "$l" in
    rdmpi)
        cc[$l]=$prefix/bin/mpicc
        if [ ! -x "$prefix/bin/mpicc" ] || [ ! -x "$prefix/bin/mpirun" ]; then
            status[$l]=failed
            note[$l]="not installed: no $prefix/bin/mpicc or $prefix/bin/mpirun (make install, or --prefix)"
            continue
        fi
        help=$(timeout 10 "$prefix/bin/mpirun" --help 2>&1)
        if grep -q -- '--bind-to' <<<"$help"; then
            rd_bind="--bind-to core"
        elif grep -q -- '-bind-to' <<<"$help"; then
            rd_bind="-bind-to core"
        else
            note[$l]="its mpirun --help lists no --bind-to: run without explicit binding"
        fi
        launch[$l]=${BENCH_LAUNCH_RDMPI:-"$prefix/bin/mpirun -np 2 $rd_bind"}
        ;;
    mpich)
        cc[$l]=mpicc.mpich
        launch[$l]=${BENCH_LAUNCH_MPICH:-"mpirun.mpich -np 2 -bind-to core"}
        ;;
    openmpi)
        cc[$l]=mpicc.openmpi
        root=
        [ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
        launch[$l]=${BENCH_LAUNCH_OPENMPI:-"mpirun.openmpi $root -np 2 --bind-to core --mca pml ob1 --mca btl self,vader"}
        ;;
    esac
done

# launch_for <lib> <np>: the launch line for np processes. An override gets
# its process count replaced; without an override, np above the core count
# runs as --oversub-bind says: by default with each library's own placement
# (rdmpi's mpirun binds round-robin when the count divides evenly, Hydra
# binds nothing unless asked and oversubscribes by itself, and Open MPI
# refuses to start without --oversubscribe --bind-to none); core: all bind
# round-robin; none: none binds.
launch_for() {
    if [ "$tcp" = 1 ]; then
        launch_for_shm "$@" | to_tcp "$1"
    else
        launch_for_shm "$@"
    fi
}

# to_tcp <lib>: rewrites a launch line on stdin to force TCP (--tcp).
to_tcp() {
    case "$1" in
    rdmpi)   sed -e 's/^/env RDMPI_TRANSPORTS=tcp /' ;;
    mpich)   sed -e 's/$/ -genv MPIR_CVAR_NOLOCAL 1 -genv UCX_TLS tcp,self/' ;;
    openmpi) sed -e 's/--mca btl self,vader/--mca btl tcp,self/' ;;
    esac
}

launch_for_shm() {
    local l=$1 np=$2 over
    if [ "$np" = 2 ]; then
        echo "${launch[$l]}"
        return
    fi
    case "$l" in
    rdmpi)   over=${BENCH_LAUNCH_RDMPI:-} ;;
    mpich)   over=${BENCH_LAUNCH_MPICH:-} ;;
    openmpi) over=${BENCH_LAUNCH_OPENMPI:-} ;;
    esac
    if [ -n "$over" ]; then
        sed -E "s/(^|[[:space:]])(-np|-n|--np|--n)([[:space:]]+)[0-9]+([[:space:]]|\$)/\\1\\2\\3$np\\4/" <<<"$over"
        return
    fi
    local oversub=0
    [ "$np" -gt "$cores" ] && oversub=1
    case "$l" in
    rdmpi)
        if [ $oversub = 0 ]; then echo "$prefix/bin/mpirun -np $np $rd_bind"
        elif [ "$oversub_bind" = core ]; then echo "$prefix/bin/mpirun -np $np $rd_bind"
        elif [ "$oversub_bind" = none ] && [ -n "$rd_bind" ]; then echo "$prefix/bin/mpirun -np $np ${rd_bind% core} none"
        else echo "$prefix/bin/mpirun -np $np"; fi ;;
    mpich)
        if [ $oversub = 1 ] && [ "$oversub_bind" != core ]; then echo "mpirun.mpich -np $np"
        else echo "mpirun.mpich -np $np -bind-to core"; fi ;;
    openmpi)
        local root=
        [ "$(id -u)" -eq 0 ] && root="--allow-run-as-root "
        if [ $oversub = 1 ] && [ "$oversub_bind" = core ]; then
            echo "mpirun.openmpi ${root}-np $np --oversubscribe --bind-to core:overload-allowed --mca pml ob1 --mca btl self,vader"
        elif [ $oversub = 1 ]; then
            echo "mpirun.openmpi ${root}-np $np --oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader"
        else
            echo "mpirun.openmpi ${root}-np $np --bind-to core --mca pml ob1 --mca btl self,vader"
        fi ;;
    esac
}

# --- build -----------------------------------------------------------------
for l in "${libs[@]}"; do
    [ "${status[$l]}" = ok ] || continue
    build_benches "$l" "${cc[$l]}"
done

# --- benchmark arguments -----------------------------------------------------
# bench_args <bench> [SYNC-WIN]: its options (the one-sided ones: -s and -w,
# and their own defaults for sizes, 1 B to 4 MiB; 8 B for the atomics).
bench_args() {
    local rma=
    [ -n "${2:-}" ] && rma=" -s ${2%-*} -w ${2#*-}"
    if [ $quick = 1 ]; then
        case "$1" in
        latency) echo "-m 0:1M -i 1000 -I 100 -x 100 -X 5" ;;
        bw|bibw) echo "-m 1:1M -i 50 -I 10 -x 5 -X 2" ;;
        mr)      echo "-m 1:1K -i 500 -x 50" ;;
        allreduce|bcast|alltoall|ibcast) echo "-m 8:1M -i 200 -I 20 -x 20 -X 2" ;;
        put_latency|get_latency|acc_latency) echo "-m 1:1M -i 1000 -I 100 -x 100 -X 5$rma" ;;
        put_bw|get_bw) echo "-m 1:1M -i 50 -I 10 -x 5 -X 2$rma" ;;
        fop_latency|cas_latency) echo "-i 1000 -x 100$rma" ;;
        esac
    else
        case "$1" in
        latency) echo "-m 0:4M" ;;
        bw|bibw) echo "-m 1:16M" ;;
        mr)      echo "-m 1:8K" ;;
        allreduce|bcast|alltoall|ibcast) echo "-m 8:1M" ;;
        *) echo "${rma# }" ;;
        esac
    fi
}
# rma_words <SYNC-WIN>: the case in words, for titles.
rma_words() {
    local s
    case "${1%-*}" in
    flush) s="MPI_Win_flush in a lock_all epoch" ;;
    fence) s="MPI_Win_fence" ;;
    pscw)  s="post/start/complete/wait" ;;
    esac
    case "${1#*-}" in
    allocate) echo "$s, MPI_Win_allocate window" ;;
    create)   echo "$s, MPI_Win_create window" ;;
    dynamic)  echo "$s, dynamic window" ;;
    esac
}
# bench_title <bench> <np> [SYNC-WIN]
bench_title() {
    local v=
    [ -n "${3:-}" ] && v=$(rma_words "$3")
    case "$1" in
    latency) echo "osu_latency: half round-trip latency, microseconds (lower is better)" ;;
    bw)      echo "osu_bw: unidirectional bandwidth, MB/s = 1e6 B/s (higher is better)" ;;
    bibw)    echo "osu_bibw: bidirectional bandwidth, MB/s = 1e6 B/s (higher is better)" ;;
    mr)      echo "osu_mr: message rate, messages/s (higher is better)" ;;
    allreduce) echo "osu_allreduce, np=$2: MPI_Allreduce (MPI_SUM, MPI_FLOAT) latency, microseconds, slowest rank (lower is better)" ;;
    bcast)   echo "osu_bcast, np=$2: MPI_Bcast latency from rank 0, microseconds, slowest rank (lower is better)" ;;
    alltoall) echo "osu_alltoall, np=$2: MPI_Alltoall latency, size per destination, microseconds, slowest rank (lower is better)" ;;
    ibcast)  echo "osu_ibcast, np=$2: MPI_Ibcast + MPI_Wait latency, microseconds, slowest rank (lower is better)" ;;
    ibcast-overlap) echo "osu_ibcast, np=$2: overlap of MPI_Ibcast with computation, percent, median of the runs (higher is better)" ;;
    put_latency) echo "osu_put_latency, $v: MPI_Put latency, microseconds per put (lower is better)" ;;
    get_latency) echo "osu_get_latency, $v: MPI_Get latency, microseconds per get (lower is better)" ;;
    acc_latency) echo "osu_acc_latency, $v: MPI_Accumulate (MPI_SUM, MPI_INT) latency, microseconds (lower is better)" ;;
    fop_latency) echo "osu_fop_latency, $v: MPI_Fetch_and_op (MPI_SUM, 8 B) latency, microseconds (lower is better)" ;;
    cas_latency) echo "osu_cas_latency, $v: MPI_Compare_and_swap (8 B) latency, microseconds (lower is better)" ;;
    put_bw) echo "osu_put_bw, $v: MPI_Put bandwidth, windows of 64 puts, MB/s = 1e6 B/s (higher is better)" ;;
    get_bw) echo "osu_get_bw, $v: MPI_Get bandwidth, windows of 64 gets, MB/s = 1e6 B/s (higher is better)" ;;
    esac
}
# is_lat <bench>: lower is better (latency), else higher (bandwidth, rate).
is_lat() { case "$1" in latency|allreduce|bcast|alltoall|ibcast|*_latency) return 0 ;; esac; return 1; }
# fields_of <bench>: fields of a result row (size and values).
fields_of() { if [ "$1" = ibcast ]; then echo 5; else echo 2; fi; }

# --- runs --------------------------------------------------------------------
failures=()
declare -A run_failed run_unsupported
# The first error line of each library that lacked an operation, and the
# cases it could not run.
declare -A unsupported_first=() unsupported_cases=()
run_seconds=0
for b in "${bench_list[@]}"; do
    for c in $(cases_of "$b"); do
        np=${c%%:*}
        var=
        [ "$c" != "$np" ] && var=${c#*:}
        key=$(key_of "$b" "$np" "$var")
        what=osu_$b
        is_coll "$b" && what="osu_$b np=$np"
        [ -n "$var" ] && what="osu_$b $var"
        for ((r = 1; r <= repeat; r++)); do
            # Rotate the library order each repeat so no library always runs first.
            n=${#libs[@]}
            for ((k = 0; k < n; k++)); do
                l=${libs[$(( (k + r - 1) % n ))]}
                [ "${status[$l]}" = ok ] || continue
                [ -z "${run_failed[$l.$key]:-}" ] || continue
                args="$(bench_args "$b" "$var")${extra_args:+ $extra_args}"
                # The first run of each pair also verifies every payload (-c);
                # the check round is outside the timed loop.
                [ $r = 1 ] && args="$args -c"
                f=$raw/$key-$l-$r.txt
                settle_cpus
                echo "compare.sh: $what $(lib_title "$l") run $r/$repeat" >&2
                t_run=$(date +%s)
                # shellcheck disable=SC2046,SC2086 # the launch line is a word list
                timeout "$timeout_s" $(launch_for "$l" "$np") "$work/build/$l/osu_$b" $args \
                    >"$f" 2>"$raw/$key-$l-$r.err" </dev/null
                rc=$?
                run_seconds=$(( run_seconds + $(date +%s) - t_run ))
                rows=$(awk -v nf="$(fields_of "$b")" '$1 ~ /^[0-9]+$/ && NF == nf' "$f" | wc -l)
                unsup=
                [ $rc -ne 0 ] && unsup=$(unsupported_line "$raw/$key-$l-$r.err" $rc)
                if [ -n "$unsup" ]; then
                    # Not a failure of the run: the library lacks the call.
                    run_unsupported[$l.$key]=$unsup
                    run_failed[$l.$key]=1
                    unsupported_cases[$l]="${unsupported_cases[$l]:-}${unsupported_cases[$l]:+, }$what"
                    if [ -z "${unsupported_first[$l]:-}" ]; then
                        unsupported_first[$l]=$unsup
                        echo "compare.sh: $(lib_title "$l"): n/a for $what: $unsup" >&2
                    fi
                    rm -f "$f"
                elif [ $rc -ne 0 ] || [ "$rows" -eq 0 ]; then
                    why="exit $rc"
                    [ $rc -eq 124 ] && why="timeout after ${timeout_s}s"
                    [ $rc -eq 1 ] && grep -q 'check: FAILED' "$raw/$key-$l-$r.err" &&
                        why="payload check failed"
                    failures+=("$(lib_title "$l") $what run $r: $why; $(err_summary "$raw/$key-$l-$r.err")")
                    run_failed[$l.$key]=1
                    rm -f "$f"
                fi
            done
        done
    done
done

# --- tables --------------------------------------------------------------------
# bench_table <bench> <np> <SYNC-WIN or ""> [overlap]: the table of one
# benchmark at one np (one-sided: one sync and window). The ibcast overlap
# table compares percentages, so its last column is the difference in
# percentage points instead of a ratio.
bench_table() {
    local b=$1 np=$2 var=$3 part=${4:-}
    local col=2 mode=max sense=higher decimals=0 cmp=ratio
    if is_lat "$b"; then
        mode=min; sense=lower; decimals=2
        is_rma "$b" && decimals=3
    fi
    mode=$(stat_mode $mode)
    # The overlap % is a difference of two noisy means: one disturbed run
    # can claim 100 %, so the table takes the median of the runs, not the best.
    if [ "$part" = overlap ]; then
        col=5; mode=median; sense=higher; decimals=1; cmp="diff"
    fi
    table "$(bench_title "$b${part:+-$part}" "$np" "$var")" "$(key_of "$b" "$np" "$var")" \
        "$(fields_of "$b")" $col "$mode" $sense $decimals $cmp 12 22
}

elapsed=$(( $(date +%s) - start_time ))
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
# The process counts run, in order of first use.
used_nps=()
for b in "${bench_list[@]}"; do
    for np in $(nps_of "$b"); do
        case " ${used_nps[*]} " in *" $np "*) ;; *) used_nps+=("$np") ;; esac
    done
done
report() {
    local np_text=${np_list[*]}
    np_text=${np_text// /,}
    local p2p=0 rma=0 kinds=()
    for b in "${bench_list[@]}"; do
        if is_rma "$b"; then rma=1; elif ! is_coll "$b"; then p2p=1; fi
    done
    [ $p2p = 1 ] && kinds+=("point-to-point (np=2)")
    [ $rma = 1 ] && kinds+=("one-sided (np=2)")
    [ $has_coll = 1 ] && kinds+=("collective (np=$np_text)")
    if [ ${#kinds[@]} -eq 1 ]; then
        # "## One-sided comparison, np=2, one node"
        local k=${kinds[0]^}
        echo "## ${k% (*} comparison, ${k#* (}" | sed 's/)$/, one node/'
    else
        local last=${kinds[${#kinds[@]} - 1]} head
        unset "kinds[${#kinds[@]} - 1]"
        head=$(IFS=,; echo "${kinds[*]}")
        head=${head//,/, }
        echo "## ${head^} and $last comparison, one node"
    fi
    echo
    report_machine
    echo "- $(stat_words) per size$([ $quick = 1 ] && echo ', --quick (smoke test)')$([ -n "$extra_args" ] && echo "; benchmark options added: $extra_args"); ${elapsed} s in all, ${run_seconds} s of it running benchmarks"
    if [ "${used_nps[*]}" = 2 ]; then
        echo "- load average before: ${load_start:-?}, after: ${load_end:-?} (the benchmarks themselves add about 2; more means other processes shared the cores)"
    else
        echo "- load average before: ${load_start:-?}, after: ${load_end:-?} (the benchmarks themselves add about their process count, $(IFS=/; echo "${used_nps[*]}"); more means other processes shared the cores)"
    fi
    echo "- runs started while other processes kept the CPUs busy (waited ${settle} s): ${busy_starts}"
    if [ $has_coll = 1 ]; then
        case "$oversub_bind" in
        default) how="each library places them as it does by default (the launch lines below)" ;;
        core) how="every library binds them round-robin, two or more to a core" ;;
        none) how="no rank is bound" ;;
        esac
        echo "- cores for the ranks: $cores; with more ranks than that, ranks share cores and $how"
    fi
    for l in "${libs[@]}"; do
        if [ "${status[$l]}" = ok ]; then
            lib=$(lib_version "$l")
            [ -z "$lib" ] && [ -n "${unsupported_first[$l]:-}" ] &&
                lib="unknown (no benchmark ran: see \"Not supported\")"
            # An rdmpi-built binary that loaded another MPI (no rpath, say)
            # would fill the rdmpi column with someone else's numbers.
            if [ "$l" = rdmpi ] && grep -qE '^(MPICH|Open MPI)' <<<"$lib"; then
                note[$l]="WARNING: the rdmpi binaries ran on another MPI library${note[$l]:+; ${note[$l]}}"
            fi
            if [ "${used_nps[*]}" = 2 ]; then
                echo "- $(lib_title "$l"): \`$(launch_for "$l" 2)\`; library: ${lib:-unknown}${note[$l]:+; ${note[$l]}}"
            else
                echo "- $(lib_title "$l"): library: ${lib:-unknown}${note[$l]:+; ${note[$l]}}"
                for np in "${used_nps[@]}"; do
                    echo "  - np=$np: \`$(launch_for "$l" "$np")\`"
                done
            fi
        else
            echo "- $(lib_title "$l"): FAILED, ${note[$l]}"
        fi
    done
    echo
    for b in "${bench_list[@]}"; do
        for c in $(cases_of "$b"); do
            np=${c%%:*}
            var=
            [ "$c" != "$np" ] && var=${c#*:}
            bench_table "$b" "$np" "$var"
            [ "$b" = ibcast ] && bench_table "$b" "$np" "" overlap
        done
    done
    if [ ${#unsupported_first[@]} -gt 0 ]; then
        echo "### Not supported"
        echo
        for l in "${libs[@]}"; do
            [ -n "${unsupported_first[$l]:-}" ] || continue
            echo "- $(lib_title "$l") could not run ${unsupported_cases[$l]}; its first error: \`${unsupported_first[$l]}\`"
        done
        echo
    fi
    if [ ${#failures[@]} -gt 0 ]; then
        echo "### Failed runs"
        echo
        for f in "${failures[@]}"; do echo "- $f"; done
        echo
    fi
}

report | tee "$work/results.md"
if [ -n "$out" ]; then
    cp "$work/results.md" "$out/results.md"
    echo "compare.sh: raw outputs in $raw, tables in $out/results.md" >&2
fi

# Charts of the tables' values (not of the ibcast overlap %).
if [ -n "$chart_dir" ]; then
    for b in "${bench_list[@]}"; do
        for c in $(cases_of "$b"); do
            np=${c%%:*}
            var=
            [ "$c" != "$np" ] && var=${c#*:}
            mode=max sense=higher
            is_lat "$b" && mode=min sense=lower
            key=$(key_of "$b" "$np" "$var")
            chart "$chart_dir" "$key" "$(bench_title "$b" "$np" "$var")" "$key" \
                "$(fields_of "$b")" 2 "$(stat_mode $mode)" $sense
        done
    done
fi

rc=0
for l in "${libs[@]}"; do
    [ "${status[$l]}" = ok ] || { echo "compare.sh: $(lib_title "$l") FAILED: ${note[$l]}" >&2; rc=1; }
done
[ ${#failures[@]} -eq 0 ] || rc=1
[ ${#unsupported_first[@]} -eq 0 ] || rc=1
[ $rc -eq 0 ] || echo "compare.sh: some runs failed, see above" >&2
exit $rc
