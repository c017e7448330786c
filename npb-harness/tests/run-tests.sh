#!/bin/sh
# Tests of npb-harness/run on the fixture tree (tests/fixture-npb), with the
# rdmpi of the build tree: wrapper scripts in a temporary prefix compile
# against the source tree's headers and the build tree's .libs/libmpi.so,
# and mpirun is the build tree's. Under `make check` the current directory
# is the top build directory and $srcdir the top source directory.
#
# Checks: usage errors (exit 2), make.def written for the MPI and the
# user's copy restored (after success, failure, a timeout and SIGTERM, and
# when the user had none), table/CSV contents, skip reasons for invalid
# process counts, red FAILED rows and exit 1, --compare mpich, the PNG.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${srcdir:-$here/../..}" && pwd)
builddir=$(pwd)
if [ ! -f "$builddir/.libs/libmpi.so" ] && [ -f "$top_srcdir/_build/.libs/libmpi.so" ]; then
    builddir=$top_srcdir/_build   # run by hand from the source tree
fi
RUN=$top_srcdir/npb-harness/run
FIXTURE=$top_srcdir/npb-harness/tests/fixture-npb
if [ ! -f "$builddir/.libs/libmpi.so" ] || [ ! -x "$builddir/mpirun/mpirun" ]; then
    echo "SKIP: rdmpi is not built in $builddir (run make check)"
    exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/npb-harness-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok: $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
check() { # check DESCRIPTION COMMAND...
    d=$1; shift
    if "$@" >/dev/null 2>&1; then ok "$d"; else bad "$d"; fi
}

# --- a prefix whose bin/ holds the build tree's rdmpi --------------------
P=$T/prefix
mkdir -p "$P/bin"
cat >"$P/bin/mpicc" <<EOF
#!/bin/sh
echo "mpicc \$*" >>"$T/wrappers.log"
case " \$* " in *" -c "*|*" --version "*)
    exec gcc -I$top_srcdir/include -I$builddir/include "\$@" ;; esac
exec gcc -I$top_srcdir/include -I$builddir/include "\$@" \\
    -L$builddir/.libs -Wl,-rpath,$builddir/.libs -lmpi
EOF
cat >"$P/bin/mpifort" <<EOF
#!/bin/sh
echo "mpifort \$*" >>"$T/wrappers.log"
inc="-I$builddir/include -I$top_srcdir/include -I$builddir/src/fortran -I$top_srcdir/src/fortran"
case " \$* " in *" -c "*|*" --version "*) exec gfortran \$inc "\$@" ;; esac
exec gfortran \$inc "\$@" -L$builddir/.libs -Wl,-rpath,$builddir/.libs -lmpifort -lmpi
EOF
chmod +x "$P/bin/mpicc" "$P/bin/mpifort"
ln -s "$builddir/mpirun/mpirun" "$P/bin/mpirun"

# new_tree NAME: a fresh copy of the fixture with a user's make.def
new_tree() {
    rm -rf "$T/$1"
    cp -r "$FIXTURE" "$T/$1"
    chmod -R u+w "$T/$1"   # the source tree may be read-only (distcheck)
    echo "# the user's own make.def ($1)" >"$T/$1/config/make.def"
    cp "$T/$1/config/make.def" "$T/$1.user-make.def"
}
restored() { # restored NAME: the user's make.def is back, no backup left
    cmp -s "$T/$1/config/make.def" "$T/$1.user-make.def" &&
        ! ls "$T/$1/config" | grep -q backup
}
csv_has() { # csv_has FILE PREFIX [WORD]: a line starting with PREFIX (and WORD)
    grep "^$2" "$1" | grep -q -- "${3:-}"
}
H() { "$RUN" --prefix "$P" "$@"; }

# --- usage errors ---------------------------------------------------------
new_tree npb
out=$(H --help 2>&1); rc=$?
check "--help exits 0 and shows --npb-dir" test $rc = 0 -a -n "$(echo "$out" | grep -e --npb-dir)"
out=$(H --npb-dir "$T/none" 2>&1); rc=$?
check "missing NPB dir: exit 2" test $rc = 2
mkdir -p "$T/empty"
out=$(H --npb-dir "$T/empty" 2>&1); rc=$?
check "not an NPB tree: exit 2 naming make.def.template" \
    test $rc = 2 -a -n "$(echo "$out" | grep 'not an NPB 3.4 MPI tree: config/make.def.template missing')"
for opt in "--np 0" "--np x" "--classes Q" "--compare foompi" "--benchmarks zz" "--timeout 0" "--bogus" \
           "--repeat 0" "--launcher foompi=/bin/true" "--launcher mpich=/bin/true" \
           "--launcher rdmpi=$T/none/launch" "--launcher rdmpi" "--launcher rdmpi=/bin/true --mpirun /bin/true"; do
    # shellcheck disable=SC2086
    H --npb-dir "$T/npb" $opt >/dev/null 2>&1
    check "bad option '$opt': exit 2" test $? = 2
done
out=$(H --npb-dir "$T/npb" --mpirun "$T/none/mpirun" 2>&1); rc=$?
check "missing mpirun: exit 2" test $rc = 2 -a -n "$(echo "$out" | grep 'mpirun not found')"
check "usage errors leave make.def alone" restored npb

# --- failures, skips and --compare mpich ----------------------------------
O=$T/out1
H --npb-dir "$T/npb" --benchmarks is,dt,cg,mg --classes S --np 1,2,3 \
    --compare mpich --out "$O" >"$T/table1" 2>"$T/err1"
rc=$?
check "failing run exits 1" test $rc = 1
check "user's make.def restored after a failing run" restored npb
check "make.def for rdmpi: MPICC, CLINK" grep -qx "MPICC = $P/bin/mpicc" "$O/make.def.rdmpi"
check "make.def for rdmpi: MPIFC, FLINK" grep -qx "FLINK = $P/bin/mpifort" "$O/make.def.rdmpi"
check "make.def: CFLAGS -O2, MPI libs empty" grep -qx "CFLAGS = -O2" "$O/make.def.rdmpi"
check "make.def: empty CMPI_LIB" grep -qx "CMPI_LIB = " "$O/make.def.rdmpi"
check "make.def: FFLAGS with -fallow-argument-mismatch (gfortran >= 10)" \
    grep -qx "FFLAGS = -O2 -fallow-argument-mismatch" "$O/make.def.rdmpi"
check "make.def for mpich uses mpicc.mpich" grep -qx "MPICC = mpicc.mpich" "$O/make.def.mpich"
check "the build went through rdmpi's wrapper" grep -q "is.c" "$T/wrappers.log"
C=$O/results.csv
check "csv header" grep -qx "mpi,benchmark,class,np,status,verified,time_s,mops_total,reason,log" "$C"
check "csv: rdmpi is S np1 ok" csv_has "$C" "rdmpi,is,S,1,ok,SUCCESSFUL,"
check "csv: rdmpi is S np2 ok" csv_has "$C" "rdmpi,is,S,2,ok,SUCCESSFUL,"
check "csv: is np3 skipped (power of two)" csv_has "$C" "rdmpi,is,S,3,skipped" "power-of-two"
check "csv: dt np1 skipped (graph nodes)" csv_has "$C" "rdmpi,dt,S,1,skipped" "needs >= 2 processes"
check "csv: dt np2 ok (graph argument passed)" csv_has "$C" "rdmpi,dt,S,2,ok,SUCCESSFUL"
check "csv: cg verification FAILED" csv_has "$C" "rdmpi,cg,S,1,FAILED,UNSUCCESSFUL" "verification UNSUCCESSFUL"
check "csv: mg build FAILED" csv_has "$C" "rdmpi,mg,S,2,FAILED" "build failed"
check "csv: mpich is S np2 ok" csv_has "$C" "mpich,is,S,2,ok,SUCCESSFUL"
check "csv: mpich cg FAILED too" csv_has "$C" "mpich,cg,S,1,FAILED"
check "compare.csv: ratio column" grep -q "time_ratio_rdmpi_over_mpich" "$O/compare.csv"
check "compare.csv: is S 1 has a ratio" grep -Eq "^is,S,1,ok,.*,ok,.*,[0-9.]+$" "$O/compare.csv"
check "table header has both MPIs" grep -q "rdmpi verified.*mpich verified.*rdmpi/mpich time" "$T/table1"
check "table: FAILED row names the reason" grep -q "^cg .*FAILED.*verification UNSUCCESSFUL" "$T/table1"
check "table: skip reason" grep -q "^is .* 3 .*skipped.*power-of-two" "$T/table1"
check "table: no ANSI colour when not a terminal" test -z "$(grep "$(printf '\033')" "$T/table1")"
check "mpich copy of the tree in OUTDIR" test -x "$O/npb-mpich/bin/is.S.x"
check "results.txt written" grep -q "verification UNSUCCESSFUL" "$O/results.txt"
png_ok() {
    python3 - "$1" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "signature"
n, kind = struct.unpack(">I4s", d[8:16])
assert kind == b"IHDR" and n == 13, "IHDR first"
w, h, depth, ctype = struct.unpack(">IIBB", d[16:26])
assert 200 <= w <= 10000 and 100 <= h <= 4000 and depth == 8 and ctype == 2
i, idat = 8, b""
while i < len(d):
    n, kind = struct.unpack(">I4s", d[i:i + 8])
    body = d[i + 4:i + 8 + n]
    assert struct.unpack(">I", d[i + 8 + n:i + 12 + n])[0] == zlib.crc32(body)
    if kind == b"IDAT":
        idat += d[i + 8:i + 8 + n]
    i += 12 + n
assert len(zlib.decompress(idat)) == h * (1 + 3 * w), "pixel data size"
EOF
}
check "results.png is a valid PNG (signature, IHDR size, CRCs, pixels)" png_ok "$O/results.png"
if command -v script >/dev/null 2>&1; then
    new_tree tty
    script -qec "$RUN --prefix $P --npb-dir $T/tty --benchmarks cg --np 1 --out $T/out-tty" \
        /dev/null >"$T/table-tty" 2>&1
    check "terminal: FAILED row in red" grep -q "$(printf '\033')\[31mcg .*FAILED" "$T/table-tty"
fi

# --- success exits 0; a leftover backup of an interrupted run is restored --
new_tree ok
cp "$T/ok/config/make.def" "$T/ok/config/make.def.npb-harness-backup"
echo "# harness leftover" >"$T/ok/config/make.def"
H --npb-dir "$T/ok" --benchmarks is --classes S,W --np 1,2 --out "$T/out2" >"$T/table2" 2>&1
check "all verified: exit 0" test $? = 0
check "classes S and W both ran" test "$(grep -c ',ok,SUCCESSFUL,' "$T/out2/results.csv")" = 4
check "leftover backup from an interrupted run restored" restored ok

# --- --launcher and --repeat ------------------------------------------------
# A launcher wrapper (as bench/multihost.sh uses to run across hosts) gets
# "-np N binary" appended; each case runs --repeat times, logs kept apart.
cat >"$T/launch" <<EOF
#!/bin/sh
echo "launch \$*" >>"$T/launch.log"
exec "$P/bin/mpirun" "\$@"
EOF
chmod +x "$T/launch"
new_tree rep
H --npb-dir "$T/rep" --benchmarks is --classes S --np 1,2 --repeat 2 \
    --launcher "rdmpi=$T/launch" --out "$T/out-rep" >"$T/table-rep" 2>"$T/err-rep"
check "--launcher/--repeat: exit 0" test $? = 0
check "--launcher: the wrapper started every run (2 np x 2 rounds)" \
    test "$(grep -c "^launch -np [12] $T/rep/bin/is.S.x\$" "$T/launch.log")" = 4
check "--repeat: one log per run" \
    test -s "$T/out-rep/logs/rdmpi/is.S.np2.run1.log" -a -s "$T/out-rep/logs/rdmpi/is.S.np2.run2.log"
check "--repeat: one result per case" test "$(grep -c '^rdmpi,is,S,' "$T/out-rep/results.csv")" = 2
check "--repeat: progress names the runs" grep -q 'is.S np=2 run 2/2: ok' "$T/err-rep"

# --- no make.def of the user's: none afterwards ---------------------------
new_tree nodef
rm "$T/nodef/config/make.def"
H --npb-dir "$T/nodef" --benchmarks is --np 1 --out "$T/out3" >/dev/null 2>&1
check "no user make.def before, none after" test ! -e "$T/nodef/config/make.def" -a -z "$(ls "$T/nodef/config" | grep backup)"

# --- timeout and crash ----------------------------------------------------
new_tree slow
H --npb-dir "$T/slow" --benchmarks cg --classes W --np 1 --timeout 2 --out "$T/out4" >"$T/table4" 2>&1
check "timeout run exits 1" test $? = 1
check "csv: cg W timed out" csv_has "$T/out4/results.csv" "rdmpi,cg,W,1,FAILED" "timed out after 2s"
# The crash gets a generous timeout: a core dump on a loaded machine can take
# seconds, and it must be reported as a crash, not as a timeout.
H --npb-dir "$T/slow" --benchmarks cg --classes A --np 1 --timeout 60 --out "$T/out4a" >"$T/table4a" 2>&1
check "crash run exits 1" test $? = 1
check "csv: cg A crash reported" csv_has "$T/out4a/results.csv" "rdmpi,cg,A,1,FAILED" "no Verification line"
check "no rank left after the timeout" test -z "$(pgrep -f "$T/slow/bin/cg.W.x")"
check "make.def restored after timeout" restored slow

# --- SIGTERM during a run -------------------------------------------------
new_tree term
"$RUN" --prefix "$P" --npb-dir "$T/term" --benchmarks cg --classes W --np 1 \
    --timeout 60 --out "$T/out5" >/dev/null 2>&1 &
hpid=$!
i=0
while [ ! -s "$T/out5/logs/rdmpi/cg.W.np1.log" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -TERM $hpid
wait $hpid
check "SIGTERM: exit 143" test $? = 143
check "SIGTERM: make.def restored" restored term
check "SIGTERM: no rank left" test -z "$(pgrep -f "$T/term/bin/cg.W.x")"

# --- Fortran --------------------------------------------------------------
# The harness's Fortran path with MPICH's tools standing in for rdmpi's...
new_tree fort
H --npb-dir "$T/fort" --benchmarks ep --np 1,2 --mpicc mpicc.mpich \
    --mpifort mpifort.mpich --mpirun mpirun.mpich --out "$T/out6" >/dev/null 2>&1
check "Fortran ep through the harness (MPICH tools): exit 0" test $? = 0
check "csv: ep np2 ok" csv_has "$T/out6/results.csv" "rdmpi,ep,S,2,ok,SUCCESSFUL"
# ...and with rdmpi's Fortran bindings once they are built.
if [ -f "$builddir/.libs/libmpifort.so" ]; then
    H --npb-dir "$T/fort" --benchmarks ep --np 1,2 --out "$T/out7" >/dev/null 2>&1
    check "Fortran ep on rdmpi: exit 0" test $? = 0
    check "csv: rdmpi ep np2 ok" csv_has "$T/out7/results.csv" "rdmpi,ep,S,2,ok,SUCCESSFUL"
else
    echo "skip: Fortran on rdmpi ($builddir/.libs/libmpifort.so not built)"
fi

echo "$PASS passed, $FAIL failed"
[ $FAIL = 0 ]
