#!/usr/bin/env bash
# Transfers (`pay --algorithm txn`) on a fresh three-node cluster, to compare server builds under the same machine
# load (docs/performance.md, "Transfers: the banking workload, three nodes").
#
#   src-bench/pay-ab.sh [--jar SERVER_JAR]... [--workers N] [--seconds N] [--rounds N] [--algorithm lwt|batch|txn]
#
# For each round and each server jar in turn (default: this tree's, built if needed): starts three nodes on
# 127.0.0.1-3 (CQL port 19700, its own directory under $TMPDIR), runs `pop` of 10,000 accounts at RF 3, an unrecorded
# 30 s `pay -w 8` to warm the nodes up, then the measured `pay -w N --duration S --check`; with --workers 1 also
# `pop -n 2000 -w 1` into another keyspace, for one LWT's p50 on the same cluster. Around the measured run it reads
# the nodes' CPU time from /proc and their Paxos and transaction counters from /metrics (the check is inside that
# window, so short runs overstate the cost per transfer). It stops the nodes it started, and prints one line per run
# as it goes and every run's line again at the end. Rounds interleave the jars.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jars=()
workers=8
seconds=40
rounds=1
algorithm=txn
while (($#)); do
    case "$1" in
        --jar) jars+=("$(realpath "$2")"); shift 2 ;;
        --workers) workers="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --algorithm) algorithm="$2"; shift 2 ;;
        *) echo "usage: $0 [--jar SERVER_JAR]... [--workers N] [--seconds N] [--rounds N] [--algorithm lwt|batch|txn]" >&2; exit 2 ;;
    esac
done
log() { printf '[pay-ab] %s\n' "$*"; }

TOOLS_JAR="$ROOT/tools/target/ballot-tools-all.jar"
if ((${#jars[@]} == 0)) || [[ ! -f "$TOOLS_JAR" ]]; then
    (cd "$ROOT" && mvn -o -q package -DskipTests -pl server,tools -am) || { log "build failed"; exit 1; }
fi
((${#jars[@]})) || jars=("$ROOT/server/target/ballot-server-all.jar")
for jar in "${jars[@]}"; do [[ -f "$jar" ]] || { log "no server jar at $jar"; exit 2; }; done

export NATIVE_PORT=19700 STORAGE_PORT=19701 METRICS_PORT=19702
run_dir="$(mktemp -d "${TMPDIR:-/tmp}/ballot-pay-ab.XXXXXX")"
export CLUSTER_DIR
current_jar=""
stop_cluster() { [[ -n "${CLUSTER_DIR:-}" && -d "$CLUSTER_DIR" ]] && BALLOT_JAR="$current_jar" "$ROOT/ballot" cluster stop >/dev/null; }
trap stop_cluster EXIT
workload() { timeout 900 java -cp "$TOOLS_JAR" ballot.tools.workload.Workload "$@"; }
# Summed over the nodes: user + system CPU time in clock ticks, from each node's pid file.
cpu_ticks() {
    local total=0 pid
    for f in "$CLUSTER_DIR"/node*/pid; do
        pid=$(cat "$f")
        total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
    done
    echo "$total"
}
counters() {
    for i in 1 2 3; do curl -s "http://127.0.0.$i:$METRICS_PORT/metrics"; done \
        | grep -E '^(ballot_paxos_marks_total|ballot_paxos_acceptor_steps_synced_total|ballot_txn_events_total)' \
        | awk '{sum[$1] += $2} END {for (k in sum) print k, sum[k]}' | sort
}
ticks_per_second=$(getconf CLK_TCK)
summary="$run_dir/summary.txt"
for round in $(seq 1 "$rounds"); do
    for i in "${!jars[@]}"; do
        current_jar="${jars[$i]}"
        CLUSTER_DIR="$run_dir/round$round-jar$i"
        label="round $round jar $i"
        log "$label: $current_jar (nodes in $CLUSTER_DIR)"
        if ! BALLOT_JAR="$current_jar" "$ROOT/ballot" cluster start 3 >"$run_dir/cluster-$round-$i.log" 2>&1; then
            log "the cluster did not start; see $run_dir/cluster-$round-$i.log"; exit 1
        fi
        hosts="127.0.0.1:$NATIVE_PORT"
        workload pop --hosts "$hosts" --keyspace bank -n 10000 -w 16 --rf 3 >"$run_dir/pop-$round-$i.log" 2>&1 \
            || { log "pop failed; see $run_dir/pop-$round-$i.log"; stop_cluster; continue; }
        workload pay --hosts "$hosts" --keyspace bank -n 10000 -w 8 --algorithm "$algorithm" --duration 30s >"$run_dir/warm-$round-$i.log" 2>&1
        counters >"$run_dir/counters-before-$round-$i"
        before=$(cpu_ticks)
        workload pay --hosts "$hosts" --keyspace bank -n 10000 -w "$workers" --algorithm "$algorithm" --duration "${seconds}s" --check \
            >"$run_dir/pay-$round-$i.log" 2>&1
        after=$(cpu_ticks)
        counters >"$run_dir/counters-after-$round-$i"
        transfers=$(grep -oE 'pay: [0-9]+ of' "$run_dir/pay-$round-$i.log" | grep -oE '[0-9]+' | head -1)
        transfers=${transfers:-0}
        line="$label: $(grep -oE '[0-9]+ ops/s; latency ms p50 [0-9.]+ p95 [0-9.]+ p99 [0-9.]+' "$run_dir/pay-$round-$i.log")"
        line="$line; check $(grep -qE 'check: passed' "$run_dir/pay-$round-$i.log" && echo passed || echo 'NOT passed')"
        if ((transfers > 0)); then
            line="$line; node CPU per transfer $(( (after - before) * 1000000 / ticks_per_second / transfers )) us"
            synced=$(join "$run_dir/counters-before-$round-$i" "$run_dir/counters-after-$round-$i" \
                | awk -v n="$transfers" '$1 ~ /synced/ {printf "%.1f", ($3 - $2) / n}')
            line="$line; synced acceptor steps per transfer ${synced:-?}"
        fi
        if ((workers == 1)); then
            workload pop --hosts "$hosts" --keyspace lwt1 -n 2000 -w 1 --rf 3 >"$run_dir/lwt-$round-$i.log" 2>&1
            line="$line; one LWT: $(grep -oE 'latency ms p50 [0-9.]+' "$run_dir/lwt-$round-$i.log")"
        fi
        stop_cluster
        log "$line"
        echo "$line ($current_jar)" >>"$summary"
    done
done
log "summary (logs and counters in $run_dir)"
cat "$summary"
