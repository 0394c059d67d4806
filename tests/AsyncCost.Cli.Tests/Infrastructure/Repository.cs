using System.Reflection;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>Paths of the build outputs the tests run: the tool and the ground-truth workload, in this test run's configuration.</summary>
internal static class Repository
{
    public static readonly string Root = FindRoot();

    private static readonly string Configuration =
        typeof(Repository).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Debug";

    public static string ToolDll => Output("src/AsyncCost.Cli", "dotnet-asynccost.dll");

    public static string WorkloadDll => Output("tests/AsyncCost.Workload", "AsyncCost.Workload.dll");

    /// <summary>A file of the recorded fixtures (tests/AsyncCost.Cli.Tests/Recorded, written by its record.sh).</summary>
    public static string Recorded(string file) => Path.Combine(Root, "tests", "AsyncCost.Cli.Tests", "Recorded", file);

    /// <summary>The two traces of one recorded `collect` run: &lt;name&gt;.allocations.nettrace and &lt;name&gt;.hops.nettrace.</summary>
    public static string[] RecordedTraces(string name) => [Recorded(name + ".allocations.nettrace"), Recorded(name + ".hops.nettrace")];

    private static string Output(string project, string file)
    {
        var path = Path.Combine(Root, project, "bin", Configuration, "net10.0", file);
        return File.Exists(path) ? path : throw new FileNotFoundException($"Build {project} ({Configuration}) first: {path} is missing.", path);
    }

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "AsyncCost.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("AsyncCost.sln not found above " + AppContext.BaseDirectory);
    }
}
