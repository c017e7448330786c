#!/bin/bash
# Options of MPICH's mpiexec and Open MPI's mpirun that job scripts use:
# -l, -f/-machinefile with "host:N" lines, -H, this host named by one of
# its addresses, -wdir, -genvall/-envall/-envnone/-envlist, --output-filename,
# --npernode, and the no-ops --oversubscribe and --allow-run-as-root.
. "${srcdir:-.}/test/launcher/lib.sh"

# A launch agent that starts the "remote" daemon right here.
printf '#!/bin/sh\nshift\nexec "$@"\n' >"$T/agent"
chmod +x "$T/agent"
# One that fails: a host wrongly taken for another one fails the job.
printf '#!/bin/sh\nexit 3\n' >"$T/noagent"
chmod +x "$T/noagent"
where='echo "$PMI_RANK $MPI_LOCALRANKID/$MPI_LOCALNRANKS"'

run_mpirun -l -n 2 sh -c 'echo hi' $MARK
expect_rc "-l" 0
expect_out_sorted "-l labels lines with the rank" "[0] hi" "[1] hi"

# MPICH's machine file: "host:N" lines.
printf 'localhost:2\n# a comment\nlt-other-host:1\n' >"$T/machines"
for opt in -f -machinefile --machinefile; do
    run_mpirun $opt "$T/machines" --launch-agent "$T/agent" sh -c "$where" $MARK
    expect_rc "$opt host:N" 0
    expect_out_sorted "$opt host:N: 2 ranks here, 1 on the other host" "0 0/2" "1 1/2" "2 0/1"
done
printf 'localhost slots=1\nlt-other-host slots=2\n' >"$T/ompi-hosts"
run_mpirun --hostfile "$T/ompi-hosts" --launch-agent "$T/agent" sh -c "$where" $MARK
expect_out_sorted "--hostfile with slots=N" "0 0/1" "1 0/2" "2 1/2"

run_mpirun -H localhost:2,lt-other-host --launch-agent "$T/agent" -n 3 sh -c "$where" $MARK
expect_rc "-H" 0
expect_out_sorted "-H h:2,h2" "0 0/2" "1 1/2" "2 0/1"

# Every name of this host is this host: no launch agent runs for it.
for name in $(hostname -I 2>/dev/null) 127.0.0.1 localhost "$(hostname)"; do
    run_mpirun -hosts "$name" -n 2 --launch-agent "$T/noagent" sh -c "$where" $MARK
    expect_rc "host $name is this host" 0
    expect_out_sorted "host $name is this host" "0 0/2" "1 1/2"
done

# --npernode N: N ranks per host.
run_mpirun -hosts localhost,lt-other-host --npernode 1 --launch-agent "$T/agent" \
    sh -c "$where" $MARK
expect_out_sorted "--npernode 1" "0 0/1" "1 0/1"

# -wdir: the ranks start there, on every host.
mkdir -p "$T/wd"
for opt in -wdir --wdir; do
    run_mpirun $opt "$T/wd" -hosts localhost,lt-other-host --launch-agent "$T/agent" -n 2 \
        sh -c 'pwd' $MARK
    expect_rc "$opt" 0
    expect_out_sorted "$opt DIR: every rank starts in DIR" "$T/wd" "$T/wd"
done
run_mpirun -wdir "$T/no-such-dir" -n 1 true
expect_rc "-wdir to a missing directory" 2

# What of mpirun's environment reaches the ranks.
show='echo "${LT_A-unset} ${LT_B-unset} ${LT_C-unset} ${HOME-unset}"'
export LT_A=a LT_B=b
for opt in "" -genvall -envall; do
    run_mpirun $opt -n 1 sh -c "$show" $MARK
    expect_out_sorted "${opt:-default}: all of it" "a b unset ${HOME-unset}"
done
for opt in -genvnone -envnone; do
    run_mpirun $opt -genv LT_C c -n 1 sh -c "$show" $MARK
    expect_rc "$opt" 0
    expect_out_sorted "$opt: none of it, -genv still set" "unset unset c unset"
done
for opt in -genvlist -envlist; do
    run_mpirun $opt LT_B,LT_A -n 1 sh -c "$show" $MARK
    expect_out_sorted "$opt LT_B,LT_A: only those" "a b unset unset"
done
# Per program after ':', and on another host.
run_mpirun -hosts localhost:1,lt-other-host:1 --launch-agent "$T/agent" \
    -n 1 sh -c "$show" $MARK : -envlist LT_B -n 1 sh -c "$show" $MARK
expect_out_sorted "-envlist for the second program only" "a b unset ${HOME-unset}" "unset b unset unset"
unset LT_A LT_B

# --output-filename DIR: a file per rank and stream, nothing on our output.
run_mpirun -n 2 --output-filename "$T/outdir" sh -c 'echo "out $PMI_RANK"; echo "err $PMI_RANK" >&2' $MARK
expect_rc "--output-filename" 0
if [ ! -s "$T/out" ] && [ "$(cat "$T/outdir/1/rank.0/stdout")" = "out 0" ] &&
    [ "$(cat "$T/outdir/1/rank.1/stdout")" = "out 1" ] &&
    [ "$(cat "$T/outdir/1/rank.1/stderr")" = "err 1" ]; then
    pass "--output-filename: DIR/1/rank.N/stdout and stderr"
else
    fail "--output-filename: stdout '$(cat "$T/out")', files: $(find "$T/outdir" -type f 2>&1 | tr '\n' ' ')"
fi
run_mpirun -n 11 --output-filename "$T/out11" sh -c 'echo x' $MARK
if [ -s "$T/out11/1/rank.00/stdout" ] && [ -s "$T/out11/1/rank.10/stdout" ]; then
    pass "--output-filename: rank numbers padded to the digits of the job size"
else
    fail "--output-filename at np 11: $(ls "$T/out11/1" 2>&1 | tr '\n' ' ')"
fi

for opt in --oversubscribe --allow-run-as-root; do
    run_mpirun $opt -n 1 true
    expect_rc "$opt is accepted" 0
done

finish
