#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-2.0-only
#
"""Print storage-allocation's storage-summary.json as the markdown table of doc/storage.md.

    python3 analysis/storage-table.py results/storage-allocation/storage-summary.json
    python3 analysis/storage-table.py --columns=jct summary.json   # welfare, JCTs, slowed

Columns "cost" (default): IO cost, bandwidth and cache cost [$], welfare, mean JCT [h], hit
ratio, mean and peak remote bandwidth [GB/s]. Columns "jct": IO cost, welfare, mean and
median JCT [h], share of jobs slowed (against the first policy of the run), GPU time
[thousand GPU-hours]. Python 3 standard library only.
"""

import argparse
import json
import sys


def table(summary, columns):
    rows = []
    if columns == "cost":
        rows.append("| policy | IO cost | bw | cache | welfare | mean JCT [h] | hit | mean BW | "
                    "peak BW |")
        rows.append("|---|---|---|---|---|---|---|---|---|")
        for p in summary["policies"]:
            rows.append("| %s | %.2f | %.2f | %.2f | %.0f | %.2f | %.3f | %.2f | %.2f |" % (
                p["policy"], p["io_cost_usd"], p["bandwidth_cost_usd"], p["cache_cost_usd"],
                p["welfare"], p["mean_jct_s"] / 3600, p["hit_ratio"],
                p["mean_remote_bandwidth_Bps"] / 1e9, p["peak_bandwidth_Bps"] / 1e9))
    else:
        first = summary["policies"][0]["policy"]
        rows.append("| policy | IO cost | welfare | mean JCT [h] | median JCT [h] | "
                    "slowed vs %s | GPU-kh |" % first)
        rows.append("|---|---|---|---|---|---|---|")
        for p in summary["policies"]:
            rows.append("| %s | %.2f | %.0f | %.2f | %.2f | %.3f | %.1f |" % (
                p["policy"], p["io_cost_usd"], p["welfare"], p["mean_jct_s"] / 3600,
                p["median_jct_s"] / 3600, p["slowed_share"], p["gpu_hours"] / 1000))
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("summary", help="storage-summary.json of storage-allocation")
    parser.add_argument("--columns", choices=["cost", "jct"], default="cost")
    args = parser.parse_args()
    try:
        with open(args.summary) as f:
            summary = json.load(f)
        print(table(summary, args.columns))
    except (OSError, ValueError, KeyError) as e:
        print("storage-table: %s: %s" % (args.summary, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
