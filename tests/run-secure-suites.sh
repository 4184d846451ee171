#!/usr/bin/env bash
# The driver suites of run-driver-suites.sh logged in as a role that is not a superuser, over TLS (issue 14).
#
#   tests/run-secure-suites.sh [suite ...]      (suites as for run-driver-suites.sh; default all six)
#
# Makes a CA and a certificate for 127.0.0.1 in a temporary directory (tests/tls/tls-node.sh), starts one node from
# server/target/ballot-server-all.jar on free loopback ports with PasswordAuthenticator, CassandraAuthorizer and client
# TLS required, creates the role suite_user as cassandra/cassandra with the grants below, checks that the node refuses
# a wrong password, a plaintext client and a statement without a grant (tests/secure/secure_node.py), and runs the
# suites with BALLOT_USER, BALLOT_PASSWORD and BALLOT_TLS_CA. Prints a summary, exits non-zero if anything failed, and
# stops the node it started, by its PID, however it ends. Needs the jar (mvn package) and what run-driver-suites.sh
# needs.
set -uo pipefail

TESTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
JAR="${BALLOT_JAR:-$TESTS_DIR/../server/target/ballot-server-all.jar}"
VENV="$TESTS_DIR/python/.venv"
HOST=127.0.0.1
ROLE=suite_user
STORE_PASSWORD=changeit
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ballot-secure.XXXXXX")"
NODE_PID=""

log() { printf '[secure-suites] %s\n' "$*"; }

cleanup() {
    local rc=$?
    if [[ -n "$NODE_PID" ]] && kill "$NODE_PID" 2>/dev/null; then
        for _ in $(seq 60); do kill -0 "$NODE_PID" 2>/dev/null || break; sleep 0.5; done
        kill -0 "$NODE_PID" 2>/dev/null && { log "the node (pid $NODE_PID) did not stop in 30 s; killing it"; kill -9 "$NODE_PID"; }
        wait "$NODE_PID" 2>/dev/null
    fi
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT

[[ -f "$JAR" ]] || { log "no $JAR: run mvn package first"; exit 1; }
source "$TESTS_DIR/tls/tls-node.sh"
make_certificates "$WORK" "$HOST" "$STORE_PASSWORD" || exit 1
"$TESTS_DIR/prepare-venv.sh" "$TESTS_DIR/python" || { log "cannot prepare $VENV"; exit 1; }
read -r PORT STORAGE_PORT < <("$VENV/bin/python" -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')
SUITE_PASSWORD="$(openssl rand -hex 16)"

# What suite_user may do, as a Cassandra operator would grant it (tests/README.md, "Secure mode"). It holds every
# permission on the keyspaces it creates, their tables and types; every role may read system.local, system.peers and
# system_schema.
GRANTS=(
    "GRANT CREATE ON ALL KEYSPACES TO $ROLE"  # each suite makes its own keyspaces
    # The go and python suites drop a keyspace they dropped already and expect INVALID "doesn't exist". Cassandra
    # checks DROP permission first, and the creator's permissions go with the keyspace: without this grant the answer
    # is UNAUTHORIZED, or "doesn't exist" only while a permissions cache still holds the dropped keyspace's.
    "GRANT DROP ON ALL KEYSPACES TO $ROLE"
    # The tracing tests read their traces back as the role; system_traces is not among Cassandra's always-readable
    # tables (ClientState's READABLE_SYSTEM_RESOURCES), so a traced client needs SELECT on it there too.
    "GRANT SELECT ON KEYSPACE system_traces TO $ROLE"
)

cat >"$WORK/node.yaml" <<YAML
cluster_name: ballot-secure-suites
listen_address: $HOST
storage_port: $STORAGE_PORT
native_transport_address: $HOST
native_transport_port: $PORT
metrics_port: 0
data_file_directory: $WORK/data
authenticator: PasswordAuthenticator
authorizer: CassandraAuthorizer
client_encryption_options:
  enabled: true
  optional: false
  keystore: $WORK/node.p12
  keystore_password: $STORE_PASSWORD
YAML
log "starting a node on $HOST:$PORT (PasswordAuthenticator, CassandraAuthorizer, TLS required; log $WORK/node.log)"
start_node "$JAR" "$WORK/node.yaml" "$WORK/node.log" || exit 1

refusals=PASS suites=PASS
log "as cassandra over TLS: role $ROLE and its grants"
"$VENV/bin/python" "$TESTS_DIR/secure/secure_node.py" setup "$HOST" "$PORT" "$WORK/ca.pem" "$ROLE" "$SUITE_PASSWORD" \
    "${GRANTS[@]}" || { log "setting up $ROLE failed"; tail -40 "$WORK/node.log"; exit 1; }
log "refusals: a wrong password, a plaintext client, a missing grant"
"$VENV/bin/python" "$TESTS_DIR/secure/secure_node.py" refusals "$HOST" "$PORT" "$WORK/ca.pem" "$ROLE" "$SUITE_PASSWORD" \
    || refusals=FAIL
log "driver suites as $ROLE over TLS"
BALLOT_HOST=$HOST BALLOT_PORT=$PORT BALLOT_USER=$ROLE BALLOT_PASSWORD=$SUITE_PASSWORD BALLOT_TLS_CA="$WORK/ca.pem" \
    "$TESTS_DIR/run-driver-suites.sh" "$@" || suites=FAIL
if [[ $refusals != PASS || $suites != PASS ]]; then log "node log (last 60 lines):"; tail -60 "$WORK/node.log"; fi
log "summary: refusals $refusals, driver suites as $ROLE over TLS $suites"
[[ $refusals == PASS && $suites == PASS ]]
