#!/bin/bash
# What "make install" gives other tools (into a DESTDIR, so nothing outside
# the test's directory is touched):
#  - pkg-config names: rdmpi and rdmpi-fort, and the aliases MPICH's and
#    Debian's MPI packages install (mpich, mpi, mpi-c, mpi-cxx, mpi-fort),
#    each giving rdmpi's flags for its language;
#  - man pages in man1 that man renders from the prefix (mpirun, mpiexec,
#    mpicc and its other names, rdmpi_info), listing every option
#    "mpirun --help" and "mpicc --help" list;
#  - Meson's dependency('mpi') for C, C++ and Fortran finding rdmpi through
#    the installed wrappers (no pkg-config file of Open MPI's name in
#    sight, as on a machine without Open MPI; for C++ Meson takes the
#    highest version among mpic++, mpicxx and mpiCC on the PATH, so rdmpi
#    installs all three), and dependency('mpich') through pkg-config; the
#    programs built report rdmpi's library.
# The installed files name the configured prefix; pkg-config's
# --define-prefix and an edit of the wrappers' two directory lines (as
# wrappers.sh does) point them at the DESTDIR copy.
. "${srcdir:-.}/test/launcher/lib.sh"

need_built all "$builddir/src/wrappers/mpicc" "$builddir/src/wrappers/mpifort"
D=$T/dest
if ! make -s -C "$builddir" install DESTDIR="$D" >"$T/install.log" 2>&1; then
    fail "make install DESTDIR=...: $(tail -5 "$T/install.log")"
    finish
fi
# The directories the Makefile installs to.
read -r prefix bindir libdir includedir mandir pcdir < <(
    make -s --no-print-directory -C "$builddir" -f Makefile -f - rd-print-dirs <<'EOF'
rd-print-dirs:
	@echo $(prefix) $(bindir) $(libdir) $(includedir) $(mandir) $(pkgconfigdir)
EOF
)
pass "make install DESTDIR=... (prefix $prefix)"

# --- pkg-config names
c_flags="-I$D$includedir -L$D$libdir -Wl,-rpath,$D$libdir -lmpi"
f_flags="-I$D$includedir -L$D$libdir -Wl,-rpath,$D$libdir -lmpifort -lmpi"
pc() { PKG_CONFIG_LIBDIR=$D$pcdir pkg-config --define-prefix "$@" 2>&1 | sed 's/ *$//'; }
for name in rdmpi mpich mpi mpi-c mpi-cxx rdmpi-fort mpi-fort; do
    want=$c_flags
    case $name in *-fort) want=$f_flags ;; esac
    if [ ! -e "$D$pcdir/$name.pc" ]; then
        fail "pkg-config $name: no $name.pc in $pcdir"
    elif [ "$(pc --cflags --libs $name)" = "$want" ]; then
        pass "pkg-config $name: rdmpi's flags"
    else
        fail "pkg-config $name: '$(pc --cflags --libs $name)', expected '$want'"
    fi
done
got=$(pc --variable=fflags mpich)
if [ "$got" = "-I$D$includedir" ]; then
    pass "pkg-config --variable=fflags mpich (MPICH's variable)"
else
    fail "pkg-config --variable=fflags mpich: '$got'"
fi
if [ "$(pc --modversion mpich)" = "$(pc --modversion rdmpi)" ]; then
    pass "mpich.pc is rdmpi's version"
else
    fail "mpich.pc version '$(pc --modversion mpich)' is not rdmpi's"
fi

# --- man pages
for page in mpirun mpiexec mpicc mpicxx mpic++ mpiCC mpifort mpif77 mpif90 rdmpi_info; do
    if [ -f "$D$mandir/man1/$page.1" ]; then
        pass "man1/$page.1 installed"
    else
        fail "man1/$page.1 not installed in $mandir"
    fi
done
# man_text PAGE: the page as plain text, as man shows it from the prefix.
man_text() {
    MANWIDTH=160 MANPAGER=cat PAGER=cat man -E ascii -M "$D$mandir" "$1" 2>"$T/man.err" | col -bx
}
if command -v man >/dev/null && command -v col >/dev/null; then
    for page in mpirun mpiexec mpicc mpicxx mpifort rdmpi_info; do
        case $page in
        mpirun|mpiexec) want="mpirun, mpiexec - start the ranks of an rdmpi MPI job" ;;
        rdmpi_info) want="rdmpi_info - show how rdmpi was built" ;;
        *) want="mpicc, mpicxx, mpic\+\+, mpiCC, mpifort, mpif77, mpif90 - compile and link" ;;
        esac
        man_text $page >"$T/man.$page"
        expect_grep "man -M <prefix>/share/man $page: rdmpi's page" "$T/man.$page" "^ *$want"
    done
    # Every option the --help of mpirun and mpicc lists is in its page.
    help_options() {
        sed -n 's/^  \(-[^ ].*\)$/\1/p' | sed 's/   .*//' | tr ',' '\n' |
            sed -e 's/^ *//' -e 's/[ =[].*//' | grep '^-' | grep -v '^--$' | sort -u
    }
    for cmd in mpirun mpicc; do
        if [ $cmd = mpirun ]; then
            "$builddir/mpirun/mpirun" --help
        else
            "$builddir/src/wrappers/mpicc" --showme:help
        fi | help_options >"$T/options.$cmd"
        missing=
        while read -r opt; do
            grep -Eq -- "(^|[ ,(])$(printf %s "$opt" | sed 's/[+.]/\\&/g')([ ,=|)]|$)" \
                "$T/man.$cmd" || missing="$missing $opt"
        done <"$T/options.$cmd"
        if [ -z "$missing" ] && [ -s "$T/options.$cmd" ]; then
            pass "$cmd.1 lists the $(wc -l <"$T/options.$cmd") options of $cmd --help"
        else
            fail "$cmd.1 lacks options its --help lists:${missing:- (none read)}"
        fi
    done
else
    echo "SKIP: man or col is not installed (scripts/deps.sh installs man-db, bsdextrautils):" \
        "the pages are not rendered"
fi

# --- Meson
if ! command -v meson >/dev/null || ! command -v ninja >/dev/null; then
    echo "SKIP: meson or ninja is not installed (scripts/deps.sh installs meson):" \
        "Meson's dependency('mpi') is not tested"
    finish
fi
for w in mpicc mpifort; do
    sed -i -e "s|^includedir=.*|includedir=\"$D$includedir\"|" \
        -e "s|^libdir=.*|libdir=\"$D$libdir\"|" "$D$bindir/$w"
done
printf '#!/bin/sh\nexec pkg-config --define-prefix "$@"\n' >"$T/pkg-config"
chmod +x "$T/pkg-config"
M=$T/meson
mkdir -p "$M"
cat >"$M/meson.build" <<'EOF'
project('rdmpi_meson', 'c', 'cpp', 'fortran')
executable('hello_c', 'hello.c', dependencies: dependency('mpi', language: 'c'))
executable('hello_cpp', 'hello.cc', dependencies: dependency('mpi', language: 'cpp'))
executable('hello_f', 'hello.f90', dependencies: dependency('mpi', language: 'fortran'))
executable('hello_pc', 'hello.c', dependencies: dependency('mpich', method: 'pkg-config'))
EOF
cat >"$M/hello.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Init(&argc, &argv);
    MPI_Get_library_version(v, &n);
    printf("%s\n", v);
    MPI_Finalize();
    return 0;
}
EOF
sed 's/#include <stdio.h>/#include <cstdio>/' "$M/hello.c" >"$M/hello.cc"
cat >"$M/hello.f90" <<'EOF'
program hello
    use mpi
    implicit none
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: v
    integer :: n, ierr
    call MPI_Init(ierr)
    call MPI_Get_library_version(v, n, ierr)
    print '(a)', v(1:n)
    call MPI_Finalize(ierr)
end program hello
EOF
unset MPICC MPICXX MPIFC MPIF90 MPIF77 RDMPI_CC RDMPI_CXX RDMPI_FC MPICH_CC MPICH_CXX MPICH_FC
if (cd "$M" && PATH=$D$bindir:$PATH PKG_CONFIG_LIBDIR=$D$pcdir PKG_CONFIG=$T/pkg-config \
        meson setup build >"$T/meson.out" 2>&1 && ninja -C build >>"$T/meson.out" 2>&1); then
    pass "meson setup and build with dependency('mpi') and dependency('mpich')"
else
    fail "meson: $(tail -20 "$T/meson.out")"
fi
for lang in c cpp fortran; do
    expect_grep "meson: dependency('mpi') for $lang found through rdmpi's wrapper" \
        "$T/meson.out" "Run-time dependency MPI for $lang found: YES $(pc --modversion rdmpi)"
done
expect_grep "meson: dependency('mpich') found through pkg-config" "$T/meson.out" \
    "Run-time dependency mpich found: YES $(pc --modversion rdmpi)"
# libmpifort finds libmpi through its run path, the prefix's, not DESTDIR's.
for prog in hello_c hello_cpp hello_f hello_pc; do
    LD_LIBRARY_PATH=$D$libdir "$M/build/$prog" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    expect_rc "meson-built $prog runs" 0
    expect_grep "meson-built $prog runs on rdmpi's library" "$T/out" "^rdmpi "
done

finish
