#!/usr/bin/env bash
# Run the driver compatibility suites (gocql, cassandra-driver + pytest, cqlsh,
# and ScyllaDB's Python, Java and Go drivers) against the CQL server at
# BALLOT_HOST:BALLOT_PORT (default 127.0.0.1:9042).
#
# Secure mode (tests/run-secure-suites.sh): with BALLOT_USER and BALLOT_PASSWORD every suite logs in as that role, and
# with BALLOT_TLS_CA (a PEM file of the CA to trust) every suite connects over TLS; each suite's connection helper
# reads them. Unset (the default), the suites connect in plaintext without credentials.
#
#   tests/run-driver-suites.sh [go] [python] [cqlsh] [scylla] [scylla-java] [scylla-go]   (default: all six)
#
# Needs Go, Python 3.11, Java 17 with Maven, and network access to PyPI, the Go
# module proxy and Maven Central the first time; it creates tests/python/.venv and tests/scylla-python/.venv
# (gitignored) and reuses each while its requirements.txt is unchanged. Prints a
# summary and exits non-zero if any suite failed or could not run.
set -uo pipefail

TESTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export BALLOT_HOST="${BALLOT_HOST:-127.0.0.1}"
export BALLOT_PORT="${BALLOT_PORT:-9042}"
SUITE_TIMEOUT_S="${SUITE_TIMEOUT_S:-300}"
VENV="$TESTS_DIR/python/.venv"
SCYLLA_VENV="$TESTS_DIR/scylla-python/.venv"
PYTHON="${PYTHON:-python3}"

suites=("$@")
((${#suites[@]})) || suites=(go python cqlsh scylla scylla-java scylla-go)

log() { printf '[driver-suites] %s\n' "$*"; }

probe_target() {
    # A v4 OPTIONS frame must be answered with SUPPORTED (opcode 0x06); over TLS trusting BALLOT_TLS_CA if it is set.
    "$PYTHON" - "$BALLOT_HOST" "$BALLOT_PORT" "${BALLOT_TLS_CA:-}" <<'EOF'
import socket, ssl, sys
try:
    with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5) as plain:
        s = plain
        if sys.argv[3]:
            s = ssl.create_default_context(cafile=sys.argv[3]).wrap_socket(plain, server_hostname=sys.argv[1])
        s.settimeout(5)
        s.sendall(bytes.fromhex("040000000500000000"))
        header = b""
        while len(header) < 9:
            chunk = s.recv(9 - len(header))
            if not chunk:
                break
            header += chunk
    sys.exit(0 if len(header) == 9 and header[4] == 0x06 else 1)
except OSError as e:  # ssl.SSLError included
    print(e, file=sys.stderr)
    sys.exit(1)
EOF
}

declare -A result seconds
run_suite() {
    local name="$1" start rc
    shift
    log "--- $name: $*"
    start="$(date +%s)"
    (cd "$TESTS_DIR" && timeout "$SUITE_TIMEOUT_S" "$@")
    rc=$?
    seconds[$name]=$(( $(date +%s) - start ))
    if ((rc == 0)); then result[$name]=PASS; else result[$name]="FAIL (exit $rc)"; fi
    ((rc == 124)) && result[$name]="FAIL (timed out after ${SUITE_TIMEOUT_S}s)"
    log "--- $name: ${result[$name]} in ${seconds[$name]}s"
}

if ! probe_target; then
    log "nothing answers CQL OPTIONS at $BALLOT_HOST:$BALLOT_PORT${BALLOT_TLS_CA:+ over TLS trusting $BALLOT_TLS_CA}; start a server first"
    log "(real Cassandra: src-bench/cassandra/cassandra.sh start)"
    exit 1
fi
log "target $BALLOT_HOST:$BALLOT_PORT answers CQL"

for suite in "${suites[@]}"; do
    case "$suite" in
        go|scylla-go) # scylla-go: ScyllaDB's gocql fork, a module of its own (it replaces github.com/gocql/gocql)
            if (cd "$TESTS_DIR/$suite" && timeout 600 go mod download); then
                run_suite "$suite" bash -c "cd $suite && go test -count=1 -v ./... 2>&1 | grep -vE '^=== (RUN|PAUSE|CONT)'; exit \"\${PIPESTATUS[0]}\""
            else
                result[$suite]="FAIL (go mod download)"; seconds[$suite]=0
            fi
            ;;
        python|cqlsh)
            if [[ -z "${python_ready:-}" ]]; then
                if "$TESTS_DIR/prepare-venv.sh" "$TESTS_DIR/python"; then python_ready=1; else python_ready=0; fi
            fi
            if [[ "$python_ready" != 1 ]]; then
                result[$suite]="FAIL (pip install)"; seconds[$suite]=0
            elif [[ "$suite" == python ]]; then
                run_suite python bash -c "cd python && '$VENV/bin/python' -m pytest -q"
            else
                run_suite cqlsh "$VENV/bin/python" cqlsh/run_cqlsh.py
            fi
            ;;
        scylla)
            if "$TESTS_DIR/prepare-venv.sh" "$TESTS_DIR/scylla-python"; then
                run_suite scylla bash -c "cd scylla-python && '$SCYLLA_VENV/bin/python' -m pytest -q"
            else
                result[scylla]="FAIL (pip install)"; seconds[scylla]=0
            fi
            ;;
        scylla-java) # its own Maven project: the fork has the DataStax driver's packages, so it cannot join the main build
            run_suite scylla-java mvn -B -q -f scylla-java/pom.xml test
            ;;
        *) log "unknown suite '$suite' (go, python, cqlsh, scylla, scylla-java, scylla-go)"; exit 2 ;;
    esac
done

log "summary against $BALLOT_HOST:$BALLOT_PORT"
passed=0 failed=0
for suite in "${suites[@]}"; do
    printf '[driver-suites]   %-11s %-32s %4ss\n' "$suite" "${result[$suite]}" "${seconds[$suite]}"
    if [[ "${result[$suite]}" == PASS ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "driver-suites: $passed passed, $failed failed"
((failed == 0))
