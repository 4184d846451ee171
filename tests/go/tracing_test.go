package compat

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// idTracer keeps the tracing ids gocql hands to a Tracer.
type idTracer struct{ ids [][]byte }

func (r *idTracer) Trace(id []byte) { r.ids = append(r.ids, append([]byte(nil), id...)) }

// tracedExec runs stmt with tracing on and returns the tracing id of its EXECUTE. gocql prepares the statement
// first with the same tracer, so there are two ids, each a 16-byte uuid; the PREPARE's session is checked too.
func tracedExec(t *testing.T, stmt string, values ...interface{}) []byte {
	t.Helper()
	ids := &idTracer{}
	if err := session.Query(stmt, values...).Trace(ids).Exec(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	if len(ids.ids) != 2 || len(ids.ids[0]) != 16 || len(ids.ids[1]) != 16 {
		t.Fatalf("%s: tracing ids %x, want two (PREPARE, EXECUTE) of 16 bytes", stmt, ids.ids)
	}
	assertEqual(t, "prepare request", awaitSession(t, ids.ids[0]), "Preparing CQL3 query")
	return ids.ids[1]
}

// awaitSession polls system_traces.sessions as drivers do, until the session has its duration (the server writes
// it after the answer, events first), and returns the request it names.
func awaitSession(t *testing.T, id []byte) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var duration *int
		var request string
		err := session.Query("SELECT duration, request FROM system_traces.sessions WHERE session_id = ?", id).Scan(&duration, &request)
		if err == nil && duration != nil {
			return request
		}
		if err != nil && err != gocql.ErrNotFound {
			t.Fatalf("reading trace session %x: %v", id, err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("trace session %x has no duration after 10 s", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// traceText is gocql's own rendering of a finished trace (NewTraceWriter).
func traceText(id []byte) string {
	var out bytes.Buffer
	gocql.NewTraceWriter(session, &out).Trace(id)
	return out.String()
}

func TestTracedPreparedRead(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, v text")
	exec(t, "INSERT INTO "+name+" (pk, v) VALUES (1, 'a')")
	id := tracedExec(t, "SELECT v FROM "+name+" WHERE pk = ?", 1)
	assertEqual(t, "request", awaitSession(t, id), "Execute CQL3 prepared query")
	text := traceText(id)
	for _, want := range []string{"Tracing session ", "Executing single-partition query on " + name, "Read 1 live rows and 0 tombstone cells"} {
		if !strings.Contains(text, want) {
			t.Errorf("trace lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Error:") {
		t.Errorf("gocql could not read the trace:\n%s", text)
	}
}

func TestTracedLwt(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, v text")
	id := tracedExec(t, "INSERT INTO "+name+" (pk, v) VALUES (1, 'a') IF NOT EXISTS")
	assertEqual(t, "request", awaitSession(t, id), "Execute CQL3 prepared query")
	if lines := strings.Count(traceText(id), "\n"); lines < 3 {
		t.Errorf("an LWT trace of %d lines, want its steps", lines)
	}
	if rf != "1" {
		// A quorum of the partition's replicas includes another node: its acceptor's events came back with its replies.
		coordinator, sources := traceSources(t, id)
		remote := false
		for _, s := range sources {
			remote = remote || !s.Equal(coordinator)
		}
		if !remote {
			t.Errorf("no event from a replica other than the coordinator %v: sources %v", coordinator, sources)
		}
	}
}

// traceSources reads a finished session's coordinator and the source of each of its events.
func traceSources(t *testing.T, id []byte) (net.IP, []net.IP) {
	t.Helper()
	var coordinator net.IP
	if err := session.Query("SELECT coordinator FROM system_traces.sessions WHERE session_id = ?", id).Scan(&coordinator); err != nil {
		t.Fatalf("reading trace session %x: %v", id, err)
	}
	var sources []net.IP
	iter := session.Query("SELECT source FROM system_traces.events WHERE session_id = ?", id).Iter()
	for {
		var source net.IP // a new one each row: Scan may reuse the bytes of the last
		if !iter.Scan(&source) {
			break
		}
		sources = append(sources, source)
	}
	if err := iter.Close(); err != nil {
		t.Fatalf("reading trace events %x: %v", id, err)
	}
	return coordinator, sources
}
