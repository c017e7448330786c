#!/bin/sh
# abi-check.sh -- check that include/mpi.h matches MPICH 4.0.2's ABI.
#
# Two checks, both against the installed MPICH header (Debian libmpich-dev):
#
# 1. Values. Every public name MPICH's mpi.h/mpio.h declare (macros,
#    enumeration constants, typedefs, extern objects) is listed; the names
#    both headers declare go into abi-list.h, and abi-print.c is compiled
#    once with MPICH's header and once with ours (only -I differs). Each
#    program prints value/size/layout facts per name; the outputs must be
#    identical. A name MPICH declares that we lack fails, unless it is in
#    ALLOW_MISSING below.
# 2. Prototypes. Every MPI_/PMPI_ function (and MPIR_ helper) MPICH declares
#    must be declared by us with the same return and parameter types. The
#    compiler's -aux-info output gives each prototype with parameter names
#    dropped; whitespace is then removed. Function-pointer typedefs
#    (callbacks) are compared the same way, from abi-names.awk.
#
# Environment: srcdir (set by automake; default .), CC (default cc),
# RD_MPICH_INCDIR (default Debian's multiarch path). Exit 0 if all checks
# pass, 1 otherwise; the last line is "N passed, N failed".

srcdir=${srcdir:-.}
CC=${CC:-cc}
here=$srcdir/test/abi
[ -f "$here/abi-print.c" ] || here=$srcdir
top=$here/../..
ours=$top/include
mpich=${RD_MPICH_INCDIR:-/usr/include/x86_64-linux-gnu/mpich}

# MPICH names we deliberately do not provide. Names outside the MPI
# namespace (MPICH_*, MPIIMPL_*, ROMIO_*, HAVE_*, QMPI_*, MPIX_*, MPIR_*
# macros and types) are never compared: programs that use them depend on
# MPICH itself, not on its ABI.
ALLOW_MISSING='
MPI_PROTO_H_INCLUDED
MPIO_INCLUDE
MPI_FILE_DEFINED
MPIO_USES_MPI_REQUEST
MPIO_REQUEST_DEFINED
MPIO_REQUEST_NULL
'
# MPI_PROTO_H_INCLUDED, MPIO_INCLUDE: include guards of MPICH's sub-headers
#   (we have one header).
# MPI_FILE_DEFINED, MPIO_USES_MPI_REQUEST, MPIO_REQUEST_DEFINED: flags
#   between MPICH's mpi.h and ROMIO's mpio.h.
# MPIO_REQUEST_NULL: ROMIO's legacy null request, ((MPIO_Request)0), which
#   is not MPI_REQUEST_NULL and so a trap; MPIO_Request itself is provided.

if [ ! -f "$mpich/mpi.h" ]; then
    echo "abi-check: MPICH's header $mpich/mpi.h is missing;" \
         "install it with: apt-get install libmpich-dev" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if [ ! -f "$ours/mpi.h" ]; then
    echo "abi-check: $ours/mpi.h not found" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-abi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
CFLAGS_ABI="-std=gnu11 -O0"

# names INCDIR OUT: "kind name [signature]" lines for one header.
names() {
    printf '#include <mpi.h>\n' > "$tmp/inc.c"
    $CC $CFLAGS_ABI -E -P -I"$1" "$tmp/inc.c" > "$tmp/pp.i" || return 1
    awk -f "$here/abi-names.awk" "$tmp/pp.i" > "$2.decl" || return 1
    # Macros: empty body -> flag; NAME(args) -> fnmacro; body naming a type
    # -> type; anything else -> value.
    $CC $CFLAGS_ABI -E -dM -I"$1" "$tmp/inc.c" | awk -v decl="$2.decl" '
        BEGIN { while ((getline l < decl) > 0) { split(l, f, " "); if (f[1] == "type") ty[f[2]] = 1 } }
        $1 == "#define" && $2 ~ /^(P?MPI_|P?MPIO_)/ && $2 !~ /^P?MPIX_/ {
            name = $2; body = $0
            sub(/^#define[ \t]+[^ \t]+[ \t]*/, "", body)
            if (name ~ /\(/) { sub(/\(.*/, "", name); print "fnmacro " name }
            else if (body == "") print "flag " name
            else if (body in ty) print "type " name
            else print "value " name
        }' > "$2.mac" || return 1
    grep -v '^fntype ' "$2.decl" | sed 's/^enum /value /' \
        | cat - "$2.mac" | sort -u -k2,2 > "$2"
}

# protos INCDIR NAMES OUT: "name signature" for every function declared,
# plus the callback typedef signatures abi-names.awk found (NAMES.decl).
protos() {
    $CC $CFLAGS_ABI -c -o /dev/null -aux-info "$tmp/aux" -I"$1" "$tmp/inc.c" \
        || return 1
    sed -n 's|^/\*[^*]*\*/ extern \(.*\);$|\1|p' "$tmp/aux" | awk '
        {
            i = index($0, " (")
            head = substr($0, 1, i - 1); params = substr($0, i + 1)
            n = split(head, w, /[ *]+/); name = w[n]
            if (name !~ /^(P?MPI_|MPIR_)/ || name ~ /^P?MPIX_/) next
            ret = substr(head, 1, length(head) - length(name))
            sig = ret params; gsub(/[ \t]+/, "", sig)
            print name " " sig
        }' | sort -u > "$3"
    grep '^fntype ' "$2.decl" | cut -d' ' -f2- >> "$3"
}

fail=0
pass=0
report="$tmp/report"
: > "$report"

names "$mpich" "$tmp/mpich.names" || { echo "abi-check: cannot scan $mpich" >&2; exit 1; }
names "$ours" "$tmp/ours.names" || { echo "abi-check: cannot scan $ours" >&2; exit 1; }

# ---- names MPICH declares that we lack --------------------------------
printf '%s\n' $ALLOW_MISSING | sort > "$tmp/allow"
cut -d' ' -f2 "$tmp/mpich.names" | sort > "$tmp/m.n"
cut -d' ' -f2 "$tmp/ours.names" | sort > "$tmp/o.n"
comm -23 "$tmp/m.n" "$tmp/o.n" | comm -23 - "$tmp/allow" > "$tmp/missing"
comm -13 "$tmp/m.n" "$tmp/o.n" > "$tmp/extra"
while read -r n; do
    echo "FAIL $n: declared by MPICH, missing from include/mpi.h" >> "$report"
    fail=$((fail + 1))
done < "$tmp/missing"

# ---- values: one list, two builds -------------------------------------
sort -k2,2 "$tmp/mpich.names" | join -1 2 -2 1 -o 1.1,1.2 - "$tmp/o.n" |
awk '
    $1 == "value"   { print "RD_ABI_VALUE(" $2 ");" }
    $1 == "fnmacro" { print "RD_ABI_FNMACRO(" $2 ");" }
    $1 == "object"  { print "RD_ABI_OBJECT(" $2 ");" }
    $1 == "type"    { print "RD_ABI_TYPE(" $2 ");" }
    $1 == "flag"    { print "#ifdef " $2; print "RD_ABI_FLAG(" $2 ", 1);";
                      print "#else"; print "RD_ABI_FLAG(" $2 ", 0);"; print "#endif" }
' > "$tmp/abi-list.h"

for side in mpich ours; do
    if [ $side = mpich ]; then inc=$mpich; else inc=$ours; fi
    if ! $CC $CFLAGS_ABI -I"$tmp" -I"$inc" -o "$tmp/print-$side" \
            "$here/abi-print.c" 2> "$tmp/cc-$side.log"; then
        echo "abi-check: abi-print.c does not compile against $inc:" >&2
        cat "$tmp/cc-$side.log" >&2
        echo "0 passed, 1 failed"
        exit 1
    fi
    "$tmp/print-$side" | sort > "$tmp/out-$side" || exit 1
done

join -t "$(printf '\t')" "$tmp/out-mpich" "$tmp/out-ours" > "$tmp/joined"
awk -F '\t' '
    $2 == $3 { pass++; next }
    { printf "FAIL %s: MPICH has [%s], ours has [%s]\n", $1, $2, $3 > "/dev/stderr"; fail++ }
    END { print pass + 0, fail + 0 }
' "$tmp/joined" 2>> "$report" > "$tmp/counts"
read -r p f < "$tmp/counts"
pass=$((pass + p)); fail=$((fail + f))
nvalues=$(wc -l < "$tmp/out-mpich")

# ---- prototypes --------------------------------------------------------
protos "$mpich" "$tmp/mpich.names" "$tmp/mpich.protos" || exit 1
protos "$ours" "$tmp/ours.names" "$tmp/ours.protos" || exit 1
awk '
    FNR == NR { sub(/ /, "\t"); split($0, f, "\t"); have[f[1]] = f[2]; next }
    {
        name = $1; sig = $0; sub(/^[^ ]+ /, "", sig)
        if (!(name in have)) {
            printf "FAIL %s: function declared by MPICH as %s, missing from include/mpi.h\n", name, sig > "/dev/stderr"; fail++
        } else if (have[name] != sig) {
            printf "FAIL %s: MPICH declares %s, ours %s\n", name, sig, have[name] > "/dev/stderr"; fail++
        } else pass++
    }
    END { print pass + 0, fail + 0 }
' "$tmp/ours.protos" "$tmp/mpich.protos" 2>> "$report" > "$tmp/counts"
read -r p f < "$tmp/counts"
pass=$((pass + p)); fail=$((fail + f))
nprotos=$(wc -l < "$tmp/mpich.protos")

# ---- report ------------------------------------------------------------
cat "$report"
if [ -s "$tmp/extra" ]; then
    echo "note: names in include/mpi.h that MPICH does not declare:"
    sed 's/^/    /' "$tmp/extra"
fi
echo "abi-check: $nvalues constants/types/fields and $nprotos prototypes" \
     "compared with $mpich"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
