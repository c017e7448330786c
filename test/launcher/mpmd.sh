#!/bin/bash
# MPMD: several programs in one MPI_COMM_WORLD, given with ':' on the
# command line (-n, -env and -x per program), with -configfile FILE
# (MPICH) or --app FILE (Open MPI). Ranks are numbered in program order and
# each sees its program's index as MPI_APPNUM.
. "${srcdir:-.}/test/launcher/lib.sh"

R=$builddir/test/launcher/mpmd_rank
need_built check "$R"

run_mpirun -n 1 "$R" first mark=$MARK : -n 2 -env MPMD_VAR two "$R" second mark=$MARK
expect_rc "a : b" 0
expect_out_sorted "a : b: one world, ranks in program order, MPI_APPNUM per program" \
    "mpmd 0 of 3 appnum 0 arg first env unset" \
    "mpmd 1 of 3 appnum 1 arg second env two" \
    "mpmd 2 of 3 appnum 1 arg second env two"

# -genv for every program, -env / -x after ':' for one, the later winning.
run_mpirun -genv MPMD_VAR all -n 2 "$R" a mark=$MARK : "$R" b mark=$MARK : \
    -np 1 -x MPMD_VAR=mine "$R" c mark=$MARK
expect_rc "three programs" 0
expect_out_sorted "three programs: -genv for all, -x after ':' for one" \
    "mpmd 0 of 4 appnum 0 arg a env all" \
    "mpmd 1 of 4 appnum 0 arg a env all" \
    "mpmd 2 of 4 appnum 1 arg b env all" \
    "mpmd 3 of 4 appnum 2 arg c env mine"

# One program: MPI_APPNUM is 0.
run_mpirun -n 2 "$R" solo mark=$MARK
expect_out_sorted "one program: MPI_APPNUM 0" \
    "mpmd 0 of 2 appnum 0 arg solo env unset" "mpmd 1 of 2 appnum 0 arg solo env unset"

# The same job from a file, in MPICH's and in Open MPI's spelling.
cat >"$T/programs" <<EOT
# coupled run
-n 2 $R x mark=$MARK

-np 1 -env MPMD_VAR y $R y mark=$MARK   # the second program
EOT
for opt in -configfile --app; do
    run_mpirun $opt "$T/programs"
    expect_rc "$opt" 0
    expect_out_sorted "$opt FILE: one program per line" \
        "mpmd 0 of 3 appnum 0 arg x env unset" \
        "mpmd 1 of 3 appnum 0 arg x env unset" \
        "mpmd 2 of 3 appnum 1 arg y env y"
done

# Across hosts: a second "host" whose daemon the agent starts right here
# gets its programs' paths, arguments and -env in the job it is sent.
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$T/agent"
chmod +x "$T/agent"
run_mpirun -hosts localhost:1,lt-other-host:2 --launch-agent "$T/agent" \
    -n 1 "$R" a mark=$MARK : -n 2 -env MPMD_VAR far "$R" b mark=$MARK
expect_rc "a : b on two hosts" 0
expect_out_sorted "a : b on two hosts" \
    "mpmd 0 of 3 appnum 0 arg a env unset" \
    "mpmd 1 of 3 appnum 1 arg b env far" \
    "mpmd 2 of 3 appnum 1 arg b env far"

# Usage errors: one line, status 2, nothing started.
usage_error() {
    run_mpirun "$@"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^mpirun: ' "$T/err" &&
        [ ! -s "$T/out" ]; then
        pass "usage error: mpirun $*"
    else
        fail "mpirun $*: status $RC (expected 2), stderr: $(cat "$T/err")"
    fi
}
usage_error -n 1 "$R" :
usage_error : "$R"
usage_error -n 1 "$R" : -n 1
usage_error -n 1 "$R" : -genv A B "$R"
usage_error -n 1 "$R" : -n 0 "$R"
usage_error -n 1 "$R" : -env 1A B "$R"
usage_error -configfile "$T/no-such-file"
usage_error -configfile "$T/programs" "$R"
usage_error -n 2 --app "$T/programs"
: >"$T/empty"
usage_error --app "$T/empty"
echo "-n 1 --tag-output $R" >"$T/bad"
usage_error -configfile "$T/bad"

finish
