#!/bin/bash
# rdmpi_info and mpirun --info: the text and --json reports (the JSON parsed
# with python3), a bad value and an unknown variable making the exit status
# 1 with the variable named, --all adding the test-only variables.
. "${srcdir:-.}/test/info/lib.sh"

clean "$INFO" >"$T/text" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && pass "text: exit 0" || fail "text: exit $rc: $(cat "$T/err")"
for re in '^rdmpi [0-9]+\.[0-9]+' '^configure: ' '^Transports' '^  shm  +built +usable ' \
          '^  tcp  +built +usable .*loopback' '^RDMA devices:' '^Tunables' \
          '^  RDMPI_TRANSPORTS +shm,rc,tcp +shm,rc,tcp ' '^  RDMPI_SHM_EAGER_MAX +4K +4K ' \
          '^  RDMPI_HEARTBEAT_TIMEOUT +20 +20 '; do
    grep -Eq -- "$re" "$T/text" && pass "text has /$re/" || fail "text lacks /$re/"
done
if grep -q RDMPI_UD_DROP_RATE "$T/text"; then
    fail "a test-only variable shown without --all"
else
    pass "test-only variables hidden without --all"
fi
clean "$INFO" --all >"$T/all" 2>&1
grep -Eq '^  RDMPI_UD_DROP_RATE .*\[test only\]' "$T/all" && pass "--all shows test-only variables" \
    || fail "--all lacks RDMPI_UD_DROP_RATE"
grep -Eq 'size: a size \(K/M/G suffixes\) from 0 to 1M; read in src/transport/shm/shm.c' "$T/all" \
    && pass "--all shows range and reader" || fail "--all lacks range and reader"

# JSON: parses, has every section, agrees with the text report.
clean "$INFO" --all --json >"$T/json" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && pass "json: exit 0" || fail "json: exit $rc"
if python3 - "$T/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("version", "configure", "transports", "devices", "tunables", "unknown"):
    assert k in d, k
tp = {t["name"]: t for t in d["transports"]}
assert set(tp) == {"shm", "tcp", "rc", "ud"}, tp
assert tp["shm"]["built"] and tp["shm"]["usable"], tp["shm"]
assert tp["tcp"]["usable"], tp["tcp"]
for t in tp.values():
    assert t["usable"] or t["how"], t        # an unusable transport says why
names = [t["name"] for t in d["tunables"]]
assert len(names) == len(set(names)), "a variable declared twice"
assert all(n.startswith("RDMPI_") for n in names)
for t in d["tunables"]:
    assert t["error"] is None and not t["set"], t
    assert t["meaning"] and t["default"] and t["file"], t
for dev in d["devices"]:
    for p in dev["ports"]:
        assert p["gid_index"] == -1 or any(g["index"] == p["gid_index"] for g in p["gids"]), p
print(len(names), "tunables,", len(d["devices"]), "devices")
PY
then pass "json parses and is consistent"; else fail "json"; fi

# A bad value: exit 1, the variable, the value and the range named.
clean RDMPI_RC_TIMEOUT=99 "$INFO" >"$T/bad" 2>&1
rc=$?
[ $rc -eq 1 ] && pass "bad value: exit 1" || fail "bad value: exit $rc"
grep -q 'INVALID: RDMPI_RC_TIMEOUT="99" is not valid: expected a whole number from 1 to 31' "$T/bad" \
    && pass "bad value named with its range" || fail "bad value: $(grep -i invalid "$T/bad")"
clean RDMPI_RC_TIMEOUT=abc "$INFO" --json >"$T/badj" 2>&1
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=[t for t in d["tunables"] if t["name"]=="RDMPI_RC_TIMEOUT"][0]; assert t["set"] and t["value"]=="abc" and "from 1 to 31" in t["error"], t' "$T/badj" \
    && pass "json: bad value's error" || fail "json: bad value's error"

# An RDMPI_* variable no table declares (a typo).
clean RDMPI_SHM_EAGERMAX=8K "$INFO" >"$T/unk" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^unknown: RDMPI_SHM_EAGERMAX=8K .*did you mean RDMPI_SHM_EAGER_MAX?' "$T/unk" \
    && pass "unknown variable reported" || fail "unknown variable: exit $rc"

# mpirun --info is rdmpi_info, options passed on.
clean "$MPIRUN" --info >"$T/m" 2>&1
rc=$?
[ $rc -eq 0 ] && cmp -s "$T/text" "$T/m" && pass "mpirun --info = rdmpi_info" \
    || fail "mpirun --info: exit $rc, $(diff "$T/text" "$T/m" | head -5)"
clean "$MPIRUN" --info --json | python3 -c 'import json,sys; json.load(sys.stdin)' \
    && pass "mpirun --info --json parses" || fail "mpirun --info --json"
clean RDMPI_RC_TIMEOUT=0 "$MPIRUN" --info >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && pass "mpirun --info: exit status of rdmpi_info" || fail "mpirun --info: exit $rc"
"$INFO" --bogus >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] && pass "usage error: exit 2" || fail "usage error: exit $rc"

finish
