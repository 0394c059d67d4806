#!/usr/bin/env bash
# Field test of the AsyncCost.Analyzers package on public repos cloned by clone.sh under $FIELD_SRC (see ../README.md).
# usage: FIELD_SRC=DIR run.sh PKGDIR OUTDIR [FILTER]   (FILTER: a regex on "repo project" lines of projects.txt)
# PKGDIR holds exactly one AsyncCost.Analyzers.<version>.nupkg; use a distinct version per build of the package.
# FIELD_PEERS=all (or a list of vsthrd;meziantou;asyncfixer;ca) adds the peers' async rules to the same builds
# (inject.targets); their findings go to peer-findings.csv beside the AC ones. FIELD_TEAM_CONFIG=none leaves out a code
# base's own settings (<repo>.globalconfig), so it builds at the package's defaults.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PKGDIR=$(cd "$1" && pwd); OUT=$(mkdir -p "$2" && cd "$2" && pwd); FILTER=${3:-.}
SRC=$(cd "${FIELD_SRC:?set FIELD_SRC to the folder clone.sh filled}" && pwd)
export FIELD_SRC=$SRC
mkdir -p "$OUT/sarif" "$OUT/logs"
. "$HERE/package-feed.sh" "$OUT/nuget.config"
echo "package $ver from $PKGDIR -> $OUT"
: > "$OUT/builds.tsv"
grep -v '^#' "$HERE/projects.txt" | grep -E -- "$FILTER" | while read -r repo proj tf _scope; do
  [ -z "$repo" ] && continue
  name=$(basename "$proj"); name=${name%.*}
  log="$OUT/logs/$repo.$name.$tf.log"
  extra=()
  [ -f "$HERE/extra-props.$repo" ] && mapfile -t extra < "$HERE/extra-props.$repo"
  extra=("${extra[@]//@SRC@/$SRC}")  # extra-props name clone paths as @SRC@/<repo>/…
  start=$(date +%s)
  ( cd "$SRC/$repo" && dotnet build "$proj" -f "$tf" -c Release --no-incremental \
      -p:CustomAfterMicrosoftCommonTargets="$HERE/inject.targets" \
      -p:FieldOut="$OUT" -p:FieldRepo="$repo" -p:FieldPkgVersion="$ver" -p:RestoreConfigFile="$OUT/nuget.config" \
      -p:TreatWarningsAsErrors=false -p:FieldPeers="${FIELD_PEERS:-}" -p:FieldTeamConfig="${FIELD_TEAM_CONFIG:-}" "${extra[@]}" \
      -bl:"$OUT/logs/$repo.$name.$tf.binlog" -flp:"verbosity=detailed;logfile=$log" -nologo -m:1 -clp:ErrorsOnly \
      > "$log.console" 2>&1 )
  rc=$?
  printf '%s\t%s\t%s\t%s\t%ss\n' "$repo" "$proj" "$tf" "$rc" "$(( $(date +%s) - start ))" | tee -a "$OUT/builds.tsv"
done
python3 "$HERE/summarize.py" "$OUT"
