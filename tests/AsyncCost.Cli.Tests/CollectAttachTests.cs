using AsyncCost.Cli.Tests.Infrastructure;
using System.Text.RegularExpressions;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>`collect -p` against a running workload, and the ways a recording stops.</summary>
public sealed class CollectAttachTests
{
    [Fact]
    public async Task Collect_by_pid_reports_the_workloads_known_costs()
    {
        using var workload = ChildProcess.StartWorkload(null, "yield", "100000", "--loop");
        await workload.WaitForLineAsync(l => l.StartsWith("RESULT", StringComparison.Ordinal));

        var result = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText, "--duration", "00:00:04", "--format", "json");

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
        Assert.Equal(StopReason.DurationElapsed, report.StopReason);
        // Attached, the hop pass records in windows that start and stop inside calls, and hops/call is an estimate over
        // them: the assertion takes the report's own bound. Launch tests, recorded continuously, keep 2 %.
        ReportAssertions.MatchesYieldTruth(report, WorkloadResult.ParseAll((await workload.StopLoopAsync()).StandardOutput)[0].BytesPerOp, hopTolerance: 0.05);
    }

    [Theory]
    [InlineData("enter")]
    [InlineData("INT")]
    [InlineData("TERM")]
    public async Task Enter_ctrl_c_and_sigterm_stop_cleanly_and_still_report(string how)
    {
        using var workload = ChildProcess.StartWorkload(null, "yield", "100000", "--loop");
        await workload.WaitForLineAsync(l => l.StartsWith("RESULT", StringComparison.Ordinal));
        using var tool = ChildProcess.StartTool("collect", "-p", workload.IdText, "--passes", "allocations", "--format", "json");
        await tool.WaitForLineAsync(l => l.StartsWith("Recording pass 1/1 (allocations)", StringComparison.Ordinal));

        if (how == "enter")
        {
            tool.SendLine("");
        }
        else
        {
            tool.Signal(how);
        }

        var result = await tool.WaitForExitAsync();
        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
        Assert.Equal(StopReason.Canceled, report.StopReason);
        ReportAssertions.MatchesYieldTruth(report, WorkloadResult.ParseAll((await workload.StopLoopAsync()).StandardOutput)[0].BytesPerOp, expectHops: false);
    }

    [Fact]
    public async Task Attached_process_that_exits_mid_session_gives_exit_code_19_and_the_partial_report()
    {
        using var workload = ChildProcess.StartWorkload(null, "yield", "300000", "--wait");
        await workload.WaitForLineAsync(l => l.StartsWith("READY", StringComparison.Ordinal));
        using var tool = ChildProcess.StartTool("collect", "-p", workload.IdText, "--passes", "allocations");
        await tool.WaitForLineAsync(l => l.StartsWith("Recording pass 1/1", StringComparison.Ordinal));

        workload.SendLine("go");
        var result = await tool.WaitForExitAsync();

        Expect.OneLineError(result, 19, $"Process {workload.Id} exited during collection");
        Assert.Contains("YieldOnceAsync", result.StandardOutput, StringComparison.Ordinal);
        // Marked cut short (the line wraps at 80 columns: read its words).
        Assert.Contains("stopped: process exited (cut short: figures cover only what was gathered)",
            Regex.Replace(result.StandardOutput, @"\s+", " "), StringComparison.Ordinal);
    }
}

/// <summary>`collect --hop-duty`: the windowed hop pass from the command line.</summary>
public sealed class WindowedHopPassTests
{
    [Fact]
    public async Task A_hop_duty_below_one_records_windows_and_still_gives_one_hop_per_yield()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        using var directory = new TemporaryDirectory("asynccost-windows-");
        var output = directory.File("run");

        var result = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText, "--passes", "hops", "--hop-duty", "0.25", "--duration", "00:00:08", "--format", "json", "-o", output);

        await workload.StopLoopAsync();
        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(output + ".json"));
        Assert.Contains(report.Warnings, w => w.Code == "hop-windows");
        var row = ReportAssertions.YieldRow(report);
        Assert.True(row.Hops!.Sampled, "windowed hop counts are scaled estimates");
        // Attached mid-run, window edges cut calls from their hops (benchmarks/results/HopKeywords.md): within 10 %.
        Assert.InRange(row.HopsPerCall?.Value ?? 0, 0.9, 1.1);
        // The pass's work items are the whole pass's (counters across it), not the windows' own: one per yield, like the hops.
        Assert.InRange(report.Totals.CompletedWorkItems!.Value, report.Totals.Hops!.Value * 0.9, report.Totals.Hops.Value * 1.1);

        // The traces read again: with the counters session's trace the windows scale as collect scaled them; without it,
        // their counts are the windows' own, and it is said.
        var traces = Directory.GetFiles(directory.Path, "*.nettrace");
        var counters = Assert.Single(traces, t => t.EndsWith(".hops.counters.nettrace", StringComparison.Ordinal));
        var windows = traces.Where(t => t != counters).ToArray();
        Assert.True(windows.Length >= 2, string.Join(", ", windows) + ": " + string.Join(" ", report.Warnings.Select(w => w.Message)));

        var scaled = await ChildProcess.RunToolAsync(["report", .. traces, "--format", "json"]);
        Assert.True(scaled.ExitCode == 0, scaled.ToString());
        var offline = AsyncCostReportJson.Deserialize(scaled.StandardOutput);
        Assert.Contains(offline.Warnings, w => w.Code == "hop-windows");
        Assert.DoesNotContain(offline.Warnings, w => w.Code == "hop-windows-unscaled");
        var offlineRow = ReportAssertions.YieldRow(offline);
        Assert.True(offlineRow.Hops!.Sampled);
        Assert.InRange(offlineRow.Hops.Value, row.Hops.Value * 0.8, row.Hops.Value * 1.25); // the same windows, the pass's time read from its counters trace

        var unscaled = await ChildProcess.RunToolAsync(["report", .. windows, "--format", "json"]);
        Assert.True(unscaled.ExitCode == 0, unscaled.ToString());
        Assert.Contains(AsyncCostReportJson.Deserialize(unscaled.StandardOutput).Warnings, w => w.Code == "hop-windows-unscaled");
    }
}
