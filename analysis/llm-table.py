#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-2.0-only
#
"""Regenerate the whole-cluster tables of doc/llm.md by running the command of every row.

    python3 analysis/llm-table.py            # print the regenerated doc/llm.md to stdout
    python3 analysis/llm-table.py --write    # rewrite doc/llm.md in place

A row of a table of doc/llm.md whose first cell is `./ns3 run "trace-replay ..."` is run
with the built trace-replay (build/examples/trace-replay, `--binary` for another; build it
first with `./ns3 build trace-replay`) and `--output=` a temporary folder, and its cells are
computed from the run's summary.json and jobs.csv: mean JCT (summary.jct_mean_s); per kind
of job (from the model column: -pretrain, -sft, -eval, else other) the means of JCT,
queueing, data_stall_gpu_s / gpus and sync_stall_gpu_s / gpus; the checkpoints and
weight loads (components.storage) with the GPU-hours they stopped; the wall time of the run.
Each table's header is rewritten with the job counts. Python 3 standard library only.
"""

import argparse
import csv
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ROW = re.compile(r'^\| `\./ns3 run "(trace-replay [^"`]*)"` \|')


def kind_of(model):
    for suffix, kind in (("-pretrain", "pretrain"), ("-sft", "sft"), ("-eval", "eval")):
        if model.endswith(suffix):
            return kind
    return "other"


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def num(x, digits=0):
    if x != x:  # nan
        return "-"
    return "{:,.{}f}".format(x, digits)


def run(binary, command):
    args = shlex.split(command)[1:]
    with tempfile.TemporaryDirectory() as out:
        t0 = time.time()
        proc = subprocess.run([binary] + args + ["--output=" + out], cwd=REPO,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.time() - t0
        if proc.returncode != 0:
            sys.exit("llm-table: '%s' failed (exit %d): %s"
                     % (command, proc.returncode, proc.stderr.strip()))
        # One scheduling policy per scenario run: its folder holds summary.json.
        (policy,) = [d for d in os.listdir(out) if os.path.isfile(os.path.join(out, d, "summary.json"))]
        with open(os.path.join(out, policy, "summary.json")) as f:
            summary = json.load(f)
        with open(os.path.join(out, policy, "jobs.csv"), newline="") as f:
            jobs = list(csv.DictReader(f))
    groups = {}
    for j in jobs:
        groups.setdefault(kind_of(j["model"]), []).append(j)

    def col(kind, field, per_gpu=False):
        rows = groups.get(kind, [])
        return mean([float(j[field]) / (float(j["gpus"]) if per_gpu else 1) for j in rows])

    storage = summary.get("components", {}).get("storage", {})
    counts = {k: len(v) for k, v in groups.items()}
    ckpt = "%s / %s" % (num(storage["checkpoints"]) if "checkpoints" in storage else "-",
                        num(storage.get("gpu_time_lost_to_checkpoints_gpu_h", 0)))
    loads = "%s (%s) / %s" % (num(storage.get("model_loads", 0)),
                              num(storage.get("model_loads_from_cache", 0)),
                              num(storage.get("gpu_time_lost_to_model_loads_gpu_h", 0), 1))
    cells = [
        num(summary["summary"]["jct_mean_s"], 1),
        " / ".join(num(col("pretrain", f, g)) for f, g in
                   (("jct_s", False), ("queueing_s", False), ("data_stall_gpu_s", True),
                    ("sync_stall_gpu_s", True))),
        " / ".join(num(col("sft", f, g)) for f, g in
                   (("jct_s", False), ("data_stall_gpu_s", True), ("sync_stall_gpu_s", True))),
        "%s / %s, %s" % (num(col("eval", "jct_s")), num(col("eval", "data_stall_gpu_s", True), 1),
                         num(col("other", "jct_s"))),
        ckpt,
        loads,
        num(wall, 1),
    ]
    return cells, counts


def header(counts):
    return ("| command | mean JCT [s] | pre-training (%d jobs): JCT / queue / stopped for data / "
            "sync [s] | SFT (%d): JCT / data / sync [s] | evaluation (%d): JCT / data [s], "
            "other (%d): JCT [s] | checkpoints / GPU-h stopped | weight loads (from cache) / "
            "GPU-h stopped | wall [s] |\n|---|---|---|---|---|---|---|---|\n"
            % (counts.get("pretrain", 0), counts.get("sft", 0), counts.get("eval", 0),
               counts.get("other", 0)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doc", default=os.path.join(REPO, "doc", "llm.md"))
    ap.add_argument("--binary", default=os.path.join(REPO, "build", "examples", "trace-replay"))
    ap.add_argument("--write", action="store_true", help="rewrite the doc in place")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit("llm-table: no trace-replay at %s (./ns3 build trace-replay)" % args.binary)
    with open(args.doc) as f:
        lines = f.readlines()
    out = []
    i = 0
    while i < len(lines):
        # A table: its header, the separator, then rows of commands.
        if (lines[i].startswith("| command |") and i + 2 < len(lines)
                and ROW.match(lines[i + 2])):
            j = i + 2
            rows = []
            counts = None
            while j < len(lines) and ROW.match(lines[j]):
                command = ROW.match(lines[j]).group(1)
                print("llm-table: " + command, file=sys.stderr)
                cells, counts = run(args.binary, command)
                rows.append('| `./ns3 run "%s"` | %s |\n' % (command, " | ".join(cells)))
                j += 1
            out.append(header(counts))
            out.extend(rows)
            i = j
            continue
        out.append(lines[i])
        i += 1
    text = "".join(out)
    if args.write:
        with open(args.doc, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
