package compat

import (
	"fmt"
	"testing"
	"time"
)

// rowsOf runs a query and renders every row as fmt.Sprint of its columns, one string per row.
func rowsOf(t *testing.T, stmt string, values ...interface{}) []string {
	t.Helper()
	iter := session.Query(stmt, values...).Iter()
	cols := iter.Columns()
	rows, err := iter.SliceMap()
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	out := []string{}
	for _, r := range rows {
		s := ""
		for i, c := range cols {
			if i > 0 {
				s += " "
			}
			s += fmt.Sprint(r[c.Name])
		}
		out = append(out, s)
	}
	return out
}

func TestInsertUpdateDelete(t *testing.T) {
	name := newTable(t, "pk int, c int, a text, b int, PRIMARY KEY (pk, c)")
	exec(t, "INSERT INTO "+name+" (pk, c, a, b) VALUES (1, 1, 'one', 1)")
	exec(t, "UPDATE "+name+" SET a = 'uno' WHERE pk = 1 AND c = 1")
	exec(t, "UPDATE "+name+" SET b = 2 WHERE pk = 1 AND c = 2")
	assertEqual(t, "after upserts", rowsOf(t, "SELECT c, a, b FROM "+name+" WHERE pk = 1"),
		[]string{"1 uno 1", "2  2"})
	exec(t, "DELETE a FROM "+name+" WHERE pk = 1 AND c = 1")
	exec(t, "DELETE FROM "+name+" WHERE pk = 1 AND c = 1")
	assertEqual(t, "after deletes", rowsOf(t, "SELECT c FROM "+name+" WHERE pk = 1"), []string{"2"})
	// A row made by UPDATE has no row marker: without its last cell it is gone.
	exec(t, "DELETE b FROM "+name+" WHERE pk = 1 AND c = 2")
	assertEqual(t, "row without cells", rowsOf(t, "SELECT * FROM "+name+" WHERE pk = 1"), []string{})

	for c := 0; c < 5; c++ {
		exec(t, "INSERT INTO "+name+" (pk, c) VALUES (2, ?)", c)
	}
	exec(t, "DELETE FROM "+name+" WHERE pk = 2 AND c >= 1 AND c < 3")
	assertEqual(t, "range delete", rowsOf(t, "SELECT c FROM "+name+" WHERE pk = 2"), []string{"0", "3", "4"})
	exec(t, "DELETE FROM "+name+" WHERE pk = 2")
	assertEqual(t, "partition delete", rowsOf(t, "SELECT c FROM "+name+" WHERE pk = 2"), []string{})
}

func TestUsingTTL(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, a text, b text")
	exec(t, "INSERT INTO "+name+" (pk, a, b) VALUES (1, 'x', 'y') USING TTL 1000")
	exec(t, "UPDATE "+name+" USING TTL ? SET b = 'short' WHERE pk = 1", 2)
	var ttlA, ttlB int
	scan(t, "SELECT TTL(a), TTL(b) FROM "+name+" WHERE pk = 1", nil, &ttlA, &ttlB)
	if ttlA < 990 || ttlA > 1000 || ttlB < 1 || ttlB > 2 {
		t.Errorf("ttl(a)=%d ttl(b)=%d", ttlA, ttlB)
	}
	exec(t, "INSERT INTO "+name+" (pk, a) VALUES (2, 'forever')")
	var none *int
	scan(t, "SELECT TTL(a) FROM "+name+" WHERE pk = 2", nil, &none)
	if none != nil {
		t.Errorf("ttl of a cell without TTL: got %d, want null", *none)
	}
	exec(t, "INSERT INTO "+name+" (pk, a) VALUES (3, 'gone') USING TTL 1")
	deadline := time.Now().Add(5 * time.Second)
	for len(rowsOf(t, "SELECT pk FROM "+name+" WHERE pk = 3")) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("row with TTL 1 still visible after 5 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestUsingTimestampOrdersWrites(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, v text")
	exec(t, "INSERT INTO "+name+" (pk, v) VALUES (1, 'newer') USING TIMESTAMP 2000")
	exec(t, "INSERT INTO "+name+" (pk, v) VALUES (1, 'older') USING TIMESTAMP 1000")
	assertEqual(t, "newer wins", rowsOf(t, "SELECT v, WRITETIME(v) FROM "+name+" WHERE pk = 1"), []string{"newer 2000"})
	exec(t, "DELETE FROM "+name+" USING TIMESTAMP 1500 WHERE pk = 1")
	assertEqual(t, "older delete", rowsOf(t, "SELECT v FROM "+name+" WHERE pk = 1"), []string{"newer"})
	exec(t, "DELETE FROM "+name+" USING TIMESTAMP 3000 WHERE pk = 1")
	exec(t, "INSERT INTO "+name+" (pk, v) VALUES (1, 'stale') USING TIMESTAMP 2500")
	assertEqual(t, "shadowed", rowsOf(t, "SELECT v FROM "+name+" WHERE pk = 1"), []string{})
	// Same timestamp: the larger value wins, whatever the order of arrival.
	exec(t, "INSERT INTO "+name+" (pk, v) VALUES (2, 'b') USING TIMESTAMP 10")
	exec(t, "INSERT INTO "+name+" (pk, v) VALUES (2, 'a') USING TIMESTAMP 10")
	assertEqual(t, "tie", rowsOf(t, "SELECT v FROM "+name+" WHERE pk = 2"), []string{"b"})
	// The driver-side timestamp of a query, too.
	if err := session.Query("INSERT INTO " + name + " (pk, v) VALUES (3, 'client')").WithTimestamp(777).Exec(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "client timestamp", rowsOf(t, "SELECT WRITETIME(v) FROM "+name+" WHERE pk = 3"), []string{"777"})
}

func TestCollectionUpdates(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, l list<text>, s set<int>, m map<text, int>")
	exec(t, "INSERT INTO "+name+" (pk, l, s, m) VALUES (1, ['b'], {3, 1}, {'a': 1})")
	exec(t, "UPDATE "+name+" SET l = l + ['c', 'd'] WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET l = ['a'] + l WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET l[1] = 'B' WHERE pk = 1")
	exec(t, "DELETE l[0] FROM "+name+" WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET l = l - ['c'] WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET s = s + {2, 3} WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET s = s - {1, 99} WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET m['b'] = 2 WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET m = m + {'c': 3, 'a': 10} WHERE pk = 1")
	exec(t, "DELETE m['b'] FROM "+name+" WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET m = m - {'c'} WHERE pk = 1")
	exec(t, "UPDATE "+name+" SET l = l + ?, s = s + ? WHERE pk = 1", []string{"z"}, []int{7})
	var l []string
	var s []int
	var m map[string]int
	scan(t, "SELECT l, s, m FROM "+name+" WHERE pk = 1", nil, &l, &s, &m)
	assertEqual(t, "list", l, []string{"B", "d", "z"})
	assertEqual(t, "set", s, []int{2, 3, 7})
	assertEqual(t, "map", m, map[string]int{"a": 10})
	var a int
	scan(t, "SELECT m['a'] FROM "+name+" WHERE pk = 1", nil, &a)
	assertEqual(t, "map element", a, 10)
}

func TestCounters(t *testing.T) {
	name := newTable(t, "pk text, c int, hits counter, misses counter, PRIMARY KEY (pk, c)")
	for i := 0; i < 3; i++ {
		exec(t, "UPDATE "+name+" SET hits = hits + 2, misses = misses - 1 WHERE pk = 'a' AND c = 1")
	}
	exec(t, "UPDATE "+name+" SET hits = hits + ? WHERE pk = ? AND c = ?", int64(10), "a", 1)
	assertEqual(t, "counters", rowsOf(t, "SELECT hits, misses FROM "+name+" WHERE pk = 'a' AND c = 1"),
		[]string{"16 -3"})
	exec(t, "DELETE FROM "+name+" WHERE pk = 'a' AND c = 1")
	assertEqual(t, "deleted", rowsOf(t, "SELECT * FROM "+name+" WHERE pk = 'a'"), []string{})
}

func TestLightweightTransactions(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, v int")
	var v int
	applied, err := session.Query("INSERT INTO " + name + " (pk, v) VALUES (1, 1) IF NOT EXISTS").ScanCAS()
	if err != nil || !applied {
		t.Fatalf("first insert: applied=%v err=%v", applied, err)
	}
	var pk int
	applied, err = session.Query("INSERT INTO "+name+" (pk, v) VALUES (1, 2) IF NOT EXISTS").ScanCAS(&pk, &v)
	if err != nil || applied || v != 1 {
		t.Fatalf("second insert: applied=%v v=%d err=%v", applied, v, err)
	}
	applied, err = session.Query("UPDATE "+name+" SET v = 3 WHERE pk = 1 IF v = ?", 1).ScanCAS(&v)
	if err != nil || !applied {
		t.Fatalf("conditional update: applied=%v err=%v", applied, err)
	}
	applied, err = session.Query("UPDATE " + name + " SET v = 4 WHERE pk = 1 IF v = 1").ScanCAS(&v)
	if err != nil || applied || v != 3 {
		t.Fatalf("failed condition: applied=%v v=%d err=%v", applied, v, err)
	}
	// Applied conditional statements return the row as it was before them, as ScyllaDB does.
	previous := map[string]interface{}{}
	applied, err = session.Query("DELETE FROM " + name + " WHERE pk = 1 IF EXISTS").MapScanCAS(previous)
	if err != nil || !applied || previous["v"] != 3 {
		t.Fatalf("delete if exists: applied=%v previous=%v err=%v", applied, previous, err)
	}
	assertEqual(t, "after delete", rowsOf(t, "SELECT * FROM "+name+" WHERE pk = 1"), []string{})
}
