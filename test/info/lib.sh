# Shared by test/info/*.sh: where rdmpi_info and mpirun are, and a clean
# environment (no RDMPI_* variable) to run them in.
set -u
builddir=${abs_top_builddir:-$(pwd)}
srcdir=${srcdir:-.}
INFO=$builddir/src/info/rdmpi_info
MPIRUN=$builddir/mpirun/mpirun
for f in "$INFO" "$MPIRUN"; do
    if [ ! -x "$f" ]; then
        echo "FAIL: $f is not built (run make check)"
        exit 99
    fi
done
T=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-info-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; }
# clean CMD...: runs CMD without any RDMPI_* variable of this environment.
clean() {
    env $(env | sed -n 's/^\(RDMPI_[A-Za-z0-9_]*\)=.*/-u \1/p') "$@"
}
finish() {
    [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }
    exit 0
}
