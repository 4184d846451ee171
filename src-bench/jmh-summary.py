#!/usr/bin/env python3
"""Summarises a JMH JSON result (java -jar benchmarks.jar ... -rf json -rff FILE) robustly for a shared machine.

For each benchmark and parameter set it prints the median and the minimum of the per-iteration scores of all forks
(bursts of load from other processes inflate some iterations; the median and the minimum move much less than the
mean), and, for each pair of benchmarks named <name>Ballot / <name>Library with the same parameters, the ratio
library / Ballot of the medians: above 1, Ballot's code is faster.

    src-bench/jmh-summary.py result.json
"""
import json
import statistics
import sys


def params_text(params):
    return " ".join(f"{k}={v}" for k, v in sorted(params.items())) if params else "-"


def main(path):
    results = json.load(open(path))
    rows = []
    by_key = {}
    for r in results:
        name = r["benchmark"].rsplit(".", 2)
        short = ".".join(name[-2:])
        scores = [s for fork in r["primaryMetric"]["rawData"] for s in fork]
        unit = r["primaryMetric"]["scoreUnit"]
        params = r.get("params", {})
        median = statistics.median(scores)
        rows.append((short, params_text(params), median, min(scores), len(scores), unit))
        by_key[(short, params_text(params))] = median

    width = max(len(r[0]) for r in rows)
    pwidth = max(len(r[1]) for r in rows)
    print(f"{'benchmark':<{width}}  {'params':<{pwidth}}  {'median':>12}  {'min':>12}  n   unit")
    for short, params, median, low, n, unit in rows:
        print(f"{short:<{width}}  {params:<{pwidth}}  {median:12.1f}  {low:12.1f}  {n:<3} {unit}")

    pairs = [(k, v) for k, v in by_key.items() if k[0].endswith("Ballot")]
    if pairs:
        print()
        print("library / Ballot (median time; above 1 means Ballot is faster)")
        for (short, params), ballot in pairs:
            library = by_key.get((short[: -len("Ballot")] + "Library", params))
            if library is not None:
                print(f"  {short[: -len('Ballot')]:<{width}}  {params:<{pwidth}}  {library / ballot:5.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
