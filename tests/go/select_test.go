package compat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

var eventsOnce sync.Once

// events is pk 0..3, c 0..4, v = pk*10 + c, d = v/4 as a decimal, tag even/odd on c.
func events(t *testing.T) string {
	t.Helper()
	eventsOnce.Do(func() {
		exec(t, "CREATE TABLE IF NOT EXISTS select_events (pk int, c int, v int, d decimal, f double, tag text, "+
			"PRIMARY KEY (pk, c))")
		for pk := 0; pk < 4; pk++ {
			for c := 0; c < 5; c++ {
				v := pk*10 + c
				tag := "odd"
				if c%2 == 0 {
					tag = "even"
				}
				exec(t, "INSERT INTO select_events (pk, c, v, d, f, tag) VALUES (?, ?, ?, ?, ?, ?)",
					pk, c, v, decimal(fmt.Sprintf("%g", float64(v)/4)), float64(v)/2, tag)
			}
		}
	})
	return "select_events"
}

func sorted(rows []string) []string {
	sort.Strings(rows)
	return rows
}

func TestSelectIn(t *testing.T) {
	e := events(t)
	// partitions in key order, as Cassandra returns them (not token order)
	assertEqual(t, "IN on both keys", rowsOf(t, "SELECT pk, c FROM "+e+" WHERE pk IN (3, 1) AND c IN (4, 0)"),
		[]string{"1 0", "1 4", "3 0", "3 4"})
	assertEqual(t, "IN on clustering", rowsOf(t, "SELECT c FROM "+e+" WHERE pk = 2 AND c IN (3, 1, 2)"),
		[]string{"1", "2", "3"})
	assertEqual(t, "IN bound as a list", rowsOf(t, "SELECT c FROM "+e+" WHERE pk = ? AND c IN ?", 2, []int{4, 0}),
		[]string{"0", "4"})
}

func TestSelectClusteringRanges(t *testing.T) {
	e := events(t)
	for where, want := range map[string][]string{
		"c > 1":            {"2", "3", "4"},
		"c >= 1 AND c < 3": {"1", "2"},
		"c > 1 AND c <= 3": {"2", "3"},
		"c < 0":            {},
		"(c) >= (3)":       {"3", "4"},
		"c > ? AND c < ?":  {"2"},
	} {
		var args []interface{}
		if where == "c > ? AND c < ?" {
			args = []interface{}{1, 3}
		}
		assertEqual(t, where, rowsOf(t, "SELECT c FROM "+e+" WHERE pk = 1 AND "+where, args...), want)
	}
}

func TestSelectOrderByAndLimit(t *testing.T) {
	e := events(t)
	assertEqual(t, "ORDER BY DESC", rowsOf(t, "SELECT c FROM "+e+" WHERE pk = 2 ORDER BY c DESC"),
		[]string{"4", "3", "2", "1", "0"})
	assertEqual(t, "ORDER BY DESC LIMIT", rowsOf(t, "SELECT c FROM "+e+" WHERE pk = 2 ORDER BY c DESC LIMIT 2"),
		[]string{"4", "3"})
	assertEqual(t, "LIMIT over partitions", len(rowsOf(t, "SELECT * FROM "+e+" LIMIT 7")), 7)
	assertEqual(t, "LIMIT bound", rowsOf(t, "SELECT c FROM "+e+" WHERE pk = 2 LIMIT ?", 1), []string{"0"})
}

func TestSelectPerPartitionLimit(t *testing.T) {
	e := events(t)
	assertEqual(t, "PER PARTITION LIMIT", sorted(rowsOf(t, "SELECT pk, c FROM "+e+" PER PARTITION LIMIT 2")),
		[]string{"0 0", "0 1", "1 0", "1 1", "2 0", "2 1", "3 0", "3 1"})
	assertEqual(t, "with LIMIT", len(rowsOf(t, "SELECT pk, c FROM "+e+" PER PARTITION LIMIT 2 LIMIT 3")), 3)
}

func TestSelectDistinct(t *testing.T) {
	assertEqual(t, "DISTINCT", sorted(rowsOf(t, "SELECT DISTINCT pk FROM "+events(t))), []string{"0", "1", "2", "3"})
}

func TestSelectAggregates(t *testing.T) {
	e := events(t)
	var count int64
	var minV, maxV, sumV, avgV int
	var avgF float64
	var avgD = decimal("0")
	scan(t, "SELECT COUNT(*), MIN(v), MAX(v), SUM(v), AVG(v), AVG(d), AVG(f) FROM "+e+" WHERE pk = 1", nil,
		&count, &minV, &maxV, &sumV, &avgV, &avgD, &avgF)
	assertEqual(t, "aggregates", fmt.Sprint(count, minV, maxV, sumV, avgV, avgF), "5 10 14 60 12 6")
	if avgD.Cmp(decimal("3")) != 0 {
		t.Errorf("AVG(decimal): got %v, want 3", avgD)
	}
	// AVG of an int column is an int, truncated.
	scan(t, "SELECT AVG(c) FROM "+e+" WHERE pk = 0 AND c IN (0, 1)", nil, &avgV)
	assertEqual(t, "AVG truncates", avgV, 0)
	var nothing *int
	scan(t, "SELECT COUNT(v), MAX(v) FROM "+e+" WHERE pk = 99", nil, &count, &nothing)
	if count != 0 || nothing != nil {
		t.Errorf("aggregates of no rows: count %d max %v", count, nothing)
	}
	iter := session.Query("SELECT count(*) AS n, sum(v) AS total FROM " + e).Iter()
	names := []string{iter.Columns()[0].Name, iter.Columns()[1].Name}
	var total int
	iter.Scan(&count, &total)
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "aliases", names, []string{"n", "total"})
	assertEqual(t, "totals", fmt.Sprint(count, total), "20 340")
}

func TestSelectWritetimeTTLToken(t *testing.T) {
	name := newTable(t, "pk text PRIMARY KEY, v int")
	exec(t, "INSERT INTO "+name+" (pk, v) VALUES ('k', 1) USING TIMESTAMP 1234567 AND TTL 500")
	var wt int64
	var ttl int
	var token int64
	scan(t, "SELECT WRITETIME(v), TTL(v), token(pk) FROM "+name+" WHERE pk = 'k'", nil, &wt, &ttl, &token)
	assertEqual(t, "writetime", wt, int64(1234567))
	if ttl < 490 || ttl > 500 {
		t.Errorf("ttl %d", ttl)
	}
	// Murmur3 of the UTF-8 bytes of 'k', as every Cassandra driver computes it for routing.
	assertEqual(t, "token('k')", token, int64(5303797501861836210))

	e := events(t)
	iter := session.Query("SELECT DISTINCT pk, token(pk) FROM " + e).Iter()
	var pk int
	var tokens []int64
	var pks []int
	for iter.Scan(&pk, &token) {
		pks = append(pks, pk)
		tokens = append(tokens, token)
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	if !sort.SliceIsSorted(tokens, func(i, j int) bool { return tokens[i] < tokens[j] }) {
		t.Errorf("partitions not in token order: %v", tokens)
	}
	var after []string
	for _, p := range pks[1:] {
		after = append(after, fmt.Sprint(p))
	}
	assertEqual(t, "token range", rowsOf(t, "SELECT DISTINCT pk FROM "+e+" WHERE token(pk) > ?", tokens[0]), after)
}

func TestSelectAllowFiltering(t *testing.T) {
	e := events(t)
	requireErrCode(t, session.Query("SELECT * FROM "+e+" WHERE v = 12").Exec(), gocql.ErrCodeInvalid, "ALLOW FILTERING")
	assertEqual(t, "filter", rowsOf(t, "SELECT pk, c FROM "+e+" WHERE v = 12 ALLOW FILTERING"), []string{"1 2"})
	assertEqual(t, "filter in partition", rowsOf(t, "SELECT c FROM "+e+" WHERE pk = 3 AND tag = 'odd' ALLOW FILTERING"),
		[]string{"1", "3"})
}

func TestSelectJSONAndInsertJSON(t *testing.T) {
	e := events(t)
	iter := session.Query("SELECT JSON pk, c, v, tag FROM " + e + " WHERE pk = 1 AND c = 2").Iter()
	assertEqual(t, "json column", iter.Columns()[0].Name, "[json]")
	var doc string
	iter.Scan(&doc)
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	var got map[string]interface{}
	if err := json.Unmarshal([]byte(doc), &got); err != nil {
		t.Fatalf("%q: %v", doc, err)
	}
	want := map[string]interface{}{"pk": 1.0, "c": 2.0, "v": 12.0, "tag": "even"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SELECT JSON: got %v, want %v", got, want)
	}

	name := newTable(t, "pk int PRIMARY KEY, t text, l list<int>, m map<text, boolean>")
	exec(t, "INSERT INTO "+name+" JSON ?", `{"pk": 1, "t": "hi", "l": [1, 2], "m": {"x": true}}`)
	assertEqual(t, "after INSERT JSON", rowsOf(t, "SELECT t, l, m FROM "+name+" WHERE pk = 1"),
		[]string{"hi [1 2] map[x:true]"})
	exec(t, "INSERT INTO "+name+` JSON '{"pk": 1, "t": "only t"}' DEFAULT UNSET`)
	assertEqual(t, "DEFAULT UNSET keeps l", rowsOf(t, "SELECT l FROM "+name+" WHERE pk = 1"), []string{"[1 2]"})
	exec(t, "INSERT INTO "+name+` JSON '{"pk": 1, "t": "only t"}'`)
	assertEqual(t, "DEFAULT NULL clears l", rowsOf(t, "SELECT l FROM "+name+" WHERE pk = 1"), []string{"[]"})
	scan(t, "SELECT JSON t FROM "+name+" WHERE pk = 1", nil, &doc)
	assertEqual(t, "SELECT JSON", doc, `{"t": "only t"}`)
}
