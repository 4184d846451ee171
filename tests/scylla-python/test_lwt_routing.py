"""ScyllaDB's Python driver (scylla-driver) against the target: it negotiates
SCYLLA_LWT_ADD_METADATA_MARK, reads the LWT bit of PREPARED, and sends every
LWT on a partition to the partition's first replica.

The target is BALLOT_HOST:BALLOT_PORT (default 127.0.0.1:9042); the keyspace
has replication factor BALLOT_RF (default 1) and a unique name, dropped at the
end. With RF > 1 the routing test shows that the first replica is chosen every
time, not by chance.
"""

import os
import secrets
import ssl
import time

import pytest
from cassandra import ConsistencyLevel
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
from cassandra.policies import RoundRobinPolicy, TokenAwarePolicy

HOST = os.environ.get("BALLOT_HOST", "127.0.0.1")
PORT = int(os.environ.get("BALLOT_PORT", "9042"))
RF = int(os.environ.get("BALLOT_RF", "1"))
CONSISTENCY = ConsistencyLevel.name_to_value[os.environ.get("BALLOT_CONSISTENCY", "ONE").upper()]


@pytest.fixture(scope="module")
def cluster():
    profile = ExecutionProfile(load_balancing_policy=TokenAwarePolicy(RoundRobinPolicy()), request_timeout=20,
                               consistency_level=CONSISTENCY)
    options = dict(port=PORT, connect_timeout=10, execution_profiles={EXEC_PROFILE_DEFAULT: profile})
    # Secure mode (tests/run-secure-suites.sh): log in as BALLOT_USER, and speak TLS trusting the CA in BALLOT_TLS_CA.
    if os.environ.get("BALLOT_USER"):
        options["auth_provider"] = PlainTextAuthProvider(os.environ["BALLOT_USER"], os.environ.get("BALLOT_PASSWORD", ""))
    if os.environ.get("BALLOT_TLS_CA"):
        # the CA must have signed the node's certificate, and it must name the address the driver connects to
        options["ssl_context"] = ssl.create_default_context(cafile=os.environ["BALLOT_TLS_CA"])
    c = Cluster([HOST], **options)
    yield c
    c.shutdown()


@pytest.fixture(scope="module")
def session(cluster):
    keyspace = "ballot_scylla_%s_%s" % (time.strftime("%Y%m%d%H%M%S"), secrets.token_hex(3))
    s = cluster.connect()
    s.execute("CREATE KEYSPACE %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': %d}"
              % (keyspace, RF))
    s.set_keyspace(keyspace)
    s.execute("CREATE TABLE kv (k int PRIMARY KEY, v int)")
    yield s
    s.execute("DROP KEYSPACE IF EXISTS %s" % keyspace)
    s.shutdown()


@pytest.mark.parametrize("cql", [
    "INSERT INTO kv (k, v) VALUES (?, ?) IF NOT EXISTS",
    "UPDATE kv SET v = ? WHERE k = ? IF v = ?",
    "UPDATE kv SET v = ? WHERE k = ? IF EXISTS",
    "DELETE FROM kv WHERE k = ? IF EXISTS",
])
def test_conditional_statements_are_prepared_as_lwt(session, cql):
    assert session.prepare(cql).is_lwt()


@pytest.mark.parametrize("cql", [
    "INSERT INTO kv (k, v) VALUES (?, ?)",
    "UPDATE kv SET v = ? WHERE k = ?",
    "SELECT v FROM kv WHERE k = ?",
])
def test_plain_statements_are_not(session, cql):
    assert not session.prepare(cql).is_lwt()


def test_every_lwt_goes_to_the_first_replica_of_its_partition(cluster, session):
    if len(cluster.metadata.all_hosts()) < 2:
        pytest.skip("one node: routing cannot be observed")
    insert = session.prepare("INSERT INTO kv (k, v) VALUES (?, ?) IF NOT EXISTS")
    coordinators = set()
    for k in range(30):
        bound = insert.bind((k, k))
        replicas = cluster.metadata.get_replicas(session.keyspace, bound.routing_key)
        assert len(replicas) == RF
        for attempt in range(3):
            result = session.execute(bound)
            assert result.one().applied == (attempt == 0)
            assert result.response_future.attempted_hosts == [replicas[0]], "k=%d attempt %d" % (k, attempt)
        coordinators.add(replicas[0])
    # the first replicas of 30 partitions are not all one node: the driver routed, it did not stick to one host
    assert len(coordinators) > 1
