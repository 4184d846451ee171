"""PasswordAuthenticator and CassandraAuthorizer with the Python driver, against a node of its own.

The rest of the suite runs against a node without authentication (BALLOT_HOST:BALLOT_PORT); this module starts
one more Ballot node from the built server jar, on 127.0.5.1 with free ports, authenticator: PasswordAuthenticator
and authorizer: CassandraAuthorizer, and stops it at the end. Skipped when the jar is not built (mvn package).
"""

import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
from cassandra import AuthenticationFailed, InvalidRequest, Unauthorized
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, NoHostAvailable

JAR = pathlib.Path(__file__).resolve().parents[2] / "server" / "target" / "ballot-server-all.jar"
ADDRESS = "127.0.5.1"
START_TIMEOUT_S = 60


def free_port():
    with socket.socket() as s:
        s.bind((ADDRESS, 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def node():
    if not JAR.exists():
        pytest.skip("the server jar %s is built by mvn package" % JAR)
    directory = pathlib.Path(tempfile.mkdtemp(prefix="ballot-py-auth-"))
    port = free_port()
    (directory / "node.yaml").write_text("\n".join([
        "cluster_name: py-auth",
        "listen_address: " + ADDRESS,
        "storage_port: %d" % free_port(),
        "native_transport_address: " + ADDRESS,
        "native_transport_port: %d" % port,
        "metrics_port: 0",
        "data_file_directory: " + str(directory / "data"),
        "authenticator: PasswordAuthenticator",
        "authorizer: CassandraAuthorizer",
        ""]))
    log = open(directory / "node.log", "wb")
    process = subprocess.Popen(["java", "-Xmx384m", "-XX:+UseSerialGC", "-jar", str(JAR), "--config",
                                str(directory / "node.yaml")], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while b"node started" not in (directory / "node.log").read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, (directory / "node.log").read_text()
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(30)
        log.close()
        shutil.rmtree(directory, ignore_errors=True)


def connect(port, user, password):
    """A session logged in as user, or the server's refusal (NoHostAvailable carries it)."""
    auth = PlainTextAuthProvider(username=user, password=password) if user else None
    cluster = Cluster([ADDRESS], port=port, auth_provider=auth, connect_timeout=10)
    try:
        return cluster, cluster.connect()
    except Exception:
        cluster.shutdown()
        raise


@pytest.fixture(scope="module")
def superuser(node):
    """cassandra/cassandra, once the node has created it (just after it starts serving)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            cluster, session = connect(node, "cassandra", "cassandra")
            break
        except NoHostAvailable:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    yield session
    cluster.shutdown()


def refusal(port, user, password):
    with pytest.raises(NoHostAvailable) as refused:
        connect(port, user, password)
    return list(refused.value.errors.values())[0]


def test_wrong_password_and_missing_credentials_are_refused(node, superuser):
    error = refusal(node, "cassandra", "wrong")
    assert isinstance(error, AuthenticationFailed)
    assert "Provided username cassandra and/or password are incorrect" in str(error)
    error = refusal(node, None, None)
    assert isinstance(error, AuthenticationFailed)
    assert "requires authentication" in str(error)


def test_a_new_role_logs_in_and_may_not_create_roles(node, superuser):
    superuser.execute("CREATE ROLE py_user WITH PASSWORD = 'secret' AND LOGIN = true")
    cluster, session = connect(node, "py_user", "secret")
    try:
        with pytest.raises(Unauthorized) as refused:
            session.execute("CREATE ROLE py_other")
        assert "User py_user has no CREATE permission on <all roles> or any of its parents" in str(refused.value)
        session.execute("ALTER ROLE py_user WITH PASSWORD = 'secret2'")
    finally:
        cluster.shutdown()
    assert isinstance(refusal(node, "py_user", "secret"), AuthenticationFailed)
    connect(node, "py_user", "secret2")[0].shutdown()


def test_list_users_and_invalid_role_statements(node, superuser):
    superuser.execute("CREATE USER IF NOT EXISTS py_listed WITH PASSWORD 'p'")
    rows = list(superuser.execute("LIST USERS"))
    assert {"cassandra", "py_listed"} <= {r.name for r in rows}
    assert all(r.datacenters == "ALL" for r in rows)
    with pytest.raises(InvalidRequest) as refused:
        superuser.execute("CREATE USER py_listed WITH PASSWORD 'p'")
    assert "User py_listed already exists" in str(refused.value)


def test_select_needs_a_grant_checked_at_every_execution(node, superuser):
    superuser.execute("CREATE KEYSPACE py_authz WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
    superuser.execute("CREATE TABLE py_authz.t (k int PRIMARY KEY, v int)")
    superuser.execute("INSERT INTO py_authz.t (k, v) VALUES (1, 10)")
    superuser.execute("CREATE ROLE py_reader WITH PASSWORD = 'r' AND LOGIN = true")
    cluster, session = connect(node, "py_reader", "r")
    try:
        with pytest.raises(Unauthorized) as refused:
            session.execute("SELECT v FROM py_authz.t WHERE k = 1")
        assert "User py_reader has no SELECT permission on <table py_authz.t> or any of its parents" in str(refused.value)
        superuser.execute("GRANT SELECT ON KEYSPACE py_authz TO py_reader")
        select = session.prepare("SELECT v FROM py_authz.t WHERE k = ?")
        assert session.execute(select, [1]).one().v == 10
        with pytest.raises(Unauthorized) as refused:
            session.execute("INSERT INTO py_authz.t (k, v) VALUES (2, 2)")
        assert "User py_reader has no MODIFY permission on <table py_authz.t> or any of its parents" in str(refused.value)
        superuser.execute("REVOKE SELECT ON KEYSPACE py_authz FROM py_reader")
        with pytest.raises(Unauthorized):
            session.execute(select, [1])
    finally:
        cluster.shutdown()


def test_list_permissions_and_bad_grants(node, superuser):
    superuser.execute("CREATE ROLE py_lister")
    superuser.execute("GRANT MODIFY ON ALL KEYSPACES TO py_lister")
    rows = list(superuser.execute("LIST ALL PERMISSIONS OF py_lister"))
    assert [(r.role, r.username, r.resource, r.permission) for r in rows] == [
        ("py_lister", "py_lister", "<all keyspaces>", "MODIFY")]
    with pytest.raises(InvalidRequest) as refused:
        superuser.execute("GRANT SELECT ON KEYSPACE py_nosuch TO py_lister")
    assert "Resource <keyspace py_nosuch> doesn't exist" in str(refused.value)
