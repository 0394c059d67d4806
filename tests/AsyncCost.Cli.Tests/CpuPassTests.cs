using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>`collect --passes cpu` on a launched workload, `report` on the trace it kept, and where the cpu pass is refused.</summary>
[Collection(LaunchedWorkloadGroup.Name)]
public sealed class CpuPassTests
{
    private const string CalleeKey = "AsyncCost.Workload.PriceService.GetPriceValueTaskAsync";

    [Fact]
    public async Task Collect_with_the_cpu_pass_times_a_method_no_other_pass_sees_and_report_reads_its_trace_alike()
    {
        using var directory = new TemporaryDirectory("asynccost-cpu-");
        var output = directory.File("run");

        var collected = await ChildProcess.RunToolAsync("collect", "--passes", "cpu", "-o", output, "--", "dotnet", Repository.WorkloadDll, "valuetask-sync", "5000000");

        Assert.True(collected.ExitCode == 0, collected.ToString());
        Assert.Contains("(cpu pass)", collected.StandardError, StringComparison.Ordinal);
        var live = AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(output + ".json"));
        Assert.Equal([MeasurementPasses.Cpu], live.Passes.Select(p => p.Pass));
        var callee = Assert.Single(live.Methods, m => m.MethodKey == CalleeKey);
        Assert.True(callee.CpuMilliseconds is { Sampled: true, Value: > 0, Source: FigureSource.CpuPass }, $"{callee.CpuMilliseconds}");
        Assert.Null(callee.Calls); // it ran, but completes synchronously without allocating: no pass counts its calls
        var text = await File.ReadAllTextAsync(output + ".txt");
        Assert.Contains("Time in async methods (cpu pass)", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Async methods, most costly first", text, StringComparison.Ordinal);

        var reported = await ChildProcess.RunToolAsync("report", output + ".nettrace", "--format", "json");

        Assert.True(reported.ExitCode == 0, reported.ToString());
        var offline = AsyncCostReportJson.Deserialize(reported.StandardOutput);
        Assert.Equal(callee.CpuMilliseconds!.Samples, Assert.Single(offline.Methods, m => m.MethodKey == CalleeKey).CpuMilliseconds!.Samples);
    }

    [Fact]
    public async Task Monitor_refuses_the_cpu_pass_and_says_where_to_use_it()
    {
        var result = await ChildProcess.RunToolAsync("monitor", "-p", "1", "--passes", "cpu");

        Assert.Equal(2, result.ExitCode);
        Assert.Contains("collect --passes cpu", result.StandardError, StringComparison.Ordinal);
    }
}
