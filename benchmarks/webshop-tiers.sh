#!/usr/bin/env bash
# Where a WebShop service's CPU goes, beside an uninstrumented twin: perf profiles of both under the same load, summed by
# the code's tier as the runtime's perf map names it ([QuickJitted] = tier 0, [OptimizedTier1], ...), stubs, and the
# rest (native, kernel: sched_yield is the blocking sample's spinning). The profiles benchmarks/results/WebShopOverhead.md
# quotes ("what a window leaves behind is delayed tier-up"). Needs perf (Debian linux-perf), wrk and taskset.
#   benchmarks/webshop-tiers.sh [WebShop|WebShop.Fixed] [seconds (45)]
# The variant's options come from the environment as the service reads them, e.g. one hop window at start-up:
#   AsyncCost__Options__AllocationWindow=00:00:00 AsyncCost__Options__Period=01:00:00 benchmarks/webshop-tiers.sh
# Build first: dotnet build samples/WebShop -c Release (or samples/WebShop.Fixed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sample=${1:-WebShop}; seconds=${2:-45}
dll=$root/samples/$sample/bin/Release/net10.0/$sample.dll
[[ -f $dll ]] || { echo "$dll is missing: dotnet build samples/$sample -c Release" >&2; exit 2; }
for tool in perf wrk taskset; do command -v $tool >/dev/null || { echo "$tool is missing" >&2; exit 2; }; done
out=$(mktemp -d)
# Perf maps name the JIT's code; W^X off keeps it at the addresses the maps give. The pool as webshop-overhead fixes it.
serve() { DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 Logging__LogLevel__Default=Warning \
  DOTNET_ThreadPool_ForceMinWorkerThreads=0x20 DOTNET_ThreadPool_ForceMaxWorkerThreads=0x20 \
  AsyncCost__Instrumentation=$1 taskset -c 0 dotnet "$dll" --urls "http://127.0.0.1:$2" >"$out/$2.log" 2>&1 & }
serve default 5601; variant=$!
serve off 5602; twin=$!
trap 'kill $variant $twin 2>/dev/null || true' EXIT
for port in 5601 5602; do
  until curl -sf -o /dev/null "http://127.0.0.1:$port/checkout/1"; do sleep 0.5; done
done
load() { taskset -c 1 wrk -t1 -c16 "-d$1s" "http://127.0.0.1:$2/checkout/1"; }
echo "warm-up: 12 s of load on each"
load 12 5601 >/dev/null & first=$!; load 12 5602 >/dev/null & second=$!; wait $first $second
echo "profiling both for $seconds s under the same load"
jobs=()
for side in variant:$variant twin:$twin; do
  taskset -c 1 perf record -g -F 499 -p "${side#*:}" -o "$out/${side%%:*}.data" -- sleep "$seconds" >/dev/null 2>&1 & jobs+=($!)
done
load "$seconds" 5601 >/dev/null & jobs+=($!); load "$seconds" 5602 >/dev/null & jobs+=($!)
wait "${jobs[@]}"
for side in variant twin; do
  perf report -i "$out/$side.data" --no-children --sort symbol --stdio -g none 2>/dev/null | grep -E '^ +[0-9.]+%' >"$out/$side.txt"
  # Inclusive: the time under sched_yield calls (the blocking sample's workers spinning on .Result).
  perf report -i "$out/$side.data" --children --sort symbol --stdio -g none 2>/dev/null | grep -E '^ +[0-9.]+%.* __sched_yield' | head -1 >"$out/$side.yield.txt"
done
python3 - "$out" <<'PY'
import re, sys
def shares(path):
    kinds = {}
    for line in open(path):
        percent, symbol = line.split('%', 1)
        tier = re.search(r'\[(QuickJitted|OptimizedTier1OSR|OptimizedTier1|InstrumentedTierOptimized|InstrumentedTier|Optimized|PreJIT)\]', symbol)
        kind = tier.group(1) if tier else 'stub' if ' stub ' in symbol else 'kernel' if '[k]' in symbol else 'other native'
        kinds[kind] = kinds.get(kind, 0) + float(percent)
    spin = open(path.replace('.txt', '.yield.txt')).read().split('%')[0].split()
    kinds['under sched_yield (inclusive)'] = float(spin[0]) if spin else 0.0
    return kinds
variant, twin = shares(f'{sys.argv[1]}/variant.txt'), shares(f'{sys.argv[1]}/twin.txt')
print(f"{'samples in':<28}{'variant':>9}{'twin':>9}")
for kind in sorted(set(variant) | set(twin), key=lambda k: -variant.get(k, 0)):
    print(f"{kind:<28}{variant.get(kind, 0):8.2f}%{twin.get(kind, 0):8.2f}%")
PY
echo "profiles: $out"
