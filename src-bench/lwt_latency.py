"""One request in flight: the p50 of an LWT against a plain write on the same cluster (issue 9's latency targets).

    python lwt_latency.py --hosts 127.0.0.1,127.0.0.2,127.0.0.3 [--port 9042] [--rf 3] [--warmup 600] [--count 800]
                          [--sync-file PATH]

Interleaves three statements, one at a time, through the DataStax Python driver (token-aware, as clients run):
a plain INSERT at QUORUM of a new key, an INSERT ... IF NOT EXISTS of a new key (serial SERIAL, commit QUORUM), and
an UPDATE ... IF v = ? on one hot key (the same partition every time). Interleaving puts the three under the same
machine load. Prints progress, then per kind the count, p50, p90, p99 and max in ms, and the LWT / plain p50 ratios.

With --sync-file (a file on the nodes' disk), a fourth kind is interleaved: one synced write, 100 bytes appended to
that file and fdatasync'ed, as a synced RocksDB write appends to its log. It prices issue 9's one-node target (an LWT
p50 at most the plain write's p50 plus one synced write plus 0.2 ms), which the summary then states.
"""

import argparse
import atexit
import os
import statistics
import sys
import time
import uuid

from cassandra import ConsistencyLevel
from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
from cassandra.policies import DCAwareRoundRobinPolicy, TokenAwarePolicy


def percentile(sorted_ms, q):
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9042)
    parser.add_argument("--rf", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=600, help="unrecorded rounds of the three statements")
    parser.add_argument("--count", type=int, default=800, help="recorded rounds of the three statements")
    parser.add_argument("--sync-file", help="also time a synced 100-byte append to this file (removed at the end)")
    args = parser.parse_args()

    profile = ExecutionProfile(load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy()),
                               consistency_level=ConsistencyLevel.QUORUM,
                               serial_consistency_level=ConsistencyLevel.SERIAL, request_timeout=10)
    cluster = Cluster(args.hosts.split(","), port=args.port, protocol_version=4,
                      execution_profiles={EXEC_PROFILE_DEFAULT: profile})
    session = cluster.connect()
    keyspace = "lwt_latency"
    session.execute(f"DROP KEYSPACE IF EXISTS {keyspace}")
    session.execute(f"CREATE KEYSPACE {keyspace} WITH replication = "
                    f"{{'class': 'SimpleStrategy', 'replication_factor': {args.rf}}}")
    session.execute(f"CREATE TABLE {keyspace}.kv (k uuid PRIMARY KEY, v bigint)")
    plain = session.prepare(f"INSERT INTO {keyspace}.kv (k, v) VALUES (?, ?)")
    new_key = session.prepare(f"INSERT INTO {keyspace}.kv (k, v) VALUES (?, ?) IF NOT EXISTS")
    hot_update = session.prepare(f"UPDATE {keyspace}.kv SET v = ? WHERE k = ? IF v = ?")
    hot = uuid.uuid4()
    if not session.execute(new_key, (hot, 0)).was_applied:
        sys.exit("the hot key could not be created")

    timings = {"plain": [], "lwt new key": [], "lwt hot key": []}
    sync_fd = None
    if args.sync_file:
        sync_fd = os.open(args.sync_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        atexit.register(os.remove, args.sync_file)  # also when a round fails and the script exits early
        timings["synced write"] = []
    hot_value = 0
    total = args.warmup + args.count
    started = time.monotonic()
    for i in range(total):
        record = i >= args.warmup
        for kind in timings:
            if kind == "synced write":
                t0 = time.perf_counter()
                os.write(sync_fd, b"x" * 100)
                os.fdatasync(sync_fd)
                if record:
                    timings[kind].append((time.perf_counter() - t0) * 1000)
                continue
            if kind == "plain":
                statement, values = plain, (uuid.uuid4(), i)
            elif kind == "lwt new key":
                statement, values = new_key, (uuid.uuid4(), i)
            else:
                statement, values = hot_update, (hot_value + 1, hot, hot_value)
            t0 = time.perf_counter()
            result = session.execute(statement, values)
            elapsed_ms = (time.perf_counter() - t0) * 1000
            if kind != "plain" and not result.was_applied:
                sys.exit(f"{kind}: not applied at round {i} (another client on the cluster?)")
            if kind == "lwt hot key":
                hot_value += 1
            if record:
                timings[kind].append(elapsed_ms)
        if (i + 1) % 200 == 0:
            phase = "warm-up" if i < args.warmup else "measured"
            print(f"[lwt-latency] {i + 1}/{total} rounds ({phase}), {time.monotonic() - started:.0f} s", flush=True)

    print(f"[lwt-latency] {args.count} of each kind, one request in flight, hosts {args.hosts}, RF {args.rf}")
    print(f"{'kind':<12} {'count':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    p50 = {}
    for kind, samples in timings.items():
        ordered = sorted(samples)
        p50[kind] = statistics.median(ordered)
        print(f"{kind:<12} {len(ordered):>6} {p50[kind]:>8.2f} {percentile(ordered, 0.9):>8.2f} "
              f"{percentile(ordered, 0.99):>8.2f} {ordered[-1]:>8.2f}")
    print(f"ratio lwt new key / plain p50: {p50['lwt new key'] / p50['plain']:.2f}")
    print(f"ratio lwt hot key / plain p50: {p50['lwt hot key'] / p50['plain']:.2f}")
    if sync_fd is not None:
        os.close(sync_fd)
        bound = p50["plain"] + p50["synced write"] + 0.2
        for kind in ("lwt new key", "lwt hot key"):
            verdict = "within" if p50[kind] <= bound else "above"
            print(f"target {kind}: p50 {p50[kind]:.2f} ms {verdict} plain + synced write + 0.2 = {bound:.2f} ms")
    cluster.shutdown()


if __name__ == "__main__":
    main()
