#!/usr/bin/env bash
# Re-records the traces HotFindingsTests and WebServiceTraceTests read.
#   chatty (default): one `collect -o` run of samples/ChattyPipeline with 100 orders.
#   webshop: samples/WebShop as a running service on a free loopback port, attached with `collect -p`: the allocation pass
#     under a full loopback load (sampled allocations are few events), the hop pass under a throttled one (every hop is
#     events), so the two traces stay a few MB.
# The app runs from a copy in a temporary directory that is deleted afterwards, so the traces name methods only through
# their own method events (rundown), as any trace read on another machine must. <name>.sarif is the build's SARIF log
# with file URIs rewritten to file:///repo/; pass --sarif to rewrite it too.
# Usage: bash tests/AsyncCost.Cli.Tests/Recorded/record.sh [chatty|webshop|webshop-cpu] [--sarif]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=tests/AsyncCost.Cli.Tests/Recorded
target=chatty
[[ "${1:-}" == chatty || "${1:-}" == webshop || "${1:-}" == webshop-cpu ]] && { target=$1; shift; }
work=$(mktemp -d)
service=""
cleanup() { [[ -n "$service" ]] && kill "$service" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

dotnet build src/AsyncCost.Cli -c Release -nologo -v:q
tool=(dotnet src/AsyncCost.Cli/bin/Release/net10.0/dotnet-asynccost.dll)
source samples/web-service.sh
sample=$([[ $target == chatty ]] && echo ChattyPipeline || echo WebShop)
traces=("$work/$target.allocations.nettrace" "$work/$target.hops.nettrace")
sarif=()
[ "${1:-}" = "--sarif" ] && sarif=(-p:ErrorLog="$work/$target.sarif%2Cversion=2.1" -p:AsyncCostAnalysisMode=All --no-incremental)
# ContinuousIntegrationBuild maps the source root to /_/, so the PDB path the module events carry names no directory of this machine.
dotnet build "samples/$sample" -c Release -nologo -v:q -o "$work/app" -p:ContinuousIntegrationBuild=true "${sarif[@]}"

if [[ $target == webshop-cpu ]]; then
  start_web_service "$work/app/WebShop.dll" "$work/service.log"
  timeout 3 curl -s -o /dev/null "$url/checkout/[1-2000]" || true # warm up
  timeout 4 curl -s -o /dev/null --rate 100/s "$url/checkout/[1-100000]" &
  load=$!
  "${tool[@]}" collect -p "$service" --passes cpu --duration 00:00:02 -o "$work/cpu" > /dev/null
  wait "$load" || true
  mv "$work/cpu.nettrace" "$work/webshop.cpu.nettrace"
  traces=("$work/webshop.cpu.nettrace")
elif [[ $target == chatty ]]; then
  "${tool[@]}" collect -o "$work/chatty" -- dotnet "$work/app/ChattyPipeline.dll" --operations 100 > /dev/null
else
  start_web_service "$work/app/WebShop.dll" "$work/service.log"
  timeout 3 curl -s -o /dev/null "$url/checkout/[1-2000]" || true # warm up: JIT, the price cache, the rates
  timeout 6 curl -s -o /dev/null "$url/checkout/[1-100000]" &
  load=$!
  "${tool[@]}" collect -p "$service" --passes allocations --duration 00:00:04 -o "$work/alloc" > /dev/null
  wait "$load" || true
  timeout 4 curl -s -o /dev/null --rate 40/s "$url/checkout/[1-100000]" &
  load=$!
  "${tool[@]}" collect -p "$service" --passes hops --duration 00:00:02 -o "$work/hops" > /dev/null
  wait "$load" || true
  mv "$work/alloc.nettrace" "$work/webshop.allocations.nettrace"
  mv "$work/hops.nettrace" "$work/webshop.hops.nettrace"
fi
cp "${traces[@]}" "$out/"
if [ ${#sarif[@]} -gt 0 ]; then
  # Only the AsyncCost rules' results and rule entries (with every rule on, the other analyzers' would be most of the log).
  jq '.runs |= map(.results |= map(select(.ruleId | startswith("AC"))) | .tool.driver.rules |= map(select(.id | startswith("AC"))))' "$work/$target.sarif" \
    | sed "s#file://$PWD/#file:///repo/#g" > "$out/$target.sarif"
fi
ls -l "$out"
