#!/usr/bin/env bash
#
# SPDX-License-Identifier: GPL-2.0-only
#
# A short run of every example (examples/examples.cmake) through ./ns3 run --no-build, in the
# build ./ns3 currently uses: CI runs it under the sanitizer build (.ci/run), where any
# sanitizer report ends the program with a non-zero exit code. An example without a short
# run below is an error, so that a new example cannot be left out.
#
# Usage: utils/run-examples.sh [name ...]      (default: every example)
# Environment: EXAMPLE_TIMEOUT (seconds per run, default 900); OUT (scratch folder for the
# result files, default a temporary one, removed at the end).

set -euo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$ROOT"
TIMEOUT=${EXAMPLE_TIMEOUT:-900}
OUT=${OUT:-$(mktemp -d)}
trap 'rm -rf "$OUT"' EXIT

# The short run of each example: small inputs, every major code path it has.
short_args() {
    case "$1" in
    trace-replay) echo "--quiet --output=$OUT/trace-replay" ;;
    rail-incast) echo "--senders=4 --bytes=1000000 --seed=1 --output=$OUT/rail-incast/results.json" ;;
    rail-scaling) echo "--max-nodes=4 --bytes=1000000 --level=both --seed=1 --output=$OUT/rail-scaling/results.json" ;;
    trace-convert) echo "--input=traces/sample/sample-trace.csv --output=$OUT/native.csv" ;;
    minimal-experiment) echo "--output=$OUT/minimal" ;;
    ina-shared-aggregation) echo "--policy=esa --pool-size=256 --jobs=2 --workers=4 --output=$OUT/ina/results.json" ;;
    storage-allocation) echo "--quiet" ;;
    kspeed-provisioning) echo "--mode=table --nodes=4 --output=$OUT/kspeed" ;;
    *) return 1 ;;
    esac
}

if [ $# -gt 0 ]; then
    names=("$@")
else
    mapfile -t names < <(./ns3 list | sed -n '/^examples:/,/^[a-z]*:$/p' | sed -n 's/^  //p')
fi
[ ${#names[@]} -gt 0 ] || {
    echo "run-examples: no examples found (./ns3 list)" >&2
    exit 1
}

failed=()
for name in "${names[@]}"; do
    if ! args=$(short_args "$name"); then
        echo "run-examples: example '$name' has no short run in utils/run-examples.sh; add one" >&2
        exit 1
    fi
    printf '\n--- %s %s\n' "$name" "$args"
    t0=$SECONDS
    rc=0
    # shellcheck disable=SC2086 # the arguments are words
    timeout "$TIMEOUT" ./ns3 run --no-build "$name" -- $args </dev/null >"$OUT/log" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "ok ($((SECONDS - t0)) s)"
    else
        tail -n 40 "$OUT/log"
        echo "FAILED: $name (exit code $rc$([ "$rc" -ne 124 ] || echo ", timed out after $TIMEOUT s"))"
        failed+=("$name")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "run-examples: failed: ${failed[*]}" >&2
    exit 1
fi
echo "run-examples: ${#names[@]} examples ran cleanly"
