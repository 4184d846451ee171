#!/usr/bin/env python3
"""Exit 0 once HOST:PORT answers a protocol v4 OPTIONS frame with SUPPORTED (opcode 0x06), else 1.

Usage: cql-ready.py PORT [HOST]   (HOST defaults to 127.0.0.1). The benchmark scripts poll it while a node starts.
"""
import socket
import sys

port = int(sys.argv[1])
host = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
try:
    with socket.create_connection((host, port), timeout=2) as s:
        s.settimeout(2)
        s.sendall(bytes.fromhex("040000000500000000"))
        header = b""
        while len(header) < 9:
            chunk = s.recv(9 - len(header))
            if not chunk:
                break
            header += chunk
    sys.exit(0 if len(header) == 9 and header[4] == 0x06 else 1)
except OSError:
    sys.exit(1)
