#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-2.0-only
#
"""Regenerate data/workload-catalog.json from the public measurements in ../shared/traces.

Measured numbers (step, sync and compute times, typical local batch) are read from the
trace folders every time this script runs; model and dataset facts (parameter counts,
dataset sizes, bytes and CPU cost per sample, target epochs) are hand-cited in the FACTS
table below, each with the basis it rests on. The committed JSON is this script's output:

    python3 data/build-catalog.py                  # rewrite data/workload-catalog.json
    python3 data/build-catalog.py --check          # exit 1 if the committed file is stale

Python 3 standard library only. See doc/workload-catalog.md for every field and unit.
"""

import argparse
import ast
import csv
import glob
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_TRACES = os.path.normpath(os.path.join(REPO, "..", "shared", "traces"))
DEFAULT_OUT = os.path.join(HERE, "workload-catalog.json")

# Sia's "dgx-ext" profiles: DGX-A100 (8x NVLink A100 40GB) with the extended batch-size sweep,
# per the comment on cluster_ngpus_per_node in siasosp23/artifacts sia-simulator/simulator_config.py.
SIA_GPU_PROFILE = "dgx-ext"
SIA_GPU_NAME = "A100-SXM4-40GB (Sia dgx-ext profile, 8 GPUs/node)"
SIA_GPUS_PER_NODE = 8
SIA_MAX_GPUS = 16  # the placements files cover up to two 8-GPU nodes ("88")
GAVEL_GPU = "v100"
GAVEL_GPU_NAME = "V100 (Gavel simulation_throughputs.json, key 'v100')"

SIA_CITE = ("Sia (SOSP'23) artifact siasosp23/artifacts sia-simulator/traces/{app}/"
            "placements-dgx-ext.csv; target epochs from sia-simulator/applications.py "
            "(max_epochs); model/dataset from petuum/adaptdl benchmark/models/{app}")
GAVEL_CITE = ("Gavel (OSDI'20) stanford-futuredata/gavel scheduler/simulation_throughputs.json "
              "key v100, isolated ('null') throughput; job command from scheduler/traces/msr")

# Model facts: parameters (gradientBytes = 4 bytes x parameters, fp32 gradients).
# Each value carries the basis it rests on; "derived" = computed from the model code's layer
# shapes, "estimate" = an order-of-magnitude figure to be refined by a measurement.
MODELS = {
    "resnet18-cifar": (11173962, "ResNet-18 CIFAR variant (kuangliu/pytorch-cifar, used by "
                                 "adaptdl pytorch-cifar and Gavel cifar10): 11,173,962 parameters"),
    "resnet50": (25557032, "torchvision resnet50: 25,557,032 parameters"),
    "yolov3-voc": (61626049, "YOLOv3/Darknet-53 (61,949,149 parameters with 80 COCO classes) "
                             "with 20-class VOC heads: 3 output convs shrink from 255 to 75 "
                             "channels, -323,100 -> 61,626,049 (derived)"),
    "deepspeech2": (41187968, "adaptdl benchmark/models/deepspeech2 model.py+train.py defaults: "
                              "2 conv (41x11, 21x11, 32 ch), 5 bidirectional GRU layers of 800, "
                              "29 output labels -> 41,187,968 parameters (derived)"),
    "bert-base-qa": (109483778, "bert-base-uncased (BertModel 109,482,240) + SQuAD span head "
                                "768x2+2 -> 109,483,778 parameters"),
    "neumf": (1602657, "adaptdl benchmark/models/ncf NeuMF-end on ml-1m (6,040 users, 3,706 "
                       "items), factor_num 32, 3 MLP layers: GMF emb 311,872 + MLP emb "
                       "1,247,488 + MLP 43,232 + predict 65 -> 1,602,657 (derived)"),
    "transformer-multi30k": (48000000, "attention-is-all-you-need-pytorch defaults (6+6 layers, "
                                       "d_model 512, d_inner 2048, shared target projection) on "
                                       "Multi30k vocabularies: ~48M parameters (estimate)"),
    "lstm-lm-wikitext2": (13987678, "Gavel workloads/pytorch/language_modeling main.py defaults: "
                                    "2-layer LSTM, emsize=nhid=200, untied, vocabulary 33,278 -> "
                                    "13,987,678 parameters (derived)"),
    "recoder-ml20m": (8063508, "Gavel recommendation train.py: Recoder DynamicAutoencoder "
                               "hidden [200] over 20,108 ML-20M items (VAE-CF pro_sg split): "
                               "2 x 20,108 x 200 + 200 + 20,108 -> 8,063,508 (derived, untied)"),
    "cyclegan": (28286000, "PyTorch-GAN cyclegan.py: 2 ResNet-9-block generators (~11.378M "
                           "each) + 2 PatchGAN discriminators (~2.765M each) -> ~28.29M "
                           "(estimate)"),
    "a3c-atari": (588967, "pytorch-a3c ActorCritic (4 conv 32x3x3, LSTMCell 288->256, 6 Pong "
                          "actions): 588,967 parameters (derived)"),
}

# Dataset facts. raw = stored bytes per sample, decoded = bytes per sample as the loader
# hands it to the GPU (PyTorch default float32 tensors unless noted), cpu = core-seconds to
# decode and augment one sample, samples = samples per epoch.
DATASETS = {
    "cifar10": dict(
        samples=50000, bytes=153650000, raw=3073, decoded=12288, cpu=5e-5,
        basis="CIFAR-10 train: 50,000 x 3,073 B (binary version: 1 label + 32x32x3); decoded "
              "3x32x32 float32; cpu = pad/crop/flip/normalize of a 32x32 image (estimate)"),
    "imagenet-1k": dict(
        samples=1281167, bytes=147897477120, raw=115440, decoded=602112, cpu=3e-3,
        basis="ILSVRC2012 train: 1,281,167 JPEGs, ILSVRC2012_img_train.tar 147,897,477,120 B "
              "(~115 KB/image); decoded 3x224x224 float32; cpu = Pillow decode 1.4-1.9 ms per "
              "ImageNet JPEG on one current x86 core (537-726 img/s, ternaus/imread_benchmark, "
              "arXiv 2605.08731) + RandomResizedCrop/flip/ToTensor/normalize ~1.5 ms "
              "(estimate) = 3 ms"),
    "pascal-voc-07+12": dict(
        samples=16551, bytes=2459671040, raw=148612, decoded=2408448, cpu=5e-3,
        basis="VOC2007+2012 detection trainval: 5,011 + 11,540 images; the two trainval tars "
              "460,032,000 + 1,999,639,040 B; decoded 3x448x448 float32 (adaptdl yolov3 "
              "TRAIN_IMG_SIZE 448); cpu = decode of a ~500x375 JPEG (~2 ms, as ImageNet) + "
              "affine/crop/flip/resize to 448 (estimate) = 5 ms"),
    "cmu-arctic": dict(
        samples=7924, bytes=760704000, raw=96000, decoded=193200, cpu=2e-3,
        basis="CMU ARCTIC via VoxForge cmu_us manifests (adaptdl deepspeech2 adaptdljob.yaml): "
              "7 speakers x 1,132 utterances (upper bound: the train split of the manifest is "
              "not published); ~3 s 16 kHz 16-bit WAV; decoded 161 bins x 300 frames float32 "
              "spectrogram; cpu = STFT + normalize (estimate)"),
    "squad-v1.1": dict(
        samples=88641, bytes=30288272, raw=342, decoded=9232, cpu=1e-5,
        basis="SQuAD v1.1 train-v1.1.json 30,288,272 B; 87,599 questions -> 88,641 features at "
              "max_seq_length 384, doc_stride 128; decoded 3 x 384 int64 + 2 int64 positions; "
              "cpu = cached features, collate only (estimate)"),
    "movielens-1m": dict(
        samples=4970845, bytes=21000000, raw=4.2, decoded=20, cpu=2e-6,
        basis="ml-1m.train.rating (NCF split): 994,169 ratings x (1 positive + 4 sampled "
              "negatives, num_ng=4) per epoch; ~21 B per stored rating line, i.e. ~4.2 B per "
              "sample (estimate); decoded user+item int64 + label float32; cpu = negative "
              "sampling (estimate)"),
    "multi30k": dict(
        samples=29000, bytes=4350000, raw=150, decoded=480, cpu=1e-5,
        basis="Multi30k de-en train: 29,000 sentence pairs, ~25 words per pair (~150 B, "
              "estimate); decoded ~2 x 30 int64 token ids; cpu = collate/pad (estimate)"),
    "wikitext-2": dict(
        samples=59675, bytes=10797148, raw=181, decoded=560, cpu=1e-6,
        basis="WikiText-2 train: 2,088,628 tokens, wiki.train.tokens 10,797,148 B; a sample is "
              "one bptt=35-token column (Gavel CorpusDataset: 2,088,628 // 35 = 59,675); "
              "decoded 2 x 35 int64; cpu ~0 (tensor slicing)"),
    "movielens-20m": dict(
        samples=116677, bytes=120000000, raw=1028, decoded=80432, cpu=5e-5,
        basis="ML-20M, VAE-CF pro_sg preprocessing (Gavel recommendation): 116,677 training "
              "users over 20,108 items; train.csv ~120 MB (estimate); a sample is one user's "
              "row, decoded dense float32 x 20,108; cpu = sparse-to-dense + negatives "
              "(estimate)"),
    "monet2photo": dict(
        samples=6287, bytes=291000000, raw=70000, decoded=1572864, cpu=2e-3,
        basis="monet2photo (CycleGAN): 1,072 Monet + 6,287 photo training images, epoch = "
              "6,287 unaligned pairs; ~291 MB archive (estimate); a sample is 2 JPEGs (~70 KB), "
              "decoded 2 x 3x256x256 float32; cpu = 2 x decode + resize + crop (estimate)"),
    "none": dict(
        samples=0, bytes=0, raw=0, decoded=0, cpu=0,
        basis="no stored dataset: A3C generates Pong frames in its environment (emulator CPU "
              "cost not modelled)"),
}

# Pollux/Sia applications: catalog name, model, dataset, domain, Sia max_epochs,
# and the adaptdl default per-GPU batch (used only where the Sia workloads hold no job).
SIA_APPS = {
    "cifar10": ("resnet18-cifar10", "resnet18-cifar", "cifar10", "image", 100, 128),
    "imagenet": ("resnet50-imagenet", "resnet50", "imagenet-1k", "image", 90, 200),
    "yolov3": ("yolov3-voc", "yolov3-voc", "pascal-voc-07+12", "image", 50, 8),
    "deepspeech2": ("deepspeech2-arctic", "deepspeech2", "cmu-arctic", "audio", 80, 20),
    "bert": ("bert-squad", "bert-base-qa", "squad-v1.1", "text", 2, 12),
    "ncf": ("neumf-movielens", "neumf", "movielens-1m", "recommendation", 10, 256),
}

# Gavel job families: (catalog stem, model, dataset, domain).
GAVEL_FAMILIES = {
    "ResNet-18": ("resnet18-cifar10", "resnet18-cifar", "cifar10", "image"),
    "ResNet-50": ("resnet50-imagenet", "resnet50", "imagenet-1k", "image"),
    "Transformer": ("transformer-multi30k", "transformer-multi30k", "multi30k", "text"),
    "LM": ("lstm-wikitext2", "lstm-lm-wikitext2", "wikitext-2", "text"),
    "Recommendation": ("recoder-movielens20m", "recoder-ml20m", "movielens-20m",
                       "recommendation"),
    "CycleGAN": ("cyclegan-monet2photo", "cyclegan", "monet2photo", "image"),
    "A3C": ("a3c-pong", "a3c-atari", "none", "rl"),
}
# Gavel's job types without "(batch size N)": per-GPU batch of the job's command.
GAVEL_FIXED_BATCH = {"CycleGAN": 1, "A3C": 4}

# Tiresias (TF-benchmarks CNN names) -> catalog entry. All are ImageNet CNNs; the catalog
# measures ResNet-50 only, so every one maps to it (same dataset and IO; compute and gradient
# size differ: documented in doc/workload-catalog.md).
TIRESIAS_MODELS = ["vgg11", "vgg16", "vgg19", "resnet50", "resnet101", "resnet152",
                   "inception3", "inception4", "alexnet", "googlenet"]
TIRESIAS_TARGET = "resnet50-imagenet"


# ---- LLM workloads (Acme-era clusters) ------------------------------------------------------
# Dense decoder-only transformers of the LLaMA-2 family (Touvron et al., "Llama 2: Open Foundation
# and Fine-Tuned Chat Models", arXiv 2307.09288, 2023). Every number below is either a published
# figure (cited) or derived from published figures by the formula beside it; doc/llm.md lists them.
LLM_GPU = "A100-SXM4-80GB (312 TFLOP/s dense BF16), 8 GPUs/node on NVLink"
A100_BF16_FLOPS = 312e12          # NVIDIA A100 datasheet, dense BF16 tensor-core peak
LLAMA2_TRAIN_TOKENS = 2.0e12      # Llama 2 paper, Table 1: 2.0T pre-training tokens (all sizes)
LLAMA2_SEQ = 4096                 # Llama 2 paper, Table 1: context length 4k
LLAMA2_GLOBAL_BATCH_TOKENS = 4 * 2**20  # Llama 2 paper, sec. 2.2: global batch 4M tokens
LLAMA2_VOCAB = 32000              # Llama 2 tokenizer: 32k tokens -> token ids fit in uint16
SFT_GLOBAL_BATCH_SEQ = 64         # Llama 2 paper, sec. 3.1: SFT batch size 64, sequence 4096
RAILS = 8                         # rail-optimised node: 8 GPUs, GPU i on NIC/rail i (HPN)
GRAD_BYTES = 4                    # Megatron-LM: with bf16, grads are all-reduced in fp32
                                  # (--accumulate-allreduce-grads-in-fp32, forced for bf16)
CKPT_BYTES_PER_PARAM = 14         # bf16 weights 2 + fp32 master weights 4 + Adam m, v 4 + 4
CKPT_INTERVAL_S = 1800.0          # estimate: "every few tens of minutes to hours" (DESIGN.md);
                                  # Acme (NSDI'24 sec. 5) checkpoints pre-training periodically
MEMORY_BUDGET = 0.5 * 80e9        # rule: model states may use half of an 80 GB GPU
TRAIN_STATE_BYTES = 16            # bf16 weights + grads 2 + 2, fp32 master + Adam 12 (ZeRO paper)
REFERENCE_PRETRAIN_GPUS = 512     # global batch reached at this job size (Acme pre-training jobs
                                  # use hundreds to 1,024 GPUs, NSDI'24 sec. 3)
REFERENCE_SFT_GPUS = 64           # ... and for fine-tuning jobs (8 nodes)
EVAL_MFU = 0.20                   # estimate for batched evaluation (generation-heavy, low
                                  # utilisation: Acme NSDI'24 sec. 4 finds evaluation GPU-idle
                                  # for model loading and CPU-side scoring)
EVAL_BATCH = 8                    # sequences per GPU per evaluation step (estimate)
EVAL_SEQ = 2048                   # evaluation prompt + answer tokens (estimate)

# name stem: parameters, layers, hidden, Llama 2 GPU-hours (Table 2: 7B 184,320; 13B 368,640;
# 70B 1,720,320 A100-80GB hours for 2T tokens), parameter count basis.
LLAMA2 = {
    "llama2-7b": (6738415616, 32, 4096, 184320,
                  "Llama-2-7b (Hugging Face config: 32 layers, hidden 4096, 32k vocab): "
                  "6,738,415,616 parameters"),
    "llama2-13b": (13015864320, 40, 5120, 368640,
                   "Llama-2-13b (40 layers, hidden 5120): 13,015,864,320 parameters"),
    "llama2-70b": (68976648192, 80, 8192, 1720320,
                   "Llama-2-70b (80 layers, hidden 8192, GQA 8 KV heads): 68,976,648,192 "
                   "parameters"),
}

LLM_DATASETS = {
    "pretrain-corpus-2t": dict(
        samples=int(LLAMA2_TRAIN_TOKENS // LLAMA2_SEQ), seq=LLAMA2_SEQ,
        basis="a pre-training corpus of 2.0T tokens (Llama 2), tokenised and packed into "
              "4,096-token sequences stored as uint16 ids (32k vocabulary): 8,192 B per sample, "
              "4.0 TB; decoded int64 ids 32,768 B; cpu = memory-mapped slice + collate "
              "(estimate 2e-5 core-s)"),
    "sft-mix-100k": dict(
        samples=100000, seq=LLAMA2_SEQ,
        basis="an instruction-tuning mix of 100,000 conversations packed to 4,096 tokens "
              "(estimate; Llama 2 used 27,540 of its own annotations), uint16 ids: 8,192 B "
              "per sample, 819 MB"),
    "eval-suite": dict(
        samples=200000, seq=EVAL_SEQ,
        basis="an evaluation suite of 200,000 prompts of up to 2,048 tokens (estimate, "
              "OpenCompass-style benchmark collections), uint16 ids: 4,096 B per sample, 819 MB"),
}


def llm_layout(params):
    """Model-parallel layout rule (doc/llm.md): the smallest tensor-parallel degree in
    1, 2, 4, 8 (inside one NVLink node), then the smallest pipeline degree (a power of two),
    such that the training states (16 B per parameter) take at most half of an 80 GB GPU."""
    need = TRAIN_STATE_BYTES * params / MEMORY_BUDGET
    tp = 1
    while tp < 8 and tp < need:
        tp *= 2
    pp = 1
    while tp * pp < need:
        pp *= 2
    return tp, pp


def llm_dataset_fields(name):
    d = LLM_DATASETS[name]
    raw = d["seq"] * 2
    return d, {
        "rawBytesPerSample": raw,
        "decodedBytesPerSample": d["seq"] * 8,
        "cpuSecondsPerSample": 2e-5,
        "dataset": name,
        "datasetBytes": d["samples"] * raw,
    }


def llm_entries():
    entries = []
    for stem, (params, layers, hidden, gpu_hours, basis) in LLAMA2.items():
        tp, pp = llm_layout(params)
        tokens_per_gpu_s = LLAMA2_TRAIN_TOKENS / (gpu_hours * 3600.0)
        mfu = 6 * params * tokens_per_gpu_s / A100_BF16_FLOPS
        global_seq = LLAMA2_GLOBAL_BATCH_TOKENS // LLAMA2_SEQ
        kinds = [
            ("pretrain", "Pretrain", max(1, global_seq // REFERENCE_PRETRAIN_GPUS),
             "pretrain-corpus-2t",
             "global batch %d sequences (4M tokens) reached at %d GPUs"
             % (global_seq, REFERENCE_PRETRAIN_GPUS)),
            ("sft", "SFT", max(1, SFT_GLOBAL_BATCH_SEQ // REFERENCE_SFT_GPUS), "sft-mix-100k",
             "global batch %d sequences (Llama 2 SFT) reached at %d GPUs"
             % (SFT_GLOBAL_BATCH_SEQ, REFERENCE_SFT_GPUS)),
        ]
        for kind, job_type, local, dataset, batch_basis in kinds:
            seconds = 6 * params * LLAMA2_SEQ * local / (A100_BF16_FLOPS * mfu)
            d, data = llm_dataset_fields(dataset)
            pipeline_bytes = 2 * LLAMA2_SEQ * hidden * 2 * local * tp * pp if pp > 1 else 0
            entry = {
                "name": "%s-%s" % (stem, kind),
                "domain": "llm",
                "gpuType": LLM_GPU,
                "localBatch": local,
                "computeTimeByGpus": {str(tp * pp): seconds},
                "syncTimeByGpus": {},
                # Per rail and iteration: a node holds one pipeline stage (P / PP parameters,
                # sharded over its GPUs by TP, or replicated 8 / TP times and reduced on NVLink
                # first); on a rail-optimised node GPU i sends its 1/8 of the stage's fp32
                # gradients over rail i in the data-parallel all-reduce (ring or INA). The sync
                # models time one worker link per node: one rail, the 8 running in parallel.
                "gradientBytes": GRAD_BYTES * params // (pp * RAILS),
                **data,
                "samplesToTarget": 0,
                "stepsCountedPerWorker": False,
                "aliases": [],
                "parameters": params,
                "sequenceLength": LLAMA2_SEQ,
                "tensorParallel": tp,
                "pipelineParallel": pp,
                "minGpus": tp * pp,
                "checkpointBytes": CKPT_BYTES_PER_PARAM * params,
                "checkpointIntervalSeconds": CKPT_INTERVAL_S,
                # Fine-tuning starts from the pre-trained weights, read from the storage at
                # start; pre-training starts from random weights (doc/llm.md, model loading).
                "loadsWeights": kind == "sft",
                "jobTypes": [job_type],
                "source": (
                    "%s. Compute: 6 x parameters x %d tokens per GPU per iteration "
                    "(%d sequence%s of %d) / (%.0f TFLOP/s x MFU %.3f); MFU from Llama 2 "
                    "Table 2: %d A100-80GB GPU-hours for 2.0T tokens = %.0f tokens/s/GPU. "
                    "Local batch: %s. Layout rule: TP %d x PP %d (16 B/parameter of training "
                    "state within half of 80 GB), DP = GPUs / %d. Gradient bytes per rail and "
                    "iteration: 4 B (fp32 all-reduce) x parameters / (PP x 8 rails). TP traffic stays on "
                    "NVLink inside the node and is inside the published MFU; PP activations "
                    "between stages: %d B per stage boundary and iteration (bf16, forward + "
                    "backward), under 1%% of an iteration at 8 x 200 Gb/s, not simulated. "
                    "Checkpoint: 14 B/parameter (bf16 weights, fp32 master, Adam m and v) "
                    "every %.0f s (estimate). Dataset: %s."
                    % (basis, LLAMA2_SEQ * local, local, "s" if local > 1 else "", LLAMA2_SEQ,
                       A100_BF16_FLOPS / 1e12, mfu, gpu_hours, tokens_per_gpu_s, batch_basis,
                       tp, pp, tp * pp, pipeline_bytes, CKPT_INTERVAL_S, d["basis"])),
            }
            entries.append(entry)
        # Evaluation: forward passes only (2 x parameters FLOPs per token), weights in bf16
        # (2 B/parameter) within half of 80 GB; no gradients, no checkpoint.
        tp_eval = 1
        while 2 * params / tp_eval > MEMORY_BUDGET:
            tp_eval *= 2
        seconds = 2 * params * EVAL_SEQ * EVAL_BATCH / (A100_BF16_FLOPS * EVAL_MFU)
        d, data = llm_dataset_fields("eval-suite")
        entries.append({
            "name": "%s-eval" % stem,
            "domain": "llm-inference",
            "gpuType": LLM_GPU,
            "localBatch": EVAL_BATCH,
            "computeTimeByGpus": {str(tp_eval): seconds},
            "syncTimeByGpus": {},
            "gradientBytes": 0,
            **data,
            "samplesToTarget": 0,
            "stepsCountedPerWorker": False,
            "aliases": [],
            "parameters": params,
            "sequenceLength": EVAL_SEQ,
            "tensorParallel": tp_eval,
            "pipelineParallel": 1,
            "minGpus": tp_eval,
            "checkpointBytes": 0,
            "checkpointIntervalSeconds": 0,
            # It evaluates a trained checkpoint: its weights are read from the storage first.
            "loadsWeights": True,
            "jobTypes": ["Evaluation"],
            "inference": True,
            "source": (
                "%s. Inference-like evaluation: 2 x parameters FLOPs per token, %d sequences of "
                "%d tokens per GPU per step at MFU %.2f (estimate) on %.0f TFLOP/s; bf16 weights "
                "(2 B/parameter) within half of 80 GB -> TP %d; data-parallel replicas do not "
                "synchronise (gradientBytes 0). Dataset: %s."
                % (basis, EVAL_BATCH, EVAL_SEQ, EVAL_MFU, A100_BF16_FLOPS / 1e12, tp_eval,
                   d["basis"])),
        })
    return entries


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def sia_placement(gpus):
    """Packed placement id as in Sia's placements files: one node up to 8 GPUs, else two
    nodes split as evenly as possible, written smallest digit first ("45" for 9 GPUs)."""
    if gpus <= SIA_GPUS_PER_NODE:
        return str(gpus)
    low = gpus // 2
    return "%d%d" % (low, gpus - low)


def sia_workload_local_batch(traces, app):
    """Median per-GPU batch (batch_size / num_replicas) of the app's jobs in Sia's workloads."""
    values = []
    for path in sorted(glob.glob(os.path.join(traces, "sia-pollux-workloads", "workloads",
                                              "*", "*.csv"))):
        for row in read_csv(path):
            if row["application"] == app:
                values.append(int(row["batch_size"]) / int(row["num_replicas"]))
    return (statistics.median(values), len(values)) if values else (None, 0)


def sia_entry(traces, app):
    name, model, dataset, domain, epochs, adaptdl_batch = SIA_APPS[app]
    path = os.path.join(traces, "sia-pollux-workloads", "throughput-profiles", app,
                        "placements-%s.csv" % SIA_GPU_PROFILE)
    rows = read_csv(path)
    gpus = range(1, SIA_MAX_GPUS + 1)
    by_placement = {}
    for row in rows:
        by_placement.setdefault(row["placement"], {})[int(row["local_bsz"])] = row
    # Only local batches measured at every GPU count, so the curve is one batch throughout.
    common = set.intersection(*(set(by_placement.get(sia_placement(g), {})) for g in gpus))
    median, jobs = sia_workload_local_batch(traces, app)
    wanted = median if median is not None else adaptdl_batch
    local = min(sorted(common), key=lambda b: abs(b - wanted))
    compute, sync = {}, {}
    for g in gpus:
        row = by_placement[sia_placement(g)][local]
        step, sync_time = float(row["step_time"]), float(row["sync_time"])
        compute[str(g)] = step - sync_time
        sync[str(g)] = sync_time
    batch_basis = ("median per-GPU batch %.1f of %d %s jobs in Sia's workloads" % (median, jobs, app)
                   if median is not None else
                   "no %s job in Sia's workloads: adaptdl default batch %d" % (app, adaptdl_batch))
    return finish_entry(
        name=name, model=model, dataset=dataset, domain=domain, gpu=SIA_GPU_NAME,
        local=local, compute=compute, sync=sync, epochs=epochs,
        aliases=[app], steps_per_worker=False,
        source="%s; local batch %d = nearest measured to the %s; computeTime = step_time - "
               "sync_time at packed placements" % (SIA_CITE.format(app=app), local, batch_basis))


def gavel_entries(traces):
    path = os.path.join(traces, "gavel", "simulation_throughputs.json")
    with open(path) as f:
        table = json.load(f)[GAVEL_GPU]
    types = {}
    for key, value in table.items():
        job_type, scale = ast.literal_eval(key)
        types.setdefault(job_type, {})[scale] = float(value["null"])
    entries = []
    for job_type in sorted(types):
        family = job_type.split(" (")[0]
        stem, model, dataset, domain = GAVEL_FAMILIES[family]
        if "(batch size " in job_type:
            batch = int(job_type.split("(batch size ")[1].rstrip(")"))
            name = "%s-gavel-b%d" % (stem, batch)
        else:
            batch = GAVEL_FIXED_BATCH[family]
            name = "%s-gavel" % stem
        # Gavel counts a distributed job's steps summed over its workers (each worker runs its
        # own --steps loop), so one data-parallel iteration on g GPUs takes g / throughput.
        compute = {str(g): g / tput for g, tput in sorted(types[job_type].items())}
        entries.append(finish_entry(
            name=name, model=model, dataset=dataset, domain=domain, gpu=GAVEL_GPU_NAME,
            local=batch, compute=compute, sync={}, epochs=0, aliases=[job_type],
            steps_per_worker=True,
            source="%s; computeTime(g) = g / throughput(g) and includes gradient sync "
                   "(not measured apart)" % GAVEL_CITE))
    return entries


def finish_entry(name, model, dataset, domain, gpu, local, compute, sync, epochs, aliases,
                 steps_per_worker, source):
    params, model_basis = MODELS[model]
    data = DATASETS[dataset]
    return {
        "name": name,
        "domain": domain,
        "gpuType": gpu,
        "localBatch": local,
        "computeTimeByGpus": compute,
        "syncTimeByGpus": sync,
        "gradientBytes": 4 * params,
        "rawBytesPerSample": data["raw"],
        "decodedBytesPerSample": data["decoded"],
        "cpuSecondsPerSample": data["cpu"],
        "dataset": dataset,
        "datasetBytes": data["bytes"],
        "samplesToTarget": epochs * data["samples"],
        "stepsCountedPerWorker": steps_per_worker,
        "aliases": aliases,
        "source": "%s. Model: %s. Dataset: %s.%s" % (
            source, model_basis, data["basis"],
            " samplesToTarget = %d epochs x %d samples." % (epochs, data["samples"])
            if epochs else ""),
    }


def build(traces):
    workloads = [sia_entry(traces, app) for app in SIA_APPS] + gavel_entries(traces)
    target = next(w for w in workloads if w["name"] == TIRESIAS_TARGET)
    target["aliases"] += TIRESIAS_MODELS
    workloads += llm_entries()
    return {
        "schemaVersion": 1,
        "generatedBy": "data/build-catalog.py (from ../shared/traces: "
                       "sia-pollux-workloads, gavel; LLM entries from published figures)",
        "units": {"time": "s", "bytes": "B", "cpuSecondsPerSample": "core-s"},
        "workloads": workloads,
    }


def superlinear_counts(entry):
    """GPU counts g of a profile whose speedup over some smaller count g' exceeds g / g' at the
    same per-GPU batch, i.e. computeTime(g) < computeTime(g'): more samples per GPU-second on
    more GPUs. Returns [(g, g', speedup over 1 GPU)]: the flag AutoCBA honours (it never
    counts on such a speedup) and doc/storage.md tabulates."""
    times = sorted((int(g), t) for g, t in entry["computeTimeByGpus"].items())
    flagged = []
    for i, (g, t) in enumerate(times):
        slower = [(g2, t2) for g2, t2 in times[:i] if t < t2]
        if slower:
            g2 = max(slower, key=lambda x: x[1])[0]
            flagged.append((g, g2, g * times[0][1] / t / times[0][0]))
    return flagged


def speedup_report(path):
    """Markdown table: per profile, the counts whose speedup exceeds the GPU ratio."""
    with open(path) as f:
        catalog = json.load(f)
    lines = ["| profile | counts with speedup above the GPU ratio (vs the count it beats) | "
             "largest speedup over 1 GPU per GPU |", "|---|---|---|"]
    for w in catalog["workloads"]:
        flagged = superlinear_counts(w)
        if flagged:
            worst = max(flagged, key=lambda x: x[2] / x[0])
            lines.append("| %s | %s | %.2fx on %d (%.2f) |" % (
                w["name"], ", ".join("%d (vs %d)" % (g, g2) for g, g2, _ in flagged),
                worst[2], worst[0], worst[2] / worst[0]))
    clean = [w["name"] for w in catalog["workloads"] if not superlinear_counts(w)]
    lines.append("")
    lines.append("Speedup never above the GPU ratio: %s." % ", ".join(clean))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--traces", default=DEFAULT_TRACES, help="the shared traces folder")
    parser.add_argument("--out", default=DEFAULT_OUT, help="the catalog file to write")
    parser.add_argument("--check", action="store_true",
                        help="compare with --out instead of writing it; exit 1 if different")
    parser.add_argument("--speedup-report", action="store_true",
                        help="print, per profile of --out, the GPU counts whose speedup "
                             "exceeds the GPU ratio at the same per-GPU batch (markdown)")
    args = parser.parse_args()
    if args.speedup_report:
        print(speedup_report(args.out))
        return 0
    text = json.dumps(build(args.traces), indent=2) + "\n"
    if args.check:
        with open(args.out) as f:
            same = f.read() == text
        print("%s is %s" % (args.out, "up to date" if same else "STALE: rerun build-catalog.py"))
        return 0 if same else 1
    with open(args.out, "w") as f:
        f.write(text)
    print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
