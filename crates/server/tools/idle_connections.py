#!/usr/bin/env python3
"""Opens N idle TCP connections from one client address to a running
`thaiboard serve` and reports what the server does with them.

    thaiboard serve --bind 127.0.0.1:8091 --data-dir "$(mktemp -d)" &
    python3 crates/server/tools/idle_connections.py 127.0.0.1:8091 500 SERVER_PID

Prints how many connections the server closed at once (the per-address
cap), how long the rest stayed open (the header timeout), whether another
address (127.0.0.2) was served meanwhile, and the server's resident memory
before, during and after (from /proc/PID/status). Linux only.
"""

import socket
import sys
import time
import urllib.request


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def closed(sock):
    """True if the server has closed the connection (reads EOF or reset)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def other_address_served(host, port):
    """A plain request from 127.0.0.2 while the idle connections stand."""
    s = socket.create_connection((host, port), timeout=5, source_address=("127.0.0.2", 0))
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = s.recv(64)
    s.close()
    return answer.split(b"\r\n")[0].decode(errors="replace")


def main():
    addr, count, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    host, port = addr.rsplit(":", 1)
    port = int(port)
    before = rss_mb(pid)
    start = time.monotonic()
    socks = []
    refused = 0
    for _ in range(count):
        try:
            socks.append(socket.create_connection((host, port), timeout=5))
        except OSError:
            refused += 1
    time.sleep(0.5)
    at_once = sum(1 for s in socks if closed(s))
    during = rss_mb(pid)
    served = other_address_served(host, port)
    open_at = {}
    while time.monotonic() - start < 60:
        for i, s in enumerate(socks):
            if i not in open_at and closed(s):
                open_at[i] = time.monotonic() - start
        if len(open_at) == len(socks):
            break
        time.sleep(0.1)
    late = sorted(t for t in open_at.values() if t > 1.0)
    still_open = len(socks) - len(open_at)
    print(f"connections opened: {len(socks)} (refused at connect: {refused})")
    print(f"closed by the server within 0.5 s: {at_once}")
    if late:
        print(f"closed later: {len(late)}, after {late[0]:.1f}-{late[-1]:.1f} s")
    print(f"still open after 60 s: {still_open}")
    print(f"another address meanwhile: {served}")
    print(f"server rss MB: before {before:.1f}  with the connections {during:.1f}  after {rss_mb(pid):.1f}")


if __name__ == "__main__":
    main()
