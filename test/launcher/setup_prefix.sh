#!/bin/bash
# scripts/setup.sh and PREFIX: a later run with another PREFIX reconfigures
# _build for it (keeping the other configure options) and installs there;
# the same PREFIX does not reconfigure. setup.sh runs in a copy of the
# checkout whose deps.sh, configure and make only record what they are
# asked (a real build would take minutes); the installed mpicc and mpirun
# of the demo are stand-ins too.
. "${srcdir:-.}/test/launcher/lib.sh"

top=$T/checkout
mkdir -p "$top/scripts" "$T/fake"
cp "${srcdir:-.}/scripts/setup.sh" "$top/scripts/"
printf '#!/bin/sh\nexit 0\n' >"$top/scripts/deps.sh"
# configure: records its arguments, writes a Makefile with the prefix line
# autoconf writes, and a config.status answering --config.
cat >"$top/configure" <<'EOT'
#!/bin/sh
echo "configure $*" >>"$LOG"
prefix=
for a in "$@"; do case $a in --prefix=*) prefix=${a#--prefix=} ;; esac; done
printf 'prefix = %s\n' "$prefix" >Makefile
{
    echo '#!/bin/sh'
    printf 'echo "'
    for a in "$@"; do case $a in --prefix=*|-q) ;; *) printf "'%s' " "$a" ;; esac; done
    printf '"\n'
} >config.status
chmod +x config.status
EOT
chmod +x "$top/configure"
# make: "install" puts an mpicc and an mpirun into the Makefile's prefix.
cat >"$T/fake/make" <<'EOT'
#!/bin/sh
case " $* " in
*" install "*)
    prefix=$(sed -n 's/^prefix = //p' Makefile)
    mkdir -p "$prefix/bin"
    printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && : >"$2"; shift; done\n' >"$prefix/bin/mpicc"
    printf '#!/bin/sh\necho "mpirun $*"\n' >"$prefix/bin/mpirun"
    chmod +x "$prefix/bin/mpicc" "$prefix/bin/mpirun"
    echo "install $prefix" >>"$LOG" ;;
esac
EOT
chmod +x "$T/fake/make"
export LOG=$T/log

# setup PREFIX: runs setup.sh with PREFIX, sets RC; the log of this run in $T/run.
setup() {
    : >"$LOG"
    (cd "$T" && PATH=$T/fake:$PATH PREFIX=$1 sh "$top/scripts/setup.sh") >"$T/out" 2>"$T/err"
    RC=$?
    cp "$LOG" "$T/run"
}

# A first build configured by hand with an option of its own.
mkdir -p "$top/_build"
(cd "$top/_build" && LOG=/dev/null ../configure --enable-werror 'CFLAGS=-O2 -g' --prefix="$T/p0")

setup "$T/p1"
expect_rc "setup.sh with a new PREFIX" 0
expect_grep "another PREFIX reconfigures" "$T/run" "^configure --enable-werror CFLAGS=-O2 -g --prefix=$T/p1 -q\$"
expect_grep "...and installs there" "$T/run" "^install $T/p1\$"
expect_grep "...and says so" "$T/out" "^_build was configured for prefix $T/p0: reconfiguring for $T/p1\$"

setup "$T/p1"
expect_rc "setup.sh with the same PREFIX" 0
expect_no_grep "the same PREFIX does not reconfigure" "$T/run" "^configure"
expect_grep "...and installs" "$T/run" "^install $T/p1\$"

setup p2
expect_rc "setup.sh with a relative PREFIX" 0
expect_grep "a relative PREFIX is made absolute" "$T/run" "^install $T/p2\$"

rm -rf "$top/_build"
setup "$T/p3"
expect_rc "setup.sh without _build" 0
expect_grep "without _build: configured for PREFIX" "$T/run" "^configure --prefix=$T/p3 -q\$"

finish
