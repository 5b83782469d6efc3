#!/usr/bin/env python3
"""A TCP relay on 127.0.0.1 between rigbench and a real ggml-rpc-server that delays every
forwarded chunk by DELAY_MS in each direction (a round trip gains 2 x DELAY_MS). It stands in
for `tc netem`, which this machine's kernel lacks, in bench/rpc_network_term and in
tests/e2e/rpc_e2e_test.cpp (RpcNetworkTerm).

usage: rpc_delay_relay.py --target-port P [--listen-port 0] [--delay-ms 2] [--count-file F]
                          [--max-seconds 600]

It prints "port N" on stdout once it listens (--listen-port 0: a free port). Each chunk read is
forwarded, in order, once DELAY_MS has passed since it arrived. With --count-file it also reads
ggml-rpc's wire format on the way to the server (| cmd 1 byte | size 8 bytes | data |) and, on
SIGTERM/SIGINT or at --max-seconds, writes a JSON object: commands by name; "turns", the times
the server answered after the client had sent (each one a round trip the client waited for);
"computes", the graph computes (one per token per hop); "turns_after_compute", the turns from
the first graph compute on (so turns_after_compute / computes = round trips per token per hop);
"bytes_after_compute", by command, the bytes sent to the server (9-byte header and payload) from
the first graph compute on (SET_TENSOR's / (computes - 1) = a token's inputs into the hop). It exits by itself after --max-seconds (bounded: a test that forgets it cannot leak it).
"""
import argparse
import asyncio
import json
import os
import signal
import struct
import sys
import time

# ggml-rpc.cpp enum rpc_cmd, in order (RPC_CMD_HELLO must be 14).
COMMANDS = ["ALLOC_BUFFER", "GET_ALIGNMENT", "GET_MAX_SIZE", "BUFFER_GET_BASE", "FREE_BUFFER", "BUFFER_CLEAR",
            "SET_TENSOR", "SET_TENSOR_HASH", "GET_TENSOR", "COPY_TENSOR", "GRAPH_COMPUTE", "GET_DEVICE_MEMORY",
            "INIT_TENSOR", "GET_ALLOC_SIZE", "HELLO", "DEVICE_COUNT", "GRAPH_RECOMPUTE", "MEMSET_TENSOR"]


class Counter:
    def __init__(self):
        self.commands = {}
        self.turns = 0
        self.computes = 0             # GRAPH_COMPUTE + GRAPH_RECOMPUTE: one per token per hop
        self.turns_after_compute = 0  # turns from the first graph compute on
        self.bytes_after_compute = {}  # by command: header + payload bytes sent from the first compute on
        self.last = None  # "c2s" or "s2c": who sent last
        self.buf = b""
        self.need = 9
        self.in_payload = False

    def client_bytes(self, data):
        self.last = "c2s"
        self.buf += data
        while len(self.buf) >= self.need:
            if not self.in_payload:
                cmd, size = self.buf[0], struct.unpack("<Q", self.buf[1:9])[0]
                name = COMMANDS[cmd] if cmd < len(COMMANDS) else str(cmd)
                self.commands[name] = self.commands.get(name, 0) + 1
                if self.computes > 0:
                    self.bytes_after_compute[name] = self.bytes_after_compute.get(name, 0) + 9 + size
                if name in ("GRAPH_COMPUTE", "GRAPH_RECOMPUTE"):
                    self.computes += 1
                self.buf = self.buf[9:]
                self.need, self.in_payload = size, True
            else:
                self.buf = self.buf[self.need:]
                self.need, self.in_payload = 9, False

    def server_bytes(self, _data):
        if self.last == "c2s":
            self.turns += 1
            if self.computes > 0:
                self.turns_after_compute += 1
        self.last = "s2c"


async def pump(reader, writer, delay_s, seen):
    queue = asyncio.Queue()

    async def send():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        writer.close()

    sender = asyncio.create_task(send())
    try:
        while True:
            data = await reader.read(1 << 20)
            if not data:
                break
            if seen:
                seen(data)
            await queue.put((time.monotonic() + delay_s, data))
    except (ConnectionError, OSError):
        pass
    await queue.put((0, None))
    try:
        await sender
    except (ConnectionError, OSError):
        pass


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target-port", type=int, required=True)
    ap.add_argument("--listen-port", type=int, default=0)
    ap.add_argument("--delay-ms", type=float, default=0)
    ap.add_argument("--count-file")
    ap.add_argument("--max-seconds", type=float, default=600)
    a = ap.parse_args()
    delay_s = a.delay_ms / 1e3
    counters = []

    async def on_client(creader, cwriter):
        try:
            sreader, swriter = await asyncio.open_connection("127.0.0.1", a.target_port)
        except OSError:
            cwriter.close()
            return
        c = Counter()
        counters.append(c)
        await asyncio.gather(pump(creader, swriter, delay_s, c.client_bytes), pump(sreader, cwriter, delay_s, c.server_bytes))

    server = await asyncio.start_server(on_client, "127.0.0.1", a.listen_port)
    print("port", server.sockets[0].getsockname()[1], flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for s in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(s, stop.set)
    try:
        await asyncio.wait_for(stop.wait(), a.max_seconds)
    except asyncio.TimeoutError:
        pass
    server.close()
    if a.count_file:
        total = {"commands": {}, "turns": 0, "computes": 0, "turns_after_compute": 0, "connections": len(counters),
                 "bytes_after_compute": {}}
        for c in counters:
            total["turns"] += c.turns
            total["computes"] += c.computes
            total["turns_after_compute"] += c.turns_after_compute
            for k, v in c.commands.items():
                total["commands"][k] = total["commands"].get(k, 0) + v
            for k, v in c.bytes_after_compute.items():
                total["bytes_after_compute"][k] = total["bytes_after_compute"].get(k, 0) + v
        tmp = a.count_file + ".tmp"
        with open(tmp, "w") as f:
            json.dump(total, f, sort_keys=True)
        os.replace(tmp, a.count_file)
    # Connections still open are dropped with the process (no cancellation tracebacks).
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    asyncio.run(main())
