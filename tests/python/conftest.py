"""Shared fixtures for the Python driver compatibility suite.

The suite targets whatever serves CQL at BALLOT_HOST:BALLOT_PORT (default
127.0.0.1:9042): Ballot, or real Cassandra 5.0 to keep the suite honest. All
tables live in one keyspace with a unique name per run, dropped at the end.
"""

import os
import random
import re
import secrets
import ssl
import threading
import time

import pytest
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
from cassandra import ConsistencyLevel
from cassandra.policies import RoundRobinPolicy

HOST = os.environ.get("BALLOT_HOST", "127.0.0.1")
PORT = int(os.environ.get("BALLOT_PORT", "9042"))
RF = int(os.environ.get("BALLOT_RF", "1"))  # replication factor of the suite's keyspace
# consistency of every statement; a cluster run with RF > 1 needs QUORUM to read its own writes
CONSISTENCY = ConsistencyLevel.name_to_value[os.environ.get("BALLOT_CONSISTENCY", "ONE").upper()]
REQUEST_TIMEOUT_S = 20


def make_cluster(**kwargs):
    """A cluster object for the target; lz4 compression unless the caller says otherwise."""
    profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy(), request_timeout=REQUEST_TIMEOUT_S,
                               consistency_level=CONSISTENCY)
    options = dict(port=PORT, compression="lz4", connect_timeout=10,
                   execution_profiles={EXEC_PROFILE_DEFAULT: profile})
    # Secure mode (tests/run-secure-suites.sh): log in as BALLOT_USER, and speak TLS trusting the CA in BALLOT_TLS_CA.
    if os.environ.get("BALLOT_USER"):
        options["auth_provider"] = PlainTextAuthProvider(os.environ["BALLOT_USER"], os.environ.get("BALLOT_PASSWORD", ""))
    if os.environ.get("BALLOT_TLS_CA"):
        # the CA must have signed the node's certificate, and it must name the address the driver connects to
        options["ssl_context"] = ssl.create_default_context(cafile=os.environ["BALLOT_TLS_CA"])
    options.update(kwargs)
    return Cluster([HOST], **options)


def error_code(exc):
    """The protocol error code of a server error as the driver raised it.

    The driver turns some error frames into exceptions without a code attribute
    (InvalidRequest, AlreadyExists); their text still carries "code=2200".
    """
    if hasattr(exc, "code"):
        return exc.code
    match = re.search(r"code=([0-9a-fA-F]{4})", str(exc))
    assert match, "no error code in %r" % exc
    return int(match.group(1), 16)


@pytest.fixture(scope="session")
def cluster():
    c = make_cluster()
    yield c
    c.shutdown()


@pytest.fixture(scope="session")
def keyspace(cluster):
    name = "ballot_py_%s_%s" % (time.strftime("%Y%m%d%H%M%S"), secrets.token_hex(3))
    session = cluster.connect()
    session.execute(
        "CREATE KEYSPACE %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': %d}" % (name, RF))
    yield name
    session.execute("DROP KEYSPACE IF EXISTS %s" % name)
    session.shutdown()


@pytest.fixture(scope="session")
def session(cluster, keyspace):
    s = cluster.connect(keyspace)
    yield s
    s.shutdown()


_table_counter = [0]


@pytest.fixture
def table(session, request):
    """Factory: table("pk int PRIMARY KEY, v text") creates a uniquely named table and returns its name."""

    def create(columns, options=""):
        _table_counter[0] += 1
        name = "t%d_%s" % (_table_counter[0], re.sub(r"[^a-z0-9_]", "_", request.node.name.lower())[:30])
        session.execute("CREATE TABLE %s (%s) %s" % (name, columns, options))
        return name

    return create


def run_transfers(clients, transfers, transfer):
    """Runs transfer(rng) `transfers` times in each of `clients` threads (seeded); a transfer that times out under
    contention is undecided, not an error: it may apply or not, and totals hold either way. Bounded: 120 s a thread."""
    from cassandra import ReadTimeout, WriteTimeout

    def client(seed):
        rng = random.Random(seed)
        for _ in range(transfers):
            try:
                transfer(rng)
            except (WriteTimeout, ReadTimeout):
                pass

    workers = [threading.Thread(target=client, args=(seed,)) for seed in range(clients)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
