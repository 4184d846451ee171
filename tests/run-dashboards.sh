#!/usr/bin/env bash
# Proves the Grafana dashboards (docker/grafana/dashboards) against real parts: a 3-node cluster on 127.0.0.1..3, a
# real Prometheus (Debian's package, installed here when missing) scraping it every second, and a short mixed
# workload (plain writes, reads, LWTs on random keys and on one hot partition, transfers, a banking pop and check). Then
# tests/dashboards/check-dashboards.py evaluates every panel's PromQL through Prometheus's HTTP API: each must parse
# and return a series, and name only metrics the nodes export.
#
#   tests/run-dashboards.sh     (NATIVE_PORT, STORAGE_PORT, METRICS_PORT, PROMETHEUS_PORT: default 19042, 19043,
#                                19180, 19090; nodes and their logs in a temporary directory, removed at the end)
#
# Where Prometheus is not installed and cannot be (no apt-get, not root, no package registry), it says so and skips.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NATIVE_PORT="${NATIVE_PORT:-19042}"
STORAGE_PORT="${STORAGE_PORT:-19043}"
METRICS_PORT="${METRICS_PORT:-19180}"
PROMETHEUS_PORT="${PROMETHEUS_PORT:-19090}"
CLUSTER_LABEL=ballot-dashboards
TOOLS_JAR="$ROOT/tools/target/ballot-tools-all.jar"

log() { printf '[dashboards] %s\n' "$*"; }

if ! command -v prometheus >/dev/null 2>&1; then
    log "Prometheus is not installed: installing Debian's prometheus package ..."
    if ! { command -v apt-get >/dev/null 2>&1 && [[ $(id -u) == 0 ]] && apt-get update -qq >/dev/null 2>&1 \
            && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null 2>&1; }; then
        log "SKIPPED: Prometheus could not be installed (needs apt-get as root and Debian's package registry); install it and run $0"
        exit 0
    fi
fi
log "using $(prometheus --version 2>&1 | head -1)"
[[ -f "$TOOLS_JAR" ]] || { log "missing $TOOLS_JAR: build first (mvn install -DskipTests)"; exit 1; }

dir="$(mktemp -d "${TMPDIR:-/tmp}/ballot-dashboards.XXXXXX")"
prometheus_pid=""
cleanup() {
    [[ -n "$prometheus_pid" ]] && { kill "$prometheus_pid" 2>/dev/null || true; wait "$prometheus_pid" 2>/dev/null || true; }
    CLUSTER_DIR="$dir/cluster" "$ROOT/ballot" cluster stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT

log "starting a 3-node cluster (logs in $dir/cluster) ..."
CLUSTER_DIR="$dir/cluster" NATIVE_PORT="$NATIVE_PORT" STORAGE_PORT="$STORAGE_PORT" METRICS_PORT="$METRICS_PORT" \
    BALLOT_JAVA_OPTS="${BALLOT_JAVA_OPTS:--Xms256m -Xmx512m}" "$ROOT/ballot" cluster start 3 >"$dir/cluster-start.log" 2>&1 \
    || { cat "$dir/cluster-start.log"; exit 1; }

cat >"$dir/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: ballot
    static_configs:
      - targets: ['127.0.0.1:$METRICS_PORT', '127.0.0.2:$METRICS_PORT', '127.0.0.3:$METRICS_PORT']
        labels:
          cluster: $CLUSTER_LABEL
YAML
log "starting Prometheus on 127.0.0.1:$PROMETHEUS_PORT, scraping the nodes every second ..."
prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/prometheus" \
    --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" >"$dir/prometheus.log" 2>&1 &
prometheus_pid=$!
for _ in $(seq 1 60); do
    curl -sf "http://127.0.0.1:$PROMETHEUS_PORT/-/ready" >/dev/null 2>&1 && break
    kill -0 "$prometheus_pid" 2>/dev/null || { log "Prometheus exited:"; tail -20 "$dir/prometheus.log"; exit 1; }
    sleep 0.5
done
curl -sf "http://127.0.0.1:$PROMETHEUS_PORT/-/ready" >/dev/null || { log "Prometheus not ready in 30 s:"; tail -20 "$dir/prometheus.log"; exit 1; }

workload() { # log-name args...
    local name="$1"; shift
    log "workload $name $*"
    java -Xmx512m -cp "$TOOLS_JAR" ballot.tools.workload.Workload "$@" --hosts "127.0.0.1:$NATIVE_PORT,127.0.0.2:$NATIVE_PORT" \
        >"$dir/$name.log" 2>&1 || { log "workload $name failed:"; tail -20 "$dir/$name.log"; return 1; }
    tail -1 "$dir/$name.log" | sed 's/^/  /'
}
# pop asks to be run again when a request failed (a fresh cluster may time out the first writes to a new table)
workload pop pop --keyspace dash_bank --rf 3 --accounts 200 --workers 4 --progress-interval 10s || workload pop pop --keyspace dash_bank --rf 3 --accounts 200 --workers 4 --progress-interval 10s
workload mix overload --keyspace dash_load --replication-factor 3 --rate 80 --mix plain=25,read=15,lwt=30,hot=15,transfer=15 \
    --accounts 200 --duration 20s --progress-interval 10s || exit 1
workload check check --keyspace dash_bank || exit 1
sleep 3 # the last scrapes

log "evaluating every panel's queries through Prometheus ..."
python3 "$ROOT/tests/dashboards/check-dashboards.py" --prometheus "http://127.0.0.1:$PROMETHEUS_PORT" --cluster "$CLUSTER_LABEL"
