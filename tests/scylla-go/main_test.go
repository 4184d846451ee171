// Package scyllacompat is the suite of ScyllaDB's gocql fork (github.com/scylladb/gocql) against Ballot.
//
// The fork takes a server that announces ScyllaDB's protocol extensions for
// ScyllaDB, and then speaks ScyllaDB's CQL: USING TIMEOUT on its system
// queries, system.peers without peers_v2, system_schema.scylla_tables in the
// schema metadata, LWT routing by the LWT mark of PREPARED. The suite runs
// against BALLOT_HOST:BALLOT_PORT (default 127.0.0.1:9042) with a keyspace of
// replication factor BALLOT_RF (default 1) and a unique name, dropped at the
// end; every statement runs at BALLOT_CONSISTENCY (default ONE).
package scyllacompat

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

var (
	host        = envOr("BALLOT_HOST", "127.0.0.1")
	port        = envOr("BALLOT_PORT", "9042")
	rf          = envOr("BALLOT_RF", "1")
	consistency = gocql.ParseConsistency(envOr("BALLOT_CONSISTENCY", "ONE"))
	keyspace    string
	session     *gocql.Session

	// lastResponseVersion is the protocol version of the latest response frame of any session of newCluster.
	lastResponseVersion atomic.Int32
	tableSeq            atomic.Int32
)

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// versionObserver records the protocol version of the response frames it sees.
type versionObserver struct{ last *atomic.Int32 }

func (o versionObserver) ObserveFrameHeader(_ context.Context, h gocql.ObservedFrameHeader) {
	o.last.Store(int32(h.Version) & 0x7f)
}

func newCluster() *gocql.ClusterConfig {
	p, err := strconv.Atoi(port)
	if err != nil {
		panic("BALLOT_PORT is not a number: " + port)
	}
	c := gocql.NewCluster(host)
	c.Port = p
	c.Timeout = 20 * time.Second
	c.ConnectTimeout = 10 * time.Second
	c.NumConns = 1
	c.Consistency = consistency
	// Replicas are shuffled for plain statements; only the LWT mark makes the driver keep the ring order.
	c.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy(), gocql.ShuffleReplicas())
	c.FrameHeaderObserver = versionObserver{&lastResponseVersion}
	// Secure mode (tests/run-secure-suites.sh): log in as BALLOT_USER, and speak TLS trusting the CA in BALLOT_TLS_CA.
	if user := os.Getenv("BALLOT_USER"); user != "" {
		c.Authenticator = gocql.PasswordAuthenticator{Username: user, Password: os.Getenv("BALLOT_PASSWORD")}
	}
	if ca := os.Getenv("BALLOT_TLS_CA"); ca != "" {
		// without host verification gocql checks no certificate at all; the node's certificate names its address
		c.SslOpts = &gocql.SslOptions{CaPath: ca, EnableHostVerification: true}
	}
	return c
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	keyspace = fmt.Sprintf("ballot_scylla_go_%s_%s", time.Now().UTC().Format("20060102150405"), hex.EncodeToString(b[:]))

	admin, err := newCluster().CreateSession()
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot connect to %s:%s: %v\n", host, port, err)
		return 1
	}
	defer admin.Close()
	if err := admin.Query("CREATE KEYSPACE " + keyspace +
		" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + rf + "}").Exec(); err != nil {
		fmt.Fprintf(os.Stderr, "create keyspace %s: %v\n", keyspace, err)
		return 1
	}
	defer func() {
		if err := admin.Query("DROP KEYSPACE IF EXISTS " + keyspace).Exec(); err != nil {
			fmt.Fprintf(os.Stderr, "drop keyspace %s: %v\n", keyspace, err)
		}
	}()

	cluster := newCluster()
	cluster.Keyspace = keyspace
	session, err = cluster.CreateSession()
	if err != nil {
		fmt.Fprintf(os.Stderr, "connect with keyspace %s: %v\n", keyspace, err)
		return 1
	}
	defer session.Close()
	fmt.Printf("target %s:%s keyspace %s\n", host, port, keyspace)
	return m.Run()
}

var nonIdent = regexp.MustCompile(`[^a-z0-9_]`)

// newTable creates a uniquely named table in the run's keyspace and returns its name.
func newTable(t *testing.T, columns string) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%s", tableSeq.Add(1), nonIdent.ReplaceAllString(strings.ToLower(t.Name()), "_"))
	if len(name) > 40 {
		name = name[:40]
	}
	exec(t, fmt.Sprintf("CREATE TABLE %s (%s)", name, columns))
	return name
}

func exec(t *testing.T, stmt string, values ...any) {
	t.Helper()
	if err := session.Query(stmt, values...).Exec(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

func scan(t *testing.T, stmt string, values []any, dest ...any) {
	t.Helper()
	if err := session.Query(stmt, values...).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// serverError is what the driver returns for the errors it has no type of its own
// for (INVALID, SYNTAX_ERROR, ...): its frame type is internal to the driver.
type serverError interface {
	error
	GetCode() int
	GetMessage() string
}

// requireErr checks that err is the server error E and returns it.
func requireErr[E error](t *testing.T, what string, err error) E {
	t.Helper()
	var target E
	if err == nil {
		t.Fatalf("%s: want %T, got success", what, target)
	}
	if !errors.As(err, &target) {
		t.Fatalf("%s: want %T, got %T: %v", what, target, err, err)
	}
	return target
}

func assertEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
		t.Errorf("%s: got %#v, want %#v", what, got, want)
	}
}
