#!/usr/bin/env bash
# Coverage-guided fuzzing (Jazzer) of what clients send: the envelope and segment decoders, every request body codec,
# the CQL lexer and parser, the type-string parser and the type codecs (cql-frontend/src/test/java/ballot/cql/fuzz).
# Each target runs for its @FuzzTest maxDuration (12 s) per round, one JVM per target (Jazzer fuzzes one target per
# run). The corpus grows in cql-frontend/.cifuzz-corpus (not committed) and carries over from round to round; an
# input that breaks a target is written to cql-frontend/src/test/resources/ballot/cql/fuzz/<Class>Inputs/<target>/,
# where `mvn test` replays it from then on: commit it with the fix, as a regression test.
#
#   tests/run-fuzz.sh              one round of every target (about 2 minutes; ./ballot test runs this)
#   tests/run-fuzz.sh --rounds 30  the long run (about an hour)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=1
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        *) echo "usage: $0 [--rounds N]" >&2; exit 2 ;;
    esac
done
((rounds >= 1)) || { echo "--rounds must be at least 1" >&2; exit 2; }

TARGETS=(
    ProtocolFuzzTest#envelopeDecoderTakesAnyBytes
    ProtocolFuzzTest#segmentDecoderTakesAnyBytes
    ProtocolFuzzTest#requestBodiesDecodeOrAreProtocolErrors
    CqlFuzzTest#parserAnswersAnyTextWithAStatementOrACqlError
    CqlFuzzTest#typeStringsParseOrAreCqlErrors
    CqlFuzzTest#valuesValidateOrAreCqlErrorsAndValidOnesRender
)
started=$SECONDS
failed=()
cd "$ROOT" || exit 1
# Compiled once; each target then runs surefire alone.
build_log="$(mktemp "${TMPDIR:-/tmp}/ballot-fuzz-build.XXXXXX")"
mvn -B -q -pl cql-frontend -am -DskipTests install >"$build_log" 2>&1 || { cat "$build_log"; echo "[fuzz] build failed" >&2; exit 1; }
rm -f "$build_log"
for ((round = 1; round <= rounds; round++)); do
    for target in "${TARGETS[@]}"; do
        log="$(mktemp "${TMPDIR:-/tmp}/ballot-fuzz.XXXXXX")"
        if JAZZER_FUZZ=1 mvn -B -q -pl cql-frontend surefire:test -Dtest="$target" >"$log" 2>&1; then
            runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
            echo "[fuzz] round $round/$rounds $target: ${runs:-done}, no finding"
        else
            echo "[fuzz] round $round/$rounds $target: FINDING (see below; the input is under cql-frontend/src/test/resources)"
            grep -E 'FuzzTestFinding|Exception|Error' "$log" | head -20
            failed+=("$target")
        fi
        rm -f "$log"
    done
done
if ((${#failed[@]} == 0)); then
    echo "[fuzz] $rounds round(s) of ${#TARGETS[@]} targets in $((SECONDS - started)) s: no finding"
else
    echo "[fuzz] $rounds round(s) in $((SECONDS - started)) s: findings in ${failed[*]}"
    exit 1
fi
