using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>Another session on the same process (here a real dotnet-trace with TPL events on) changes what the process
/// allocates; the allocation pass must say so rather than report the TPL observer effect as the app's own cost.</summary>
public sealed class OverlappingSessionTests
{
    [Fact]
    public async Task An_allocation_pass_overlapping_another_sessions_TPL_events_is_flagged()
    {
        await DotNetTrace.EnsureRestoredAsync();
        using var workload = await ChildProcess.StartYieldLoopAsync();
        var trace = Path.Combine(Path.GetTempPath(), $"asynccost-other-{Guid.NewGuid():N}.nettrace");
        // dotnet-trace with TPL events on, for longer than our pass; its session starts before it names its output file.
        var other = DotNetTrace.RunAsync(["collect", "-p", workload.IdText, "--providers", "System.Threading.Tasks.TplEventSource:0x4B:5",
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
    public async Task An_allocation_pass_alone_is_not_flagged()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();

        var result = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText, "--passes", "allocations", "--duration", "00:00:03", "--format", "json");

        await workload.StopLoopAsync();
        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.DoesNotContain(AsyncCostReportJson.Deserialize(result.StandardOutput).Warnings, w => w.Code == "tpl-enabled-elsewhere");
    }
}
