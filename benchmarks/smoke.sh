#!/usr/bin/env bash
# Every benchmark once (BenchmarkDotNet's Dry job) so a broken benchmark fails CI; no figures are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks -- --filter '*' --job Dry --artifacts "${TMPDIR:-/tmp}/asynccost-bench-smoke" "$@"
