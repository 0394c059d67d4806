using System.Reflection;

namespace AsyncCost.Samples.Tests;

/// <summary>Where the repository and the built samples are.</summary>
internal static class Repository
{
    public static string Root { get; } = FindRoot();

    /// <summary>The configuration this test assembly was built in; the samples are built in the same one.</summary>
    public static string Configuration { get; } = typeof(Repository).Assembly
        .GetCustomAttributes<AssemblyMetadataAttribute>()
        .Single(attribute => attribute.Key == "Configuration").Value!;

    public static string SampleSolution => Path.Combine(Root, "samples", "Samples.sln");

    /// <summary>The built entry assembly of a sample app, e.g. "ChattyPipeline.Fixed".</summary>
    public static string SampleAssembly(string sample) =>
        Path.Combine(Root, "samples", sample, "bin", Configuration, "net10.0", sample + ".dll");

    /// <summary>dotnet-asynccost, built in the same configuration.</summary>
    public static string ToolDll => Path.Combine(Root, "src", "AsyncCost.Cli", "bin", Configuration, "net10.0", "dotnet-asynccost.dll");

    /// <summary>The BenchmarkDotNet suites (benchmarks/AsyncCost.Benchmarks), built in the same configuration.</summary>
    public static string BenchmarksDll => Path.Combine(Root, "benchmarks", "AsyncCost.Benchmarks", "bin", Configuration, "net10.0", "AsyncCost.Benchmarks.dll");

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "AsyncCost.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No AsyncCost.sln above {AppContext.BaseDirectory}.");
    }
}
