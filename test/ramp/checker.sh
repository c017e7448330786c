#!/bin/bash
# rdmpi-ramp's checker and its input checks. With RAMP's second round
# switched off (--no-second-round) GETs return fractured reads, which
# --check must report; histories edited by hand must fail for each kind
# of violation (--check-only); bad options stop every run with one line
# and a non-zero exit before any work.
. "${srcdir:-.}/test/ramp/lib.sh"

# A store without the second round: fractured reads appear when a GET
# falls between the COMMITs of a PUT at two servers (RACE pauses there);
# the race is likely, not certain, so up to three runs.
for m in rpc plus star; do
    found=0
    for seed in 1 2 3; do
        hist=$T/$MARK.frac
        run_mpirun -np 6 "$RAMP" --method $m --txns 300 --seed $seed $RACE \
            --no-second-round --history "$hist" --check
        rm -rf "$hist"
        if [ "$RC" -ne 0 ] && grep -q '^check: .*: fractured read: ' "$T/out"; then
            found=1
            break
        fi
    done
    if [ $found -eq 1 ]; then
        pass "$m without the second round: the checker reports fractured reads (seed $seed)"
        expect_grep "$m: the summary says FAILED" "$T/out" '^check: FAILED: [1-9][0-9]* violation'
    else
        fail "$m without the second round: no fractured read reported in 3 runs"
        sed 's/^/    | /' "$T/out" | tail -5
    fi
done

# Histories by hand: 3 keys, two PUTs, one client's reads.
H=$T/$MARK.hand
mkdir -p "$H"
load='{"op":"put","ts":0,"items":[{"key":0,"crc":10},{"key":1,"crc":11},{"key":2,"crc":12}]}'
put1='{"op":"put","ts":65536,"items":[{"key":0,"crc":20},{"key":1,"crc":21}]}'
put2='{"op":"put","ts":131073,"items":[{"key":1,"crc":31},{"key":2,"crc":32}]}'
final='{"op":"get","final":true,"items":[{"key":0,"ts":65536,"crc":20},{"key":1,"ts":131073,"crc":31},{"key":2,"ts":131073,"crc":32}]}'
# hand_check WHAT RC PATTERN GET-LINES...: the history is the load, both
# PUTs, the GET lines given, the final read; --check-only must exit RC
# with a line matching PATTERN.
hand_check() {
    local what=$1 rc=$2 pat=$3
    shift 3
    rm -f "$H"/*
    { echo "$load"; echo "$put1"; } >"$H/history.2.jsonl"
    { echo "$put2"; [ $# -eq 0 ] || printf '%s\n' "$@"; echo "$final"; } >"$H/history.3.jsonl"
    run_mpirun -np 1 "$RAMP" --check-only --history "$H"
    expect_rc "$what" "$rc"
    expect_grep "$what: reported" "$T/out" "$pat"
}
hand_check "a consistent history" 0 '^check: ok: 0 violation\(s\) in 2 file\(s\): 3 PUTs, 2 GETs, 3 keys$' \
    '{"op":"get","items":[{"key":0,"ts":65536,"crc":20},{"key":1,"ts":65536,"crc":21}]}'
hand_check "a fractured read" 1 'history\.3\.jsonl:2: fractured read: key 0 at timestamp 65536, but key 1, .* at older timestamp 0' \
    '{"op":"get","items":[{"key":0,"ts":65536,"crc":20},{"key":1,"ts":0,"crc":11}]}'
hand_check "a torn value" 1 'history\.3\.jsonl:2: read key 2 at timestamp 131073 with crc 99, the PUT wrote crc 32' \
    '{"op":"get","items":[{"key":2,"ts":131073,"crc":99}]}'
hand_check "a phantom version" 1 'read key 2 at timestamp 7, which no PUT wrote' \
    '{"op":"get","items":[{"key":2,"ts":7,"crc":32}]}'
hand_check "a version of another key" 1 'read key 2 at timestamp 65536, but that PUT did not write it' \
    '{"op":"get","items":[{"key":2,"ts":65536,"crc":20}]}'
hand_check "a timestamp written twice" 1 'timestamp 65536 written twice' "$put1"
final='{"op":"get","final":true,"items":[{"key":0,"ts":65536,"crc":20},{"key":1,"ts":65536,"crc":21},{"key":2,"ts":131073,"crc":32}]}'
hand_check "a final read missing the newest PUT" 1 'final read: key 1 at timestamp 65536, its newest PUT is 131073'
echo 'not json' >>"$H/history.3.jsonl"
run_mpirun -np 1 "$RAMP" --check-only --history "$H"
expect_rc "a line that is not a record" 1
expect_grep "a line that is not a record: named" "$T/out" 'history\.3\.jsonl:3: not a history record'
rm -rf "$H"

# Bad input: one line on stderr, exit 2, no work (no summary).
bad_input() {
    local what=$1 np=$2 pat=$3
    shift 3
    run_mpirun -np "$np" "$RAMP" "$@" --history "$T/$MARK.bad"
    expect_rc "$what" 2
    expect_grep "$what: says why" "$T/err" "$pat"
    if [ "$(grep -c . "$T/err")" -eq 1 ] && [ ! -s "$T/out" ] && [ ! -e "$T/$MARK.bad" ]; then
        pass "$what: one line, no work"
    else
        fail "$what: expected one line on stderr and nothing done"
        sed 's/^/    | /' "$T/err" "$T/out" | head
    fi
}
bad_input "unknown method" 3 "^rdmpi-ramp: unknown method 'fast'" --method fast
bad_input "more servers than ranks" 3 "^rdmpi-ramp: --servers 4 leaves no client among 3 ranks" --servers 4
bad_input "as many servers as ranks" 3 "^rdmpi-ramp: --servers 3 leaves no client" --servers 3
bad_input "key space below the transaction size" 3 \
    "^rdmpi-ramp: --keys 4 is smaller than --txn-size 8" --keys 4 --txn-size 8
bad_input "value size 0" 3 "^rdmpi-ramp: --value-size 0: expected a whole number from 1" --value-size 0
bad_input "unknown option" 3 "^rdmpi-ramp: unknown or incomplete option '--frobnicate'" --frobnicate

run_mpirun -np 2 "$RAMP" --help
expect_rc "--help" 0
for opt in method mailbox window servers concurrency reads keys value-size txn-size dist txns seconds \
    seed prepare-delay-us commit-stagger-us history check check-only csv no-second-round; do
    expect_grep "--help lists --$opt" "$T/out" "^  --$opt"
done

# --csv appends the summary, with a header on a new file.
run_mpirun -np 3 "$RAMP" --txns 20 --keys 16 --txn-size 4 --csv "$T/$MARK.csv"
run_mpirun -np 3 "$RAMP" --txns 20 --keys 16 --txn-size 4 --reads 100 --csv "$T/$MARK.csv"
expect_rc "--csv" 0
if [ "$(head -1 "$T/$MARK.csv")" = "method,reads,txn_size,servers,clients,txns,seconds,txn_per_s,p50_us,p99_us" ] &&
    [ "$(grep -c '^rpc,' "$T/$MARK.csv")" -eq 2 ] && grep -q '^rpc,100,4,1,2,40,' "$T/$MARK.csv"; then
    pass "--csv: a header, then one row per run"
else
    fail "--csv: unexpected file"
    sed 's/^/    | /' "$T/$MARK.csv"
fi
rm -f "$T/$MARK.csv"
finish
