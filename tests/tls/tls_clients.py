"""The Python driver against a node with client TLS (run by run-tls-clients.sh): queries and an LWT over TLS, and a
plaintext connection refused at once. Usage: tls_clients.py HOST PORT CA_PEM"""
import socket
import ssl
import sys
import time

from cassandra.cluster import Cluster, NoHostAvailable

host, port, ca_pem = sys.argv[1], int(sys.argv[2]), sys.argv[3]

context = ssl.create_default_context(cafile=ca_pem)
context.check_hostname = False  # the driver gives no server_hostname unless ssl_options has one
cluster = Cluster([host], port=port, ssl_context=context, connect_timeout=30)
session = cluster.connect()
session.execute("CREATE KEYSPACE IF NOT EXISTS tls WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
session.execute("CREATE TABLE IF NOT EXISTS tls.t (k int PRIMARY KEY, v text)")
session.execute("INSERT INTO tls.t (k, v) VALUES (1, 'one')")
assert session.execute("SELECT v FROM tls.t WHERE k = 1").one().v == "one"
assert session.execute("INSERT INTO tls.t (k, v) VALUES (2, 'two') IF NOT EXISTS").was_applied
assert not session.execute("INSERT INTO tls.t (k, v) VALUES (2, 'again') IF NOT EXISTS").was_applied
cluster.shutdown()
print("python driver over TLS: queries and LWT ok")

# The node closes a plaintext connection at its first bytes; this driver notices only at its connect_timeout.
try:
    Cluster([host], port=port, connect_timeout=5).connect()
    sys.exit("a plaintext client was served by a TLS-only node")
except NoHostAvailable:
    pass
with socket.create_connection((host, port), timeout=5) as plain:
    plain.settimeout(5)  # a node that hangs instead of closing fails here with a timeout
    start = time.monotonic()
    plain.sendall(bytes.fromhex("040000000500000000"))  # OPTIONS, protocol v4
    answer = plain.recv(100)
    assert answer[:1] in (b"", b"\x15"), "a TLS-only node answered plaintext with %r" % answer
print("plaintext: driver refused; connection closed in %.2f s" % (time.monotonic() - start))
