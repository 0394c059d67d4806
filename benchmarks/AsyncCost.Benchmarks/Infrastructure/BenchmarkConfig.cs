using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Jobs;
using Perfolizer.Horology;

namespace AsyncCost.Benchmarks.Infrastructure;

/// <summary>
/// The configuration every suite runs with: the exporters the `report` command reads (full JSON), the ones people read
/// (GitHub markdown, CSV), the categories column, and the diagnoser that turns the suites' own measurements
/// (switch counts, perf counters, RSS, thread-pool work items) into BenchmarkDotNet metrics.
/// </summary>
public static class BenchmarkConfig
{
    /// <summary>The category every suite reproducing a seed carries (beside its own), so the full run can select them:
    /// <c>--anyCategories seeds</c>.</summary>
    public const string SeedsCategory = "seeds";

    /// <summary>
    /// The job of the documented full run (see <see cref="FullRunJobAttribute"/>): a few warm-up and measured
    /// iterations per case instead of BenchmarkDotNet's adaptive defaults, so all suites fit in ~25 minutes on 2 cores.
    /// Suites whose cases are long (1 s invocations, thousands of threads, cold starts) declare their own job.
    /// </summary>
    public static readonly Job FullRun = Job.Default
        .WithLaunchCount(1)
        .WithWarmupCount(3)
        .WithIterationCount(10)
        .WithIterationTime(TimeInterval.FromMilliseconds(150))
        .WithId("FullRun");

    /// <summary>
    /// The configuration; with <paramref name="dry"/> every job, including the ones suites declare, takes
    /// BenchmarkDotNet's Dry characteristics (one launch, one iteration, one invocation) and <see cref="DryRunVariable"/>,
    /// so the smoke job stays short. <paramref name="environment"/> is set in every benchmark process.
    /// </summary>
    public static IConfig Create(bool dry, params EnvironmentVariable[] environment)
    {
        var config = DefaultConfig.Instance
            .AddExporter(JsonExporter.Full, CsvExporter.Default, MarkdownExporter.GitHub)
            .AddColumn(CategoriesColumn.Default)
            .AddDiagnoser(new ReportedMetricsDiagnoser());
        if (dry)
            environment = [.. environment, new EnvironmentVariable(DryRunVariable, "1")];
        if (!dry && environment.Length == 0)
            return config;
        // One mutator: two would each replace the jobs' whole list of environment variables.
        var mutator = (dry ? Job.Dry : new Job("Environment")).WithEnvironmentVariables(environment).AsMutator();
        return config.AddJob(mutator);
    }

    /// <summary>Set in the benchmark processes of the dry job, so suites bound their expensive cases (see <see cref="IsDryRun"/>).</summary>
    public const string DryRunVariable = "ASYNCCOST_BENCHMARK_DRY";

    /// <summary>True inside a benchmark process of the dry job: expensive cases (thousands of threads) run a bounded
    /// size there, so the smoke job proves they work without paying for them.</summary>
    public static bool IsDryRun => Environment.GetEnvironmentVariable(DryRunVariable) == "1";

    /// <summary>
    /// Takes BenchmarkDotNet's own `--job Dry` out of <paramref name="args"/>: passed through, it would add a Dry job
    /// beside each suite's declared jobs instead of replacing them.
    /// </summary>
    public static bool TakeDryJob(ref string[] args)
    {
        for (var i = 0; i + 1 < args.Length; i++)
        {
            if (args[i] is "--job" or "-j" && string.Equals(args[i + 1], "dry", StringComparison.OrdinalIgnoreCase))
            {
                args = [.. args[..i], .. args[(i + 2)..]];
                return true;
            }
        }
        return false;
    }
}
