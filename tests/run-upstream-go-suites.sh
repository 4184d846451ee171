#!/usr/bin/env bash
# The Go drivers' own integration suites, as their authors run them against Cassandra, against one Ballot node.
#
#   tests/run-upstream-go-suites.sh [apache] [scylla]      (default: both)
#
# apache: github.com/apache/cassandra-gocql-driver/v2 v2.1.2, build tags `cassandra` and `integration` (two binaries).
# scylla: github.com/scylladb/gocql v1.19.0, tags `integration gocql_debug`, `-distribution cassandra`.
# The modules ship their _test.go files, so the Go module proxy is all this needs. Each suite is copied out of the
# module cache, compiled, and run against one node started from server/target/ballot-server-all.jar on 127.0.0.21:9042
# (metrics off, data in a temporary directory), with protocol v4 (Snappy compression) then v5 (none; v5 compresses
# segments with LZ4 only). A failing test is expected only if it is listed below with its reason; any other failure
# makes the run fail. Prints each run's counts and a summary, and stops the node it started, by its PID, however it
# ends. About 3 minutes on 2 cores.
set -uo pipefail

TESTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
JAR="${BALLOT_JAR:-$TESTS_DIR/../server/target/ballot-server-all.jar}"
HOST=127.0.0.21
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ballot-upstream.XXXXXX")"
NODE_PID=""
suites=("$@")
((${#suites[@]})) || suites=(apache scylla)

# Tests that fail against a stock single Cassandra 5.0 node too, or need what Ballot documents as missing.
declare -A EXPECTED=(
    [TestUDF]="user-defined functions (docs/cql.md; disabled by default in Cassandra 5.0)"
    [TestFunctionMetadata]="user-defined functions"
    [TestAggregateMetadata]="user-defined aggregates"
    [TestKeyspaceMetadata]="creates user-defined functions first"
    [TestSchemaEvents]="its UDF and UDA subtests"
    [TestMaterializedViewMetadata]="materialized views (disabled by default in Cassandra 5.0)"
    [TestSessionMetadataAPIs]="its materialized view subtest"
    [TestWriteFailure]="needs Cassandra's -Dcassandra.test.fail_writes_ks hook"
    [TestCustomPayloadMessages]="needs Cassandra's CustomPayloadMirroringQueryHandler"
    [TestCustomPayloadValues]="needs Cassandra's CustomPayloadMirroringQueryHandler"
    [TestDiscoverViaProxy]="its proxy listens on localhost, so it passes only for a node on 127.0.0.1"
    [TestDNS]="its subtest OneDNSPerClusterFirstBroken needs two nodes"
)

log() { printf '[upstream-go] %s\n' "$*"; }

cleanup() {
    local rc=$?
    stop_node
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT

stop_node() {
    [[ -n "$NODE_PID" ]] || return 0
    if kill "$NODE_PID" 2>/dev/null; then
        for _ in $(seq 60); do kill -0 "$NODE_PID" 2>/dev/null || break; sleep 0.5; done
        kill -0 "$NODE_PID" 2>/dev/null && { log "the node (pid $NODE_PID) did not stop in 30 s; killing it"; kill -9 "$NODE_PID"; }
        wait "$NODE_PID" 2>/dev/null
    fi
    NODE_PID=""
}

# A fresh node for each run: the suites leave keyspaces behind.
start_node() {
    local dir="$WORK/node-$1"
    mkdir -p "$dir"
    cat >"$dir/node.yaml" <<YAML
cluster_name: "Ballot Upstream Suites"
listen_address: $HOST
native_transport_address: $HOST
native_transport_port: 9042
storage_port: 7000
metrics_port: 0
data_file_directory: $dir/data
seeds: ["$HOST:7000"]
YAML
    java -Xms512m -Xmx1g -jar "$JAR" --config "$dir/node.yaml" >"$dir/node.log" 2>&1 &
    NODE_PID=$!
    for _ in $(seq 120); do
        grep -q "node started" "$dir/node.log" && return 0
        kill -0 "$NODE_PID" 2>/dev/null || { log "the node exited while starting:"; tail -20 "$dir/node.log"; return 1; }
        sleep 0.5
    done
    log "the node did not start within 60 s"; return 1
}

# The module's source, writable, in $WORK/src-<name>.
module_source() {
    local name="$1" module="$2" dir
    dir="$(cd "$WORK" && go mod download -json "$module" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [[ -n "$dir" && -d "$dir" ]] || { log "cannot download $module"; return 1; }
    cp -r "$dir" "$WORK/src-$name" && chmod -R u+w "$WORK/src-$name"
}

failures=0

compressor() { [[ "$1" == 4 ]] && echo snappy || echo no-compression; }

# Runs one compiled suite binary against a fresh node; $1 names the run, the rest are the binary and its flags.
run() {
    local name="$1" binary="$2"
    shift 2
    start_node "$name" || { failures=$((failures + 1)); return; }
    local out="$WORK/$name.log"
    (cd "$(dirname "$binary")" && timeout 1200 "$binary" -test.v -test.timeout=19m -test.skip '^TestDocker$' "$@" >"$out" 2>&1)
    stop_node
    local passed failed unexpected=() expected=()
    passed=$(grep -c '^--- PASS' "$out")
    failed=$(grep '^--- FAIL' "$out" | awk '{print $3}')
    for t in $failed; do
        if [[ -n "${EXPECTED[$t]:-}" ]]; then expected+=("$t"); else unexpected+=("$t"); fi
    done
    log "$name: $passed passed, ${#expected[@]} failed as expected (${expected[*]:-none}), ${#unexpected[@]} failed unexpectedly (${unexpected[*]:-none})"
    if ((${#unexpected[@]})) || ! grep -qE '^(PASS|FAIL)$' "$out"; then
        failures=$((failures + 1))
        log "$name: see the tail of its log:"; tail -40 "$out"
    fi
}

[[ -f "$JAR" ]] || { log "no $JAR: run mvn package first"; exit 1; }
command -v go >/dev/null || { log "go is needed"; exit 1; }
(cd "$WORK" && go mod init upstream >/dev/null 2>&1)

for suite in "${suites[@]}"; do
    case "$suite" in
        apache)
            module_source apache github.com/apache/cassandra-gocql-driver/v2@v2.1.2 || { failures=$((failures + 1)); continue; }
            for tags in cassandra integration; do
                (cd "$WORK/src-apache" && go test -c -tags "$tags gocql_debug" -o "$WORK/src-apache/$tags.test" .) \
                    || { log "apache: cannot build the $tags suite"; failures=$((failures + 1)); continue; }
                for proto in 4 5; do
                    run "apache-$tags-v$proto" "$WORK/src-apache/$tags.test" -proto=$proto "-compressor=$(compressor $proto)" \
                        -gocql.timeout=60s -rf=1 -clusterSize=1 -autowait=2000ms -gocql.cversion=5.0.0 -cluster=$HOST
                done
            done
            ;;
        scylla)
            module_source scylla github.com/scylladb/gocql@v1.19.0 || { failures=$((failures + 1)); continue; }
            (cd "$WORK/src-scylla" && go test -c -tags "integration gocql_debug" -o "$WORK/src-scylla/integration.test" .) \
                || { log "scylla: cannot build the suite"; failures=$((failures + 1)); continue; }
            for proto in 4 5; do
                run "scylla-v$proto" "$WORK/src-scylla/integration.test" -distribution cassandra -proto=$proto \
                    "-compressor=$(compressor $proto)" -gocql.timeout=60s -rf=1 -clusterSize=1 -autowait=2000ms \
                    -gocql.cversion=5.0.0 -cluster=$HOST
            done
            ;;
        *) log "unknown suite '$suite' (apache, scylla)"; exit 2 ;;
    esac
done

if ((failures)); then log "FAILED: $failures run(s) with unexpected failures"; exit 1; fi
log "passed: every failure was an expected one"
