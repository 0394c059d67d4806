#!/usr/bin/env bash
# The documented full run, for a quiet machine (~15-25 minutes on 2 cores): every seed suite with its full-run job,
# the same async-method suites compiled with runtime-handled async, seed 000's console mode, then the report that
# writes benchmarks/RESULTS.md, benchmarks/charts/*.svg, CostModel.cs and the docs/rules figures. Raw exports are
# kept in benchmarks/results/. Extra arguments go to BenchmarkDotNet (e.g. --filter '*HandOff*'). On a machine shared
# with other work, `sudo nice -n -10 bash benchmarks/full-run.sh` keeps it from measuring the others' load.
set -euo pipefail
cd "$(dirname "$0")/.."
results=benchmarks/results
rm -rf "$results"
mkdir -p "$results"
started=$(date +%s)
conditions="$results/run-conditions.txt"
echo "started $(date -u '+%Y-%m-%d %H:%M') UTC, nice $(nice), load average $(cut -d' ' -f1-3 /proc/loadavg)" > "$conditions"

dotnet build -c Release benchmarks/AsyncCost.Benchmarks
dotnet run -c Release --no-build --project benchmarks/AsyncCost.Benchmarks -- \
  --anyCategories seeds --artifacts "$results/main" "$@"

# The runtime-async twin is an unsupported .NET 10 experiment: if this SDK cannot build it, keep the error for the report.
if dotnet build -c Release benchmarks/AsyncCost.Benchmarks.RuntimeAsync > "$results/runtime-async-build.txt" 2>&1; then
  rm "$results/runtime-async-build.txt"
  dotnet run -c Release --no-build --project benchmarks/AsyncCost.Benchmarks.RuntimeAsync -- \
    --anyCategories seeds --artifacts "$results/runtime-async" "$@"
else
  echo "runtime-async project did not build; the error is in $results/runtime-async-build.txt" >&2
fi

dotnet run -c Release --no-build --project benchmarks/AsyncCost.Benchmarks -- \
  context-switch-console --output "$results/context-switch-console.json"
echo "benchmarks took $(( ($(date +%s) - started) / 60 )) min, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$conditions"

dotnet run -c Release --no-build --project benchmarks/AsyncCost.Benchmarks -- report
