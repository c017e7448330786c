#!/bin/bash
# mpirun's exit status: 0 when every rank succeeds, otherwise the first
# non-zero exit status; programs that do not use MPI (never connect to
# PMIx) may exit normally; a program that cannot be started gives 127.
. "${srcdir:-.}/test/launcher/lib.sh"

run_mpirun -n 4 "$CLIENT" mark=$MARK fence
expect_rc "all ranks succeed" 0

# Rank 1 exits with 3 after finalizing, rank 2 with 5 a second later.
run_mpirun -n 3 "$CLIENT" mark=$MARK fence exit@1=3 sleep=1 exit@2=5
expect_rc "first non-zero status" 3
if [ -s "$T/err" ]; then
    fail "a non-zero status after finalize is not a failure, yet mpirun said: $(head -1 "$T/err")"
else
    pass "non-zero status after finalize: no message, job not stopped"
fi

run_mpirun -n 2 sh -c "echo mark=$MARK >/dev/null"
expect_rc "non-MPI program" 0

run_mpirun -n 2 sh -c "exit 7; : $MARK"
expect_rc "non-MPI program failing" 7
expect_grep "non-MPI failure message" "$T/err" "^mpirun: rank [01] \(pid [0-9]+\) exited with status 7; stopping the job\$"

run_mpirun -n 2 false
expect_rc "false" 1

run_mpirun -n 2 ./no-such-program-$MARK
expect_rc "missing program" 127
expect_grep "missing program message" "$T/err" "^mpirun: cannot run '\./no-such-program"

finish
