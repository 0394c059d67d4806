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

    private sealed class Collect(List<SessionProgress> snapshots) : IProgress<SessionProgress>
    {
        public void Report(SessionProgress value)
        {
            lock (snapshots)
            {
                snapshots.Add(value);
            }
        }
    }
}
