// Package compat is the gocql driver compatibility suite for Ballot.
//
// It runs against whatever serves CQL at BALLOT_HOST:BALLOT_PORT (default
// 127.0.0.1:9042): Ballot, or real Cassandra 5.0 to keep the suite honest.
// Every table lives in one keyspace with a unique name per run, dropped at
// the end.
package compat

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

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/apache/cassandra-gocql-driver/v2/lz4"
)

var (
	host     = envOr("BALLOT_HOST", "127.0.0.1")
	port     = envOr("BALLOT_PORT", "9042")
	rf       = envOr("BALLOT_RF", "1") // replication factor of the suite's keyspace
	// consistency of every statement; a cluster run with RF > 1 needs QUORUM to read its own writes
	consistency = gocql.ParseConsistency(envOr("BALLOT_CONSISTENCY", "ONE"))
	keyspace string
	session  *gocql.Session

	// lastResponseVersion is the protocol version of the latest response frame.
	lastResponseVersion atomic.Int32
	compressor          = &countingCompressor{Compressor: lz4.LZ4Compressor{}}
	tableSeq            atomic.Int32
)

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

type versionObserver struct{}

func (versionObserver) ObserveFrameHeader(_ context.Context, h gocql.ObservedFrameHeader) {
	lastResponseVersion.Store(int32(h.Version) & 0x7f)
}

// countingCompressor wraps a gocql compressor (lz4 for the suite, Snappy in one test) and counts what it
// decompresses, to prove that compression was negotiated and used rather than silently dropped.
type countingCompressor struct {
	gocql.Compressor
	decompressed atomic.Int64
}

func (c *countingCompressor) AppendDecompressedWithLength(dst, src []byte) ([]byte, error) {
	c.decompressed.Add(1)
	return c.Compressor.AppendDecompressedWithLength(dst, src)
}

func (c *countingCompressor) AppendDecompressed(dst, src []byte, n uint32) ([]byte, error) {
	c.decompressed.Add(1)
	return c.Compressor.AppendDecompressed(dst, src, n)
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
	c.Compressor = compressor
	c.FrameHeaderObserver = versionObserver{}
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
	keyspace = fmt.Sprintf("ballot_go_%s_%s", time.Now().UTC().Format("20060102150405"), hex.EncodeToString(b[:]))

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
func newTable(t *testing.T, columns string, options ...string) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%s", tableSeq.Add(1), nonIdent.ReplaceAllString(strings.ToLower(t.Name()), "_"))
	if len(name) > 40 {
		name = name[:40]
	}
	exec(t, fmt.Sprintf("CREATE TABLE %s (%s) %s", name, columns, strings.Join(options, " ")))
	return name
}

func exec(t *testing.T, stmt string, values ...interface{}) {
	t.Helper()
	if err := session.Query(stmt, values...).Exec(); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

func scan(t *testing.T, stmt string, values []interface{}, dest ...interface{}) {
	t.Helper()
	if err := session.Query(stmt, values...).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// requireErrCode checks that err is a server error with the given protocol code
// and that its message contains each fragment.
func requireErrCode(t *testing.T, err error, code int, fragments ...string) gocql.RequestError {
	t.Helper()
	if err == nil {
		t.Fatalf("expected error code 0x%04x, got success", code)
	}
	var reqErr gocql.RequestError
	if !errors.As(err, &reqErr) {
		t.Fatalf("expected a server error with code 0x%04x, got %T: %v", code, err, err)
	}
	if reqErr.Code() != code {
		t.Fatalf("expected error code 0x%04x, got 0x%04x: %s", code, reqErr.Code(), reqErr.Message())
	}
	for _, f := range fragments {
		if !strings.Contains(reqErr.Message(), f) {
			t.Errorf("error message %q does not contain %q", reqErr.Message(), f)
		}
	}
	return reqErr
}

func assertEqual(t *testing.T, what string, got, want interface{}) {
	t.Helper()
	if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
		t.Errorf("%s: got %#v, want %#v", what, got, want)
	}
}
