#!/bin/bash
# doc/tunables.md against the tables (rdmpi_info --all --json): every
# variable a table declares is documented and every documented one is
# declared, with the same default and the same reading file.
. "${srcdir:-.}/test/info/lib.sh"

clean "$INFO" --all --json >"$T/json" || { echo "FAIL: rdmpi_info"; exit 1; }
python3 - "$T/json" "$srcdir/doc/tunables.md" <<'PY'
import json, re, sys
tables = {t["name"]: t for t in json.load(open(sys.argv[1]))["tunables"]}
doc = {}
for line in open(sys.argv[2]):
    m = re.match(r"\|\s*`(RDMPI_[A-Z0-9_]+)`\s*\|([^|]*)\|([^|]*)\|", line)
    if m:
        doc[m.group(1)] = (m.group(2).strip(), m.group(3).strip())

def number(s):
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)([kKmMgG]?)", s)
    if not m:
        return None
    return float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()]

fails = 0
for name in sorted(set(tables) - set(doc)):
    print(f"FAIL: {name} is in a table but not in doc/tunables.md"); fails += 1
for name in sorted(set(doc) - set(tables)):
    print(f"FAIL: {name} is in doc/tunables.md but in no table"); fails += 1
for name in sorted(set(doc) & set(tables)):
    t, (dflt, where) = tables[name], doc[name]
    if dflt.startswith("unset"):
        same = t["default"] == "unset"
    else:
        m = re.match(r"`([^`]*)`", dflt)
        want = m.group(1) if m else dflt
        a, b = number(want), number(t["default"])
        same = a == b if a is not None and b is not None else want == t["default"]
    if not same:
        print(f"FAIL: {name}: default in doc/tunables.md '{dflt}', in its table '{t['default']}'"); fails += 1
    if not any(where.startswith(f.strip()) for f in t["file"].split(",")):
        print(f"FAIL: {name}: doc/tunables.md says read in '{where}', its table '{t['file']}'"); fails += 1
print(f"{len(tables)} tunables checked, {fails} mismatches")
sys.exit(1 if fails else 0)
PY
