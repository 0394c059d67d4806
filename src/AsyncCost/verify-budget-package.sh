#!/usr/bin/env bash
# Consumes the packed AsyncCost.<version>.nupkg the way a user would: a throwaway xunit project outside the repository
# restores it from a local folder (beside the machine's own package sources, for xunit and the package's dependencies)
# and asserts an async-cost budget with AsyncCost.Testing. Checked:
#  - a ValueTask<decimal> method that completes synchronously passes a budget of 0 B per call (in Release: a Debug build
#    makes every async method allocate its state machine, ~88 B here);
#  - the same method changed to allocate a Task<decimal> per call fails, with the message naming the method, the bytes
#    per operation with their bound, and the budget.
# Usage: verify-budget-package.sh [folder with the .nupkg]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
feed="$(cd "${1:-$repo/artifacts}" && pwd)"
nupkg=$(ls "$feed"/AsyncCost.[0-9]*.nupkg 2>/dev/null | head -1 || true)
[[ -n "$nupkg" ]] || { echo "verify-budget-package: no AsyncCost.<version>.nupkg in $feed (run dotnet pack first)" >&2; exit 2; }
version=$(basename "$nupkg" .nupkg); version=${version#AsyncCost.}
fail() { echo "verify-budget-package: FAIL: $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/nuget.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources><add key="asynccost-local" value="$feed" /></packageSources>
</configuration>
XML
cat > "$work/Budget.Tests.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
    <ImplicitUsings>enable</ImplicitUsings>
    <IsTestProject>true</IsTestProject>
    <RestorePackagesPath>$work/packages</RestorePackagesPath>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="AsyncCost" Version="$version" />
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="18.11.0" />
    <PackageReference Include="xunit" Version="2.9.3" />
    <PackageReference Include="xunit.runner.visualstudio" Version="3.1.5" />
  </ItemGroup>
</Project>
XML
cat > "$work/PriceService.cs" <<'CS'
namespace Consumer;

public sealed class PriceService
{
    private readonly Dictionary<string, decimal> _prices = new() { ["MSFT"] = 421.17m };

    public async ValueTask<decimal> GetPriceAsync(string symbol)
    {
        if (!_prices.TryGetValue(symbol, out var price))
        {
            await Task.Delay(10);
        }
        return price;
    }
}
CS
cat > "$work/PriceBudgetTests.cs" <<'CS'
using AsyncCost.Testing;
using Xunit;

namespace Consumer;

public class PriceBudgetTests
{
    [Fact]
    public async Task A_cached_price_allocates_nothing()
    {
        var prices = new PriceService();
        var cost = await AsyncCostMeasurement.MeasureAsync(() => prices.GetPriceAsync("MSFT"));
        cost.AssertWithin("Consumer.PriceService.GetPriceAsync", new MethodBudget { BytesPerOperation = 0, HopsPerOperation = 0 });
    }
}
CS
cd "$work"
dotnet test -c Release > "$work/pass.log" 2>&1 || { cat "$work/pass.log" >&2; fail "the budget test of the ValueTask method failed"; }
grep -E 'Passed!' "$work/pass.log"

# The regression: a Task<decimal> per call (80 B on .NET 10 x64).
sed -i 's/public async ValueTask<decimal> GetPriceAsync/public async Task<decimal> GetPriceAsync/' PriceService.cs
dotnet test -c Release --logger 'console;verbosity=normal' > "$work/fail.log" 2>&1 && { cat "$work/fail.log" >&2; fail "the budget test passed for a method that allocates a Task<decimal> per call"; }
message=$(grep -m1 -oE 'AsyncCost budget exceeded: Consumer\.PriceService\.GetPriceAsync allocates [0-9.]+ B per operation \(estimate ±[0-9.]+ at 95 %, [0-9,]+ samples over [0-9,]+ operations\), over its budget of 0 B\.' "$work/fail.log") \
  || { cat "$work/fail.log" >&2; fail "the failing budget test did not say which method allocated how much against which budget"; }
echo "$message"
echo "verify-budget-package: OK (AsyncCost $version)"
