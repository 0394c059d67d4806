#!/usr/bin/env bash
# Consumes the packed AsyncCost.Analyzers.<version>.nupkg the way a user would: throwaway projects outside the
# repository restore it from a local folder. Checked:
#  - the defaults: AC0006 is a warning, printed by a plain `dotnet build`, and every other rule a suggestion (SARIF
#    notes); a library with warnings as errors still builds (the package's targets keep the AC IDs out of
#    warnings-as-errors), and fails with -p:AsyncCostWarningsAsErrors=true, the team's opt-in;
#  - a test project at the defaults: the same waits are AC0011, a suggestion (in SARIF, not printed by the build);
#  - a fresh `dotnet new console` project with one `.Result` on an unfinished task: `dotnet build` prints AC0006, and
#    the same project with TreatWarningsAsErrors builds;
#  - the switch <AsyncCostAnalysisMode>All</AsyncCostAnalysisMode>: every rule becomes a warning in build output;
#  - the build props and targets reach the analyzer: as an app (-p:OutputType=Exe) AC0004 goes quiet, and as a test
#    project (-p:IsTestProject=true) so do the rules that are silent in tests, and as an application's own library
#    (-p:IsPackable=false, or no license: nothing says it publishes a package) AC0004 goes quiet;
#  - the switch is a build input: an incremental build with it, after one without, runs the compiler and reports;
#  - the README's links to the rule pages resolve to files inside the package;
#  - a library with warnings as errors whose code holds only the false-positive shapes in false-positive-shapes/
#    builds, with every rule raised to warning (so under the defaults too);
#  - `dotnet format analyzers --diagnostics AC0006 --severity info` on format-shapes/ (async methods that block, next to synchronous
#    code that must stay): every line marked "fix" becomes an await with ConfigureAwait(false), every line marked
#    "keep" is unchanged, nothing else changes, and the result builds with warnings as errors and every rule at warning.
# Usage: verify-package.sh [folder with the .nupkg]
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
             build/AsyncCost.Analyzers.props build/AsyncCost.Analyzers.targets build/AsyncCost.Analyzers.All.globalconfig README.md AnalyzerReleases.Shipped.md AnalyzerReleases.Unshipped.md; do
  grep -qx "$entry" <<<"$contents" || fail "$entry missing from $(basename "$nupkg")"
done
for link in $(unzip -p "$nupkg" README.md | grep -o '](docs/rules/[A-Za-z0-9]*\.md)' | tr -d '()]'); do
  grep -qx "$link" <<<"$contents" || fail "README.md links to $link, which the package does not contain"
done
[[ $(unzip -p "$nupkg" README.md | grep -c '](docs/rules/AC00[0-9][0-9]\.md)') -ge 11 ]] || fail "README.md does not link every rule to its page"
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
project() { # project DIR: a net10.0 library that references the package
  mkdir -p "$1"
  cat > "$1/Consumer.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
    <OutputType>Library</OutputType>
    <PackageLicenseExpression>MIT</PackageLicenseExpression>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="AsyncCost.Analyzers" Version="$version" />
  </ItemGroup>
</Project>
XML
}
consumer="$work/consumer"
project "$consumer"
cat > "$consumer/PriceService.cs" <<'CS'
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
            prices.Add(await GetPriceAsync(symbol).ConfigureAwait(false));                   // not AC0001: through this
        return prices;
    }

    public static async Task<List<string>> ReadAllAsync(string[] paths)
    {
        var texts = new List<string>();
        foreach (var path in paths)
            texts.Add(await File.ReadAllTextAsync(path).ConfigureAwait(false));              // AC0001: independent reads
        return texts;
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

build() { # build DIR [args]: the build output; never fails the script (the checks below do)
  local dir=$1; shift
  dotnet build "$dir/Consumer.csproj" --packages "$work/packages" -nologo -clp:NoSummary --no-incremental "$@" 2>&1 || true
}

# The defaults: AC0006 a warning a plain build prints, the rest suggestions; warnings as errors do not fail the build
# unless the team opts in, and SARIF still has the suggestions.
cat > "$consumer/Blocking.cs" <<'CS'
using System.Threading.Tasks;

namespace Consumer;

public static class Blocking
{
    public static int Read(string path) => System.IO.File.ReadAllTextAsync(path).Result.Length;   // AC0006 (warning): its own async code calls it
    public static async Task<int> ReadLaterAsync(string path) { await Task.Yield(); return Read(path); }
    public static int Size(string path) => System.IO.File.ReadAllBytesAsync(path).Result.Length;  // AC0010 (suggestion): this package's synchronous API
    public static string Page(string url) => Http.GetStringAsync(url).Result;                       // AC0010 (warning): that API blocking on network I/O
    public static int Later(System.Func<Task<int>> start) => start().Result;                        // AC0010 (suggestion): a delegate's task, completion unseen
    private static readonly System.Net.Http.HttpClient Http = new();
}
CS
plain=$(build "$consumer")
grep -q "warning AC0006:" <<<"$plain" || { echo "$plain"; fail "a plain dotnet build does not print AC0006 at the defaults"; }
[[ $(grep -oE "Blocking.cs\([0-9]+,[0-9]+\): warning AC0006" <<<"$plain" | sort -u | wc -l) -eq 1 ]] || { echo "$plain"; fail "the package's synchronous API (Blocking.Size) printed as AC0006, or Read not"; }
[[ $(grep -oE "Blocking.cs\([0-9]+,[0-9]+\): warning AC0010" <<<"$plain" | sort -u | wc -l) -eq 1 ]] || { echo "$plain"; fail "AC0010 is not printed exactly once, for the synchronous API blocking on network I/O (Blocking.Page)"; }
grep -q "pending on network I/O (HttpClient.GetStringAsync)" <<<"$plain" || { echo "$plain"; fail "the AC0010 warning does not name its evidence"; }
defaults=$(build "$consumer" -p:TreatWarningsAsErrors=true "-p:ErrorLog=$work/defaults.sarif%2Cversion=2.1")
grep -q "Build succeeded" <<<"$defaults" || { echo "$defaults"; fail "the defaults fail a warnings-as-errors build"; }
grep -q "warning AC0006:" <<<"$defaults" || { echo "$defaults"; fail "AC0006 not printed as a warning in a warnings-as-errors build"; }
! grep -qE "(warning|error) AC00(0[0-57-9]|1[1-9]):" <<<"$defaults" || { echo "$defaults"; fail "a rule other than AC0006 and AC0010 reported as a warning by default"; }
# TreatWarningsAsErrors set in Directory.Build.targets (imported after the package's build targets) stays green too.
printf '<Project><PropertyGroup><TreatWarningsAsErrors>true</TreatWarningsAsErrors></PropertyGroup></Project>\n' > "$consumer/Directory.Build.targets"
late=$(build "$consumer")
rm "$consumer/Directory.Build.targets"
grep -q "Build succeeded" <<<"$late" && grep -q "warning AC0006:" <<<"$late" \
  || { echo "$late"; fail "TreatWarningsAsErrors from Directory.Build.targets fails the first install (or AC0006 is not printed)"; }
for id in AC0001 AC0002 AC0003 AC0004 AC0010; do
  grep -q "\"ruleId\": \"$id\"" "$work/defaults.sarif" || fail "$id not reported (as a suggestion) by default"
done
optin=$(build "$consumer" -p:TreatWarningsAsErrors=true -p:AsyncCostWarningsAsErrors=true)
grep -q "error AC0006:" <<<"$optin" || { echo "$optin"; fail "AsyncCostWarningsAsErrors=true did not make AC0006 an error"; }
# In a test project the same waits are AC0011, a suggestion: a plain build prints none, SARIF has them.
in_tests=$(build "$consumer" -p:IsTestProject=true "-p:ErrorLog=$work/tests.sarif%2Cversion=2.1")
grep -q "Build succeeded" <<<"$in_tests" && ! grep -qE "(warning|error) AC00[0-9]{2}:" <<<"$in_tests" \
  || { echo "$in_tests"; fail "a test project's build printed an AsyncCost finding at the defaults"; }
grep -q '"ruleId": "AC0011"' "$work/tests.sarif" && ! grep -q '"ruleId": "AC0006"' "$work/tests.sarif" \
  || fail "a test project's waits are not AC0011 (or still AC0006) in SARIF"
rm "$consumer/Blocking.cs"

# A fresh console project, as `dotnet new` makes it, with one .Result on an unfinished task.
fresh="$work/fresh"
dotnet new console -o "$fresh" -n Fresh --framework net10.0 >/dev/null 2>&1 || fail "dotnet new console failed"
dotnet add "$fresh/Fresh.csproj" package AsyncCost.Analyzers --version "$version" --no-restore >/dev/null 2>&1 || fail "dotnet add package failed"
cat > "$fresh/Program.cs" <<'CS'
static async Task<int> CountAsync() { await Task.Delay(10); return 42; }
static int Count() => CountAsync().Result;
Console.WriteLine(Count());
CS
fresh_build() { dotnet build "$fresh/Fresh.csproj" --packages "$work/packages" -nologo -clp:NoSummary --no-incremental "$@" 2>&1 || true; }
fresh_plain=$(fresh_build)
grep -q "warning AC0006:" <<<"$fresh_plain" || { echo "$fresh_plain"; fail "dotnet build of a fresh console project does not print AC0006 for .Result on an unfinished task"; }
fresh_strict=$(fresh_build -p:TreatWarningsAsErrors=true)
grep -q "Build succeeded" <<<"$fresh_strict" && grep -q "warning AC0006:" <<<"$fresh_strict" \
  || { echo "$fresh_strict"; fail "the fresh console project with TreatWarningsAsErrors does not build (or no longer reports)"; }

# The switch: every rule at warning.
library=$(build "$consumer" -p:AsyncCostAnalysisMode=All)
for id in AC0001 AC0002 AC0003 AC0004; do
  grep -q "warning $id:" <<<"$library" || { echo "$library"; fail "$id not reported as a warning with AsyncCostAnalysisMode=All"; }
done
app=$(build "$consumer" -p:AsyncCostAnalysisMode=All -p:OutputType=Exe)
grep -q "warning AC0001:" <<<"$app" || { echo "$app"; fail "the app build reported nothing (analyzer not loaded?)"; }
! grep -q "warning AC0004:" <<<"$app" || { echo "$app"; fail "AC0004 reported in an app: OutputType did not reach the analyzer"; }
internal=$(build "$consumer" -p:AsyncCostAnalysisMode=All -p:IsPackable=false)
grep -q "warning AC0001:" <<<"$internal" && ! grep -q "warning AC0004:" <<<"$internal" \
  || { echo "$internal"; fail "AC0004 reported in a library marked IsPackable=false (or nothing reported at all)"; }
unpublished=$(build "$consumer" -p:AsyncCostAnalysisMode=All -p:PackageLicenseExpression=)
grep -q "warning AC0001:" <<<"$unpublished" && ! grep -q "warning AC0004:" <<<"$unpublished" \
  || { echo "$unpublished"; fail "AC0004 reported in a library that publishes no package (the build targets did not reach the analyzer)"; }
tests=$(build "$consumer" -p:AsyncCostAnalysisMode=All -p:IsTestProject=true)
! grep -qE "warning AC000[13478]:" <<<"$tests" || { echo "$tests"; fail "a rule that is silent in test projects reported: IsTestProject did not reach the analyzer"; }

# The switch on an already-built project: an incremental build must not skip the compiler.
incremental=$(mktemp -d "$work/incremental.XXXX")
project "$incremental"
cp "$consumer/PriceService.cs" "$incremental/"
first=$(dotnet build "$incremental/Consumer.csproj" --packages "$work/packages" -nologo -clp:NoSummary 2>&1 || true)
grep -q "Build succeeded" <<<"$first" || { echo "$first"; fail "the incremental consumer does not build"; }
switched=$(dotnet build "$incremental/Consumer.csproj" --packages "$work/packages" -nologo -clp:NoSummary -p:AsyncCostAnalysisMode=All 2>&1 || true)
grep -q "warning AC0001:" <<<"$switched" || { echo "$switched"; fail "-p:AsyncCostAnalysisMode=All on an already-built project reported nothing (the compiler was skipped)"; }

# A library with only false-positive shapes, warnings as errors, every rule at warning: must build.
shapes="$work/shapes"
project "$shapes"
cp "$repo/analyzers/AsyncCost.Analyzers.Package/false-positive-shapes/"*.cs "$shapes/"
clean=$(build "$shapes" -p:TreatWarningsAsErrors=true -p:AsyncCostAnalysisMode=All)
grep -q "Build succeeded" <<<"$clean" && ! grep -q "AC00" <<<"$clean" \
  || { echo "$clean"; fail "the false-positive shapes do not build clean with the package"; }

# dotnet format applies the AC0006 fix across a project (Fix All), skipping what it must not touch: a project that
# treats warnings as errors, run as the package README says (issue 46: the package's WarningsNotAsErrors list hid the
# IDs from dotnet format, "Formatted 0 of N files", with one target framework or several alike).
formatted="$work/format"
project "$formatted"
sed -i 's#<OutputType>Library</OutputType>#<OutputType>Library</OutputType><AsyncCostAnalysisMode>All</AsyncCostAnalysisMode><TreatWarningsAsErrors>true</TreatWarningsAsErrors>#' "$formatted/Consumer.csproj"
shapes_file="$repo/analyzers/AsyncCost.Analyzers.Package/format-shapes/BlockingCalls.cs"
cp "$shapes_file" "$formatted/"
dotnet restore "$formatted/Consumer.csproj" --packages "$work/packages" -nologo >/dev/null 2>&1 || fail "restore of the dotnet format project failed"
format_log=$(AsyncCostWarningsAsErrors=true dotnet format analyzers "$formatted/Consumer.csproj" --diagnostics AC0006 --severity info --no-restore 2>&1) \
  || { echo "$format_log"; fail "dotnet format analyzers --diagnostics AC0006 failed"; }
after="$formatted/BlockingCalls.cs"
[[ "$(grep -F '// keep' "$shapes_file")" == "$(grep -F '// keep' "$after")" ]] \
  || { diff "$shapes_file" "$after" || true; fail "dotnet format changed a line marked keep"; }
[[ "$(grep -vF '// fix' "$shapes_file")" == "$(grep -vF '// fix' "$after")" ]] \
  || { diff "$shapes_file" "$after" || true; fail "dotnet format changed a line that is not marked fix"; }
fixed=$(grep -F '// fix' "$after")
[[ $(grep -c 'await .*ConfigureAwait(false)' <<<"$fixed") -eq $(grep -c '// fix' "$shapes_file") ]] && ! grep -qE '\.Result|\.Wait\(|GetResult\(|WaitAll' <<<"$fixed" \
  || { diff "$shapes_file" "$after" || true; fail "dotnet format left a blocking call marked fix, or wrote an await without ConfigureAwait(false)"; }
rebuilt=$(build "$formatted" --no-restore -p:TreatWarningsAsErrors=true)
grep -q "Build succeeded" <<<"$rebuilt" && ! grep -q "AC00" <<<"$rebuilt" \
  || { echo "$rebuilt"; fail "the code dotnet format fixed does not build clean with the package"; }

echo "verify-package: $(basename "$nupkg") restores from a local folder; with AsyncCostAnalysisMode=All, dotnet build reports:"
grep -oE "warning AC00[0-9]{2}: [^[]*" <<<"$library" | sort -u | cut -c1-140 | sed 's/^/  /'
echo "verify-package: by default AC0006 is a warning a plain build prints and the rest are suggestions (SARIF notes), a package's synchronous API its own async code does not reach among them (AC0010); warnings as errors still build unless AsyncCostWarningsAsErrors=true; as an app or an unpublished library AC0004 stays quiet; as a test project AC0001/3/4/7/8 do, and its waits are AC0011 suggestions;"
echo "verify-package: a fresh dotnet new console project prints:"
grep -oE "warning AC0006: [^[]*" <<<"$fresh_plain" | sort -u | cut -c1-140 | sed 's/^/  /'
echo "verify-package: and builds with TreatWarningsAsErrors."
echo "verify-package: $(ls "$shapes"/*.cs | wc -l) files of false-positive shapes build with warnings as errors and every rule at warning."
echo "verify-package: dotnet format analyzers --diagnostics AC0006 rewrote $(grep -c '// fix' "$shapes_file") blocking calls into configured awaits, left the $(grep -c '// keep' "$shapes_file") lines of synchronous and completed-task code alone, and the result builds warning-free."
