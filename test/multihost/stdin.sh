#!/bin/bash
# mpirun's stdin reaches a rank 0 that runs on another host, through the
# connection to that host's daemon: intact, with its end of file, and with
# flow control (mpirun reads only as fast as rank 0 takes it, so a fast
# producer is held back instead of filling mpirun's or the daemon's memory).
. "${srcdir:-.}/test/multihost/lib.sh"

MARK=mark=$TEST_NAME-$$
# The head runs in host 0; slot mapping puts rank 0 on the first host.
export MH_HOSTS=$H1,$H0,$H2

# 1. 5000 lines (about 500 KB: many rounds of credit) reach rank 0 on
# host 1 intact and end with end of file; the other ranks get nothing.
for i in $(seq 1 5000); do echo "line $i $(printf '%090d' $i)"; done >"$T/in"
"$MPIRUN_MH" -n 3 --timeout 120 "$CLIENT" $MARK info stdin <"$T/in" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ]; then pass "5000 lines: exit status 0"; else fail "5000 lines: exit status $rc"; cat "$T/err"; fi
if grep -q "^rank 0 .* host $H1 " "$T/out"; then
    pass "rank 0 runs on $H1"
else
    fail "rank 0 does not run on $H1:"; grep '^rank 0' "$T/out"
fi
sed -n 's/^stdin 0: //p' "$T/out" >"$T/in0"
if cmp -s "$T/in" "$T/in0"; then
    pass "stdin reaches the remote rank 0 intact (5000 lines)"
else
    fail "stdin of the remote rank 0 differs from mpirun's ($(wc -l <"$T/in0") lines)"
fi
if grep -q '^stdin [12]:' "$T/out"; then fail "another rank got stdin"; else pass "ranks 1 and 2 get no stdin"; fi

# 2. An empty stdin: rank 0 sees end of file at once.
"$MPIRUN_MH" -n 2 --timeout 60 "$CLIENT" $MARK stdin </dev/null >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && ! grep -q '^stdin' "$T/out"; then
    pass "empty stdin: end of file"
else
    fail "empty stdin: status $rc"; cat "$T/out" "$T/err"
fi

# 3. Flow control: 2 MB offered while rank 0 sleeps before reading. What
# the producer managed to write is bounded by the pipes and the 64 KiB
# credit (about 200 KB), far below what it offers; then everything arrives.
line=$(printf '%0999d' 0)
for i in $(seq 1 2000); do echo "$line"; done >"$T/big"
rm -f "$T/fifo"
mkfifo "$T/fifo"
cat "$T/big" >"$T/fifo" &
producer=$!
: >"$T/out"   # emptied before the job starts: the wait below reads it
"$MPIRUN_MH" -n 2 --timeout 120 "$CLIENT" $MARK info sleep=8 stdin <"$T/fifo" >"$T/out" 2>"$T/err" &
job=$!
for i in $(seq 1 300); do
    grep -q '^rank 0 ' "$T/out" 2>/dev/null && break
    sleep 0.1
done
sleep 1
written=$(awk '/^wchar/ { print $2 }' /proc/$producer/io 2>/dev/null)
echo "measured: the producer wrote ${written:-?} of its 2000000 bytes while rank 0 slept"
if [ -n "$written" ] && [ "$written" -lt 1048576 ]; then
    pass "flow control: mpirun took $written bytes while rank 0 did not read"
else
    fail "flow control: mpirun took ${written:-all} bytes while rank 0 did not read"
fi
wait $job
rc=$?
wait $producer 2>/dev/null
sed -n 's/^stdin 0: //p' "$T/out" >"$T/big0"
if [ $rc -eq 0 ] && cmp -s "$T/big" "$T/big0"; then
    pass "flow control: all 2 MB arrived intact"
else
    fail "flow control: status $rc, $(wc -c <"$T/big0") bytes arrived"; tail -3 "$T/err"
fi

check_leftovers "stdin"
finish
