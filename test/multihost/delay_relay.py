#!/usr/bin/env python3
"""A TCP relay that holds every byte for a fixed time in each direction:
a link with latency, for kernels without sch_netem. It listens on
127.0.0.1 (a free port, printed on stdout once listening), relays the
first connection it accepts to TARGET PORT, and exits when both
directions have ended, or when nobody connects within --accept-timeout.
An end of stream (or a reset) is passed on after the bytes before it,
with the same delay. With --swallow-end, the link dies as the accepted
side closes: what it sent but the delay still holds is lost, and the
other side hears nothing more (no end of stream) until it closes.

Usage: delay_relay.py [--delay-ms MS] [--accept-timeout S] [--swallow-end]
                      TARGET PORT
"""
import argparse
import asyncio
import sys


async def pump(reader, writer, delay, swallow_end=False):
    """Copies reader to writer, each chunk delay seconds after it came;
    with swallow_end, the end of reader drops what is still held and is
    not passed on."""
    loop = asyncio.get_running_loop()
    ended = False
    queue = asyncio.Queue()

    async def feed():
        nonlocal ended
        while True:
            try:
                data = await reader.read(65536)
            except OSError:
                data = b""
            if not data and swallow_end:
                ended = True
                await queue.put((0, data))
                return
            await queue.put((loop.time() + delay, data))
            if not data:
                return

    async def deliver():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if ended:
                return
            try:
                if not data:
                    writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()
            except OSError:
                return

    await asyncio.gather(feed(), deliver())


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--delay-ms", type=float, default=50.0)
    ap.add_argument("--accept-timeout", type=float, default=60.0)
    ap.add_argument("--swallow-end", action="store_true")
    ap.add_argument("target")
    ap.add_argument("port", type=int)
    args = ap.parse_args()
    delay = args.delay_ms / 1000.0
    accepted = asyncio.get_running_loop().create_future()

    def on_accept(reader, writer):
        if not accepted.done():
            accepted.set_result((reader, writer))
        else:
            writer.close()

    server = await asyncio.start_server(on_accept, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    try:
        down_r, down_w = await asyncio.wait_for(accepted, args.accept_timeout)
    except asyncio.TimeoutError:
        return 1
    server.close()
    try:
        up_r, up_w = await asyncio.open_connection(args.target, args.port)
    except OSError as e:
        print(f"delay_relay: cannot reach {args.target} port {args.port}: {e}",
              file=sys.stderr)
        return 1
    await asyncio.gather(pump(down_r, up_w, delay, args.swallow_end), pump(up_r, down_w, delay))
    up_w.close()
    down_w.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
