#!/usr/bin/env bash
# The overload benchmark of issue 12 (docs/admission.md, results in docs/performance.md, "Overload").
#
#   src-bench/overload.sh [options]
#
# For each cluster size (--nodes) and each admission setting (on, then off), in one run: starts a fresh Ballot
# cluster (127.0.0.1..N, RF N, QUORUM/SERIAL), and with the tools' open-loop generator (`workload overload`):
#   1. warm-up, then capacity: a closed loop of --closed requests in flight (--mix) for 30 s;
#      its goodput is "capacity" (measured with admission on, reused for the off pass so both see the same load);
#   2. the probe alone: 50 LWTs/s in keyspace ovl_live for 30 s (its unloaded p99);
#   3. for 1x, 2x and 4x capacity: the bulk load (the same mix, open loop, keyspace ovl_bulk, which the nodes admit
#      at background priority) for --duration, with the probe running beside it (the highest priority traffic);
#   4. hot partition: other traffic (plain=50,lwt=50 at half capacity, ovl_live) alone for --duration / 2, then
#      the same beside LWTs at 2x capacity on one partition of ovl_bulk.
# Every 5 s it samples each node's heap (jvm_memory_used_bytes, area heap) from its metrics endpoint. At the end it
# prints a table: goodput per load and mode (and its first and last fifth, to see a collapse over time), the probe's
# p99 against its unloaded p99, the other traffic's goodput against its unloaded goodput, and the largest heap.
#
# Options:
#   --nodes LIST       cluster sizes, comma-separated (default 1,3)
#   --duration S       seconds per open-loop phase (default 300, as issue 12 asks; use 60 for a short run)
#   --closed N         requests in flight when measuring capacity (default 256)
#   --mix MIX          the bulk load's mix (default plain=20,lwt=60,hot=10,transfer=10: mostly LWTs, whose overload is
#                      the point, and transfers, two-partition transactions)
#   --client CLIENT    raw (default): the Java driver sets up and prepares, a light v4 client sends the load, so that
#                      the client's CPU, on the cores it shares with the nodes, stays small; driver: the driver sends
#   --heap SIZE        node heap (default 1G)
#   --port P           CQL port (default 19600; internode P+1, metrics P+2)
#   --out DIR          run directory (default src-bench/target/overload/<timestamp>)
#   --no-build         use the jars already built
#
# Needs Java 17, Maven and python3. Starts and stops only its own nodes, by PID.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
SERVER_JAR="$ROOT/server/target/ballot-server-all.jar"
TOOLS_JAR="$ROOT/tools/target/ballot-tools-all.jar"

nodes_list=1,3
duration=300
closed=256
mix=plain=20,lwt=60,hot=10,transfer=10
heap=1G
client=raw
port=19600
out=""
build=1

log() { printf '[overload %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf '[overload] ERROR: %s\n' "$*" >&2; exit 1; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2; }

while (($#)); do
    case "$1" in
        --nodes) nodes_list="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --closed) closed="$2"; shift 2 ;;
        --mix) mix="$2"; shift 2 ;;
        --heap) heap="$2"; shift 2 ;;
        --client) client="$2"; shift 2 ;;
        --port) port="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) usage ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[[ "$duration" =~ ^[0-9]+$ && "$duration" -ge 10 ]] || die "--duration must be at least 10 seconds"
out="${out:-$SCRIPT_DIR/target/overload/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
results="$out/results.tsv"
printf 'nodes\tadmission\tphase\tmetric\tvalue\n' >"$results"

if ((build)); then
    log "building the server and tools jars"
    (cd "$ROOT" && mvn -q -o install -DskipTests -pl paxos,admission,cql-frontend,txn,server,tools 2>&1 | tail -20) || die "build failed"
fi
# Nodes run a copy of the jar, so a build during the run cannot change classes under them.
cp "$SERVER_JAR" "$out/server.jar"
cp "$TOOLS_JAR" "$out/tools.jar"

pids=()
sampler=""
stop_nodes() {
    [[ -n "$sampler" ]] && { kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; sampler=""; }
    local pid
    for pid in "${pids[@]}"; do
        kill -0 "$pid" 2>/dev/null || continue
        kill -TERM "$pid" 2>/dev/null || true
        local waited=0
        while kill -0 "$pid" 2>/dev/null && ((waited < 60)); do sleep 0.5; waited=$((waited + 1)); done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    pids=()
}
trap stop_nodes EXIT
trap 'log "interrupted"; exit 130' INT TERM

cql_ready() {
    python3 "$SCRIPT_DIR/cql-ready.py" "$1" "$2" 2>/dev/null
}

start_cluster() { # nodes admission dir
    local n="$1" admission="$2" dir="$3" i
    for i in $(seq 1 "$n"); do
        local node_dir="$dir/node$i" address="127.0.0.$i"
        mkdir -p "$node_dir"
        cat >"$node_dir/ballot.yaml" <<YAML
cluster_name: overload
listen_address: $address
native_transport_address: $address
native_transport_port: $port
storage_port: $((port + 1))
metrics_port: $((port + 2))
seeds: ["127.0.0.1:$((port + 1))"]
data_file_directory: $node_dir/data
admission_enabled: $admission
admission_background_keyspaces: [ovl_bulk]
YAML
        java "-Xms$heap" "-Xmx$heap" -XX:+UseG1GC -jar "$out/server.jar" --config "$node_dir/ballot.yaml" >"$node_dir/node.log" 2>&1 </dev/null &
        pids+=("$!")
        local waited=0
        until cql_ready "$port" "$address"; do
            kill -0 "${pids[-1]}" 2>/dev/null || { tail -n 20 "$node_dir/node.log" >&2; die "node $address exited during start-up"; }
            ((waited < 120)) || die "node $address did not serve CQL within 60 s"
            sleep 0.5
            waited=$((waited + 1))
        done
        log "node $address (pid ${pids[-1]}) serves CQL, admission $admission"
    done
    (while true; do
        for i in $(seq 1 "$n"); do
            curl -s "http://127.0.0.$i:$((port + 2))/metrics" 2>/dev/null \
                | awk -v node="$i" '/^jvm_memory_used_bytes\{.*area="heap"/ { sum += $NF } END { if (sum) print node "\t" sum }'
        done >>"$dir/heap.tsv"
        sleep 5
    done) &
    sampler=$!
}

overload() { # log-file args...
    local file="$1"; shift
    java -Xmx2g -cp "$out/tools.jar" ballot.tools.workload.Workload overload --hosts "127.0.0.1:$port" --progress-interval 5s \
        --replication-factor "$nodes" --client "$client" "$@" >"$file" 2>&1
}

# Reads a summary from an overload log: goodput/s, the probe-style p99 of a kind, or the goodput per progress line.
goodput() { sed -n 's/.*summary after .*goodput [0-9]* (\([0-9]*\)\/s).*/\1/p' "$1" | tail -1; }
p99() { sed -n "s/.*: $2 goodput latency ms: p50 [0-9.]*, p99 \([0-9.]*\),.*/\1/p" "$1" | tail -1; }
fifths() { # first and last fifth of the progress lines' goodput
    python3 - "$1" <<'EOF'
import re, sys
rates = [float(m.group(1)) for m in (re.search(r"t=\d+s goodput (\d+)/s", l) for l in open(sys.argv[1])) if m]
if len(rates) < 5:
    print("-\t-")
else:
    k = max(1, len(rates) // 5)
    print(f"{sum(rates[:k]) / k:.0f}\t{sum(rates[-k:]) / k:.0f}")
EOF
}
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$nodes" "$admission" "$1" "$2" "$3" >>"$results"; }

IFS=, read -r -a sizes <<<"$nodes_list"
for nodes in "${sizes[@]}"; do
    capacity=""
    for admission in true false; do
        dir="$out/n$nodes-admission-$admission"
        mkdir -p "$dir"
        log "== $nodes node(s), admission $admission"
        start_cluster "$nodes" "$admission" "$dir"
        if [[ -z "$capacity" ]]; then
            overload "$dir/warmup.log" --keyspace ovl_bulk --closed "$closed" --mix "$mix" --duration 30s
            overload "$dir/capacity.log" --keyspace ovl_bulk --closed "$closed" --mix "$mix" --duration 30s
            capacity="$(goodput "$dir/capacity.log")"
            [[ -n "$capacity" && "$capacity" -gt 0 ]] || die "no capacity measured; see $dir/capacity.log"
            log "capacity: $capacity requests/s (closed loop, $closed in flight)"
        else
            overload "$dir/warmup.log" --keyspace ovl_bulk --closed "$closed" --mix "$mix" --duration 30s
        fi
        record capacity goodput "$capacity"
        overload "$dir/probe-alone.log" --keyspace ovl_live --rate 50 --mix lwt=1 --duration 30s
        record probe-alone p99_ms "$(p99 "$dir/probe-alone.log" lwt)"
        for mult in 1 2 4; do
            rate=$((capacity * mult))
            log "$mult x capacity: $rate requests/s for ${duration}s, probe beside it"
            overload "$dir/probe-${mult}x.log" --keyspace ovl_live --rate 50 --mix lwt=1 --duration "${duration}s" &
            probe=$!
            overload "$dir/bulk-${mult}x.log" --keyspace ovl_bulk --rate "$rate" --mix "$mix" --duration "${duration}s"
            wait "$probe" || true
            read -r first last <<<"$(fifths "$dir/bulk-${mult}x.log")"
            record "bulk-${mult}x" goodput "$(goodput "$dir/bulk-${mult}x.log")"
            record "bulk-${mult}x" goodput_first_fifth "$first"
            record "bulk-${mult}x" goodput_last_fifth "$last"
            record "probe-${mult}x" p99_ms "$(p99 "$dir/probe-${mult}x.log" lwt)"
            log "$mult x: goodput $(goodput "$dir/bulk-${mult}x.log")/s (first fifth $first, last $last), probe p99 $(p99 "$dir/probe-${mult}x.log" lwt) ms"
        done
        half=$((duration / 2))
        other=$((capacity / 2))
        overload "$dir/other-alone.log" --keyspace ovl_live --rate "$other" --mix plain=50,lwt=50 --duration "${half}s"
        overload "$dir/hammer.log" --keyspace ovl_bulk --rate $((capacity * 2)) --mix hot=1 --duration "${half}s" &
        hammer=$!
        overload "$dir/other-hammered.log" --keyspace ovl_live --rate "$other" --mix plain=50,lwt=50 --duration "${half}s"
        wait "$hammer" || true
        record other-alone goodput "$(goodput "$dir/other-alone.log")"
        record other-hammered goodput "$(goodput "$dir/other-hammered.log")"
        log "other partitions: $(goodput "$dir/other-alone.log")/s alone, $(goodput "$dir/other-hammered.log")/s beside a hammered partition"
        record all heap_max_mib "$(awk '{ if ($2 > m) m = $2 } END { printf "%.0f", m / 1048576 }' "$dir/heap.tsv" 2>/dev/null)"
        stop_nodes
        rm -rf "$dir"/node*/data
    done
done

log "results ($results):"
python3 - "$results" <<'EOF'
import collections, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
table = collections.OrderedDict()
for nodes, admission, phase, metric, value in rows:
    table.setdefault((phase, metric), {})[(nodes, admission)] = value
columns = sorted({(n, a) for n, a, *_ in rows}, key=lambda c: (int(c[0]), c[1] != "true"))
print("| phase | metric | " + " | ".join(f"{n} node(s), admission {'on' if a == 'true' else 'off'}" for n, a in columns) + " |")
print("|---|---|" + "---|" * len(columns))
for (phase, metric), values in table.items():
    print(f"| {phase} | {metric} | " + " | ".join(values.get(c, "") for c in columns) + " |")
EOF
