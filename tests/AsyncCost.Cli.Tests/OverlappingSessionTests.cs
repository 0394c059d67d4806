using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>Another tool's session on the same process: a real dotnet-trace with TPL events on changes what the process
/// allocates, and the allocation pass must say so rather than report the TPL observer effect as the app's own cost; a real
/// dotnet-counters beside a whole collect leaves both tools their results.</summary>
public sealed class OverlappingSessionTests
{
    [Fact]
    public async Task An_allocation_pass_overlapping_another_sessions_TPL_events_is_flagged()
    {
        await LocalTools.EnsureRestoredAsync();
        using var workload = await ChildProcess.StartYieldLoopAsync();
        var trace = Path.Combine(Path.GetTempPath(), $"asynccost-other-{Guid.NewGuid():N}.nettrace");
        // dotnet-trace with TPL events on, for longer than our pass; its session starts before it names its output file.
        var other = LocalTools.RunAsync("dotnet-trace", ["collect", "-p", workload.IdText, "--providers", "System.Threading.Tasks.TplEventSource:0x4B:5",
            "--duration", "00:00:00:08", "-o", trace]);
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(2));

            var result = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText, "--passes", "allocations", "--duration", "00:00:03", "--format", "json");

            Assert.True(result.ExitCode == 0, result.ToString());
            var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
            Assert.Contains(report.Warnings, w => w.Code == "tpl-enabled-elsewhere");
        }
        finally
        {
            await workload.StopLoopAsync();
            await other;
            File.Delete(trace);
        }
    }

    [Fact]
    public async Task A_collect_beside_dotnet_counters_gets_its_report_and_dotnet_counters_its_readings()
    {
        await LocalTools.EnsureRestoredAsync();
        using var workload = await ChildProcess.StartYieldLoopAsync();
        using var directory = new TemporaryDirectory("asynccost-dotnet-counters-");
        var readings = directory.File("counters.csv");
        // dotnet-counters' default (the System.Runtime meter), for longer than both our passes (allocations, then hops,
        // which reads the runtime's System.Runtime event counters itself).
        var other = LocalTools.RunAsync("dotnet-counters", ["collect", "-p", workload.IdText, "--duration", "00:00:00:12", "-o", readings]);
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(2));

            var result = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText, "--duration", "3s", "--format", "json");

            Assert.True(result.ExitCode == 0, result.ToString());
            ReportAssertions.YieldRow(AsyncCostReportJson.Deserialize(result.StandardOutput));
            Assert.DoesNotContain("dotnet-asynccost:", result.StandardError, StringComparison.Ordinal);
            var counters = await other;
            Assert.True(counters.ExitCode == 0, counters.ToString());
            Assert.Contains(File.ReadLines(readings).Skip(1), line => line.Contains(",System.Runtime,", StringComparison.Ordinal));
        }
        finally
        {
            await workload.StopLoopAsync();
            await other;
        }
    }

    [Fact]
    public async Task An_allocation_pass_alone_is_not_flagged()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();

        var result = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText, "--passes", "allocations", "--duration", "00:00:03", "--format", "json");

        await workload.StopLoopAsync();
        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.DoesNotContain(AsyncCostReportJson.Deserialize(result.StandardOutput).Warnings, w => w.Code == "tpl-enabled-elsewhere");
    }
}
