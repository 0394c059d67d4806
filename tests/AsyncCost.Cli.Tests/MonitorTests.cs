using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>`monitor -p`: one session for the whole run, a refresh every second, against the workload's known truth.</summary>
public sealed class MonitorTests
{
    [Fact]
    public async Task Redraws_every_second_from_one_session_with_the_workloads_known_costs()
    {
        // The workload counts, from inside, each diagnostics session that turns its System.Runtime counters on.
        using var workload = ChildProcess.StartWorkload(null, "yield", "100000", "--loop", "--count-sessions");
        await workload.WaitForLineAsync(l => l.StartsWith("RESULT", StringComparison.Ordinal));

        // Stopped after its fifth refresh rather than after a duration: how many seconds of the target's time a wall-clock
        // duration holds depends on how fast the session starts and the events arrive on a busy machine.
        using var monitor = ChildProcess.StartTool("monitor", "-p", workload.IdText);
        await monitor.WaitForLineAsync(l => l.Contains("| refresh 5 at ", StringComparison.Ordinal));
        monitor.SendLine("q");
        var result = await monitor.WaitForExitAsync();

        var workloadRun = await workload.StopLoopAsync();
        var runs = WorkloadResult.ParseAll(workloadRun.StandardOutput);
        Assert.True(result.ExitCode == 0, result.ToString());
        Expect.PlainText(result.StandardOutput);
        Assert.All(result.StandardOutput.Split('\n'), line => Assert.True(line.Length <= 80, $"{line.Length} > 80: {line}"));
        var sessions = Regex.Matches(workloadRun.StandardOutput, @"^SESSION \d+ at (\d+)$", RegexOptions.Multiline);
        Assert.True(sessions.Count == 1, $"{sessions.Count} diagnostics sessions were opened in the workload\n{result}");
        var sessionStartMs = long.Parse(sessions[0].Groups[1].Value, CultureInfo.InvariantCulture);

        // Numbered from 1 without a gap, each a whole second of the target's time after the one before (the last, cut by 'q',
        // may be a part-second). Whether they arrived on time depends on the machine's load, and the summary says so when not.
        var refreshes = MonitorRefresh.ParseAll(result.StandardOutput);
        Assert.True(refreshes.Count >= 5, result.ToString());
        Assert.Equal(Enumerable.Range(1, refreshes.Count), refreshes.Select(r => r.Number));
        foreach (var (earlier, later) in refreshes.Zip(refreshes.Skip(1)).SkipLast(1))
        {
            Assert.InRange(later.AtSeconds - earlier.AtSeconds, 0.9, 1.1);
        }
        Assert.InRange(refreshes[^1].AtSeconds - refreshes[^2].AtSeconds, 0, 1.1);

        // The refreshes after the first (which holds the session's start-up), against the workload's own runs over the same
        // stretch of its time: each box is one call of the known size, and the calls are the ones the workload completed.
        var last = refreshes.Skip(1).Where(r => r.AtSeconds == Math.Round(r.AtSeconds)).ToList();
        foreach (var refresh in last)
        {
            var row = refresh.YieldRow ?? throw new Xunit.Sdk.XunitException($"No YieldOnceAsync row in refresh {refresh.Number}\n{result}");
            var bytesPerCall = (row.BytesPerSecond ?? 0) / row.CallsPerSecond;
            Assert.True(Math.Abs(bytesPerCall - runs[0].BytesPerOp) <= runs[0].BytesPerOp * 0.04,
                $"bytes/call {bytesPerCall:F1} vs true {runs[0].BytesPerOp:F1} in refresh {refresh.Number}");
        }
        var (fromMs, toMs) = (sessionStartMs + (last[0].AtSeconds - 1) * 1000, sessionStartMs + last[^1].AtSeconds * 1000);
        var trueCalls = runs.Where(r => r.EndedAtMs > fromMs && r.EndedAtMs <= toMs).Sum(r => (double)r.Count);
        var measuredCalls = last.Sum(r => r.YieldRow!.CallsPerSecond);
        // The existing tolerance: twice the sampling bound (one sample per 100 KB allocated), at least 2 %; and one run
        // (of 100,000 calls) either side for where the window's edges fall in the workload's runs.
        var samples = last.Sum(r => r.YieldRow!.BytesPerSecond ?? 0) / 102_400;
        var allowed = trueCalls * 2 * Math.Max(1.96 / Math.Sqrt(samples), 0.02) + 2 * runs[0].Count;
        Assert.True(Math.Abs(measuredCalls - trueCalls) <= allowed,
            $"calls {measuredCalls:N0} vs the workload's {trueCalls:N0} between {fromMs} and {toMs} ms (allowed ±{allowed:N0})\n{result}");
    }

    [Fact]
    public async Task Allocations_and_hops_share_the_session_and_q_quits_promptly()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        using var monitor = ChildProcess.StartTool("monitor", "-p", workload.IdText, "--passes", "allocations,hops");

        // A row with bytes/s, objects/s, calls/s and hops/s; then quit while the TPL stream may still be behind.
        await monitor.WaitForLineAsync(l => Regex.IsMatch(l, @"YieldOnceAsync\s+[\d.]+ [KMG]?B\s+[\d,]+\s+[\d,]+\s+[\d,]+$"));
        var clock = Stopwatch.StartNew();
        monitor.SendLine("q");
        var result = await monitor.WaitForExitAsync();

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"took {clock.Elapsed} to quit\n{result}");
        Assert.True(result.ExitCode == 0, result.ToString());
        Expect.PlainText(result.StandardOutput);
        Assert.Matches(@"(?s)pid \d+ dotnet \|.*work items/s [\d,]+", result.StandardOutput);
        await workload.StopLoopAsync();
    }

    [Fact]
    public async Task Hop_stream_alone_counts_one_hop_per_suspending_call()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();

        // Stopped once the refresh after the first with the method's row is complete (the next one has begun): a hop stream
        // arrives late on a busy machine, so a fixed duration may end before any whole second of it is in.
        using var monitor = ChildProcess.StartTool("monitor", "-p", workload.IdText, "--passes", "hops");
        int? shown = null, firstWithRow = null;
        await monitor.WaitForLineAsync(l =>
        {
            if (Regex.Match(l, @"\| refresh (\d+) at ") is { Success: true } summary)
            {
                shown = int.Parse(summary.Groups[1].Value, CultureInfo.InvariantCulture);
                return shown >= firstWithRow + 2;
            }

            firstWithRow ??= Regex.IsMatch(l, @"YieldOnceAsync\s+-\s+-\s+[\d,]+\s+[\d,]+$") ? shown : null;
            return false;
        });
        monitor.SendLine("q");
        var result = await monitor.WaitForExitAsync();

        await workload.StopLoopAsync();
        Assert.True(result.ExitCode == 0, result.ToString());
        var row = MonitorRefresh.ParseAll(result.StandardOutput).Last(r => r.YieldRow is not null).YieldRow!;
        Assert.Null(row.BytesPerSecond);
        // Both from the one TPL stream, exact: the attach tolerance of the hop pass (edges cut calls from their hops).
        Assert.InRange(row.HopsPerSecond!.Value / row.CallsPerSecond, 0.95, 1.05);
    }

    [Fact]
    public async Task A_target_that_exits_ends_the_monitor_with_exit_code_19_every_time()
    {
        for (var run = 0; run < 3; run++)
        {
            using var workload = ChildProcess.StartWorkload(null, "yield", "300000", "--wait");
            await workload.WaitForLineAsync(l => l.StartsWith("READY", StringComparison.Ordinal));
            using var monitor = ChildProcess.StartTool("monitor", "-p", workload.IdText);
            await monitor.WaitForLineAsync(l => l.Contains("refresh 1 ", StringComparison.Ordinal));

            workload.SendLine("go");
            var result = await monitor.WaitForExitAsync();

            Expect.OneLineError(result, 19, $"Process {workload.Id} exited.");
        }
    }

    [Fact]
    public async Task A_process_that_allocates_little_gets_an_empty_table_that_says_why()
    {
        using var idle = ChildProcess.StartWorkload(null, "yield", "1", "--wait");
        await idle.WaitForLineAsync(l => l.StartsWith("READY", StringComparison.Ordinal));

        var result = await ChildProcess.RunToolAsync("monitor", "-p", idle.IdText, "--duration", "3s");

        idle.SendLine("go");
        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains("refresh 1 at", result.StandardOutput, StringComparison.Ordinal);
        var said = string.Join(" ", result.StandardOutput.Split('\n').Select(l => l.Trim()));
        Assert.Contains("No async method was seen this second: the allocation stream samples about one allocation per 100 KB allocated", said, StringComparison.Ordinal);
        Assert.All(result.StandardOutput.Split('\n'), line => Assert.True(line.Length <= 80, $"{line.Length} > 80: {line}"));
    }

    /// <summary>One refresh as printed when redirected: its summary line and the workload's Task.Yield row.</summary>
    private sealed record MonitorRefresh(int Number, double AtSeconds, double? WorkItemsPerSecond, YieldRate? YieldRow)
    {
        private static readonly Regex Summary = new(@"refresh (?<n>\d+) at (?<at>[\d.]+) s");
        // The summary goes on under its first line when it does not fit 80 columns.
        private static readonly Regex WorkItems = new(@"work items/s (?<items>[\d,]+)");
        private static readonly Regex Row = new(@"YieldOnceAsync\s+(?:(?<bytes>[\d.]+) (?<unit>[KMG]?B)|-)\s+(?:[\d,]+|-)\s+(?<calls>[\d,]+)\s+(?<hops>[\d,]+|-)$");

        public static List<MonitorRefresh> ParseAll(string output)
        {
            var refreshes = new List<MonitorRefresh>();
            foreach (var line in output.Split('\n'))
            {
                if (Summary.Match(line) is { Success: true } summary)
                {
                    refreshes.Add(new MonitorRefresh(int.Parse(summary.Groups["n"].Value, CultureInfo.InvariantCulture),
                        double.Parse(summary.Groups["at"].Value, CultureInfo.InvariantCulture), null, null));
                }

                if (WorkItems.Match(line) is { Success: true } items && refreshes.Count > 0)
                {
                    refreshes[^1] = refreshes[^1] with { WorkItemsPerSecond = Parse(items.Groups["items"].Value) };
                }
                else if (Row.Match(line.TrimEnd()) is { Success: true } row && refreshes.Count > 0)
                {
                    refreshes[^1] = refreshes[^1] with
                    {
                        YieldRow = new YieldRate(
                            row.Groups["bytes"].Success ? Parse(row.Groups["bytes"].Value) * Unit(row.Groups["unit"].Value) : null,
                            Parse(row.Groups["calls"].Value),
                            row.Groups["hops"].Value == "-" ? null : Parse(row.Groups["hops"].Value)),
                    };
                }
            }
            return refreshes;
        }

        private static double Parse(string text) => double.Parse(text, NumberStyles.Number, CultureInfo.InvariantCulture);

        private static double Unit(string unit) => unit switch { "KB" => 1024, "MB" => 1024 * 1024, "GB" => 1024 * 1024 * 1024, _ => 1 };
    }

    private sealed record YieldRate(double? BytesPerSecond, double CallsPerSecond, double? HopsPerSecond);
}
