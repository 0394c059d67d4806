#!/usr/bin/env bash
# Every benchmark once (BenchmarkDotNet's Dry job: the suites' own jobs shrink to one launch, one iteration, and the
# thousands-of-threads cases are bounded) so a broken benchmark fails CI, the same for seed 003's suites compiled
# with runtime-handled async, then the seed-000 console mode on a few units. No figures are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/asynccost-bench-smoke"
dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks -- --filter '*' --job Dry --artifacts "$out" "$@"
dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks.RuntimeAsync -- --filter '*' --job Dry --artifacts "$out/runtime-async" "$@"
dotnet run -c Release --no-build --project benchmarks/AsyncCost.Benchmarks -- context-switch-console --units 2000 --output "$out/context-switch-console.json"
