#!/usr/bin/env bash
# End-to-end comparison of Ballot and Apache Cassandra 5.0 on one machine, with one client.
#
#   src-bench/e2e.sh [options]
#
# In one run: builds the server and benchmark jars, then for each target in turn starts a fresh node or cluster
# (1 GiB heap per node, G1, data under the run directory), runs the load client ballot.bench.e2e.DriverLoad against
# it (prepared INSERT phase, then prepared SELECT phase; DataStax Java driver 4, RF = --nodes, CL ONE on one node and
# QUORUM on a cluster, fixed requests in flight, warm-up then a timed measurement), stops the nodes by their PIDs, and
# at the end prints a comparison table with ratios. Method and results: docs/performance.md.
#
# With --workload lwt the client is instead the tools' `pop` (docs/performance.md, "LWT"): per target, a warm-up
# pop, then INSERT ... IF NOT EXISTS of new accounts (phase lwt, serial SERIAL, commit QUORUM), then the same
# inserts without the condition at QUORUM into another keyspace (phase plain), each for --duration seconds.
#
# With --workload bank the client is the banking workload (docs/performance.md, "Transfers"): per target, pop of
# --keys accounts (unmeasured, also the warm-up), a pop of new accounts for --duration seconds (phase lwt: the one-LWT
# latency of the same cluster), then for each transfer algorithm (--algorithms; Cassandra runs only lwt, the article's
# client-side steps, since it refuses the other two) an unrecorded pay of --warmup seconds, then pay uniform (phase
# pay-ALG) and pay --zipfian (pay-ALG-zipfian), each for --duration seconds and each followed by the ledger check
# (pay --check).
#
# Targets (--targets, comma-separated, run in the order given):
#   ballot            Ballot, commitlog_sync periodic (its default, and Cassandra's stock setting)
#   ballot-batch      Ballot, commitlog_sync batch (fsync before every acknowledgement)
#   ballot-commitlog  Ballot, commitlog_sync periodic and paxos_sync commitlog: Paxos votes written, not fsynced,
#                     before their reply (Cassandra's Paxos durability; docs/paxos.md §4.15)
#   cassandra         Cassandra 5.0 via src-bench/cassandra/cassandra.sh, commitlog_sync periodic (10 s)
#   cassandra-batch   the same with commitlog_sync batch
#
# Options:
#   --targets LIST       default ballot,cassandra,ballot-batch,cassandra-batch
#   --warmup S           unrecorded seconds per phase (default 30)
#   --duration S         recorded seconds per phase (default 30)
#   --keys N             key space (default 100000)
#   --concurrency N      requests in flight (default 64)
#   --connections N      driver connections (default 1)
#   --value-bytes N      payload text bytes (default 100)
#   --phases LIST        insert,select (default); "select" alone reads keys written once each (no overwrites);
#                        lwt-uniform,lwt-hot: INSERT IF NOT EXISTS of new rows, one partition each or all in one;
#                        scan: full scans of the --keys rows in pages of 5,000 (an op is a row; --concurrency scans at once);
#                        indexed: equality queries on a storage-attached index of the --keys rows (built before measuring)
#   --workload W         kv (default: DriverLoad's INSERT/SELECT phases), lwt (pop: phases lwt and plain) or bank
#   --algorithms LIST    with --workload bank: Ballot's transfer algorithms, in order (default txn,batch,lwt)
#   --heap SIZE          node heap, -Xms = -Xmx (default 1G)
#   --nodes N            nodes per target, 1..3 on 127.0.0.1..N, replication factor N (default 1)
#   --consistency CL     the client's consistency level (default ONE with one node, QUORUM with more)
#   --ballot-port P      Ballot's CQL port (default 19500; internode P+1); Cassandra's is fixed by cassandra.sh: 9042
#   --out DIR            run directory for logs, data and results (default src-bench/target/e2e/<timestamp>)
#   --keep-data          keep each node's data directory after its run (default: deleted, logs kept)
#   --no-build           use the jars already built
#   --rounds N           run the whole target list N times, interleaved, and report medians (default 1)
#   --max-minutes M      give up (stopping every node started) after M minutes in all (default 40 per round)
#   --jfr                record each Ballot node with Java Flight Recorder (settings=profile) from its start into
#                        <node dir>/node.jfr, written when the node stops. Recording from start-up is deliberate:
#                        starting a recording on a loaded node stalls it (docs/performance.md, "Overload")
#
# Needs Java 17, Maven, python3 (readiness probe and the table), and Linux /proc (node CPU time). Writes only
# under the run directory (and, on first use, src-bench/cassandra/work/lib through cassandra.sh fetch).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
SERVER_JAR="$ROOT/server/target/ballot-server-all.jar"
BENCH_JAR="$SCRIPT_DIR/target/benchmarks.jar"
TOOLS_JAR="$ROOT/tools/target/ballot-tools-all.jar"
CASSANDRA_SH="$SCRIPT_DIR/cassandra/cassandra.sh"
SHARED_CASSANDRA_WORK="$SCRIPT_DIR/cassandra/work"
CASSANDRA_CQL_PORT=9042

targets="ballot,cassandra,ballot-batch,cassandra-batch"
warmup=30
duration=30
keys=100000
concurrency=64
connections=1
value_bytes=100
heap=1G
ballot_port=19500
out=""
keep_data=0
build=1
max_minutes=""
rounds=1
phases="insert,select"
nodes=1
consistency=""
workload=kv
algorithms="txn,batch,lwt"
jfr=0

log() { printf '[e2e %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf '[e2e] ERROR: %s\n' "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2; }

while (($#)); do
    case "$1" in
        --targets) targets="${2:?}"; shift 2 ;;
        --warmup) warmup="${2:?}"; shift 2 ;;
        --duration) duration="${2:?}"; shift 2 ;;
        --keys) keys="${2:?}"; shift 2 ;;
        --concurrency) concurrency="${2:?}"; shift 2 ;;
        --connections) connections="${2:?}"; shift 2 ;;
        --value-bytes) value_bytes="${2:?}"; shift 2 ;;
        --heap) heap="${2:?}"; shift 2 ;;
        --ballot-port) ballot_port="${2:?}"; shift 2 ;;
        --out) out="${2:?}"; shift 2 ;;
        --keep-data) keep_data=1; shift ;;
        --no-build) build=0; shift ;;
        --jfr) jfr=1; shift ;;
        --max-minutes) max_minutes="${2:?}"; shift 2 ;;
        --rounds) rounds="${2:?}"; shift 2 ;;
        --phases) phases="${2:?}"; shift 2 ;;
        --nodes) nodes="${2:?}"; shift 2 ;;
        --consistency) consistency="${2:?}"; shift 2 ;;
        --workload) workload="${2:?}"; shift 2 ;;
        --algorithms) algorithms="${2:?}"; shift 2 ;;
        -h|--help) usage ;;
        *) die "unknown option '$1' (see the header of $0)" ;;
    esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive whole number (got '$rounds')"
max_minutes="${max_minutes:-$((40 * rounds))}"
[[ "$nodes" =~ ^[1-3]$ ]] || die "--nodes must be 1, 2 or 3 (got '$nodes')"
[[ "$workload" == kv || "$workload" == lwt || "$workload" == bank ]] || die "--workload must be kv, lwt or bank (got '$workload')"
IFS=',' read -r -a algorithm_list <<<"$algorithms"
for a in "${algorithm_list[@]}"; do
    case "$a" in txn|batch|lwt) ;; *) die "unknown algorithm '$a' in --algorithms (txn, batch or lwt)" ;; esac
done
consistency="${consistency:-$( ((nodes == 1)) && echo ONE || echo QUORUM)}"
for n in warmup duration keys concurrency connections value_bytes ballot_port max_minutes; do
    [[ "${!n}" =~ ^[0-9]+$ ]] || die "--${n//_/-} must be a whole number (got '${!n}')"
done
IFS=',' read -r -a target_list <<<"$targets"
for t in "${target_list[@]}"; do
    case "$t" in ballot|ballot-batch|ballot-commitlog|cassandra|cassandra-batch) ;; *) die "unknown target '$t' in --targets" ;; esac
done
command -v java >/dev/null || die "java not found"
command -v python3 >/dev/null || die "python3 not found"
((build == 0)) || command -v mvn >/dev/null || die "mvn not found"
[[ -r /proc/self/stat ]] || die "needs Linux /proc to read the node's CPU time"

out="${out:-$SCRIPT_DIR/target/e2e/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
results="$out/results.txt"
: >"$results"
deadline=$(( $(date +%s) + max_minutes * 60 ))

# ---------------------------------------------------------------- cleanup

ballot_pids=()
cassandra_work=""

stop_ballot() {
    local pid
    for pid in "${ballot_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null || continue
        log "stopping Ballot (pid $pid)"
        kill -TERM "$pid" 2>/dev/null || true
        local waited=0
        while kill -0 "$pid" 2>/dev/null && ((waited < 60)); do sleep 0.5; waited=$((waited + 1)); done
        if kill -0 "$pid" 2>/dev/null; then
            log "Ballot did not exit within 30 s of SIGTERM; SIGKILL pid $pid"
            kill -KILL "$pid" 2>/dev/null || true
        fi
        wait "$pid" 2>/dev/null || true
    done
    ballot_pids=()
}

stop_cassandra() {
    [[ -n "$cassandra_work" ]] || return 0
    CASSANDRA_WORK_DIR="$cassandra_work" "$CASSANDRA_SH" stop || true
    cassandra_work=""
}

cleanup() {
    stop_ballot
    stop_cassandra
    rm -f "$out/ballot-server-all.jar" "$out/benchmarks.jar" "$out/ballot-tools-all.jar"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

# ---------------------------------------------------------------- checks

# True if something already listens on ${2:-127.0.0.1}:$1 (a bind attempt, so wildcard listeners count too).
port_busy() {
    python3 - "$1" "${2:-127.0.0.1}" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
# as the servers bind (SO_REUSEADDR): connections of a node just stopped, left in TIME_WAIT, do not make it busy
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind((sys.argv[2], int(sys.argv[1])))
except OSError:
    sys.exit(0)
finally:
    s.close()
sys.exit(1)
EOF
}

# True once ${2:-127.0.0.1}:$1 answers a v4 OPTIONS frame with SUPPORTED (opcode 0x06).
cql_ready() {
    python3 "$SCRIPT_DIR/cql-ready.py" "$1" "${2:-127.0.0.1}" 2>/dev/null
}

check_deadline() {
    (( $(date +%s) < deadline )) || die "--max-minutes $max_minutes exceeded; stopping"
}

uses_cassandra=0
for t in "${target_list[@]}"; do [[ "$t" == cassandra* ]] && uses_cassandra=1; done
for t in "${target_list[@]}"; do
    for i in $(seq 1 "$nodes"); do
        if [[ "$t" == ballot* ]] && { port_busy "$ballot_port" "127.0.0.$i" || port_busy "$((ballot_port + 1))" "127.0.0.$i" \
                || port_busy "$((ballot_port + 2))" "127.0.0.$i"; }; then
            die "port $ballot_port, $((ballot_port + 1)) or $((ballot_port + 2)) on 127.0.0.$i is in use; pick another with --ballot-port"
        fi
    done
done
if ((uses_cassandra)); then
    for i in $(seq 1 "$nodes"); do
        for p in "$CASSANDRA_CQL_PORT" 7000 7199; do
            port_busy "$p" "127.0.0.$i" && die "port $p on 127.0.0.$i is in use (cassandra.sh needs 9042, 7000 and 7199); stop that node or drop the cassandra targets"
        done
    done
fi

# ---------------------------------------------------------------- build

if ((build)); then
    log "building server, tools and benchmark jars (mvn package -DskipTests -pl server,tools,src-bench -am)"
    if ! (cd "$ROOT" && mvn -B -q package -DskipTests -pl server,tools,src-bench -am) >"$out/build.log" 2>&1; then
        tail -n 40 "$out/build.log" >&2
        die "build failed (full log: $out/build.log)"
    fi
fi
[[ -f "$SERVER_JAR" ]] || die "missing $SERVER_JAR (run without --no-build)"
[[ -f "$BENCH_JAR" ]] || die "missing $BENCH_JAR (run without --no-build)"
# Run from copies: a rebuild in the source tree during the run must not swap classes under a running JVM.
cp "$SERVER_JAR" "$out/ballot-server-all.jar"
cp "$BENCH_JAR" "$out/benchmarks.jar"
SERVER_JAR="$out/ballot-server-all.jar"
BENCH_JAR="$out/benchmarks.jar"
if [[ "$workload" == lwt || "$workload" == bank ]]; then
    [[ -f "$TOOLS_JAR" ]] || die "missing $TOOLS_JAR (run without --no-build)"
    cp "$TOOLS_JAR" "$out/ballot-tools-all.jar"
    TOOLS_JAR="$out/ballot-tools-all.jar"
fi

if ((uses_cassandra)); then
    if [[ ! -f "$SHARED_CASSANDRA_WORK/VERSION" || ! -d "$SHARED_CASSANDRA_WORK/lib" || ! -f "$SHARED_CASSANDRA_WORK/hotspot_compiler" ]]; then
        log "fetching Cassandra 5.0 from Maven Central (cassandra.sh fetch)"
        "$CASSANDRA_SH" fetch
    fi
fi

# ---------------------------------------------------------------- environment

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)$(cd "$ROOT" && git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "cpu: $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
    echo "memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "kernel: $(uname -r)"
    echo "java: $(java -version 2>&1 | head -n 1)"
    echo "cassandra: $(cat "$SHARED_CASSANDRA_WORK/VERSION" 2>/dev/null || echo 'not fetched')"
    echo "settings: workload=$workload$([[ $workload == bank ]] && echo " algorithms=$algorithms") nodes=$nodes rf=$nodes consistency=$consistency heap=$heap keys=$keys concurrency=$concurrency connections=$connections value_bytes=$value_bytes warmup=${warmup}s duration=${duration}s rounds=$rounds phases=$phases targets=$targets"
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/environment.txt"
sed 's/^/[e2e] /' "$out/environment.txt"

# Phases that read existing keys first write the missing ones (unmeasured), at about 5,000 keys/s at worst.
client_timeout=$(( 2 * (warmup + duration) + 300 + keys / 5000 ))

# utime + stime of the given comma-separated PIDs, in clock ticks.
cpu_ticks() {
    local total=0 pid
    for pid in ${1//,/ }; do
        total=$((total + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')))
    done
    echo "$total"
}

# Acceptor steps written in synced batches so far, summed over the Ballot nodes (none for Cassandra): over a phase's
# operations, the synced steps per LWT (docs/paxos.md §4.15: prunes, purges and some commits need no sync).
durable_steps() {
    [[ "$1" == ballot* ]] || { echo 0; return; }
    local i total=0 n
    for i in $(seq 1 "$nodes"); do
        n="$(curl -s -m 5 "http://127.0.0.$i:$((ballot_port + 2))/metrics" \
            | awk '$1 == "ballot_paxos_acceptor_steps_synced_total" { printf "%d", $2 }')"
        total=$((total + ${n:-0}))
    done
    echo "$total"
}

# One run of the tools' workload command $7 (pop or pay, with the arguments after it); with $6 set, its summary
# becomes a RESULT line (phase $2), with check=passed or check=failed when the command ran the ledger check.
run_tool() {
    local target="$1" phase="$2" port="$3" pids="$4" dir="$5" record="$6" command="$7"
    shift 7
    local hosts status=0
    hosts="$(for i in $(seq 1 "$nodes"); do printf '127.0.0.%d:%d,' "$i" "$port"; done)"
    local before after steps_before steps_after
    before="$(cpu_ticks "$pids")"
    steps_before="$(durable_steps "$target")"
    timeout "$client_timeout" java -Xms512m -Xmx1g -Dballot.log.level=WARN -cp "$TOOLS_JAR" ballot.tools.workload.Workload "$command" \
        "$@" --progress-interval 5s --hosts "${hosts%,}" 2>&1 | sed "s/^/[$target $phase] /" | tee -a "$dir/client.log" || status=$?
    after="$(cpu_ticks "$pids")"
    steps_after="$(durable_steps "$target")"
    if [[ -n "$record" ]]; then
        python3 - "$target" "$phase" "$(( after - before ))" "$round" "$concurrency" "$dir/client.log" \
            "$(( steps_after - steps_before ))" "$command" >>"$results" <<'EOF'
import re, sys
target, phase, ticks, rnd, conc, log, steps, command = sys.argv[1:9]
summary, check = None, "none"
for line in open(log):
    if line.startswith(f"[{target} {phase}] {command}: ") and " ops/s; " in line:
        summary, check = line, "none"
    elif summary and line.startswith(f"[{target} {phase}] check: passed"):
        check = "passed"
    elif summary and line.startswith(f"[{target} {phase}] check: FAILED"):
        check = "failed"
if summary is None:
    sys.exit(0)
m = re.search(r" in ([0-9.]+) s.*?errors (\d+); (\d+) ops/s; latency ms p50 ([0-9.]+) p95 [0-9.]+ p99 ([0-9.]+) p99.9 ([0-9.]+) max ([0-9.]+)", summary)
secs, errors, tput, p50, p99, p999, mx = m.groups()
ops = round(float(tput) * float(secs))
print(f"RESULT target={target} phase={phase} seconds={secs} ops={ops} ops_per_s={tput} p50_ms={p50} p99_ms={p99} "
      f"p999_ms={p999} max_ms={mx} errors={errors} missing=0 server_cpu_s={int(ticks) / 100:.2f} client_cpu_s=0 "
      f"concurrency={conc} keys=0 round={rnd} durable_steps={steps} check={check}")
EOF
    fi
    if ((status != 0)); then
        log "$target: $command ($phase) exited with status $status"
        failures=$((failures + 1))
    fi
}

# One pop run of $8 seconds at level $7 into keyspace $9, recorded as run_tool records ($1..$6 as for run_tool).
run_pop() {
    run_tool "${@:1:6}" pop -n 100000000 -w "$concurrency" -c "$7" --duration "${8}s" --keyspace "$9" --rf "$nodes"
}

# run_pay TARGET PHASE PORT PIDS DIR RECORD SECONDS ALGORITHM [OPTION...]: transfers in keyspace bank
run_pay() {
    run_tool "${@:1:6}" pay -n 100000000 -w "$concurrency" --duration "${7}s" --keyspace bank --algorithm "$8" "${@:9}"
}

run_lwt_client() {
    local target="$1" port="$2" pids="$3" dir="$4"
    check_deadline
    log "$target: pop warm-up ${warmup}s, then lwt and plain for ${duration}s each (log: $dir/client.log)"
    run_pop "$target" warmup "$port" "$pids" "$dir" "" SERIAL "$warmup" lwt_warmup
    run_pop "$target" lwt "$port" "$pids" "$dir" record SERIAL "$duration" lwt_cas
    run_pop "$target" plain "$port" "$pids" "$dir" record QUORUM "$duration" lwt_plain
}

# The banking workload: accounts, the one-LWT latency, then each algorithm's transfers, uniform and zipfian.
run_bank_client() {
    local target="$1" port="$2" pids="$3" dir="$4" algorithm
    local algorithms=("${algorithm_list[@]}")
    [[ "$target" == cassandra* ]] && algorithms=(lwt)
    check_deadline
    log "$target: pop of $keys accounts, then lwt (new accounts) and pay with ${algorithms[*]}, uniform and zipfian, for ${duration}s each (log: $dir/client.log)"
    # pop records the accounts' total only after a run without errors (a cold cluster may time out a few): run it again
    local attempt before
    for attempt in 1 2 3; do
        before=$failures
        run_tool "$target" accounts "$port" "$pids" "$dir" "" pop -n "$keys" -w "$concurrency" --keyspace bank --rf "$nodes"
        ((failures == before)) && break
        ((attempt == 3)) || { failures=$before; log "$target: pop of the accounts failed (attempt $attempt of 3); running it again"; }
    done
    run_pop "$target" lwt "$port" "$pids" "$dir" record SERIAL "$duration" lwt_cas
    for algorithm in "${algorithms[@]}"; do
        check_deadline
        # unrecorded, so that no algorithm is measured while its code paths are still being compiled
        run_pay "$target" "pay-$algorithm-warmup" "$port" "$pids" "$dir" "" "$warmup" "$algorithm"
        run_pay "$target" "pay-$algorithm" "$port" "$pids" "$dir" record "$duration" "$algorithm" --check
        run_pay "$target" "pay-$algorithm-zipfian" "$port" "$pids" "$dir" record "$duration" "$algorithm" --zipfian --check
    done
}

run_client() {
    local target="$1" port="$2" pids="$3" dir="$4"
    if [[ "$workload" == lwt ]]; then
        run_lwt_client "$@"
        return
    fi
    if [[ "$workload" == bank ]]; then
        run_bank_client "$@"
        return
    fi
    check_deadline
    log "$target: client for $client_timeout s at most (log: $dir/client.log)"
    local status=0
    timeout "$client_timeout" java -Xms512m -Xmx1g -Dballot.log.level=WARN -cp "$BENCH_JAR" ballot.bench.e2e.DriverLoad \
        --target "$target" --port "$port" --keys "$keys" --concurrency "$concurrency" --connections "$connections" \
        --warmup "$warmup" --duration "$duration" --value-bytes "$value_bytes" --server-pid "$pids" --phases "$phases" \
        --rf "$nodes" --consistency "$consistency" \
        --report-every 5 2>&1 | tee "$dir/client.log" || status=$?
    grep '^RESULT ' "$dir/client.log" | sed "s/\$/ round=$round/" >>"$results" || true
    if ((status != 0)); then
        log "$target: client exited with status $status (results above, if any, are kept)"
        failures=$((failures + 1))
    fi
}

# ---------------------------------------------------------------- targets

run_ballot() {
    local target="$1" dir="$round_dir/$1" sync=periodic paxos_sync=always
    [[ "$target" == ballot-batch ]] && sync=batch
    [[ "$target" == ballot-commitlog ]] && paxos_sync=commitlog
    local i
    for i in $(seq 1 "$nodes"); do
        local node_dir="$dir/node$i" address="127.0.0.$i"
        mkdir -p "$node_dir"
        cat >"$node_dir/ballot.yaml" <<YAML
cluster_name: e2e
listen_address: $address
native_transport_address: $address
native_transport_port: $ballot_port
storage_port: $((ballot_port + 1))
metrics_port: $((ballot_port + 2))
seeds: ["127.0.0.1:$((ballot_port + 1))"]
data_file_directory: $node_dir/data
commitlog_sync: $sync
paxos_sync: $paxos_sync
YAML
        local profile=()
        ((jfr)) && profile=("-XX:StartFlightRecording:settings=profile,filename=$node_dir/node.jfr,dumponexit=true")
        log "$target: starting Ballot on $address:$ballot_port (heap $heap, data $node_dir/data)"
        java "-Xms$heap" "-Xmx$heap" -XX:+UseG1GC "${profile[@]}" -jar "$SERVER_JAR" --config "$node_dir/ballot.yaml" \
            >"$node_dir/node.log" 2>&1 </dev/null &
        local pid=$!
        ballot_pids+=("$pid")
        local waited=0
        until cql_ready "$ballot_port" "$address"; do
            kill -0 "$pid" 2>/dev/null || { tail -n 30 "$node_dir/node.log" >&2; die "$target: Ballot on $address exited during start-up"; }
            ((waited < 120)) || { tail -n 30 "$node_dir/node.log" >&2; die "$target: Ballot on $address did not answer CQL within 60 s"; }
            sleep 0.5
            waited=$((waited + 1))
        done
        log "$target: Ballot on $address (pid $pid) serves CQL"
    done
    run_client "$target" "$ballot_port" "$(IFS=,; echo "${ballot_pids[*]}")" "$dir"
    for i in $(seq 1 "$nodes"); do
        grep -E 'WARN|ERROR' "$dir/node$i/node.log" | tail -n 5 | sed "s/^/[e2e] $target node$i: /" || true
    done
    stop_ballot
    ((keep_data)) || rm -rf "$dir"/node*/data
}

run_cassandra() {
    local target="$1" dir="$round_dir/$1" mode=periodic
    [[ "$target" == cassandra-batch ]] && mode=batch
    mkdir -p "$dir/work/lib"
    # A private work directory (own configs, data, PID file), sharing the fetched jars. cassandra.sh lists lib/
    # with find, which does not enter a symlinked directory, so the jars are linked one by one.
    local jar
    for jar in "$SHARED_CASSANDRA_WORK"/lib/*.jar; do ln -sfn "$jar" "$dir/work/lib/"; done
    ln -sfn "$SHARED_CASSANDRA_WORK/VERSION" "$dir/work/VERSION"
    ln -sfn "$SHARED_CASSANDRA_WORK/hotspot_compiler" "$dir/work/hotspot_compiler"
    cassandra_work="$dir/work"
    log "$target: starting Cassandra $(cat "$SHARED_CASSANDRA_WORK/VERSION") (commitlog_sync $mode, heap $heap)"
    CASSANDRA_WORK_DIR="$cassandra_work" "$CASSANDRA_SH" start --nodes "$nodes" --commitlog "$mode" --heap "$heap" --clean --timeout 180
    local pids=() i
    for i in $(seq 1 "$nodes"); do pids+=("$(cat "$cassandra_work/nodes/node$i/pid")"); done
    run_client "$target" "$CASSANDRA_CQL_PORT" "$(IFS=,; echo "${pids[*]}")" "$dir"
    stop_cassandra
    ((keep_data)) || rm -rf "$dir"/work/nodes/node*/data "$dir"/work/nodes/node*/commitlog
}

started=$(date +%s)
failures=0
for round in $(seq 1 "$rounds"); do
    round_dir="$out/round$round"
    ((rounds == 1)) || log "round $round of $rounds"
    for t in "${target_list[@]}"; do
        check_deadline
        case "$t" in
            ballot*) run_ballot "$t" ;;
            cassandra*) run_cassandra "$t" ;;
        esac
    done
done
log "all targets done in $(( $(date +%s) - started )) s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/environment.txt"

# ---------------------------------------------------------------- comparison

python3 - "$results" "$out/summary.md" "$out/environment.txt" <<'EOF'
import statistics, sys

results_path, summary_path, env_path = sys.argv[1:4]
runs = {}          # (target, phase) -> [fields of each round]
order = []
for line in open(results_path):
    fields = dict(kv.split("=", 1) for kv in line.split()[1:])
    key = (fields["target"], fields["phase"])
    if key not in runs:
        runs[key] = []
        order.append(key)
    runs[key].append(fields)
if not runs:
    print("[e2e] no results")
    sys.exit(1)

def med(key, field):
    return statistics.median(float(r[field]) for r in runs[key])

def cpu_us(key):
    return statistics.median(float(r["server_cpu_s"]) * 1e6 / max(1, int(r["ops"])) for r in runs[key])

rounds = max(len(v) for v in runs.values())
out = []
if rounds > 1:
    out.append(f"Medians over {rounds} rounds; ops/s also shows the lowest and highest round.")
    out.append("")
bank = any(phase.startswith("pay-") for _, phase in order)
out.append("| phase | target | ops/s | p50 ms | p99 ms | p99.9 ms | max ms | node CPU µs/op | errors |" + (" check |" if bank else ""))
out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|" + ("---|" if bank else ""))
phases = []
for _, phase in order:
    if phase not in phases:
        phases.append(phase)
for phase in phases:
    for key in order:
        if key[1] != phase:
            continue
        tputs = [float(r["ops_per_s"]) for r in runs[key]]
        spread = f" ({min(tputs):,.0f}–{max(tputs):,.0f})" if len(tputs) > 1 else ""
        errors = sum(int(r["errors"]) for r in runs[key])
        worst = max(float(r["max_ms"]) for r in runs[key])
        out.append(f"| {phase} | {key[0]} | {med(key, 'ops_per_s'):,.0f}{spread} | {med(key, 'p50_ms'):.2f} | {med(key, 'p99_ms'):.2f} "
                   f"| {med(key, 'p999_ms'):.2f} | {worst:.1f} | {cpu_us(key):.0f} | {errors} |"
                   + (" " + ", ".join(sorted({r.get("check", "none") for r in runs[key]})) + " |" if bank else ""))

out.append("")
out.append("| phase | Ballot vs | throughput ratio | p99 ratio (Ballot / other) | CPU per op ratio | ≥ 1.5x throughput and lower p99 |")
out.append("|---|---|---:|---:|---:|---|")
for ballot in ("ballot", "ballot-commitlog", "ballot-batch"):
    for other in ("cassandra", "cassandra-batch"):
        if (ballot, other) in (("ballot-batch", "cassandra"), ("ballot-commitlog", "cassandra-batch")):
            continue
        for phase in phases:
            b, c = (ballot, phase), (other, phase)
            if b not in runs or c not in runs:
                continue
            tput = med(b, "ops_per_s") / med(c, "ops_per_s")
            p99 = med(b, "p99_ms") / med(c, "p99_ms")
            cpu = cpu_us(b) / cpu_us(c)
            met = "yes" if tput >= 1.5 and p99 < 1.0 else "no"
            out.append(f"| {phase} | {ballot} vs {other} | {tput:.2f}x | {p99:.2f} | {cpu:.2f} | {met} |")

if any(phase == "lwt" for _, phase in order) and any(phase == "plain" for _, phase in order):
    out.append("")
    out.append("| target | LWT / plain QUORUM insert throughput | synced acceptor steps per LWT (all nodes) |")
    out.append("|---|---:|---:|")
    for target in dict.fromkeys(t for t, _ in order):
        if (target, "lwt") in runs and (target, "plain") in runs:
            key = (target, "lwt")
            steps = statistics.median(int(r.get("durable_steps", 0)) / max(1, int(r["ops"])) for r in runs[key])
            steps_text = f"{steps:.2f}" if target.startswith("ballot") else "n/a"
            out.append(f"| {target} | {med(key, 'ops_per_s') / med((target, 'plain'), 'ops_per_s'):.2f} | {steps_text} |")

if ("lwt-uniform" in phases) and ("lwt-hot" in phases):
    out.append("")
    out.append("| target | one hot partition / uniform LWT throughput |")
    out.append("|---|---:|")
    for target in dict.fromkeys(t for t, _ in order):
        if (target, "lwt-hot") in runs and (target, "lwt-uniform") in runs:
            out.append(f"| {target} | {med((target, 'lwt-hot'), 'ops_per_s') / med((target, 'lwt-uniform'), 'ops_per_s'):.2f} |")

if bank:
    def pay(target, algorithm, zipfian=False):
        key = (target, f"pay-{algorithm}" + ("-zipfian" if zipfian else ""))
        return key if key in runs else None
    out.append("")
    out.append("| target | measure | value |")
    out.append("|---|---|---:|")
    for target in dict.fromkeys(t for t, _ in order):
        lwt = (target, "lwt") if (target, "lwt") in runs else None
        for algorithm in ("txn", "batch", "lwt"):
            u, z = pay(target, algorithm), pay(target, algorithm, True)
            if u and lwt:
                out.append(f"| {target} | pay-{algorithm} p50 / one LWT p50 | {med(u, 'p50_ms') / med(lwt, 'p50_ms'):.2f} |")
            if u and z:
                out.append(f"| {target} | pay-{algorithm} zipfian / uniform throughput | {med(z, 'ops_per_s') / med(u, 'ops_per_s'):.2f} |")
        for algorithm in ("txn", "batch"):
            for zipfian in (False, True):
                a, l = pay(target, algorithm, zipfian), pay(target, "lwt", zipfian)
                if a and l:
                    suffix = "-zipfian" if zipfian else ""
                    out.append(f"| {target} | pay-{algorithm}{suffix} / pay-lwt{suffix} throughput | {med(a, 'ops_per_s') / med(l, 'ops_per_s'):.2f} |")
    for other in ("cassandra", "cassandra-batch"):
        for ballot in ("ballot", "ballot-commitlog", "ballot-batch"):
            for algorithm in ("txn", "batch", "lwt"):
                for zipfian in (False, True):
                    b, c = pay(ballot, algorithm, zipfian), pay(other, "lwt", zipfian)
                    if b and c:
                        suffix = "-zipfian" if zipfian else ""
                        out.append(f"| {ballot} vs {other} | {ballot} pay-{algorithm}{suffix} / {other} pay-lwt{suffix} throughput | "
                                   f"{med(b, 'ops_per_s') / med(c, 'ops_per_s'):.2f} |")

text = "\n".join(out)
with open(summary_path, "w") as f:
    f.write("Environment:\n\n```\n" + open(env_path).read() + "```\n\n" + text + "\n")
print()
print(text)
print()
print(f"[e2e] written to {summary_path}")
EOF
log "run directory: $out"
((failures == 0)) || die "$failures client run(s) failed; see the client.log files in $out"
