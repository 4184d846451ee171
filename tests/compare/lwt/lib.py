"""Runs CQL on a Cassandra node and a Ballot node and compares the answers (rows, column names and types, or error
class and message). CASSANDRA_HOST, BALLOT_HOST and COMPARE_KEYSPACE choose the nodes and the keyspace (dropped and
re-created by setup). Ballot's applied conditional statements answer with the previous values (docs/cql.md): an
applied answer of [applied] alone from Cassandra matches any applied answer from Ballot. A statement whose answers
differ as docs/cql.md says they do is compared with expected=<why>; finish() exits 1 if any other difference was found."""
import os, sys
from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
from cassandra.policies import WhiteListRoundRobinPolicy
from cassandra.query import SimpleStatement, dict_factory, tuple_factory
from cassandra import ConsistencyLevel

def connect(host):
    prof = ExecutionProfile(load_balancing_policy=WhiteListRoundRobinPolicy([host]), row_factory=tuple_factory, request_timeout=30)
    c = Cluster([host], execution_profiles={EXEC_PROFILE_DEFAULT: prof}, schema_metadata_enabled=False,
                token_metadata_enabled=False, protocol_version=5)
    return c, c.connect()

CASS = connect(os.environ.get('CASSANDRA_HOST', '127.0.0.20'))[1]
BAL = connect(os.environ.get('BALLOT_HOST', '127.0.0.47'))[1]
KS = os.environ.get('COMPARE_KEYSPACE', 'hlwt_h')

def norm_type(t):
    try: return t.cql_parameterized_type()
    except Exception: return str(t)

def run(s, q, cl=None, serial=None):
    st = SimpleStatement(q)
    if cl is not None: st.consistency_level = cl
    if serial is not None: st.serial_consistency_level = serial
    try:
        rs = s.execute(st)
        cols = list(rs.column_names or [])
        types = [norm_type(t) for t in (rs.column_types or [])]
        rows = [tuple(r) for r in rs]
        return ('ok', cols, types, rows)
    except Exception as e:
        return ('err', type(e).__name__, str(getattr(e, 'message', e) if hasattr(e,'message') else e))

def ddl(q):
    for s in (CASS, BAL):
        s.execute(q)

def setup(tables):
    for s in (CASS, BAL):
        s.execute(f"DROP KEYSPACE IF EXISTS {KS}")
        s.execute(f"CREATE KEYSPACE {KS} WITH replication = {{'class':'SimpleStrategy','replication_factor':1}}")
        s.set_keyspace(KS)
        for t in tables: s.execute(t)

def scylla_applied_ok(c, b):
    """Ballot answers an applied statement with the previous values (docs/cql.md): accept when Cassandra says [applied] alone."""
    return (c[0] == 'ok' and b[0] == 'ok' and c[1] == ['[applied]'] and c[3] == [(True,)]
            and b[1][:1] == ['[applied]'] and b[2][:1] == c[2] and len(b[3]) >= 1 and all(r[0] is True for r in b[3]))

DIFFS = []  # (statement, Cassandra's answer, Ballot's): the differences nothing explains
EXPECTED = []  # the differences docs/cql.md lists, as (statement, why)

def same(c, b):
    return c == b or scylla_applied_ok(c, b)

def cmp(q, cl=None, serial=None, quiet=False, expected=None):
    c = run(CASS, q, cl, serial)
    b = run(BAL, q, cl, serial)
    if not same(c, b):
        if expected:
            EXPECTED.append((q, expected))
        else:
            DIFFS.append((q, c, b))
        if not quiet:
            print("EXPECTED DIFF (" + expected + "):" if expected else "DIFF:", q); print("   C:", c); print("   B:", b)
    return c, b

def finish(summary=""):
    """Prints how many differences were found and exits non-zero if any was not expected."""
    print(f"{summary}differences {len(DIFFS) + len(EXPECTED)}: unexpected {len(DIFFS)}, expected {len(EXPECTED)}")
    sys.exit(1 if DIFFS else 0)
