#!/usr/bin/env bash
# Faults a service must survive (issue 36): what dotnet-asynccost does to the process it attaches to, on the web sample
# (samples/WebShop on a free loopback port) under a bounded loopback load (wrk, one thread, a few connections):
#   1. N attach/detach cycles in a row (`collect -p --duration`): no failed request, the service's memory and thread
#      count back within 5 % of before, every cycle's report written;
#   2. the tool killed with SIGKILL in the middle of a pass, K times: the service keeps serving; then A consecutive
#      attaches (more than the runtime's 64 EventPipe session slots, so slots the killed tools held must have been
#      freed) all report, and the next default attach reports normally;
#   3. two tools attached at once, and a tool attached while dotnet-trace is, then while dotnet-counters is: each gets
#      its report or one clear message;
#   4. a service that exits in the middle of a recording: the report of what was gathered, marked cut short, exit code 19.
# Writes benchmarks/results/Faults.md (with `uptime` load before each part) and keeps every report and log in
# artifacts/faults/. Heavy (minutes of attaching): run it through the machine's lock on a shared machine.
# Usage: bash benchmarks/faults.sh [cycles (50)] [kills (10)] [attaches after the kills (70)]
set -euo pipefail
cd "$(dirname "$0")/.."

cycles="${1:-50}"
kills="${2:-10}"
attaches="${3:-70}"
out="artifacts/faults"
results="benchmarks/results/Faults.md"
rm -rf "$out"
mkdir -p "$out"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

fail() { echo "faults: $*" >&2; exit 1; }
command -v wrk >/dev/null || fail "wrk is missing (./build.sh provision installs it)"
step() { printf '\n==> %s\n' "$*"; }
load_now() { uptime | sed 's/.*load average: //'; }

step "build dotnet-asynccost and samples/WebShop (Release), restore the pinned dotnet-trace and dotnet-counters"
dotnet build src/AsyncCost.Cli -c Release -nologo -v:q >"$out/build.log" 2>&1 || fail "build failed (see $out/build.log)"
dotnet build samples/WebShop -c Release -nologo -v:q >>"$out/build.log" 2>&1 || fail "build failed (see $out/build.log)"
dotnet tool restore >/dev/null
# A copy of the build, so a rebuild of the worktree meanwhile cannot swap the tool under a running part.
cp -r src/AsyncCost.Cli/bin/Release/net10.0 "$out/tool"
tool=(dotnet "$out/tool/dotnet-asynccost.dll")

source samples/web-service.sh
service=""
loader=""
twin=""
twin_loader=""
cleanup() {
  [[ -n "$loader" ]] && kill "$loader" 2>/dev/null || true
  [[ -n "$twin_loader" ]] && kill "$twin_loader" 2>/dev/null || true
  [[ -n "$twin" ]] && kill "$twin" 2>/dev/null || true
  [[ -n "$service" ]] && kill "$service" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT

# A bounded loopback load for the length of a part: one wrk thread, 4 connections, stopped with SIGINT (wrk then prints
# its summary, errors included).
start_load() {
  wrk -t1 -c4 -d3600s --timeout 5s "$url/checkout/1" >"$1" 2>&1 &
  loader=$!
  sleep 2
}
stop_load() {
  kill -INT "$loader"
  wait "$loader" || true
  loader=""
}
# "requests failed" from a wrk summary: non-2xx responses plus socket errors (connect, read, write, timeout).
load_summary() {
  local file="$1" requests non2xx socket
  requests=$(grep -oE '^ *[0-9]+ requests in' "$file" | grep -oE '[0-9]+' || echo 0)
  non2xx=$(grep -oE 'Non-2xx or 3xx responses: [0-9]+' "$file" | grep -oE '[0-9]+$' || echo 0)
  socket=$(grep -oE 'Socket errors: .*' "$file" | grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }')
  echo "$requests requests, $((non2xx + ${socket:-0})) failed (non-2xx $non2xx, socket errors ${socket:-0})"
}
failed_requests() { load_summary "$1" | sed -E 's/.* ([0-9]+) failed.*/\1/'; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/${1:-$service}/status"; }
# Resident memory settled: the median of five readings a second apart (one reading moves by MBs with the GC's timing
# under a load that allocates all the time).
rss_settled_kb() {
  local readings=()
  for _ in 1 2 3 4 5; do readings+=("$(rss_kb "${1:-$service}")"); sleep 1; done
  printf '%s\n' "${readings[@]}" | sort -n | sed -n 3p
}
threads() { awk '/^Threads:/ {print $2}' "/proc/${1:-$service}/status"; }
serves() { curl -sf -o /dev/null --max-time 5 "$url/checkout/1"; }
start_service() {
  start_web_service samples/WebShop/bin/Release/net10.0/WebShop.dll "$out/service-$1.log"
  # Warm up (JIT, pools) before anything is measured.
  for _ in $(seq 200); do curl -sf -o /dev/null "$url/checkout/1"; done
}
# The tool's message on stderr: its "dotnet-asynccost:" line and the indented lines that go on under it, joined.
message() { awk '/^dotnet-asynccost:/ { m = $0; on = 1; next } on && /^  / { sub(/^ +/, ""); m = m " " $0; next } { on = 0 } END { print (m == "" ? "none" : m) }' "$1"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f %%", 100 * (b - a) / a }'; }

{
  echo "# Faults a service must survive (issue 36)"
  echo
  echo "What \`dotnet-asynccost\` does to the process it attaches to: \`benchmarks/faults.sh $cycles $kills $attaches\` on"
  echo "samples/WebShop (Release, a free loopback port) under \`wrk -t1 -c4 --timeout 5s\` on \`GET /checkout/1\`, $(date -u '+%Y-%m-%d %H:%M UTC'),"
  echo "$(nproc) cores, $(dotnet --list-runtimes | grep -m1 -oE 'Microsoft.NETCore.App [0-9.]+'). The machine was shared (other engineers building):"
  echo "\`uptime\` load is given before each part. Reports and logs: \`artifacts/faults/\`."
  echo
} >"$results"

# 1. Attach/detach cycles.
step "part 1: $cycles attach/detach cycles under load"
# An unattached twin under the same load for the same time: what a service's memory and threads do without the tool
# (heap and pool growth under a long load), read at the same moments.
start_service twin
twin=$service
start_load "$out/load-twin.txt"
twin_loader=$loader
start_service cycles
start_load "$out/load-cycles.txt"
sleep 5
rss_before=$(rss_settled_kb); threads_before=$(threads); load1=$(load_now)
twin_rss_before=$(rss_settled_kb "$twin"); twin_threads_before=$(threads "$twin")
printf 'cycle\trc\treport\trss_kb\tthreads\ttwin_rss_kb\ttwin_threads\n' >"$out/cycles.tsv"
reports=0
for i in $(seq "$cycles"); do
  rc=0
  "${tool[@]}" collect -p "$service" --duration 2s -o "$out/cycle-$i" 2>"$out/cycle-$i.stderr" || rc=$?
  written=no
  [[ -s "$out/cycle-$i.txt" && -s "$out/cycle-$i.json" ]] && jq -e '.methods | length > 0' "$out/cycle-$i.json" >/dev/null && written=yes
  [[ $written == yes && $rc == 0 ]] && reports=$((reports + 1))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$rc" "$written" "$(rss_kb)" "$(threads)" "$(rss_kb "$twin")" "$(threads "$twin")" >>"$out/cycles.tsv"
done
sleep 5
rss_after=$(rss_settled_kb); threads_after=$(threads)
twin_rss_after=$(rss_settled_kb "$twin"); twin_threads_after=$(threads "$twin")
stop_load
kill -INT "$twin_loader"; wait "$twin_loader" 2>/dev/null || true; twin_loader=""
kill "$twin"; wait "$twin" 2>/dev/null || true; twin=""
cycle_load=$(load_summary "$out/load-cycles.txt")
rss_first=$(awk -F'\t' 'NR == 2 {print $4}' "$out/cycles.tsv")
# A leak grows with every cycle; a one-off cost (the runtime's first session) does not: the mean of the first and of the
# last fifth of the cycles, after the first.
fifth=$(( (cycles - 1) / 5 > 0 ? (cycles - 1) / 5 : 1 ))
rss_early=$(awk -F'\t' -v n="$fifth" 'NR > 2 && NR <= 2 + n { s += $4; c++ } END { printf "%d", s / c }' "$out/cycles.tsv")
rss_late=$(awk -F'\t' -v n="$fifth" -v last="$((cycles + 1))" 'NR > last - n && NR <= last { s += $4; c++ } END { printf "%d", s / c }' "$out/cycles.tsv")
kill "$service"; wait "$service" 2>/dev/null || true; service=""
{
  echo "## 1. $cycles attach/detach cycles in a row"
  echo
  echo "Each cycle: \`collect -p PID --duration 2s -o cycle-N\` (the default passes: allocations, then the windowed hop pass);"
  echo "the service under load throughout, beside an unattached twin under its own \`wrk\` (same settings). Load before: $load1."
  echo
  echo "| | before | after the last cycle (5 s later) | change | its unattached twin, same load, same moments | change |"
  echo "|---|--:|--:|--:|--:|--:|"
  echo "| resident memory (VmRSS, median of 5 readings 1 s apart) | $((rss_before / 1024)) MB | $((rss_after / 1024)) MB | $(pct "$rss_before" "$rss_after") | $((twin_rss_before / 1024)) → $((twin_rss_after / 1024)) MB | $(pct "$twin_rss_before" "$twin_rss_after") |"
  echo "| threads | $threads_before | $threads_after | $(pct "$threads_before" "$threads_after") | $twin_threads_before → $twin_threads_after | $(pct "$twin_threads_before" "$twin_threads_after") |"
  echo
  echo "- Reports written (exit code 0, \`cycle-N.txt\` and \`cycle-N.json\` with method rows): **$reports of $cycles**."
  echo "- The load over all cycles: $cycle_load."
  echo "- Memory after the first cycle $((rss_first / 1024)) MB, after the last $((rss_after / 1024)) MB ($(pct "$rss_first" "$rss_after"));"
  echo "  mean over cycles 2–$((fifth + 1)) $((rss_early / 1024)) MB, over the last $fifth $((rss_late / 1024)) MB ($(pct "$rss_early" "$rss_late"): what a leak would make grow);"
  echo "  per cycle: \`artifacts/faults/cycles.tsv\`."
  echo
} >>"$results"

# 2. SIGKILL mid-pass, then more attaches than the runtime has session slots.
step "part 2: the tool killed with SIGKILL mid-pass $kills times, then $attaches attaches"
start_service kills
start_load "$out/load-kills.txt"
load2=$(load_now)
served_after_kills=0
for i in $(seq "$kills"); do
  "${tool[@]}" collect -p "$service" -o "$out/killed-$i" 2>"$out/killed-$i.stderr" &
  victim=$!
  for _ in $(seq 100); do grep -qs '^Recording pass' "$out/killed-$i.stderr" && break; sleep 0.1; done
  # Somewhere in the first pass, not always at its start.
  sleep "0.$((RANDOM % 9 + 1))"
  kill -KILL "$victim"
  wait "$victim" 2>/dev/null || true
  serves && served_after_kills=$((served_after_kills + 1))
done
ok=0
first_failure=""
for i in $(seq "$attaches"); do
  rc=0
  "${tool[@]}" collect -p "$service" --passes allocations --duration 1s --format json >"$out/attach-$i.json" 2>"$out/attach-$i.stderr" || rc=$?
  if [[ $rc == 0 ]] && jq -e '.passes | length == 1' "$out/attach-$i.json" >/dev/null; then
    ok=$((ok + 1))
  elif [[ -z "$first_failure" ]]; then
    first_failure="attach $i: exit $rc, $(head -c 300 "$out/attach-$i.stderr" | tr '\n' ' ')"
  fi
done
rc=0
"${tool[@]}" collect -p "$service" --duration 4s -o "$out/after-kills" 2>"$out/after-kills.stderr" || rc=$?
after_kills_rows=$(jq '.methods | length' "$out/after-kills.json" 2>/dev/null || echo 0)
stop_load
kills_load=$(load_summary "$out/load-kills.txt")
{
  echo "## 2. The tool killed with SIGKILL mid-pass, $kills times"
  echo
  echo "Each time: \`collect -p PID\` (no duration) killed with SIGKILL 0.1–0.9 s after its first \"Recording pass\" line."
  echo "Load before: $load2."
  echo
  echo "- The service answered \`GET /checkout/1\` after **$served_after_kills of $kills** kills; the load over the whole part: $kills_load."
  echo "- Then **$ok of $attaches** consecutive attaches (\`collect -p PID --passes allocations --duration 1s --format json\`) reported"
  echo "  (the runtime has 64 EventPipe session slots: the killed tools' sessions were ended)${first_failure:+; first failure: $first_failure}."
  echo "- The next default attach (\`collect -p PID --duration 4s\`): exit code $rc, $after_kills_rows method rows in its report."
  echo
} >>"$results"

# 3. Two tools at once; a tool beside dotnet-trace, then beside dotnet-counters.
step "part 3: two tools at once, a tool beside dotnet-trace, a tool beside dotnet-counters"
start_load "$out/load-together.txt"
load3=$(load_now)
rc_a=0; rc_b=0
"${tool[@]}" collect -p "$service" --duration 4s -o "$out/together-a" 2>"$out/together-a.stderr" &
first=$!
"${tool[@]}" collect -p "$service" --duration 4s -o "$out/together-b" 2>"$out/together-b.stderr" || rc_b=$?
wait "$first" || rc_a=$?
# `collect -p PID --duration 4s -o beside-PEER` attached 2 s into a 10 s recording by PEER, a pinned local tool
# (`dotnet PEER collect -p PID -o PEER.EXTENSION`, its output in PEER.log); sets rc_ours and rc_peer, the exit codes.
beside() { # peer extension
  local peer="$1" pid
  dotnet "$peer" collect -p "$service" --duration 00:00:00:10 -o "$out/$peer.$2" >"$out/$peer.log" 2>&1 &
  pid=$!
  sleep 2
  rc_ours=0
  "${tool[@]}" collect -p "$service" --duration 4s -o "$out/beside-$peer" 2>"$out/beside-$peer.stderr" || rc_ours=$?
  rc_peer=0
  wait "$pid" || rc_peer=$?
}
beside dotnet-trace nettrace
rc_c=$rc_ours; rc_t=$rc_peer
beside dotnet-counters csv
rc_d=$rc_ours; rc_k=$rc_peer
stop_load
together_load=$(load_summary "$out/load-together.txt")
# The distinct seconds a dotnet-counters CSV has readings for (its first column, after the header).
counter_seconds() { awk -F, 'NR > 1 { seen[$1] = 1 } END { print length(seen) }' "$1" 2>/dev/null || echo 0; }
outcome() { # name rc
  local rows warnings
  rows=$(jq '.methods | length' "$out/$1.json" 2>/dev/null || echo "no")
  warnings=$(jq -r '[.warnings[].code] | join(", ")' "$out/$1.json" 2>/dev/null || echo "")
  echo "exit code $2, $rows method rows${warnings:+, warnings: $warnings}; stderr: $(message "$out/$1.stderr")"
}
{
  echo "## 3. Two tools at once, and a tool beside dotnet-trace, then beside dotnet-counters"
  echo
  echo "Load before: $load3. The load over the part: $together_load."
  echo
  echo "- Two \`collect -p PID --duration 4s\` started together: first $(outcome together-a "$rc_a"); second $(outcome together-b "$rc_b")."
  echo "- \`collect -p PID --duration 4s\` while \`dotnet-trace collect -p PID\` (its default providers) records: $(outcome beside-dotnet-trace "$rc_c");"
  echo "  dotnet-trace exited $rc_t, its trace $(du -h "$out/dotnet-trace.nettrace" 2>/dev/null | cut -f1 || echo missing)."
  echo "- \`collect -p PID --duration 4s\` while \`dotnet-counters collect -p PID\` (its default, the System.Runtime meter) records:"
  echo "  $(outcome beside-dotnet-counters "$rc_d"); dotnet-counters exited $rc_k, its CSV has"
  echo "  $(counter_seconds "$out/dotnet-counters.csv") seconds of readings (of 10 asked)."
  echo
} >>"$results"

# 4. The service exits mid-recording.
step "part 4: the service exits in the middle of a recording"
start_load "$out/load-exit.txt"
load4=$(load_now)
rc=0
"${tool[@]}" collect -p "$service" --duration 30s -o "$out/exited" 2>"$out/exited.stderr" &
recorder=$!
for _ in $(seq 100); do grep -q '^Recording pass' "$out/exited.stderr" && break; sleep 0.1; done
sleep 2
kill -TERM "$service"
wait "$service" 2>/dev/null || true
service=""
wait "$recorder" || rc=$?
stop_load # its requests fail once the service is gone: not counted
{
  echo "## 4. A service that exits in the middle of a recording"
  echo
  echo "\`collect -p PID --duration 30s -o exited\`, the service under load; it was stopped (SIGTERM) 2 s into the first pass."
  echo "Load before: $load4."
  echo
  echo "- Exit code **$rc** (documented: 19, the attached process exited during collection); stderr:"
  echo "  \`$(message "$out/exited.stderr")\`"
  echo "- The report: stop reason \`$(jq -r '.stopReason' "$out/exited.json" 2>/dev/null || echo none)\`, cut short \`$(jq -r '.cutShort' "$out/exited.json" 2>/dev/null || echo none)\`,"
  echo "  $(jq '.methods | length' "$out/exited.json" 2>/dev/null || echo 0) method rows; its text says \"$(grep -m1 -o 'stopped: [^;(]*' "$out/exited.txt" 2>/dev/null || echo none)\"."
  echo
} >>"$results"

cat "$results"
