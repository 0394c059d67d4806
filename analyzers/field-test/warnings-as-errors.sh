#!/usr/bin/env bash
# Issue 34 item 7: the package on first install into real solutions that build with TreatWarningsAsErrors=true
# themselves. For each solution below (cloned by clone.sh under $FIELD_SRC) three builds, none overriding
# TreatWarningsAsErrors or any rule's severity:
#   before   without the package: the solution is green as its team builds it;
#   install  with the package at its defaults: must stay green, AC0006 printed as warnings (counted);
#   opt-in   with -p:AsyncCostWarningsAsErrors=true: fails on those AC0006 findings, if there are any.
# usage: FIELD_SRC=DIR warnings-as-errors.sh PKGDIR OUTDIR [FILTER]   (run it through `heavy`)
# PKGDIR holds exactly one AsyncCost.Analyzers.<version>.nupkg. Writes OUTDIR/results.tsv and one log per build.
# Mirror artefacts: FieldRelaxRestore=true (inject.targets) adds NU1603/NU1605 to NoWarn inside the project, for
# pinned versions the NuGet mirror does not serve (it resolves the next one). Not -p:WarningsNotAsErrors=NU1603: a
# global property would replace the WarningsNotAsErrors the package's targets extend, and turn AC0006 into errors.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PKGDIR=$(cd "$1" && pwd); OUT=$(mkdir -p "$2" && cd "$2" && pwd); FILTER=${3:-.}
SRC=$(cd "${FIELD_SRC:?set FIELD_SRC to the folder clone.sh filled}" && pwd)
. "$HERE/package-feed.sh" "$OUT/nuget.config"
# repo  project  target framework  extra properties for the mirror (none: "-")
solutions="quartz src/Quartz.HttpClient/Quartz.HttpClient.csproj net10.0 -p:FieldRelaxRestore=true
nats src/NATS.Net/NATS.Net.csproj net8.0 -p:FieldRelaxRestore=true
garnet main/GarnetServer/GarnetServer.csproj net10.0 -p:FieldRelaxRestore=true"
printf 'repo\tproject\tTreatWarningsAsErrors\tbuild\texit\tAC0006 warnings\tAC0006 errors\twall\tload\n' > "$OUT/results.tsv"
grep -E -- "$FILTER" <<<"$solutions" | while read -r repo proj tf extra; do
  [ "$extra" = - ] && extra=
  name=$(basename "$proj" .csproj)
  twae=$(cd "$SRC/$repo" && dotnet msbuild "$proj" -getProperty:TreatWarningsAsErrors -p:TargetFramework="$tf" 2>/dev/null)
  for build in before install opt-in; do
    # The outer build of a multi-targeted project imports the cross-targeting hook, not the other; restore reads its
    # NoWarn there.
    args=(-p:CustomAfterMicrosoftCommonTargets="$HERE/inject.targets" -p:CustomAfterMicrosoftCommonCrossTargetingTargets="$HERE/inject.targets"
      -p:RestoreConfigFile="$OUT/nuget.config" $extra)
    case $build in
      install) args+=(-p:FieldPkgVersion="$ver" -p:FieldDefaultSeverities=true) ;;
      opt-in) args+=(-p:FieldPkgVersion="$ver" -p:FieldDefaultSeverities=true -p:AsyncCostWarningsAsErrors=true) ;;
    esac
    log="$OUT/$repo.$name.$build.log"
    start=$(date +%s)
    ( cd "$SRC/$repo" && dotnet build "$proj" -f "$tf" -c Release --no-incremental -nologo -m:1 "${args[@]}" > "$log" 2>&1 )
    rc=$?
    # Each diagnostic is printed once while building and once in the summary: count distinct ones.
    warnings=$(grep -o '[^ ]*([0-9,]*): warning AC0006' "$log" | sort -u | wc -l)
    errors=$(grep -o '[^ ]*([0-9,]*): error AC0006' "$log" | sort -u | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%ss\t%s\n' "$repo" "$proj" "$twae" "$build" "$rc" "$warnings" "$errors" \
      "$(( $(date +%s) - start ))" "$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/results.tsv"
  done
done
