#!/bin/bash
# The node's shared-memory segment against a hostile or a small /dev/shm.
#  - Squatting: another process that creates the segment's name in /dev/shm
#    before local rank 0 does (the job's namespace is visible in /tmp while
#    it runs) must not keep the job from starting. Each rank's wrapper
#    creates, before MPI_Init, every name a segment of its job could be
#    derived from (/dev/shm/rdmpi-<job>-<node>-shm); the job must run.
#  - A /dev/shm too small for the segment (a container's default): MPI_Init
#    fails, naming /dev/shm, the bytes needed and the bytes available, with
#    a non-zero exit status; never a rank killed by SIGBUS in the middle of
#    the job. Needs a private mount namespace (unshare -m, as root); skipped
#    where that is not possible.
. "${srcdir:-.}/test/launcher/lib.sh"

FLOOD=$builddir/test/mpi/p2p_flood
need_built check "$FLOOD"

# The job's id as the library spells it in file names (boot.c).
squat='ns=$(printf %s "$PMIX_NAMESPACE" | tr -c "A-Za-z0-9._-" _)
echo "$ns" >"$SQUAT_NS"
for n in 0 1 2 3; do
    f=/dev/shm/rdmpi-$ns-$n-shm
    [ -e "$f" ] || : >"$f"
done
exec "$0" "$@"'
export SQUAT_NS=$T/ns
run_mpirun -np 3 -x RDMPI_TRANSPORTS=shm -x SQUAT_NS sh -c "$squat" "$FLOOD" "$MARK"
expect_rc "names squatted before MPI_Init: the job runs" 0
expect_grep "names squatted before MPI_Init: the ranks' output" "$T/out" 'No Errors'
if [ -s "$T/ns" ]; then
    ns=$(head -n 1 "$T/ns")
    rm -f /dev/shm/rdmpi-"$ns"-[0-3]-shm
else
    fail "the rank wrappers did not run"
fi

# A 1 MiB /dev/shm in a private mount namespace; mpirun's own files move to
# a private /tmp too, so nothing outside sees the namespace.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    small='mount --make-rprivate / && mount -t tmpfs -o size=1m tmpfs /dev/shm && exec "$@"'
    start=$(now_ms)
    timeout 120 unshare -m sh -c "$small" sh "$MPIRUN" -np 4 -x RDMPI_TRANSPORTS=shm \
        "$FLOOD" "$MARK" >"$T/out" 2>"$T/err"
    RC=$?
    echo "info: 1 MiB /dev/shm: exit status $RC after $(($(now_ms) - start)) ms"
    if [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ]; then
        pass "1 MiB /dev/shm: the job fails (exit status $RC)"
    else
        fail "1 MiB /dev/shm: exit status $RC, expected a failure at MPI_Init"
    fi
    expect_grep "1 MiB /dev/shm: MPI_Init names /dev/shm, the size needed and available" \
        "$T/err" 'MPI_Init.*/dev/shm is too small: the segment of 4 local ranks needs [0-9]+ bytes, /dev/shm has [0-9]+ bytes available'
    expect_no_grep "1 MiB /dev/shm: no rank killed by a signal" "$T/err" \
        'SIGBUS|[Bb]us error|signal 7|killed by signal'
    expect_no_grep "1 MiB /dev/shm: nothing ran past MPI_Init" "$T/out" 'No Errors'
else
    echo "info: skipped the small /dev/shm case (needs root and unshare -m)"
fi

finish
