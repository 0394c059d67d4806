# Sourced by run.sh and build-cost.sh: the package under test from PKGDIR, everything else from the registry.
# Sets ver (the package's version) and writes a nuget.config to the path in $1.
# PKGDIR holds exactly one AsyncCost.Analyzers.<version>.nupkg; use a distinct version per build of the package.
nupkg=$(ls "$PKGDIR"/AsyncCost.Analyzers.*.nupkg | head -1)
ver=$(basename "$nupkg" .nupkg); ver=${ver#AsyncCost.Analyzers.}
cat > "$1" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources><clear />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
    <add key="field" value="$PKGDIR" />
  </packageSources>
  <packageSourceMapping>
    <packageSource key="field"><package pattern="AsyncCost.*" /></packageSource>
    <packageSource key="nuget.org"><package pattern="*" /></packageSource>
  </packageSourceMapping>
</configuration>
XML
