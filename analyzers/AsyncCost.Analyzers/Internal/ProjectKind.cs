using System;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// What kind of project a compilation builds, from the MSBuild properties the package's build props make
/// compiler-visible (<c>OutputType</c>, <c>IsTestProject</c>, <c>AsyncCostPublishesPackage</c>), falling back to the compilation itself when a
/// project consumes the analyzer without those props.
/// </summary>
internal static class ProjectKind
{
    // Test frameworks whose projects may lack IsTestProject (hand-made or older SDK test projects).
    private static readonly string[] TestFrameworkAssemblies =
    [
        "xunit.core", "xunit.v3.core", "nunit.framework", "Microsoft.VisualStudio.TestPlatform.TestFramework", "TUnit.Core",
    ];

    /// <summary>A class library (not an app, not a test project).</summary>
    public static bool IsLibrary(Compilation compilation, AnalyzerOptions options) =>
        IsLibraryOutput(compilation, options) && !IsTestProject(compilation, options);

    /// <summary>
    /// Whether the project publishes a package: <c>AsyncCostPublishesPackage</c>, which the package's build targets set
    /// from what only a published package needs (an explicit <c>IsPackable</c>, a license, readme, tags…); where a
    /// project consumes the analyzer without those targets, anything but <c>IsPackable=false</c>.
    /// </summary>
    public static bool PublishesPackage(AnalyzerOptions options) =>
        RuleOptions.BuildProperty(options, "AsyncCostPublishesPackage") is { } publishes
            ? publishes.Equals("true", StringComparison.OrdinalIgnoreCase)
            : RuleOptions.BuildProperty(options, "IsPackable")?.Equals("false", StringComparison.OrdinalIgnoreCase) != true;

    private static bool IsLibraryOutput(Compilation compilation, AnalyzerOptions options) =>
        RuleOptions.BuildProperty(options, "OutputType") is { } outputType
            ? outputType.Equals("Library", StringComparison.OrdinalIgnoreCase) || outputType.Equals("Module", StringComparison.OrdinalIgnoreCase)
            : compilation.Options.OutputKind is OutputKind.DynamicallyLinkedLibrary or OutputKind.NetModule;

    /// <summary>A test project: <c>IsTestProject</c> set by the test SDK, or a reference to a test framework.</summary>
    public static bool IsTestProject(Compilation compilation, AnalyzerOptions options)
    {
        if (RuleOptions.BuildProperty(options, "IsTestProject") is { } isTest)
        {
            return isTest.Equals("true", StringComparison.OrdinalIgnoreCase);
        }
        foreach (var reference in compilation.ReferencedAssemblyNames)
        {
            if (Array.IndexOf(TestFrameworkAssemblies, reference.Name) >= 0)
            {
                return true;
            }
        }
        return false;
    }
}
