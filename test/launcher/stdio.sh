#!/bin/bash
# Forwarding of the ranks' stdout and stderr (whole lines, the right
# stream, --tag-output's "[rank] " prefix, a last line without newline)
# and of stdin to rank 0 only.
. "${srcdir:-.}/test/launcher/lib.sh"

run_mpirun -n 3 "$CLIENT" mark=$MARK echo
expect_rc "echo" 0
expect_out_sorted "stdout of 3 ranks on stdout" "out 0" "out 1" "out 2"
for r in 0 1 2; do
    expect_grep "stderr of rank $r on stderr" "$T/err" "^err $r\$"
done

run_mpirun -n 3 --tag-output "$CLIENT" mark=$MARK echo partial
expect_rc "tagged" 0
expect_out_sorted "tagged stdout, partial lines ended at exit" \
    "[0] out 0" "[1] out 1" "[2] out 2" "[0] partial 0" "[1] partial 1" "[2] partial 2"
expect_grep "tagged stderr" "$T/err" '^\[2\] err 2$'

# Untagged, a last line without newline is passed on as it is.
run_mpirun -n 1 "$CLIENT" mark=$MARK partial
expect_rc "partial" 0
if [ "$(cat "$T/out")" = "partial 0" ] && [ "$(wc -c <"$T/out")" -eq 9 ]; then
    pass "untagged partial line kept as is"
else
    fail "untagged partial line: '$(cat "$T/out")'"
fi

# Many lines from many ranks at once: none is torn or lost.
run_mpirun -n 4 --tag-output sh -c 'i=0; while [ $i -lt 2000 ]; do echo "line $i of a rank that writes quite a lot"; i=$((i+1)); done'
expect_rc "many lines" 0
bad=$(grep -Evc '^\[[0-3]\] line [0-9]+ of a rank that writes quite a lot$' "$T/out")
total=$(wc -l <"$T/out")
if [ "$bad" -eq 0 ] && [ "$total" -eq 8000 ]; then
    pass "8000 whole tagged lines"
else
    fail "many lines: $total lines, $bad malformed"
fi

# stdin goes to rank 0; rank 1 reads /dev/null.
seq 1 5000 >"$T/in"
IN=$T/in run_mpirun -n 2 "$CLIENT" mark=$MARK stdin
expect_rc "stdin" 0
sed -n 's/^stdin 0: //p' "$T/out" >"$T/in0"
if cmp -s "$T/in" "$T/in0"; then
    pass "stdin reaches rank 0 intact (5000 lines)"
else
    fail "stdin of rank 0 differs from mpirun's"
fi
if grep -q '^stdin 1:' "$T/out"; then
    fail "rank 1 got stdin"
else
    pass "rank 1 gets no stdin"
fi

# A rank 0 that does not read its stdin does not stop the job.
IN=$T/in run_mpirun -n 2 "$CLIENT" mark=$MARK echo
expect_rc "unread stdin" 0

finish
