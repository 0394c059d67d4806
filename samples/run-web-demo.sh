#!/usr/bin/env bash
# The README's web job: build samples/WebShop and its Fixed twin with the AsyncCost analyzers (findings to SARIF), start
# each as a real Kestrel service on a free loopback port, drive a bounded loopback load at /checkout, attach with
# `dotnet-asynccost collect -p PID --sarif`, print the hot findings, stop the service; then compare the two runs, with
# WebShop's findings timed in both. Every figure is per request: each pass counts the requests Kestrel's own events saw
# complete (RequestStart/RequestStop) as its operations, per endpoint. Fails if the costly service's top finding did not
# run, the Fixed twin has findings, the comparison is not per request, or it has no time in both runs for the loop at
# Checkout.cs:16 or no measured saving of it.
# Usage: bash samples/run-web-demo.sh [seconds recorded per service]   (default 12: 4 s per pass, allocations, hops and cpu)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-12}"
out="artifacts/web-demo"
mkdir -p "$out"
rm -f "$out/throughput.txt" "$out/requests.txt"
step() { printf '\n==> %s\n' "$*"; }
source samples/web-service.sh
fail() { echo "run-web-demo: $*" >&2; exit 1; }

step "build dotnet-asynccost"
dotnet build src/AsyncCost.Cli -c Release -nologo -v:q
tool=(dotnet src/AsyncCost.Cli/bin/Release/net10.0/dotnet-asynccost.dll)

service=""
stop_service() {
  if [[ -n "$service" ]] && kill -0 "$service" 2>/dev/null; then
    kill -TERM "$service" && wait "$service" || true
  fi
  service=""
}
trap stop_service EXIT

# Requests to /checkout/1..N for a bounded time (and, for the curl fallback, count), and prints the requests per second
# served: wrk when installed, else curl (one connection, one request after another, globbed URLs).
load() {
  local url="$1" seconds="$2" requests="$3"
  if command -v wrk >/dev/null; then
    wrk -t2 -c8 -d"${seconds}s" "$url/checkout/7" | awk '/Requests\/sec/ {printf "%.0f\n", $2}'
  else
    local served
    served=$(timeout "$seconds" curl -s -o /dev/null -w '\n' "$url/checkout/[1-$requests]" | wc -l || true)
    echo $((served / seconds))
  fi
}

for sample in WebShop WebShop.Fixed; do
  step "build samples/$sample with the analyzers (every rule on): findings in $out/$sample.sarif"
  # The SARIF log is a compiler output (samples/Directory.Build.targets): removing it makes the build compile again.
  rm -f "$out/$sample.sarif"
  dotnet build "samples/$sample" -c Release -nologo -v:q -clp:NoSummary -p:AsyncCostAnalysisMode=All \
    -p:ErrorLog="$PWD/$out/$sample.sarif%2Cversion=2.1" >/dev/null

  step "start $sample on a free loopback port"
  start_web_service "samples/$sample/bin/Release/net10.0/$sample.dll" "$out/$sample.service.log" || fail "$sample did not start"
  echo "$sample: pid $service at $url"

  step "warm up (JIT, caches), load $url for 4 s without the tool, then for $((seconds + 4)) s while dotnet-asynccost attaches for $seconds s"
  load "$url" 2 2000 >/dev/null
  without=$(load "$url" 4 200000)
  load "$url" $((seconds + 4)) 200000 >"$out/$sample.load.log" &
  loader=$!
  sleep 1
  # The report goes to $out/$sample.txt (every column) and .json (-o writes it there, not to stdout).
  "${tool[@]}" collect -p "$service" --duration "${seconds}s" --passes allocations,hops,cpu --sarif "$out/$sample.sarif" -o "$out/$sample"
  wait "$loader"
  # Per request: each pass's requests (Kestrel's events), the operations its figures are divided by.
  jq -r --arg s "$sample" '.measured.passes[] | "\($s) \(.pass) pass: \(.operations // 0) \(.operationKind)s in \(.duration)"
    + (if .unrecorded then " (and \(.unrecorded) between its hop windows)" else "" end)
    + (if .requests then ", " + ([.requests.endpoints[] | "\(.endpoint) \(.requests)"] | join(", ")) else "" end)' "$out/$sample.json" \
    | tee -a "$out/requests.txt"
  # Two lines under 80 columns. Context, not the tool's cost: 4 s is too short a baseline (the pool's thread injection,
  # the machine), which benchmarks/results/WebShopAttached.md measures side by side instead.
  printf '%s throughput: %s requests/s in the 4 s before attaching,\n  %s requests/s over the %s s with the tool attached for %s s\n' \
    "$sample" "$without" "$(cat "$out/$sample.load.log")" "$((seconds + 4))" "$seconds" | tee -a "$out/throughput.txt"
  # The report on the console at 80 columns, as a page, and the cpu pass's stacks as a flame graph (speedscope), from the
  # traces collect kept (stdout, not -o, which would also rewrite collect's $sample.json).
  "${tool[@]}" report "$out/$sample".allocations*.nettrace "$out/$sample".hops*.nettrace "$out/$sample".cpu*.nettrace --sarif "$out/$sample.sarif" \
    | tee "$out/$sample.log"
  "${tool[@]}" report "$out/$sample".allocations*.nettrace "$out/$sample".hops*.nettrace "$out/$sample".cpu*.nettrace --sarif "$out/$sample.sarif" \
    --format html >"$out/$sample.html" 2>"$out/$sample.html.log" || fail "the HTML report of $sample failed (see $out/$sample.html.log)"
  "${tool[@]}" report "$out/$sample".cpu*.nettrace --format speedscope >"$out/$sample.speedscope.json" 2>>"$out/$sample.html.log" || fail "the flame graph of $sample failed"
  echo "$sample as a page: $out/$sample.html; its cpu pass as a flame graph (speedscope): $out/$sample.speedscope.json"
  curl -sf "$url/checkout/7" >/dev/null || fail "$sample stopped answering under the load"
  stop_service
done

# The Fixed twin's code has no findings, so compare takes WebShop's (--sarif) and looks their cost-in methods up in the
# twin's run. Attached services count their requests: the comparison is per request, each figure over its own pass's.
step "before and after: dotnet-asynccost compare, with WebShop's findings timed in both runs"
"${tool[@]}" compare "$out/WebShop.json" "$out/WebShop.Fixed.json" --sarif "$out/WebShop.sarif" | tee "$out/compare.txt"
"${tool[@]}" compare "$out/WebShop.json" "$out/WebShop.Fixed.json" --sarif "$out/WebShop.sarif" --format json >"$out/compare.json"
"${tool[@]}" compare "$out/WebShop.json" "$out/WebShop.Fixed.json" --sarif "$out/WebShop.sarif" --format html >"$out/compare.html"
echo "The comparison as a page: $out/compare.html"

# The story must hold: the costly service's top finding ran; the twin has no findings; the loop's time is measured in both.
top=$(jq -r '.findings[0] | "\(.finding.ruleId) \(.finding.methodKey) exercised=\(.exercised)"' "$out/WebShop.json")
echo "top finding of WebShop: $top"
[[ "$top" == *"exercised=true" ]] || fail "WebShop's top finding was not exercised"
[[ $(jq '.findings | length' "$out/WebShop.Fixed.json") == 0 ]] || fail "the Fixed twin has AsyncCost findings in its report"
if grep -q '"ruleId": "AC' "$out/WebShop.Fixed.sarif"; then fail "the Fixed twin has AsyncCost findings"; fi
# The measurement back in the build (issue 46): WebShop built at the package's defaults with the costs collect wrote
# listed (AsyncCostMeasuredCosts) prints its costliest finding as a warning that says what it cost, and none measured at 0.
step "WebShop built again with its measured costs listed: $out/WebShop.costs.tsv"
[[ -s "$out/WebShop.costs.tsv" ]] || fail "collect -o $out/WebShop with --sarif did not write $out/WebShop.costs.tsv"
measured_build=$(dotnet build samples/WebShop -c Release -nologo -clp:NoSummary --no-incremental \
  -p:AsyncCostMeasuredCosts="$PWD/$out/WebShop.costs.tsv" 2>&1 || true)
grep -E "warning AC00[0-9]{2}:.* — measured" <<<"$measured_build" | sed -E 's# \[[^]]*\]$##' | sed "s#^$PWD/##" | sort -u | tee "$out/measured-build.txt"
read -r top_rule top_line < <(jq -r '.findings[0].finding | "\(.ruleId) \(.line)"' "$out/WebShop.json")
grep -qE "Checkout\.cs\($top_line,[0-9]+\): warning $top_rule:.* — measured [0-9.]+ ms per" "$out/measured-build.txt" \
  || fail "the costliest finding ($top_rule at Checkout.cs:$top_line) is not a warning with its measured time when the costs are listed"
while IFS=$'\t' read -r rule file line _method verdict ms _rest; do
  [[ "$verdict" == measured && "$ms" == 0 ]] || continue
  ! grep -qE "$file\($line,[0-9]+\): warning $rule:" <<<"$measured_build" || fail "$rule at $file:$line, measured at 0 ms, is printed as a warning"
  echo "$rule at $file:$line measured at 0 ms: not a warning"
done < <(grep -v '^#' "$out/WebShop.costs.tsv")

[[ $(jq -r '.basis' "$out/compare.json") == perOperation ]] || fail "compare is not per request: a pass of a run saw no request"
loop=$(jq -r '[.findingTimes[] | select(.ruleId == "AC0001" and .line == 16)][0].change // empty' "$out/compare.json")
echo "AC0001 at Checkout.cs:16 in WebShop.Fixed: ${loop:-no row}"
[[ -n "$loop" && "$loop" != notObservable ]] || fail "compare has no time of AC0001 at Checkout.cs:16 in both runs"
# The loop's predicted saving per request against the saving measured on its own path (what CheckoutAsync waited on
# ReserveAsync), and the line-26 loop's rows: its own callee's only, never line 16's saving or the AC0006 fix's.
saving=$(jq -r '[.findingTimes[] | select(.ruleId == "AC0001" and .line == 16 and .savingPredicted != null)][0]
  | if . == null then empty else "predicted \(.savingPredicted.value) ± \(.savingPredicted.errorBound) to \(.savingPredictedIfOverlapping.value // "-") ms, measured \(.savingMeasured.value // "-") ± \(.savingMeasured.errorBound // "-") ms, within bound: \(.savingWithinPrediction)" end' "$out/compare.json")
echo "AC0001 at Checkout.cs:16, saving per request: ${saving:-none predicted}" | tee -a "$out/requests.txt"
[[ "$saving" =~ within\ bound:\ (true|false)$ ]] || fail "compare has no measured saving of AC0001 at Checkout.cs:16"
line26=$(jq -r '[.findingTimes[] | select(.ruleId == "AC0001" and .line == 26) | "\(.basis) \(.costIn | join("+")) saving=\(.savingMeasured.value // "-")"] | join("; ")' "$out/compare.json")
echo "AC0001 at Checkout.cs:26 rows: ${line26:-none}" | tee -a "$out/requests.txt"
if grep -qE "loopMethodElapsed|ReserveAsync|GetDiscountAsync" <<<"$line26"; then fail "the line-26 finding is credited with another finding's rows: $line26"; fi
