#!/bin/bash
# check-rdma.sh: rdmpi's MPI tests over real verbs (Soft-RoCE, rdma_rxe) in
# throw-away QEMU guests (run-in-vm.sh). Run from the build tree (make
# check-rdma / make check-rdma-ci do). Needs root for the first run (it
# apt-get installs QEMU and rdma-core and builds a guest image under
# /var/cache/rdmpi-rxe-vm). The build should be configured with
# --enable-fault-injection: without it the cases that need the test-only
# fault knobs (rc_fault, the ud-drop configuration) are SKIP.
#
# Usage: check-rdma.sh [--ci] [-t SECONDS]
#   (default)  every configuration (rc, rc + RDMA-Write eager, ud, ud with 5 %
#              packet drops) over rdma.testlist and fortran.testlist, in one
#              guest and across two guests; one guest boot per configuration
#              and guest count, so a slow configuration cannot use up the
#              others' time
#   --ci       the subset CI runs: rc and ud with drops over ci.testlist in
#              one guest and over ci-2.testlist across two guests, both
#              configurations in one boot (a few minutes under TCG on an
#              idle 2-core machine)
#   -t SECONDS kill a guest run after SECONDS (default: RDMA_VM_BOOT_SECONDS
#              + the run's number of cases x RDMA_VM_CASE_SECONDS; it only
#              catches a guest that hangs, RUNTESTS_TIMEOUT catches a case)
# Environment: RDMA_VM_CONFIGS (configurations, see guest-suite.sh),
#   RDMA_VM_NODES ("1 2": the guest counts to run), RUNTESTS_TIMEOUT (per
#   case, default 600), RDMA_VM_CASE_SECONDS (default 300),
#   RDMA_VM_BOOT_SECONDS (default 300).
# Prints each case with its time, a line per guest run, a summary line per
# configuration and guest count, what failed (each failure's last stderr
# lines and the guests' health after it) and "check-rdma: N passed, N
# failed"; exit 0 iff everything passed. A guest run in which the guests
# themselves broke (their link, an rxe device, RC between the devices without
# rdmpi, a kernel BUG) is run once more on new guests; the output says so.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ci=0 timeout=
while [ $# -gt 0 ]; do
    case $1 in
    --ci) ci=1; shift ;;
    -t) timeout=${2:?}; shift 2 ;;
    *) echo "usage: $0 [--ci] [-t SECONDS]" >&2; exit 2 ;;
    esac
done
if [ ! -x "$PWD/mpirun/mpirun" ] || [ ! -x "$PWD/test/mpi/p2p_sizes" ]; then
    echo "check-rdma: run from a build tree with the test programs built (make check-rdma)" >&2
    exit 2
fi
if ! grep -qs '^#define RD_FAULT_INJECTION 1' "$PWD/config.h"; then
    echo "check-rdma: this build was configured without --enable-fault-injection: the" \
         "fault cases (rc_fault) and the configurations with packet drops (ud-drop) are SKIP"
fi
case_s=${RDMA_VM_CASE_SECONDS:-300}
boot_s=${RDMA_VM_BOOT_SECONDS:-300}
for v in "$case_s" "$boot_s" ${timeout:+"$timeout"}; do
    case $v in
    '' | *[!0-9]*) echo "check-rdma: -t, RDMA_VM_CASE_SECONDS and RDMA_VM_BOOT_SECONDS take whole seconds, not '$v'" >&2; exit 2 ;;
    esac
done

if [ $ci = 1 ]; then
    configs=${RDMA_VM_CONFIGS:-"rc:RDMPI_TRANSPORTS=rc;ud-drop:RDMPI_TRANSPORTS=ud RDMPI_UD_DROP_RATE=0.05"}
else
    configs=${RDMA_VM_CONFIGS:-"rc:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=0;rc-eager:RDMPI_TRANSPORTS=rc RDMPI_RDMA_EAGER=1 RDMPI_RDMA_EAGER_THRESHOLD=1;ud:RDMPI_TRANSPORTS=ud;ud-drop:RDMPI_TRANSPORTS=ud RDMPI_UD_DROP_RATE=0.05"}
fi

ncases() {  # number of cases in the testlists $@ ("-" = none)
    local l n=0
    for l in "$@"; do
        [ "$l" = - ] && continue
        n=$((n + $(grep -cvE '^[[:space:]]*(#|$)' "$l")))
    done
    echo "$n"
}

total_p=0 total_f=0
summary=() details=()
log=$(mktemp "${TMPDIR:-/tmp}/check-rdma.XXXXXX")
trap 'rm -f "$log"' EXIT

# Each failure of the guest run in $1 with the last lines of its stderr, and
# the guests' health after it (guest-suite.sh), onto details: they are
# printed again after the summary, since a CI log is read from its end.
add_details() {
    local line
    while IFS= read -r line; do
        details+=("$line")
    done < <(awk '
        function flush(  i) {
            for (i = (n > 6 ? n - 6 : 0); i < n; i++) print "    " buf[i % 6]
            inerr = 0; n = 0
        }
        { sub(/^\[node0\] /, "") }
        inerr && /\[0x[0-9a-f]+\]$/ { next }   # backtrace frames
        inerr && /^  / && !/^  --- / { buf[n++ % 6] = $0; next }
        inerr { flush() }
        /^  --- stderr \(tail\) ---/ { inerr = 1; n = 0; next }
        /^(FAIL|XPASS) / || /^health / { print "  " $0 }
        END { if (inerr) flush() }' "$1")
}

# What broke in the guests themselves during the run in $1, per guest-suite's
# health lines: a guest that no longer reaches the other, an rxe port that
# is no longer active, RC between the devices failing without rdmpi
# (ibv_rc_pingpong), a kernel BUG or WARNING. Empty if nothing did.
guests_broken() {
    grep -E '^(\[node0\] )?health ' "$1" |
        grep -E 'unreachable|rxe: (no device|PORT_DOWN|PORT_INIT|PORT_ARMED)|ibv_rc_pingpong .*: failed|kernel: .*(BUG:|WARNING:)' |
        sed -E 's/^(\[node0\] )?health \[[^]]*\] //' | sort -u | head -n 3 | paste -sd ';' -
}

# One guest run: $1 = guest count, $2 = configurations, $3 = C list, $4 =
# Fortran list. Adds to the totals and to the summary. A run in which the
# guests themselves broke (see guests_broken) is run once more on new
# guests, and only the second counts; both are in the output.
guest_run() {
    local n=$1 cfgs=$2 cl=$3 fl=$4 cases ncfg t rc line p f t0 secs label try broken
    ncfg=$(echo "$cfgs" | tr ';' '\n' | grep -c .)
    cases=$(( $(ncases "$cl" "$fl") * ncfg ))
    t=${timeout:-$((boot_s + cases * case_s))}
    label="$n guest$([ "$n" -gt 1 ] && echo s) ${cfgs%%:*}"
    [ "$ncfg" -gt 1 ] && label="$n guest$([ "$n" -gt 1 ] && echo s) $(echo "$cfgs" | tr ';' '\n' | sed 's/:.*//' | paste -sd+)"
    for try in 1 2; do
        echo "== check-rdma: $label: $cases cases, guest run limit $t s"
        t0=$(date +%s)
        "$here/run-in-vm.sh" -n "$n" -t "$t" -- "$here/guest-suite.sh" -c "$cfgs" -l "$cl" -f "$fl" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        secs=$(( $(date +%s) - t0 ))
        line=$(grep -E "^(\[node0\] )?rdma-vm \([^)]*\): [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
        if [ -n "$line" ]; then
            p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
            f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
        else
            # count what finished before the guest run ended
            p=$(grep -cE '^(\[node0\] )?(PASS|XFAIL) ' "$log")
            f=$(( $(grep -cE '^(\[node0\] )?(FAIL|XPASS) ' "$log") + 1 ))
            echo "check-rdma: $label: the guest run ended without a summary (exit $rc) after $secs s"
        fi
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && { f=1; echo "check-rdma: $label: the guest run exited $rc"; }
        add_details "$log"
        broken=
        [ "$f" -gt 0 ] && broken=$(guests_broken "$log")
        [ -n "$broken" ] && [ "$try" = 1 ] || break
        echo "check-rdma: $label: the guests themselves broke ($broken); this run does not count, it runs again on new guests"
        summary+=("check-rdma: $label: not counted, the guests broke: $p passed, $f failed, $secs s")
        details+=("  (above: $label, the run that did not count)")
    done
    total_p=$((total_p + p))
    total_f=$((total_f + f))
    summary+=("check-rdma: $label: $p passed, $f failed, $secs s")
    # guest-suite.sh's line per configuration (the run's count above adds
    # the raw verbs check of the boot)
    while IFS= read -r line; do
        summary+=("  ${line#\[node0\] }")
    done < <(grep -E "^(\[node0\] )?rdma-vm \([^)]*\) config " "$log")
}

for n in ${RDMA_VM_NODES:-1 2}; do
    if [ "$n" -gt 1 ] && ! ./mpirun/mpirun --help 2>&1 | grep -q -- --launch-agent; then
        echo "check-rdma: SKIP the $n-guest runs: this mpirun has no --launch-agent (no multi-host mpirun)"
        continue
    fi
    if [ $ci = 1 ]; then
        # across guests a shorter list: emulated guests talk slowly. Both
        # configurations in one boot: CI's time goes to tests, not boots.
        if [ "$n" -gt 1 ]; then cl=$here/ci-2.testlist; else cl=$here/ci.testlist; fi
        guest_run "$n" "$configs" "$cl" -
    else
        IFS=';' read -r -a cfgs <<<"$configs"
        for cfg in "${cfgs[@]}"; do
            [ -n "${cfg%%:*}" ] || continue
            guest_run "$n" "$cfg" "$here/rdma.testlist" "$here/fortran.testlist"
        done
    fi
done
printf '%s\n' "${summary[@]}"
if [ ${#details[@]} -gt 0 ]; then
    echo "check-rdma: what failed (the last lines of each failure's stderr):"
    printf '%s\n' "${details[@]}" | tail -n 80
fi
echo "check-rdma: $total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
