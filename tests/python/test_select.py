"""SELECT: restrictions, ordering, limits, aggregates, functions, filtering, JSON."""

import json
from decimal import Decimal

import pytest
from cassandra.metadata import Murmur3Token
from cassandra import InvalidRequest

from conftest import error_code


@pytest.fixture(scope="module")
def events(session):
    """pk 0..3, c 0..4, v = pk*10 + c, d = v / 4 as a decimal, tag 'even'/'odd' on c."""
    session.execute("CREATE TABLE IF NOT EXISTS select_events (pk int, c int, v int, d decimal, f double, tag text, "
                    "PRIMARY KEY (pk, c))")
    insert = session.prepare("INSERT INTO select_events (pk, c, v, d, f, tag) VALUES (?, ?, ?, ?, ?, ?)")
    for pk in range(4):
        for c in range(5):
            v = pk * 10 + c
            session.execute(insert, (pk, c, v, Decimal(v) / 4, v / 2.0, "even" if c % 2 == 0 else "odd"))
    return "select_events"


def test_in_on_partition_key_and_clustering(session, events):
    rows = [(r.pk, r.c) for r in session.execute("SELECT pk, c FROM %s WHERE pk IN (3, 1) AND c IN (4, 0)" % events)]
    assert rows == [(1, 0), (1, 4), (3, 0), (3, 4)], "partitions in key order, as Cassandra returns them (not token order)"
    rows = [r.c for r in session.execute("SELECT c FROM %s WHERE pk = 2 AND c IN (3, 1, 2)" % events)]
    assert rows == [1, 2, 3]


def test_clustering_ranges(session, events):
    def cs(where):
        return [r.c for r in session.execute("SELECT c FROM %s WHERE pk = 1 AND %s" % (events, where))]

    assert cs("c > 1") == [2, 3, 4]
    assert cs("c >= 1 AND c < 3") == [1, 2]
    assert cs("c > 1 AND c <= 3") == [2, 3]
    assert cs("c < 0") == []
    assert cs("(c) >= (3)") == [3, 4]


def test_order_by_and_limit(session, events):
    rows = [r.c for r in session.execute("SELECT c FROM %s WHERE pk = 2 ORDER BY c DESC" % events)]
    assert rows == [4, 3, 2, 1, 0]
    rows = [r.c for r in session.execute("SELECT c FROM %s WHERE pk = 2 ORDER BY c DESC LIMIT 2" % events)]
    assert rows == [4, 3]
    assert len(list(session.execute("SELECT * FROM %s LIMIT 7" % events))) == 7
    rows = [r.c for r in session.execute("SELECT c FROM %s WHERE pk = 2 AND c > 1 ORDER BY c DESC LIMIT 10" % events)]
    assert rows == [4, 3, 2]


def test_per_partition_limit(session, events):
    rows = [(r.pk, r.c) for r in session.execute("SELECT pk, c FROM %s PER PARTITION LIMIT 2" % events)]
    assert sorted(rows) == [(pk, c) for pk in range(4) for c in range(2)]
    rows = list(session.execute("SELECT pk, c FROM %s PER PARTITION LIMIT 2 LIMIT 3" % events))
    assert len(rows) == 3


def test_distinct_partition_keys(session, events):
    assert sorted(r.pk for r in session.execute("SELECT DISTINCT pk FROM %s" % events)) == [0, 1, 2, 3]


def test_aggregates(session, events):
    row = session.execute("SELECT COUNT(*), MIN(v), MAX(v), SUM(v), AVG(v), AVG(d), AVG(f) "
                          "FROM %s WHERE pk = 1" % events).one()
    assert row[0] == 5
    assert (row[1], row[2], row[3]) == (10, 14, 60)
    assert row[4] == 12  # AVG of an int column is an int
    assert row[5] == Decimal("3")
    assert row[6] == 6.0
    total = session.execute("SELECT count(*) AS n, sum(v) AS total FROM %s" % events).one()
    assert (total.n, total.total) == (20, sum(pk * 10 + c for pk in range(4) for c in range(5)))
    assert session.execute("SELECT COUNT(v) FROM %s WHERE pk = 99" % events).one()[0] == 0
    assert session.execute("SELECT MAX(v) FROM %s WHERE pk = 99" % events).one()[0] is None
    # AVG of ints truncates toward zero, as integer division does.
    assert session.execute("SELECT AVG(c) FROM %s WHERE pk = 0 AND c IN (0, 1)" % events).one()[0] == 0
    assert session.execute("SELECT COUNT(1) FROM %s WHERE pk = 0" % events).one()[0] == 5


def test_writetime_ttl_and_token(session, events, table):
    name = table("pk text PRIMARY KEY, v int")
    session.execute("INSERT INTO %s (pk, v) VALUES ('k', 1) USING TIMESTAMP 1234567 AND TTL 500" % name)
    row = session.execute("SELECT WRITETIME(v), TTL(v), token(pk) FROM %s WHERE pk = 'k'" % name).one()
    assert row[0] == 1234567
    assert 490 <= row[1] <= 500
    assert row[2] == Murmur3Token.hash_fn(b"k")

    tokens = [(r.pk, r[1]) for r in session.execute("SELECT DISTINCT pk, token(pk) FROM %s" % events)]
    assert [t for _, t in tokens] == sorted(t for _, t in tokens), "partitions come back in token order"
    for pk, token in tokens:
        assert token == Murmur3Token.hash_fn(pk.to_bytes(4, "big", signed=True))
    first, rest = tokens[0], tokens[1:]
    after = [r.pk for r in session.execute("SELECT DISTINCT pk FROM %s WHERE token(pk) > %d" % (events, first[1]))]
    assert after == [pk for pk, _ in rest]
    # Token paging as cqlengine and scans write it: token() of a key value on the right-hand side, literal or bound.
    by_value = [r.pk for r in session.execute("SELECT DISTINCT pk FROM %s WHERE token(pk) > token(%d)" % (events, first[0]))]
    assert by_value == after
    bound = session.prepare("SELECT DISTINCT pk FROM %s WHERE token(pk) > token(?) AND token(pk) <= token(?)" % events)
    assert [r.pk for r in session.execute(bound, (first[0], rest[-1][0]))] == after
    assert [r.pk for r in session.execute("SELECT DISTINCT pk FROM %s WHERE token(pk) = token(%d)" % (events, first[0]))] == [first[0]]
    with pytest.raises(InvalidRequest, match="Invalid number of arguments in call to function system.token: 1 required but 2 provided"):
        session.execute("SELECT pk FROM %s WHERE token(pk) > token(1, 2)" % events)


def test_allow_filtering(session, events):
    with pytest.raises(InvalidRequest) as err:
        session.execute("SELECT * FROM %s WHERE v = 12" % events)
    assert error_code(err.value) == 0x2200
    assert "ALLOW FILTERING" in str(err.value)
    rows = [(r.pk, r.c) for r in session.execute("SELECT pk, c FROM %s WHERE v = 12 ALLOW FILTERING" % events)]
    assert rows == [(1, 2)]
    rows = session.execute("SELECT pk, c FROM %s WHERE pk = 3 AND tag = 'odd' ALLOW FILTERING" % events)
    assert [r.c for r in rows] == [1, 3]
    rows = session.execute("SELECT pk, c FROM %s WHERE c = 4 AND v > 20 ALLOW FILTERING" % events)
    assert sorted(r.pk for r in rows) == [2, 3]


def test_select_json_and_insert_json(session, events, table):
    row = session.execute("SELECT JSON pk, c, v, d, tag FROM %s WHERE pk = 1 AND c = 2" % events).one()
    assert row._fields == ("json",)
    assert json.loads(row.json) == {"pk": 1, "c": 2, "v": 12, "d": 3.0, "tag": "even"}

    name = table("pk int PRIMARY KEY, t text, l list<int>, m map<text, boolean>, ts timestamp, u uuid, b blob")
    session.execute("INSERT INTO %s JSON '{\"pk\": 1, \"t\": \"hi\", \"l\": [1, 2], \"m\": {\"x\": true}, "
                    "\"ts\": \"2020-01-02 03:04:05.000Z\", \"u\": \"00000000-0000-0000-0000-00000000002a\", "
                    "\"b\": \"0xcafe\"}'" % name)
    row = session.execute("SELECT * FROM %s WHERE pk = 1" % name).one()
    assert (row.t, row.l, dict(row.m), row.b) == ("hi", [1, 2], {"x": True}, b"\xca\xfe")
    assert str(row.u) == "00000000-0000-0000-0000-00000000002a"
    back = json.loads(session.execute("SELECT JSON * FROM %s WHERE pk = 1" % name).one()[0])
    assert back == {"pk": 1, "t": "hi", "l": [1, 2], "m": {"x": True}, "ts": "2020-01-02 03:04:05.000Z",
                    "u": "00000000-0000-0000-0000-00000000002a", "b": "0xcafe"}

    # Columns left out of INSERT JSON are set to null unless DEFAULT UNSET is given.
    session.execute("INSERT INTO %s JSON '{\"pk\": 1, \"t\": \"only t\"}' DEFAULT UNSET" % name)
    assert session.execute("SELECT l FROM %s WHERE pk = 1" % name).one().l == [1, 2]
    session.execute("INSERT INTO %s JSON '{\"pk\": 1, \"t\": \"only t\"}'" % name)
    assert session.execute("SELECT l FROM %s WHERE pk = 1" % name).one().l is None
    prepared = session.prepare("INSERT INTO %s JSON ?" % name)
    session.execute(prepared, ('{"pk": 2, "l": [3]}',))
    assert session.execute("SELECT l FROM %s WHERE pk = 2" % name).one().l == [3]


def test_native_functions_under_their_old_and_snake_case_names(session, table):
    """Cassandra 5.0 names its native functions in snake_case too (blob_as_int, to_timestamp, ...); cqlsh's own test
    keyspace uses them."""
    name = table("pk int PRIMARY KEY, t timeuuid, v text")
    session.execute("INSERT INTO %s (pk, t, v) VALUES (1, now(), 'x')" % name)
    session.execute("INSERT INTO %s (pk, t, v) VALUES (2, current_timeuuid(), from_json('\"y\"'))" % name)
    rows = session.execute("SELECT blob_as_int(int_as_blob(7)), blobAsInt(intAsBlob(7)), to_unix_timestamp(t), "
                           "toUnixTimestamp(t), to_date(t), toDate(t), to_json(v) FROM %s WHERE pk IN (1, 2)" % name)
    assert rows.column_names[-1] == "system.to_json(v)"
    for row in rows.all():
        assert row[0] == row[1] == 7
        assert row[2] == row[3] and row[4] == row[5]
    assert [r[0] for r in session.execute("SELECT to_json(v) FROM %s WHERE pk IN (1, 2)" % name)] == ['"x"', '"y"']
    now = session.execute("SELECT current_timestamp(), current_date(), current_time(), to_timestamp(min_timeuuid(0)), "
                          "blob_as_varchar(varchar_as_blob('z')) FROM %s WHERE pk = 1" % name).one()
    assert now[0] is not None and now[1] is not None and now[2] is not None
    assert now[4] == "z"
    # A literal or bind marker argument takes the type of the function's one parameter, as Cassandra resolves it.
    marker = session.prepare("SELECT blob_as_int(?), to_timestamp(min_timeuuid(?)) FROM %s WHERE pk = 1" % name)
    assert [c.type.typename for c in marker.column_metadata] == ["blob", "timestamp"]  # the markers, typed by the parameters
    assert session.execute(marker, (b"\x00\x00\x00\x09", 0)).one()[0] == 9
