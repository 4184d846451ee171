package compat

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

const (
	partitions       = 7
	rowsPerPartition = 13
)

var pagedOnce sync.Once

func paged(t *testing.T) string {
	t.Helper()
	pagedOnce.Do(func() {
		exec(t, "CREATE TABLE IF NOT EXISTS paged (pk int, c int, v text, PRIMARY KEY (pk, c))")
		for pk := 0; pk < partitions; pk++ {
			for c := 0; c < rowsPerPartition; c++ {
				exec(t, "INSERT INTO paged (pk, c, v) VALUES (?, ?, ?)", pk, c, fmt.Sprintf("v%d.%d", pk, c))
			}
		}
	})
	return "paged"
}

// readPages fetches a query page by page through explicit paging states and
// returns how often each (pk, c) came back and how many pages it took.
func readPages(t *testing.T, stmt string, pageSize int) (map[[2]int]int, int) {
	t.Helper()
	seen := map[[2]int]int{}
	var state []byte
	pages := 0
	for {
		pages++
		if pages > 1000 {
			t.Fatalf("paging did not terminate")
		}
		iter := session.Query(stmt).PageSize(pageSize).PageState(state).Iter()
		if n := iter.NumRows(); n > pageSize {
			t.Fatalf("page of %d rows for page size %d", n, pageSize)
		}
		var pk, c int
		var v string
		for iter.Scan(&pk, &c, &v) {
			if v != fmt.Sprintf("v%d.%d", pk, c) {
				t.Errorf("row (%d, %d) has v %q", pk, c, v)
			}
			seen[[2]int{pk, c}]++
		}
		state = iter.PageState()
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		if len(state) == 0 {
			return seen, pages
		}
	}
}

func TestPagingReturnsEveryRowOnce(t *testing.T) {
	p := paged(t)
	for _, size := range []int{1, 5, 13, 50} {
		seen, pages := readPages(t, "SELECT pk, c, v FROM "+p, size)
		if len(seen) != partitions*rowsPerPartition {
			t.Errorf("page size %d: %d distinct rows, want %d", size, len(seen), partitions*rowsPerPartition)
		}
		for key, n := range seen {
			if n != 1 {
				t.Errorf("page size %d: row %v came back %d times", size, key, n)
			}
		}
		if pages < partitions*rowsPerPartition/size {
			t.Errorf("page size %d: only %d pages", size, pages)
		}
	}
}

func TestPagingTransparentIteration(t *testing.T) {
	p := paged(t)
	iter := session.Query("SELECT pk, c FROM " + p + " WHERE pk IN (1, 2, 3)").PageSize(4).Iter()
	seen := map[[2]int]bool{}
	var pk, c int
	for iter.Scan(&pk, &c) {
		key := [2]int{pk, c}
		if seen[key] {
			t.Errorf("row %v twice", key)
		}
		seen[key] = true
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "rows", len(seen), 3*rowsPerPartition)
	desc := rowsOf(t, "SELECT c FROM "+p+" WHERE pk = 4 ORDER BY c DESC")
	assertEqual(t, "first of reversed partition", desc[0], "12")
	assertEqual(t, "reversed partition", len(desc), rowsPerPartition)
}

func TestLoggedAndUnloggedBatches(t *testing.T) {
	name := newTable(t, "pk int, c int, v text, PRIMARY KEY (pk, c)")
	for i, typ := range []gocql.BatchType{gocql.LoggedBatch, gocql.UnloggedBatch} {
		base := 10 * i
		b := session.Batch(typ)
		for j := 0; j < 3; j++ {
			b.Query("INSERT INTO "+name+" (pk, c, v) VALUES (?, ?, ?)", base+j, j, fmt.Sprintf("b%d", j))
		}
		b.Query("UPDATE "+name+" SET v = ? WHERE pk = ? AND c = ?", "updated", base, 0)
		b.Query(fmt.Sprintf("DELETE FROM %s WHERE pk = %d AND c = 2", name, base+2))
		if err := b.Exec(); err != nil {
			t.Fatalf("batch type %d: %v", typ, err)
		}
		assertEqual(t, "batch result", sorted(rowsOf(t, "SELECT pk, c, v FROM "+name+" WHERE pk IN ?",
			[]int{base, base + 1, base + 2})), []string{fmt.Sprintf("%d 0 updated", base), fmt.Sprintf("%d 1 b1", base+1)})
	}
	exec(t, "BEGIN BATCH INSERT INTO "+name+" (pk, c, v) VALUES (100, 1, 'text') USING TIMESTAMP 50; "+
		"INSERT INTO "+name+" (pk, c, v) VALUES (100, 2, 'batch'); APPLY BATCH")
	exec(t, "BEGIN UNLOGGED BATCH USING TIMESTAMP 60 UPDATE "+name+" SET v = 'later' WHERE pk = 100 AND c = 1; APPLY BATCH")
	assertEqual(t, "CQL batches", rowsOf(t, "SELECT c, v, WRITETIME(v) FROM "+name+" WHERE pk = 100 AND c = 1"),
		[]string{"1 later 60"})
}

// TestConditionalBatch: a batch with conditions on two rows and a static column of one partition is one LWT, applied
// all or nothing; when not applied, MapExecCAS and the iterator give each conditioned row with its key.
func TestConditionalBatch(t *testing.T) {
	name := newTable(t, "pk int, c int, s int static, v int, PRIMARY KEY (pk, c)")
	insert := "INSERT INTO " + name + " (pk, c, v) VALUES (?, ?, ?) IF NOT EXISTS"
	update := "UPDATE " + name + " SET v = ? WHERE pk = ? AND c = ? IF v = ? AND s = ?"
	plain := "INSERT INTO " + name + " (pk, c, v) VALUES (?, ?, ?)"
	created := session.Batch(gocql.LoggedBatch)
	created.Query(insert, 1, 1, 10)
	created.Query(insert, 1, 2, 20)
	created.Query("UPDATE "+name+" SET s = ? WHERE pk = ?", 5, 1)
	if applied, iter, err := created.MapExecCAS(map[string]interface{}{}); err != nil || !applied {
		t.Fatalf("creating batch: applied=%v err=%v", applied, err)
	} else {
		iter.Close()
	}

	stale := session.Batch(gocql.LoggedBatch)
	stale.Query(update, 11, 1, 1, 10, 5)
	stale.Query(update, 21, 1, 2, 20, 4)
	stale.Query(plain, 1, 3, 30)
	row := map[string]interface{}{}
	applied, iter, err := stale.MapExecCAS(row)
	if err != nil || applied {
		t.Fatalf("stale batch: applied=%v err=%v", applied, err)
	}
	seen := []string{fmt.Sprintf("%v %v %v %v", row["pk"], row["c"], row["s"], row["v"])}
	for row = map[string]interface{}{}; iter.MapScan(row); row = map[string]interface{}{} {
		seen = append(seen, fmt.Sprintf("%v %v %v %v %v", row["[applied]"], row["pk"], row["c"], row["s"], row["v"]))
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "conditioned rows", seen, []string{"1 1 5 10", "false 1 2 5 20"})

	fresh := session.Batch(gocql.UnloggedBatch)
	fresh.Query(update, 11, 1, 1, 10, 5)
	fresh.Query(update, 21, 1, 2, 20, 5)
	fresh.Query(plain, 1, 3, 30)
	if applied, iter, err := fresh.MapExecCAS(map[string]interface{}{}); err != nil || !applied {
		t.Fatalf("fresh batch: applied=%v err=%v", applied, err)
	} else {
		iter.Close()
	}
	serial := session.Query("SELECT c, v FROM " + name + " WHERE pk = 1").Consistency(gocql.Serial).Iter()
	var c, v int
	got := []string{}
	for serial.Scan(&c, &v) {
		got = append(got, fmt.Sprintf("%d %d", c, v))
	}
	if err := serial.Close(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "after the batch", got, []string{"1 11", "2 21", "3 30"})
}

// A BATCH with conditions over several partitions is one transaction (Ballot's extension; Cassandra refuses it): every
// statement is written if and only if every condition holds, and concurrent transfers never change the total.
func TestMultiPartitionConditionalBatch(t *testing.T) {
	name := newTable(t, "id int PRIMARY KEY, balance int")
	for id := 0; id < 4; id++ {
		if err := session.Query("INSERT INTO "+name+" (id, balance) VALUES (?, 100)", id).Exec(); err != nil {
			t.Fatal(err)
		}
	}
	set := "UPDATE " + name + " SET balance = ? WHERE id = ? IF balance = ?"
	transfer := session.Batch(gocql.LoggedBatch)
	transfer.Query(set, 70, 0, 100)
	transfer.Query(set, 130, 1, 100)
	if applied, iter, err := transfer.MapExecCAS(map[string]interface{}{}); err != nil || !applied {
		t.Fatalf("transfer: applied=%v err=%v", applied, err)
	} else {
		iter.Close()
	}
	stale := session.Batch(gocql.LoggedBatch)
	stale.Query(set, 60, 0, 70)
	stale.Query(set, 140, 1, 100)
	row := map[string]interface{}{}
	applied, iter, err := stale.MapExecCAS(row)
	if err != nil || applied {
		t.Fatalf("stale transfer: applied=%v err=%v", applied, err)
	}
	iter.Close()
	read := func(id int) (int, error) {
		var b int
		err := session.Query("SELECT balance FROM "+name+" WHERE id = ?", id).Consistency(gocql.Serial).Scan(&b)
		return b, err
	}
	balance := func(id int) int {
		b, err := read(id)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	assertEqual(t, "balances after a refused transfer", []int{balance(0), balance(1)}, []int{70, 130})

	var wg sync.WaitGroup
	var moved int64
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for n := 0; n < 15; n++ {
				from, to := (w+n)%4, (w+n+1+n%3)%4
				if from == to {
					continue
				}
				a, errA := read(from)
				b, errB := read(to)
				if errA != nil || errB != nil || a < 5 {
					continue // a SERIAL read that timed out under contention: try another transfer
				}
				batch := session.Batch(gocql.LoggedBatch)
				batch.Query(set, a-5, from, a)
				batch.Query(set, b+5, to, b)
				applied, iter, err := batch.MapExecCAS(map[string]interface{}{})
				if _, unknown := err.(*gocql.RequestErrWriteTimeout); unknown {
					continue // contended and undecided in time: it may apply or not, and the total holds either way
				}
				if err != nil {
					t.Errorf("transfer %d->%d: %v", from, to, err)
					return
				}
				iter.Close()
				if applied {
					atomic.AddInt64(&moved, 1)
				}
			}
		}(w)
	}
	wg.Wait()
	total := 0
	for id := 0; id < 4; id++ {
		total += balance(id)
	}
	assertEqual(t, "total after concurrent transfers", total, 400)
	if moved == 0 {
		t.Fatal("no concurrent transfer applied")
	}
}

func TestCounterBatch(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, n counter")
	b := session.Batch(gocql.CounterBatch)
	for i := 0; i < 3; i++ {
		b.Query("UPDATE "+name+" SET n = n + ? WHERE pk = ?", int64(i+1), i)
	}
	b.Query("UPDATE "+name+" SET n = n + ? WHERE pk = ?", int64(10), 0)
	if err := b.Exec(); err != nil {
		t.Fatal(err)
	}
	exec(t, "BEGIN COUNTER BATCH UPDATE "+name+" SET n = n - 1 WHERE pk = 2; APPLY BATCH")
	assertEqual(t, "counters", sorted(rowsOf(t, "SELECT pk, n FROM "+name)), []string{"0 11", "1 2", "2 2"})
}

func TestPreparedPositionalAndNamedMarkers(t *testing.T) {
	name := newTable(t, "pk int, c int, v text, PRIMARY KEY (pk, c)")
	exec(t, "INSERT INTO "+name+" (pk, c, v) VALUES (?, ?, ?)", 1, 1, "pos")
	exec(t, "INSERT INTO "+name+" (pk, c, v) VALUES (:p, :cc, :value)",
		gocql.NamedValue("p", 1), gocql.NamedValue("cc", 2), gocql.NamedValue("value", "named"))
	exec(t, "INSERT INTO "+name+" (pk, c, v) VALUES (:p, :cc, :value)", 1, 3, "positional values for named markers")
	assertEqual(t, "rows", rowsOf(t, "SELECT c, v FROM "+name+" WHERE pk = :pk AND c >= :lo LIMIT :n",
		gocql.NamedValue("pk", 1), gocql.NamedValue("lo", 2), gocql.NamedValue("n", 5)),
		[]string{"2 named", "3 positional values for named markers"})
	exec(t, "UPDATE "+name+" USING TTL ? AND TIMESTAMP ? SET v = ? WHERE pk = ? AND c = ?", 300, int64(5000), "ttl", 1, 9)
	assertEqual(t, "writetime", rowsOf(t, "SELECT WRITETIME(v) FROM "+name+" WHERE pk = 1 AND c = 9"), []string{"5000"})
	// The same statement run many times goes through one prepared id.
	for i := 0; i < 20; i++ {
		exec(t, "INSERT INTO "+name+" (pk, c, v) VALUES (?, ?, ?)", 2, i, "many")
	}
	var n int64
	scan(t, "SELECT COUNT(*) FROM "+name+" WHERE pk = ?", []interface{}{2}, &n)
	assertEqual(t, "count", n, int64(20))
	// An unset value leaves the column as it was.
	exec(t, "INSERT INTO "+name+" (pk, c, v) VALUES (?, ?, ?)", 2, 0, gocql.UnsetValue)
	assertEqual(t, "unset", rowsOf(t, "SELECT v FROM "+name+" WHERE pk = 2 AND c = 0"), []string{"many"})
}

// ALTER TABLE ... ADD drops the table's prepared statements: the next execution of a statement prepared before it
// is answered UNPREPARED, and gocql prepares it again and scans the rows with the new result metadata.
func TestPreparedSelectSeesAColumnAddedAfterPrepare(t *testing.T) {
	for _, version := range []int{4, 0} {
		t.Run(fmt.Sprintf("protocol %d (0: negotiated)", version), func(t *testing.T) {
			name := newTable(t, "pk int PRIMARY KEY, a text")
			exec(t, "INSERT INTO "+name+" (pk, a) VALUES (1, 'a')")
			c := newCluster()
			c.Keyspace = keyspace
			c.ProtoVersion = version
			s, err := c.CreateSession()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			stmt := "SELECT * FROM " + name + " WHERE pk = ?"
			before := map[string]interface{}{}
			if err := s.Query(stmt, 1).MapScan(before); err != nil {
				t.Fatal(err)
			}
			assertEqual(t, "row before ALTER", before, map[string]interface{}{"pk": 1, "a": "a"})

			exec(t, "ALTER TABLE "+name+" ADD b text")
			exec(t, "UPDATE "+name+" SET b = 'new' WHERE pk = 1")

			after := map[string]interface{}{}
			if err := s.Query(stmt, 1).MapScan(after); err != nil {
				t.Fatal(err)
			}
			assertEqual(t, "row after ALTER", after, map[string]interface{}{"pk": 1, "a": "a", "b": "new"})
			t.Logf("protocol v%d", lastResponseVersion.Load())
		})
	}
}
