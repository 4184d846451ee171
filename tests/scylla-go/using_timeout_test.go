package scyllacompat

import (
	"testing"
	"time"

	"github.com/gocql/gocql"
)

var day = gocql.Duration{Nanoseconds: int64(24 * time.Hour)}

// ScyllaDB's USING TIMEOUT: the statement's server-side timeout. Zero cannot be
// met, so the server answers READ_TIMEOUT / WRITE_TIMEOUT without running it.
func TestUsingTimeoutZeroTimesOutReadsAndWrites(t *testing.T) {
	table := newTable(t, "pk int, c int, v int, PRIMARY KEY (pk, c)")
	exec(t, "INSERT INTO "+table+" (pk, c, v) VALUES (1, 1, 1)")

	err := session.Query("SELECT v FROM "+table+" WHERE pk = ? USING TIMEOUT 0ms", 1).Exec()
	requireErr[*gocql.RequestErrReadTimeout](t, "SELECT USING TIMEOUT 0ms", err)

	err = session.Query("INSERT INTO "+table+" (pk, c, v) VALUES (?, ?, ?) USING TIMEOUT 0ms", 2, 1, 1).Exec()
	writeTimeout := requireErr[*gocql.RequestErrWriteTimeout](t, "INSERT USING TIMEOUT 0ms", err)
	assertEqual(t, "write type", writeTimeout.WriteType, "SIMPLE")

	err = session.Query("BEGIN BATCH USING TIMEOUT 0ms INSERT INTO " + table + " (pk, c, v) VALUES (3, 1, 1); " +
		"INSERT INTO " + table + " (pk, c, v) VALUES (4, 1, 1); APPLY BATCH").Exec()
	writeTimeout = requireErr[*gocql.RequestErrWriteTimeout](t, "BATCH USING TIMEOUT 0ms", err)
	assertEqual(t, "write type", writeTimeout.WriteType, "BATCH")

	var n int
	scan(t, "SELECT count(*) FROM "+table, nil, &n)
	assertEqual(t, "rows after the timed-out writes", n, 1)
}

func TestUsingTimeoutLongEnoughRunsTheStatement(t *testing.T) {
	table := newTable(t, "pk int, c int, v int, PRIMARY KEY (pk, c)")
	exec(t, "INSERT INTO "+table+" (pk, c, v) VALUES (?, ?, ?) USING TIMEOUT 60s AND TTL 100000 AND TIMESTAMP 321", 1, 1, 1)
	exec(t, "INSERT INTO "+table+" (pk, c, v) VALUES (?, ?, ?) USING TIMESTAMP 42 AND TIMEOUT 30m", 1, 2, 2)
	exec(t, "BEGIN UNLOGGED BATCH USING TIMEOUT 48h INSERT INTO "+table+" (pk, c, v) VALUES (2, 1, 3); "+
		"INSERT INTO "+table+" (pk, c, v) VALUES (3, 1, 4); APPLY BATCH")

	var ttl int
	var writetime int64
	scan(t, "SELECT ttl(v), writetime(v) FROM "+table+" WHERE pk = ? AND c = ? USING TIMEOUT 24h", []any{1, 1}, &ttl, &writetime)
	if ttl <= 0 || ttl > 100000 {
		t.Errorf("ttl %d", ttl)
	}
	assertEqual(t, "writetime", writetime, int64(321))
	var n int
	scan(t, "SELECT count(*) FROM "+table+" USING TIMEOUT 24h", nil, &n)
	assertEqual(t, "rows", n, 4)
}

// A bound timeout is a duration: gocql sends it as the marker's type, [timeout] duration.
func TestUsingTimeoutBoundToAMarker(t *testing.T) {
	table := newTable(t, "pk int, c int, v int, PRIMARY KEY (pk, c)")
	insert := "INSERT INTO " + table + " (pk, c, v) VALUES (?, ?, ?) USING TIMEOUT ?"
	err := session.Query(insert, 1, 1, 1, gocql.Duration{}).Exec()
	requireErr[*gocql.RequestErrWriteTimeout](t, "INSERT USING TIMEOUT ? = 0", err)
	exec(t, insert, 1, 1, 1, day)

	selectV := "SELECT v FROM " + table + " WHERE pk = ? USING TIMEOUT ?"
	err = session.Query(selectV, 1, gocql.Duration{}).Exec()
	requireErr[*gocql.RequestErrReadTimeout](t, "SELECT USING TIMEOUT ? = 0", err)
	var v int
	scan(t, selectV, []any{1, day}, &v)
	assertEqual(t, "v", v, 1)

	err = session.Query(selectV, 1, gocql.Duration{Nanoseconds: -int64(time.Millisecond)}).Exec()
	invalid := requireErr[serverError](t, "negative timeout", err)
	assertEqual(t, "error", [2]any{invalid.GetCode(), invalid.GetMessage()}, [2]any{gocql.ErrCodeInvalid, "Timeout values must be non-negative"})
}
