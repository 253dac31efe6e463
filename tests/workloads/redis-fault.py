#!/usr/bin/env python3
"""A redis-server stand-in for tests/workloads/kv-cache.t: runs the real
server (REDIS_REAL, started as redis-server) on a socket of its own and
relays the workload's connection to it, and at the first value the server
sends back (a bulk string reply, "$LEN\\r\\n" then LEN bytes) does what
REDIS_FAULT says:
  corrupt  change byte 16 of that value (a server that returns bad data)
  die      kill itself with SIGKILL (as the OOM killer would)
"""
import os
import select
import signal
import socket
import subprocess
import sys
import time

args = sys.argv[1:]
path = args[args.index("--unixsocket") + 1]
real_path = path + ".real"
args[args.index("--unixsocket") + 1] = real_path
server = subprocess.Popen(["redis-server"] + args, executable=os.environ["REDIS_REAL"])
signal.signal(signal.SIGTERM, lambda *_: (server.terminate(), server.wait(), sys.exit(0)))

while True:
    try:
        upstream = socket.socket(socket.AF_UNIX)
        upstream.connect(real_path)
        break
    except OSError:
        time.sleep(0.01)
listener = socket.socket(socket.AF_UNIX)
listener.bind(path)
listener.listen(1)
client, _ = listener.accept()

pending = b""  # server bytes not yet relayed, while no value has been seen
done = False
while True:
    ready, _, _ = select.select([client, upstream], [], [])
    if client in ready:
        data = client.recv(65536)
        if not data:
            break
        upstream.sendall(data)
    if upstream in ready:
        data = upstream.recv(65536)
        if not data:
            break
        if done:
            client.sendall(data)
            continue
        pending += data
        at = pending.find(b"$")
        end = pending.find(b"\r\n", at) if at >= 0 else -1
        if at < 0 or end < 0 or len(pending) < end + 2 + 17:
            if at < 0:
                client.sendall(pending)
                pending = b""
            continue
        if os.environ["REDIS_FAULT"] == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        byte = end + 2 + 16
        pending = pending[:byte] + bytes([pending[byte] ^ 0xFF]) + pending[byte + 1:]
        client.sendall(pending)
        done = True
server.terminate()
server.wait()
