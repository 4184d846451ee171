#!/usr/bin/env bash
# The Python driver and cqlsh against one node with client TLS on (docs/tls.md), apart from the plaintext suites of
# run-driver-suites.sh. Makes a CA and the node's key store with keytool in a temporary directory (tls-node.sh), starts the node from
# server/target/ballot-server-all.jar on BALLOT_TLS_HOST:BALLOT_TLS_PORT, runs tls_clients.py and cqlsh --ssl, and
# stops the node. Needs the jar (mvn package) and tests/python/.venv (made by run-driver-suites.sh).
set -euo pipefail

TESTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$TESTS_DIR/../server/target/ballot-server-all.jar"
VENV="$TESTS_DIR/python/.venv"
HOST="${BALLOT_TLS_HOST:-127.0.6.1}"
PORT="${BALLOT_TLS_PORT:-26042}"
STORAGE_PORT="${BALLOT_TLS_STORAGE_PORT:-26043}"
PASSWORD=changeit
WORK="$(mktemp -d)"
NODE_PID=""

cleanup() {
    local rc=$?
    if [[ -n "$NODE_PID" ]]; then kill "$NODE_PID" 2>/dev/null; wait "$NODE_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT

[[ -f "$JAR" ]] || { echo "no $JAR: run mvn package first" >&2; exit 1; }
[[ -x "$VENV/bin/python" ]] || { echo "no $VENV: run tests/run-driver-suites.sh python first" >&2; exit 1; }

source "$TESTS_DIR/tls/tls-node.sh"
make_certificates "$WORK" "$HOST" "$PASSWORD"

cat >"$WORK/node.yaml" <<YAML
listen_address: $HOST
storage_port: $STORAGE_PORT
native_transport_address: $HOST
native_transport_port: $PORT
metrics_port: 0
data_file_directory: $WORK/data
client_encryption_options:
  enabled: true
  keystore: $WORK/node.p12
  keystore_password: $PASSWORD
YAML
start_node "$JAR" "$WORK/node.yaml" "$WORK/node.log"

"$VENV/bin/python" "$TESTS_DIR/tls/tls_clients.py" "$HOST" "$PORT" "$WORK/ca.pem"

# cqlsh reads the CA certificate from SSL_CERTFILE (or [ssl] certfile in cqlshrc); cqlsh 6.2.2 with cassandra-driver
# 3.30.1 does not check the node's certificate against it, though (docs/tls.md, "Connecting with TLS").
answer="$(SSL_CERTFILE="$WORK/ca.pem" SSL_VALIDATE=true "$VENV/bin/cqlsh" --ssl "$HOST" "$PORT" -e "SELECT v FROM tls.t WHERE k = 1")"
grep -q " one" <<<"$answer" || { echo "cqlsh --ssl did not read the row: $answer" >&2; exit 1; }
echo "cqlsh --ssl: ok"
