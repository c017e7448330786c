#!/bin/bash
# multihost.sh: the between-hosts speed comparison. Two network namespaces
# on this machine act as two hosts joined by veth (through the bridge of
# test/multihost/netns.sh); rdmpi, MPICH and Open MPI run osu_latency and
# osu_bw (and on request the one-sided osu_put_latency and osu_get_latency)
# with one rank in each namespace, talking TCP, interleaved, and
# optionally NPB IS with two ranks per namespace. Prints markdown tables
# with the ratio rdmpi / best of MPICH and Open MPI.
# Needs root (namespaces). See doc/performance.md, "Between two hosts over TCP".

set -u

bench_prog=multihost.sh
settle_short_after_busy=0
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
    cat <<'EOF'
Usage: bench/multihost.sh [options]          (as root)

  --prefix DIR     rdmpi install prefix with bin/mpicc and bin/mpirun
                   (default: _install of this checkout)
  --only LIST      libraries, comma separated: rdmpi,mpich,openmpi (default all)
  --bench LIST     latency,bw (default both), put_latency,get_latency (one-
                   sided, 8 B to 1 MiB: MPI_Win_flush in a lock_all epoch,
                   MPI_Win_allocate window); "none" runs only --npb
  --repeat R       runs per benchmark and library, interleaved, the library
                   order rotated each round (default 3)
  --stat best|median  the value per size taken from the runs: the best
                   (default), or their median (steadier on a noisy machine;
                   use with a --repeat of 5 or more)
  --quick          few iterations (a smoke test, not for numbers)
  --npb DIR        also run NPB IS (DIR is an NPB3.4-MPI tree) through
                   npb-harness/run, with 2 ranks in each namespace; always
                   includes rdmpi, plus MPICH and Open MPI as in --only
  --npb-class C    NPB IS class (default A)
  --npb-np N       NPB IS process count, N/2 per namespace (default 4)
  --npb-timeout SEC  kill one NPB run after SEC seconds (default 300)
  --out DIR        keep raw outputs in DIR/raw, NPB results in DIR/npb, and
                   write the tables to DIR/results.md
  --chart DIR      after the run, write DIR/latency.dat and DIR/bw.dat and
                   draw DIR/latency.png and DIR/bw.png: rdmpi / MPICH and
                   rdmpi / Open MPI per size (bench/chart.sh; needs gnuplot)
  --timeout SEC    kill one run after SEC seconds (default 600, 120 --quick)
  --settle SEC     before each run wait up to SEC seconds for the CPUs to go
                   idle (default 10; 0: do not wait)
  --pin auto|off   auto (default): when every rank can have a CPU of its own
                   (N/2 ranks per namespace, at most half the CPUs this
                   script may use), each namespace "host" runs on its own
                   half of them: its launcher, daemon or proxy and ranks
                   start under "taskset -c", the same for every library;
                   else, or with off, nothing is pinned
  -h, --help       this text

Launch (each library's wrapper is printed in the report):
  rdmpi    on-host NS0 PREFIX/bin/mpirun -hosts NS0:K,NS1:K
           --launch-agent on-host --bind-to none
           -genv RDMPI_TCP_IF eth0 -np N
  MPICH    in-host NS0 mpiexec.mpich -launcher rsh -launcher-exec AGENT
           -iface eth0 -hosts IP0:K,IP1:K -np N
           -genv UCX_TLS tcp -genv UCX_NET_DEVICES eth0
  Open MPI in-host NS0 mpirun.openmpi --allow-run-as-root
           --host IP0:K,IP1:K -np N --bind-to none --mca plm_rsh_agent AGENT
           --mca pml ob1 --mca btl tcp,vader,self
           --mca btl_tcp_if_include NET/24 --mca oob_tcp_if_include NET/24
K = N/2 ranks per namespace. "on-host NS CMD" runs CMD in namespace NS
(ip netns exec), pinned to NS's CPUs (taskset -c) when pinning; "in-host
NS CMD" is the same with NS as its host name (unshare -u; Open MPI names
shared-memory segments after the host name), and AGENT HOST CMD runs
"in-host NS sh -c CMD" for the namespace whose address is HOST.

A library that answers MPI_ERR_UNSUPPORTED_OPERATION to a call of the
one-sided benchmarks shows n/a in their tables, with its first such error
under "Not supported".

Exit status: 0 every selected library ran everything, 1 some run failed or
a library could not run one (n/a; tables are still printed), 2 usage error,
missing tools or no root.
EOF
}

top=$(cd "$(dirname "$0")/.." && pwd)
prefix=$top/_install
only=rdmpi,mpich,openmpi
benches=latency,bw
repeat=3
stat=best
quick=0
npb_dir=
npb_class=A
npb_np=4
npb_timeout=300
out=
chart_dir=
timeout_s=
settle=10
pin=auto

while [ $# -gt 0 ]; do
    case "$1" in
    --prefix)    prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --only)      only=${2:?--only needs a list}; shift 2 ;;
    --bench)     benches=${2:?--bench needs a list}; shift 2 ;;
    --repeat)    repeat=${2:?--repeat needs a number}; shift 2 ;;
    --stat)      stat=${2:?--stat needs best or median}; shift 2 ;;
    --quick)     quick=1; shift ;;
    --npb)       npb_dir=${2:?--npb needs an NPB3.4-MPI directory}; shift 2 ;;
    --npb-class) npb_class=${2:?--npb-class needs a class}; shift 2 ;;
    --npb-np)    npb_np=${2:?--npb-np needs a number}; shift 2 ;;
    --npb-timeout) npb_timeout=${2:?--npb-timeout needs seconds}; shift 2 ;;
    --out)       out=${2:?--out needs a directory}; shift 2 ;;
    --chart)     chart_dir=${2:?--chart needs a directory}; shift 2 ;;
    --timeout)   timeout_s=${2:?--timeout needs seconds}; shift 2 ;;
    --settle)    settle=${2:?--settle needs seconds}; shift 2 ;;
    --pin)       pin=${2:?--pin needs auto or off}; shift 2 ;;
    -h|--help)   usage; exit 0 ;;
    *) echo "multihost.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
done

check_repeat_settle
case "$npb_np" in ''|*[!0-9]*|0) die "--npb-np wants a positive even number" ;; esac
[ $(( npb_np % 2 )) -eq 0 ] || die "--npb-np $npb_np: needs an even number (N/2 ranks per namespace)"
default_timeout
case "$timeout_s" in ''|*[!0-9]*|0) die "--timeout wants seconds" ;; esac
case "$npb_timeout" in ''|*[!0-9]*|0) die "--npb-timeout wants seconds" ;; esac
case "$pin" in auto|off) ;; *) die "--pin wants auto or off, not '$pin'" ;; esac

parse_libs
[ ${#libs[@]} -gt 0 ] || die "--only: empty list"
bench_list=()
for b in ${benches//,/ }; do
    case "$b" in
    latency|bw|put_latency|get_latency)
        case " ${bench_list[*]} " in *" $b "*) ;; *) bench_list+=("$b") ;; esac ;;
    none) ;;
    *) die "unknown benchmark '$b' (latency, bw, put_latency, get_latency, none)" ;;
    esac
done
[ ${#bench_list[@]} -gt 0 ] || [ -n "$npb_dir" ] || die "nothing to run (--bench none without --npb)"

[ "$(id -u)" -eq 0 ] || die "needs root (it creates network namespaces)"
command -v ip >/dev/null || die "needs ip (iproute2)"
[ "$pin" = off ] || command -v taskset >/dev/null || die "needs taskset (util-linux), or --pin off"
for l in "${libs[@]}"; do
    case "$l" in
    rdmpi)
        { [ -x "$prefix/bin/mpicc" ] && [ -x "$prefix/bin/mpirun" ]; } ||
            die "rdmpi is not installed in $prefix (make install, or --prefix)" ;;
    mpich)
        { command -v mpicc.mpich && command -v mpiexec.mpich; } >/dev/null ||
            die "MPICH missing: apt-get install mpich libmpich-dev (or leave it out with --only)" ;;
    openmpi)
        { command -v mpicc.openmpi && command -v mpirun.openmpi; } >/dev/null ||
            die "Open MPI missing: apt-get install openmpi-bin libopenmpi-dev (or leave it out with --only)" ;;
    esac
done
if [ -n "$npb_dir" ]; then
    [ -f "$npb_dir/config/make.def.template" ] ||
        die "--npb $npb_dir: not an NPB3.4-MPI tree (no config/make.def.template)"
    npb_dir=$(cd "$npb_dir" && pwd)
    { [ -x "$prefix/bin/mpicc" ] && [ -x "$prefix/bin/mpirun" ]; } ||
        die "--npb needs rdmpi installed in $prefix (make install, or --prefix)"
fi

start_time=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# --- hosts: network namespaces --------------------------------------------------
# Names short enough for the veth names netns.sh derives from them (<= 15).
MH_PREFIX=rdb$$-
# shellcheck disable=SC2034 # read by netns.sh
MH_BRIDGE=rdbbr$$
# shellcheck source=../test/multihost/netns.sh
. "$top/test/multihost/netns.sh"
NS0=${MH_PREFIX}0 NS1=${MH_PREFIX}1
IP0=$MH_NET.1 IP1=$MH_NET.2

work=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-multihost.XXXXXX") || exit 2
job=
npb_pid=
# ns_reap: kills whatever still runs in the namespaces (a job a timeout cut
# short can leave ranks or daemons behind); prints how many.
ns_reap() {
    local ns pids n=0
    for ns in $MH_HOSTS; do
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] || continue
        # shellcheck disable=SC2086 # a list of pids
        kill -9 $pids 2>/dev/null
        n=$(( n + $(wc -w <<<"$pids") ))
    done
    echo $n
}
# shellcheck disable=SC2317 # called through the trap
cleanup() {
    end_job
    if [ -n "$npb_pid" ]; then
        kill -TERM "$npb_pid" 2>/dev/null   # the harness restores make.def
        wait "$npb_pid"
    fi
    ns_reap >/dev/null
    mh_down
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
mh_up || { echo "multihost.sh: could not create the network namespaces" >&2; exit 2; }

# --- pinning -----------------------------------------------------------------------
# The two "hosts" share this machine's CPUs. Unpinned, where the scheduler
# puts (and moves) two polling ranks decided the result more than the
# network path: the same build measured 0.8x and 1.8x MPICH's small-message
# latency two minutes apart. So each host gets half of the CPUs this script
# may use (NS0 the first half, NS1 the second), like two machines, and its
# launcher, its daemon or proxy and its ranks start under "taskset -c"
# (every library alike; none binds ranks inside a host: --bind-to none,
# Hydra's default). Only when each rank can have a CPU of its own (N/2 <=
# CPUs per host): two ranks on one pinned CPU would measure time slicing.
# cpu_list: the CPUs this script may run on, one per line.
cpu_list() {
    local r a b
    for r in $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status | tr ',' ' '); do
        a=${r%-*} b=${r#*-}
        seq "$a" "$b"
    done
}
mapfile -t cpus < <(cpu_list)
pin_per_host=$(( ${#cpus[@]} / 2 ))
pin_cpus0=$(IFS=,; echo "${cpus[*]:0:$pin_per_host}")
pin_cpus1=$(IFS=,; echo "${cpus[*]:$pin_per_host:$pin_per_host}")
[ "$pin_per_host" -gt 0 ] || pin=off
# pinned N: 0 if runs with N ranks are pinned.
pinned() { [ "$pin" = auto ] && [ $(( ($1 + 1) / 2 )) -le "$pin_per_host" ]; }

# --- launchers -------------------------------------------------------------------
# on-host, in-host, agent and run-<lib> -np N PROGRAM ARGS... (N ranks, N/2
# in NS0 and N/2 in NS1, started from NS0, pinned per host as "pinned N"
# says; no binding inside a host): bench/netns-launch.sh, shared with
# apps/ramp/bench.sh. run-openmpi-rma adds osc/ucx for the one-sided runs.
# shellcheck source=netns-launch.sh
. "$top/bench/netns-launch.sh"
MH_PIN_CPUS0=$pin_cpus0 MH_PIN_CPUS1=$pin_cpus1 MH_PIN_PER_HOST=
[ "$pin" = auto ] && MH_PIN_PER_HOST=$pin_per_host
mh_launchers "$work" "$prefix/bin/mpirun" block
onhost=$work/on-host inhost=$work/in-host agent=$work/agent
declare -A launcher launcher_rma
for l in rdmpi mpich openmpi; do launcher[$l]=$work/run-$l; done
launcher_rma[openmpi]=$work/run-openmpi-rma
rma_selected=0
for b in "${bench_list[@]}"; do is_rma "$b" && rma_selected=1; done

declare -A status note
failures=()
# placement_check <lib> <np>: the ranks must land N/2 in each namespace,
# on that namespace's CPUs when pinned, else on all of ours.
all_cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)
placement_check() {
    local l=$1 n=$2 got want c0=$all_cpus c1=$all_cpus
    if pinned "$n"; then c0=$pin_cpus0 c1=$pin_cpus1; fi
    # shellcheck disable=SC2016 # expanded by the ranks' shell
    got=$(timeout 120 "${launcher[$l]}" -np "$n" /bin/sh -c 'echo "$(ip netns identify)/$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status)"' </dev/null 2>"$work/place-$l.err" | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
    want="$NS0/$c0:$(( n / 2 )) $NS1/$c1:$(( n / 2 )) "
    if [ "$got" != "$want" ]; then
        failures+=("$(lib_title "$l"): placement check at np $n: ranks in '${got:-nothing}' (namespace/CPUs:count), want '$want'; $(tail -n 3 "$work/place-$l.err" | tr '\n' ' ')")
        return 1
    fi
    return 0
}

# --- build -------------------------------------------------------------------------
for l in "${libs[@]}"; do
    status[$l]=ok
    note[$l]=
    [ ${#bench_list[@]} -gt 0 ] || continue
    case $l in rdmpi) cc=$prefix/bin/mpicc ;; mpich) cc=mpicc.mpich ;; openmpi) cc=mpicc.openmpi ;; esac
    build_benches "$l" "$cc" || failures+=("$(lib_title "$l"): ${note[$l]}")
    if [ "${status[$l]}" = ok ] && ! placement_check "$l" 2; then
        status[$l]=failed
        note[$l]="placement check failed (see Failures)"
    fi
done

if [ -n "$out" ]; then
    mkdir -p "$out/raw" || exit 2
    out=$(cd "$out" && pwd)
    raw=$out/raw
else
    raw=$work/raw
    mkdir -p "$raw"
fi

# --- runs --------------------------------------------------------------------------
bench_args() {
    if [ $quick = 1 ]; then
        case "$1" in
        latency) echo "-m 8:64K -i 200 -I 50 -x 20 -X 5" ;;
        put_latency|get_latency) echo "-m 8:1M -i 200 -I 50 -x 20 -X 5" ;;
        bw)      echo "-m 8:16M -i 10 -I 5 -x 2 -X 1 -w 8" ;;
        esac
    else
        case "$1" in
        # TCP round trips take tens of microseconds, not the fraction of
        # one that osu_latency's defaults (10000 iterations) are sized for;
        # the warm-up stays osu_latency's 1000: with 200 the first size
        # still carried the start of the job (8 B 0.3-1.7 us above 16 B).
        # A put or get completed by a flush is a round trip as well; they
        # run up to 1 MiB, where the active messages' pipelining shows.
        latency) echo "-m 8:64K -i 2000 -x 1000 -I 500 -X 50" ;;
        put_latency|get_latency) echo "-m 8:1M -i 2000 -x 1000 -I 500 -X 50" ;;
        bw)      echo "-m 8:16M" ;;
        esac
    fi
}
# run_job LIMIT WANT OUT ERR CMD...: runs CMD in the background (so that a
# signal to this script is handled at once, not after the run) with stdout
# in OUT and stderr in ERR. Ends it after LIMIT seconds (job_end=timeout),
# or HANG_GRACE seconds after OUT holds WANT result rows while CMD is still
# running (job_end=hung: a library that hangs in MPI_Finalize after its
# results; MPICH over UCX tcp does). Sets job_rc to CMD's exit status.
HANG_GRACE=30
run_job() {
    local limit=$1 want=$2 o=$3 e=$4 t0 now done_at=
    shift 4
    "$@" >"$o" 2>"$e" </dev/null &
    job=$!
    job_end=
    t0=$(date +%s)
    while kill -0 "$job" 2>/dev/null; do
        now=$(date +%s)
        if [ -z "$done_at" ] && [ "$(result_rows "$o")" -ge "$want" ]; then
            done_at=$now
        fi
        if [ -n "$done_at" ] && [ $(( now - done_at )) -ge $HANG_GRACE ]; then
            job_end=hung
        elif [ $(( now - t0 )) -ge "$limit" ]; then
            job_end=timeout
        fi
        if [ -n "$job_end" ]; then
            end_job
            break
        fi
        sleep 0.5
    done
    wait "$job"
    job_rc=$?
    job=
}
# end_job: SIGTERM to the launcher (it stops its ranks), SIGKILL 5 s later.
end_job() {
    local i
    [ -n "$job" ] || return 0
    kill -TERM "$job" 2>/dev/null
    for i in 1 2 3 4 5 6 7 8 9 10; do
        kill -0 "$job" 2>/dev/null || return 0
        sleep 0.5
    done
    kill -KILL "$job" 2>/dev/null
}
result_rows() { awk '$1 ~ /^[0-9]+$/ && NF == 2' "$1" 2>/dev/null | wc -l; }
# sizes MIN MAX: how many powers of two from MIN to MAX.
sizes() { local n=0 x=$1; while [ "$x" -le "$2" ]; do n=$(( n + 1 )); x=$(( x * 2 )); done; echo $n; }

# launcher_of <lib> <bench>: the launch wrapper of the library for it.
launcher_of() {
    if is_rma "$2" && [ -n "${launcher_rma[$1]:-}" ]; then echo "${launcher_rma[$1]}"
    else echo "${launcher[$1]}"; fi
}
declare -A run_failed=() hung=() run_unsupported=() unsupported_first=()
reaped=0
for b in "${bench_list[@]}"; do
    case $b in
    bw) want=$(sizes 8 16777216) ;;
    put_latency|get_latency) want=$(sizes 8 1048576) ;;
    *) want=$(sizes 8 65536) ;;
    esac
    for ((r = 1; r <= repeat; r++)); do
        n=${#libs[@]}
        for ((k = 0; k < n; k++)); do
            l=${libs[$(( (k + r - 1) % n ))]}
            if [ "${status[$l]}" != ok ] || [ -n "${run_failed[$l.$b]:-}" ]; then continue; fi
            args=$(bench_args "$b")
            [ $r = 1 ] && args="$args -c"   # verify payloads once, outside the timing
            f=$raw/$b-$l-$r.txt
            settle_cpus
            echo "multihost.sh: osu_$b $(lib_title "$l") run $r/$repeat" >&2
            # shellcheck disable=SC2086 # the arguments are a word list
            run_job "$timeout_s" "$want" "$f" "$raw/$b-$l-$r.err" \
                "$(launcher_of "$l" "$b")" -np 2 "$work/build/$l/osu_$b" $args
            reaped=$(( reaped + $(ns_reap) ))
            rows=$(result_rows "$f")
            ok=1
            if [ "$job_end" = hung ] && [ "$rows" -eq "$want" ] &&
                    { [ $r != 1 ] || grep -q '^# check: passed' "$f"; }; then
                # Every result is in: keep them, and say that it hung.
                hung[$l]=$(( ${hung[$l]:-0} + 1 ))
            elif [ -n "$job_end" ] || [ $job_rc -ne 0 ] || [ "$rows" -ne "$want" ]; then
                ok=0
            fi
            unsup=
            [ $ok = 0 ] && [ -z "$job_end" ] && unsup=$(unsupported_line "$raw/$b-$l-$r.err" $job_rc)
            if [ -n "$unsup" ]; then
                # Not a failure of the run: the library lacks the call.
                run_unsupported[$l.$b]=$unsup
                run_failed[$l.$b]=1
                [ -n "${unsupported_first[$l]:-}" ] ||
                    echo "multihost.sh: $(lib_title "$l"): n/a for osu_$b: $unsup" >&2
                unsupported_first[$l]=${unsupported_first[$l]:-$unsup}
                rm -f "$f"
            elif [ $ok = 0 ]; then
                why="exit $job_rc"
                [ "$job_end" = timeout ] && why="timeout after ${timeout_s}s"
                [ "$job_end" = hung ] && why="no exit ${HANG_GRACE}s after its output, incomplete"
                [ "$rows" -ne "$want" ] && why="$why, $rows of $want sizes"
                grep -q 'check: FAILED' "$raw/$b-$l-$r.err" && why="payload check failed"
                failures+=("$(lib_title "$l") osu_$b run $r: $why; $(err_summary "$raw/$b-$l-$r.err")")
                run_failed[$l.$b]=1
                rm -f "$f"
            fi
        done
    done
done

# --- NPB ---------------------------------------------------------------------------
npb_rc=0
npb_out=
if [ -n "$npb_dir" ]; then
    npb_out=${out:+$out/npb}
    npb_out=${npb_out:-$work/npb}
    others=()
    for l in mpich openmpi; do
        selected $l && placement_check "$l" "$npb_np" && others+=("$l")
    done
    placement_check rdmpi "$npb_np"
    # The harness builds rdmpi's binaries in the tree it is given: use a copy,
    # so the user's tree (and anyone else's run in it) is left alone.
    cp -r "$npb_dir" "$work/npb-tree" && rm -f "$work/npb-tree/bin/"*.x
    npb_args=(--npb-dir "$work/npb-tree" --benchmarks is --classes "$npb_class" --np "$npb_np"
              --prefix "$prefix" --launcher "rdmpi=${launcher[rdmpi]}" --repeat "$repeat"
              --timeout "$npb_timeout" --out "$npb_out")
    if [ ${#others[@]} -gt 0 ]; then
        npb_args+=(--compare "$(IFS=,; echo "${others[*]}")")
        for l in "${others[@]}"; do npb_args+=(--launcher "$l=${launcher[$l]}"); done
    fi
    echo "multihost.sh: npb-harness/run ${npb_args[*]}" >&2
    # In the background, so that a signal here is handled at once (cleanup
    # stops the harness, which restores the tree's make.def).
    "$top/npb-harness/run" "${npb_args[@]}" >"$work/npb.txt" 2>"$work/npb.err" &
    npb_pid=$!
    wait "$npb_pid"
    npb_rc=$?
    npb_pid=
    reaped=$(( reaped + $(ns_reap) ))
    if [ $npb_rc -ne 0 ]; then
        failures+=("NPB IS: npb-harness/run exited with $npb_rc: $(tail -n 3 "$work/npb.err" | tr '\n' ' ')")
    fi
fi

# --- tables ------------------------------------------------------------------------
# bench_table <bench>: the table of one benchmark.
bench_table() {
    case $1 in
    latency) table "osu_latency: half round-trip latency, microseconds (lower is better)" \
                 latency 2 2 "$(stat_mode min)" lower 2 ratio 10 18 ;;
    bw)      table "osu_bw: unidirectional bandwidth, MB/s = 1e6 B/s (higher is better)" \
                 bw 2 2 "$(stat_mode max)" higher 0 ratio 10 18 ;;
    put_latency) table "osu_put_latency, MPI_Win_flush in a lock_all epoch, MPI_Win_allocate window: microseconds per put (lower is better)" \
                 put_latency 2 2 "$(stat_mode min)" lower 3 ratio 10 18 ;;
    get_latency) table "osu_get_latency, MPI_Win_flush in a lock_all epoch, MPI_Win_allocate window: microseconds per get (lower is better)" \
                 get_latency 2 2 "$(stat_mode min)" lower 3 ratio 10 18 ;;
    esac
}

report() {
    local l lib
    echo "## Between two hosts (network namespaces) over TCP"
    echo
    report_machine
    echo "- hosts: namespaces $NS0 ($IP0) and $NS1 ($IP1), veth into one bridge, MTU $(ip -n "$NS0" -o link show eth0 | sed -n 's/.* mtu \([0-9]*\).*/\1/p')"
    echo "- $(stat_words) per size$([ $quick = 1 ] && echo ', --quick (smoke test, not numbers)'); $(( $(date +%s) - start_time )) s in all"
    echo "- load average before: $load_start, after: $(cut -d' ' -f1-3 /proc/loadavg) (the benchmarks add about 2)"
    echo "- runs started while other processes kept the CPUs busy (waited $settle s): $busy_starts"
    if pinned 2; then
        echo "- pinning (--pin auto): np 2 runs with $NS0 on CPUs $pin_cpus0 and $NS1 on CPUs $pin_cpus1 (taskset on each host's launcher, daemon/proxy and ranks; no binding inside a host)$([ -n "$npb_dir" ] && ! pinned "$npb_np" && echo "; NPB np $npb_np unpinned ($(( npb_np / 2 )) ranks per host, $pin_per_host CPU(s) each)")"
    else
        echo "- pinning: none (--pin $pin, $pin_per_host CPU(s) per host); every run may use CPUs $all_cpus"
    fi
    [ "$reaped" -gt 0 ] && echo "- processes left in the namespaces after runs and killed: $reaped"
    for l in "${libs[@]}"; do
        lib=$(lib_version "$l")
        echo "- $(lib_title "$l"): ${lib:-(no run)}${note[$l]:+; ${note[$l]}}"
        [ -n "${hung[$l]:-}" ] && echo "  - ${hung[$l]} run(s) printed every result, then did not exit (hang in MPI_Finalize): stopped ${HANG_GRACE} s later, results kept"
    done
    echo
    echo "Launchers (\`run-LIB -np N prog args\`; N/2 ranks per namespace):"
    echo
    echo '```'
    for l in "${libs[@]}"; do tail -n 1 "${launcher[$l]}"; done
    if [ $rma_selected = 1 ] && selected openmpi; then
        echo "# Open MPI, one-sided benchmarks:"
        tail -n 1 "${launcher_rma[openmpi]}"
    fi
    echo "# on-host NS CMD... ($onhost):"
    sed -n '4,$p' "$onhost"
    if selected mpich || selected openmpi; then
        echo "# AGENT ($agent):"
        sed -n '4,$p' "$agent"
        echo "# in-host NS CMD... ($inhost):"
        tail -n 1 "$inhost"
    fi
    echo '```'
    echo
    for b in "${bench_list[@]}"; do bench_table "$b"; done
    if [ ${#unsupported_first[@]} -gt 0 ]; then
        echo "### Not supported"
        echo
        for l in "${libs[@]}"; do
            [ -n "${unsupported_first[$l]:-}" ] &&
                echo "- $(lib_title "$l"), first error: \`${unsupported_first[$l]}\`"
        done
        echo
    fi
    if [ -n "$npb_dir" ]; then
        echo "### NPB IS class $npb_class, np $npb_np ($(( npb_np / 2 )) per namespace), best of $repeat"
        echo
        echo '```'
        cat "$work/npb.txt"
        echo '```'
        echo
    fi
    if [ ${#failures[@]} -gt 0 ]; then
        echo "### Failures"
        echo
        for l in "${failures[@]}"; do echo "- $l"; done
        echo
    fi
}

if [ -n "$out" ]; then
    report | tee "$out/results.md"
else
    report
fi
if [ -n "$chart_dir" ]; then
    for b in "${bench_list[@]}"; do
        case $b in
        latency) chart "$chart_dir" latency "osu_latency between two hosts over TCP, microseconds" \
                     latency 2 2 "$(stat_mode min)" lower ;;
        bw)      chart "$chart_dir" bw "osu_bw between two hosts over TCP, MB/s" \
                     bw 2 2 "$(stat_mode max)" higher ;;
        *)       chart "$chart_dir" "$b" "osu_$b between two hosts over TCP, microseconds" \
                     "$b" 2 2 "$(stat_mode min)" lower ;;
        esac
    done
fi
[ ${#failures[@]} -eq 0 ] && [ ${#unsupported_first[@]} -eq 0 ] || exit 1
exit 0
