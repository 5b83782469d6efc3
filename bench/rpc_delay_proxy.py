#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that delays every byte by DELAY_MS in each direction (so a round
trip gains 2 x DELAY_MS), for bench/rpc_network_term where tc netem is not available.

usage: rpc_delay_proxy.py LISTEN_PORT TARGET_PORT DELAY_MS
Each chunk read is forwarded, in order, once DELAY_MS has passed since it arrived.
"""
import collections
import socket
import sys
import threading
import time


def pump(src, dst, delay_s):
    q = collections.deque()
    cv = threading.Condition()
    done = [False]

    def writer():
        while True:
            with cv:
                while not q and not done[0]:
                    cv.wait()
                if not q and done[0]:
                    break
                due, data = q.popleft()
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                dst.sendall(data)
            except OSError:
                break
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    while True:
        try:
            data = src.recv(1 << 20)
        except OSError:
            data = b""
        with cv:
            if not data:
                done[0] = True
                cv.notify()
                break
            q.append((time.monotonic() + delay_s, data))
            cv.notify()
    t.join()


def main():
    listen_port, target_port, delay_ms = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", listen_port))
    srv.listen(8)
    while True:
        client, _ = srv.accept()
        upstream = socket.create_connection(("127.0.0.1", target_port))
        for s in (client, upstream):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=pump, args=(client, upstream, delay_ms / 1e3), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client, delay_ms / 1e3), daemon=True).start()


if __name__ == "__main__":
    main()
