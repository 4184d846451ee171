"""Every native CQL type, collections, tuples, UDTs and nulls, round-tripped."""

import datetime
import uuid
from collections import namedtuple
from decimal import Decimal

import pytest
from cassandra.util import Date, Duration, OrderedMapSerializedKey, SortedSet, Time

NATIVE = [
    # (cql type, values that must come back equal)
    ("ascii", ["", "plain ascii ~!@#", "x" * 1000]),
    ("bigint", [0, -9223372036854775808, 9223372036854775807]),
    ("blob", [b"", b"\x00\x01\xff", bytes(range(256)) * 4]),
    ("boolean", [True, False]),
    ("date", [Date(datetime.date(1970, 1, 1)), Date(datetime.date(2024, 2, 29)), Date(datetime.date(1, 1, 1)),
              Date(datetime.date(9999, 12, 31))]),
    ("decimal", [Decimal("0"), Decimal("-1.5"), Decimal("123456789012345678901234567890.000000000000000001"),
                 Decimal("1E+10")]),
    ("double", [0.0, -1.25, 1.7976931348623157e308, 5e-324]),
    ("duration", [Duration(0, 0, 0), Duration(1, 2, 3000000000), Duration(-1, -2, -3)]),
    ("float", [0.0, -1.5, 3.4028234663852886e38]),
    ("inet", ["127.0.0.1", "0.0.0.0", "::1", "2001:db8::ff00:42:8329"]),
    ("int", [0, -2147483648, 2147483647]),
    ("smallint", [0, -32768, 32767]),
    ("text", ["", "unicode: zażółć gęślą jaźń 日本語 🎉", "quote ' and \" and \\"]),
    ("time", [Time(0), Time(datetime.time(23, 59, 59, 999999)), Time(86399999999999)]),
    ("timestamp", [datetime.datetime(1970, 1, 1), datetime.datetime(2024, 6, 1, 12, 30, 45, 123000),
                   datetime.datetime(1900, 1, 1, 0, 0, 0)]),
    ("timeuuid", [uuid.UUID("8d8ac610-566d-11e2-9a4b-0800200c9a66"), uuid.uuid1()]),
    ("tinyint", [0, -128, 127]),
    ("uuid", [uuid.UUID(int=0), uuid.uuid4(), uuid.UUID(int=2 ** 128 - 1)]),
    ("varint", [0, -1, 2 ** 200, -(2 ** 200) + 7]),
]


def normalise(cql_type, value):
    """The driver returns some types in richer forms than it accepts; compare like with like."""
    if cql_type == "time" and isinstance(value, datetime.time):
        return Time(value)
    return value


@pytest.mark.parametrize("cql_type,values", NATIVE, ids=[t for t, _ in NATIVE])
def test_native_type_round_trips(session, table, cql_type, values):
    name = table("pk int PRIMARY KEY, v %s" % cql_type)
    insert = session.prepare("INSERT INTO %s (pk, v) VALUES (?, ?)" % name)
    for i, value in enumerate(values):
        session.execute(insert, (i, value))
    # A simple (unprepared) statement with the value as an inline literal, too.
    session.execute("INSERT INTO %s (pk, v) VALUES (%%s, %%s)" % name, (len(values), values[0]))
    select = session.prepare("SELECT v FROM %s WHERE pk = ?" % name)
    for i, value in enumerate(values + values[:1]):
        got = session.execute(select, (i,)).one().v
        assert normalise(cql_type, got) == normalise(cql_type, value), "%s value %r came back as %r" % (cql_type, value, got)
    rows = session.execute("SELECT pk, v FROM %s" % name)
    # text and varchar are one type on the wire (0x000D); the driver names it varchar.
    assert rows.column_types[1].cql_parameterized_type() == {"text": "varchar"}.get(cql_type, cql_type)


def test_float_is_single_precision(session, table):
    name = table("pk int PRIMARY KEY, f float, d double")
    session.execute("INSERT INTO %s (pk, f, d) VALUES (1, 0.1, 0.1)" % name)
    row = session.execute("SELECT f, d FROM %s WHERE pk = 1" % name).one()
    assert row.f != 0.1 and abs(row.f - 0.1) < 1e-7
    assert row.d == 0.1


def test_inet_stores_ipv4_mapped_ipv6_as_ipv4(session, table):
    name = table("pk int PRIMARY KEY, v inet")
    session.execute("INSERT INTO %s (pk, v) VALUES (1, '::ffff:10.0.0.1')" % name)
    session.execute("INSERT INTO %s (pk, v) VALUES (2, '2001:DB8:0:0:0:0:0:1')" % name)
    rows = {r.pk: r.v for r in session.execute("SELECT pk, v FROM %s" % name)}
    # Cassandra parses literals with java.net.InetAddress, which turns a mapped address into 4 bytes.
    assert rows == {1: "10.0.0.1", 2: "2001:db8::1"}
    assert session.execute("SELECT inetAsBlob(v) FROM %s WHERE pk = 1" % name).one()[0] == bytes([10, 0, 0, 1])


def test_timestamp_has_millisecond_precision(session, table):
    name = table("pk int PRIMARY KEY, v timestamp")
    session.execute(session.prepare("INSERT INTO %s (pk, v) VALUES (1, ?)" % name),
                    (datetime.datetime(2020, 5, 17, 1, 2, 3, 456789),))
    assert session.execute("SELECT v FROM %s WHERE pk = 1" % name).one().v == \
        datetime.datetime(2020, 5, 17, 1, 2, 3, 456000)
    session.execute("INSERT INTO %s (pk, v) VALUES (2, '2011-02-03T04:05:06.789+0000')" % name)
    assert session.execute("SELECT v FROM %s WHERE pk = 2" % name).one().v == \
        datetime.datetime(2011, 2, 3, 4, 5, 6, 789000)
    session.execute("INSERT INTO %s (pk, v) VALUES (3, 1000)" % name)
    assert session.execute("SELECT v FROM %s WHERE pk = 3" % name).one().v == datetime.datetime(1970, 1, 1, 0, 0, 1)


def test_counter_round_trips(session, table):
    name = table("pk int PRIMARY KEY, n counter")
    session.execute("UPDATE %s SET n = n + 9223372036854775807 WHERE pk = 1" % name)
    session.execute("UPDATE %s SET n = n - 5 WHERE pk = 2" % name)
    rows = {r.pk: r.n for r in session.execute("SELECT pk, n FROM %s" % name)}
    assert rows == {1: 9223372036854775807, 2: -5}


def test_collections_round_trip(session, table):
    name = table("pk int PRIMARY KEY, l list<int>, s set<text>, m map<text, bigint>, "
                 "lt list<timestamp>, mu map<uuid, frozen<list<int>>>")
    u = uuid.UUID("00000000-0000-0000-0000-000000000001")
    ts = datetime.datetime(2021, 1, 1)
    insert = session.prepare("INSERT INTO %s (pk, l, s, m, lt, mu) VALUES (?, ?, ?, ?, ?, ?)" % name)
    session.execute(insert, (1, [3, 1, 2, 1], {"b", "a", "c"}, {"z": 1, "a": -2}, [ts], {u: [1, 2]}))
    row = session.execute("SELECT * FROM %s WHERE pk = 1" % name).one()
    assert row.l == [3, 1, 2, 1]
    assert isinstance(row.s, SortedSet) and list(row.s) == ["a", "b", "c"]
    assert isinstance(row.m, OrderedMapSerializedKey) and list(row.m.items()) == [("a", -2), ("z", 1)]
    assert row.lt == [ts]
    assert dict(row.mu) == {u: [1, 2]}


def test_empty_collections_read_back_as_null(session, table):
    name = table("pk int PRIMARY KEY, l list<int>, s set<int>, m map<int, int>, fl frozen<list<int>>")
    session.execute(session.prepare("INSERT INTO %s (pk, l, s, m, fl) VALUES (?, ?, ?, ?, ?)" % name),
                    (1, [], set(), {}, []))
    row = session.execute("SELECT l, s, m, fl FROM %s WHERE pk = 1" % name).one()
    # A non-frozen collection with no elements is no cells at all; a frozen one is a single (empty) value.
    assert (row.l, row.s, row.m) == (None, None, None)
    assert row.fl == []


def test_frozen_collections_as_key_and_value(session, table):
    name = table("pk frozen<list<int>>, c frozen<set<text>>, v frozen<map<int, frozen<set<int>>>>, "
                 "PRIMARY KEY (pk, c)")
    insert = session.prepare("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)" % name)
    session.execute(insert, ([1, 2], {"x"}, {1: {3, 2}}))
    session.execute(insert, ([1, 2], {"a", "b"}, {}))
    rows = list(session.execute(session.prepare("SELECT c, v FROM %s WHERE pk = ?" % name), ([1, 2],)))
    assert [sorted(r.c) for r in rows] == [["a", "b"], ["x"]]
    assert rows[1].v == {1: SortedSet([2, 3])}
    assert session.execute("SELECT pk FROM %s WHERE pk = [1, 2] AND c = {'x'}" % name).one().pk == [1, 2]


def test_tuple_round_trips(session, table):
    name = table("pk int PRIMARY KEY, t tuple<int, text, frozen<list<double>>>, n tuple<int, tuple<text, boolean>>")
    session.execute(session.prepare("INSERT INTO %s (pk, t, n) VALUES (?, ?, ?)" % name),
                    (1, (7, "seven", [7.5]), (1, ("in", True))))
    session.execute("INSERT INTO %s (pk, t) VALUES (2, (8, null, [ ]))" % name)
    rows = {r.pk: r for r in session.execute("SELECT pk, t, n FROM %s" % name)}
    assert rows[1].t == (7, "seven", [7.5])
    assert rows[1].n == (1, ("in", True))
    assert rows[2].t == (8, None, [])
    assert rows[2].n is None


def test_udt_round_trips(cluster, session, keyspace, table):
    session.execute("CREATE TYPE IF NOT EXISTS address (street text, zip int, tags frozen<set<text>>)")
    session.execute("CREATE TYPE IF NOT EXISTS person (name text, home frozen<address>)")
    name = table("pk int PRIMARY KEY, p frozen<person>, a address, al list<frozen<address>>")
    session.execute("INSERT INTO %s (pk, p, a, al) VALUES (1, {name: 'Ada', home: {street: 'Main', zip: 1, "
                    "tags: {'x'}}}, {street: 'Side', zip: 2}, [{street: 'L', zip: 3}])" % name)
    row = session.execute("SELECT p, a, al FROM %s WHERE pk = 1" % name).one()
    assert row.p.name == "Ada" and row.p.home.street == "Main" and row.p.home.zip == 1
    assert set(row.p.home.tags) == {"x"}
    assert (row.a.street, row.a.zip, row.a.tags) == ("Side", 2, None)
    assert [(x.street, x.zip) for x in row.al] == [("L", 3)]

    # Bound through a registered Python class, and read back as it.
    Address = namedtuple("Address", "street zip tags")
    cluster.register_user_type(keyspace, "address", Address)
    session.execute(session.prepare("INSERT INTO %s (pk, a) VALUES (?, ?)" % name),
                    (2, Address("Bound", 9, {"t1", "t2"})))
    got = session.execute("SELECT a FROM %s WHERE pk = 2" % name).one().a
    assert isinstance(got, Address) and got.street == "Bound" and got.zip == 9 and set(got.tags) == {"t1", "t2"}

    # A non-frozen UDT field can be set on its own.
    session.execute("UPDATE %s SET a.zip = 10 WHERE pk = 2" % name)
    assert session.execute("SELECT a.zip FROM %s WHERE pk = 2" % name).one()[0] == 10


def test_nulls_for_every_type(session, table):
    types = [t for t, _ in NATIVE] + ["list<int>", "set<int>", "map<int, int>", "tuple<int, int>"]
    columns = ", ".join("c%d %s" % (i, t) for i, t in enumerate(types))
    name = table("pk int PRIMARY KEY, %s" % columns)
    names = ["c%d" % i for i in range(len(types))]
    insert = session.prepare("INSERT INTO %s (pk, %s) VALUES (?, %s)" % (name, ", ".join(names),
                                                                         ", ".join("?" * len(names))))
    session.execute(insert, [1] + [None] * len(names))
    session.execute("INSERT INTO %s (pk) VALUES (2)" % name)
    session.execute("INSERT INTO %s (pk, c0, c1) VALUES (3, null, null)" % name)
    for pk in (1, 2, 3):
        row = session.execute("SELECT * FROM %s WHERE pk = %d" % (name, pk)).one()
        assert row is not None, "row %d should exist (its primary key was written)" % pk
        assert all(getattr(row, n) is None for n in names), row
