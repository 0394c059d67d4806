#!/usr/bin/env bash
# Whole-build cost of an analyzer package as a user feels it: wall time and CPU time of `dotnet build --no-incremental`
# of one project with and without it, the variants interleaved round by round (A B C ... then B C ... A), `uptime`
# load beside every build. Packages at the severities they ship with (FieldDefaultSeverities), no SARIF, no
# ReportAnalyzer. CPU time is user + sys of `dotnet build` and every process it waited for: the compiler runs as a
# child (no shared compiler server) and MSBuild nodes are not reused, so each build's processes end with it and count.
# usage: build-cost.sh PKGDIR OUTFILE ROUNDS DIR PROJECT TF [VARIANT...]
#   DIR: the project's repository (a clone of clone.sh, or any folder); PROJECT relative to it.
#   VARIANT: none, none-again (the same build as none in its own folders: an A/A control, what this setup reads as
#   "added" when nothing is), asynccost (its shipped severities: every rule a suggestion, which a command-line build without an
#   error log does not run), asynccost-all (AsyncCostAnalysisMode=All: every rule at warning, so the compiler runs them),
#   or a peer of inject.targets (vsthrd, meziantou, asyncfixer); default all six.
#   PKGDIR holds one AsyncCost.Analyzers.<version>.nupkg (as for run.sh). Appends one line per build to OUTFILE:
#   project, round, variant, wall seconds, exit code, load average (1 min) before and after, CPU seconds, and the
#   label in $COST_LABEL if set (a run's name: cost-summary.py keeps runs with different labels apart). The CPU column
#   comes after the older ones so that lines written before it existed keep their meaning.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PKGDIR=$(cd "$1" && pwd); OUTFILE=$2; ROUNDS=$3; DIR=$(cd "$4" && pwd); PROJ=$5; TF=$6; shift 6
variants=("$@"); [ ${#variants[@]} -eq 0 ] && variants=(none asynccost asynccost-all vsthrd meziantou asyncfixer)
cfg=$(mktemp -d)/nuget.config
. "$HERE/package-feed.sh" "$cfg"
repo=$(basename "$DIR"); extra=()
[ -f "$HERE/extra-props.$repo" ] && mapfile -t extra < "$HERE/extra-props.$repo"
extra=("${extra[@]//@SRC@/$(dirname "$DIR")}")
props() {  # the MSBuild properties of one variant
  local pkg='' peers='' mode=''
  case $1 in none | none-again) ;; asynccost) pkg=$ver ;; asynccost-all) pkg=$ver mode=-p:AsyncCostAnalysisMode=All ;; *) peers=$1 ;; esac
  # each variant restores into its own obj folder, so its analyzers stay its own between the interleaved builds, and
  # writes its own bin folder, so a field run of the same clone cannot collide with it
  echo "-p:BaseIntermediateOutputPath=obj/cost-$1/ -p:BaseOutputPath=bin/cost-$1/ -p:CustomAfterMicrosoftCommonTargets=$HERE/inject.targets -p:FieldRepo=$repo -p:FieldDefaultSeverities=true -p:FieldPkgVersion=$pkg -p:FieldPeers=$peers -p:RestoreConfigFile=$cfg -p:TreatWarningsAsErrors=false $mode"
}
load() { cut -d' ' -f1 /proc/loadavg; }
timing=$(mktemp)
cd "$DIR"
for v in "${variants[@]}"; do  # restore each variant once, untimed (a user's build restores once)
  # shellcheck disable=SC2046
  dotnet restore "$PROJ" $(props "$v") "${extra[@]}" -nologo -v:q > /dev/null 2>&1 || echo "restore failed: $v" >&2
done
n=${#variants[@]}
for ((r = 1; r <= ROUNDS; r++)); do
  for ((i = 0; i < n; i++)); do
    v=${variants[$(( (i + r - 1) % n ))]}  # each round starts one variant later: no variant always runs first
    l0=$(load)
    # shellcheck disable=SC2046
    /usr/bin/time -f '%e %U %S' -o "$timing" dotnet build "$PROJ" -f "$TF" -c Release --no-incremental --no-restore -m:1 \
      -nodeReuse:false -p:UseSharedCompilation=false $(props "$v") "${extra[@]}" -nologo -clp:ErrorsOnly > /tmp/build-cost.$$.log 2>&1
    rc=$?; l1=$(load)
    read -r wall user sys < <(tail -1 "$timing")
    printf '%s\t%d\t%s\t%.2f\t%d\t%s\t%s\t%.2f%s\n' "$repo/$(basename "$PROJ")" "$r" "$v" "$wall" "$rc" "$l0" "$l1" \
      "$(echo "$user + $sys" | bc)" "${COST_LABEL:+$'\t'$COST_LABEL}" | tee -a "$OUTFILE"
    [ $rc -ne 0 ] && tail -5 /tmp/build-cost.$$.log >&2
  done
done
rm -f /tmp/build-cost.$$.log "$timing"
