#!/usr/bin/env bash
# Run real Apache Cassandra 5.0.x locally, from Maven Central, without Docker.
#
# Used by the driver compatibility suites (tests/) to keep them honest, and by
# the benchmark harness to compare Ballot against Cassandra.
#
#   cassandra.sh fetch                    download cassandra-all 5.0.x and its runtime jars
#   cassandra.sh start [options]          start 1 node (127.0.0.1) or a cluster on 127.0.0.1..N
#       --nodes N                         number of nodes, 1..9 (default 1)
#       --commitlog periodic|batch|group  commitlog_sync mode (default periodic, Cassandra's stock)
#       --group-window MS                 commitlog_sync_group_window for group mode (default 15)
#       --heap SIZE                       -Xms/-Xmx per node (default 1G)
#       --clean                           wipe the nodes' data before starting
#       --timeout SECONDS                 readiness wait per node (default 180)
#   cassandra.sh stop                     stop the nodes this script started (by their PID files)
#   cassandra.sh status                   PID and CQL readiness of each node; exit 0 only if all are up
#
# Environment:
#   CASSANDRA_VERSION   exact cassandra-all version, or a Maven range (default [5.0.0,5.0.999])
#   CASSANDRA_WORK_DIR  jars, configs, data and logs (default: <this dir>/work, gitignored)
#   CASSANDRA_HEAP      default for --heap
#
# Every node listens on its own loopback address: CQL 9042, storage 7000,
# JMX on 127.0.0.1:7199+N-1. Writes go only under the work directory.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK_DIR="${CASSANDRA_WORK_DIR:-$SCRIPT_DIR/work}"
LIB_DIR="$WORK_DIR/lib"
NODES_DIR="$WORK_DIR/nodes"
VERSION_RANGE="${CASSANDRA_VERSION:-[5.0.0,5.0.999]}"
CQL_PORT=9042
STORAGE_PORT=7000
JMX_PORT_BASE=7199

log() { printf '[cassandra] %s\n' "$*"; }
die() { printf '[cassandra] ERROR: %s\n' "$*" >&2; exit 1; }

node_addr() { printf '127.0.0.%d' "$1"; }
node_dir() { printf '%s/node%d' "$NODES_DIR" "$1"; }

# ---------------------------------------------------------------- fetch

cmd_fetch() {
    command -v mvn >/dev/null || die "mvn not found on PATH"
    mkdir -p "$WORK_DIR/fetch"
    # A throwaway pom whose only purpose is to resolve cassandra-all and its
    # runtime closure; it lives in the gitignored work directory.
    cat >"$WORK_DIR/fetch/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>ballot.bench</groupId>
  <artifactId>cassandra-fetch</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.cassandra</groupId>
      <artifactId>cassandra-all</artifactId>
      <version>$VERSION_RANGE</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <version>3.8.1</version>
      </plugin>
    </plugins>
  </build>
</project>
EOF
    log "resolving org.apache.cassandra:cassandra-all:$VERSION_RANGE and its runtime dependencies"
    rm -rf "$LIB_DIR.tmp"
    if ! mvn -B -q -f "$WORK_DIR/fetch/pom.xml" dependency:copy-dependencies \
            -DincludeScope=runtime -DoutputDirectory="$LIB_DIR.tmp" >"$WORK_DIR/fetch/mvn.log" 2>&1; then
        tail -n 40 "$WORK_DIR/fetch/mvn.log" >&2
        die "maven could not resolve cassandra-all (full log: $WORK_DIR/fetch/mvn.log)"
    fi
    local jar
    jar="$(find "$LIB_DIR.tmp" -maxdepth 1 -name 'cassandra-all-*.jar' | head -n 1)"
    [[ -n "$jar" ]] || die "no cassandra-all jar among the resolved dependencies"
    rm -rf "$LIB_DIR"
    mv "$LIB_DIR.tmp" "$LIB_DIR"
    jar="$LIB_DIR/$(basename "$jar")"
    local version
    version="$(basename "$jar" .jar)"
    version="${version#cassandra-all-}"
    # HotSpot compile commands Cassandra ships inside its jar (conf/hotspot_compiler in the tarball).
    python3 - "$jar" "$WORK_DIR/hotspot_compiler" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("META-INF/hotspot_compiler"))
EOF
    printf '%s\n' "$version" >"$WORK_DIR/VERSION"
    log "cassandra-all $version: $(find "$LIB_DIR" -name '*.jar' | wc -l) jars in $LIB_DIR"
}

ensure_fetched() {
    if [[ ! -f "$WORK_DIR/VERSION" || ! -f "$WORK_DIR/hotspot_compiler" || ! -d "$LIB_DIR" ]]; then
        cmd_fetch
    fi
}

# ---------------------------------------------------------------- config

# Evenly spaced Murmur3 tokens, one per node: -2^63 + i * 2^64 / N.
initial_token() {
    python3 -c 'import sys; n, i = int(sys.argv[1]), int(sys.argv[2]); print(-2**63 + (i - 1) * (2**64 // n))' "$1" "$2"
}

write_config() {
    local n="$1" nodes="$2" commitlog="$3" group_window_ms="$4"
    local dir addr seeds i
    dir="$(node_dir "$n")"
    addr="$(node_addr "$n")"
    seeds="$(node_addr 1)"
    mkdir -p "$dir/conf" "$dir/data" "$dir/commitlog" "$dir/hints" "$dir/saved_caches" "$dir/cdc_raw" "$dir/logs"

    local sync_lines
    case "$commitlog" in
        periodic) sync_lines=$'commitlog_sync: periodic\ncommitlog_sync_period: 10000ms' ;;
        batch)    sync_lines='commitlog_sync: batch' ;;
        group)    sync_lines=$'commitlog_sync: group\ncommitlog_sync_group_window: '"${group_window_ms}ms" ;;
        *) die "--commitlog must be periodic, batch or group (got '$commitlog')" ;;
    esac

    cat >"$dir/conf/cassandra.yaml" <<EOF
# Generated by src-bench/cassandra/cassandra.sh; regenerated on every start.
cluster_name: ballot-peer
num_tokens: 1
initial_token: $(initial_token "$nodes" "$n")
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: SimpleSnitch
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "$seeds"
listen_address: $addr
rpc_address: $addr
storage_port: $STORAGE_PORT
native_transport_port: $CQL_PORT
start_native_transport: true
# A fresh cluster holds no data to stream, so joining nodes need not bootstrap.
auto_bootstrap: false
data_file_directories:
  - $dir/data
commitlog_directory: $dir/commitlog
hints_directory: $dir/hints
saved_caches_directory: $dir/saved_caches
cdc_raw_directory: $dir/cdc_raw
$sync_lines
paxos_variant: v2
authenticator: AllowAllAuthenticator
authorizer: AllowAllAuthorizer
disk_failure_policy: stop
commit_failure_policy: stop
EOF

    cat >"$dir/conf/logback.xml" <<EOF
<configuration scan="false">
  <appender name="SYSTEMLOG" class="ch.qos.logback.core.FileAppender">
    <file>$dir/logs/system.log</file>
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="SYSTEMLOG"/></root>
  <logger name="org.apache.cassandra" level="INFO"/>
</configuration>
EOF
}

# ---------------------------------------------------------------- processes

# PID of a running node this script started, or nothing. The command line is
# checked too, so a recycled PID is never mistaken for a node.
running_pid() {
    local dir pid
    dir="$(node_dir "$1")"
    [[ -f "$dir/pid" ]] || return 0
    pid="$(cat "$dir/pid")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 0
    if [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$dir/conf/cassandra.yaml"; then
        printf '%s' "$pid"
    fi
}

# True once the node answers a v4 OPTIONS frame with SUPPORTED (opcode 0x06).
cql_ready() {
    python3 "$SCRIPT_DIR/../cql-ready.py" "$CQL_PORT" "$1" 2>/dev/null
}

java_options() {
    local n="$1" heap="$2" dir jamm
    dir="$(node_dir "$n")"
    jamm="$(find "$LIB_DIR" -maxdepth 1 -name 'jamm-*.jar' | head -n 1)"
    [[ -n "$jamm" ]] || die "jamm agent jar missing from $LIB_DIR; run: $0 fetch"
    local opts=(
        "-Xms$heap" "-Xmx$heap" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$dir/logs"
        -Xss256k -XX:+UnlockDiagnosticVMOptions "-XX:CompileCommandFile=$WORK_DIR/hotspot_compiler"
        "-javaagent:$jamm"
        -Djava.net.preferIPv4Stack=true
        -Djdk.attach.allowAttachSelf=true
        "-Dcassandra.config=file://$dir/conf/cassandra.yaml"
        "-Dcassandra.storagedir=$dir"
        "-Dcassandra.logdir=$dir/logs"
        "-Dlogback.configurationFile=file://$dir/conf/logback.xml"
        "-Dcassandra.jmx.local.port=$((JMX_PORT_BASE + n - 1))"
        -Dcassandra-foreground=yes
        -Dcassandra.ring_delay_ms=10000
        -Dcassandra.skip_wait_for_gossip_to_settle=0
    )
    local m
    for m in java.base/jdk.internal.misc java.management.rmi/com.sun.jmx.remote.internal.rmi \
             java.rmi/sun.rmi.registry java.rmi/sun.rmi.server java.sql/java.sql java.base/java.lang.ref \
             jdk.unsupported/sun.misc jdk.compiler/com.sun.tools.javac.file jdk.attach/sun.tools.attach; do
        opts+=("--add-exports=$m=ALL-UNNAMED")
    done
    for m in java.base/java.lang.module java.base/jdk.internal.loader java.base/jdk.internal.ref \
             java.base/jdk.internal.reflect java.base/jdk.internal.math java.base/jdk.internal.module \
             java.base/jdk.internal.util.jar jdk.management/com.sun.management.internal java.base/sun.nio.ch \
             java.base/java.io java.base/java.lang.reflect jdk.compiler/com.sun.tools.javac \
             java.base/java.lang java.base/java.util; do
        opts+=("--add-opens=$m=ALL-UNNAMED")
    done
    printf '%s\n' "${opts[@]}"
}

wait_ready() {
    local n="$1" pid="$2" timeout_s="$3" addr dir start now elapsed last_report=0
    addr="$(node_addr "$n")"
    dir="$(node_dir "$n")"
    start="$(date +%s)"
    while true; do
        if cql_ready "$addr"; then
            log "node$n $addr:$CQL_PORT serves CQL after $(( $(date +%s) - start ))s"
            return 0
        fi
        now="$(date +%s)"
        elapsed=$((now - start))
        if ! kill -0 "$pid" 2>/dev/null; then
            fail_start "$n" "node$n (pid $pid) exited during start-up"
        fi
        if (( elapsed >= timeout_s )); then
            fail_start "$n" "node$n (pid $pid) did not answer CQL OPTIONS on $addr:$CQL_PORT within ${timeout_s}s"
        fi
        if (( elapsed - last_report >= 10 )); then
            last_report=$elapsed
            log "node$n waiting for CQL on $addr:$CQL_PORT (${elapsed}s/${timeout_s}s): $(last_log_line "$dir")"
        fi
        sleep 1
    done
}

last_log_line() {
    local f="$1/logs/system.log"
    if [[ -s "$f" ]]; then tail -n 1 "$f" | cut -c1-160; else echo "no log yet"; fi
}

# Reports a node that did not come up, with the tails of its logs (long lines
# cut), then stops every node this script started so nothing is left behind.
fail_start() {
    local n="$1" msg="$2" dir
    dir="$(node_dir "$n")"
    {
        printf '[cassandra] ERROR: %s\n' "$msg"
        printf '[cassandra] --- last 30 lines of %s/logs/system.log ---\n' "$dir"
        tail -n 30 "$dir/logs/system.log" 2>/dev/null | cut -c1-300 || true
        printf '[cassandra] --- last 15 lines of %s/logs/stdout.log ---\n' "$dir"
        grep -v '^CompileCommand:' "$dir/logs/stdout.log" 2>/dev/null | tail -n 15 | cut -c1-300 || true
        printf '[cassandra] stopping the node(s) started; logs stay in %s\n' "$NODES_DIR"
    } >&2
    cmd_stop >&2
    exit 1
}

cmd_start() {
    local nodes=1 commitlog=periodic group_window_ms=15 heap="${CASSANDRA_HEAP:-1G}" clean=0 timeout_s=180
    while (($#)); do
        case "$1" in
            --nodes) nodes="${2:?--nodes needs a value}"; shift 2 ;;
            --commitlog) commitlog="${2:?--commitlog needs a value}"; shift 2 ;;
            --group-window) group_window_ms="${2:?--group-window needs a value}"; shift 2 ;;
            --heap) heap="${2:?--heap needs a value}"; shift 2 ;;
            --timeout) timeout_s="${2:?--timeout needs a value}"; shift 2 ;;
            --clean) clean=1; shift ;;
            *) die "unknown start option '$1' (see the header of $0)" ;;
        esac
    done
    [[ "$nodes" =~ ^[1-9]$ ]] || die "--nodes must be 1..9 (got '$nodes')"
    [[ "$timeout_s" =~ ^[0-9]+$ ]] || die "--timeout must be whole seconds (got '$timeout_s')"
    [[ "$group_window_ms" =~ ^[0-9]+$ && "$group_window_ms" -gt 0 ]] || die "--group-window must be a positive number of ms"
    case "$commitlog" in periodic|batch|group) ;; *) die "--commitlog must be periodic, batch or group (got '$commitlog')" ;; esac
    command -v java >/dev/null || die "java not found on PATH"
    command -v python3 >/dev/null || die "python3 not found on PATH (used for the readiness probe)"

    local n
    for n in $(seq 1 9); do
        if [[ -n "$(running_pid "$n")" ]]; then
            die "node$n is already running (pid $(running_pid "$n")); run: $0 stop"
        fi
    done
    ensure_fetched

    if ((clean)); then
        log "wiping $NODES_DIR"
        rm -rf "$NODES_DIR"
    fi
    # Data from a cluster of another size holds another ring; refuse to mix them.
    if [[ -f "$NODES_DIR/cluster-size" && "$(cat "$NODES_DIR/cluster-size")" != "$nodes" ]]; then
        die "existing data is from a $(cat "$NODES_DIR/cluster-size")-node cluster; add --clean to start $nodes node(s)"
    fi
    mkdir -p "$NODES_DIR"
    printf '%s\n' "$nodes" >"$NODES_DIR/cluster-size"

    log "cassandra-all $(cat "$WORK_DIR/VERSION"), $nodes node(s), commitlog_sync=$commitlog, heap=$heap, paxos_variant=v2"
    local classpath
    classpath="$(find "$LIB_DIR" -maxdepth 1 -name '*.jar' | sort | tr '\n' ':')"
    for n in $(seq 1 "$nodes"); do
        local dir pid
        dir="$(node_dir "$n")"
        write_config "$n" "$nodes" "$commitlog" "$group_window_ms"
        mapfile -t opts < <(java_options "$n" "$heap")
        log "node$n starting on $(node_addr "$n") (jmx 127.0.0.1:$((JMX_PORT_BASE + n - 1)), data $dir)"
        # setsid: the node outlives this script and is not hit by the caller's Ctrl-C.
        setsid java "${opts[@]}" -cp "$classpath" org.apache.cassandra.service.CassandraDaemon \
            >"$dir/logs/stdout.log" 2>&1 </dev/null &
        pid=$!
        printf '%s\n' "$pid" >"$dir/pid"
        wait_ready "$n" "$pid" "$timeout_s"
    done
    log "cluster up: $(for n in $(seq 1 "$nodes"); do printf '%s:%s ' "$(node_addr "$n")" "$CQL_PORT"; done)"
}

cmd_stop() {
    local n pid stopped=0
    for n in $(seq 9 -1 1); do
        pid="$(running_pid "$n")"
        if [[ -z "$pid" ]]; then
            rm -f "$(node_dir "$n")/pid"
            continue
        fi
        log "node$n stopping (pid $pid)"
        kill -TERM "$pid" 2>/dev/null || true
        local waited=0
        while kill -0 "$pid" 2>/dev/null && ((waited < 60)); do
            sleep 1
            waited=$((waited + 1))
        done
        if kill -0 "$pid" 2>/dev/null; then
            log "node$n did not exit within 60s of SIGTERM; sending SIGKILL to pid $pid"
            kill -KILL "$pid" 2>/dev/null || true
            sleep 1
        fi
        rm -f "$(node_dir "$n")/pid"
        stopped=$((stopped + 1))
    done
    log "stopped $stopped node(s)"
}

cmd_status() {
    local n pid all_up=1 any=0 size=0
    [[ -f "$NODES_DIR/cluster-size" ]] && size="$(cat "$NODES_DIR/cluster-size")"
    if [[ -f "$WORK_DIR/VERSION" ]]; then
        log "cassandra-all $(cat "$WORK_DIR/VERSION") fetched into $LIB_DIR"
    else
        log "not fetched yet (run: $0 fetch)"
    fi
    for n in $(seq 1 9); do
        pid="$(running_pid "$n")"
        if [[ -z "$pid" ]] && ((n > size)); then continue; fi
        any=1
        if [[ -z "$pid" ]]; then
            log "node$n $(node_addr "$n"): not running"
            all_up=0
        elif cql_ready "$(node_addr "$n")"; then
            log "node$n $(node_addr "$n"): pid $pid, CQL up on port $CQL_PORT"
        else
            log "node$n $(node_addr "$n"): pid $pid, CQL not answering yet"
            all_up=0
        fi
    done
    ((any)) || { log "no nodes configured"; return 1; }
    ((all_up))
}

case "${1:-}" in
    fetch) shift; cmd_fetch "$@" ;;
    start) shift; cmd_start "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    status) shift; cmd_status "$@" ;;
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
esac
