#!/bin/bash
# What each rank learns from rd_boot_init under mpirun (rank, size, local
# rank/size/peers, universe size, appnum, job id) at several sizes, the
# put/fence/get exchange between all ranks, and the singleton case.
. "${srcdir:-.}/test/launcher/lib.sh"

for n in 1 2 4 5; do
    run_mpirun -n $n "$CLIENT" mark=$MARK info exchange
    expect_rc "np $n" 0
    peers=$(seq -s, 0 $((n - 1)))
    for r in $(seq 0 $((n - 1))); do
        expect_grep "np $n rank $r info" "$T/out" \
            "^rank $r size $n local_rank $r local_size $n local_ranks $peers univ $n appnum 0 singleton 0 job_id [A-Za-z0-9._-]+ host "
        expect_grep "np $n rank $r exchange" "$T/out" "^exchange ok rank $r\$"
    done
    ids=$(grep '^rank ' "$T/out" | sed 's/.* job_id \([^ ]*\) .*/\1/' | sort -u)
    if [ "$(echo "$ids" | wc -l)" -eq 1 ] && [ -n "$ids" ]; then
        pass "np $n: one job id ($ids)"
    else
        fail "np $n: job ids differ: $ids"
    fi
    if [ "$(grep -c . "$T/out")" -eq $((2 * n)) ]; then
        pass "np $n: $((2 * n)) lines"
    else
        fail "np $n: $(grep -c . "$T/out") lines of output, expected $((2 * n))"
    fi
done

# Two jobs get different ids.
run_mpirun -n 1 "$CLIENT" mark=$MARK info
id1=$(sed -n 's/.* job_id \([^ ]*\) .*/\1/p' "$T/out")
run_mpirun -n 1 "$CLIENT" mark=$MARK info
id2=$(sed -n 's/.* job_id \([^ ]*\) .*/\1/p' "$T/out")
if [ -n "$id1" ] && [ "$id1" != "$id2" ]; then
    pass "job ids unique ($id1, $id2)"
else
    fail "job ids not unique: '$id1' '$id2'"
fi

# Without mpirun: a singleton job of one, and the exchange still works.
env -u PMIX_NAMESPACE "$CLIENT" mark=$MARK info exchange >"$T/out" 2>"$T/err"
RC=$?
expect_rc "singleton" 0
expect_grep "singleton info" "$T/out" \
    "^rank 0 size 1 local_rank 0 local_size 1 local_ranks 0 univ 1 appnum 0 singleton 1 job_id single-[0-9]+ host "
expect_grep "singleton exchange" "$T/out" "^exchange ok rank 0\$"

# One task of a multi-task srun step without PMIx (srun --mpi=none): not a
# singleton, but a clear error; a step of one task is a singleton as usual.
env -u PMIX_NAMESPACE SLURM_STEP_NUM_TASKS=4 "$CLIENT" mark=$MARK info >"$T/out" 2>"$T/err"
RC=$?
if [ $RC -ne 0 ]; then pass "srun without PMIx: exit $RC"; else fail "srun without PMIx: exit 0"; fi
expect_grep "srun without PMIx: message" "$T/err" "srun --mpi=pmix"
env -u PMIX_NAMESPACE SLURM_STEP_NUM_TASKS=1 "$CLIENT" mark=$MARK info >"$T/out" 2>"$T/err"
RC=$?
expect_rc "srun step of one task" 0
expect_grep "srun step of one task: singleton" "$T/out" " singleton 1 "

finish
