#!/bin/bash
# The command line: --help, --version, usage errors (one line on stderr,
# exit status 2), the environment options -x and -genv, "--".
. "${srcdir:-.}/test/launcher/lib.sh"

# usage_error ARGS...: mpirun ARGS must fail with 2 and one line on stderr.
usage_error() {
    run_mpirun "$@"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^mpirun: ' "$T/err" &&
        [ ! -s "$T/out" ]; then
        pass "usage error: mpirun $*"
    else
        fail "mpirun $*: status $RC (expected 2), stderr: $(cat "$T/err")"
    fi
}

usage_error
usage_error --no-such-option "$CLIENT"
usage_error -q "$CLIENT"
usage_error -n
usage_error -n 0 "$CLIENT"
usage_error -n -3 "$CLIENT"
usage_error -np abc "$CLIENT"
usage_error -n 2
usage_error --np=1x "$CLIENT"
usage_error --timeout 0 "$CLIENT"
usage_error --timeout=soon "$CLIENT"
usage_error --timeout
MPIEXEC_TIMEOUT=soon usage_error "$CLIENT"
MPIEXEC_TIMEOUT=0 usage_error "$CLIENT"
usage_error --bind-to board "$CLIENT"
usage_error --bind-to
usage_error -x 1BAD "$CLIENT"
usage_error -x
usage_error -genv ONLYNAME
usage_error -genv BAD-NAME v "$CLIENT"

for h in -h --help; do
    run_mpirun $h
    expect_rc "$h" 0
    expect_grep "$h prints usage" "$T/out" '^Usage: mpirun \[options\] program'
done
for v in -V --version; do
    run_mpirun $v
    expect_rc "$v" 0
    expect_grep "$v prints the version" "$T/out" '^mpirun \(rdmpi\) [0-9]'
done

# Every spelling of the rank count.
for form in "-n 2" "-np 2" "--np 2" "--np=2"; do
    run_mpirun $form "$CLIENT" mark=$MARK echo
    expect_rc "$form" 0
    expect_out_sorted "$form starts 2 ranks" "out 0" "out 1"
done

# Environment: -x VAR, -x VAR=VALUE, -genv VAR VALUE; the last one wins.
LT_EXPORTED="from mpirun" run_mpirun -n 2 -x LT_EXPORTED -x LT_SET=one -genv LT_GENV "two words" \
    -x LT_LAST=first -genv LT_LAST second \
    sh -c 'echo "$LT_EXPORTED|$LT_SET|$LT_GENV|$LT_LAST"'
expect_rc "environment options" 0
expect_out_sorted "environment reaches every rank" \
    "from mpirun|one|two words|second" "from mpirun|one|two words|second"

# -x of an unset variable: a warning, and the job runs.
run_mpirun -n 1 -x LT_SURELY_UNSET_VARIABLE "$CLIENT" mark=$MARK
expect_rc "-x of an unset variable" 0
expect_grep "-x unset warning" "$T/err" '^mpirun: warning: -x LT_SURELY_UNSET_VARIABLE'

# Arguments after the program are the program's, even if they look like options.
run_mpirun -n 1 sh -c 'echo "$0 $1"' -n --help
expect_rc "program arguments" 0
expect_out_sorted "program gets its arguments" "-n --help"
run_mpirun -n 1 -- sh -c 'echo after dashes'
expect_out_sorted "-- ends the options" "after dashes"

finish
