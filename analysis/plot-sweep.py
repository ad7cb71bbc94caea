#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot a metric of a parameter sweep against one swept parameter.

Reads the sweep.csv that a sweep writes (doc/sweeps.md): one row per point and policy, the
swept options first, then `policy`, then the summary metrics. Draws METRIC against the
parameter X, one line per combination of the other swept parameters' values (and per policy).

    analysis/plot-sweep.py results/trace-replay/sweep.csv --x ina-pool-size --y jct_mean_s \
        -o results/plots/pool.png
    analysis/plot-sweep.py results/trace-replay/sweep.csv --list     # parameters and metrics

Needs Debian's python3-matplotlib (apt-get install python3-matplotlib).
"""

import argparse
import csv
import os
import sys


def fail(message):
    sys.exit(f"plot-sweep.py: {message}")


def read_sweep(path):
    """Returns (parameters, metrics, rows) of a sweep.csv."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if not rows:
        fail(f"{path}: no rows (did any point finish?)")
    columns = list(rows[0].keys())
    if "policy" not in columns:
        fail(f"{path}: expected a 'policy' column (a sweep.csv from an aicluster sweep)")
    split = columns.index("policy")
    return columns[:split], columns[split + 1:], rows


def as_number(text, what):
    try:
        return float(text)
    except ValueError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sweep_csv", help="a sweep's sweep.csv")
    parser.add_argument("--x", help="swept parameter on the x axis")
    parser.add_argument("--y", help="metric on the y axis (a column after 'policy')")
    parser.add_argument("--policy", help="only this policy's rows")
    parser.add_argument("--logx", action="store_true", help="logarithmic x axis")
    parser.add_argument("-o", "--output", default="results/plots/sweep.png",
                        help="image file to write (default: %(default)s)")
    parser.add_argument("--list", action="store_true", help="print parameters and metrics")
    args = parser.parse_args()

    parameters, metrics, rows = read_sweep(args.sweep_csv)
    if args.list:
        print("parameters:", ", ".join(parameters))
        print("metrics:   ", ", ".join(metrics))
        return
    if args.x not in parameters:
        fail(f"--x={args.x}: expected one of the swept parameters: {', '.join(parameters)}")
    if args.y not in metrics:
        fail(f"--y={args.y}: expected one of the metrics: {', '.join(metrics)}")
    if args.policy:
        rows = [r for r in rows if r["policy"] == args.policy]
        if not rows:
            fail(f"--policy={args.policy}: no rows with that policy")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("needs matplotlib: apt-get install python3-matplotlib (run with /usr/bin/python3)")

    others = [p for p in parameters if p != args.x]
    lines = {}
    numeric_x = all(as_number(r[args.x], args.x) is not None for r in rows)
    for r in rows:
        label = ", ".join([f"{p}={r[p]}" for p in others] + [r["policy"]])
        y = as_number(r[args.y], args.y)
        if y is None:
            fail(f"--y={args.y}: value '{r[args.y]}' is not a number")
        x = float(r[args.x]) if numeric_x else r[args.x]
        lines.setdefault(label, []).append((x, y))

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, points in lines.items():
        if numeric_x:
            points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label)
    ax.set_xlabel(args.x)
    ax.set_ylabel(args.y)
    if args.logx:
        ax.set_xscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    directory = os.path.dirname(args.output)
    if directory:
        os.makedirs(directory, exist_ok=True)
    try:
        fig.savefig(args.output, dpi=120)
    except OSError as e:
        fail(f"-o {args.output}: {e.strerror}")
    print(f"wrote {args.output} ({len(lines)} lines, {len(rows)} rows)")


if __name__ == "__main__":
    main()
