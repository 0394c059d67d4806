using AsyncCost.Report;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>
/// One `collect -o &lt;dir&gt;/run --format json -- dotnet AsyncCost.Workload.dll yield N` run, shared by the tests that read
/// its output, report and kept traces (so the expensive launch happens once per test run).
/// </summary>
public sealed class LaunchedWorkloadRun : IAsyncLifetime
{
    public const int Calls = 400_000;

    private readonly string _directory = Directory.CreateTempSubdirectory("asynccost-cli-").FullName;

    internal ProcessResult Result { get; private set; } = null!;

    internal AsyncCostReport Report { get; private set; } = null!;

    internal string ReportJson { get; private set; } = "";

    internal IReadOnlyList<WorkloadResult> WorkloadResults { get; private set; } = [];

    internal string BasePath => Path.Combine(_directory, "run");

    internal IReadOnlyList<string> Traces => [BasePath + ".allocations.nettrace", BasePath + ".hops.nettrace"];

    public async Task InitializeAsync()
    {
        Result = await ChildProcess.RunToolAsync("collect", "-o", BasePath, "--format", "json", "--", "dotnet", Repository.WorkloadDll, "yield", Calls.ToString(System.Globalization.CultureInfo.InvariantCulture));
        // The launched command's output goes to the tool's stderr: stdout is the report alone.
        WorkloadResults = WorkloadResult.ParseAll(Result.StandardError);
        if (File.Exists(BasePath + ".json"))
        {
            ReportJson = await File.ReadAllTextAsync(BasePath + ".json");
            Report = AsyncCostReportJson.Deserialize(ReportJson);
        }
    }

    public Task DisposeAsync()
    {
        Directory.Delete(_directory, recursive: true);
        return Task.CompletedTask;
    }
}

[CollectionDefinition(Name)]
public sealed class LaunchedWorkloadGroup : ICollectionFixture<LaunchedWorkloadRun>
{
    public const string Name = "launched workload";
}
