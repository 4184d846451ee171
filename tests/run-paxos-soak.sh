#!/usr/bin/env bash
# system.paxos stays bounded under a long LWT run (docs/paxos.md §4.13). Starts a fresh 3-node cluster with the
# default settings (purge grace period 60 s), runs the workload's pop at RF 3 for --minutes (default 30): every
# request an INSERT ... IF NOT EXISTS of a new account, so every one leaves Paxos registers on three replicas. Every
# minute it prints, per node, the paxos column family's estimated keys and SST bytes and the registers purged so far.
# It passes if the estimated keys of the last third of the run stay within 1.25x their peak in the middle third, and
# end below a fifth of the partitions written. Not part of ./ballot test (it takes half an hour):
#
#   tests/run-paxos-soak.sh [--minutes M] [--workers W]
#
# Uses its own ports (CQL 19642, internode 19643, metrics 19644 on 127.0.0.1-3) and a directory under $TMPDIR, and
# stops the nodes it started, by PID, on exit.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minutes=30
workers=4
while (($#)); do
    case "$1" in
        --minutes) minutes="$2"; shift 2 ;;
        --workers) workers="$2"; shift 2 ;;
        *) echo "usage: $0 [--minutes M] [--workers W]" >&2; exit 2 ;;
    esac
done
((minutes >= 3)) || { echo "--minutes must be at least 3" >&2; exit 2; }

export NATIVE_PORT=19642 STORAGE_PORT=19643 METRICS_PORT=19644
export CLUSTER_DIR
CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/ballot-paxos-soak.XXXXXX")"
HOSTS="127.0.0.1:$NATIVE_PORT,127.0.0.2:$NATIVE_PORT,127.0.0.3:$NATIVE_PORT"
samples="$CLUSTER_DIR/samples.tsv"
log() { printf '[paxos-soak] %s\n' "$*"; }

stop() {
    [[ -n "${pop:-}" ]] && kill "$pop" 2>/dev/null
    "$ROOT/ballot" cluster stop >/dev/null 2>&1
}
trap stop EXIT

log "building, then copying the jars to $CLUSTER_DIR (a later build must not replace them under the running nodes)"
(cd "$ROOT" && mvn -B -q install -DskipTests >"$CLUSTER_DIR/build.log" 2>&1) || { log "the build failed: $CLUSTER_DIR/build.log"; exit 1; }
cp "$ROOT/server/target/ballot-server-all.jar" "$ROOT/tools/target/ballot-tools-all.jar" "$CLUSTER_DIR/"
export BALLOT_JAR="$CLUSTER_DIR/ballot-server-all.jar"
log "starting a 3-node cluster in $CLUSTER_DIR"
"$ROOT/ballot" cluster start 3 >"$CLUSTER_DIR/start.log" 2>&1 || { log "the cluster did not start:"; tail -20 "$CLUSTER_DIR/start.log"; exit 1; }

metric() { # node name: the sum of the metric's samples on that node (0 if absent)
    curl -s --max-time 5 "http://127.0.0.$1:$METRICS_PORT/metrics" | awk -v m="$2" '$1 == m || index($1, m "{") == 1 { s += $2 } END { printf "%.0f", s }'
}

log "pop at RF 3 with $workers workers for $minutes minutes: one new partition per LWT"
java -Xmx512m -cp "$CLUSTER_DIR/ballot-tools-all.jar" ballot.tools.workload.Workload pop -n 1000000000 --rf 3 \
    -w "$workers" --hosts "$HOSTS" --keyspace paxos_soak --duration "${minutes}m" --progress-interval 60s \
    >"$CLUSTER_DIR/pop.log" 2>&1 &
pop=$!

printf 'minute\tlwts\tkeys1\tkeys2\tkeys3\tsst_bytes\tpurged\n' >"$samples"
log "minute       LWTs   paxos keys (node1 node2 node3)   paxos SST MiB   registers purged"
minute=0
while kill -0 "$pop" 2>/dev/null; do
    sleep 60
    minute=$((minute + 1))
    lwts=0 purged=0 sst=0 keys=()
    for i in 1 2 3; do
        lwts=$((lwts + $(metric "$i" ballot_paxos_cas_write_latency_seconds_count)))
        purged=$((purged + $(metric "$i" 'ballot_paxos_marks_total{mark="PURGED"}')))
        sst=$((sst + $(metric "$i" ballot_paxos_table_sst_bytes)))
        keys+=("$(metric "$i" ballot_paxos_table_keys)")
    done
    printf '%d\t%d\t%s\t%s\t%s\t%d\t%d\n' "$minute" "$lwts" "${keys[0]}" "${keys[1]}" "${keys[2]}" "$sst" "$purged" >>"$samples"
    printf '[paxos-soak] %6d %10d   %9s %9s %9s   %13.1f   %16d\n' "$minute" "$lwts" "${keys[0]}" "${keys[1]}" "${keys[2]}" \
        "$(awk -v b="$sst" 'BEGIN { print b / 1048576 }')" "$purged"
done
wait "$pop"; status=$?
pop=""
tail -3 "$CLUSTER_DIR/pop.log" | sed 's/^/[paxos-soak] pop: /'
((status == 0 || status == 1)) || { log "pop exited $status"; exit 1; }

# Bounded: the last third's peak within 1.25x the middle third's, and far below the partitions written.
verdict="$(awk -F'\t' -v n="$minute" 'NR > 1 {
        k = $3; if ($4 > k) k = $4; if ($5 > k) k = $5
        if ($1 > n / 3 && $1 <= 2 * n / 3 && k > mid) mid = k
        if ($1 > 2 * n / 3 && k > last) last = k
        lwts = $2 }
    END {
        ok = mid > 0 && last <= 1.25 * mid && last < lwts / 5
        printf "%s middle-third peak %d keys, last-third peak %d keys (%.2fx), %d LWTs in all\n", ok ? "PASSED" : "FAILED", mid, last, mid ? last / mid : 0, lwts
    }' "$samples")"
log "$verdict (samples: $samples)"
[[ "$verdict" == PASSED* ]]
