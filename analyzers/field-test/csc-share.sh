#!/usr/bin/env bash
# AsyncCost's share of one compilation's analyzer time, measured on that compilation's own compiler command line:
# the last `csc` call in a detailed build log of run.sh is run again in a fresh compiler process (no restore, no
# MSBuild, no compiler server), with /reportanalyzer and only AsyncCost.Analyzers.dll swapped for the one given.
# Cheaper and more repeatable than a whole field build; see ../README.md.
# usage: csc-share.sh LOG ANALYZERDIR OUTDIR
#   LOG          logs/<repo>.<project>.<tf>.log of a run.sh build (its clone must still be where that build ran)
#   ANALYZERDIR  folder holding the AsyncCost.Analyzers.dll to measure (e.g. analyzers/AsyncCost.Analyzers/bin/Release/netstandard2.0)
#   OUTDIR       receives rsp, out.txt (compiler output with the ReportAnalyzer table), out.sarif, load, summary
# JIT=1 also writes the JIT's list of compiled methods to OUTDIR/jit.txt and counts AsyncCost's.
# SHARED=NAME runs the call through the compiler server on pipe NAME (started by the first such call, as in an ordinary
# `dotnet build`): the analyzers are JIT-compiled once per server, so run a warm-up call first; stop the server after
# with `pkill -f "VBCSCompiler.*NAME"`.
set -u
log=$1; dll=$(cd "$2" && pwd)/AsyncCost.Analyzers.dll; out=$(mkdir -p "$3" && cd "$3" && pwd)
[ -f "$dll" ] || { echo "no AsyncCost.Analyzers.dll in $2" >&2; exit 2; }
project=$(grep -o 'Target "CoreCompile" in file "[^"]*" from project "[^"]*"' "$log" | tail -1 | sed 's/.*from project "\(.*\)"/\1/')
command=$(grep -E '^\s+\S*/csc(\.dll|\.exe)? /noconfig ' "$log" | tail -1)
[ -n "$project" ] && [ -n "$command" ] || { echo "no CoreCompile csc command line in $log" >&2; exit 2; }
mkdir -p "$out/bin/ref"
# Everything after the compiler's path, with the outputs moved into OUTDIR and the package's code fixes (not run by
# the compiler) left out.
python3 - "$command" "$dll" "$out" > "$out/rsp" <<'PY'
import re, sys
command, dll, out = sys.argv[1:]
args = command.strip().split(' ', 1)[1]
def swap(m):
    opt, value = m.group(1), m.group(2)
    if opt == 'analyzer':
        if value.endswith('AsyncCost.Analyzers.CodeFixes.dll'):
            return ''
        return f'/analyzer:{dll}' if value.endswith('AsyncCost.Analyzers.dll') else m.group(0)
    target = {'out': 'bin/assembly.dll', 'refout': 'bin/ref/assembly.dll', 'doc': 'bin/assembly.xml',
              'errorlog': 'out.sarif,version=2.1'}[opt]
    return f'/{opt}:"{out}/{target}"'
args = re.sub(r'/(analyzer|out|refout|doc|errorlog):("[^"]*"|\S+)', swap, args)
if '/reportanalyzer' not in args:
    args += ' /reportanalyzer'
print(args)
PY
compiler=$(echo "$command" | awk '{ print $1 }')
case "$compiler" in
  *.dll) run=(dotnet "$compiler") ;;
  */csc) run=(dotnet "$compiler.dll") ;;
  *) run=("$compiler") ;;
esac
jit=()
if [ "${JIT:-0}" = 1 ]; then jit=(env DOTNET_JitStdOutFile="$out/jit.txt" DOTNET_JitDisasmSummary=1); fi
uptime > "$out/load"
shared=()
if [ -n "${SHARED:-}" ]; then shared=("/shared:$SHARED"); fi
( cd "$(dirname "$project")" && "${jit[@]}" "${run[@]}" "${shared[@]}" "@$out/rsp" > "$out/out.txt" 2>&1 )
echo "exit $?" >> "$out/load"
uptime >> "$out/load"
python3 - "$out" <<'PY' | tee "$out/summary"
import os, re, sys
out = sys.argv[1]
text = open(os.path.join(out, 'out.txt'), errors='replace').read()
total = re.search(r'Total analyzer execution time: ([\d.]+)', text)
package = re.search(r'^\s*(<?[\d.]+)\s+\S+\s+AsyncCost\.Analyzers, Version=', text, re.M)
if not total or not package:
    sys.exit('no ReportAnalyzer table for AsyncCost in out.txt')
seconds = lambda t: 0.0005 if t.startswith('<') else float(t)
total, package = float(total.group(1)), seconds(package.group(1))
rules = sorted(re.findall(r'^\s*(<?[\d.]+)\s+\S+\s+AsyncCost\.Analyzers\.Rules\.\S+ \((AC\d{4})\)', text, re.M), key=lambda r: r[1])
loads = re.findall(r'load average: ([\d.]+)', open(os.path.join(out, 'load')).read())
line = (f'all {total:.2f} s  AsyncCost {package:.3f} s  share {100 * package / total:.2f} %  '
        + ' '.join(f'{rule} {1000 * seconds(t):.0f}' for t, rule in rules)
        + f'  load {" -> ".join(loads)}')
jit = os.path.join(out, 'jit.txt')
if os.path.exists(jit):
    line += f"  jit {sum(1 for l in open(jit, errors='replace') if 'AsyncCost.' in l)} AsyncCost methods"
print(line)
PY
