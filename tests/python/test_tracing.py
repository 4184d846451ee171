"""Query tracing: trace=True gets a tracing id, and get_query_trace() reads the session and its events."""

from cassandra.query import SimpleStatement

from conftest import RF


def test_traced_prepared_read(session, table):
    name = table("pk int PRIMARY KEY, v text")
    session.execute("INSERT INTO %s (pk, v) VALUES (1, 'a')" % name)
    select = session.prepare("SELECT v FROM %s WHERE pk = ?" % name)
    result = session.execute(select, [1], trace=True)
    assert result.one().v == "a"
    trace = result.get_query_trace(max_wait_sec=10)
    assert trace.trace_id == result.response_future.get_query_trace_ids()[0]
    assert trace.request_type == "Execute CQL3 prepared query"
    assert trace.parameters["query"] == "SELECT v FROM %s WHERE pk = ?" % name
    assert trace.duration.total_seconds() > 0
    activities = [e.description for e in trace.events]
    assert "Executing single-partition query on %s" % name in activities
    assert "Read 1 live rows and 0 tombstone cells" in activities
    assert all(e.source is not None and e.source_elapsed is not None for e in trace.events)


def test_traced_lwt(session, table):
    name = table("pk int PRIMARY KEY, v text")
    result = session.execute(SimpleStatement("INSERT INTO %s (pk, v) VALUES (1, 'a') IF NOT EXISTS" % name), trace=True)
    assert result.one()[0] is True
    trace = result.get_query_trace(max_wait_sec=10)
    assert trace.request_type == "Execute CQL3 query"
    assert trace.parameters["query"] == "INSERT INTO %s (pk, v) VALUES (1, 'a') IF NOT EXISTS" % name
    assert len(trace.events) >= 3
    if RF > 1:
        # A quorum of the partition's replicas includes another node: its acceptor's events came back with its replies.
        assert any(e.source != trace.coordinator for e in trace.events), \
            "no event from a replica other than the coordinator %s: %s" % (
                trace.coordinator, [(e.source, e.description) for e in trace.events])


def test_untraced_query_has_no_trace(session):
    result = session.execute("SELECT release_version FROM system.local")
    assert result.get_query_trace() is None
