#!/usr/bin/env python3
"""A fake rpc-server for rigbench's --rpc bad-input tests, on 127.0.0.1.

--major N   answers HELLO as a server of RPC protocol N.0.0 (llama.cpp v0.4.0 speaks 6.0.0),
            then closes the connection.
--silent    accepts connections and never answers (an rpc-server busy with another client).
Runs until killed. The wire format is ggml-rpc.cpp's: a request is cmd (1 byte), size
(8 bytes, little endian), data; an answer is size (8 bytes), data.
"""
import argparse
import socket
import struct
import threading
import time

HELLO = 14
CONN_CAPS = 24


def recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def serve(conn, args):
    with conn:
        if args.silent:
            while conn.recv(4096):
                pass
            return
        try:
            cmd = recv_exact(conn, 1)[0]
            size = struct.unpack("<Q", recv_exact(conn, 8))[0]
            recv_exact(conn, size)
        except (ConnectionError, OSError):
            return
        if cmd == HELLO:
            answer = bytes([args.major, 0, 0, 0]) + bytes(CONN_CAPS)
            conn.sendall(struct.pack("<Q", len(answer)) + answer)
        time.sleep(0.2)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--major", type=int, default=5)
    p.add_argument("--silent", action="store_true")
    args = p.parse_args()
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", args.port))
    srv.listen(8)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=serve, args=(conn, args), daemon=True).start()


if __name__ == "__main__":
    main()
