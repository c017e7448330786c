#!/bin/bash
# RDMPI_* variables checked once, by mpirun, before the job starts: a name
# no tunable table declares gets one warning naming the closest known
# variable; a value MPI_Init would refuse stops mpirun with one line naming
# the variable and what it accepts. Where mpirun cannot see the value (set
# on another host), rank 0 alone says it.
. "${srcdir:-.}/test/launcher/lib.sh"

R=$builddir/test/launcher/mpmd_rank
need_built check "$R"

# count_lines FILE ERE: how many lines of FILE match.
count_lines() {
    grep -Ec -- "$2" "$1"
}

RDMPI_TRANSPORT=tcp run_mpirun -n 3 "$R" x mark=$MARK
expect_rc "misspelt variable: the job runs" 0
if [ "$(count_lines "$T/err" RDMPI_TRANSPORT)" -eq 1 ] &&
    grep -q '^mpirun: warning: RDMPI_TRANSPORT (in the environment) is not an rdmpi variable, ignored; did you mean RDMPI_TRANSPORTS?' "$T/err"; then
    pass "misspelt variable: one warning naming RDMPI_TRANSPORTS"
else
    fail "misspelt variable: stderr $(cat "$T/err")"
fi

# Set by -x and -genv too; each name once.
run_mpirun -n 2 -x RDMPI_SHM_EAGR_MAX=4K -genv RDMPI_SHM_EAGR_MAX 8K -genv RDMPI_VERBOS 0 true $MARK
expect_rc "misspelt -x/-genv variables" 0
[ "$(count_lines "$T/err" 'RDMPI_SHM_EAGR_MAX .*did you mean RDMPI_SHM_EAGER_MAX\?')" -eq 1 ] &&
    [ "$(count_lines "$T/err" 'RDMPI_VERBOS .*did you mean RDMPI_VERBOSE\?')" -eq 1 ] &&
    [ "$(wc -l <"$T/err")" -eq 2 ] &&
    pass "misspelt -x/-genv variables: one warning each" ||
    fail "misspelt -x/-genv variables: stderr $(cat "$T/err")"

# Known variables, the test harnesses' included: nothing said.
RDMPI_VERBOSE=0 RDMPI_MPICH_SRC=/nowhere run_mpirun -n 2 true $MARK
expect_rc "known variables" 0
expect_no_grep "known variables: no warning" "$T/err" 'warning'

# A malformed value: one line, nothing started.
RDMPI_SHM_EAGER_MAX=banana run_mpirun -n 4 "$R" x mark=$MARK
expect_rc "malformed value" 2
if [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
    grep -q '^mpirun: RDMPI_SHM_EAGER_MAX="banana" is not valid: expected a size (K/M/G suffixes) from 0 to 1M (in the environment); nothing started' "$T/err"; then
    pass "malformed value: one line naming the variable and its range"
else
    fail "malformed value: stdout $(cat "$T/out"), stderr $(cat "$T/err")"
fi
run_mpirun -n 2 -genv RDMPI_RNDV gett true $MARK
expect_rc "malformed -genv value" 2
expect_grep "malformed -genv value named" "$T/err" \
    '^mpirun: RDMPI_RNDV="gett" is not valid: expected one of get,put,auto \(set with -x or -genv\)'

# Bad on another host only (its daemon's environment): rank 0 says it,
# the other ranks do not repeat it.
printf '#!/bin/sh\nshift\nexec env RDMPI_SHM_EAGER_MAX=banana "$@"\n' >"$T/agent"
chmod +x "$T/agent"
run_mpirun -hosts lt-other-host:3 --launch-agent "$T/agent" -n 3 "$R" x mark=$MARK
if [ "$RC" -ne 0 ] && [ "$(count_lines "$T/err" '^rdmpi: rank [1-9][0-9]*: MPI_Init failed')" -eq 0 ] &&
    grep -q 'RDMPI_SHM_EAGER_MAX="banana" is not valid' "$T/err"; then
    pass "malformed value on another host: not repeated by every rank"
else
    fail "malformed value on another host: status $RC, stderr $(cat "$T/err")"
fi

finish
