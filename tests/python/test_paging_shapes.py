"""Paging over every table shape: each row once, at every page size, and aggregates that agree with the client.

The ScyllaDB article's banking check sums a full scan of `accounts (PRIMARY KEY ((bic, ban)))`; a table without
clustering columns used to repeat the last row of every page and of every internal chunk of an aggregate.
"""

import pytest
from cassandra.query import SimpleStatement

ROWS = 100


@pytest.fixture(scope="module")
def shapes(session):
    columns = {
        "single": "id int PRIMARY KEY, balance int",
        "composite": "bic text, ban int, balance int, PRIMARY KEY ((bic, ban))",
        "clustered": "k int, c int, s int static, balance int, PRIMARY KEY (k, c)",
    }
    names = {shape: "paging_" + shape for shape in columns}
    for shape, definition in columns.items():
        session.execute("CREATE TABLE %s (%s)" % (names[shape], definition))
    inserts = {
        "single": session.prepare("INSERT INTO %s (id, balance) VALUES (?, ?)" % names["single"]),
        "composite": session.prepare("INSERT INTO %s (bic, ban, balance) VALUES (?, ?, ?)" % names["composite"]),
        "clustered": session.prepare("INSERT INTO %s (k, c, s, balance) VALUES (?, ?, ?, ?)" % names["clustered"]),
    }
    for i in range(ROWS):
        session.execute(inserts["single"], (i, i))
        session.execute(inserts["composite"], ("bic%d" % (i % 3), i, i))
        session.execute(inserts["clustered"], (i % 9, i, i % 9, i))
    return names


def read_all(session, cql, fetch_size, rows_max):
    """Every row of every page; fails instead of looping when the pages hold more rows than exist."""
    result = session.execute(SimpleStatement(cql, fetch_size=fetch_size))
    rows = []
    while True:
        rows.extend(tuple(r) for r in result.current_rows)
        assert len(rows) <= rows_max, "%s at fetch size %d returned more than %d rows" % (cql, fetch_size, rows_max)
        if not result.has_more_pages:
            return rows
        result.fetch_next_page()


@pytest.mark.parametrize("shape", ["single", "composite", "clustered"])
@pytest.mark.parametrize("fetch_size", [1, 7, 10, 99, 100, 101])
def test_paged_scan_returns_each_row_once_in_the_unpaged_order(session, shapes, shape, fetch_size):
    cql = "SELECT * FROM %s" % shapes[shape]
    whole = read_all(session, cql, 5000, ROWS)
    assert len(whole) == ROWS
    assert read_all(session, cql, fetch_size, ROWS) == whole


@pytest.mark.parametrize("shape", ["single", "composite", "clustered"])
@pytest.mark.parametrize("fetch_size", [3, 5000])
def test_count_and_sum_over_a_full_scan_match_the_rows_written(session, shapes, shape, fetch_size):
    row = session.execute(SimpleStatement("SELECT COUNT(*), SUM(balance) FROM %s" % shapes[shape],
                                          fetch_size=fetch_size)).one()
    assert tuple(row) == (ROWS, sum(range(ROWS)))


@pytest.mark.parametrize("fetch_size", [1, 2, 4])
def test_distinct_partition_keys_page_once_each(session, shapes, fetch_size):
    rows = read_all(session, "SELECT DISTINCT k, s FROM %s" % shapes["clustered"], fetch_size, 9)
    assert sorted(rows) == [(k, k) for k in range(9)]


@pytest.mark.parametrize("system_table", ["system_schema.keyspaces", "system_schema.tables", "system_schema.columns"])
def test_schema_tables_page_to_an_end(session, system_table):
    whole = read_all(session, "SELECT * FROM %s" % system_table, 5000, 100000)
    assert read_all(session, "SELECT * FROM %s" % system_table, 1, len(whole)) == whole


def test_node_local_tables_page_to_an_end(session):
    # Each node answers these from its own view, and the pages of one query may go to different nodes.
    assert len(read_all(session, "SELECT * FROM system.local", 1, 1)) == 1
    peers = [row[0] for row in read_all(session, "SELECT peer FROM system.peers", 1, 100)]
    assert len(peers) == len(set(peers))
