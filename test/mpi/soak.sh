#!/bin/bash
# The soak on one transport: test/mpi/soak (mixed point-to-point and
# collective traffic, every byte checked) for SOAK_SECONDS (default 60) at
# SOAK_NP ranks (default 4) with RDMPI_TRANSPORTS set to the transport
# given (shm or tcp). The ranks' resident memory (VmRSS in
# /proc/<pid>/status) is sampled after a warm-up of a quarter of the run
# and again near its end, each time the largest of five samples over a
# second (a message's buffer may come and go). Fails on corruption, on a
# failed run, or when a rank's memory grew by more than
# SOAK_RSS_GROWTH_PCT (default 2) percent after the warm-up.
# Usage: soak.sh shm|tcp   (from the build directory, or with
# abs_top_builddir and srcdir set, as make check-soak does)
set -u

transport=${1:?usage: soak.sh shm|tcp}
builddir=${abs_top_builddir:-$(pwd)}
MPIRUN=$builddir/mpirun/mpirun
PROG=$builddir/test/mpi/soak
. "${srcdir:-.}/test/launcher/report.sh"
need_built check-soak "$MPIRUN" "$PROG"

TEST_NAME=soak-$transport
T=$builddir/test/mpi/$TEST_NAME.dir.$$
rm -rf "$T"
mkdir -p "$T"
FAILS=0
secs=${SOAK_SECONDS:-60}
np=${SOAK_NP:-4}
pct=${SOAK_RSS_GROWTH_PCT:-2}
warm=$((secs / 4))

# rss_max PIDS...: for each pid, the largest VmRSS (kB) of five samples
# 0.2 s apart, in order; 0 for a process that is gone.
rss_max() {
    local k p v
    declare -A m
    for k in 1 2 3 4 5; do
        for p in "$@"; do
            v=$(awk '/^VmRSS:/ { print $2 }' /proc/$p/status 2>/dev/null)
            [ -n "$v" ] && [ "$v" -gt "${m[$p]:-0}" ] && m[$p]=$v
        done
        sleep 0.2
    done
    for p in "$@"; do echo "${m[$p]:-0}"; done
}

MPITEST_TIMEOUT=$((secs + 120)) "$MPIRUN" -n "$np" --timeout $((secs + 120)) \
    -x RDMPI_TRANSPORTS="$transport" "$PROG" "$secs" </dev/null >"$T/out" 2>"$T/err" &
job=$!
for i in $(seq 1 600); do
    [ "$(grep -c '^soak: rank ' "$T/out")" -ge "$np" ] && break
    kill -0 $job 2>/dev/null || break
    sleep 0.1
done
start=$(now_ms)
pids=$(sed -n 's/^soak: rank [0-9]* pid //p' "$T/out")
if [ "$(echo $pids | wc -w)" -ne "$np" ]; then
    fail "$transport: the ranks did not start"
    sed 's/^/    | /' "$T/err" | head -20
    kill -TERM $job 2>/dev/null
    wait $job
    verdict
fi
sleep $((warm - ($(now_ms) - start) / 1000))
before=$(rss_max $pids)
sleep $((secs - 3 - ($(now_ms) - start) / 1000))
after=$(rss_max $pids)
wait $job
rc=$?

if [ $rc -eq 0 ] && grep -q '^ No Errors$' "$T/out"; then
    pass "$transport: np $np, $secs s: $(sed -n 's/^soak: \([0-9]* rounds.*\)/\1/p' "$T/out")"
else
    fail "$transport: exit status $rc"
    grep -v '^soak: rank ' "$T/out" | sed 's/^/    out| /' | head -20
    sed 's/^/    err| /' "$T/err" | head -20
fi
set -- $after
r=0
for b in $before; do
    a=$1
    shift
    echo "measured: $transport: rank $r VmRSS $b kB after $warm s, $a kB at $((secs - 3)) s"
    if [ "$b" -eq 0 ] || [ "$a" -eq 0 ]; then
        fail "$transport: rank $r was gone before the end of the run"
    elif [ $(((a - b) * 100)) -gt $((pct * b)) ]; then
        fail "$transport: rank $r's memory grew by $((a - b)) kB ($(((a - b) * 1000 / b / 10)).$(((a - b) * 1000 / b % 10)) %, more than $pct %)"
    else
        pass "$transport: rank $r's memory grew by $((a - b)) kB (at most $pct %)"
    fi
    r=$((r + 1))
done
verdict
