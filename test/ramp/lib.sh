# Shared by the rdmpi-ramp tests (test/ramp/*.sh): the launcher tests'
# helpers (watchdog, verdicts, the leftover check) plus a run of the store
# with its history checked.
. "${srcdir:-.}/test/launcher/lib.sh"

RAMP=$builddir/apps/ramp/rdmpi-ramp
need_built all "$RAMP"
RUN_LIMIT=${RUN_LIMIT:-60}

# The race the checker looks for: a tiny hot key space, half writes,
# transactions of 4 keys, a pause between PREPARE and COMMIT and one
# after a PUT's first COMMIT (GETs then meet PUTs committed at one server
# only, which RAMP's second round must repair).
RACE="--servers 2 --concurrency 2 --keys 16 --reads 50 --txn-size 4 --value-size 64
      --prepare-delay-us 100 --commit-stagger-us 100"

# ramp_checked WHAT NP [mpirun -x args...] -- [rdmpi-ramp args...]: a run
# with --history (its directory carries the test's mark) and --check that
# must pass the checker.
ramp_checked() {
    local what=$1 np=$2 mx=() hist
    shift 2
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        mx+=("$1")
        shift
    done
    shift
    hist=$T/$MARK.$RANDOM
    run_mpirun -np "$np" "${mx[@]}" "$RAMP" "$@" --history "$hist" --check
    expect_rc "$what" 0
    expect_grep "$what: summary line" "$T/out" \
        '^ramp: method=[a-z0-9]+ reads=50 txn_size=4 servers=2 clients=[0-9]+ txns=[0-9]+ seconds=[0-9.]+ txn_per_s=[0-9]+ p50_us=[0-9.]+ p99_us=[0-9.]+$'
    expect_grep "$what: Read Atomic" "$T/out" '^check: ok: 0 violation'
    rm -rf "$hist"
}
