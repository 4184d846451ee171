package compat

import (
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

// answering runs a query until every coordinator has its index built (others answer READ_FAILURE), then returns
// its rows.
func answering(t *testing.T, stmt string, values ...interface{}) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := session.Query(stmt, values...).Exec()
		var failure *gocql.RequestErrReadFailure
		if err == nil || !errors.As(err, &failure) || time.Now().After(deadline) {
			return rowsOf(t, stmt, values...)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// pagedInts reads one int column page by page, fetching pageSize rows at a time.
func pagedInts(t *testing.T, pageSize int, stmt string, values ...interface{}) []int {
	t.Helper()
	iter := session.Query(stmt, values...).PageSize(pageSize).Iter()
	var out []int
	var v int
	for iter.Scan(&v) {
		out = append(out, v)
	}
	if err := iter.Close(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	sort.Ints(out)
	return out
}

func TestIndexQueries(t *testing.T) {
	name := newTable(t, "id int, seq int, age int, city text, tags set<text>, PRIMARY KEY (id, seq)")
	exec(t, "CREATE INDEX ON "+name+" (age)")
	exec(t, "CREATE CUSTOM INDEX ON "+name+" (city) USING 'sai' WITH OPTIONS = {'case_sensitive': 'false'}")
	exec(t, "CREATE INDEX ON "+name+" (values(tags))")
	for i := 0; i < 60; i++ {
		city := "Oslo"
		if i%2 == 0 {
			city = "Paris"
		}
		exec(t, "INSERT INTO "+name+" (id, seq, age, city, tags) VALUES (?, ?, ?, ?, ?)", i%12, i, i%7, city,
			[]string{fmt.Sprintf("t%d", i%3)})
	}
	answering(t, "SELECT seq FROM "+name+" WHERE age = 0")
	answering(t, "SELECT seq FROM "+name+" WHERE city = 'x'")
	answering(t, "SELECT seq FROM "+name+" WHERE tags CONTAINS 'x'")

	want := func(keep func(i int) bool) []int {
		out := []int{}
		for i := 0; i < 60; i++ {
			if keep(i) {
				out = append(out, i)
			}
		}
		return out
	}
	for _, pageSize := range []int{1, 3, 10, 1000} {
		assertEqual(t, fmt.Sprintf("age = 3, page size %d", pageSize),
			pagedInts(t, pageSize, "SELECT seq FROM "+name+" WHERE age = ?", 3), want(func(i int) bool { return i%7 == 3 }))
		assertEqual(t, fmt.Sprintf("age range, page size %d", pageSize),
			pagedInts(t, pageSize, "SELECT seq FROM "+name+" WHERE age >= 2 AND age < 4"),
			want(func(i int) bool { return i%7 == 2 || i%7 == 3 }))
	}
	assertEqual(t, "analyzed text and an index AND",
		pagedInts(t, 100, "SELECT seq FROM "+name+" WHERE city = 'PARIS' AND age = 1"),
		want(func(i int) bool { return i%7 == 1 && i%2 == 0 }))
	assertEqual(t, "CONTAINS", pagedInts(t, 100, "SELECT seq FROM "+name+" WHERE tags CONTAINS 't1'"),
		want(func(i int) bool { return i%3 == 1 }))
	var count int64
	scan(t, "SELECT count(*) FROM "+name+" WHERE city = 'oslo'", nil, &count)
	assertEqual(t, "count", count, int64(30))

	requireErrCode(t, session.Query("SELECT * FROM "+name+" WHERE city > 'a'").Exec(), gocql.ErrCodeInvalid,
		"Cannot execute this query as it might involve data filtering")
	requireErrCode(t, session.Query("SELECT * FROM "+name+" WHERE age = 1 AND seq = 1").Exec(), gocql.ErrCodeInvalid,
		"ALLOW FILTERING")

	exec(t, "UPDATE "+name+" SET age = 100 WHERE id = 3 AND seq = 3")
	exec(t, "DELETE FROM "+name+" WHERE id = 5 AND seq = 17")
	assertEqual(t, "after overwrite and delete", pagedInts(t, 2, "SELECT seq FROM "+name+" WHERE age = 3"),
		want(func(i int) bool { return i%7 == 3 && i != 3 && i != 17 }))
	assertEqual(t, "overwritten value", pagedInts(t, 2, "SELECT seq FROM "+name+" WHERE age = 100"), []int{3})
}

func TestIndexMetadataAndErrors(t *testing.T) {
	name := newTable(t, "k int PRIMARY KEY, v int, b blob")
	exec(t, "CREATE INDEX ON "+name+" (v)")
	var kind string
	var options map[string]string
	scan(t, "SELECT kind, options FROM system_schema.indexes WHERE keyspace_name = ? AND table_name = ? AND index_name = ?",
		[]interface{}{keyspace, name, name + "_v_idx"}, &kind, &options)
	assertEqual(t, "kind", kind, "CUSTOM")
	assertEqual(t, "options", options, map[string]string{"class_name": "sai", "target": "v"})
	requireErrCode(t, session.Query("CREATE INDEX ON "+name+" (k)").Exec(), gocql.ErrCodeInvalid,
		"Cannot create secondary index on the only partition key column k")
	requireErrCode(t, session.Query("CREATE INDEX ON "+name+" (b)").Exec(), gocql.ErrCodeInvalid, "Unsupported type: blob")
	requireErrCode(t, session.Query("CREATE INDEX "+name+"_v_idx ON "+name+" (b)").Exec(), gocql.ErrCodeInvalid, "already exists")
	exec(t, "DROP INDEX "+name+"_v_idx")
	requireErrCode(t, session.Query("DROP INDEX "+name+"_v_idx").Exec(), gocql.ErrCodeInvalid, "doesn't exist")
}
