"""Storage-attached secondary indexes: DDL, metadata, queries without ALLOW FILTERING, paging, and the data they follow.

Indexes are built on every node of the target as the schema reaches it; each test first waits until its index
answers (a node where it is not built yet answers READ_FAILURE).
"""

import time

import pytest
from cassandra import InvalidRequest, ReadFailure
from cassandra.query import SimpleStatement

from conftest import error_code

INVALID = 0x2200


def answering(session, query, parameters=None, timeout_s=30):
    """Runs the query until every coordinator has the index built, then returns its rows."""
    deadline = time.time() + timeout_s
    while True:
        try:
            return list(session.execute(query, parameters))
        except ReadFailure:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture(scope="module")
def people(session):
    session.execute("CREATE TABLE IF NOT EXISTS idx_people (id int, seq int, age int, city text, tags set<text>, "
                    "PRIMARY KEY (id, seq))")
    session.execute("CREATE INDEX IF NOT EXISTS ON idx_people (age)")
    session.execute("CREATE CUSTOM INDEX IF NOT EXISTS idx_people_city ON idx_people (city) USING 'StorageAttachedIndex' "
                    "WITH OPTIONS = {'case_sensitive': 'false'}")
    session.execute("CREATE INDEX IF NOT EXISTS ON idx_people (tags)")
    insert = session.prepare("INSERT INTO idx_people (id, seq, age, city, tags) VALUES (?, ?, ?, ?, ?)")
    for i in range(60):
        session.execute(insert, (i % 12, i, i % 7, "Paris" if i % 2 == 0 else "Oslo", {"t%d" % (i % 3)}))
    for query in ("SELECT id FROM idx_people WHERE age = 0", "SELECT id FROM idx_people WHERE city = 'paris'",
                  "SELECT id FROM idx_people WHERE tags CONTAINS 't0'"):
        answering(session, query)
    return "idx_people"


def test_metadata_and_default_names(cluster, session, keyspace, people):
    rows = {r.index_name: r for r in session.execute(
        "SELECT index_name, kind, options FROM system_schema.indexes WHERE keyspace_name = %s AND table_name = %s",
        (keyspace, people))}
    assert set(rows) == {"idx_people_age_idx", "idx_people_city", "idx_people_tags_idx"}
    assert rows["idx_people_age_idx"].kind == "CUSTOM"
    assert rows["idx_people_age_idx"].options == {"class_name": "sai", "target": "age"}
    assert rows["idx_people_tags_idx"].options["target"] == "values(tags)"
    assert rows["idx_people_city"].options["case_sensitive"] == "false"
    cluster.refresh_table_metadata(keyspace, people)
    indexes = cluster.metadata.keyspaces[keyspace].tables[people].indexes
    assert set(indexes) == set(rows)
    assert "CREATE CUSTOM INDEX idx_people_age_idx ON %s.%s (age) USING 'sai'" % (keyspace, people) \
        in indexes["idx_people_age_idx"].as_cql_query()


def test_equality_range_contains_and_analyzed_text(session, people):
    assert sorted(r.seq for r in session.execute("SELECT seq FROM idx_people WHERE age = 3")) == \
        [i for i in range(60) if i % 7 == 3]
    assert sorted(r.seq for r in session.execute("SELECT seq FROM idx_people WHERE age > 4 AND age <= 5")) == \
        [i for i in range(60) if i % 7 == 5]
    assert sorted(r.seq for r in session.execute("SELECT seq FROM idx_people WHERE city = 'OSLO' AND age = 1")) == \
        [i for i in range(60) if i % 7 == 1 and i % 2 == 1]
    assert sorted(r.seq for r in session.execute("SELECT seq FROM idx_people WHERE tags CONTAINS 't2'")) == \
        [i for i in range(60) if i % 3 == 2]
    assert session.execute("SELECT count(*) FROM idx_people WHERE city = 'paris'").one()[0] == 30
    assert [r.seq for r in session.execute("SELECT seq FROM idx_people WHERE id = 5 AND age = 3")] == [17]


@pytest.mark.parametrize("fetch_size", [1, 2, 5, 11, 1000])
def test_paging_through_an_index(session, people, fetch_size):
    statement = SimpleStatement("SELECT id, seq FROM idx_people WHERE age < 3", fetch_size=fetch_size)
    seqs = [r.seq for r in session.execute(statement)]
    assert sorted(seqs) == [i for i in range(60) if i % 7 < 3]
    assert len(seqs) == len(set(seqs))


def test_filtering_rules(session, people):
    with pytest.raises(InvalidRequest) as err:
        session.execute("SELECT * FROM idx_people WHERE city > 'a'")
    assert error_code(err.value) == INVALID
    assert "Cannot execute this query as it might involve data filtering" in str(err.value)
    with pytest.raises(InvalidRequest) as err:
        session.execute("SELECT * FROM idx_people WHERE age = 1 AND seq = 1")
    assert "ALLOW FILTERING" in str(err.value)
    assert [r.seq for r in session.execute("SELECT seq FROM idx_people WHERE age = 1 AND seq = 1 ALLOW FILTERING")] == [1]


def test_rows_leave_the_index_with_their_values(session, table):
    name = table("k int PRIMARY KEY, v int")
    session.execute("CREATE INDEX ON %s (v)" % name)
    for k in range(10):
        session.execute("INSERT INTO %s (k, v) VALUES (%d, %d)" % (name, k, k % 2))
    assert sorted(r.k for r in answering(session, "SELECT k FROM %s WHERE v = 1" % name)) == [1, 3, 5, 7, 9]
    session.execute("UPDATE %s SET v = 0 WHERE k = 1" % name)
    session.execute("DELETE FROM %s WHERE k = 3" % name)
    session.execute("DELETE v FROM %s WHERE k = 5" % name)
    assert sorted(r.k for r in session.execute("SELECT k FROM %s WHERE v = 1" % name)) == [7, 9]
    assert 1 in [r.k for r in session.execute("SELECT k FROM %s WHERE v = 0" % name)]


def test_index_errors_and_drop(session, keyspace, table):
    name = table("k int PRIMARY KEY, v int, b blob")
    with pytest.raises(InvalidRequest) as err:
        session.execute("CREATE INDEX ON %s (k)" % name)
    assert "Cannot create secondary index on the only partition key column k" in str(err.value)
    with pytest.raises(InvalidRequest) as err:
        session.execute("CREATE INDEX ON %s (b)" % name)
    assert "Unsupported type: blob" in str(err.value)
    session.execute("CREATE INDEX dropme ON %s (v)" % name)
    with pytest.raises(InvalidRequest) as err:
        session.execute("CREATE INDEX dropme ON %s (v)" % name)
    assert "Index 'dropme' already exists" in str(err.value)
    session.execute("DROP INDEX dropme")
    assert session.execute("SELECT index_name FROM system_schema.indexes WHERE keyspace_name = %s AND table_name = %s",
                           (keyspace, name)).one() is None
    session.execute("DROP INDEX IF EXISTS dropme")
