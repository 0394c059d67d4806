using AsyncCost.Report;
using AsyncCost.Sessions;
using AsyncCost.Tests.GroundTruth;
using AsyncCost.Tests.Support;

namespace AsyncCost.Tests.Sessions;

[Collection(nameof(ChildProcesses))]
public class LaunchTests
{
    [Fact]
    public async Task Processes_the_launched_command_starts_do_not_inherit_the_start_up_suspension()
    {
        // Without clearing DOTNET_DefaultDiagnosticPortSuspend in the resumed child, each grandchild waits forever for a
        // resume command (checked: the session then runs to its duration and the child is killed with exit code 137).
        var lines = new List<string>();
        var report = await AsyncCostSession.LaunchAsync(WorkloadProcess.Command("spawn", 2, lines),
            new SessionOptions { Passes = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(60) });

        Assert.Equal(StopReason.ProcessExited, report.StopReason);
        Assert.Equal(0, report.Source.ExitCode);
        Assert.Equal(2, WorkloadProcess.Result(lines).Count);
    }

    [Fact]
    public async Task Reports_progress_while_recording()
    {
        var snapshots = new List<SessionProgress>();
        var lines = new List<string>();
        var progress = new Collect(snapshots);

        await AsyncCostSession.LaunchAsync(WorkloadProcess.Command("yield", 300_000, lines),
            new SessionOptions { Passes = MeasurementPasses.Hops, Progress = progress });

        lock (snapshots)
        {
            var last = snapshots[^1];
            Assert.Equal(MeasurementPasses.Hops, last.Pass);
            Assert.Equal((1, 1), (last.PassNumber, last.PassCount));
            Assert.True(last.Events > 300_000 && last.Bytes > 0, $"{last.Events} events, {last.Bytes} bytes");
        }
    }

    [Fact]
    public async Task A_launched_pass_that_the_duration_ends_is_marked_cut_short_and_says_so()
    {
        var lines = new List<string>();
        // Far more calls than a second holds on any machine: --duration ends it.
        var report = await AsyncCostSession.LaunchAsync(WorkloadProcess.Command("yield", 500_000_000, lines),
            new SessionOptions { Passes = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(1) });

        Assert.Equal(StopReason.DurationElapsed, report.StopReason);
        Assert.True(report.CutShort);
        Assert.True(Assert.Single(report.Passes).CutShort);
        Assert.Null(report.Source.ExitCode);
        Assert.Contains(report.Warnings, w => w.Code == "duration-ended-command" && w.Message.Contains("allocations pass", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Stopping_during_the_first_pass_warns_that_the_hop_pass_never_ran()
    {
        var lines = new List<string>();
        using var stop = new CancellationTokenSource();
        // Cancelled as soon as the allocation pass reports progress: it is recording.
        var progress = new Collect([], _ => stop.Cancel());

        var report = await AsyncCostSession.LaunchAsync(WorkloadProcess.Command("yield", 500_000_000, lines),
            new SessionOptions { Progress = progress }, stop.Token);

        Assert.Equal(StopReason.Canceled, report.StopReason);
        Assert.Equal([MeasurementPasses.Allocations], report.Passes.Select(p => p.Pass));
        var warning = Assert.Single(report.Warnings, w => w.Code == "passes-not-run");
        Assert.Contains("during the allocations pass: the hops pass never ran", warning.Message, StringComparison.Ordinal);
    }

    private sealed class Collect(List<SessionProgress> snapshots, Action<SessionProgress>? then = null) : IProgress<SessionProgress>
    {
        public void Report(SessionProgress value)
        {
            lock (snapshots)
            {
                snapshots.Add(value);
            }
            then?.Invoke(value);
        }
    }
}
