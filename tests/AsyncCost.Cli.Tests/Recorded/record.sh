#!/usr/bin/env bash
# Re-records the traces HotFindingsTests reads: one `collect -o` run of samples/ChattyPipeline with 100 orders.
# The app runs from a copy in a temporary directory that is deleted afterwards, so the traces name methods only through
# their own method events (rundown), as any trace read on another machine must. chatty.sarif is the build's SARIF log
# with file URIs rewritten to file:///repo/; pass --sarif to rewrite it too.
# Usage: bash tests/AsyncCost.Cli.Tests/Recorded/record.sh [--sarif]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=tests/AsyncCost.Cli.Tests/Recorded
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dotnet build src/AsyncCost.Cli -c Release -nologo -v:q
sarif=()
[ "${1:-}" = "--sarif" ] && sarif=(-p:ErrorLog="$work/chatty.sarif%2Cversion=2.1" --no-incremental)
# ContinuousIntegrationBuild maps the source root to /_/, so the PDB path the module events carry names no directory of this machine.
dotnet build samples/ChattyPipeline -c Release -nologo -v:q -o "$work/app" -p:ContinuousIntegrationBuild=true "${sarif[@]}"
dotnet src/AsyncCost.Cli/bin/Release/net10.0/dotnet-asynccost.dll collect -o "$work/chatty" \
  -- dotnet "$work/app/ChattyPipeline.dll" --operations 100 > /dev/null
cp "$work/chatty.allocations.nettrace" "$work/chatty.hops.nettrace" "$out/"
if [ ${#sarif[@]} -gt 0 ]; then
  sed "s#file://$PWD/#file:///repo/#g" "$work/chatty.sarif" > "$out/chatty.sarif"
fi
ls -l "$out"
