package compat

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/apache/cassandra-gocql-driver/v2/snappy"
)

func TestNegotiatesProtocolV4OrNewerWithLZ4(t *testing.T) {
	var release, cqlVersion, native string
	scan(t, "SELECT release_version, cql_version, native_protocol_version FROM system.local", nil,
		&release, &cqlVersion, &native)
	v := lastResponseVersion.Load()
	if v < 4 {
		t.Fatalf("negotiated protocol v%d; want v4 or newer", v)
	}
	if cqlVersion == "" || cqlVersion[0] != '3' {
		t.Errorf("cql_version %q; want 3.x", cqlVersion)
	}
	if n, err := strconv.Atoi(native); err != nil || int32(n) < v {
		t.Errorf("negotiated v%d but system.local says native_protocol_version %s", v, native)
	}
	if compressor.decompressed.Load() == 0 {
		t.Errorf("no lz4-compressed frame or segment was received")
	}
	t.Logf("protocol v%d, release_version %s", v, release)
}

func TestConnectsWithProtocolV4Forced(t *testing.T) {
	c := newCluster()
	c.ProtoVersion = 4
	s, err := c.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := compressor.decompressed.Load()
	var key string
	if err := s.Query("SELECT key FROM system.local").Scan(&key); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "system.local key", key, "local")
	assertEqual(t, "protocol version", lastResponseVersion.Load(), int32(4))
	if compressor.decompressed.Load() == before {
		t.Errorf("no lz4-compressed v4 frame was received")
	}
}

// Snappy, gocql's own built-in compressor, is served with v4 as Cassandra 5.0 serves it (v5 compresses segments
// with LZ4 only).
func TestSnappyWithProtocolV4(t *testing.T) {
	c := newCluster()
	c.ProtoVersion = 4
	counting := &countingCompressor{Compressor: snappy.SnappyCompressor{}}
	c.Compressor = counting
	s, err := c.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	name := newTable(t, "k int PRIMARY KEY, v text")
	long := strings.Repeat("snappy ", 500)
	if err := s.Query("INSERT INTO "+keyspace+"."+name+" (k, v) VALUES (1, ?)", long).Exec(); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := s.Query("SELECT v FROM " + keyspace + "." + name + " WHERE k = 1").Scan(&v); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "value through snappy both ways", v, long)
	if counting.decompressed.Load() == 0 {
		t.Errorf("no snappy-compressed v4 frame was received")
	}
}

func TestKeyspaceIfNotExistsAndAlreadyExists(t *testing.T) {
	create := "CREATE KEYSPACE %s %s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"
	exec(t, fmt.Sprintf(create, "IF NOT EXISTS", keyspace))
	err := session.Query(fmt.Sprintf(create, "", keyspace)).Exec()
	requireErrCode(t, err, gocql.ErrCodeAlreadyExists, keyspace)
	var exists *gocql.RequestErrAlreadyExists
	if !errors.As(err, &exists) {
		t.Fatalf("want *RequestErrAlreadyExists, got %T", err)
	}
	assertEqual(t, "keyspace", exists.Keyspace, keyspace)
	assertEqual(t, "table", exists.Table, "")
}

func TestAlterAndDropKeyspace(t *testing.T) {
	other := keyspace + "_b"
	exec(t, "CREATE KEYSPACE IF NOT EXISTS "+other+
		" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
	exec(t, "ALTER KEYSPACE "+other+
		" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} AND durable_writes = false")
	var durable bool
	var replication map[string]string
	scan(t, "SELECT durable_writes, replication FROM system_schema.keyspaces WHERE keyspace_name = ?",
		[]interface{}{other}, &durable, &replication)
	assertEqual(t, "durable_writes", durable, false)
	assertEqual(t, "replication", replication, map[string]string{
		"class": "org.apache.cassandra.locator.SimpleStrategy", "replication_factor": "1"})
	exec(t, "DROP KEYSPACE "+other)
	exec(t, "DROP KEYSPACE IF EXISTS "+other)
	requireErrCode(t, session.Query("DROP KEYSPACE "+other).Exec(), gocql.ErrCodeInvalid, "doesn't exist")
}

func TestCreateAlterDropTable(t *testing.T) {
	name := newTable(t, "pk int PRIMARY KEY, a text")
	exec(t, "CREATE TABLE IF NOT EXISTS "+name+" (pk int PRIMARY KEY, a text)")
	requireErrCode(t, session.Query("CREATE TABLE "+name+" (pk int PRIMARY KEY, a text)").Exec(),
		gocql.ErrCodeAlreadyExists, name)
	exec(t, "ALTER TABLE "+name+" ADD b int")
	exec(t, "ALTER TABLE "+name+" ADD (c boolean, d list<int>)")
	exec(t, "INSERT INTO "+name+" (pk, a, b, c, d) VALUES (1, 'x', 2, true, [3])")
	exec(t, "ALTER TABLE "+name+" DROP b")
	exec(t, "ALTER TABLE "+name+" WITH comment = 'compat suite'")
	iter := session.Query("SELECT * FROM " + name + " WHERE pk = 1").Iter()
	var cols []string
	for _, c := range iter.Columns() {
		cols = append(cols, c.Name)
	}
	row := map[string]interface{}{}
	if !iter.MapScan(row) {
		t.Fatalf("no row: %v", iter.Close())
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "columns after DROP b", cols, []string{"pk", "a", "c", "d"})
	assertEqual(t, "row", fmt.Sprintf("%v %v %v", row["a"], row["c"], row["d"]), "x true [3]")

	// The driver refreshes its schema metadata on the server's SCHEMA_CHANGE events, asynchronously.
	var table *gocql.TableMetadata
	for deadline := time.Now().Add(10 * time.Second); table == nil || len(table.OrderedColumns) != 4; {
		if time.Now().After(deadline) {
			t.Fatalf("table %s with 4 columns missing from driver metadata after 10 s: %+v", name, table)
		}
		time.Sleep(100 * time.Millisecond)
		md, err := session.KeyspaceMetadata(keyspace)
		if err != nil {
			t.Fatal(err)
		}
		table = md.Tables[name]
	}
	assertEqual(t, "partition key", table.PartitionKey[0].Name, "pk")
	var metaColumns []string
	for c := range table.Columns {
		metaColumns = append(metaColumns, c)
	}
	assertEqual(t, "metadata columns", sorted(metaColumns), []string{"a", "c", "d", "pk"})
	var comment string
	scan(t, "SELECT comment FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?",
		[]interface{}{keyspace, name}, &comment)
	assertEqual(t, "comment", comment, "compat suite")

	exec(t, "DROP TABLE "+name)
	exec(t, "DROP TABLE IF EXISTS "+name)
	requireErrCode(t, session.Query("SELECT * FROM "+name).Exec(), gocql.ErrCodeInvalid, name)
}

func TestCreateAlterDropType(t *testing.T) {
	exec(t, "CREATE TYPE IF NOT EXISTS go_point (x int, y int)")
	exec(t, "CREATE TYPE IF NOT EXISTS go_point (x int, y int)")
	// Unlike keyspaces and tables, an existing type is INVALID, not ALREADY_EXISTS.
	requireErrCode(t, session.Query("CREATE TYPE go_point (x int, y int)").Exec(), gocql.ErrCodeInvalid,
		"A user type with name 'go_point' already exists")
	exec(t, "ALTER TYPE go_point ADD z int")
	var names, types []string
	scan(t, "SELECT field_names, field_types FROM system_schema.types WHERE keyspace_name = ? AND type_name = ?",
		[]interface{}{keyspace, "go_point"}, &names, &types)
	assertEqual(t, "field names", names, []string{"x", "y", "z"})
	assertEqual(t, "field types", types, []string{"int", "int", "int"})
	exec(t, "DROP TYPE go_point")
	exec(t, "DROP TYPE IF EXISTS go_point")
	n := session.Query("SELECT * FROM system_schema.types WHERE keyspace_name = ? AND type_name = ?",
		keyspace, "go_point").Iter().NumRows()
	assertEqual(t, "rows for dropped type", n, 0)
}

func TestUseSwitchesKeyspace(t *testing.T) {
	s, err := newCluster().CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// gocql refuses USE on a pooled session, so it must go through the cluster's Keyspace setting;
	// the server must still accept USE on a connection, which the driver does when it connects.
	if err := s.Query("USE " + keyspace).Exec(); !errors.Is(err, gocql.ErrUseStmt) {
		t.Fatalf("gocql is expected to refuse USE on a session, got %v", err)
	}
	c := newCluster()
	c.Keyspace = keyspace
	ks, err := c.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close()
	if err := ks.Query("CREATE TABLE IF NOT EXISTS use_probe (pk int PRIMARY KEY)").Exec(); err != nil {
		t.Fatal(err)
	}
	if err := ks.Query("INSERT INTO use_probe (pk) VALUES (7)").Exec(); err != nil {
		t.Fatal(err)
	}
	var pk int
	scan(t, "SELECT pk FROM "+keyspace+".use_probe", nil, &pk)
	assertEqual(t, "pk", pk, 7)
}

func TestTruncate(t *testing.T) {
	name := newTable(t, "pk int, c int, PRIMARY KEY (pk, c)")
	for pk := 0; pk < 3; pk++ {
		for c := 0; c < 3; c++ {
			exec(t, "INSERT INTO "+name+" (pk, c) VALUES (?, ?)", pk, c)
		}
	}
	var n int64
	scan(t, "SELECT COUNT(*) FROM "+name, nil, &n)
	assertEqual(t, "count before", n, int64(9))
	exec(t, "TRUNCATE "+name)
	scan(t, "SELECT COUNT(*) FROM "+name, nil, &n)
	assertEqual(t, "count after TRUNCATE", n, int64(0))
	exec(t, "INSERT INTO "+name+" (pk, c) VALUES (1, 1)")
	exec(t, "TRUNCATE TABLE "+name)
	scan(t, "SELECT COUNT(*) FROM "+name, nil, &n)
	assertEqual(t, "count after TRUNCATE TABLE", n, int64(0))
}

func TestClusteringOrderDesc(t *testing.T) {
	name := newTable(t, "pk int, c1 int, c2 text, PRIMARY KEY (pk, c1, c2)", "WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)")
	for _, c1 := range []int{1, 3, 2} {
		for _, c2 := range []string{"b", "a"} {
			exec(t, "INSERT INTO "+name+" (pk, c1, c2) VALUES (0, ?, ?)", c1, c2)
		}
	}
	read := func(stmt string) string {
		iter := session.Query(stmt).Iter()
		var c1 int
		var c2, out string
		for iter.Scan(&c1, &c2) {
			out += fmt.Sprintf("%d%s ", c1, c2)
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	assertEqual(t, "stored order", read("SELECT c1, c2 FROM "+name+" WHERE pk = 0"), "3a 3b 2a 2b 1a 1b ")
	assertEqual(t, "reversed", read("SELECT c1, c2 FROM "+name+" WHERE pk = 0 ORDER BY c1 ASC, c2 DESC"),
		"1b 1a 2b 2a 3b 3a ")
}
