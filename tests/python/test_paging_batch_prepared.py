"""Paging, batches and prepared statements."""

from collections import Counter

import pytest
from cassandra import ConsistencyLevel, InvalidRequest
from cassandra.protocol import ProtocolVersion
from cassandra.query import BatchStatement, BatchType, SimpleStatement

from conftest import make_cluster, run_transfers

PARTITIONS = 7
ROWS_PER_PARTITION = 13


@pytest.fixture(scope="module")
def paged(session):
    session.execute("CREATE TABLE IF NOT EXISTS paged (pk int, c int, v text, PRIMARY KEY (pk, c))")
    insert = session.prepare("INSERT INTO paged (pk, c, v) VALUES (?, ?, ?)")
    for pk in range(PARTITIONS):
        for c in range(ROWS_PER_PARTITION):
            session.execute(insert, (pk, c, "v%d.%d" % (pk, c)))
    return "paged"


def expected_rows():
    return Counter((pk, c) for pk in range(PARTITIONS) for c in range(ROWS_PER_PARTITION))


@pytest.mark.parametrize("fetch_size", [1, 5, 13, 50])
def test_full_scan_pages_return_every_row_once(session, paged, fetch_size):
    result = session.execute(SimpleStatement("SELECT pk, c, v FROM %s" % paged, fetch_size=fetch_size))
    seen = Counter()
    pages = 0
    while True:
        pages += 1
        for row in result.current_rows:
            assert row.v == "v%d.%d" % (row.pk, row.c)
            seen[(row.pk, row.c)] += 1
        assert len(result.current_rows) <= fetch_size
        if not result.has_more_pages:
            break
        assert pages < 1000, "paging did not terminate"
        result.fetch_next_page()
    assert seen == expected_rows()
    assert pages >= PARTITIONS * ROWS_PER_PARTITION // fetch_size


def test_paging_state_resumes_in_a_new_request(session, paged):
    statement = session.prepare("SELECT pk, c FROM %s WHERE pk IN (1, 2, 3)" % paged)
    statement.fetch_size = 4
    seen = Counter()
    paging_state = None
    for _ in range(100):
        result = session.execute(statement, paging_state=paging_state)
        seen.update((r.pk, r.c) for r in result.current_rows)
        paging_state = result.paging_state
        if paging_state is None:
            break
    assert seen == Counter((pk, c) for pk in (1, 2, 3) for c in range(ROWS_PER_PARTITION))


def test_paging_within_one_partition_and_with_limit(session, paged):
    rows = list(session.execute(SimpleStatement("SELECT c FROM %s WHERE pk = 4 ORDER BY c DESC" % paged,
                                                fetch_size=3)))
    assert [r.c for r in rows] == list(reversed(range(ROWS_PER_PARTITION)))
    rows = list(session.execute(SimpleStatement("SELECT pk, c FROM %s LIMIT 20" % paged, fetch_size=6)))
    assert len(rows) == 20 and len(set((r.pk, r.c) for r in rows)) == 20
    rows = list(session.execute(SimpleStatement("SELECT pk, c FROM %s PER PARTITION LIMIT 3" % paged, fetch_size=2)))
    assert Counter(r.pk for r in rows) == Counter({pk: 3 for pk in range(PARTITIONS)})


def test_logged_and_unlogged_batches(session, table):
    name = table("pk int, c int, v text, PRIMARY KEY (pk, c)")
    insert = session.prepare("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)" % name)
    for batch_type in (BatchType.LOGGED, BatchType.UNLOGGED):
        batch = BatchStatement(batch_type=batch_type)
        base = 10 * batch_type.value
        for i in range(3):
            batch.add(insert, (base + i, i, "b%d" % i))
        batch.add(SimpleStatement("UPDATE %s SET v = %%s WHERE pk = %%s AND c = %%s" % name), ("updated", base, 0))
        batch.add("DELETE FROM %s WHERE pk = %d AND c = 2" % (name, base + 2))
        session.execute(batch)
        rows = {(r.pk, r.c): r.v for r in session.execute(
            "SELECT * FROM %s WHERE pk IN (%d, %d, %d)" % (name, base, base + 1, base + 2))}
        assert rows == {(base, 0): "updated", (base + 1, 1): "b1"}

    session.execute("BEGIN BATCH "
                    "INSERT INTO %s (pk, c, v) VALUES (100, 1, 'text') USING TIMESTAMP 50; "
                    "INSERT INTO %s (pk, c, v) VALUES (100, 2, 'batch'); "
                    "APPLY BATCH" % (name, name))
    session.execute("BEGIN UNLOGGED BATCH USING TIMESTAMP 60 "
                    "UPDATE %s SET v = 'later' WHERE pk = 100 AND c = 1; "
                    "APPLY BATCH" % name)
    row = session.execute("SELECT v, WRITETIME(v) FROM %s WHERE pk = 100 AND c = 1" % name).one()
    assert tuple(row) == ("later", 60)


def test_counter_batch(session, table):
    name = table("pk int PRIMARY KEY, n counter")
    batch = BatchStatement(batch_type=BatchType.COUNTER)
    inc = session.prepare("UPDATE %s SET n = n + ? WHERE pk = ?" % name)
    for i in range(3):
        batch.add(inc, (i + 1, i))
    batch.add(inc, (10, 0))
    session.execute(batch)
    session.execute("BEGIN COUNTER BATCH UPDATE %s SET n = n - 1 WHERE pk = 2; APPLY BATCH" % name)
    assert {r.pk: r.n for r in session.execute("SELECT * FROM %s" % name)} == {0: 11, 1: 2, 2: 2}


def test_conditional_batches(session, table):
    """A batch with conditions is one LWT on one partition: all conditions hold, or nothing is written."""
    name = table("pk int, c int, s int static, v int, PRIMARY KEY (pk, c)")
    insert = session.prepare("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?) IF NOT EXISTS" % name)
    update = session.prepare("UPDATE %s SET v = ? WHERE pk = ? AND c = ? IF v = ?" % name)
    created = BatchStatement()
    created.add(insert, (1, 1, 10))
    created.add(insert, (1, 2, 20))
    created.add(SimpleStatement("UPDATE %s SET s = 5 WHERE pk = 1" % name))
    assert session.execute(created).was_applied

    stale = BatchStatement()
    stale.add(update, (11, 1, 1, 10))
    stale.add(update, (21, 1, 2, 99))
    stale.add(SimpleStatement("INSERT INTO %s (pk, c, v) VALUES (1, 3, 30)" % name))
    result = session.execute(stale)
    assert not result.was_applied
    assert [(r.pk, r.c, r.v) for r in result] == [(1, 1, 10), (1, 2, 20)]

    fresh = BatchStatement()
    fresh.add(update, (11, 1, 1, 10))
    fresh.add(update, (21, 1, 2, 20))
    fresh.add(SimpleStatement("INSERT INTO %s (pk, c, v) VALUES (1, 3, 30)" % name))
    assert session.execute(fresh).was_applied

    text = session.execute("BEGIN BATCH UPDATE %s SET v = 0 WHERE pk = 1 AND c = 1 IF s = 4; "
                           "INSERT INTO %s (pk, c, v) VALUES (1, 4, 40); APPLY BATCH" % (name, name))
    assert not text.was_applied
    assert text.one().s == 5

    serial = SimpleStatement("SELECT c, v FROM %s WHERE pk = 1" % name, consistency_level=ConsistencyLevel.SERIAL)
    assert [(r.c, r.v) for r in session.execute(serial)] == [(1, 11), (2, 21), (3, 30)]
    with pytest.raises(InvalidRequest, match="cannot use IN on the partition key"):
        session.execute("BEGIN BATCH UPDATE %s SET v = 1 WHERE pk IN (1, 2) AND c = 1 IF v = 11; APPLY BATCH" % name)


def test_multi_partition_conditional_batches(session, table):
    """A batch with conditions over several partitions and tables is one transaction (Ballot's extension; Cassandra
    refuses it): every statement is written if and only if every condition holds; concurrent transfers keep the total."""
    accounts = table("id int PRIMARY KEY, balance int")
    ledger = table("id int, seq int, amount int, PRIMARY KEY (id, seq)")
    for i in range(4):
        session.execute("INSERT INTO %s (id, balance) VALUES (%d, 100)" % (accounts, i))
    move = session.prepare("UPDATE %s SET balance = ? WHERE id = ? IF balance = ?" % accounts)
    note = session.prepare("INSERT INTO %s (id, seq, amount) VALUES (?, ?, ?) IF NOT EXISTS" % ledger)
    transfer = BatchStatement()
    transfer.add(move, (70, 0, 100))
    transfer.add(move, (130, 1, 100))
    transfer.add(note, (0, 1, -30))
    assert session.execute(transfer).was_applied
    # The same transfer again: the account conditions fail, so the new ledger entry is not written either.
    again = BatchStatement()
    again.add(move, (40, 0, 100))
    again.add(move, (160, 1, 100))
    again.add(note, (0, 2, -30))
    refused = session.execute(again)
    assert not refused.was_applied
    assert sorted((r.id, r.balance) for r in refused if r.balance is not None) == [(0, 70), (1, 130)]
    serial = SimpleStatement("SELECT id, balance FROM %s" % accounts, consistency_level=ConsistencyLevel.SERIAL)
    assert session.execute(SimpleStatement("SELECT seq FROM %s WHERE id = 0" % ledger,
                                           consistency_level=ConsistencyLevel.SERIAL)).all() == [(1,)]
    # As a text batch: [applied] alone when applied, as Cassandra answers a batch.
    text = session.execute("BEGIN BATCH UPDATE %s SET balance = 60 WHERE id = 0 IF balance = 70; "
                           "UPDATE %s SET balance = 140 WHERE id = 1 IF balance = 130; APPLY BATCH" % (accounts, accounts))
    assert text.was_applied and text.column_names == ["[applied]"]

    read = session.prepare("SELECT balance FROM %s WHERE id = ?" % accounts)
    read.consistency_level = ConsistencyLevel.SERIAL

    def transfer(rng):
        a, b = rng.sample(range(4), 2)
        ba, bb = session.execute(read, (a,)).one().balance, session.execute(read, (b,)).one().balance
        if ba < 5:
            return
        batch = BatchStatement()
        batch.add(move, (ba - 5, a, ba))
        batch.add(move, (bb + 5, b, bb))
        session.execute(batch)

    run_transfers(4, 15, transfer)
    assert sum(r.balance for r in session.execute(serial)) == 400


def test_prepared_positional_and_named_markers(session, table):
    name = table("pk int, c int, v text, PRIMARY KEY (pk, c)")
    positional = session.prepare("INSERT INTO %s (pk, c, v) VALUES (?, ?, ?)" % name)
    assert [c.name for c in positional.column_metadata] == ["pk", "c", "v"]
    assert positional.routing_key_indexes == [0]
    session.execute(positional, (1, 1, "pos"))

    named = session.prepare("INSERT INTO %s (pk, c, v) VALUES (:p, :cc, :value)" % name)
    assert [c.name for c in named.column_metadata] == ["p", "cc", "value"]
    session.execute(named, {"value": "named", "p": 1, "cc": 2})

    select = session.prepare("SELECT c, v FROM %s WHERE pk = :pk AND c >= :lo LIMIT :n" % name)
    assert [c.name for c in select.column_metadata] == ["pk", "lo", "n"]
    assert [c[2] for c in select.result_metadata] == ["c", "v"]
    rows = [tuple(r) for r in session.execute(select, {"pk": 1, "lo": 1, "n": 5})]
    assert rows == [(1, "pos"), (2, "named")]
    rows = [tuple(r) for r in session.execute(select, {"pk": 1, "lo": 2, "n": 5})]
    assert rows == [(2, "named")]

    limit = session.prepare("SELECT c FROM %s WHERE pk = ? LIMIT ?" % name)
    assert [c.name for c in limit.column_metadata] == ["pk", "[limit]"]
    assert [r.c for r in session.execute(limit, (1, 1))] == [1]

    in_list = session.prepare("SELECT c FROM %s WHERE pk = ? AND c IN ?" % name)
    assert [r.c for r in session.execute(in_list, (1, [2, 1, 9]))] == [1, 2]

    ttl = session.prepare("UPDATE %s USING TTL ? SET v = ? WHERE pk = ? AND c = ?" % name)
    assert [c.name for c in ttl.column_metadata] == ["[ttl]", "v", "pk", "c"]
    session.execute(ttl, (300, "ttl", 1, 1))
    assert 290 <= session.execute("SELECT TTL(v) FROM %s WHERE pk = 1 AND c = 1" % name).one()[0] <= 300


def test_prepared_statement_is_reusable_and_unset_values(session, table):
    from cassandra.query import UNSET_VALUE

    name = table("pk int PRIMARY KEY, a int, b int")
    prepared = session.prepare("INSERT INTO %s (pk, a, b) VALUES (?, ?, ?)" % name)
    same = session.prepare("INSERT INTO %s (pk, a, b) VALUES (?, ?, ?)" % name)
    assert prepared.query_id == same.query_id
    for i in range(20):
        session.execute(prepared, (i, i, i))
    session.execute(prepared, (5, 50, UNSET_VALUE))
    assert tuple(session.execute("SELECT a, b FROM %s WHERE pk = 5" % name).one()) == (50, 5)
    assert session.execute("SELECT COUNT(*) FROM %s" % name).one()[0] == 20


@pytest.mark.parametrize("protocol_version", [ProtocolVersion.V4, ProtocolVersion.V5])
def test_prepared_select_sees_a_column_added_after_prepare(session, table, protocol_version):
    """ALTER TABLE ... ADD drops the table's prepared statements: the next execution is answered UNPREPARED, the
    driver prepares the statement again and reads rows with the new result metadata."""
    name = table("pk int PRIMARY KEY, a text")
    session.execute("INSERT INTO %s (pk, a) VALUES (1, 'a')" % name)
    other = make_cluster(protocol_version=protocol_version)
    try:
        s = other.connect(session.keyspace)
        assert other.protocol_version == protocol_version
        select = s.prepare("SELECT * FROM %s WHERE pk = ?" % name)
        assert s.execute(select, (1,)).one()._asdict() == {"pk": 1, "a": "a"}

        session.execute("ALTER TABLE %s ADD b text" % name)
        session.execute("UPDATE %s SET b = 'new' WHERE pk = 1" % name)

        assert s.execute(select, (1,)).one()._asdict() == {"pk": 1, "a": "a", "b": "new"}
        assert [c[2] for c in select.result_metadata] == ["pk", "a", "b"]
    finally:
        other.shutdown()
