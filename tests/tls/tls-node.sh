# Sourced by the scripts that run one Ballot node with client TLS (tests/tls/run-tls-clients.sh,
# tests/run-secure-suites.sh): they make their certificates and start their node the same way.

# make_certificates DIR ADDRESS PASSWORD
# A CA made at run time (DIR/ca.p12, its certificate DIR/ca.pem for clients to trust) and the node's key store
# DIR/node.p12 (PKCS12, password PASSWORD), its certificate signed by the CA for ADDRESS (subjectAltName ip:ADDRESS),
# both valid for 2 days: the keytool commands of docs/tls.md. No key is ever committed.
make_certificates() {
    local dir="$1" address="$2" password="$3" output
    kt() {
        output="$(keytool "$@" -storepass "$password" 2>&1)" \
            || { echo "keytool $1 failed (making the test certificates in $dir): $output" >&2; return 1; }
    }
    kt -genkeypair -alias ca -keyalg EC -groupname secp256r1 -dname CN=ballot-test-ca -ext bc:c -validity 2 \
        -keystore "$dir/ca.p12" -storetype PKCS12 &&
    kt -exportcert -rfc -alias ca -keystore "$dir/ca.p12" -file "$dir/ca.pem" &&
    kt -genkeypair -alias node -keyalg EC -groupname secp256r1 -dname CN=node -validity 2 \
        -keystore "$dir/node.p12" -storetype PKCS12 &&
    kt -certreq -alias node -keystore "$dir/node.p12" -file "$dir/node.csr" &&
    kt -gencert -alias ca -keystore "$dir/ca.p12" -infile "$dir/node.csr" -outfile "$dir/node.pem" -rfc -validity 2 \
        -ext "san=ip:$address" &&
    kt -importcert -noprompt -alias ca -file "$dir/ca.pem" -keystore "$dir/node.p12" &&
    kt -importcert -alias node -file "$dir/node.pem" -keystore "$dir/node.p12"
}

# start_node JAR YAML LOG
# Starts a node from JAR with the configuration YAML in the background, its output in LOG, and sets NODE_PID (for the
# caller's trap to stop). Returns once the node logs "node started"; 1, with the log's tail, if it exits first or
# does not start within 60 s.
start_node() {
    local jar="$1" yaml="$2" log="$3"
    java -Xmx512m -jar "$jar" --config "$yaml" >"$log" 2>&1 &
    NODE_PID=$!
    for _ in $(seq 600); do
        grep -q "node started" "$log" && return 0
        kill -0 "$NODE_PID" 2>/dev/null || { echo "the node ($yaml) exited while starting:" >&2; tail -30 "$log" >&2; return 1; }
        sleep 0.1
    done
    echo "the node ($yaml) did not start within 60 s:" >&2
    tail -30 "$log" >&2
    return 1
}
