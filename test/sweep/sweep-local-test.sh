#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# A trace-replay sweep on the local executor: the cross product of two listed options runs as
# four points, -j 2 at a time, with progress; sweep.csv holds one row per point and policy;
# an interrupted sweep resumes with only the points not yet done; a different sweep into the
# same directory is refused. Usage: sweep-local-test.sh <trace-replay binary> <scratch dir>
set -euo pipefail
replay=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# A small replay: the sample's first 200 jobs, two policies.
common=(--max-jobs=200 --policy=fifo,sjf --nodes=8 --quiet)
out=$work/grid
"$replay" "${common[@]}" --ina=esa --ina-pool-size=256,4096 --load-scale=1,2 -j 2 \
    --output="$out" >"$work/run1.out" 2>"$work/run1.err" || fail "sweep exited $?: $(cat "$work/run1.err")"

grep -q '^\[sweep\] trace-replay: 4/4 done, 0 running, 0 failed' "$work/run1.err" ||
    fail "no final progress line: $(cat "$work/run1.err")"
grep -q 'running' "$work/run1.err" || fail "no progress while running"
[ "$(wc -l <"$out/sweep.csv")" -eq 9 ] || fail "sweep.csv: expected a header and 8 rows, got: $(cat "$out/sweep.csv")"
head -1 "$out/sweep.csv" | grep -q '^ina-pool-size,load-scale,policy,' || fail "header: $(head -1 "$out/sweep.csv")"
for point in ina-pool-size=256_load-scale=1 ina-pool-size=256_load-scale=2 \
    ina-pool-size=4096_load-scale=1 ina-pool-size=4096_load-scale=2; do
    [ -f "$out/$point/point.done" ] || fail "$point not marked done"
    [ -f "$out/$point/fifo/summary.json" ] || fail "$point has no fifo/summary.json"
    grep -q "\"ina_pool_size\"" "$out/$point/fifo/summary.json" || fail "$point summary lacks its settings"
done
# Each point really ran its own values: load 2 doubles the jobs' arrival rate.
grep -q '"trace.load_scale": 2' "$out/ina-pool-size=256_load-scale=2/fifo/summary.json" ||
    fail "the point's load-scale did not reach its run"
# The rows differ between load scales (the sweep is not one run copied).
rows=$(cut -d, -f2- "$out/sweep.csv" | sort -u | wc -l)
[ "$rows" -ge 5 ] || fail "sweep.csv rows are not distinct: $(cat "$out/sweep.csv")"
cp "$out/sweep.csv" "$work/complete.csv"

# Resume: forget two points (as if interrupted before they finished), run again.
rm -rf "$out/ina-pool-size=4096_load-scale=1" "$out/ina-pool-size=4096_load-scale=2/point.done"
"$replay" "${common[@]}" --ina=esa --ina-pool-size=256,4096 --load-scale=1,2 -j 2 \
    --output="$out" >"$work/run2.out" 2>"$work/run2.err" || fail "resume exited $?"
grep -q '4 points (2 already done)' "$work/run2.err" || fail "resume did not skip done points: $(cat "$work/run2.err")"
cmp "$out/sweep.csv" "$work/complete.csv" || fail "resumed sweep.csv differs from the uninterrupted one"

# A real interruption: SIGINT while points run, then resume.
out2=$work/interrupted
"$replay" "${common[@]}" --ina=esa --ina-pool-size=256,4096 --load-scale=1,2 -j 1 \
    --output="$out2" >"$work/run3.out" 2>"$work/run3.err" &
pid=$!
for _ in $(seq 1 200); do
    [ -n "$(ls "$out2" 2>/dev/null | grep -v sweep.json)" ] && break
    sleep 0.05
done
kill -INT "$pid"
set +e
wait "$pid"
status=$?
set -e
if [ "$status" -eq 130 ]; then
    grep -q 'interrupted' "$work/run3.err" || fail "no interruption message"
fi
"$replay" "${common[@]}" --ina=esa --ina-pool-size=256,4096 --load-scale=1,2 -j 2 \
    --output="$out2" >"$work/run4.out" 2>"$work/run4.err" || fail "resume after SIGINT exited $?"
cmp "$out2/sweep.csv" "$work/complete.csv" || fail "sweep after an interruption differs"

# Another sweep into the same directory is refused by name.
set +e
"$replay" "${common[@]}" --ina=esa --ina-pool-size=64,128 --output="$out" >/dev/null 2>"$work/run5.err"
status=$?
set -e
[ "$status" -ne 0 ] || fail "a different sweep into the same directory was accepted"
grep -q 'sweep.json describes a different sweep' "$work/run5.err" || fail "unclear refusal: $(cat "$work/run5.err")"

# Sweep options without a list are an error, not a silent single run.
set +e
"$replay" "${common[@]}" -j 2 --output="$work/none" >/dev/null 2>"$work/run6.err"
status=$?
set -e
[ "$status" -ne 0 ] || fail "-j without a list was accepted"
grep -q 'give at least one option a list' "$work/run6.err" || fail "unclear error: $(cat "$work/run6.err")"
echo "sweep local test: passed"
