#!/bin/bash
# check-mpich.sh: runs MPICH 4.0.2's own test suite (test/mpi of the MPICH
# release that rdmpi's ABI follows) against rdmpi as a user would, or against
# Debian's MPICH itself to learn what fails there on this machine.
#
# The sources come from Debian's `mpich` source package (fetch.sh, cached
# outside this tree in $RDMPI_MPICH_SRC, default ./mpich-suite/src of the
# build directory); they are never copied into rdmpi. MPICH's own test
# configure builds the programs with the implementation's compiler wrapper
# (so every program gets its Makefile.am's sources and flags, and the
# testlists their configured form), once per implementation under
# ./mpich-suite/build-IMPL; later runs rebuild only what changed or failed
# to link. Each entry of the directories' testlists (testlist, testlist.dtp,
# testlist.cvar, as MPICH's runtests reads them) runs with np capped at 4 and
# passes as runtests decides: exit 0 and " No Errors" with nothing else
# printed but "Test Passed", or the entry's resultTest (TestStatus and
# TestErrFatal want a non-zero exit, TestStatusNoErrors both). Entries
# marked xfail run too (runtests skips them unless configured with
# --enable-xfail): what fails on MPICH belongs in skip.txt instead.
# A timeout always fails.
#
# Entries that fail with MPICH 4.0.2 on this machine too, or need more than
# the machine offers, are listed in test/mpich/skip.txt and reported SKIP;
# nothing else is skipped, except what --todo names: entries rdmpi does not
# pass yet (test/mpich/todo.txt, same format), reported SKIP with the reason
# prefixed "todo:" so that CI guards everything that passes today while the
# list shrinks. A baseline (--baseline, test/mpich/rma-baseline.txt
# for rma) instead records this harness's own PASS/FAIL line for every entry
# as Debian's MPICH 4.0.2 ran it: an entry that failed there still runs, but
# its failure is reported XFAIL and does not fail the run.
#
# Usage (from the build directory; `make check-mpich`, `make check-mpich-rma`):
#   check-mpich.sh [--impl rdmpi|mpich] [--prefix DIR] [--rma] [--dirs "D ..."]
#                  [-j N] [--timeout S] [--timeout-scale K] [-k REGEX]
#                  [--from N] [--skip FILE] [--todo FILE]
#                  [--baseline FILE [--required-only]]
#                  [--list] [-v]
#   --impl      rdmpi (default: this build tree, or --prefix DIR for an
#               installed rdmpi) or mpich (mpicc.mpich, mpirun.mpich)
#   --rma       the rma directory instead of the default set
#   --dirs      the directories to run (default: pt2pt coll datatype comm
#               group init errhan attr info topo basic threads/pt2pt
#               threads/coll)
#   -j N        tests run at once (default 2) and make's parallelism
#   --timeout   seconds per test without a timeLimit of its own (default 60)
#   --timeout-scale K  multiplies every limit (a loaded machine; default 1)
#   -k REGEX    only entries whose line ("dir/name np=N options") matches
#   --from N    start at the Nth entry (to resume an interrupted run)
#   --skip FILE the skip list (default test/mpich/skip.txt; /dev/null runs
#               every entry, as a baseline run does)
#   --todo FILE entries rdmpi fails today, in skip.txt's format: SKIP, with
#               the reason prefixed "todo:" (default: none)
#   --baseline FILE  lines "PASS entry" or "FAIL entry (reason)", as this
#               script prints them for MPICH: an entry the baseline marks
#               FAIL is not required (XFAIL when it fails); entries it does
#               not name are required
#   --required-only  with --baseline: report the entries it marks FAIL as
#               SKIP instead of running them (a shorter run)
#   --list      print the entries, numbered, instead of running them
#   -v          print the output of failing tests
# Prints one line per entry (PASS/FAIL/SKIP/XFAIL dir/name np=N [options]),
# "N passed, N failed, N skipped[, N xfailed]" and the failed entries again;
# exits 1 if any entry failed.
# CI calls it from scripts/check.sh (in _build-check) as two extra suites:
# `make check-mpich` with --todo test/mpich/todo.txt and `make
# check-mpich-rma` with --required-only.
set -u

top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=$(pwd)
impl=rdmpi
prefix=
dirs="pt2pt coll datatype comm group init errhan attr info topo basic threads/pt2pt threads/coll"
jobs=2
timeout_default=60
timeout_scale=1
pattern=
from=1
skipfile=$top_srcdir/test/mpich/skip.txt
todofile=
baseline=
required_only=no
list=no
verbose=no
while [ $# -gt 0 ]; do
    case $1 in
        --impl) impl=$2; shift ;;
        --prefix) prefix=$2; shift ;;
        --rma) dirs=rma ;;
        --dirs) dirs=$2; shift ;;
        -j) jobs=$2; shift ;;
        -j*) jobs=${1#-j} ;;
        --timeout) timeout_default=$2; shift ;;
        --timeout-scale) timeout_scale=$2; shift ;;
        -k) pattern=$2; shift ;;
        --from) from=$2; shift ;;
        --skip) skipfile=$2; shift ;;
        --todo) todofile=$2; shift ;;
        --baseline) baseline=$2; shift ;;
        --required-only) required_only=yes ;;
        --list) list=yes ;;
        -v) verbose=yes ;;
        *) sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;/^set -u/d' >&2; exit 2 ;;
    esac
    shift
done

die() { echo "check-mpich: $*" >&2; exit 2; }
np_max=4
suite=$top_builddir/mpich-suite
src=$(sh "$top_srcdir/test/mpich/fetch.sh" "${RDMPI_MPICH_SRC:-$suite/src}") ||
    die "could not get MPICH's sources"
build=$suite/build-$impl
mkdir -p "$build"

# The compiler wrapper and launcher of the implementation under test.
case $impl in
    rdmpi)
        if [ -n "$prefix" ]; then
            mpicc=$prefix/bin/mpicc
            mpirun=$prefix/bin/mpirun
        else
            # The build tree's wrapper, pointed at the tree's header and
            # library instead of the prefix it will be installed in.
            wrapper=$top_builddir/src/wrappers/mpicc
            [ -f "$wrapper" ] && [ -f "$top_builddir/.libs/libmpi.so" ] ||
                die "rdmpi is not built in $top_builddir (run make first)"
            mkdir -p "$suite/bin"
            sed -e "s|^includedir=.*|includedir=\"$top_srcdir/include\"|" \
                -e "s|^libdir=.*|libdir=\"$top_builddir/.libs\"|" \
                "$wrapper" >"$suite/bin/mpicc.tmp"
            chmod +x "$suite/bin/mpicc.tmp"
            mv "$suite/bin/mpicc.tmp" "$suite/bin/mpicc"
            mpicc=$suite/bin/mpicc
            mpirun=$top_builddir/mpirun/mpirun
        fi ;;
    mpich)
        mpicc=$(command -v mpicc.mpich) || die "mpicc.mpich not found (apt-get install mpich libmpich-dev)"
        mpirun=$(command -v mpirun.mpich) || die "mpirun.mpich not found" ;;
    *) die "unknown --impl $impl" ;;
esac
[ -x "$mpicc" ] && [ -x "$mpirun" ] || die "$mpicc or $mpirun missing"

# MPICH's test configure, once per wrapper: C only, the thread tests, no
# process spawning, fault tolerance, checkpointing, MPI-IO or performance
# tests (none of them is in the directories run here), and not the ~860
# entries of coll/testlist.cvar, which rerun the collective tests under
# each of MPICH's internal algorithms chosen by MPIR_CVAR_* variables.
confargs="CC=$mpicc MPICC=$mpicc MPIEXEC=$mpirun --disable-fortran --disable-cxx
  --disable-romio --disable-spawn --disable-ft-tests --disable-perftest
  --disable-checkpointing --disable-collalgo-tests --enable-threads=multiple
  --enable-rma"
stamp="$confargs $("$mpicc" -show 2>/dev/null)"
if [ ! -f "$build/config.status" ] || [ "$(cat "$build/.stamp" 2>/dev/null)" != "$stamp" ]; then
    echo "check-mpich: configuring MPICH's tests for $impl in $build" >&2
    rm -rf "$build"
    mkdir -p "$build"
    # shellcheck disable=SC2086
    (cd "$build" && "$src/test/mpi/configure" -q $confargs >configure.log 2>&1) ||
        die "configure failed, see $build/configure.log"
    printf '%s' "$stamp" >"$build/.stamp"
fi

# Build: the support libraries first (each directory's Makefile would
# otherwise start them from parallel jobs), then every directory with -k so
# that one program that does not link costs only itself.
echo "check-mpich: building $dirs with $mpicc (-j$jobs)" >&2
make -s -C "$build/util" >"$build/util.log" 2>&1 &&
    make -s -C "$build/dtpools" >"$build/dtpools.log" 2>&1 ||
    die "building MPICH's test utilities failed, see $build/util.log, dtpools.log"
for d in $dirs; do
    make -k -j"$jobs" -C "$build/$d" >"$build/$d/make.log" 2>&1
done

# The skip list: "dir/name np [key=value ...]  reason"; options, when
# given, must equal the entry's, otherwise the line covers every variant.
skip_reason() {  # id np opts -> prints the reason if listed
    awk -v id="$1" -v np="$2" -v opts="$3" -v todo="$todofile" '
        /^[ \t]*(#|$)/ { next }
        $1 == id && $2 == np {
            o = ""; i = 3
            while (i <= NF && $i ~ /^[a-zA-Z]+=/) { o = o (o == "" ? "" : " ") $i; i++ }
            if (o != "" && o != opts) next
            r = ""; for (; i <= NF; i++) r = r (r == "" ? "" : " ") $i
            print (FILENAME == todo ? "todo: " : "") r; exit
        }' "$skipfile" ${todofile:+"$todofile"}
}

# The baseline: the status and reason MPICH had for each entry line.
declare -A base_status=() base_why=()
if [ -n "$baseline" ]; then
    [ -f "$baseline" ] || die "no baseline $baseline"
    while IFS= read -r l; do
        case $l in PASS\ *|FAIL\ *) ;; *) continue ;; esac
        rest=${l#* }
        key=${rest%% (*}
        # An entry listed twice (lockcontention2) is required if it passed once.
        [ "${base_status[$key]:-}" = PASS ] && continue
        base_status[$key]=${l%% *}
        why=${rest#"$key"}
        why=${why# (}
        base_why[$key]=${why%)}
    done <"$baseline"
fi

# This run's entries, one per line (dir|name|np|options, as runtests parses
# them), and the status of each; runs of other directories may share $build.
run=$(mktemp -d "$build/.run.XXXXXX")
trap 'rm -rf "$run"' EXIT
trap 'exit 130' INT TERM
entries=$run/entries
: >"$entries"
list_dir() {  # dir (relative to the build directory)
    local d=$1 f file line name np spec lists=
    for f in "$build/$d"/testlist* "$src/test/mpi/$d"/testlist*; do
        [ -f "$f" ] && lists=yes
    done
    if [ -z "$lists" ]; then
        # No testlist (basic): runtests runs every program of the directory
        # with its default np, 2.
        for name in $(printf 'p:\n\t@echo $(noinst_PROGRAMS)\n' |
                      make -s --no-print-directory -C "$build/$d" -f Makefile -f - p); do
            echo "$d|$name|2|" >>"$entries"
        done
        return
    fi
    for f in testlist testlist.dtp testlist.cvar; do
        file=$build/$d/$f
        [ -f "$file" ] || file=$src/test/mpi/$d/$f
        [ -f "$file" ] || continue
        while IFS= read -r line; do
            line=${line%%#*}
            # shellcheck disable=SC2086
            set -- $line
            [ $# -gt 0 ] || continue
            case $1 in
                !*) spec=${1#!}   # "!dir:target": build a helper first
                    (cd "$build/$d/${spec%%:*}" && make -s "${spec#*:}") >/dev/null 2>&1
                    continue ;;
            esac
            name=$1
            if [ -d "$build/$d/$name" ]; then
                list_dir "$d/$name"
                continue
            fi
            np=${2:-2}
            [ "$np" -gt $np_max ] && np=$np_max
            shift; [ $# -gt 0 ] && shift
            echo "$d|$name|$np|$*" >>"$entries"
        done <"$file"
    done
}
for d in $dirs; do
    [ -d "$build/$d" ] || die "no directory $d in MPICH's tests"
    list_dir "$d"
done

# Prints an entry's result and keeps it in $res for the summary; a failure
# the baseline has for MPICH too becomes XFAIL.
report() {  # status line [why]
    local st=$1 line=$2 why=${3:-}
    if [ "$st" = FAIL ] && [ "${base_status[$line]:-}" = FAIL ]; then
        st=XFAIL
        why="$why; MPICH 4.0.2: ${base_why[$line]:-failed}"
    fi
    echo "$st $line${why:+ ($why)}" | tee "$res"
}

# Runs one entry in its directory and prints its line; the status goes to
# the entry's .res file for the summary.
run_one() {  # index dir name np options
    local i=$1 d=$2 name=$3 np=$4 opts=$5 o key val limit=
    local args=() envs=() mpiargs=() result= out res rc why
    for o in $opts; do
        key=${o%%=*} val=${o#*=}
        case $key in
            arg) args+=("$val") ;;
            env) envs+=("$val") ;;
            mpiexecarg) mpiargs+=("$val") ;;
            timeLimit) limit=$val ;;
            resultTest) result=$val ;;
        esac
    done
    limit=$(( ${limit:-$timeout_default} * timeout_scale ))
    out=$build/$d/out/$name.$i.out
    res=$run/$i.res
    local line="$d/$name np=$np${opts:+ $opts}"
    if [ ! -x "$build/$d/$name" ]; then
        why=$(make -C "$build/$d" "$name" 2>&1 | grep -m1 -E 'undefined reference|error:' |
              sed 's/.*\(undefined reference to\)/\1/; s/.*error: /error: /')
        report FAIL "$line" "not built: ${why:-see $build/$d/make.log}"
        return
    fi
    # The launcher gets the limit as MPIEXEC_TIMEOUT (init/timeout checks
    # that it ends the job) and a few seconds to act on it before timeout.
    # A launcher that ends the job on its own limit may exit 124 as timeout(1)
    # does (rdmpi's mpirun): only timeout(1) firing, at limit + 10 s, is a
    # hang.
    local t0=$SECONDS
    (cd "$build/$d" && env MPIEXEC_TIMEOUT="$limit" "${envs[@]}" \
        timeout -k 10 $((limit + 10)) "$mpirun" -n "$np" "${mpiargs[@]}" "./$name" "${args[@]}" \
        >"$out" 2>&1 </dev/null)
    rc=$?
    local hung=0
    { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && [ $((SECONDS - t0)) -ge $((limit + 10)) ] && hung=1
    why=$(awk -v rc="$rc" -v hung="$hung" -v kind="${result:-default}" '
        /FORTRAN STOP/ { next }
        kind == "TestStatus" || kind == "TestErrFatal" { next }
        /^[ \t]*No [Ee]rrors[ \t]*$/ && !noerr { noerr = 1; next }
        kind == "TestStatusNoErrors" && /^[ \t]*No [Ee]rrors[ \t]*$/ { next }
        /^srun: error: .*: signal: Communication connection failure/ { next }
        /^[ \t]*Test Passed[ \t]*$/ || /requesting checkpoint[ \t]*$/ || /checkpoint completed[ \t]*$/ { next }
        !bad { bad = $0; gsub(/[\r\t]/, " ", bad); if (length(bad) > 100) bad = substr(bad, 1, 100) "..." }
        END {
            if (hung) { print "timeout"; exit }
            if (kind == "TestStatus" || kind == "TestErrFatal") {
                if (rc == 0) print "exit 0, a failure was expected"; exit
            }
            if (bad != "") { print "output: " bad; exit }
            if (!noerr) { print "no \"No Errors\", exit " rc; exit }
            if (kind == "TestStatusNoErrors") { if (rc == 0) print "exit 0, a failure was expected"; exit }
            if (rc != 0) print "exit " rc
        }' "$out")
    [ "$why" = timeout ] && why="timeout ${limit}s"
    if [ -z "$why" ]; then
        report PASS "$line"
    else
        report FAIL "$line" "$why"
        [ $verbose = yes ] && sed 's/^/    | /' "$out" | head -40
    fi
}

i=0
while IFS='|' read -r d name np opts; do
    i=$((i + 1))
    [ "$i" -lt "$from" ] && continue
    line="$d/$name np=$np${opts:+ $opts}"
    [ -n "$pattern" ] && ! echo "$line" | grep -Eq -- "$pattern" && continue
    if [ $list = yes ]; then
        echo "$i $line"
        continue
    fi
    mkdir -p "$build/$d/out"
    why=$(skip_reason "$d/$name" "$np" "$opts")
    if [ -z "$why" ] && [ $required_only = yes ] && [ "${base_status[$line]:-}" = FAIL ]; then
        why="not required, MPICH 4.0.2: ${base_why[$line]:-failed}"
    fi
    if [ -n "$why" ]; then
        echo "SKIP $line ($why)" | tee "$run/$i.res"
        continue
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run_one "$i" "$d" "$name" "$np" "$opts" &
done <"$entries"
wait
[ $list = yes ] && exit 0

count() { cat "$run"/*.res 2>/dev/null | grep -c "^$1 "; }
pass=$(count PASS) fail=$(count FAIL) skip=$(count SKIP) xfail=$(count XFAIL)
echo "$pass passed, $fail failed, $skip skipped${baseline:+, $xfail xfailed (fail with MPICH 4.0.2 too)}"
if [ "$fail" -gt 0 ]; then
    echo "failed:"
    cat "$run"/*.res | grep '^FAIL ' | sort -V | sed 's/^FAIL /  /'
fi
[ "$fail" -eq 0 ]
