using System.Diagnostics;

namespace AsyncCost.Analyzers.Tests;

/// <summary>
/// The package's build targets decide <c>AsyncCostPublishesPackage</c> (AC0004's "library") by MSBuild evaluation of a
/// real SDK project: what only a published package needs counts; what IDE property pages write for any project, and the
/// SDK's own IsPackable default, do not.
/// </summary>
public class PublishesPackageTargetsTests
{
    [Theory]
    [InlineData("", "false")] // a bare class library: the SDK defaults IsPackable to true later, which must not count
    [InlineData("<PackageId>Shop.Core</PackageId><Version>2.1.0</Version><Authors>Shop</Authors><Description>Core</Description><RepositoryUrl>https://example.invalid/shop</RepositoryUrl><PackageProjectUrl>https://example.invalid</PackageProjectUrl>", "false")]
    [InlineData("<IsPackable>true</IsPackable>", "true")]
    [InlineData("<GeneratePackageOnBuild>true</GeneratePackageOnBuild>", "true")]
    [InlineData("<PackageLicenseExpression>MIT</PackageLicenseExpression>", "true")]
    [InlineData("<PackageReadmeFile>README.md</PackageReadmeFile>", "true")]
    [InlineData("<PackageTags>mqtt</PackageTags>", "true")]
    [InlineData("<IsPackable>false</IsPackable><PackageLicenseExpression>MIT</PackageLicenseExpression>", "false")]
    [InlineData("<AsyncCostPublishesPackage>true</AsyncCostPublishesPackage>", "true")]
    public async Task Decides_from_what_only_a_published_package_needs(string properties, string expected)
    {
        var directory = Directory.CreateTempSubdirectory("asynccost-publishes-");
        try
        {
            var targets = Path.Combine(CatalogTests.RepositoryRoot(), "analyzers", "AsyncCost.Analyzers.Package", "build", "AsyncCost.Analyzers.targets");
            var project = Path.Combine(directory.FullName, "Library.csproj");
            // Imported after the project's own properties and before the SDK's targets, where NuGet imports a package's
            // build targets (the project extensions import at the top of Microsoft.Common.targets).
            await File.WriteAllTextAsync(project, $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup><TargetFramework>net10.0</TargetFramework>{properties}</PropertyGroup>
                  <Import Project="{targets}" />
                </Project>
                """);
            Assert.Equal(expected, await EvaluateAsync(project, "AsyncCostPublishesPackage"));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    private static async Task<string> EvaluateAsync(string project, string property)
    {
        var start = new ProcessStartInfo("dotnet", ["msbuild", project, "-nologo", "-getProperty:" + property])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetDirectoryName(project)!,
        };
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        Assert.True(process.ExitCode == 0, $"dotnet msbuild exited {process.ExitCode}: {await output}{await error}");
        return (await output).Trim();
    }
}
