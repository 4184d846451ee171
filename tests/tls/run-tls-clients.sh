#!/usr/bin/env bash
# The Python driver and cqlsh against one node with client TLS on (docs/tls.md), apart from the plaintext suites of
# run-driver-suites.sh. Makes a CA and the node's key store with keytool in a temporary directory, starts the node from
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

kt() { keytool "$@" -storepass "$PASSWORD" >/dev/null 2>&1; }
kt -genkeypair -alias ca -keyalg EC -groupname secp256r1 -dname CN=ballot-tls-ca -ext bc:c -validity 2 -keystore "$WORK/ca.p12" -storetype PKCS12
kt -exportcert -rfc -alias ca -keystore "$WORK/ca.p12" -file "$WORK/ca.pem"
kt -genkeypair -alias node -keyalg EC -groupname secp256r1 -dname CN=node -validity 2 -keystore "$WORK/node.p12" -storetype PKCS12
kt -certreq -alias node -keystore "$WORK/node.p12" -file "$WORK/node.csr"
kt -gencert -alias ca -keystore "$WORK/ca.p12" -infile "$WORK/node.csr" -outfile "$WORK/node.pem" -rfc -validity 2 -ext "san=ip:$HOST"
kt -importcert -noprompt -alias ca -file "$WORK/ca.pem" -keystore "$WORK/node.p12"
kt -importcert -alias node -file "$WORK/node.pem" -keystore "$WORK/node.p12"

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
java -Xmx384m -jar "$JAR" --config "$WORK/node.yaml" >"$WORK/node.log" 2>&1 &
NODE_PID=$!
for _ in $(seq 600); do
    grep -q "node started" "$WORK/node.log" && break
    kill -0 "$NODE_PID" 2>/dev/null || { cat "$WORK/node.log" >&2; exit 1; }
    sleep 0.1
done
grep -q "node started" "$WORK/node.log" || { echo "the node did not start in 60 s" >&2; exit 1; }

"$VENV/bin/python" "$TESTS_DIR/tls/tls_clients.py" "$HOST" "$PORT" "$WORK/ca.pem"

# cqlsh reads the CA certificate from SSL_CERTFILE (or [ssl] certfile in cqlshrc) and checks the node's against it.
answer="$(SSL_CERTFILE="$WORK/ca.pem" SSL_VALIDATE=true "$VENV/bin/cqlsh" --ssl "$HOST" "$PORT" -e "SELECT v FROM tls.t WHERE k = 1")"
grep -q " one" <<<"$answer" || { echo "cqlsh --ssl did not read the row: $answer" >&2; exit 1; }
echo "cqlsh --ssl: ok"
