#!/usr/bin/env bash
# LWT latency at one request in flight on a fresh three-node (or one-node) cluster (issue 9's targets;
# docs/performance.md).
#
#   src-bench/lwt-latency.sh [--jar SERVER_JAR [--settings 'YAML LINES']]... [--nodes 3|1] [--rounds N] [--warmup N]
#                            [--count N]
#
# --settings adds lines to every node.yaml of the jar named before it (e.g. 'paxos_sync: commitlog'); a jar may be
# named twice, with and without settings, to compare them in one run.
# For each round and each server jar in turn (default: this tree's, built if needed): starts three nodes on
# 127.0.0.1-3 (CQL port 19700, its own directory under $TMPDIR), runs src-bench/lwt_latency.py (the Python driver,
# interleaving a plain QUORUM insert, an LWT on a new key and an LWT on one hot key, RF 3), stops the nodes it
# started, and at the end prints every round's p50 figures and ratios. Several jars in one run compare builds under
# the same machine load (rounds interleave them). Uses tests/python/.venv, created from tests/python/requirements.txt
# when missing. With --nodes 1: one node on 127.0.0.1, RF 1, and a synced 100-byte append to a file beside the node's
# data interleaved as a fourth kind, for the one-node target (LWT p50 <= plain p50 + one synced write + 0.2 ms).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jars=()
settings=()
rounds=1
nodes=3
warmup=600
count=800
while (($#)); do
    case "$1" in
        --jar) jars+=("$(realpath "$2")"); settings+=(""); shift 2 ;;
        --settings) ((${#jars[@]})) || { echo "--settings follows the --jar it is for" >&2; exit 2; }
                    settings[$((${#jars[@]} - 1))]="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --nodes) nodes="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --count) count="$2"; shift 2 ;;
        *) echo "usage: $0 [--jar SERVER_JAR [--settings 'YAML LINES']]... [--nodes 3|1] [--rounds N] [--warmup N] [--count N]" >&2; exit 2 ;;
    esac
done
[[ "$nodes" == 1 || "$nodes" == 3 ]] || { echo "--nodes is 1 or 3" >&2; exit 2; }
log() { printf '[lwt-latency] %s\n' "$*"; }

if ((${#jars[@]} == 0)); then
    (cd "$ROOT" && mvn -o -q install -DskipTests) || { log "build failed"; exit 1; }
    jars=("$ROOT/server/target/ballot-server-all.jar")
    settings=("")
fi
for jar in "${jars[@]}"; do [[ -f "$jar" ]] || { log "no server jar at $jar"; exit 2; }; done

VENV="$ROOT/tests/python/.venv"
if [[ ! -x "$VENV/bin/python" ]]; then
    log "creating $VENV"
    python3 -m venv "$VENV" && "$VENV/bin/pip" install -q -r "$ROOT/tests/python/requirements.txt" || { log "pip install failed"; exit 1; }
fi

export NATIVE_PORT=19700 STORAGE_PORT=19701 METRICS_PORT=19702
run_dir="$(mktemp -d "${TMPDIR:-/tmp}/ballot-lwt-latency.XXXXXX")"
export CLUSTER_DIR
stop_cluster() { [[ -n "${CLUSTER_DIR:-}" ]] && BALLOT_JAR="$current_jar" "$ROOT/ballot" cluster stop >/dev/null; }
trap stop_cluster EXIT
summary="$run_dir/summary.txt"
current_jar=""
for round in $(seq 1 "$rounds"); do
    for i in "${!jars[@]}"; do
        current_jar="${jars[$i]}"
        CLUSTER_DIR="$run_dir/round$round-jar$i"
        log "round $round/$rounds, jar $i: $current_jar${settings[$i]:+ with '${settings[$i]}'} (nodes in $CLUSTER_DIR)"
        if ! BALLOT_JAR="$current_jar" BALLOT_NODE_SETTINGS="${settings[$i]}" "$ROOT/ballot" cluster start "$nodes" >"$run_dir/cluster-$round-$i.log" 2>&1; then
            log "the cluster did not start; see $run_dir/cluster-$round-$i.log"; exit 1
        fi
        out="$run_dir/result-$round-$i.txt"
        client_args=(--hosts 127.0.0.1,127.0.0.2,127.0.0.3 --rf 3)
        ((nodes == 1)) && client_args=(--hosts 127.0.0.1 --rf 1 --sync-file "$CLUSTER_DIR/synced-write.probe")
        timeout 1800 "$VENV/bin/python" "$ROOT/src-bench/lwt_latency.py" "${client_args[@]}" \
            --port "$NATIVE_PORT" --warmup "$warmup" --count "$count" | tee "$out"
        rc=${PIPESTATUS[0]}
        stop_cluster
        ((rc == 0)) || { log "the client failed (exit $rc)"; exit 1; }
        { echo "round $round jar $i ($current_jar${settings[$i]:+, ${settings[$i]}}):"; grep -E "^(plain|lwt|synced|ratio|target)" "$out"; } >>"$summary"
    done
done
log "summary (results in $run_dir)"
cat "$summary"
