using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>
/// Faults the attached process must survive (benchmarks/faults.sh runs them at length on the web sample): the tool killed
/// mid-pass, two tools at once. A process that exits mid-recording is CollectAttachTests'; a tool beside dotnet-trace or
/// dotnet-counters is OverlappingSessionTests'.
/// </summary>
public sealed class FaultTests
{
    [Fact]
    public async Task A_tool_killed_mid_pass_leaves_the_process_running_and_the_next_attach_reports_normally()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        try
        {
            using (var killed = ChildProcess.StartTool("collect", "-p", workload.IdText))
            {
                await killed.WaitForLineAsync(l => l.StartsWith("Recording pass 1/2", StringComparison.Ordinal));
                await Task.Delay(500);
                killed.Signal("KILL");
                Assert.Equal(137, (await killed.WaitForExitAsync()).ExitCode);
            }

            var next = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText, "--passes", "allocations", "--duration", "2s", "--format", "json");

            Assert.False(workload.HasExited, "the workload ended after the tool was killed");
            Assert.True(next.ExitCode == 0, next.ToString());
            var report = AsyncCostReportJson.Deserialize(next.StandardOutput);
            Assert.Equal(StopReason.DurationElapsed, report.StopReason);
            Assert.False(report.CutShort);
            ReportAssertions.YieldRow(report);
        }
        finally
        {
            await workload.StopLoopAsync();
        }
    }

    [Fact]
    public async Task Two_tools_attached_at_once_each_get_their_report()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        try
        {
            string[] collect = ["collect", "-p", workload.IdText, "--passes", "allocations", "--duration", "3s", "--format", "json"];

            var both = await Task.WhenAll(ChildProcess.RunToolAsync(collect), ChildProcess.RunToolAsync(collect));

            Assert.All(both, result =>
            {
                Assert.True(result.ExitCode == 0, result.ToString());
                ReportAssertions.YieldRow(AsyncCostReportJson.Deserialize(result.StandardOutput));
                Assert.DoesNotContain("dotnet-asynccost:", result.StandardError, StringComparison.Ordinal);
            });
        }
        finally
        {
            await workload.StopLoopAsync();
        }
    }
}
