#!/bin/bash
# The head's port for its host daemons, and the job secret that opens it.
# The secret must appear on no command line (ps shows them to every user
# of both hosts). Connections that never say HELLO, held during the
# launch, must not keep the daemons out; a connection that sends a huge
# message instead of its HELLO is closed after a few bytes, not buffered.
# The head listens only on the address its daemons connect to.
. "${srcdir:-.}/test/multihost/lib.sh"

MARK=mark=$TEST_NAME-$$

# The secret is 32 hex digits; no argument of a daemon of ours may look
# like one (the agent, ip netns exec, becomes the daemon).
secret_in_argv() {
    local p
    for p in $(our_daemons); do
        tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -Eq '^[0-9a-f]{32}$' && echo "$p"
    done
}

"$MPIRUN_MH" "$CLIENT" $MARK sleep=4 exchange </dev/null >"$T/out" 2>"$T/err" &
PID=$!
for i in $(seq 50); do
    [ -n "$(our_daemons)" ] && break
    sleep 0.1
done
sleep 0.5
if [ -z "$(our_daemons)" ]; then
    fail "no host daemon found"
else
    left=$(secret_in_argv)
    if [ -z "$left" ]; then
        pass "no daemon has the secret on its command line"
    else
        fail "the secret is on the command line of:"
        ps -o pid,args -p "$(echo $left | tr ' ' ',')" | sed 's/^/    /'
    fi
fi
wait $PID
RC=$?
[ $RC -eq 0 ] && pass "job: exit status 0" || { fail "job: exit status $RC"; sed 's/^/    /' "$T/err"; }

# An agent that takes 2 s to start the daemon: time for a connection to
# the head's port from another host that sends a header announcing 100 MiB
# and then as much as it can, and for 100 more held silent for 20 s.
cat >"$T/slow-agent" <<'EOS'
#!/bin/sh
sleep 2
exec ip netns exec "$@"
EOS
chmod +x "$T/slow-agent"
ip netns exec "$H0" "$MPIRUN_BIN" -hosts "$HOSTS" --launch-agent "$T/slow-agent" --bind-to none \
    "$CLIENT" $MARK exchange </dev/null >"$T/out" 2>"$T/err" &
PID=$!
port=
for i in $(seq 50); do
    port=$(pgrep -f -- "$T/slow-agent .*--rd-daemon" | head -1 | xargs -r -I{} cat /proc/{}/cmdline |
           tr '\0' '\n' | sed -n '/^--rd-daemon$/{n;p;}')
    [ -n "$port" ] && break
    sleep 0.1
done
if [ -z "$port" ]; then
    fail "no launch agent found"
else
    ip netns exec "$H1" python3 -c '
import socket, struct, sys, time
addr = (sys.argv[1], int(sys.argv[2]))
big = socket.create_connection(addr, timeout=2)
sent = 0
try:
    big.sendall(struct.pack("<IHHII", 0x484d4452, 3, 1, 1, 100 << 20))
    chunk = bytes(1 << 16)
    while sent < 64 << 20:
        big.sendall(chunk)
        sent += len(chunk)
except OSError as e:
    print(e, flush=True)
print("sent", sent, flush=True)
held = [socket.create_connection(addr, timeout=2) for _ in range(100)]
time.sleep(20)' "$MH_NET.1" "$port" >"$T/flood" 2>&1 &
    flood=$!
    wait $PID
    RC=$?
    [ $RC -eq 0 ] && pass "launch with 100 silent connections: exit status 0" ||
        { fail "launch with 100 silent connections: exit status $RC"; sed 's/^/    /' "$T/err"; }
    n=$(grep -c '^exchange ok rank' "$T/out")
    [ "$n" -eq 3 ] && pass "all 3 ranks exchanged" || fail "$n of 3 ranks exchanged"
    sent=$(sed -n 's/^sent \([0-9]*\)$/\1/p' "$T/flood")
    if [ -n "$sent" ] && [ "$sent" -lt $((16 << 20)) ]; then
        pass "a connection without HELLO was closed after $sent bytes of its 64 MiB ($(head -1 "$T/flood"))"
    else
        fail "a connection without HELLO could send ${sent:-?} bytes:"
        sed 's/^/    /' "$T/flood"
    fi
    kill $flood 2>/dev/null
    wait $flood 2>/dev/null
fi

# Hosts named by addresses (an agent maps them to the namespaces): every
# daemon connects to 10.x.x.1, so the head listens there and nowhere else
# (the PMIx server's 127.0.0.1 aside).
cat >"$T/ip-agent" <<EOS
#!/bin/sh
h=\$1
shift
case \$h in $MH_NET.2) ns=$H1 ;; $MH_NET.3) ns=$H2 ;; *) exit 1 ;; esac
exec ip netns exec \$ns "\$@"
EOS
chmod +x "$T/ip-agent"
ip netns exec "$H0" "$MPIRUN_BIN" -hosts "$MH_NET.1,$MH_NET.2,$MH_NET.3" --launch-agent "$T/ip-agent" \
    --bind-to none "$CLIENT" $MARK sleep=3 exchange </dev/null >"$T/out" 2>"$T/err" &
PID=$!
for i in $(seq 50); do
    [ -n "$(our_daemons)" ] && break
    sleep 0.1
done
ip netns exec "$H0" ss -Hltnp | grep "pid=$PID," >"$T/listen"
if grep -q "$MH_NET\.1:" "$T/listen" && ! grep -v -e "$MH_NET\.1:" -e "127\.0\.0\.1:" "$T/listen" | grep -q .; then
    pass "the head listens on $MH_NET.1 only"
else
    fail "the head listens elsewhere than on $MH_NET.1:"
    sed 's/^/    /' "$T/listen"
fi
wait $PID
RC=$?
[ $RC -eq 0 ] && pass "hosts named by address: exit status 0" ||
    { fail "hosts named by address: exit status $RC"; sed 's/^/    /' "$T/err"; }

check_leftovers "daemon port"
finish
