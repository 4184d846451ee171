#!/usr/bin/env bash
# The image's entrypoint: writes the node's YAML from the environment, then becomes the node (exec), so that
# `docker stop`'s SIGTERM reaches the JVM and the node closes cleanly.
#
# The CASSANDRA_* variables mean what they mean in the official Cassandra image (docker/README.md has the table);
# BALLOT_<KEY> sets any key of the node's YAML: BALLOT_TRACE_PROBABILITY=0.01 writes `trace_probability: 0.01`. Its
# value is written as YAML as it is, so a list is `[a, b]`. A BALLOT_ key overrides what a CASSANDRA_ variable set.
#
#   ballot-entrypoint [--node-option ...]   the node, with these options after --config (docker run IMAGE --metrics-port 0)
#   ballot-entrypoint COMMAND [ARG ...]     COMMAND instead of the node (docker run -it IMAGE bash)
set -euo pipefail

config="${BALLOT_CONFIG:-/etc/ballot/node.yaml}"
jar="${BALLOT_JAR:-/opt/ballot/ballot-server.jar}"
data="${BALLOT_DATA:-/var/lib/ballot}"
# Half the container's memory for the heap: RocksDB's block cache and memtables, Netty's direct buffers, metaspace
# and thread stacks live outside it.
java_opts="${BALLOT_JAVA_OPTS:--XX:InitialRAMPercentage=50 -XX:MaxRAMPercentage=50 -XX:+UseG1GC}"

if [[ $# -gt 0 && "$1" != -* ]]; then
    exec "$@"
fi

fail() {
    echo "ballot-entrypoint: $*" >&2
    exit 1
}

# The container's first address other than loopback, which Docker also puts in /etc/hosts under its hostname.
container_address() {
    local addresses=()
    read -r -a addresses <<<"$(hostname -I 2>/dev/null || true)"
    ((${#addresses[@]} > 0)) || fail "cannot tell this container's IP address; set CASSANDRA_LISTEN_ADDRESS"
    printf '%s\n' "${addresses[0]}"
}

# A YAML double-quoted scalar.
quoted() {
    local value="${1//\\/\\\\}"
    printf '"%s"' "${value//\"/\\\"}"
}

# Settings in the order they were first set; a later set of the same key replaces the value.
declare -A settings=()
keys=()
set_key() {
    [[ -v "settings[$1]" ]] || keys+=("$1")
    settings[$1]="$2"
}

listen="${CASSANDRA_LISTEN_ADDRESS:-auto}"
[[ "$listen" == auto ]] && listen="$(container_address)"
broadcast="${CASSANDRA_BROADCAST_ADDRESS:-$listen}"
[[ "$broadcast" == auto ]] && broadcast="$(container_address)"
# A Ballot node tells its peers and clients the address it listens on; there is no separate broadcast_address.
[[ "$broadcast" == "$listen" ]] ||
    fail "CASSANDRA_BROADCAST_ADDRESS=$broadcast differs from the listen address $listen; Ballot advertises its listen address, so set CASSANDRA_LISTEN_ADDRESS instead"
# native_transport_address is both where CQL and metrics listen and what system.local and system.peers tell drivers.
rpc="${CASSANDRA_RPC_ADDRESS:-$listen}"
case "$rpc" in
    0.0.0.0 | :: | '[::]') fail "CASSANDRA_RPC_ADDRESS=$rpc: Ballot tells drivers this address, so it must be the container's own (leave it unset for the listen address)" ;;
esac

set_key cluster_name "$(quoted "${CASSANDRA_CLUSTER_NAME:-Test Cluster}")"
set_key listen_address "$(quoted "$listen")"
set_key native_transport_address "$(quoted "$rpc")"
set_key data_file_directory "$(quoted "$data/data")"
if [[ -n "${CASSANDRA_SEEDS:-}" ]]; then
    seeds=()
    IFS=',' read -r -a seeds <<<"$CASSANDRA_SEEDS"
    list=""
    for seed in "${seeds[@]}"; do
        seed="${seed//[[:space:]]/}"
        [[ -n "$seed" ]] && list+="${list:+, }$(quoted "$seed")"
    done
    set_key seeds "[$list]"
fi
[[ -n "${CASSANDRA_NUM_TOKENS:-}" ]] && set_key num_tokens "$CASSANDRA_NUM_TOKENS"
[[ -n "${CASSANDRA_DC:-}" ]] && set_key datacenter "$(quoted "$CASSANDRA_DC")"
[[ -n "${CASSANDRA_RACK:-}" ]] && set_key rack "$(quoted "$CASSANDRA_RACK")"

for name in $(compgen -e); do
    case "$name" in
        CASSANDRA_CLUSTER_NAME | CASSANDRA_SEEDS | CASSANDRA_LISTEN_ADDRESS | CASSANDRA_BROADCAST_ADDRESS | \
            CASSANDRA_RPC_ADDRESS | CASSANDRA_DC | CASSANDRA_RACK | CASSANDRA_NUM_TOKENS) ;;
        CASSANDRA_*) echo "ballot-entrypoint: $name is not a setting of Ballot's; ignored" >&2 ;;
        BALLOT_CONFIG | BALLOT_JAR | BALLOT_DATA | BALLOT_JAVA_OPTS) ;;
        BALLOT_*)
            key="${name#BALLOT_}"
            set_key "${key,,}" "${!name}"
            ;;
    esac
done

mkdir -p "$(dirname "$config")"
{
    echo "# Written by ballot-entrypoint from the container's environment; rewritten at every start."
    for key in "${keys[@]}"; do
        printf '%s: %s\n' "$key" "${settings[$key]}"
    done
} >"$config"
echo "ballot-entrypoint: settings in $config:"
sed -n 's/^\([^#]\)/  \1/p' "$config"

read -r -a java_args <<<"$java_opts"
# Out of memory, the node ends (and Docker's restart policy, if any, restarts it) instead of limping on.
exec java "${java_args[@]}" -XX:+ExitOnOutOfMemoryError -jar "$jar" --config "$config" "$@"
