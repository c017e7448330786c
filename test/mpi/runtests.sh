#!/bin/bash
# runtests.sh: run the MPI test programs listed in test/mpi/*.testlist.
#
# Usage: runtests.sh [-k PATTERN] [-j J] [-t] [-l LIST] [LIST...]
#   -k PATTERN  run only cases whose "program np" line matches the ERE PATTERN
#   -j J        run J cases at once (default 1)
#   -t          write TAP (one "ok"/"not ok" line per case) for automake's
#               tap-driver.sh; the exit status then says only whether the
#               lists could be read, the results are in the TAP lines
#   -l LIST     testlist to read (default: *.testlist next to this script);
#               lists given as arguments are read instead, in order
# Environment:
#   MPIRUN           launcher (default: the built rdmpi mpirun, else "mpirun")
#   MPIRUN_ARGS      extra launcher arguments, e.g. "--allow-run-as-root --oversubscribe"
#   MPIRUN_TIMEOUT_OPT  launcher option taking the per-case timeout in seconds;
#                    default "--timeout" for rdmpi's mpirun, empty for any MPIRUN
#                    given explicitly (the runner enforces timeouts with timeout(1)
#                    in every case)
#   MPI_TEST_DIR     directory holding the test programs
#   RUNTESTS_IMPL    name of the MPI under test (e.g. mpich), for xfail=IMPL
#   RUNTESTS_TIMEOUT default per-case timeout in seconds (60)
#   RUNTESTS_TIMES   if 1, each case's line ends with its wall time "(N s)"
# Options on a testlist line: expect=fail-nonzero, grep=ERE (repeatable:
# stderr must match each, whether the case is expected to pass or fail,
# unless the program reports SKIP:),
# status=N (the job's exit status must be N), survivors=none (every rank
# leaves its pid in MTEST_PIDDIR, see mtest.c, and no rank may be alive when
# the launcher has returned), env=VAR=VALUE (repeatable), arg=WORD (repeatable: the
# program's arguments, in order), timeout=S, xfail=IMPL, only=rdmpi for
# programs that use rdmpi internals (PMIx, its wire formats): build-with.sh
# does not build them for other MPIs, and a case whose program is missing
# from the program directory is reported as SKIP; and when=VAR=VALUE: the
# case runs only if this script's environment has VAR set to VALUE, else it
# is reported as SKIP (e.g. when=RDMPI_TRANSPORTS=rc in a list that
# test/rdma-vm runs under several transport configurations); and
# needs=fault-injection: the case needs a library configured with
# --enable-fault-injection (RD_FAULT_INJECTION in the build tree's config.h,
# the current directory), else it is reported as SKIP with that reason.
# A program that prints a line starting "SKIP:" (a feature it tests is not
# provided, too few ranks) is reported as SKIP, never as PASS.
# Output: one line per case (PASS/FAIL/XFAIL/XPASS/SKIP name np=N), the output
# tail of failures, and a final line "N passed, N failed". Exit 0 iff nothing
# failed (with -t: iff every list could be read).
#
# Under "make check" the current directory is top_builddir: the programs are
# in ./test/mpi and mpirun in ./mpirun/mpirun.

set -u

here=$(cd "$(dirname "$0")" && pwd)
# One list per area (main.testlist, coll.testlist, dtype.testlist, ...).
list="$(ls "$here"/*.testlist 2>/dev/null | sort | tr '\n' ' ')"
pattern=
jobs=1
tap=0
while getopts "k:j:l:t" opt; do
    case $opt in
    k) pattern=$OPTARG ;;
    j) jobs=$OPTARG ;;
    l) list=$OPTARG ;;
    t) tap=1 ;;
    *) echo "usage: $0 [-k PATTERN] [-j J] [-t] [-l LIST] [LIST...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] && list="$*"

# Where the programs are: explicit, else the build tree we run in, else here.
if [ -n "${MPI_TEST_DIR:-}" ]; then
    progdir=$MPI_TEST_DIR
elif [ -x "$PWD/test/mpi/init_basic" ]; then
    progdir=$PWD/test/mpi
else
    progdir=$here
fi

if [ -n "${MPIRUN:-}" ]; then
    mpirun=$MPIRUN
    timeout_opt=${MPIRUN_TIMEOUT_OPT:-}
else
    if [ -x "$PWD/mpirun/mpirun" ]; then
        mpirun=$PWD/mpirun/mpirun
    else
        mpirun=mpirun
    fi
    timeout_opt=${MPIRUN_TIMEOUT_OPT---timeout}
fi
impl=${RUNTESTS_IMPL:-}
default_timeout=${RUNTESTS_TIMEOUT:-60}

workdir=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-tests.XXXXXX") || exit 2
trap 'rm -rf "$workdir"' EXIT

# Parse the list into arrays.
names=() nps=() expects=() greps=() envs=() args=() timeouts=() xfails=() onlys=() whens=()
statuses=() survivors=() needs=()
for f in $list; do
    [ -r "$f" ] || { echo "runtests.sh: cannot read testlist $f" >&2; exit 2; }
done
while read -r prog np rest; do
    case $prog in ''|'#'*) continue ;; esac
    if [ -n "$pattern" ] && ! echo "$prog $np" | grep -Eq -- "$pattern"; then
        continue
    fi
    expect=pass grep= env= arg= timeout=$default_timeout xfail= only= when= status= survive= need=
    for opt in $rest; do
        case $opt in
        expect=*) expect=${opt#expect=} ;;
        grep=?*) grep="$grep ${opt#grep=}" ;;
        status=[0-9]*) status=${opt#status=} ;;
        survivors=none) survive=none ;;
        env=*) env="$env ${opt#env=}" ;;
        arg=*) arg="$arg ${opt#arg=}" ;;
        timeout=*) timeout=${opt#timeout=} ;;
        xfail=*) xfail=${opt#xfail=} ;;
        only=rdmpi) only=rdmpi ;;
        when=?*=*) when=${opt#when=} ;;
        needs=fault-injection) need=fault-injection ;;
        *) echo "testlist: unknown option '$opt' for $prog" >&2; exit 2 ;;
        esac
    done
    names+=("$prog") nps+=("$np") expects+=("$expect") greps+=("$grep")
    envs+=("$env") args+=("$arg") timeouts+=("$timeout") xfails+=("$xfail") onlys+=("$only")
    whens+=("$when") statuses+=("$status") survivors+=("$survive") needs+=("$need")
done < <(cat $list)

# survivors=none: prints why the case fails if a rank of it is still
# running (a pid in the directory names a live process of the same program)
# or fewer than np ranks wrote their pid; prints nothing if every rank is gone.
survivors() {
    local dir=$1 np=$2 prog=$3 f pid n=0 alive=
    for f in "$dir"/*; do
        [ -e "$f" ] || continue
        pid=${f##*/}
        n=$((n + 1))
        # A zombie has no exe link, so only a running rank matches.
        if [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$progdir/$prog")" ]; then
            alive="$alive $pid"
            kill -KILL "$pid" 2>/dev/null
        fi
    done
    if [ -n "$alive" ]; then
        echo "rank pid(s)$alive still alive after the launcher returned"
    elif [ "$n" -lt "$np" ]; then
        echo "$n of $np ranks wrote their pid into MTEST_PIDDIR"
    fi
}

# Run case i; writes $workdir/i.out, i.err, i.verdict ("PASS" or "FAIL reason").
run_case() {
    local i=$1
    local prog=${names[$i]} np=${nps[$i]} t=${timeouts[$i]}
    local out=$workdir/$i.out err=$workdir/$i.err rc reason= t0
    t0=$(date +%s)
    if [ "${onlys[$i]}" = rdmpi ] && [ ! -x "$progdir/$prog" ]; then
        echo "SKIP rdmpi-only program, not built for this MPI" >"$workdir/$i.verdict"
        return
    fi
    if [ -n "${whens[$i]}" ]; then
        local wvar=${whens[$i]%%=*} wval=${whens[$i]#*=}
        if [ "${!wvar:-}" != "$wval" ]; then
            echo "SKIP needs $wvar=$wval" >"$workdir/$i.verdict"
            return
        fi
    fi
    if [ "${needs[$i]}" = fault-injection ] &&
        ! grep -qs '^#define RD_FAULT_INJECTION 1' "$PWD/config.h"; then
        echo "SKIP needs a library configured with --enable-fault-injection" >"$workdir/$i.verdict"
        return
    fi
    local piddir=
    if [ -n "${survivors[$i]}" ]; then
        piddir=$workdir/$i.pids
        mkdir -p "$piddir"
    fi
    local cmd=("$mpirun" -np "$np")
    [ -n "$timeout_opt" ] && cmd+=("$timeout_opt" "$t")
    # shellcheck disable=SC2206
    cmd+=(${MPIRUN_ARGS:-} "$progdir/$prog" ${args[$i]})
    # shellcheck disable=SC2086
    env ${envs[$i]} MPITEST_TIMEOUT=$((t + 5)) ${piddir:+MTEST_PIDDIR=$piddir} \
        timeout --kill-after=10 $((t + 10)) "${cmd[@]}" </dev/null >"$out" 2>"$err"
    rc=$?
    echo $(( $(date +%s) - t0 )) >"$workdir/$i.secs"
    # 124/137: timeout(1) ended the launcher; 142 (128 + SIGALRM): a rank's
    # own watchdog (MPITEST_TIMEOUT in mtest.c) fired. A hang is never a
    # pass, not even for a case that expects a non-zero exit.
    if [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ $rc -eq 142 ]; then
        reason="timeout after ${t}s"
    elif [ "${expects[$i]}" = fail-nonzero ]; then
        if [ $rc -eq 0 ]; then
            reason="exit 0, expected non-zero"
        fi
    else
        if [ $rc -ne 0 ]; then
            reason="exit $rc"
        elif ! grep -q '^ *No Errors' "$out"; then
            reason="no 'No Errors' line"
        fi
    fi
    if [ -z "$reason" ] && [ -n "${statuses[$i]}" ] && [ $rc -ne "${statuses[$i]}" ]; then
        reason="exit $rc, expected ${statuses[$i]}"
    fi
    # A program that skipped (its MPI lacks the feature) took no path to check.
    local re skipped=no
    grep -q '^SKIP:' "$out" && skipped=yes
    for re in ${greps[$i]}; do
        if [ -z "$reason" ] && [ $skipped = no ] && ! grep -Eq -- "$re" "$err"; then
            reason="exit $rc but stderr does not match /$re/"
        fi
    done
    [ -z "$reason" ] && [ -n "$piddir" ] && reason=$(survivors "$piddir" "$np" "$prog")
    if [ -z "$reason" ] && grep -q '^SKIP:' "$out"; then
        echo "SKIP $(grep -m1 '^SKIP:' "$out" | sed 's/^SKIP: *//')" >"$workdir/$i.verdict"
    elif [ -z "$reason" ]; then
        echo PASS >"$workdir/$i.verdict"
    else
        echo "FAIL $reason" >"$workdir/$i.verdict"
    fi
}

# One result line: "RESULT label (note)", or its TAP form with -t (a SKIP
# or TODO directive for SKIP, XFAIL and XPASS, which tap-driver.sh counts as
# automake's SKIP, XFAIL and XPASS).
say() {
    local result=$1 label=$2 note=${3:-}
    if [ "$tap" = 0 ]; then
        echo "$result $label${note:+ ($note)}"
        return
    fi
    case $result in
    PASS) echo "ok - $label" ;;
    SKIP) echo "ok - $label # SKIP $note" ;;
    XPASS) echo "ok - $label # TODO known to fail on $impl" ;;
    XFAIL) echo "not ok - $label # TODO $note" ;;
    FAIL) echo "not ok - $label ($note)" ;;
    esac
}

passed=0 failed=0
report() {
    local i=$1 v reason label
    v=$(cat "$workdir/$i.verdict")
    label="${names[$i]} np=${nps[$i]}"
    [ -n "${envs[$i]}" ] && label="$label${envs[$i]}"
    [ -n "${args[$i]}" ] && label="$label args:${args[$i]}"
    if [ "${RUNTESTS_TIMES:-0}" = 1 ] && [ -f "$workdir/$i.secs" ]; then
        label="$label ($(cat "$workdir/$i.secs") s)"
    fi
    if [ "${v%% *}" = SKIP ]; then
        say SKIP "$label" "${v#SKIP }"
        return
    fi
    if [ "$v" = PASS ]; then
        if [ -n "$impl" ] && [ "${xfails[$i]}" = "$impl" ]; then
            say XPASS "$label"
        else
            say PASS "$label"
        fi
        passed=$((passed + 1))
        return
    fi
    reason=${v#FAIL }
    if [ -n "$impl" ] && [ "${xfails[$i]}" = "$impl" ]; then
        say XFAIL "$label" "$reason; known to fail on $impl"
        passed=$((passed + 1))
        return
    fi
    say FAIL "$label" "$reason"
    # TAP diagnostics ("#") or indented lines: no result line either way.
    local pfx='  '
    [ "$tap" = 1 ] && pfx='#   '
    echo "$pfx--- stdout (tail) ---"
    tail -n 15 "$workdir/$i.out" | sed "s/^/$pfx/"
    echo "$pfx--- stderr (tail) ---"
    tail -n 15 "$workdir/$i.err" | sed "s/^/$pfx/"
    failed=$((failed + 1))
}

[ "$tap" = 1 ] && echo "1..${#names[@]}"
start=$(date +%s)
declare -A pid_of_case=()
running=0
for i in "${!names[@]}"; do
    if [ "$jobs" -le 1 ]; then
        run_case "$i"
        report "$i"
        continue
    fi
    while [ "$running" -ge "$jobs" ]; do
        wait -n -p done_pid
        report "${pid_of_case[$done_pid]}"
        running=$((running - 1))
    done
    run_case "$i" &
    pid_of_case[$!]=$i
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n -p done_pid
    report "${pid_of_case[$done_pid]}"
    running=$((running - 1))
done

echo "# $(( $(date +%s) - start )) s with $mpirun"
if [ "$tap" = 1 ]; then
    echo "# $passed passed, $failed failed"
    exit 0
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
