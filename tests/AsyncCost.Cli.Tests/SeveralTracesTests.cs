using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>`report` given several traces: the slices of one pass add up, a file named twice counts once, a damaged one does not hide the rest.</summary>
public sealed class SeveralTracesTests
{
    private static readonly string RecordedDirectory = Path.Combine(Repository.Root, "tests", "AsyncCost.Cli.Tests", "Recorded");
    private static readonly string AllocationTrace = Path.Combine(RecordedDirectory, "chatty.allocations.nettrace");
    private static readonly string HopTrace = Path.Combine(RecordedDirectory, "chatty.hops.nettrace");

    [Fact]
    public async Task Report_of_an_unbounded_attachs_slices_equals_the_report_collect_printed()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        using var directory = new TemporaryDirectory("asynccost-slices-");
        try
        {
            var basePath = directory.File("run");
            var collecting = System.Diagnostics.Stopwatch.StartNew();
            using var tool = ChildProcess.StartTool("collect", "-p", workload.IdText, "-o", basePath, "--format", "json");
            // Without --duration the passes alternate in slices; once the second hop slice has begun, both passes have two.
            var secondHopSlice = basePath + ".hops.2.nettrace";
            while (!File.Exists(secondHopSlice))
            {
                Assert.False(tool.HasExited, "collect ended before its fourth slice");
                await Task.Delay(200);
            }
            await Task.Delay(1000);
            tool.SendLine("");
            var collected = await tool.WaitForExitAsync();
            collecting.Stop();
            Assert.True(collected.ExitCode == 0, collected.ToString());
            var live = AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(basePath + ".json"));

            // At least the four slices waited for; on a busy machine the stop may land in a fifth. The hop pass is windowed by
            // default on an attached process: each hop slice has its windows and a counters trace that spans them. Every
            // trace is in the report.
            var slices = Directory.GetFiles(directory.Path, "*.nettrace").Order(StringComparer.Ordinal).ToArray();
            Assert.InRange(slices.Count(f => f.Contains(".allocations.", StringComparison.Ordinal)), 2, int.MaxValue);
            Assert.InRange(slices.Count(f => f.EndsWith(".counters.nettrace", StringComparison.Ordinal)), 2, int.MaxValue);
            Assert.Equal(slices.Length, live.Passes.Sum(p => p.TraceFiles.Count));
            var read = await ChildProcess.RunToolAsync(["report", .. slices, "--format", "json"]);

            Assert.True(read.ExitCode == 0, read.ToString());
            var offline = AsyncCostReportJson.Deserialize(read.StandardOutput);
            Assert.Equal(live.Passes.Select(p => (p.Pass, p.Events, p.TraceFiles.Count)), offline.Passes.Select(p => (p.Pass, p.Events, p.TraceFiles.Count)));
            Assert.Equal(live.Methods.Select(m => m.MethodKey).Order(StringComparer.Ordinal), offline.Methods.Select(m => m.MethodKey).Order(StringComparer.Ordinal));
            foreach (var method in live.Methods)
            {
                var same = offline.Methods.Single(m => m.MethodKey == method.MethodKey);
                SameFigure(method.Bytes, same.Bytes, method.MethodKey + " bytes");
                SameFigure(method.Calls, same.Calls, method.MethodKey + " calls");
                SameFigure(method.SuspendingCalls, same.SuspendingCalls, method.MethodKey + " suspending calls");
                SameFigure(method.Hops, same.Hops, method.MethodKey + " hops");
            }
            SameFigure(live.Totals.AllocatedBytes, offline.Totals.AllocatedBytes, "allocated bytes");
            SameFigure(live.Totals.Hops, offline.Totals.Hops, "hops");
            SameFigure(live.Totals.CompletedWorkItems, offline.Totals.CompletedWorkItems, "work items");
            // The live duration is the tool's clock, the offline one the span of the slices' own events (session start-up and
            // rundown included, which take longer on a busy machine): each is some of the time collect ran, and never none.
            foreach (var (recorded, traced) in live.Passes.Zip(offline.Passes))
            {
                Assert.InRange(recorded.Duration, TimeSpan.FromTicks(1), collecting.Elapsed);
                Assert.InRange(traced.Duration, TimeSpan.FromTicks(1), collecting.Elapsed);
            }
        }
        finally
        {
            await workload.StopLoopAsync();
        }
    }

    [Fact]
    public async Task A_trace_named_twice_is_read_once_and_the_report_says_so()
    {
        var once = await ChildProcess.RunToolAsync("report", AllocationTrace, "--format", "json");
        var twice = await ChildProcess.RunToolAsync("report", AllocationTrace, AllocationTrace, "--format", "json");

        Assert.True(twice.ExitCode == 0, twice.ToString());
        var single = AsyncCostReportJson.Deserialize(once.StandardOutput);
        var doubled = AsyncCostReportJson.Deserialize(twice.StandardOutput);
        Assert.Equal(single.Duration, doubled.Duration);
        Assert.Equal(single.Totals.AllocatedBytes!.Value, doubled.Totals.AllocatedBytes!.Value);
        Assert.Single(doubled.Passes);
        Assert.Single(doubled.Source.TraceFiles);
        Assert.Contains(doubled.Warnings, w => w.Code == "trace-given-twice" && w.Message.Contains(AllocationTrace, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("symlink")]
    [InlineData("copy")]
    public async Task A_trace_given_again_as_a_link_or_a_copy_is_read_once(string how)
    {
        using var directory = new TemporaryDirectory("asynccost-same-");
        var again = directory.File("again.nettrace");
        if (how == "symlink")
        {
            File.CreateSymbolicLink(again, AllocationTrace);
        }
        else
        {
            File.Copy(AllocationTrace, again);
        }

        var once = AsyncCostReportJson.Deserialize((await ChildProcess.RunToolAsync("report", AllocationTrace, "--format", "json")).StandardOutput);
        var result = await ChildProcess.RunToolAsync("report", AllocationTrace, again, "--format", "json");

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
        Assert.Equal(once.Totals.AllocatedBytes!.Value, report.Totals.AllocatedBytes!.Value);
        Assert.Equal(once.Passes.Single().Events, report.Passes.Single().Events);
        Assert.Equal(once.Methods.Select(m => (m.MethodKey, m.Calls?.Value)), report.Methods.Select(m => (m.MethodKey, m.Calls?.Value)));
        Assert.Contains(report.Warnings, w => w.Code == "trace-given-twice" && w.Message.Contains(again, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Traces_of_different_runs_are_added_with_a_warning_that_says_which()
    {
        var webShopHops = Path.Combine(RecordedDirectory, "webshop.hops.nettrace");

        var result = await ChildProcess.RunToolAsync("report", HopTrace, webShopHops, "--format", "json");

        Assert.True(result.ExitCode == 0, result.ToString());
        var warning = Assert.Single(AsyncCostReportJson.Deserialize(result.StandardOutput).Warnings,
            w => w.Code == "traces-of-different-runs" && w.Message.StartsWith("The hops traces come from 2 processes", StringComparison.Ordinal));
        Assert.Contains(HopTrace, warning.Message, StringComparison.Ordinal);
        Assert.Contains(webShopHops, warning.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_damaged_trace_among_several_is_named_and_the_others_are_still_read()
    {
        var damaged = Path.Combine(Path.GetTempPath(), $"asynccost-{Guid.NewGuid():N}.hops.nettrace");
        var bytes = await File.ReadAllBytesAsync(HopTrace);
        await File.WriteAllBytesAsync(damaged, bytes[..64]);
        try
        {
            // The damaged file first: the one after it must still be read.
            var result = await ChildProcess.RunToolAsync("report", damaged, AllocationTrace, "--format", "json");

            Expect.OneLineError(result, 16, damaged);
            var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
            var pass = Assert.Single(report.Passes);
            Assert.Equal(MeasurementPasses.Allocations, pass.Pass);
            Assert.True(pass.Events > 0);
            Assert.True(report.Totals.AllocatedBytes is { Value: > 0 }, "the readable trace's allocations are reported");
            Assert.Contains(report.Warnings, w => w.Code == "trace-damaged" && w.Message.Contains(damaged, StringComparison.Ordinal));
        }
        finally
        {
            File.Delete(damaged);
        }
    }

    private static void SameFigure(Figure? expected, Figure? actual, string what)
    {
        Assert.True((expected is null) == (actual is null), $"{what}: {expected?.Value} vs {actual?.Value}");
        if (expected is not null)
        {
            // Sums of the same samples in another order: equal but for the last bits of a double.
            Assert.True(Math.Abs(expected.Value - actual!.Value) <= 1e-9 * Math.Max(1, Math.Abs(expected.Value)), $"{what}: {expected.Value} vs {actual.Value}");
            Assert.Equal(expected.Samples, actual.Samples);
        }
    }
}
