#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate aicluster's bundled LLM-era sample (traces/sample/llm-sample.csv, Acme format).

The sample is drawn from *published summary statistics* of Shanghai AI Lab's Kalos cluster
(Acme, NSDI'24; data/cluster_summary.csv of InternLM/AcmeTrace, see traces/README.md), not
copied from its rows. It is written in Acme's own job-trace format (trace_kalos.csv columns),
so it is read by the acme-csv reader and annotated by the job-type rule (doc/annotator.md).

* Run time of GPU jobs: a lognormal with Kalos' median (124 s) and mean (1,259.689 s):
  mu = ln 124, sigma = sqrt(2 ln(1259.689 / 124)) = 2.1534; rounded to whole seconds, at
  least 1 s, capped at MAX_DURATION_S (so the sample replays in seconds; Kalos' max is
  625,740 s). Independent of type and size (the summary gives only marginals).
* Final state: Kalos' GPU-job rates, completed 0.541, cancelled 0.062, failed 0.397.
* Job type and GPUs: the summary gives no type mix; the shares below are this project's
  estimate (documented in doc/llm.md) chosen so that, as the paper reports, evaluation jobs
  are the most numerous and pre-training jobs few but holding most GPU time, and so that the
  GPU counts have Kalos' median (1) and mean (26.77 GPUs, see TYPES) with its max 1,024 scaled
  to half the sample cluster (512 of 1,024 GPUs).
* Nodes: 8 GPUs per node; a job of g > 8 GPUs asks for g / 8 whole nodes (node_num).
* Arrivals: Poisson from 2023-05-01 00:00:00+00:00, rate chosen for an offered load
  TARGET_LOAD of the sample cluster (NODES x 8 GPUs) during the arrival span.

Python 3 standard library only; the same seed gives the same file, byte for byte.

Usage: traces/generate-llm-sample.py [--seed 2024] [--jobs 300] [--output PATH]
"""

import argparse
import datetime
import math
import os
import random

NODES = 128
GPUS_PER_NODE = 8
GPUS = NODES * GPUS_PER_NODE           # 1,024 GPUs
TARGET_LOAD = 0.9

MEDIAN_S = 124.0                       # Kalos med_run_time_gpu
MEAN_S = 1259.689                      # Kalos avg_run_time_gpu
MU = math.log(MEDIAN_S)
SIGMA = math.sqrt(2.0 * math.log(MEAN_S / MEDIAN_S))
MAX_DURATION_S = 6 * 3600              # sample cap (Kalos max_run_time_gpu 625,740 s)

STATES = [("COMPLETED", 0.541), ("CANCELLED", 0.062), ("FAILED", 0.397)]

# type: (share of GPU jobs, {GPUs: weight}). Shares are estimates (doc/llm.md); the GPU
# mixes give Kalos' median of 1 GPU and a mean close to its 26.77 (printed when generating).
# Type names as the released traces spell them (AcmeTrace analysis.ipynb: Eval, Pretrain,
# SFT, MLLM, Debug, Other); Kalos has no SFT or MLLM jobs, Seren has both.
TYPES = {
    "Eval":       (0.61, {1: 70, 2: 10, 4: 10, 8: 10}),
    "Other":      (0.18, {1: 60, 2: 10, 4: 10, 8: 20}),
    "Debug":      (0.10, {1: 25, 8: 35, 16: 15, 32: 10, 64: 10, 128: 5}),
    "SFT":        (0.06, {8: 25, 16: 20, 32: 25, 64: 20, 128: 10}),
    "Pretrain":   (0.05, {128: 10, 256: 30, 512: 60}),
}

START = datetime.datetime(2023, 5, 1, tzinfo=datetime.timezone.utc)
HEADER = ("job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,"
          "duration,queue,gpu_time")


def pick(rng, weighted):
    """Draw a key of a {key: weight} dict (insertion order), with one uniform draw."""
    total = sum(weighted.values())
    u = rng.random() * total
    for key, weight in weighted.items():
        u -= weight
        if u < 0:
            return key
    return key


def expected():
    """E[gpus], E[gpus x duration] of the mix (duration independent of gpus)."""
    mean_gpus = 0.0
    for share, sizes in TYPES.values():
        total = sum(sizes.values())
        mean_gpus += share * sum(g * w for g, w in sizes.items()) / total
    # mean of a lognormal capped at MAX_DURATION_S
    z = (math.log(MAX_DURATION_S) - MU) / SIGMA
    phi = lambda x: 0.5 * (1 + math.erf(x / math.sqrt(2)))
    capped = (math.exp(MU + SIGMA ** 2 / 2) * phi(z - SIGMA) + MAX_DURATION_S * (1 - phi(z)))
    return mean_gpus, capped


def fmt(t):
    return (START + datetime.timedelta(seconds=t)).strftime("%Y-%m-%d %H:%M:%S+00:00")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=300)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--output", default=os.path.join(here, "sample", "llm-sample.csv"))
    args = parser.parse_args()

    rng = random.Random(args.seed)
    mean_gpus, mean_s = expected()
    rate = TARGET_LOAD * GPUS / (mean_gpus * mean_s)
    type_shares = {t: share for t, (share, _) in TYPES.items()}
    rows = []
    t = 0.0
    for i in range(args.jobs):
        if i > 0:
            t += rng.expovariate(rate)
        job_type = pick(rng, type_shares)
        gpus = pick(rng, TYPES[job_type][1])
        duration = int(round(math.exp(rng.gauss(MU, SIGMA))))
        duration = min(MAX_DURATION_S, max(1, duration))
        state = pick(rng, dict(STATES))
        user = "u%02d" % rng.randrange(20)
        nodes = max(1, gpus // GPUS_PER_NODE)
        submit = int(t)
        # The queue time a real trace records is the original cluster's; the sample's jobs
        # start when submitted (the replay decides the queueing).
        rows.append("llm-%04d,%s,%d,%d,%d,%s,%s,%s,%s,%s,%d,0,%d" % (
            i, user, nodes, gpus, 16 * gpus, job_type, state, fmt(submit), fmt(submit),
            fmt(submit + duration), duration, gpus * duration))
    with open(args.output, "w", newline="\n") as f:
        f.write(HEADER + "\n")
        f.write("\n".join(rows) + "\n")
    gpus = [int(r.split(",")[3]) for r in rows]
    durations = [int(r.split(",")[10]) for r in rows]
    print("wrote %s: %d jobs over %.1f h; E[gpus] %.2f (Kalos 26.77), sample mean %.2f, "
          "median %d, max %d; run time median %d s, mean %.0f s (Kalos 124 / 1,259.7); "
          "rate %.5f jobs/s for load %.2f of %d GPUs"
          % (args.output, len(rows), t / 3600, mean_gpus, sum(gpus) / len(gpus),
             sorted(gpus)[len(gpus) // 2], max(gpus), sorted(durations)[len(durations) // 2],
             sum(durations) / len(durations), rate, TARGET_LOAD, GPUS))


if __name__ == "__main__":
    main()
