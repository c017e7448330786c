#!/bin/sh
# check-mpif.sh: compare every PARAMETER of the generated mpif.h with
# MPICH's installed mpif.h: a name both define must have the same value
# (the Fortran ABI), and every name of MPICH's must exist in ours.
# MPICH's mpif.h must be installed (scripts/deps.sh installs it).
# Usage: check-mpif.sh [OUR_MPIF_H [MPICH_MPIF_H]]
ours=${1:-$PWD/src/fortran/mpif.h}
theirs=${2:-/usr/include/x86_64-linux-gnu/mpich/mpif.h}
if [ ! -r "$theirs" ]; then
    echo "check-mpif: $theirs not found; install it with: apt-get install libmpich-dev" >&2
    exit 1
fi
if [ ! -r "$ours" ]; then
    echo "FAIL: $ours not found (build first)"
    exit 1
fi

# NAME=VALUE per line, from PARAMETER (A=1, B=2) statements; values that are
# simple differences (8192-1) are evaluated.
params() {
    sed -n 's/^ *[Pp][Aa][Rr][Aa][Mm][Ee][Tt][Ee][Rr] *(\(.*\)) *$/\1/p' "$1" |
        tr ',' '\n' | tr -d ' ()' | awk -F= 'NF == 2 {
            v = $2
            if (v ~ /^[0-9]+-[0-9]+$/) { split(v, a, "-"); v = a[1] - a[2] }
            print toupper($1) "=" v
        }'
}

params "$theirs" | sort >"${TMPDIR:-/tmp}/mpif-theirs.$$"
params "$ours" | sort >"${TMPDIR:-/tmp}/mpif-ours.$$"
awk -F= '
    NR == FNR { ours[$1] = $2; next }
    # MPICH spells MPI_INTEGER16 as MPI_DATATYPE_NULL.
    $2 in ours && $2 ~ /^MPI_/ { $2 = ours[$2] }
    !($1 in ours) { print "missing: " $1 " (MPICH: " $2 ")"; bad++; next }
    ours[$1] != $2 { print "differs: " $1 " = " ours[$1] " (MPICH: " $2 ")"; bad++; next }
    { ok++ }
    END {
        printf "%d parameters agree with MPICH, %d do not\n", ok, bad
        exit bad > 0
    }
' "${TMPDIR:-/tmp}/mpif-ours.$$" "${TMPDIR:-/tmp}/mpif-theirs.$$"
rc=$?
rm -f "${TMPDIR:-/tmp}/mpif-theirs.$$" "${TMPDIR:-/tmp}/mpif-ours.$$"
exit $rc
