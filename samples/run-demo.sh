#!/usr/bin/env bash
# The README's main job: build samples/ChattyPipeline with the AsyncCost analyzers (findings to SARIF), run it under
# `dotnet-asynccost collect --sarif` to rank those findings by what they cost in time, do the same for its Fixed twin,
# and print the two runs side by side. Usage: bash samples/run-demo.sh [operations]   (default 400 orders)
set -euo pipefail
cd "$(dirname "$0")/.."

operations="${1:-400}"
out="artifacts/demo"
mkdir -p "$out"
step() { printf '\n==> %s\n' "$*"; }
# Builds print only when they fail; their whole output is kept in $out/build.log.
quiet_build() { dotnet build "$@" -nologo >>"$out/build.log" 2>&1 || { tail -n 40 "$out/build.log" >&2; echo "run-demo: build failed (full log: $out/build.log)" >&2; exit 1; }; }
: >"$out/build.log"

step "build dotnet-asynccost and the samples (log: $out/build.log)"
quiet_build src/AsyncCost.Cli -c Release
tool=(dotnet src/AsyncCost.Cli/bin/Release/net10.0/dotnet-asynccost.dll)

for sample in ChattyPipeline ChattyPipeline.Fixed; do
  # --no-incremental: an up-to-date build skips the compiler and would write no SARIF.
  quiet_build "samples/$sample" -c Release --no-incremental -p:ErrorLog="$PWD/$out/$sample.sarif%2Cversion=2.1"

  step "$sample under dotnet-asynccost collect --sarif, $operations orders"
  # The full report goes to $out/$sample.txt (and .json), the sample's own lines to $out/$sample.output (-o writes the
  # report to its file, not to stdout).
  # collect's own messages (launching, progress, warnings) go to $out/$sample.collect.log, shown if it fails.
  "${tool[@]}" collect --sarif "$out/$sample.sarif" -o "$out/$sample" --child-output "$out/$sample.output" \
    -- dotnet "samples/$sample/bin/Release/net10.0/$sample.dll" --operations "$operations" 2>"$out/$sample.collect.log" \
    || { cat "$out/$sample.collect.log" >&2; echo "run-demo: collect of $sample failed" >&2; exit 1; }
  # The console gets the ranking of the analyzer's findings (what the 80-column report starts with), read back from the
  # traces collect kept; a trace does not keep the run's operation count, so it is given again (times per order).
  "${tool[@]}" report "$out/$sample".allocations*.nettrace "$out/$sample".hops*.nettrace --sarif "$out/$sample.sarif" \
    --operations "$operations" >"$out/$sample.console.txt" 2>>"$out/$sample.collect.log"
  if grep -q '"ruleId": "AC' "$out/$sample.sarif"; then
    # The ranking table, up to the note under it (the note is in the full report).
    awk '/^Analyzer findings, ranked/ {on = 1} on && /^$/ && ++blank == 2 {exit} on' "$out/$sample.console.txt"
  else
    echo "No AsyncCost findings in $sample."
  fi
  # The same report as a page (sortable bars with their bounds), read back from the traces collect kept (stdout, not -o,
  # which would also rewrite collect's $sample.json).
  "${tool[@]}" report "$out/$sample".allocations*.nettrace "$out/$sample".hops*.nettrace --sarif "$out/$sample.sarif" \
    --operations "$operations" --format html >"$out/$sample.html" 2>>"$out/build.log" \
    || { echo "run-demo: the HTML report of $sample failed (see $out/build.log)" >&2; exit 1; }
  printf 'Full report (every column, what each means): %s\nAs a page: %s\n' "$out/$sample.txt" "$out/$sample.html"
done

step "before and after: dotnet-asynccost compare, $operations orders each"
# The samples print their own throughput, once per pass: the first line is the allocation pass (TPL events off).
for sample in ChattyPipeline ChattyPipeline.Fixed; do
  printf '%-22s %s\n' "$sample:" "$(grep -m1 -o 'throughput .*' "$out/$sample.output")"
done
# compare ends with one sentence of what changed, naming only the differences outside their bounds.
"${tool[@]}" compare "$out/ChattyPipeline.json" "$out/ChattyPipeline.Fixed.json" --operations "$operations" | tee "$out/compare.txt"
"${tool[@]}" compare "$out/ChattyPipeline.json" "$out/ChattyPipeline.Fixed.json" --operations "$operations" --format html >"$out/compare.html"
echo "The comparison as a page: $out/compare.html"

# The story must hold: the costly sample's findings ran, the twin has none, and the comparison names a real change.
grep -q '"exercised": true' "$out/ChattyPipeline.json" || { echo "run-demo: no exercised finding in ChattyPipeline" >&2; exit 1; }
if grep -q '"ruleId": "AC' "$out/ChattyPipeline.Fixed.sarif"; then echo "run-demo: the Fixed twin has AsyncCost findings" >&2; exit 1; fi
# (The sentence wraps at the terminal's width: read it as one line.)
tr '\n' ' ' <"$out/compare.txt" | grep -Eq 'ChattyPipeline\.Fixed [^;]*(more operations per second|fewer)[^;]* than ChattyPipeline' \
  || { echo "run-demo: the comparison names no improvement; run more orders" >&2; exit 1; }
