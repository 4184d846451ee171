#!/usr/bin/env bash
# The chaos suite (docs/reliability.md): a 3-node cluster of node processes under mixed load (LWT registers, plain
# QUORUM writes, transfers in BEGIN TRANSACTION) while, in cycles, a node is killed with SIGKILL and restarted,
# another is frozen with SIGSTOP, and a third fault in turn: a full disk (each node's data directory is a 1 GiB tmpfs
# filled by a ballast file), file descriptors exhausted (prlimit lowers the node's open-files limit to what it has
# open), or stalls (stopped 100-300 ms out of every 400-800 ms). Afterwards every LWT register's history must be
# linearizable, every acknowledged write present and the accounts' total unchanged. It is LwtLinearizabilityIT with
# -Dballot.chaos=true; the disk faults need root (to mount the tmpfs) and are left out without it.
#
#   tests/run-chaos.sh [--minutes M] [--seed S]    (default 10 minutes)
#
# Not part of ./ballot test. Uses its own temporary directories and free ports, and ends the nodes it started.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minutes=10
seed=""
while (($#)); do
    case "$1" in
        --minutes) minutes="$2"; shift 2 ;;
        --seed) seed="-Dballot.lwt.seed=$2"; shift 2 ;;
        *) echo "usage: $0 [--minutes M] [--seed S]" >&2; exit 2 ;;
    esac
done
((minutes >= 1)) || { echo "--minutes must be at least 1" >&2; exit 2; }
cd "$ROOT" || exit 1
echo "[chaos] building, then $minutes minute(s) of load and faults on 3 node processes ..."
started=$SECONDS
mvn -B -q -pl server -am -DskipTests install >/dev/null || { echo "[chaos] build failed" >&2; exit 1; }
mvn -B -pl server verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=LwtLinearizabilityIT \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dballot.chaos=true -Dballot.lwt.seconds=$((minutes * 60)) $seed \
    | grep -E '^(fault|  \[|LWT linearizability|register [0-9]|chaos|\[ERROR\]|\[INFO\] Tests run)'
status=${PIPESTATUS[0]}
echo "[chaos] finished in $((SECONDS - started)) s: $([[ $status == 0 ]] && echo PASSED || echo FAILED)"
exit "$status"
