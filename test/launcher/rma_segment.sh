#!/bin/bash
# One-sided windows' shared-memory segments against a squatter. A window
# with node peers lives in segments of /dev/shm that one rank creates and
# its node peers map. Their names used to be derived from the job's
# namespace (visible in /tmp while the job runs), the window's id and the
# creator's rank, so another local user could create them first and make
# MPI_Win_allocate, MPI_Win_allocate_shared and MPI_Win_create fail. Each
# rank's wrapper creates, before MPI_Init, every name its rank's segments
# could have been given that way (/dev/shm/rdmpi-<job>-w<id>-<rank>-0 for
# window ids 0 to 0x3ff; the windows of these programs get small ids); the
# windows of every flavor, contiguous and not, must still be created and
# work. As root the names belong to another user (made by the test and
# removed at the end), as a squatter's would.
. "${srcdir:-.}/test/launcher/lib.sh"

FENCE=$builddir/test/mpi/rma_fence
SHARED=$builddir/test/mpi/rma_shared
need_built check "$FENCE" "$SHARED"

SQUATTER=
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null && command -v runuser >/dev/null; then
    SQUATTER=rdmpi-lt$$
    if useradd -M -s /bin/sh "$SQUATTER"; then
        trap 'userdel "$SQUATTER" 2>/dev/null' EXIT
    else
        SQUATTER=
    fi
fi
echo "info: names squatted by ${SQUATTER:-$(id -un)}"

# The rank's wrapper (before exec): the job's id as the library spells it
# in file names (boot.c), then the names, made world-readable and writable
# as a squatter would offer them; squatted by SQUATTER when set.
cat >"$T/names.sh" <<'EOF'
i=0
while [ $i -lt 1024 ]; do
    f=$(printf "/dev/shm/rdmpi-%s-w%x-%s-0" "$1" $i "$2")
    [ -e "$f" ] || { : >"$f" && chmod 666 "$f"; }
    i=$((i + 1))
done
EOF
cat >"$T/squat.sh" <<'EOF'
ns=$(printf %s "$PMIX_NAMESPACE" | tr -c "A-Za-z0-9._-" _)
echo "$ns" >"$SQUAT_DIR/ns.$PMIX_RANK"
if [ -n "$SQUATTER" ]; then
    runuser -u "$SQUATTER" -- sh -c "$(cat "$SQUAT_DIR/names.sh")" sh "$ns" "$PMIX_RANK"
else
    sh "$SQUAT_DIR/names.sh" "$ns" "$PMIX_RANK"
fi
n=$(ls /dev/shm | grep -c "^rdmpi-$ns-w[0-9a-f]*-$PMIX_RANK-0\$")
echo "squatted $n names" >>"$SQUAT_DIR/ns.$PMIX_RANK"
exec "$@"
EOF
export SQUAT_DIR=$T SQUATTER

# squatted_run WHAT PROGRAM: the program at np 3 on shared memory, with its
# ranks' names squatted; then the squatted names are removed.
squatted_run() {
    local what=$1 prog=$2 ns r
    rm -f "$T"/ns.*
    run_mpirun -np 3 -x RDMPI_TRANSPORTS=shm -x SQUAT_DIR -x SQUATTER \
        sh "$T/squat.sh" "$prog" "$MARK"
    expect_rc "$what with its segment names squatted: the job runs" 0
    expect_grep "$what with its segment names squatted: the ranks' output" "$T/out" 'No Errors'
    for r in 0 1 2; do
        if [ -s "$T/ns.$r" ]; then
            ns=$(head -n 1 "$T/ns.$r")
            expect_grep "$what: rank $r's names were squatted" "$T/ns.$r" '^squatted 1024 names$'
            rm -f /dev/shm/rdmpi-"$ns"-w*-"$r"-0
        else
            fail "$what: rank $r's wrapper did not run"
        fi
    done
}

# Win_create, Win_allocate, Win_allocate_shared and Win_create_dynamic.
squatted_run "rma_fence (every window flavor)" "$FENCE"
# Win_allocate_shared, contiguous and alloc_shared_noncontig.
squatted_run "rma_shared" "$SHARED"

finish
