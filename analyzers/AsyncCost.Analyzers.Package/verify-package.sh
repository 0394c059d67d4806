#!/usr/bin/env bash
# Consumes the packed AsyncCost.Analyzers.<version>.nupkg the way a user would: a throwaway project outside the
# repository restores it from a local folder, and `dotnet build` must print the AC diagnostics. Built twice: as a
# library (AC0004 applies) and as an app (-p:OutputType=Exe: AC0004 must go quiet, which proves the package's
# build props make OutputType visible to the analyzer). Usage: verify-package.sh [folder with the .nupkg]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
feed="$(cd "${1:-$repo/artifacts}" && pwd)"
nupkg=$(ls "$feed"/AsyncCost.Analyzers.[0-9]*.nupkg 2>/dev/null | head -1 || true)
[[ -n "$nupkg" ]] || { echo "verify-package: no AsyncCost.Analyzers.<version>.nupkg in $feed (run dotnet pack first)" >&2; exit 2; }
version=$(basename "$nupkg" .nupkg); version=${version#AsyncCost.Analyzers.}

fail() { echo "verify-package: FAIL: $*" >&2; exit 1; }

# The package layout.
contents=$(unzip -Z1 "$nupkg")
for entry in analyzers/dotnet/cs/AsyncCost.Analyzers.dll analyzers/dotnet/cs/AsyncCost.Analyzers.CodeFixes.dll \
             build/AsyncCost.Analyzers.props README.md AnalyzerReleases.Shipped.md AnalyzerReleases.Unshipped.md; do
  grep -qx "$entry" <<<"$contents" || fail "$entry missing from $(basename "$nupkg")"
done
grep -q '<developmentDependency>true</developmentDependency>' < <(unzip -p "$nupkg" AsyncCost.Analyzers.nuspec) \
  || fail "the package is not a development dependency"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/nuget.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources><clear /><add key="local" value="$feed" /></packageSources>
</configuration>
XML
cat > "$work/Consumer.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
    <OutputType>Library</OutputType>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="AsyncCost.Analyzers" Version="$version" />
  </ItemGroup>
</Project>
XML
# The suggestion-level rules are raised to warnings so that build output shows them (info lines are not printed).
cat > "$work/.editorconfig" <<'INI'
root = true
[*.cs]
dotnet_diagnostic.AC0001.severity = warning
dotnet_diagnostic.AC0002.severity = warning
dotnet_diagnostic.AC0003.severity = warning
INI
cat > "$work/PriceService.cs" <<'CS'
using System.Collections.Generic;
using System.IO;
using System.Threading.Tasks;

namespace Consumer;

public class PriceService
{
    private readonly Dictionary<string, decimal> _cache = new();
    private bool _initialized;

    public static void Main() { }

    public async Task<List<decimal>> GetAllAsync(string[] symbols)
    {
        var prices = new List<decimal>();
        foreach (var symbol in symbols)
            prices.Add(await GetPriceAsync(symbol).ConfigureAwait(false));                   // AC0001
        return prices;
    }

    public async Task<decimal> GetPriceAsync(string symbol)
    {
        await EnsureInitializedAsync().ConfigureAwait(false);                                  // AC0003
        return _cache[symbol];
    }

    public async Task<decimal> QuoteAsync(string symbol) => 2 * await LookupAsync(symbol).ConfigureAwait(false);

    private async Task EnsureInitializedAsync()
    {
        if (_initialized) return;
        await Task.Delay(1).ConfigureAwait(false);
        _initialized = true;
    }

    private async Task<decimal> LookupAsync(string symbol)                                     // AC0002
    {
        if (_cache.TryGetValue(symbol, out var price)) return price;
        await Task.Delay(1).ConfigureAwait(false);
        return 0.5m;
    }

    public async Task<string> ReadAsync(string path)
    {
        using var reader = new StreamReader(path);
        return await reader.ReadToEndAsync();                                                  // AC0004 (libraries only)
    }
}
CS

build() { dotnet build "$work/Consumer.csproj" --packages "$work/packages" -nologo -clp:NoSummary "$@" 2>&1 || true; }
library=$(build)
for id in AC0001 AC0002 AC0003 AC0004; do
  grep -q "warning $id:" <<<"$library" || { echo "$library"; fail "$id not reported when building a library"; }
done
app=$(build -p:OutputType=Exe)
grep -q "warning AC0001:" <<<"$app" || { echo "$app"; fail "the app build reported nothing (analyzer not loaded?)"; }
! grep -q "warning AC0004:" <<<"$app" || { echo "$app"; fail "AC0004 reported in an app: OutputType did not reach the analyzer"; }

echo "verify-package: $(basename "$nupkg") restores from a local folder; dotnet build reports:"
grep -oE "warning AC00[0-9]{2}: [^[]*" <<<"$library" | sort -u | cut -c1-140 | sed 's/^/  /'
echo "verify-package: as an app (OutputType=Exe) AC0004 stays quiet."
