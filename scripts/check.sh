#!/bin/sh
# README command 2 (and CI): the whole test suite from a clean checkout.
#  1. dependencies, 2. a -Werror build and `make check` (unit tests, MPI tests
#  at np 1/2/4/5, ABI and MPICH-binary tests, launcher tests), 3. the unit
#  tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/deps.sh
./autogen.sh >/dev/null 2>&1
jobs=$(nproc)

echo "== build (-Werror) and make check"
rm -rf _build-check && mkdir _build-check && cd _build-check
../configure -q --enable-werror --prefix="$top/_build-check/_inst"
make -s -j"$jobs"
status=0
make -s check 2>&1 | tee "$top/_build-check/check.out" || true
grep -q '^# FAIL: *0$' "$top/_build-check/check.out" && grep -q '^# ERROR: *0$' "$top/_build-check/check.out" || status=1
if [ $status -ne 0 ]; then
  for f in $(find . -name '*.log' -newer Makefile | grep -v config.log); do
    grep -q -E '^(FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null && { echo "---- $f"; tail -n 60 "$f"; }
  done
fi
cd "$top"

echo "== unit tests under ASan/UBSan"
rm -rf _build-asan && mkdir _build-asan && cd _build-asan
../configure -q --enable-werror \
  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  LDFLAGS="-fsanitize=address,undefined"
make -s -j"$jobs" check-unit 2>&1 | tee "$top/_build-asan/check.out" || true
grep -q '^# FAIL: *0$' "$top/_build-asan/check.out" && grep -q '^# ERROR: *0$' "$top/_build-asan/check.out" || status=1
cd "$top"
# One closing line over every suite of both runs (automake's PASS:/FAIL: lines).
# (grep -c exits 1 when it counts nothing; that is not an error here)
passed=$(cat _build-check/check.out _build-asan/check.out | grep -c '^PASS: ' || true)
failed=$(cat _build-check/check.out _build-asan/check.out | grep -cE '^(FAIL|ERROR|XPASS): ' || true)
[ $status -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "check: $passed passed, $failed failed"
exit $status
