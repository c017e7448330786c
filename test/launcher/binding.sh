#!/bin/bash
# Core binding: by default each rank gets its own core when there are at
# least as many cores as ranks; --bind-to none and more ranks than cores
# leave the ranks with mpirun's own CPU set; a restricted mpirun binds
# within its own CPUs.
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

run_mpirun -n $over --bind-to core sh -c "true"
expect_rc "--bind-to core with too few cores still runs" 0
expect_grep "--bind-to core warning" "$T/err" '^mpirun: warning: .* ranks are not bound'

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
