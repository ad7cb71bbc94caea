#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# The same trace-replay sweep on the local executor and as one Slurm job array on a
# single-node Slurm that this script starts and stops: sweep.csv must be identical byte for
# byte, and --dry-run must print the batch script without submitting.
# Usage: sweep-slurm-test.sh <trace-replay binary> <scratch dir>. Exit 77 (skipped) when
# Slurm/munge are not installed or not root.
set -euo pipefail
replay=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# shellcheck source=slurm-cluster.sh
source "$here/slurm-cluster.sh"
status=0
slurm_start "$work/slurm" || status=$?
trap slurm_stop EXIT
[ "$status" -eq 0 ] || exit "$status"

args=(--max-jobs=200 --policy=fifo,tiresias --nodes=8 --quiet --ina=esa
    --ina-pool-size=256,4096 --load-scale=1,2)

"$replay" "${args[@]}" -j 2 --output="$work/local" >"$work/local.out" 2>"$work/local.err" ||
    fail "local sweep exited $?: $(cat "$work/local.err")"

"$replay" "${args[@]}" --executor=slurm --dry-run --output="$work/slurm-run" >"$work/dry.out" ||
    fail "dry run exited $?"
grep -q '^#SBATCH --array=0,1,2,3$' "$work/dry.out" || fail "dry run: no 4-task array: $(cat "$work/dry.out")"
[ ! -e "$work/slurm-run/sweep.sbatch" ] || fail "dry run wrote the script"
[ -z "$(squeue -h 2>/dev/null)" ] || fail "dry run submitted something"

"$replay" "${args[@]}" --executor=slurm --output="$work/slurm-run" >"$work/slurm.out" \
    2>"$work/slurm.err" || fail "slurm sweep exited $?: $(cat "$work/slurm.err"; tail -20 "$work"/slurm/slurmctld.log)"
grep -q 'submitted Slurm job array' "$work/slurm.err" || fail "no submission: $(cat "$work/slurm.err")"
ls "$work"/slurm-run/slurm-*_*.out >/dev/null 2>&1 || fail "no array-task output files: Slurm did not run the tasks"
[ "$(wc -l <"$work/slurm-run/sweep.csv")" -eq 9 ] || fail "slurm sweep.csv: $(cat "$work/slurm-run/sweep.csv")"
cmp "$work/local/sweep.csv" "$work/slurm-run/sweep.csv" || fail "local and Slurm sweep.csv differ"
echo "sweep slurm test: passed"
