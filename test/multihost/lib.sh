# Shared setup of the test/multihost scripts: three network namespaces as
# hosts (netns.sh), removed on every exit path, and a launcher wrapper that
# runs mpirun in the first one with ranks on all three.
set -u

srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${abs_top_builddir:-$(pwd)}
MPIRUN_BIN=$builddir/mpirun/mpirun
CLIENT=$builddir/test/launcher/boot_client
. "$srcdir/test/launcher/report.sh"
need_built check-multihost "$MPIRUN_BIN" "$CLIENT"
. "$srcdir/test/multihost/netns.sh"

TEST_NAME=$(basename "$0" .sh)
T=$builddir/test/multihost/$TEST_NAME.dir.$$
FAILS=0

cleanup() {
    mh_down
    rm -f "$T/mpirun-mh"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mh_up
rc=$?
[ $rc -eq 0 ] || exit $rc
rm -rf "$T"
mkdir -p "$T"

H0=${MH_PREFIX}0 H1=${MH_PREFIX}1 H2=${MH_PREFIX}2
HOSTS=$H0,$H1,$H2

# mpirun in host 0 with ranks on HOSTS (default all three); --bind-to none
# because the three "hosts" share this machine's cores.
cat >"$T/mpirun-mh" <<EOS
#!/bin/sh
exec ip netns exec $H0 "$MPIRUN_BIN" -hosts "\${MH_HOSTS:-$HOSTS}" --launch-agent 'ip netns exec' --bind-to none "\$@"
EOS
chmod +x "$T/mpirun-mh"
MPIRUN_MH=$T/mpirun-mh

# Host daemons running in this test's hosts (not another run's on the
# same machine).
our_daemons() {
    local ns p
    for ns in $H0 $H1 $H2; do
        for p in $(ip netns pids "$ns" 2>/dev/null); do
            grep -qa -- rd-daemon /proc/$p/cmdline 2>/dev/null && echo $p
        done
    done
}

# Nothing of a job may outlive it, on any host: processes of the test's
# programs or daemons, the job's directories in /tmp, its /dev/shm files.
# $1: the job id (mpirun.<pid>.<hex>) when known.
check_leftovers() {
    local what=$1 id=${2:-} left i
    for i in 1 2 3 4 5 6 7 8 9 10; do
        left=$( (pgrep -f -- "mark=$TEST_NAME-$$" || true; our_daemons) | sort -u)
        [ -z "$left" ] && break
        sleep 0.3
    done
    if [ -n "$left" ]; then
        fail "$what: processes left behind:"
        ps -o pid,ppid,args -p "$(echo $left | tr ' ' ',')" | sed 's/^/    /'
        kill -9 $left 2>/dev/null
    else
        pass "$what: no process left behind"
    fi
    if [ -n "$id" ]; then
        left=$(ls /tmp /dev/shm | grep -F -- "$id" || true)
        if [ -n "$left" ]; then
            fail "$what: files left behind: $left"
        else
            pass "$what: no file of $id left in /tmp or /dev/shm"
        fi
    fi
}

finish() {
    verdict
}
