#!/usr/bin/env bash
# The README's main job. Until the CLI and the bundled sample exist it builds everything and
# runs the benchmark project's dry job; the samples issue replaces it with the hot-findings run.
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet build AsyncCost.sln -c Release
bash benchmarks/smoke.sh
