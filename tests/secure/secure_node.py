"""Sets up and checks the node of tests/run-secure-suites.sh, with the Python driver over TLS.

  secure_node.py setup HOST PORT CA ROLE PASSWORD STATEMENT...
      logs in as the default superuser cassandra/cassandra (waiting up to 30 s for the node to create it), creates ROLE,
      a login role that is not a superuser, with PASSWORD, and runs each STATEMENT (the grants).
  secure_node.py refusals HOST PORT CA ROLE PASSWORD
      checks that the node refuses, with the driver's own errors: a wrong password (AuthenticationFailed,
      BAD_CREDENTIALS), a plaintext client (NoHostAvailable with a connection error: the TLS-only node closes the
      connection), and statements ROLE holds no grant for (Unauthorized, UNAUTHORIZED 0x2100) on a keyspace the
      superuser makes for the check. Prints each check; exits 1 if any refusal is missing or not the expected one.

CA is the PEM file of the CA that signed the node's certificate.
"""
import ssl
import sys
import time

from cassandra import AuthenticationFailed, OperationTimedOut, Unauthorized
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT, NoHostAvailable
from cassandra.connection import ConnectionException
from cassandra.policies import RoundRobinPolicy

SUPERUSER_WAIT_S = 30
REFUSAL_KEYSPACE = "secure_refusals"


def connect(host, port, ca, user, password, tls=True, connect_timeout=10):
    """A session logged in as user over TLS trusting ca (or plaintext), or the driver's NoHostAvailable."""
    profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy(), request_timeout=20)
    cluster = Cluster([host], port=port, connect_timeout=connect_timeout,
                      auth_provider=PlainTextAuthProvider(user, password),
                      ssl_context=ssl.create_default_context(cafile=ca) if tls else None,
                      execution_profiles={EXEC_PROFILE_DEFAULT: profile})
    try:
        return cluster, cluster.connect()
    except Exception:
        cluster.shutdown()
        raise


def connect_superuser(host, port, ca):
    """cassandra/cassandra, once the node has created it (just after it starts serving clients)."""
    deadline = time.monotonic() + SUPERUSER_WAIT_S
    while True:
        try:
            return connect(host, port, ca, "cassandra", "cassandra")
        except NoHostAvailable as e:
            if time.monotonic() > deadline:
                sys.exit("cannot log in as cassandra/cassandra over TLS within %d s: %s" % (SUPERUSER_WAIT_S, e))
            time.sleep(0.5)


def setup(host, port, ca, role, password, statements):
    cluster, session = connect_superuser(host, port, ca)
    try:
        session.execute("CREATE ROLE %s WITH PASSWORD = '%s' AND LOGIN = true AND SUPERUSER = false" % (role, password))
        print("created role %s (LOGIN, not a superuser)" % role)
        for statement in statements:
            try:
                session.execute(statement)
            except Exception as e:
                sys.exit("%s failed: %s" % (statement, e))
            print(statement)
    finally:
        cluster.shutdown()


def driver_errors(refused):
    """The errors per host inside the driver's NoHostAvailable."""
    return list(refused.errors.values())


def refusals(host, port, ca, role, password):
    problems = []

    try:
        connect(host, port, ca, role, password + "-wrong")[0].shutdown()
        problems.append("a wrong password for %s was accepted" % role)
    except NoHostAvailable as e:
        errors = driver_errors(e)
        if all(isinstance(err, AuthenticationFailed) and "and/or password are incorrect" in str(err) for err in errors):
            print("wrong password: refused, %s" % errors[0])
        else:
            problems.append("a wrong password: want AuthenticationFailed (BAD_CREDENTIALS), got %r" % errors)

    started = time.monotonic()
    try:
        # the node closes a plaintext connection at once; this driver notices only at its connect_timeout (docs/tls.md)
        connect(host, port, ca, role, password, tls=False, connect_timeout=5)[0].shutdown()
        problems.append("a plaintext client was served by the TLS-only node")
    except NoHostAvailable as e:
        errors = driver_errors(e)
        if all(isinstance(err, (ConnectionException, OperationTimedOut)) for err in errors):
            print("plaintext client: refused in %.1f s, %r" % (time.monotonic() - started, errors[0]))
        else:
            problems.append("a plaintext client: want a connection error, got %r" % errors)

    admin, superuser = connect_superuser(host, port, ca)
    try:
        superuser.execute("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = "
                          "{'class': 'SimpleStrategy', 'replication_factor': 1}" % REFUSAL_KEYSPACE)
        superuser.execute("CREATE TABLE IF NOT EXISTS %s.t (k int PRIMARY KEY, v int)" % REFUSAL_KEYSPACE)
        cluster, session = connect(host, port, ca, role, password)
        try:
            for statement, permission in [("SELECT v FROM %s.t WHERE k = 1", "SELECT"),
                                          ("INSERT INTO %s.t (k, v) VALUES (1, 1)", "MODIFY")]:
                statement %= REFUSAL_KEYSPACE
                want = "User %s has no %s permission on <table %s.t> or any of its parents" % (
                    role, permission, REFUSAL_KEYSPACE)
                try:
                    session.execute(statement)
                    problems.append("%s ran for %s, who holds no %s grant on it" % (statement, role, permission))
                except Unauthorized as e:
                    if want in str(e):
                        print("missing grant: %s refused, %s" % (statement, e))
                    else:
                        problems.append("%s: want Unauthorized %r, got %s" % (statement, want, e))
        finally:
            cluster.shutdown()
        superuser.execute("DROP KEYSPACE %s" % REFUSAL_KEYSPACE)
    finally:
        admin.shutdown()

    for problem in problems:
        print("FAIL: " + problem)
    return 1 if problems else 0


def main(argv):
    if len(argv) < 6 or argv[0] not in ("setup", "refusals"):
        sys.exit(__doc__)
    command, host, port, ca, role, password = argv[0], argv[1], int(argv[2]), argv[3], argv[4], argv[5]
    if command == "setup":
        setup(host, port, ca, role, password, argv[6:])
        return 0
    return refusals(host, port, ca, role, password)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
