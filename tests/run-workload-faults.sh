#!/usr/bin/env bash
# The banking workload on the local 3-node cluster under a node kill (docs/workload.md): pop registers accounts at
# RF 3, then pay runs with each algorithm (lwt, batch, txn) while node 2 is killed with SIGKILL and restarted, and
# check must then find every transfer finished and the total unchanged. Each run is bounded; the summary names what
# failed. Expects the cluster ./ballot cluster start made, described by CLUSTER_DIR and NATIVE_PORT.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLUSTER_DIR="${CLUSTER_DIR:?set CLUSTER_DIR to the directory of the cluster}"
NATIVE_PORT="${NATIVE_PORT:-9042}"
ACCOUNTS="${WORKLOAD_ACCOUNTS:-200}"
TRANSFERS="${WORKLOAD_TRANSFERS:-150}"
HOSTS="127.0.0.1:$NATIVE_PORT,127.0.0.2:$NATIVE_PORT,127.0.0.3:$NATIVE_PORT"
KEYSPACE="workload_faults_$(date +%s)"
workload=(java -Xmx512m -cp "$ROOT/tools/target/ballot-tools-all.jar" ballot.tools.workload.Workload)

log() { printf '[workload-faults] %s\n' "$*"; }
failures=()

log "pop: $ACCOUNTS accounts at RF 3 in keyspace $KEYSPACE"
if ! timeout 300 "${workload[@]}" pop -n "$ACCOUNTS" --rf 3 -w 8 --hosts "$HOSTS" --keyspace "$KEYSPACE" --progress-interval 5s; then
    log "pop failed"; exit 1
fi
for algorithm in lwt batch txn; do
    log "pay --algorithm $algorithm: $TRANSFERS transfers, 4 in flight, node 2 killed 2 s into them and restarted"
    output="$(mktemp)"
    timeout 420 "${workload[@]}" pay -n "$TRANSFERS" -w 4 --algorithm "$algorithm" --hosts "$HOSTS" --keyspace "$KEYSPACE" \
        --progress-interval 5s > >(tee "$output") 2>&1 &
    pay=$!
    # The kill comes once transfers are under way (pay prints its plan first), not while pay sets up.
    for _ in $(seq 1 120); do grep -q "transfers among" "$output" && break; sleep 0.5; done
    sleep 2
    victim="$(cat "$CLUSTER_DIR/node2/pid")"
    log "kill -9 node2 (pid $victim)"
    kill -9 "$victim"
    sleep 2
    CLUSTER_DIR="$CLUSTER_DIR" NATIVE_PORT="$NATIVE_PORT" "$ROOT/ballot" cluster start 3 >/dev/null 2>&1 || log "node2 did not restart"
    log "node2 restarted (pid $(cat "$CLUSTER_DIR/node2/pid"))"
    wait "$pay" || failures+=("pay --algorithm $algorithm exited $?")
    rm -f "$output"
    if ! timeout 300 "${workload[@]}" check --hosts "$HOSTS" --keyspace "$KEYSPACE" --wait 60s; then
        failures+=("check after pay --algorithm $algorithm")
    fi
done
if ((${#failures[@]} > 0)); then
    log "FAILED: ${failures[*]}"
    exit 1
fi
log "passed: lwt, batch and txn transfers survived a node kill and check found the total unchanged"
