#!/bin/bash
# A crashed rank's own report: a rank killed by SIGSEGV, SIGBUS, SIGFPE or
# SIGABRT prints one report naming its rank, host and the signal, a
# backtrace of the faulting thread and a hint about core files, then dies
# of that signal, so that mpirun reports it and exits with 128 + signal as
# before. RDMPI_CRASH_REPORT=0 turns the report off.
. "${srcdir:-.}/test/launcher/lib.sh"

R=$builddir/test/launcher/crash_rank
need_built check "$R"

check_crash() {  # how signal-number signal-name frame-pattern
    local how=$1 num=$2 name=$3 frame=$4
    run_mpirun -n 2 "$R" "$how" 1 mark=$MARK
    expect_rc "$how: rank dies of signal $num" $((128 + num))
    expect_grep "$how: the rank names itself, its host and the signal" "$T/err" \
        "^rdmpi: rank 1 on host [^ ]+ \(pid [0-9]+\): killed by signal $num \($name"
    local n
    n=$(grep -c "^rdmpi: rank .*: killed by signal" "$T/err")
    if [ "$n" -eq 1 ]; then pass "$how: one report"; else fail "$how: $n reports"; fi
    expect_grep "$how: a backtrace of the faulting thread" "$T/err" \
        "^rdmpi: rank 1 on host [^ ]+ \(pid [0-9]+\): backtrace of the thread that received it:$"
    expect_grep "$how: the backtrace has the frame that crashed" "$T/err" "$frame"
    expect_grep "$how: a hint about core files" "$T/err" \
        "^rdmpi: rank 1 on host [^ ]+ \(pid [0-9]+\): (no core file: the core size limit is 0|a core file)"
    expect_grep "$how: mpirun still reports the signal" "$T/err" \
        "^mpirun: rank 1 \(pid [0-9]+\) was killed by signal $num "
}

check_crash segv 11 SIGSEGV 'crash_rank\(crash_here\+0x[0-9a-f]+\)'
check_crash bus 7 SIGBUS 'crash_rank\(crash_here\+0x[0-9a-f]+\)'
check_crash fpe 8 SIGFPE 'crash_rank\(crash_here\+0x[0-9a-f]+\)'
check_crash abort 6 SIGABRT '\(abort\+0x[0-9a-f]+\)'

# The core-file hint follows the limit the rank is given.
ulimit -c 0
run_mpirun -n 2 "$R" segv 0 mark=$MARK
expect_grep "ulimit -c 0: the hint says how to keep a core" "$T/err" \
    "rank 0 on host .*: no core file: the core size limit is 0 \(run 'ulimit -c unlimited' before mpirun"

RDMPI_CRASH_REPORT=0 run_mpirun -n 2 "$R" segv 1 mark=$MARK
expect_rc "RDMPI_CRASH_REPORT=0: still signal 11" 139
expect_no_grep "RDMPI_CRASH_REPORT=0: no report" "$T/err" "^rdmpi: rank"

finish
