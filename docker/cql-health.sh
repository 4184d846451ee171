#!/usr/bin/env bash
# The image's health check: one real CQL query. Opens a connection to the node's CQL port, sends STARTUP and then
# QUERY "SELECT release_version FROM system.local" at ONE (native protocol v4), and exits 0 only if the node answers
# READY and then a Rows result. Any other answer, a closed connection or no node exits 1, with the reason on stdout
# (docker inspect shows it under State.Health.Log).
#
# It needs only bash (/dev/tcp), dd and od: no JVM started every interval, no Python in the image.
#
#   ballot-health [HOST [PORT]]   default: native_transport_address and native_transport_port of $BALLOT_CONFIG
set -euo pipefail

config="${BALLOT_CONFIG:-/etc/ballot/node.yaml}"
setting() {
    [[ -r "$config" ]] || return 0
    sed -n "s/^$1:[[:space:]]*//p" "$config" | tr -d '"' | tail -n 1
}
host="${1:-$(setting native_transport_address)}"
port="${2:-$(setting native_transport_port)}"
host="${host:-127.0.0.1}"
port="${port:-9042}"
query="SELECT release_version FROM system.local"

unhealthy() {
    echo "unhealthy: $host:$port: $*"
    exit 1
}

hex_of() { printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n'; }
short_string() { printf '%04x%s' "${#1}" "$(hex_of "$1")"; }
long_string() { printf '%08x%s' "${#1}" "$(hex_of "$1")"; }

# A request frame in hex: version 4, no flags, stream 0, OPCODE, then the body's length and the body.
frame() { printf '04000000%s%08x%s' "$1" $((${#2} / 2)) "$2"; }
send() {
    local hex="$1" bytes="" i
    for ((i = 0; i < ${#hex}; i += 2)); do bytes+="\\x${hex:i:2}"; done
    printf '%b' "$bytes" >&3
}
# N bytes of the answer, in hex; dd reads them one at a time so that nothing past them is consumed.
receive() { dd bs=1 count="$1" status=none <&3 | od -An -tx1 -v | tr -d ' \n'; }

# Reads one answer's header; sets opcode and length, and turns an ERROR answer into the exit.
answer() {
    local header
    header="$(receive 9)"
    ((${#header} == 18)) || unhealthy "the connection closed before an answer to $1"
    opcode="${header:8:2}"
    length=$((16#${header:10:8}))
    if [[ "$opcode" == 00 ]]; then
        local code message_length
        code="$(receive 4)"
        message_length=$((16#$(receive 2)))
        unhealthy "$1 answered ERROR 0x${code:4:4}: $(dd bs=1 count="$message_length" status=none <&3)"
    fi
}

{ exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null || unhealthy "no connection"

send "$(frame 01 "0001$(short_string CQL_VERSION)$(short_string 3.0.0)")"
answer STARTUP
[[ "$opcode" == 02 ]] || unhealthy "STARTUP answered opcode 0x$opcode, not READY"

send "$(frame 07 "$(long_string "$query")000100")" # consistency ONE, no flags
answer "$query"
[[ "$opcode" == 08 ]] || unhealthy "$query answered opcode 0x$opcode, not RESULT"
((length >= 4)) || unhealthy "$query answered a RESULT of $length bytes"
kind="$(receive 4)"
[[ "$kind" == 00000002 ]] || unhealthy "$query answered result kind 0x$kind, not Rows"
exec 3>&-
echo "healthy: $host:$port answered $query"
