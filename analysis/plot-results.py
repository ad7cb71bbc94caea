#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot aicluster result directories: JCT CDFs per run and GPU utilization over time.

Each argument is a result directory written by an aicluster experiment (it holds
summary.json, jobs.csv and utilization.csv), or a parent directory whose
sub-directories are (e.g. results/trace-replay holds fifo/, sjf/, tiresias/).

    analysis/plot-results.py results/trace-replay -o results/plots

Writes <out>/jct-cdf.png and <out>/utilization.png and prints a summary table.
Needs Debian's python3-matplotlib (apt-get install python3-matplotlib).
"""

import argparse
import csv
import json
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot-results.py: needs matplotlib: apt-get install python3-matplotlib "
             "(and run it with /usr/bin/python3)")


def result_dirs(paths):
    """Expand parents into the result directories below them, keep order."""
    found = []
    for path in paths:
        if os.path.isfile(os.path.join(path, "summary.json")):
            found.append(path)
            continue
        if not os.path.isdir(path):
            sys.exit(f"plot-results.py: {path}: no such directory")
        children = sorted(os.path.join(path, c) for c in os.listdir(path)
                          if os.path.isfile(os.path.join(path, c, "summary.json")))
        if not children:
            sys.exit(f"plot-results.py: {path}: no summary.json in it or its sub-directories")
        found.extend(children)
    return found


def label_of(directory, summary):
    """A short label: the scheduler's name plus the directory name when they differ."""
    name = os.path.basename(os.path.normpath(directory))
    scheduler = (summary.get("scheduler") or {}).get("typeId", "").replace("ns3::", "")
    return name if not scheduler or name.lower() in scheduler.lower() else f"{name} ({scheduler})"


def read_jcts(directory):
    path = os.path.join(directory, "jobs.csv")
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        jcts = [float(r["jct_s"]) for r in rows if float(r["jct_s"]) >= 0]
    if not jcts:
        sys.exit(f"plot-results.py: {path}: no finished job")
    return sorted(jcts)


def read_utilization(directory):
    path = os.path.join(directory, "utilization.csv")
    times, allocated, busy = [], [], []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            total = float(r["total_gpus"])
            times.append(float(r["time_s"]) / 86400)
            allocated.append(float(r["allocated_gpus"]) / total)
            busy.append(float(r["busy_gpus"]) / total)
    return times, allocated, busy


def plot_jct_cdf(runs, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, jcts in runs:
        n = len(jcts)
        ax.step([j / 3600 for j in jcts], [(i + 1) / n for i in range(n)], where="post", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("job completion time [h]")
    ax.set_ylabel("fraction of jobs")
    ax.set_ylim(0, 1)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    ax.set_title("JCT CDF")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_utilization(series, out):
    fig, axes = plt.subplots(len(series), 1, figsize=(8, 2.2 * len(series) + 0.6),
                             sharex=True, squeeze=False)
    for ax, (label, (times, allocated, busy)) in zip(axes[:, 0], series):
        ax.step(times, allocated, where="post", label="GPUs allocated", linewidth=0.8)
        ax.step(times, busy, where="post", label="GPUs computing", linewidth=0.8)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("share")
        ax.set_title(label, fontsize=10)
        ax.grid(True, alpha=0.3)
    axes[0, 0].legend(loc="lower right", fontsize=8)
    axes[-1, 0].set_xlabel("simulated time [days]")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dirs", nargs="+", help="result directories (or their parents)")
    parser.add_argument("-o", "--out", default="results/plots", help="output directory")
    args = parser.parse_args()

    dirs = result_dirs(args.dirs)
    os.makedirs(args.out, exist_ok=True)
    runs, series = [], []
    print(f"{'run':<28}{'jobs':>8}{'meanJCT[h]':>12}{'p95JCT[h]':>11}{'GPU alloc':>11}"
          f"{'seed':>6}")
    for d in dirs:
        with open(os.path.join(d, "summary.json")) as f:
            summary = json.load(f)
        label = label_of(d, summary)
        s = summary["summary"]
        print(f"{label:<28}{s['finished']:>8}{s['jct_mean_s'] / 3600:>12.2f}"
              f"{s['jct_p95_s'] / 3600:>11.2f}{s['gpu_allocation']:>11.3f}{summary['seed']:>6}")
        runs.append((label, read_jcts(d)))
        series.append((label, read_utilization(d)))
    plot_jct_cdf(runs, os.path.join(args.out, "jct-cdf.png"))
    plot_utilization(series, os.path.join(args.out, "utilization.png"))
    print(f"wrote {args.out}/jct-cdf.png and {args.out}/utilization.png")


if __name__ == "__main__":
    main()
