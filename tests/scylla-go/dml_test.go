package scyllacompat

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/gocql/gocql"
)

func TestPreparedInsertAndSelect(t *testing.T) {
	table := newTable(t, "pk int, c int, v text, PRIMARY KEY (pk, c)")
	insert := "INSERT INTO " + table + " (pk, c, v) VALUES (?, ?, ?)"
	for c := 0; c < 3; c++ {
		exec(t, insert, 1, c, fmt.Sprintf("v%d", c))
	}
	var v string
	scan(t, "SELECT v FROM "+table+" WHERE pk = ? AND c = ?", []any{1, 2}, &v)
	assertEqual(t, "v", v, "v2")

	iter := session.Query("SELECT c, v FROM "+table+" WHERE pk = ? AND c >= ?", 1, 1).Iter()
	var got []string
	var c int
	for iter.Scan(&c, &v) {
		got = append(got, fmt.Sprintf("%d=%s", c, v))
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "rows", got, []string{"1=v1", "2=v2"})
}

func TestPagingReturnsEveryRowOnce(t *testing.T) {
	table := newTable(t, "pk int, c int, PRIMARY KEY (pk, c)")
	const partitions, rows = 5, 11
	for pk := 0; pk < partitions; pk++ {
		for c := 0; c < rows; c++ {
			exec(t, "INSERT INTO "+table+" (pk, c) VALUES (?, ?)", pk, c)
		}
	}
	for _, pageSize := range []int{1, 4, 11, 100} {
		t.Run("page size "+strconv.Itoa(pageSize), func(t *testing.T) {
			seen := map[[2]int]int{}
			var state []byte
			for pages := 1; ; pages++ {
				if pages > 1000 {
					t.Fatal("paging did not terminate")
				}
				iter := session.Query("SELECT pk, c FROM " + table).PageSize(pageSize).PageState(state).Iter()
				if n := iter.NumRows(); n > pageSize {
					t.Fatalf("page of %d rows for page size %d", n, pageSize)
				}
				var pk, c int
				for iter.Scan(&pk, &c) {
					seen[[2]int{pk, c}]++
				}
				state = iter.PageState()
				if err := iter.Close(); err != nil {
					t.Fatal(err)
				}
				if len(state) == 0 {
					break
				}
			}
			assertEqual(t, "distinct rows", len(seen), partitions*rows)
			for row, n := range seen {
				if n != 1 {
					t.Errorf("row %v read %d times", row, n)
				}
			}
		})
	}
}

func TestLoggedAndUnloggedBatches(t *testing.T) {
	table := newTable(t, "pk int, c int, v int, PRIMARY KEY (pk, c)")
	for _, typ := range []gocql.BatchType{gocql.LoggedBatch, gocql.UnloggedBatch} {
		b := session.Batch(typ)
		for pk := 0; pk < 3; pk++ {
			b.Query("INSERT INTO "+table+" (pk, c, v) VALUES (?, ?, ?)", pk, int(typ), pk*10)
		}
		if err := b.Exec(); err != nil {
			t.Fatalf("batch type %d: %v", typ, err)
		}
	}
	var n int
	scan(t, "SELECT count(*) FROM "+table, nil, &n)
	assertEqual(t, "rows written by the batches", n, 6)
}

func TestLightweightTransactions(t *testing.T) {
	table := newTable(t, "k int PRIMARY KEY, v int")
	insert := session.Query("INSERT INTO "+table+" (k, v) VALUES (?, ?) IF NOT EXISTS", 1, 10)
	applied, err := insert.MapScanCAS(map[string]any{})
	if err != nil || !applied {
		t.Fatalf("first IF NOT EXISTS: applied %v, %v", applied, err)
	}
	existing := map[string]any{}
	applied, err = session.Query("INSERT INTO "+table+" (k, v) VALUES (?, ?) IF NOT EXISTS", 1, 20).MapScanCAS(existing)
	if err != nil || applied {
		t.Fatalf("second IF NOT EXISTS: applied %v, %v", applied, err)
	}
	assertEqual(t, "current row", existing["v"], 10)
	var current int
	applied, err = session.Query("UPDATE "+table+" SET v = ? WHERE k = ? IF v = ?", 11, 1, 10).ScanCAS(&current)
	if err != nil || !applied {
		t.Fatalf("UPDATE IF v = 10: applied %v, %v", applied, err)
	}
	applied, err = session.Query("UPDATE "+table+" SET v = ? WHERE k = ? IF v = ?", 12, 1, 10).ScanCAS(&current)
	if err != nil || applied {
		t.Fatalf("UPDATE IF v = 10 again: applied %v, %v", applied, err)
	}
	assertEqual(t, "value that failed the condition", current, 11)
	if !insert.IsLWT() {
		t.Errorf("the driver did not learn from PREPARED that IF NOT EXISTS is an LWT")
	}
	plain := session.Query("SELECT v FROM "+table+" WHERE k = ?", 1)
	if err := plain.Scan(&current); err != nil {
		t.Fatal(err)
	}
	if plain.IsLWT() {
		t.Errorf("a plain SELECT is marked as an LWT")
	}
}

// coordinators records which node ran each attempt of a query.
type coordinators struct {
	mu    sync.Mutex
	hosts []string
}

func (c *coordinators) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hosts = append(c.hosts, q.Host.HostID())
}

// primaryReplica is the host owning token: the one with the smallest ring token
// at or after it, wrapping around. With SimpleStrategy that is the first replica.
func primaryReplica(t *testing.T, token int64) string {
	t.Helper()
	type owned struct {
		token int64
		host  string
	}
	var ring []owned
	for _, h := range session.GetHosts() {
		for _, s := range h.Tokens() {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("token %q of %s: %v", s, h.HostID(), err)
			}
			ring = append(ring, owned{v, h.HostID()})
		}
	}
	sort.Slice(ring, func(i, j int) bool { return ring[i].token < ring[j].token })
	for _, o := range ring {
		if o.token >= token {
			return o.host
		}
	}
	return ring[0].host
}

// Every execution of an LWT goes to the first replica of its partition, which the
// driver learns from the LWT mark of PREPARED: plain statements are shuffled
// among the replicas, so with RF > 1 only the mark explains the choice.
func TestEveryLwtGoesToTheFirstReplicaOfItsPartition(t *testing.T) {
	if len(session.GetHosts()) < 2 {
		t.Skip("one node: routing cannot be observed")
	}
	table := newTable(t, "k int PRIMARY KEY, v int")
	chosen := map[string]bool{}
	for k := 0; k < 30; k++ {
		var ran [][]string
		for attempt := 0; attempt < 3; attempt++ {
			seen := &coordinators{}
			q := session.Query("INSERT INTO "+table+" (k, v) VALUES (?, ?) IF NOT EXISTS", k, k).Observer(seen)
			applied, err := q.MapScanCAS(map[string]any{})
			if err != nil {
				t.Fatalf("k=%d attempt %d: %v", k, attempt, err)
			}
			assertEqual(t, fmt.Sprintf("k=%d attempt %d applied", k, attempt), applied, attempt == 0)
			ran = append(ran, seen.hosts)
		}
		var token int64
		scan(t, "SELECT token(k) FROM "+table+" WHERE k = ?", []any{k}, &token)
		primary := primaryReplica(t, token)
		assertEqual(t, fmt.Sprintf("k=%d coordinators of the attempts", k), ran, [][]string{{primary}, {primary}, {primary}})
		chosen[primary] = true
	}
	if len(chosen) < 2 {
		t.Errorf("the first replicas of 30 partitions are all one node: %v", chosen)
	}
}
