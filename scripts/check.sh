#!/bin/sh
# README command 2 (and CI): the whole test suite from a clean checkout.
#  1. dependencies, 2. a -Werror build with the test-only fault knobs
#  (--enable-fault-injection, for step 8) and `make check` (unit tests, MPI tests
#  at np 1/2/4/5 on shm and tcp, ABI and MPICH-binary tests, launcher tests),
#  3. MPICH 4.0.2's own test suite: its directories pt2pt ... threads/pt2pt
#  except the entries listed in test/mpich/skip.txt (fail on MPICH too) and
#  test/mpich/todo.txt (not passed by rdmpi yet), and its one-sided tests
#  (test/mpi/rma) that Debian's MPICH passes (test/mpich/rma-baseline.txt), 4. a bounded fuzz run of the TCP
#  parser, 5. the soak: mixed traffic with every byte checked, 60 s at np 4
#  on shm and on tcp, failing on corruption or on a rank's memory growing
#  by more than 2 % after the warm-up, 6. MPI programs across three
#  network-namespace hosts (a representative part of check-multihost),
#  7. MPI programs under Slurm (srun --mpi=pmix, two slurmd in namespaces),
#  8. a representative part of check-rdma: RC and UD (with packet drops) over
#  Soft-RoCE in QEMU guests, in one guest and across two, and the RAMP
#  store's checked runs there (star and plus over rc, rpc over ud),
#  9. the unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer,
#  and the one-sided MPI tests (make check-rma) on the sanitized library.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/deps.sh
./autogen.sh >/dev/null 2>&1
jobs=$(nproc)

echo "== build (-Werror) and make check"
rm -rf _build-check && mkdir _build-check && cd _build-check
../configure -q --enable-werror --enable-fault-injection --prefix="$top/_build-check/_inst"
make -s -j"$jobs"
status=0
make -s check 2>&1 | tee "$top/_build-check/check.out" || true
grep -q '^# FAIL: *0$' "$top/_build-check/check.out" && grep -q '^# ERROR: *0$' "$top/_build-check/check.out" || status=1
if [ $status -ne 0 ]; then
  for f in $(find . -name '*.log' -newer Makefile | grep -v config.log); do
    grep -qE '^:test-result: (FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null || continue
    echo "---- $f"
    # A testlist's log (TAP) holds every case: show the failed ones.
    if grep -q '^not ok ' "$f"; then
      grep -A 34 '^not ok ' "$f" | grep -E '^(not ok |#   )'
    else
      tail -n 60 "$f"
    fi
  done
fi

# An extra suite: its result becomes one PASS:/FAIL: line in check.out.
extra() {
  name=$1; shift
  if "$@"; then r=PASS; else r=FAIL; status=1; fi
  echo "$r: $name" | tee -a "$top/_build-check/check.out"
}

echo "== MPICH 4.0.2's test/mpi (pt2pt coll datatype comm group init errhan attr info topo basic threads/pt2pt)"
extra check-mpich make -s check-mpich CHECK_MPICH_FLAGS="--todo $top/test/mpich/todo.txt --timeout-scale 2"

echo "== MPICH 4.0.2's test/mpi/rma: the entries Debian's MPICH passes (apt-get source mpich)"
extra check-mpich-rma make -s check-mpich-rma CHECK_MPICH_FLAGS=--required-only

echo "== fuzzing the TCP message parser (60 s, ASan/UBSan)"
extra check-fuzz make -s check-fuzz FUZZ_SECONDS=60

echo "== the soak: 60 s of mixed traffic at np 4 on shm and on tcp, every byte checked, memory watched"
extra check-soak make -s check-soak SOAK_SECONDS=60 SOAK_NP=4

echo "== several hosts: network namespaces, mpirun --launch-agent 'ip netns exec'"
extra check-multihost make -s check-multihost \
  MH_PATTERN='^(p2p_modes|p2p_order|p2p_burst|coll_bcast|coll_reduce|coll_allgather) [2-6]$' \
  MH_FPATTERN='^f_(p2p|coll) 4$'

echo "== Slurm: srun --mpi=pmix on a two-node cluster in network namespaces"
extra check-slurm make -s check-slurm

echo "== real verbs: RC and UD over Soft-RoCE in QEMU guests (one and two guests)"
extra check-rdma-ci make -s check-rdma-ci
extra check-rdma-ramp make -s check-rdma-ramp
cd "$top"

echo "== unit tests under ASan/UBSan"
rm -rf _build-asan && mkdir _build-asan && cd _build-asan
../configure -q --enable-werror \
  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  LDFLAGS="-fsanitize=address,undefined"
make -s -j"$jobs" check-unit 2>&1 | tee "$top/_build-asan/check.out" || true
echo "== one-sided MPI tests under ASan/UBSan"
# Leak reports are off: the ranks exit through MPI_Finalize with the
# launcher's and PMIx's allocations still live.
ASAN_OPTIONS=detect_leaks=0 make -s -j"$jobs" check-rma 2>&1 | tee -a "$top/_build-asan/check.out" || true
# Two summaries in one file: every FAIL/ERROR count must be 0.
grep -q '^# FAIL: *0$' "$top/_build-asan/check.out" && grep -q '^# ERROR: *0$' "$top/_build-asan/check.out" || status=1
grep -qE '^# (FAIL|ERROR): *[1-9]' "$top/_build-asan/check.out" && status=1
cd "$top"
# One closing line over both runs, counting automake's PASS:/FAIL: lines:
# test cases (each MPI testlist case has its own line through TAP, each unit
# test program one, the layer check one) plus one line per extra suite above
# (mpich, mpich-rma, fuzz, soak, multihost, Slurm, rdma-ci, rdma-ramp), whatever number of cases each ran.
# (grep -c exits 1 when it counts nothing; that is not an error here)
passed=$(cat _build-check/check.out _build-asan/check.out | grep -c '^PASS: ' || true)
failed=$(cat _build-check/check.out _build-asan/check.out | grep -cE '^(FAIL|ERROR|XPASS): ' || true)
[ $status -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "check: $passed passed, $failed failed"
exit $status
