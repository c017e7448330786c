#!/bin/bash
# Core binding: by default each rank gets its own core when there are at
# least as many cores as ranks, and ranks share cores round-robin when
# every core gets the same number; --bind-to none and an uneven count (by
# default) leave the ranks with mpirun's own CPU set; --bind-to core binds
# round-robin whatever the count; a restricted mpirun binds within its own
# CPUs.
. "${srcdir:-.}/test/launcher/lib.sh"

mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
# Cores holding a CPU this process may use (hwloc counts the same way).
cores=$(lscpu -p=CORE,CPU 2>/dev/null | grep -v '^#' | awk -F, -v allowed="$mine" '
    BEGIN {
        n = split(allowed, parts, ",")
        for (i = 1; i <= n; i++) {
            if (split(parts[i], r, "-") == 2) { for (c = r[1]; c <= r[2]; c++) ok[c] = 1 }
            else ok[parts[i]] = 1
        }
    }
    ok[$2] { seen[$1] = 1 }
    END { print length(seen) }')
[ -n "$cores" ] || cores=1
echo "info: $cores core(s) available, cpus $mine"

cpus_cmd='sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status'

run_mpirun -n 2 --bind-to none --tag-output sh -c "$cpus_cmd"
expect_rc "--bind-to none" 0
expect_out_sorted "--bind-to none keeps mpirun's cpus" "[0] $mine" "[1] $mine"

over=$((cores + 1))
run_mpirun -n $over --tag-output sh -c "$cpus_cmd"
expect_rc "more ranks than cores" 0
if [ "$(sed 's/^\[[0-9]*\] //' "$T/out" | sort -u)" = "$mine" ] && [ "$(wc -l <"$T/out")" -eq $over ]; then
    pass "$over ranks on $cores cores: not bound"
else
    fail "$over ranks on $cores cores: $(cat "$T/out")"
fi

# Local rank k and k + cores share a core; with each rank's set printed in
# rank order, the sets must repeat every $cores lines, and (with 2 cores or
# more) differ within the first $cores.
check_round_robin() {   # what n
    sed 's/^\[[0-9]*\] //' "$T/out" >"$T/sets"
    local n=$2 ok=1 k
    [ "$(wc -l <"$T/sets")" -eq "$n" ] || ok=0
    for ((k = cores; k < n && ok; k++)); do
        [ "$(sed -n "$((k + 1))p" "$T/sets")" = "$(sed -n "$((k - cores + 1))p" "$T/sets")" ] || ok=0
    done
    if [ "$cores" -ge 2 ] && [ "$(head -n "$cores" "$T/sets" | sort -u | wc -l)" -ne "$cores" ]; then
        ok=0
    fi
    if [ $ok = 1 ]; then
        pass "$1: round-robin over $cores cores ($(tr '\n' ' ' <"$T/sets"))"
    else
        fail "$1: $(tr '\n' ' ' <"$T/out")"
    fi
}

# --bind-to core binds whatever the count, round-robin.
run_mpirun -n $over --bind-to core --tag-output sh -c "$cpus_cmd"
expect_rc "--bind-to core with more ranks than cores" 0
sort -t] -k1.2n "$T/out" -o "$T/out"
check_round_robin "--bind-to core, $over ranks" $over
expect_no_grep "--bind-to core, $over ranks: no warning" "$T/err" 'warning'

# By default too when every core gets the same number of ranks.
even=$((2 * cores))
run_mpirun -n $even --tag-output sh -c "$cpus_cmd"
expect_rc "$even ranks on $cores cores" 0
sort -t] -k1.2n "$T/out" -o "$T/out"
check_round_robin "default, $even ranks" $even

if [ "$cores" -ge 2 ]; then
    for opt in "" "--bind-to core"; do
        run_mpirun -n 2 $opt --tag-output sh -c "$cpus_cmd"
        expect_rc "bind ${opt:-default}" 0
        sets=$(sed 's/^\[[0-9]*\] //' "$T/out" | sort -u | wc -l)
        if [ "$sets" -eq 2 ] && ! grep -q " $mine\$" "$T/out"; then
            pass "bind ${opt:-default}: each rank on its own core ($(tr '\n' ' ' <"$T/out"))"
        else
            fail "bind ${opt:-default}: $(tr '\n' ' ' <"$T/out")"
        fi
    done
    # A restricted mpirun (taskset, a batch system) binds within its own
    # CPUs: one rank on the last CPU we may use, not on the first core.
    last=$(echo "$mine" | tr ',' '\n' | tail -n 1)
    last=${last##*-}
    timeout 60 taskset -c "$last" "$MPIRUN" -n 1 --bind-to core sh -c "$cpus_cmd" >"$T/out" 2>"$T/err"
    RC=$?
    expect_rc "taskset -c $last mpirun --bind-to core" 0
    if [ "$(cat "$T/out")" = "$last" ]; then
        pass "taskset -c $last mpirun --bind-to core: the rank stays on cpu $last"
    else
        fail "taskset -c $last mpirun --bind-to core: rank on '$(cat "$T/out")'; $(cat "$T/err")"
    fi
else
    echo "info: fewer than 2 cores, binding of 2 ranks not checked"
fi

finish
