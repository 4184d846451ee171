"""Connection set-up and schema statements."""

import pytest
from cassandra import AlreadyExists, InvalidRequest
from cassandra.protocol import ProtocolVersion

from conftest import RF, error_code, make_cluster


def test_negotiates_protocol_v4_or_newer_with_lz4(cluster, session):
    assert cluster.protocol_version >= ProtocolVersion.V4
    connection = cluster.control_connection._connection
    assert connection.compressor is not None, "lz4 compression was not negotiated"
    row = session.execute("SELECT release_version, cql_version, native_protocol_version FROM system.local").one()
    assert row.cql_version.startswith("3.")
    assert int(row.native_protocol_version) >= cluster.protocol_version


def test_connects_with_protocol_v4_forced():
    c = make_cluster(protocol_version=ProtocolVersion.V4)
    try:
        s = c.connect()
        assert c.protocol_version == ProtocolVersion.V4
        assert c.control_connection._connection.compressor is not None
        assert s.execute("SELECT key FROM system.local").one().key == "local"
    finally:
        c.shutdown()


def test_driver_metadata_sees_keyspace_and_tables(cluster, session, keyspace, table):
    name = table("pk int, c text, v blob, PRIMARY KEY (pk, c)")
    cluster.refresh_schema_metadata()
    ks = cluster.metadata.keyspaces[keyspace]
    assert ks.replication_strategy.replication_factor_info.full_replicas == RF
    t = ks.tables[name]
    assert [c.name for c in t.partition_key] == ["pk"]
    assert [c.name for c in t.clustering_key] == ["c"]
    assert t.columns["v"].cql_type == "blob"


def test_keyspace_if_not_exists_and_already_exists(session, keyspace):
    session.execute("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}" % keyspace)
    with pytest.raises(AlreadyExists) as err:
        session.execute("CREATE KEYSPACE %s WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}" % keyspace)
    # ALREADY_EXISTS (0x2400) carries the keyspace and an empty table name.
    assert err.value.keyspace == keyspace
    assert err.value.table == ""


def test_alter_and_drop_keyspace(session, keyspace):
    other = keyspace + "_b"
    session.execute("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}" % other)
    try:
        session.execute("ALTER KEYSPACE %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} "
                        "AND durable_writes = false" % other)
        row = session.execute("SELECT durable_writes, replication FROM system_schema.keyspaces "
                              "WHERE keyspace_name = %s", (other,)).one()
        assert row.durable_writes is False
        assert row.replication["class"] == "org.apache.cassandra.locator.SimpleStrategy"
        assert row.replication["replication_factor"] == "1"
    finally:
        session.execute("DROP KEYSPACE %s" % other)
    assert session.execute("SELECT * FROM system_schema.keyspaces WHERE keyspace_name = %s", (other,)).one() is None
    session.execute("DROP KEYSPACE IF EXISTS %s" % other)
    with pytest.raises(InvalidRequest) as err:
        session.execute("DROP KEYSPACE %s" % other)
    assert error_code(err.value) == 0x2200
    assert "Keyspace '%s' doesn't exist" % other in str(err.value)


def test_create_alter_drop_table(session, keyspace, table):
    name = table("pk int PRIMARY KEY, a text")
    session.execute("CREATE TABLE IF NOT EXISTS %s (pk int PRIMARY KEY, a text)" % name)
    with pytest.raises(AlreadyExists) as err:
        session.execute("CREATE TABLE %s (pk int PRIMARY KEY, a text)" % name)
    assert (err.value.keyspace, err.value.table) == (keyspace, name)
    session.execute("ALTER TABLE %s ADD b int" % name)
    session.execute("ALTER TABLE %s ADD (c boolean, d list<int>)" % name)
    session.execute("INSERT INTO %s (pk, a, b, c, d) VALUES (1, 'x', 2, true, [3])" % name)
    row = session.execute("SELECT * FROM %s WHERE pk = 1" % name).one()
    assert (row.a, row.b, row.c, row.d) == ("x", 2, True, [3])
    session.execute("ALTER TABLE %s DROP b" % name)
    session.execute("ALTER TABLE %s WITH comment = 'compat suite'" % name)
    row = session.execute("SELECT * FROM %s WHERE pk = 1" % name).one()
    assert not hasattr(row, "b")
    assert row._fields == ("pk", "a", "c", "d")
    comment = session.execute("SELECT comment FROM system_schema.tables WHERE keyspace_name = %s AND table_name = %s",
                              (keyspace, name)).one().comment
    assert comment == "compat suite"
    session.execute("DROP TABLE %s" % name)
    session.execute("DROP TABLE IF EXISTS %s" % name)
    with pytest.raises(InvalidRequest) as err:
        session.execute("SELECT * FROM %s" % name)
    assert error_code(err.value) == 0x2200


def test_create_alter_drop_type(session, keyspace):
    session.execute("CREATE TYPE IF NOT EXISTS ddl_point (x int, y int)")
    session.execute("CREATE TYPE IF NOT EXISTS ddl_point (x int, y int)")
    # Unlike keyspaces and tables, an existing type is INVALID (0x2200), not ALREADY_EXISTS.
    with pytest.raises(InvalidRequest) as err:
        session.execute("CREATE TYPE ddl_point (x int, y int)")
    assert error_code(err.value) == 0x2200
    assert "A user type with name 'ddl_point' already exists" in str(err.value)
    session.execute("ALTER TYPE ddl_point ADD z int")
    fields = session.execute("SELECT field_names, field_types FROM system_schema.types "
                             "WHERE keyspace_name = %s AND type_name = 'ddl_point'", (keyspace,)).one()
    assert fields.field_names == ["x", "y", "z"]
    assert fields.field_types == ["int", "int", "int"]
    session.execute("DROP TYPE ddl_point")
    session.execute("DROP TYPE IF EXISTS ddl_point")
    assert session.execute("SELECT * FROM system_schema.types WHERE keyspace_name = %s AND type_name = 'ddl_point'",
                           (keyspace,)).one() is None


def test_use_switches_keyspace(cluster, keyspace):
    s = cluster.connect()
    try:
        s.execute("USE %s" % keyspace)
        assert s.keyspace == keyspace
        s.execute("CREATE TABLE IF NOT EXISTS use_probe (pk int PRIMARY KEY)")
        s.execute("INSERT INTO use_probe (pk) VALUES (7)")
        assert s.execute("SELECT pk FROM %s.use_probe" % keyspace).one().pk == 7
    finally:
        s.shutdown()


def test_truncate_removes_all_rows(session, table):
    name = table("pk int, c int, PRIMARY KEY (pk, c)")
    for pk in range(3):
        for c in range(3):
            session.execute("INSERT INTO %s (pk, c) VALUES (%d, %d)" % (name, pk, c))
    assert session.execute("SELECT COUNT(*) FROM %s" % name).one().count == 9
    session.execute("TRUNCATE %s" % name)
    assert session.execute("SELECT COUNT(*) FROM %s" % name).one().count == 0
    session.execute("INSERT INTO %s (pk, c) VALUES (1, 1)" % name)
    session.execute("TRUNCATE TABLE %s" % name)
    assert list(session.execute("SELECT * FROM %s" % name)) == []


def test_clustering_order_desc(session, table):
    name = table("pk int, c1 int, c2 text, v int, PRIMARY KEY (pk, c1, c2)",
                 "WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)")
    for c1 in (1, 3, 2):
        for c2 in ("b", "a"):
            session.execute("INSERT INTO %s (pk, c1, c2, v) VALUES (0, %d, '%s', 0)" % (name, c1, c2))
    rows = [(r.c1, r.c2) for r in session.execute("SELECT c1, c2 FROM %s WHERE pk = 0" % name)]
    assert rows == [(3, "a"), (3, "b"), (2, "a"), (2, "b"), (1, "a"), (1, "b")]
    rows = [(r.c1, r.c2) for r in session.execute("SELECT c1, c2 FROM %s WHERE pk = 0 ORDER BY c1 ASC, c2 DESC" % name)]
    assert rows == [(1, "b"), (1, "a"), (2, "b"), (2, "a"), (3, "b"), (3, "a")]
    order = {r.column_name: r.clustering_order for r in session.execute(
        "SELECT column_name, clustering_order FROM system_schema.columns WHERE keyspace_name = %s "
        "AND table_name = %s", (session.keyspace, name))}
    assert order["c1"] == "desc" and order["c2"] == "asc" and order["pk"] == "none"
