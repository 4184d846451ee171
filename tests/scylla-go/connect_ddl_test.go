package scyllacompat

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

// The driver sees SCYLLA_LWT_ADD_METADATA_MARK and takes every node for ScyllaDB
// (and so appends USING TIMEOUT to its system queries, which must have worked
// for the session to exist), but finds no shard information: it keeps one
// plain connection pool per node, without the shard-aware port.
func TestTakesEveryNodeForScyllaWithoutShards(t *testing.T) {
	var peers int
	iter := session.Query("SELECT peer FROM system.peers").Iter()
	var peer string
	for iter.Scan(&peer) {
		peers++
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	hosts := session.GetHosts()
	assertEqual(t, "hosts the driver knows", len(hosts), peers+1)
	for _, h := range hosts {
		f := h.ScyllaFeatures()
		if !f.IsPresent() {
			t.Errorf("%s: not taken for ScyllaDB", h.ConnectAddress())
		}
		assertEqual(t, h.ConnectAddress().String()+" LWT mask", f.LWTFlagMask(), 1<<31)
		assertEqual(t, h.ConnectAddress().String()+" shards", f.ShardsCount(), 0)
		assertEqual(t, h.ConnectAddress().String()+" shard-aware port", f.ShardAwarePort(), uint16(0))
		assertEqual(t, h.ConnectAddress().String()+" rate-limit error code", f.RateLimitErrorCode(), 0)
	}
}

func TestNegotiatesProtocolV4ByDefaultAndV5WhenAsked(t *testing.T) {
	var native string
	scan(t, "SELECT native_protocol_version FROM system.local", nil, &native)
	assertEqual(t, "default protocol", lastResponseVersion.Load(), int32(4))
	if n, err := strconv.Atoi(native); err != nil || n < 4 {
		t.Errorf("system.local native_protocol_version %q", native)
	}

	c := newCluster()
	c.ProtoVersion = 5
	var v5 atomic.Int32
	c.FrameHeaderObserver = versionObserver{&v5}
	s, err := c.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var key string
	if err := s.Query("SELECT key FROM system.local").Scan(&key); err != nil {
		t.Fatal(err)
	}
	assertEqual(t, "system.local key", key, "local")
	assertEqual(t, "protocol", v5.Load(), int32(5))
}

// Schema metadata goes through the driver's system queries (with USING TIMEOUT)
// and ScyllaDB's system_schema.scylla_tables; token-aware routing needs it.
func TestTableDdlAndSchemaMetadata(t *testing.T) {
	table := newTable(t, "pk int, c text, v int, PRIMARY KEY (pk, c)")
	exec(t, "CREATE TABLE IF NOT EXISTS "+table+" (pk int PRIMARY KEY)")
	exec(t, "ALTER TABLE "+table+" ADD extra list<text>")

	// The driver refreshes its metadata on the SCHEMA_CHANGE events, after the DDL has returned.
	meta := awaitTable(t, table, func(m *gocql.TableMetadata) bool { return m.Columns["extra"] != nil })
	assertEqual(t, "partition key", meta.PartitionKey[0].Name, "pk")
	assertEqual(t, "clustering", meta.ClusteringColumns[0].Name, "c")

	var scyllaTable string
	scan(t, "SELECT table_name FROM system_schema.scylla_tables WHERE keyspace_name = ? AND table_name = ?",
		[]any{keyspace, table}, &scyllaTable)
	assertEqual(t, "scylla_tables row", scyllaTable, table)

	exec(t, "DROP TABLE "+table)
	exec(t, "DROP TABLE IF EXISTS "+table)
	awaitMetadata(t, "table "+table+" gone from the keyspace metadata", func() bool {
		ks, err := session.KeyspaceMetadata(keyspace)
		return err == nil && ks.Tables[table] == nil
	})
}

// awaitTable waits until the driver's metadata of table satisfies done.
func awaitTable(t *testing.T, table string, done func(*gocql.TableMetadata) bool) *gocql.TableMetadata {
	t.Helper()
	var meta *gocql.TableMetadata
	awaitMetadata(t, "metadata of table "+table, func() bool {
		m, err := session.TableMetadata(keyspace, table)
		meta = m
		return err == nil && done(m)
	})
	return meta
}

// awaitMetadata polls the driver's schema metadata until ready holds, for at most 30 s.
func awaitMetadata(t *testing.T, what string, ready func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ready(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not there after 30 s", what)
		}
	}
}
