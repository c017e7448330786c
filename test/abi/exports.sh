#!/bin/sh
# Every function mpi.h declares (MPI_ and PMPI_) and every data symbol it
# makes programs refer to is exported by libmpi.so.12, MPI_ names as weak
# aliases (so profiling tools can interpose) and PMPI_ names as strong ones.
set -u
top_srcdir=$(cd "${srcdir:-.}" && pwd)
lib=$(pwd)/.libs/libmpi.so.12
[ -f "$lib" ] || { echo "exports: $lib not built" >&2; exit 1; }
tmp=$(mktemp -d /tmp/rdmpi-exports.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Function names: "ret P?MPI_Name(" at the start of a declaration.
sed -n 's/^[A-Za-z_][A-Za-z0-9_ *]*[ *]\(P\{0,1\}MPI_[A-Za-z0-9_]*\)(.*/\1/p' \
    "$top_srcdir/include/mpi.h" | sort -u > "$tmp/declared"
# Data: "extern type NAME;" lines.
sed -n 's/^extern .*[ *]\([A-Za-z_][A-Za-z0-9_]*\)\(\[1\]\)\{0,1\};$/\1/p' \
    "$top_srcdir/include/mpi.h" | sort -u > "$tmp/data"
nm -D --defined-only "$lib" | awk '{print $3, $2}' | sort > "$tmp/exported"

pass=0 fail=0
while read -r name; do
    kind=$(awk -v n="$name" '$1 == n {print $2}' "$tmp/exported")
    case "$name:$kind" in
        MPI_*:W|PMPI_*:T) pass=$((pass + 1)) ;;
        *:) echo "FAIL: $name is declared in mpi.h but not exported"; fail=$((fail + 1)) ;;
        *) echo "FAIL: $name is exported as '$kind' (MPI_ must be weak W, PMPI_ strong T)"
           fail=$((fail + 1)) ;;
    esac
done < "$tmp/declared"
while read -r name; do
    if awk -v n="$name" '$1 == n {found=1} END {exit !found}' "$tmp/exported"; then
        pass=$((pass + 1))
    else
        echo "FAIL: data symbol $name is not exported"
        fail=$((fail + 1))
    fi
done < "$tmp/data"
[ "$(wc -l < "$tmp/declared")" -gt 1000 ] || { echo "FAIL: found too few declarations in mpi.h"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
