#!/bin/bash
# The compiler wrappers (mpicc, mpicxx, mpifort): MPICH's and Open MPI's
# spellings of their own options (-show, -compile_info, -link_info,
# --showme:*), the choice of the compiler (-cc=, RDMPI_CC, MPICH_CC,
# OMPI_CC and the C++ and Fortran forms, in that order), -v and --help,
# and a real build of an MPI program. The build tree's wrappers are pointed
# at the tree's header and library, as test/mpich/check-mpich.sh does.
. "${srcdir:-.}/test/launcher/lib.sh"

top_srcdir=$(cd "${srcdir:-.}" && pwd)
need_built all "$builddir/src/wrappers/mpicc" "$builddir/src/wrappers/mpifort"
inc=$top_srcdir/include
lib=$builddir/.libs
mkdir -p "$T/bin"
for w in mpicc mpifort; do
    sed -e "s|^includedir=.*|includedir=\"$inc\"|" -e "s|^libdir=.*|libdir=\"$lib\"|" \
        "$builddir/src/wrappers/$w" >"$T/bin/$w"
    chmod +x "$T/bin/$w"
done
ln -s mpicc "$T/bin/mpicxx"
unset RDMPI_CC RDMPI_CXX RDMPI_FC MPICH_CC MPICH_CXX MPICH_FC OMPI_CC OMPI_CXX OMPI_FC

# A compiler that says who it is and what it got.
for c in cc-a cc-b cc-c cc-d; do
    printf '#!/bin/sh\necho "%s $*"\n' "$c" >"$T/bin/$c"
    chmod +x "$T/bin/$c"
done

# expect_line WHAT EXPECTED COMMAND...: COMMAND's stdout is exactly EXPECTED.
expect_line() {
    local what=$1 expected=$2 got
    shift 2
    got=$("$@" 2>"$T/err")
    if [ "$got" = "$expected" ]; then
        pass "$what"
    else
        fail "$what: '$*' printed '$got', expected '$expected' (stderr: $(cat "$T/err"))"
    fi
}

W=$T/bin
expect_line "--showme:compile" "-I$inc" "$W/mpicc" --showme:compile
expect_line "--showme:link" "-L$lib -Wl,-rpath,$lib -lmpi" "$W/mpicc" --showme:link
expect_line "mpifort --showme:link" "-L$lib -Wl,-rpath,$lib -lmpifort -lmpi" "$W/mpifort" --showme:link
expect_line "--showme:incdirs" "$inc" "$W/mpicc" --showme:incdirs
expect_line "--showme:libdirs" "$lib" "$W/mpicc" --showme:libdirs
expect_line "--showme:libs" "mpi" "$W/mpicc" --showme:libs
expect_line "mpifort --showme:libs" "mpifort mpi" "$W/mpifort" --showme:libs
expect_line "--showme:version" "mpicc: rdmpi $(sed -n 's/^version="\(.*\)"$/\1/p' "$W/mpicc") (Language: C)" \
    "$W/mpicc" --showme:version
expect_line "mpicxx --showme:command" "cc-a" env RDMPI_CXX=cc-a "$W/mpicxx" --showme:command
expect_line "--showme with arguments" "cc-a -I$inc -O2 x.c -L$lib -Wl,-rpath,$lib -lmpi" \
    env RDMPI_CC=cc-a "$W/mpicc" --showme -O2 x.c
expect_line "-show -c" "cc-a -I$inc -c x.c" env RDMPI_CC=cc-a "$W/mpicc" -show -c x.c
expect_line "-compile_info" "cc-a -I$inc x.c" env RDMPI_CC=cc-a "$W/mpicc" -compile_info x.c
expect_line "-link_info" "cc-a -I$inc x.o -L$lib -Wl,-rpath,$lib -lmpi" \
    env RDMPI_CC=cc-a "$W/mpicc" -link_info x.o
if "$W/mpicc" --showme:nonsense >"$T/out" 2>"$T/err"; then
    fail "--showme:nonsense accepted"
else
    expect_grep "--showme:nonsense is an error" "$T/err" "^mpicc: unknown option '--showme:nonsense'"
fi

# The compiler: -cc= over RDMPI_CC over MPICH_CC over OMPI_CC.
PATH=$W:$PATH
expect_line "OMPI_CC" "cc-d -I$inc -c x.c" env OMPI_CC=cc-d "$W/mpicc" -c x.c
expect_line "MPICH_CC over OMPI_CC" "cc-c -I$inc -c x.c" env OMPI_CC=cc-d MPICH_CC=cc-c "$W/mpicc" -c x.c
expect_line "RDMPI_CC over MPICH_CC" "cc-b -I$inc -c x.c" \
    env OMPI_CC=cc-d MPICH_CC=cc-c RDMPI_CC=cc-b "$W/mpicc" -c x.c
expect_line "-cc= over RDMPI_CC" "cc-a -I$inc -c x.c" \
    env OMPI_CC=cc-d MPICH_CC=cc-c RDMPI_CC=cc-b "$W/mpicc" -cc=cc-a -c x.c
expect_line "MPICH_CXX for mpicxx" "cc-c -I$inc -c x.cc" env MPICH_CC=cc-a MPICH_CXX=cc-c "$W/mpicxx" -c x.cc
expect_line "-cxx= for mpicxx" "cc-b -I$inc -c x.cc" env OMPI_CXX=cc-c "$W/mpicxx" -cxx=cc-b -c x.cc
expect_line "OMPI_FC for mpifort" "cc-d -I$inc -c x.f90" env OMPI_FC=cc-d "$W/mpifort" -c x.f90
expect_line "-fc= for mpifort" "cc-a -I$inc -c x.f90" env MPICH_FC=cc-d "$W/mpifort" -fc=cc-a -c x.f90

# -v: rdmpi's line, then the compiler's (alone: just the compiler's -v).
"$W/mpicc" -cc=cc-a -v >"$T/out" 2>&1
expect_out_sorted "mpicc -v" "mpicc for rdmpi $(sed -n 's/^version="\(.*\)"$/\1/p' "$W/mpicc")" "cc-a -v"
if [ "$(head -1 "$T/out")" = "mpicc for rdmpi $(sed -n 's/^version="\(.*\)"$/\1/p' "$W/mpicc")" ]; then
    pass "mpicc -v: rdmpi's line first"
else
    fail "mpicc -v: first line '$(head -1 "$T/out")'"
fi
# --help: the wrapper's options, then the compiler's help.
"$W/mpicc" -cc=cc-b --help >"$T/out" 2>&1
expect_grep "--help: the wrapper's usage" "$T/out" '^Usage: mpicc \[wrapper options\]'
expect_grep "--help: --showme:compile listed" "$T/out" '^  --showme:compile '
if [ "$(tail -1 "$T/out")" = "cc-b --help" ]; then
    pass "--help: then the compiler's"
else
    fail "--help: last line '$(tail -1 "$T/out")', expected the compiler's help"
fi

# A real MPI program through -cc= and the link flags, run as a singleton.
cat >"$T/hello.c" <<'EOT'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("hello %d\n", size);
    MPI_Finalize();
    return 0;
}
EOT
if MPICH_CC=cc-a "$W/mpicc" -cc=gcc -o "$T/hello" "$T/hello.c" 2>"$T/err"; then
    run_mpirun -n 1 "$T/hello" mark=$MARK
    expect_rc "program built with mpicc -cc=gcc" 0
    expect_out_sorted "program built with mpicc -cc=gcc runs" "hello 1"
else
    fail "mpicc -cc=gcc hello.c: $(cat "$T/err")"
fi

finish
